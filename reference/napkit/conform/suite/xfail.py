"""The expected-failures file (napkit-xfail/1, spec/conformance.md part 1): what a program
knowingly does differently.

``{"format": "napkit-xfail/1", "cases": {CASE-ID: REASON}, "rules": {RULE-ID: REASON}}``. A
listed case, or a case that exercises a listed rule, is expected to fail: if it fails it is
an *expected failure* (xfail); if it passes, an *unexpected pass* (xpass), which fails the run
so that the file stays true. Skipped cases stay skipped.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from napkit.conform.suite.cases import Case
from napkit.conform.suite.versions import current_rule
from napkit.errors import json_path
from napkit.reading import ReadError, loads, not_utf8

if TYPE_CHECKING:  # the runner (and the protocol behind it) is imported to classify a result:
    from napkit.conform.run.runner import CaseResult  # napkit conform imports this module early

XFAIL_FORMAT = "napkit-xfail/1"
_RULE = re.compile(r"^NAP-[0-9]+\.[0-9]+\.[0-9]+$")


class XfailError(Exception):
    """A malformed expected-failures file: the file, the JSON path, what is wrong."""

    def __init__(self, file: str, path: str, message: str) -> None:
        super().__init__(file, path, message)
        self.file, self.path, self.message = file, path, message

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}"


@dataclass(frozen=True)
class Expected:
    """The expected failures: by case id and by rule id, each with its reason."""

    cases: dict[str, str] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)
    file: str = ""  # where the entries were read, as given (named by an unexpected pass)

    def entry(self, case: Case) -> str | None:
        """The entry that expects ``case`` to fail, as a person finds it in the file
        (``"cases": "pagat/legal/0001"``, ``"rules": "NAP-8.1.1"``), or None."""
        if case.id in self.cases:
            return f'"cases": "{case.id}"'
        rule = next((rule for rule in case.rules if rule in self.rules), None)
        return None if rule is None else f'"rules": "{rule}"'

    def reason(self, case: Case) -> str | None:
        """Why ``case`` is expected to fail, or None if it is not."""
        if case.id in self.cases:
            return self.cases[case.id]
        for rule in case.rules:
            if rule in self.rules:
                return f"{rule}: {self.rules[rule]}"
        return None

    def classify(self, result: CaseResult) -> CaseResult:
        """A failure or pass of a listed case as an expected failure or unexpected pass."""
        from napkit.conform.run.runner import FAILED, PASSED, XFAIL, XPASS

        if result.status not in (PASSED, FAILED):
            return result
        reason = self.reason(result.case)
        if reason is None:
            return result
        if result.status == FAILED:
            return replace(result, status=XFAIL, reason=reason)
        entry = self.entry(result.case)
        where = f" in {self.file}" if self.file else ""
        hint = (f"it passes now: delete its entry ({entry}) from {self.file or 'the file'}"
                if entry.startswith('"cases"')
                else f"it passes now, but the entry {entry}{where} expects every case of that "
                     "rule to fail: delete it, or list the cases that still fail under "
                     '"cases" instead (--write-xfail does)') if entry else ""
        return replace(result, status=XPASS, reason=reason, message=hint)

    def unknown_cases(self, ids: AbstractSet[str]) -> list[str]:
        """Listed case ids that are not in the suite (worth a warning: a stale entry); none
        listed, ``ids`` is not read (napkit.conform.suite.cases.SuiteIds lists the suite when
        asked)."""
        return sorted(case_id for case_id in set(self.cases) if case_id not in ids)


def load_xfail(path: Path) -> Expected:
    """Read and check an expected-failures file; XfailError if it is not one."""
    shown = str(path)
    try:
        doc = loads(path.read_text(encoding="utf-8"))  # strictly: see napkit.reading
    except OSError as exc:
        raise XfailError(shown, "$", f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise XfailError(shown, "$", not_utf8(exc)) from None
    except ReadError as exc:
        raise XfailError(shown, exc.where, exc.what()) from None
    if not isinstance(doc, dict):
        raise XfailError(shown, "$", "an expected-failures file is a JSON object")
    if doc.get("format") != XFAIL_FORMAT:
        raise XfailError(shown, "$.format", f"expected {XFAIL_FORMAT!r}, not "
                                            f"{doc.get('format')!r}")
    for name in doc:
        if name not in ("format", "cases", "rules"):
            raise XfailError(shown, json_path([name]), f"unexpected field {name!r} (the file "
                                                       "has format, cases and rules)")
    tables: dict[str, dict[str, str]] = {}
    for name in ("cases", "rules"):
        table = doc.get(name, {})
        if not isinstance(table, dict):
            raise XfailError(shown, json_path([name]), "expected an object of ids and reasons")
        for key, reason in table.items():
            if not isinstance(reason, str) or not reason.strip():
                raise XfailError(shown, json_path([name, key]), "the reason is a sentence "
                                                                "(a non-empty string)")
            if name == "rules" and not _RULE.match(key):
                raise XfailError(shown, json_path([name, key]), f"{key!r} is not a rule id "
                                                                "(NAP-8.1.1)")
        tables[name] = dict(table)
    # A rule id renumbered by a later law book is read as the rule it now is.
    rules = {current_rule(rule): reason for rule, reason in tables["rules"].items()}
    return Expected(tables["cases"], rules, shown)


__all__ = ["XFAIL_FORMAT", "Expected", "XfailError", "load_xfail"]
