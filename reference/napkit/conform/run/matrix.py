"""The coverage matrices: for every rule of the law book that governs play, how many conformance
cases exercise it in each ruleset; and for every refusal the law book defines (NAP-1.3, the
``refusals`` of its rules), how many illegal cases of each ruleset test it.

Rows are the law book's play rules, in its order; columns are the rulesets. A cell holds the
number of cases of that ruleset tagged with that rule; it is ``-`` where the ruleset does not
have the rule in force, and **empty** where it has the rule in force and no case tags it: a
hole in the suite, which a test refuses (issue 6: every rule that governs play has a case in
every ruleset where it applies).

The breach matrix has a row per refusal: ``-`` where its rule is not in force, ``n/a`` where the
ruleset cannot offer what the refusal needs under any choice of its options (the law book's
``needs``, :func:`napkit.spec.rulesets.can_meet`), else the number of illegal cases tagged
``breach-ID``; empty is a hole (issue 14).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from napkit.output.tables import table
from napkit.spec.catalog import Spec

if TYPE_CHECKING:
    from napkit.spec.rulesets import Ruleset


class Tagged(Protocol):
    """What the matrix reads of a case (:class:`napkit.conform.suite.cases.Case` has it)."""

    @property
    def ruleset(self) -> str: ...

    @property
    def rules(self) -> Sequence[str]: ...

    @property
    def tags(self) -> Sequence[str]: ...


def _fields(case: Tagged | Mapping[str, Any]) -> tuple[str, Sequence[str]]:
    if isinstance(case, Mapping):
        return str(case["ruleset"]), list(case["rules"])
    return case.ruleset, case.rules


def _tags(case: Tagged | Mapping[str, Any]) -> Sequence[str]:
    return list(case["tags"]) if isinstance(case, Mapping) else case.tags


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
                spec: Spec | None = None, rulesets: Sequence[Ruleset] | None = None,
                ) -> tuple[list[str], bool]:
    """The rule-by-ruleset matrix of case counts as lines of text, and whether any cell is
    empty (a play rule in force in a ruleset that no case of that ruleset exercises). The
    columns are ``rulesets`` (a house game's, say), by default the spec's."""
    spec = spec or _spec()
    cases = list(cases)
    found = counts(cases)
    rulesets = list(spec.rulesets.values()) if rulesets is None else list(rulesets)
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

    lines = _table(header, rows[:-1], rows[-1])
    if holes:
        lines.append(f"empty cells ({len(holes)}): " + ", ".join(holes))
    else:
        lines.append(f"no empty cell: every play rule in force in each of the {len(rulesets)} "
                     f"rulesets has a case ({len(cases)} cases)")
    return lines, bool(holes)


def _table(header: list[str], rows: list[list[str]], total: list[str] | None) -> list[str]:
    """Rows under a header, the first column left-aligned and the rest right-aligned; the
    totals under a rule of their own."""
    lines = table(header, [*rows, *([total] if total else [])], "<" + ">" * (len(header) - 1),
                  rule=True)
    if total:
        lines.insert(-1, lines[1])  # the rule under the header, again over the totals
    return lines


def breach_counts(cases: Iterable[Tagged | Mapping[str, Any]]) -> Counter[tuple[str, str]]:
    """(ruleset, refusal id) -> the number of cases of that ruleset tagged ``breach-ID``."""
    found: Counter[tuple[str, str]] = Counter()
    for case in cases:
        ruleset = _fields(case)[0]
        for tag in set(_tags(case)):
            if tag.startswith("breach-"):
                found[ruleset, tag[len("breach-"):]] += 1
    return found


def breach_cell(spec: Spec, refusal: str, ruleset: str | Ruleset,
                found: Counter[tuple[str, str]]) -> str:
    """A cell of the breach matrix: ``-`` (rule not in force), ``n/a`` (cannot arise there), a
    count, or ``""`` (a hole). ``ruleset`` is one of the spec's by its id, or any ruleset."""
    from napkit.spec.rulesets import can_meet

    rule, what = spec.lawbook.refusals[refusal]
    entry = spec.rulesets[ruleset] if isinstance(ruleset, str) else ruleset
    ruleset = entry.id
    if rule.id not in entry.rules:
        return "-"
    if not all(can_meet(entry.params, need) for need in what.needs):
        return "n/a"
    return str(found[ruleset, refusal]) if found[ruleset, refusal] else ""


def breach_matrix(cases: Iterable[Tagged | Mapping[str, Any]],
                  spec: Spec | None = None, rulesets: Sequence[Ruleset] | None = None,
                  ) -> tuple[list[str], bool]:
    """The refusal-by-ruleset matrix of illegal-case counts as lines of text, and whether any
    cell is empty (a refusal that can arise in a ruleset and that no case of it tests). The
    columns are ``rulesets``, by default the spec's."""
    spec = spec or _spec()
    found = breach_counts(cases)
    columns = list(spec.rulesets.values()) if rulesets is None else list(rulesets)
    rows: list[list[str]] = []
    holes: list[str] = []
    for refusal, (rule, _) in spec.lawbook.refusals.items():
        row = [f"{refusal} ({rule.id})"]
        for entry in columns:
            cell = breach_cell(spec, refusal, entry, found)
            row.append(cell)
            if not cell:
                holes.append(f"{refusal} in {entry.id}")
        rows.append(row)
    lines = _table(["refusal (rule)", *(r.id for r in columns)], rows, None)
    if holes:
        lines.append(f"empty cells ({len(holes)}): " + ", ".join(holes))
    else:
        lines.append(f"no empty cell: each of the {len(rows)} refusals of the law book has an "
                     f"illegal case in every ruleset where it can arise")
    return lines, bool(holes)


def _spec() -> Spec:
    from napkit.spec.catalog import default_spec

    return default_spec()


__all__ = ["Tagged", "breach_counts", "breach_matrix", "counts", "empty_cells", "main_matrix"]
