"""The decisions register (spec/decisions.toml)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from napkit.errors import SpecError, json_path
from napkit.spec.loading import JSONObject
from napkit.spec.sources import Citation, SourceIndex, citation_problem

if TYPE_CHECKING:  # only checked against: reading the register (to play) needs no law book
    from napkit.spec.lawbook import LawBook


@dataclass(frozen=True)
class Decision:
    """One settled question in one source: the alternatives, the default, and why."""

    id: str
    title: str
    kind: str
    source: str
    lines: tuple[Citation, ...]
    rule: str
    question: str
    alternatives: Mapping[str, str]
    default: str
    why: str
    where: str  # JSON path in the register
    # Ways a table may agree to settle it that napkit does not play (irregular play), by name;
    # never a ruleset's option.
    table_options: Mapping[str, str] = field(default_factory=dict)
    asked: tuple[str, ...] = ()  # the questions players ask that it answers

    @property
    def offers_option(self) -> bool:
        """Two or more alternatives: rulesets offer it as an option."""
        return len(self.alternatives) >= 2


@dataclass(frozen=True)
class Register:
    file: str
    decisions: tuple[Decision, ...]

    def __iter__(self) -> Iterator[Decision]:
        return iter(self.decisions)

    @cached_property
    def by_id(self) -> Mapping[str, Decision]:
        found: dict[str, Decision] = {}
        for decision in self.decisions:
            found.setdefault(decision.id, decision)
        return found

    def get(self, decision_id: str) -> Decision | None:
        return self.by_id.get(decision_id)


def register_from_document(document: JSONObject, shown: str) -> Register:
    """Build the register from a schema-valid decisions.toml document."""
    entries = document["decisions"]
    assert isinstance(entries, list)
    decisions = []
    for i, entry in enumerate(entries):
        assert isinstance(entry, dict)
        lines = entry["lines"]
        alternatives = entry["alternatives"]
        assert isinstance(lines, list)
        assert isinstance(alternatives, dict)
        decisions.append(Decision(
            id=str(entry["id"]),
            title=str(entry["title"]),
            kind=str(entry["kind"]),
            source=str(entry["source"]),
            lines=tuple(Citation.parse(str(line)) for line in lines),
            rule=str(entry["rule"]),
            question=str(entry["question"]),
            alternatives={str(k): str(v) for k, v in alternatives.items()},
            default=str(entry["default"]),
            why=str(entry["why"]),
            where=json_path(["decisions", i]),
            table_options={str(k): str(v) for k, v in _mapping(entry.get("table_options", {}))},
            asked=tuple(str(q) for q in _sequence(entry.get("asked", []))),
        ))
    return Register(shown, tuple(decisions))


def _mapping(value: object) -> list[tuple[object, object]]:
    assert isinstance(value, dict)
    return list(value.items())


def _sequence(value: object) -> list[object]:
    assert isinstance(value, list)
    return value


def check_register(register: Register, index: SourceIndex, book: LawBook) -> list[SpecError]:
    """Ids unique, default among the alternatives, errata single, lines and rule exist."""
    errors = []
    seen: set[str] = set()
    for decision in register:
        def problem(field: str, message: str, d: Decision = decision) -> None:
            errors.append(SpecError(register.file, f"{d.where}.{field}", f"{d.id}: {message}"))

        if decision.id in seen:
            problem("id", "this id is already used by an earlier decision")
        seen.add(decision.id)
        if decision.default not in decision.alternatives:
            problem("default", f"the default {decision.default!r} is not one of the "
                               f"alternatives ({', '.join(decision.alternatives)})")
        # An erratum has one reading; a silent gap may also have one (the register says why).
        if decision.kind == "erratum" and len(decision.alternatives) != 1:
            problem("alternatives", "an erratum has exactly one alternative (the correction)")
        if book.get(decision.rule) is None:
            problem("rule", f"the law book has no rule {decision.rule}")
        for name in decision.table_options:
            if name in decision.alternatives:
                problem("table_options", f"{name!r} is already an alternative; a table option "
                                         "is a way napkit does not play")
        for k, question in enumerate(decision.asked):
            said = " ".join(question.lower().split())
            rule_asking = next((r.id for r in book
                                if said in {" ".join(q.lower().split()) for q in r.asked}), None)
            if rule_asking:
                problem(f"asked[{k}]", f"the question is already asked under {rule_asking}")
        source = index.get(decision.source)
        if source is None:
            problem("source", f"{decision.source} is not in the source index")
            continue
        for k, citation in enumerate(decision.lines):
            why = citation_problem(citation, source)
            if why is not None:
                errors.append(SpecError(register.file, f"{decision.where}.lines[{k}]",
                                        f"{decision.id}: {why}"))
    return errors
