"""Two runs of one program compared, case by case (``napkit report diff OLD.json NEW.json``):
what newly fails, what newly passes, what is no longer run, so that a program's author sees a
regression in CI.

A case *fails* when it failed or passed unexpectedly (what makes ``napkit conform`` exit 1).
It *newly fails* when it fails in the new run and did not in the old one, whether the old run
passed it, skipped it, expected it to fail, or did not have it (a case added to the suite since,
or outside the old run's filters); the command exits 1 then. It *newly passes* when it failed in
the old run and passes in the new one.

>>> old = {"program": {"name": "my-nap 1.0"}, "cases": [
...     {"id": "classic/legal/0001", "ruleset": "classic", "status": "passed"},
...     {"id": "classic/legal/0002", "ruleset": "classic", "status": "failed"}]}
>>> new = {"program": {"name": "my-nap 1.1"}, "cases": [
...     {"id": "classic/legal/0001", "ruleset": "classic", "status": "failed",
...      "message": "step 5: the legal actions differ"},
...     {"id": "classic/legal/0002", "ruleset": "classic", "status": "passed"}]}
>>> found = diff_runs(old, new)
>>> [c["id"] for c in found.newly_failing], [c["id"] for c in found.newly_passing]
(['classic/legal/0001'], ['classic/legal/0002'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from napkit.conform.run.runner import FAILED, PASSED, SKIPPED, XFAIL, XPASS
from napkit.output.tables import printable_lines, shorten
from napkit.protocol.process import LONGEST_NAME, LONGEST_TEXT

BAD = (FAILED, XPASS)
CaseJSON = dict[str, Any]


@dataclass
class RunDiff:
    """What changed from one run to the next, each list in the new run's order of cases."""

    old_program: str
    new_program: str
    newly_failing: list[CaseJSON] = field(default_factory=list)  # the new run's case
    newly_passing: list[CaseJSON] = field(default_factory=list)  # the new run's case
    still_failing: list[CaseJSON] = field(default_factory=list)
    not_run: list[CaseJSON] = field(default_factory=list)  # the old run's case, now skipped or gone
    was: dict[str, str] = field(default_factory=dict)  # each changed case's old outcome
    notes: list[str] = field(default_factory=list)

    @property
    def regressed(self) -> bool:
        return bool(self.newly_failing)


def _cases(document: Mapping[str, Any]) -> dict[str, CaseJSON]:
    found = document.get("cases")
    return {c["id"]: c for c in found if isinstance(c, dict)} if isinstance(found, list) else {}


def diff_runs(old: Mapping[str, Any], new: Mapping[str, Any]) -> RunDiff:
    """The cases whose outcome changed from ``old`` to ``new`` (two JSON reports)."""
    names = [str(d.get("program", {}).get("name", "?")) for d in (old, new)]
    diff = RunDiff(names[0], names[1])
    before, after = _cases(old), _cases(new)
    for case_id, case in after.items():
        previous = before.get(case_id)
        was = previous["status"] if previous is not None else "not run"
        if case["status"] in BAD and was not in BAD:
            diff.newly_failing.append(case)
            diff.was[case_id] = was
        elif case["status"] in BAD:
            diff.still_failing.append(case)
        elif was in BAD and case["status"] in (PASSED, XFAIL):
            diff.newly_passing.append(case)
            diff.was[case_id] = was
        elif was in (PASSED, XFAIL) and case["status"] == SKIPPED:
            diff.not_run.append(case)
            diff.was[case_id] = was
    for case_id, case in before.items():
        if case_id not in after and case["status"] != SKIPPED:
            diff.not_run.append(case)
            diff.was[case_id] = case["status"]
    if _bare(names[0]) != _bare(names[1]):
        diff.notes.append(f"the runs are of two programs: {names[0]} and {names[1]}")
    if old.get("suite") != new.get("suite") and old.get("suite") and new.get("suite"):
        diff.notes.append(f"the runs are of two suites: {old.get('suite')} and "
                          f"{new.get('suite')}")
    return diff


def _bare(name: str) -> str:
    """A program's name without its version (``my-nap 1.1`` → ``my-nap``)."""
    words = name.split()
    return " ".join(words[:-1]) if len(words) > 1 and words[-1][:1].isdigit() else name


def diff_lines(diff: RunDiff, shown: int = 50) -> list[str]:
    """The diff for people: the cases that newly fail (with their messages), newly pass and
    are no longer run, then one line of counts. A report is read from outside (a forged one
    as well as napkit's): what it says is shortened to what napkit keeps of a program's
    strings (napkit.protocol.process.LONGEST_TEXT) and each line made printable."""
    def said(value: object, limit: int = LONGEST_TEXT) -> str:
        return shorten(str(value), limit)

    lines = [f"from {said(diff.old_program, 3 * LONGEST_NAME)} to "
             f"{said(diff.new_program, 3 * LONGEST_NAME)}:"]
    for title, found in (("newly failing", diff.newly_failing),
                         ("newly passing", diff.newly_passing),
                         ("no longer run", diff.not_run)):
        if not found:
            continue
        lines.append(f"{title} ({len(found)}):")
        gone = found is diff.not_run
        for case in found[:shown]:
            now = "not run" if gone else case["status"]
            message = f": {said(case['message'])}" if case.get("message") and not gone else ""
            lines.append(f"  {said(case['id'])} (was {said(diff.was.get(case['id'], ''))}, "
                         f"now {said(now)}){message}")
        if len(found) > shown:
            lines.append(f"  ... and {len(found) - shown} more")
    lines += [f"note: {said(note, 2 * LONGEST_TEXT)}" for note in diff.notes]
    verdict = "REGRESSED" if diff.regressed else "ok"
    lines.append(f"{verdict}: {len(diff.newly_failing)} newly failing, "
                 f"{len(diff.newly_passing)} newly passing, {len(diff.still_failing)} still "
                 f"failing, {len(diff.not_run)} no longer run")
    return printable_lines(lines)


__all__ = ["RunDiff", "diff_lines", "diff_runs"]
