"""The law book: chapters (spec/lawbook/NN-slug.toml), their sections and numbered rules."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from napkit.errors import SpecError, json_path
from napkit.output.tables import cut
from napkit.spec.loading import JSONObject

CHAPTER_FILE = re.compile(r"^([0-9]{2})-[a-z0-9]+(?:-[a-z0-9]+)*\.toml$")


@dataclass(frozen=True)
class Refusal:
    """One way of breaking a rule that is refused under it (NAP-1.3): its id (the tag
    ``breach-ID`` of the conformance cases that test it), what the act is, and what a ruleset
    must offer for it to arise (see :func:`napkit.spec.rulesets.can_meet`)."""

    id: str
    text: str
    needs: tuple[str, ...]


@dataclass(frozen=True)
class Rule:
    """One numbered rule, with where it sits in the book."""

    id: str
    title: str
    kind: str
    text: str
    params: tuple[str, ...]
    see: tuple[str, ...]
    chapter_id: str
    section_id: str
    section_title: str
    file: str
    where: str  # JSON path of the rule in its chapter file
    refusals: tuple[Refusal, ...] = ()
    # "house": found in programs and house play, in no source; in force only in house games
    # whose params it reads. None: a rule of the sources.
    origin: str | None = None
    # Conditions on a ruleset's params (as a refusal's needs) that some choice of its options
    # must meet for the rule to be in force in a house game that inherits it (NAP-9.1.1 is not
    # in force on a score sheet in points).
    needs: tuple[str, ...] = ()
    # The questions players ask about the rule, in their words (shown under it on the site,
    # read by napkit rules search); a question belongs to one rule only.
    asked: tuple[str, ...] = ()

    @property
    def house(self) -> bool:
        """Whether the rule is of house play and programs, in no source (``origin = "house"``)."""
        return self.origin == "house"


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    intro: str | None
    rules: tuple[Rule, ...]
    where: str


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    intro: str
    sections: tuple[Section, ...]
    file: str  # as shown in messages
    filename: str  # the bare file name, whose NN must match the id


@dataclass(frozen=True)
class LawBook:
    """Every chapter in file order; rules are looked up by id and iterated in book order."""

    chapters: tuple[Chapter, ...]

    def __iter__(self) -> Iterator[Rule]:
        for chapter in self.chapters:
            for section in chapter.sections:
                yield from section.rules

    @cached_property
    def rules(self) -> Mapping[str, Rule]:
        """Rules by id (the first of any repeated id; the checks report repeats)."""
        found: dict[str, Rule] = {}
        for rule in self:
            found.setdefault(rule.id, rule)
        return found

    def get(self, rule_id: str) -> Rule | None:
        return self.rules.get(rule_id)

    @cached_property
    def refusals(self) -> Mapping[str, tuple[Rule, Refusal]]:
        """Every refusal the book defines, by id, with its rule, in book order."""
        found: dict[str, tuple[Rule, Refusal]] = {}
        for rule in self:
            for refusal in rule.refusals:
                found.setdefault(refusal.id, (rule, refusal))
        return found

    @cached_property
    def _order(self) -> Mapping[str, int]:
        found: dict[str, int] = {}
        for n, rule in enumerate(self):
            found.setdefault(rule.id, n)
        return found

    def order(self, rule_id: str) -> int:
        """A rule's place in the book (unknown ids sort last)."""
        return self._order.get(rule_id, 1 << 30)

    def all_ids(self) -> set[str]:
        """Chapter, section and rule ids: what ``see`` may name."""
        ids = {chapter.id for chapter in self.chapters}
        ids.update(section.id for chapter in self.chapters for section in chapter.sections)
        ids.update(rule.id for rule in self)
        return ids


def chapter_from_document(document: JSONObject, path: Path, shown: str) -> Chapter:
    """Build a chapter from a schema-valid chapter document."""
    chapter_id = _str(document["id"])
    sections = []
    raw_sections = document["sections"]
    assert isinstance(raw_sections, list)
    for i, raw_section in enumerate(raw_sections):
        assert isinstance(raw_section, dict)
        section_id = _str(raw_section["id"])
        section_title = _str(raw_section["title"])
        raw_rules = raw_section["rules"]
        assert isinstance(raw_rules, list)
        rules = []
        for j, raw_rule in enumerate(raw_rules):
            assert isinstance(raw_rule, dict)
            rules.append(Rule(
                id=_str(raw_rule["id"]),
                title=_str(raw_rule["title"]),
                kind=_str(raw_rule["kind"]),
                text=_str(raw_rule["text"]),
                params=_strs(raw_rule.get("params", [])),
                see=_strs(raw_rule.get("see", [])),
                chapter_id=chapter_id,
                section_id=section_id,
                section_title=section_title,
                file=shown,
                where=json_path(["sections", i, "rules", j]),
                refusals=tuple(_refusal(r) for r in _list(raw_rule.get("refusals", []))),
                origin=_str(raw_rule["origin"]) if "origin" in raw_rule else None,
                needs=_strs(raw_rule.get("needs", [])),
                asked=_strs(raw_rule.get("asked", [])),
            ))
        intro = raw_section.get("intro")
        sections.append(Section(section_id, section_title,
                                intro if isinstance(intro, str) else None,
                                tuple(rules), json_path(["sections", i])))
    return Chapter(chapter_id, _str(document["title"]), _str(document["intro"]), tuple(sections),
                   shown, path.name)


def _list(value: object) -> list[object]:
    assert isinstance(value, list)
    return value


def _refusal(raw: object) -> Refusal:
    assert isinstance(raw, dict)
    return Refusal(_str(raw["id"]), _str(raw["text"]), _strs(raw.get("needs", [])))


def _str(value: object) -> str:
    assert isinstance(value, str)
    return value


def _strs(value: object) -> tuple[str, ...]:
    assert isinstance(value, list)
    return tuple(_str(v) for v in value)


def check_lawbook(book: LawBook) -> list[SpecError]:
    """Ids unique and well nested, chapter numbers match file names, ``see`` names real ids."""
    errors: list[SpecError] = []
    seen: dict[str, str] = {}

    def unique(identifier: str, file: str, where: str) -> None:
        if identifier in seen:
            errors.append(SpecError(file, where,
                                    f"{identifier} is already used ({seen[identifier]})"))
        else:
            seen[identifier] = f"{file} {where}"

    for chapter in book.chapters:
        unique(chapter.id, chapter.file, "$.id")
        named = CHAPTER_FILE.match(chapter.filename)
        if named is None:
            errors.append(SpecError(chapter.file, "$", "a chapter file is named NN-slug.toml"))
        elif chapter.id != f"NAP-{int(named[1])}":
            errors.append(SpecError(chapter.file, "$.id",
                                    f"chapter {chapter.id} is in a file numbered {named[1]}"))
        for section in chapter.sections:
            unique(section.id, chapter.file, f"{section.where}.id")
            if _parent(section.id) != chapter.id:
                errors.append(SpecError(chapter.file, f"{section.where}.id",
                                        f"section {section.id} is not numbered in chapter "
                                        f"{chapter.id}"))
            for rule in section.rules:
                unique(rule.id, chapter.file, f"{rule.where}.id")
                if _parent(rule.id) != section.id:
                    errors.append(SpecError(chapter.file, f"{rule.where}.id",
                                            f"rule {rule.id} is not numbered in section "
                                            f"{section.id}"))
    known = book.all_ids()
    for rule in book:
        for k, target in enumerate(rule.see):
            if target not in known:
                errors.append(SpecError(rule.file, f"{rule.where}.see[{k}]",
                                        f"rule {rule.id} refers to {target}, which the law book "
                                        "does not have"))
            elif target == rule.id:
                errors.append(SpecError(rule.file, f"{rule.where}.see[{k}]",
                                        f"rule {rule.id} refers to itself"))
    refusals: dict[str, str] = {}
    for rule in book:
        for k, refusal in enumerate(rule.refusals):
            if refusal.id in refusals:
                errors.append(SpecError(rule.file, f"{rule.where}.refusals[{k}].id",
                                        f"refusal {refusal.id} is already defined by "
                                        f"{refusals[refusal.id]}"))
            refusals.setdefault(refusal.id, rule.id)
    errors += _check_asked(book)
    return errors


def _check_asked(book: LawBook) -> list[SpecError]:
    """A question players ask belongs to one rule: asked twice, the search could not tell
    which rule answers it."""
    errors: list[SpecError] = []
    asked: dict[str, str] = {}
    for rule in book:
        for k, question in enumerate(rule.asked):
            said = " ".join(question.lower().split())
            if said in asked:
                errors.append(SpecError(rule.file, f"{rule.where}.asked[{k}]",
                                        f"the question {cut(question, 60)!r} is already asked "
                                        f"under {asked[said]}"))
            asked.setdefault(said, rule.id)
    return errors


def _parent(identifier: str) -> str:
    return identifier.rsplit(".", 1)[0]
