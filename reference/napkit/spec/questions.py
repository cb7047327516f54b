"""The players' questions (spec/questions/): questions about the rules as players ask them at a
table, each written from one line of a source and filed under the law-book rule or decision
that answers it.

The law book's ``asked`` are the few short questions shown under each rule. These are the many
heard as asked, in the players' words (a story before the question, misspellings, text-speak),
never corrected and never shown as the rule's own: ``napkit rules search`` reads them to find a
question like one of them by the entry it is filed under (the neighbours' vote). Each file is
one writer's set; its header says how it was written and reviewed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from napkit import paths
from napkit.errors import SpecError, SpecProblemsError, json_path
from napkit.spec.loading import JSONObject, load_document

if TYPE_CHECKING:  # only checked against: the questions are read without the rest of the spec
    from napkit.spec.decisions import Register
    from napkit.spec.lawbook import LawBook
    from napkit.spec.sources import SourceIndex

#: The folder of the players' questions in a spec folder.
FOLDER = "questions"

_WORD = re.compile(r"\w+(?:'\w+)*")


@dataclass(frozen=True)
class Question:
    """One question as a player asked it, and the entry (NAP-... or DEC-...) that answers it."""

    text: str
    rule: str
    also: tuple[str, ...]  # entries that answer it just as well
    source: str  # the source file whose lines answer it
    lines: tuple[int, ...]
    note: str
    file: str  # the file it is in, as shown in messages
    where: str  # its JSON path in that file


@dataclass(frozen=True)
class Questions:
    """Every players' question of the spec folder, file by file in name order."""

    questions: tuple[Question, ...] = ()

    def __iter__(self) -> Iterator[Question]:
        return iter(self.questions)

    def __len__(self) -> int:
        return len(self.questions)

    @cached_property
    def _by_entry(self) -> Mapping[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for question in self.questions:
            found.setdefault(question.rule, []).append(question.text)
        return {entry: tuple(texts) for entry, texts in found.items()}

    def of(self, entry: str) -> tuple[str, ...]:
        """The questions filed under ``entry`` (a rule's or a decision's id), in file order."""
        return self._by_entry.get(entry, ())


def said(text: str) -> str:
    """A question as two are compared: its words, lower-case, without the punctuation between
    them ("Who deals?" is "who deals")."""
    return " ".join(_WORD.findall(text.lower()))


def read_questions(spec_dir: Path) -> tuple[Questions, list[SpecError]]:
    """Every file of ``spec_dir``/questions/ read and checked against its schema, with the
    problems met (a file that fails is left out). No folder is no questions."""
    folder = spec_dir / FOLDER
    problems: list[SpecError] = []
    found: list[Question] = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            found += read_question_file(path, paths.display(spec_dir, path), spec_dir)
        except SpecProblemsError as exc:
            problems.extend(exc.errors)
    return Questions(tuple(found)), problems


def is_question_document(document: JSONObject) -> bool:
    """Whether a document read is a file of players' questions (its one key ``question``), not
    a ruleset."""
    return "question" in document and "id" not in document


def read_question_file(path: Path, shown: str, spec_dir: Path) -> list[Question]:
    """The questions of one file, checked against the schema of ``spec_dir``;
    :class:`SpecProblemsError` with every problem if it fails."""
    document = load_document(path, spec_dir / "schemas" / "questions.schema.json", shown)
    return _from_document(document, shown)


def _from_document(document: JSONObject, shown: str) -> list[Question]:
    """The questions of one schema-valid file."""
    raw = document["question"]
    assert isinstance(raw, list)
    found = []
    for i, entry in enumerate(raw):
        assert isinstance(entry, dict)
        also = entry.get("also", [])
        lines = entry["lines"]
        assert isinstance(also, list) and isinstance(lines, list)
        found.append(Question(str(entry["text"]), str(entry["rule"]),
                              tuple(str(a) for a in also), str(entry["source"]),
                              tuple(n for n in lines if isinstance(n, int)),
                              str(entry.get("note", "")),
                              shown, json_path(["question", i])))
    return found


def check_questions(questions: Questions, book: LawBook, register: Register,
                    index: SourceIndex) -> list[SpecError]:
    """Every question names entries that exist and lines its source has, and is filed under one
    entry only: the same question under two (or under one here and asked of another in the law
    book or the register) could not tell the search which answers it."""
    errors = []
    asked = {said(q): rule.id for rule in book for q in rule.asked}
    asked.update({said(q): d.id for d in register for q in d.asked})
    filed: dict[str, tuple[str, str]] = {}
    for question in questions:
        def problem(field: str, message: str, q: Question = question) -> None:
            errors.append(SpecError(q.file, f"{q.where}.{field}", message))

        for k, entry in enumerate((question.rule, *question.also)):
            if book.get(entry) is None and register.get(entry) is None:
                problem("rule" if k == 0 else f"also[{k - 1}]",
                        f"the register has no decision {entry}" if entry.startswith("DEC-")
                        else f"the law book has no rule {entry}")
        source = index.get(question.source)
        if source is None:
            problem("source", f"{question.source} is not in the source index")
        else:
            for k, line in enumerate(question.lines):
                if line > source.lines:
                    problem(f"lines[{k}]", f"line {line} is past the end of {source.file} "
                                           f"({source.lines} lines)")
        key = said(question.text)
        elsewhere = asked.get(key)
        if elsewhere is not None and elsewhere != question.rule:
            problem("rule", f"the question is asked under {elsewhere} in the spec, not "
                            f"{question.rule}")
        first = filed.setdefault(key, (question.rule, f"{question.file} {question.where}"))
        if first[0] != question.rule:
            problem("rule", f"the same question is filed under {first[0]} in {first[1]}")
    return errors
