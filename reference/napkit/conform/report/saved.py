"""A saved JSON report of ``napkit conform`` read back, for ``napkit report site`` and
``napkit report diff``: checked as far as they use it, and refused otherwise with one line
naming the file and the JSON path of what is wrong (``run.json: $.cases[3].status: ...``).

Fields a report may or may not have (the version of the program, the failures drawn as hands,
the timings, an interrupted run's mark) are not required: older and newer reports are read
alike. But a count or a verdict a report gives must be its cases' (spec/conformance.md 9): a
report whose totals, tables by ruleset or by rule, or ``ok`` disagree with its own cases, or
that gives a count below 0, has been edited or broken, and is refused, naming the JSON path,
rather than drawn ("-5 cases run", "ok" over a failed case). Every command that reads a saved
report reads it so: ``napkit report merge``, ``diff``, ``html`` and ``site`` (and its badges).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from napkit.conform.run.runner import (
    FAILED,
    RULE_NOT_NAMED,
    SKIPPED,
    STATUSES,
    XPASS,
    nothing_checked,
    run_ok,
)
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
        return (f"$.format: {REPORT_FORMAT!r} was expected, not "
                f"{_value(document.get('format'))}")
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
        duration = case.get("duration", 0)
        if not _number(duration) or duration < 0:
            return (f"{where}.duration: seconds (a number from 0) were expected, not "
                    f"{_value(duration)}")
    return _counts_problem(document, cases)


def _counts_problem(document: Mapping[str, Any], cases: list[dict[str, Any]]) -> str | None:
    """What a report's counts and verdict say that its cases do not (``$.PATH: WHAT``), or
    None: each count it gives is recounted from its cases, as napkit conform counts them."""
    interrupted = document.get("interrupted", False)
    if not isinstance(interrupted, bool):
        return f"$.interrupted: true or false was expected, not {_kind(interrupted)}"
    counts = Counter(c["status"] for c in cases)
    totals = document.get("totals", {})
    if not isinstance(totals, dict):
        return f"$.totals: an object was expected, not {_kind(totals)}"
    for key in _TOTALS:
        if key in totals and not _count(totals[key]):
            return (f"$.totals.{key}: a count (a whole number from 0) was expected, not "
                    f"{_value(totals[key])}")
    seconds = totals.get("seconds", 0)
    if not _number(seconds) or seconds < 0:
        return f"$.totals.seconds: seconds (a number from 0) were expected, not {_value(seconds)}"
    if totals.get("cases", len(cases)) != len(cases):
        return f"$.totals.cases: {totals['cases']}, but the report lists {len(cases)} cases"
    recounted = {**{s: counts[s] for s in STATUSES},
                 "rule_not_named": sum(c.get("note") == RULE_NOT_NAMED for c in cases)}
    for key, value in recounted.items():
        if key in totals and totals[key] != value:
            return (f"$.totals.{key}: {totals[key]}, but {value} of the report's cases "
                    f"{_status_words(key)}")
    selected = totals.get("selected")
    if selected is not None and selected < len(cases):
        return f"$.totals.selected: {selected}, fewer than the {len(cases)} cases listed"
    if selected is not None and "not_run" in totals and totals["not_run"] != selected - len(
            cases):
        return (f"$.totals.not_run: {totals['not_run']}, but {selected} cases were selected "
                f"and {len(cases)} are listed")
    for table, key in (("by_ruleset", "ruleset"), ("by_rule", "rules")):
        problem = _table_problem(document, table, key, cases)
        if problem is not None:
            return problem
    return _verdict_problem(document, cases, counts, interrupted)


_TOTALS = ("cases", "selected", *STATUSES, "rule_not_named", "not_run")


def _table_problem(document: Mapping[str, Any], table: str, key: str,
                   cases: list[dict[str, Any]]) -> str | None:
    """What is wrong with the report's table ``by_ruleset`` or ``by_rule``, recounted from
    its cases (each under its ruleset, or under every rule it exercises)."""
    given = document.get(table)
    if given is None:
        return None
    if not isinstance(given, dict):
        return f"$.{table}: an object was expected, not {_kind(given)}"
    recounted: dict[str, Counter[str]] = {}
    for c in cases:
        for name in (c["ruleset"],) if key == "ruleset" else c.get("rules", []):
            recounted.setdefault(name, Counter())[c["status"]] += 1
    for key_name, row in given.items():
        name = _value(key_name)[1:-1]  # a name from the file, safe to print
        if not isinstance(row, dict):
            return f"$.{table}.{name}: an object was expected, not {_kind(row)}"
        for status in STATUSES:
            if status not in row:
                continue
            if not _count(row[status]):
                return (f"$.{table}.{name}.{status}: a count (a whole number from 0) was "
                        f"expected, not {_value(row[status])}")
            if row[status] != recounted.get(key_name, Counter())[status]:
                return (f"$.{table}.{name}.{status}: {row[status]}, but "
                        f"{recounted.get(key_name, Counter())[status]} of the report's cases "
                        f"{_status_words(status)}")
    missing = sorted(set(recounted) - set(given))
    if missing:
        return (f"$.{table}: no row for {_value(missing[0])}, which cases of the report "
                "have")
    return None


def _verdict_problem(document: Mapping[str, Any], cases: list[dict[str, Any]],
                     counts: Counter[str], interrupted: bool) -> str | None:
    """What is wrong with the report's ``ok``: the cases' verdict (spec/conformance.md 2.2,
    7.3: nothing failed or passed unexpectedly, not interrupted, something checked)."""
    if "ok" not in document:
        return None
    ok = document["ok"]
    if not isinstance(ok, bool):
        return f"$.ok: true or false was expected, not {_kind(ok)}"
    if ok == run_ok(counts, interrupted):
        return None
    if not ok:
        return ("$.ok: false, but none of the report's cases failed or passed unexpectedly, "
                "and its run was not interrupted")
    bad = next((n for n, c in enumerate(cases) if c["status"] in (FAILED, XPASS)), None)
    if bad is not None:
        return f"$.ok: true, but $.cases[{bad}] is {cases[bad]['status']}"
    if interrupted:
        return "$.ok: true, but the run was interrupted ($.interrupted)"
    assert nothing_checked(counts)
    if _written_before_nothing_checked(document):
        return None  # its readers draw the verdict from the cases: NOTHING CHECKED
    return f"$.ok: true, but every one of the report's cases is {SKIPPED}: nothing was checked"


def _written_before_nothing_checked(document: Mapping[str, Any]) -> bool:
    """Whether the report was written by napkit 0.3.0 or earlier, which gave ``ok: true`` to a
    run whose every case was skipped (spec/CHANGELOG.md, issue 27): such a report is read,
    under the verdict of today."""
    versions = document.get("versions")
    made_by = versions.get("napkit") if isinstance(versions, dict) else None
    if not isinstance(made_by, str):
        return False
    parts = made_by.split(".")
    if len(parts) < 2 or not all(p.isdigit() and p.isascii() for p in parts[:3]):
        return False
    return tuple(int(p) for p in parts[:3]) <= (0, 3, 0)


def _status_words(status: str) -> str:
    return {"rule_not_named": "passed with no rule named"}.get(status, f"are {status}")


def _value(value: object, limit: int = 60) -> str:
    """A value from the file, for a message: as JSON (a string quoted, its control characters
    escaped), shortened, with its length, where long."""
    from napkit.output.tables import printable

    text = json.dumps(value, ensure_ascii=False)
    return printable(text if len(text) <= limit else
                     f"{text[:limit]}…({len(text):,} characters)")


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _number(value: object) -> bool:
    return type(value) in (int, float)


def _kind(value: object) -> str:
    if value is None:
        return "null (or nothing)"
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


__all__ = ["REPORT_FORMAT", "ReportFileError", "check_report", "read_report"]
