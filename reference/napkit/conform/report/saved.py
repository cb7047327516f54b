"""A saved JSON report of ``napkit conform`` read back, for ``napkit report site`` and
``napkit report diff``: checked as far as they use it, and refused otherwise with one line
naming the file and the JSON path of what is wrong (``run.json: $.cases[3].status: ...``).

Fields a report may or may not have (the version of the program, the failures drawn as hands,
the timings, an interrupted run's mark) are not required: older and newer reports are read
alike.
"""

from __future__ import annotations

from typing import Any

from napkit.conform.run.runner import STATUSES
from napkit.reading import ReadError, loads, not_utf8

REPORT_FORMAT = "napkit-conform-report/1"


class ReportFileError(Exception):
    """A file that cannot be read as a JSON report: one line, naming the file."""


def read_json(path: str) -> object:
    """The JSON value in ``path``, read strictly (a report's times are not whole numbers);
    :class:`ReportFileError` naming the file otherwise."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise ReportFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode()
    except UnicodeDecodeError as exc:
        raise ReportFileError(f"{path}: not a JSON report: {not_utf8(exc)}") from None
    try:
        return loads(text, whole=False)
    except ReadError as exc:
        raise ReportFileError(f"{path}: not a JSON report: {exc.where}: {exc.message}"
                              ) from None


def read_report(path: str) -> dict[str, Any]:
    """The JSON report in ``path``, checked (:func:`check_report`)."""
    document = read_json(path)
    problem = check_report(document)
    if problem is not None:
        raise ReportFileError(f"{path}: not a napkit conform JSON report: {problem}")
    assert isinstance(document, dict)
    return document


def check_report(document: object) -> str | None:
    """What is wrong with ``document`` as a JSON report (``$.PATH: WHAT``), or None."""
    if not isinstance(document, dict):
        return f"$: an object was expected, not {_kind(document)}"
    if document.get("format") != REPORT_FORMAT:
        return f"$.format: {REPORT_FORMAT!r} was expected, not {document.get('format')!r}"
    program = document.get("program")
    if not isinstance(program, dict) or not isinstance(program.get("name"), str):
        return "$.program.name: the program's name (a string) is missing"
    cases = document.get("cases")
    if not isinstance(cases, list):
        return f"$.cases: a list of cases was expected, not {_kind(cases)}"
    for n, case in enumerate(cases):
        where = f"$.cases[{n}]"
        if not isinstance(case, dict):
            return f"{where}: an object was expected, not {_kind(case)}"
        for key in ("id", "ruleset", "status"):
            if not isinstance(case.get(key), str):
                return f"{where}.{key}: a string was expected, not {_kind(case.get(key))}"
        if not case["status"]:
            return f"{where}.status: an outcome ({', '.join(STATUSES)}) was expected"
        rules = case.get("rules", [])
        if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
            return f"{where}.rules: a list of rule ids was expected"
    return None


def _kind(value: object) -> str:
    if value is None:
        return "null (or nothing)"
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


__all__ = ["REPORT_FORMAT", "ReportFileError", "check_report", "read_report"]
