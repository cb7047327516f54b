"""The coverage matrix: for every rule of the law book that governs play, how many conformance
cases exercise it in each ruleset.

Rows are the law book's play rules, in its order; columns are the rulesets. A cell holds the
number of cases of that ruleset tagged with that rule; it is ``-`` where the ruleset does not
have the rule in force, and **empty** where it has the rule in force and no case tags it: a
hole in the suite, which a test refuses (issue 6: every rule that governs play has a case in
every ruleset where it applies).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from napkit.spec.catalog import Spec


class Tagged(Protocol):
    """What the matrix reads of a case (:class:`napkit.conform.suite.Case` has it)."""

    @property
    def ruleset(self) -> str: ...

    @property
    def rules(self) -> Sequence[str]: ...


def _fields(case: Tagged | Mapping[str, Any]) -> tuple[str, Sequence[str]]:
    if isinstance(case, Mapping):
        return str(case["ruleset"]), list(case["rules"])
    return case.ruleset, case.rules


def counts(cases: Iterable[Tagged | Mapping[str, Any]]) -> Counter[tuple[str, str]]:
    """(ruleset, rule id) -> the number of cases of that ruleset tagged with that rule."""
    found: Counter[tuple[str, str]] = Counter()
    for case in cases:
        ruleset, rules = _fields(case)
        for rule in set(rules):
            found[ruleset, rule] += 1
    return found


def empty_cells(cases: Iterable[Tagged | Mapping[str, Any]],
                spec: Spec | None = None) -> list[tuple[str, str]]:
    """(rule id, ruleset) of every empty cell: a play rule in force with no case."""
    spec = spec or _spec()
    found = counts(cases)
    return [(rule.id, ruleset.id)
            for rule in spec.lawbook if rule.kind == "play"
            for ruleset in spec.rulesets.values()
            if rule.id in ruleset.rules and not found[ruleset.id, rule.id]]


def main_matrix(cases: Iterable[Tagged | Mapping[str, Any]],
                spec: Spec | None = None) -> tuple[list[str], bool]:
    """The rule-by-ruleset matrix of case counts as lines of text, and whether any cell is
    empty (a play rule in force in a ruleset that no case of that ruleset exercises)."""
    spec = spec or _spec()
    cases = list(cases)
    found = counts(cases)
    rulesets = list(spec.rulesets.values())
    play = [rule for rule in spec.lawbook if rule.kind == "play"]
    totals = Counter(_fields(case)[0] for case in cases)

    header = ["rule", *(r.id for r in rulesets)]
    rows: list[list[str]] = []
    holes: list[str] = []
    for rule in play:
        row = [rule.id]
        for ruleset in rulesets:
            if rule.id not in ruleset.rules:
                row.append("-")
            elif found[ruleset.id, rule.id]:
                row.append(str(found[ruleset.id, rule.id]))
            else:
                row.append("")
                holes.append(f"{rule.id} in {ruleset.id}")
        rows.append(row)
    rows.append(["cases", *(str(totals[r.id]) for r in rulesets)])

    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]

    def render(line: list[str]) -> str:
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:], widths[1:], strict=True)]
        return "  ".join(cells).rstrip()

    lines = [render(header), render(["-" * w for w in widths])]
    lines += [render(row) for row in rows[:-1]]
    lines += [render(["-" * w for w in widths]), render(rows[-1])]
    if holes:
        lines.append(f"empty cells ({len(holes)}): " + ", ".join(holes))
    else:
        lines.append(f"no empty cell: every play rule in force in each of the {len(rulesets)} "
                     f"rulesets has a case ({len(cases)} cases)")
    return lines, bool(holes)


def _spec() -> Spec:
    from napkit.spec.catalog import default_spec

    return default_spec()


__all__ = ["Tagged", "counts", "empty_cells", "main_matrix"]
