"""Validating recorded hands and matches: the schema first, then the rules, by replay.

This is what ``napkit validate FILE...`` runs. A file (or ``-``, standard input) holds one
record as a JSON document, or many as JSON Lines (one record a line, blank lines allowed). Each
record is checked against the schema its ``format`` names (``napkit-hand/1`` or
``napkit-match/1``) and, if the schema accepts it, replayed through the engine
(:func:`napkit.formats.records.check_hand_record`). Every problem is reported on one line: where
(the file, the line for JSON Lines, the JSON path or action index), the rule id where a rule is
broken, and a sentence. One bad record never stops the others from being checked.
"""

from __future__ import annotations

import itertools
import json
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from napkit.formats.handtext import MAX_LINE, HandTextError, is_notation, typed_hands
from napkit.formats.records import (
    HAND_FORMAT,
    MATCH_FORMAT,
    Problem,
    check_hand_record,
    check_match_record,
)
from napkit.output.tables import cut, printable
from napkit.reading import ReadError, loads, not_utf8
from napkit.spec.schemas import schema_problems

FORMATS = {HAND_FORMAT: "hand-record", MATCH_FORMAT: "match-record"}
#: The longest JSON record read, in characters: a JSON document, or a line of JSON Lines
#: (spec/formats.md, "Recorded hands and matches: limits"). A hand napkit records takes a few
#: thousand, a match of a hundred hands a few hundred thousand; a longer one is refused before
#: it is held whole (``napkit validate /dev/zero`` held 6 GB in 8 s).
MAX_RECORD = 16 * 1024 * 1024
_LIMIT = 'spec/formats.md, "Recorded hands and matches: limits"'


@dataclass(frozen=True)
class Checked:
    """One record's verdict: where it came from, what it is, and its problems (none: valid)."""

    where: str  # "FILE" or "FILE:LINE"
    kind: str  # "hand", "match", or "?" where the record could not be read far enough
    summary: str  # "pagat, 4 players" for a readable record
    problems: tuple[Problem, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        if self.valid:
            return [f"{self.where}: valid {self.kind} ({self.summary})"]
        return [f"{self.where}: {p}" for p in self.problems]


def check_record(record: object, where: str) -> Checked:
    """Check one parsed record: its schema, then its replay."""
    if not isinstance(record, dict):
        return Checked(where, "?", "", (Problem("$", None, "a record is a JSON object"),))
    fmt = record.get("format")
    schema = FORMATS.get(fmt) if isinstance(fmt, str) else None
    if schema is None:
        known = ", ".join(sorted(FORMATS))
        return Checked(where, "?", "", (Problem("$.format", None,
                                                f"unknown format {fmt!r} (one of {known})"),))
    kind = schema.removesuffix("-record")
    summary = _summary(record)
    stage = "check"
    try:
        found = [Problem(path, None, message)
                 for path, message in schema_problems(schema, record)]
        if not found:
            stage = "replay"
            found = check_hand_record(record) if kind == "hand" else check_match_record(record)
    except Exception as exc:  # a bug of ours must not end the batch: report it, go on
        found = [Problem("$", None, f"napkit could not {stage} this record "
                                    f"({type(exc).__name__}: {exc}); please report it")]
    return Checked(where, kind, summary, tuple(found))


def _summary(record: dict[str, Any]) -> str:
    ruleset, players = record.get("ruleset"), record.get("players")
    partial = ", partial: no outcome yet" if record.get("format") == HAND_FORMAT and (
        "outcome" in record and record["outcome"] is None) else ""
    return f"{ruleset}, {players} players{partial}"


def parse_text(text: str, name: str) -> Iterator[tuple[str, object | Problem]]:
    """The records of one file's text: (where, the parsed value or the problem reading it).

    A file that is one JSON document is one record. A file whose first non-blank line is a
    value on its own, followed by more, is JSON Lines: each non-blank line a record, so that
    one malformed line spoils only itself. Any other text is one document that could not be
    read (a pretty-printed record with junk after it is one bad record, not many bad lines).
    """
    whole = _load(text)
    if not isinstance(whole, _Unread):
        yield name, whole
        return
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) <= 1 or isinstance(_load(lines[0][1]), _Unread):
        yield name, whole.problem()
        return
    for number, line in lines:
        value = _load(line)
        yield f"{name}:{number}", (value.problem(per_line=True)
                                   if isinstance(value, _Unread) else value)


@dataclass(frozen=True)
class _Unread:
    """Why a text is not a value napkit reads (see :mod:`napkit.reading`)."""

    error: ReadError

    def problem(self, per_line: bool = False) -> Problem:
        error = self.error
        where = error.where
        if per_line and where.startswith("line 1, "):
            where = where.removeprefix("line 1, ")  # the line is in the record's place
        return Problem(where, None, error.what())


def _load(text: str) -> object:
    """The JSON value of ``text``, read strictly, or why it is not one (never an exception)."""
    try:
        return loads(text)
    except ReadError as exc:
        return _Unread(exc)


def parse_lines(lines: Iterable[str], name: str) -> Iterator[tuple[str, object | Problem]]:
    """The records of a file read line by line: what :func:`parse_text` gives for the whole
    text, without holding it. A file whose first non-blank line is a JSON value followed by
    more lines is JSON Lines, read and given one line at a time; any other file (one document,
    pretty-printed or not, or one whose first line is no value on its own) is read whole."""
    numbered = enumerate(lines, 1)
    head: list[str] = []
    found: list[tuple[int, str]] = []
    for number, line in numbered:
        head.append(line)
        if line.strip() or isinstance(line, _TooLong):
            found.append((number, line))
            if len(found) == 2:
                break
    first = _load(found[0][1]) if found else None
    if len(found) == 2 and not isinstance(first, _Unread):
        yield f"{name}:{found[0][0]}", first
        for number, text in itertools.chain(found[1:], numbered):
            if isinstance(text, _TooLong):
                yield f"{name}:{number}", Problem(
                    "$", None, f"the line is over {MAX_RECORD:,} characters long: a record is "
                               f"at most that ({_LIMIT})")
            elif text.strip():
                value = _load(text.rstrip("\r\n"))
                yield f"{name}:{number}", (value.problem(per_line=True)
                                           if isinstance(value, _Unread) else value)
        return
    whole, size = [], 0
    for line in itertools.chain(head, (line for _, line in numbered)):
        size += len(line)
        if isinstance(line, _TooLong) or size > MAX_RECORD:
            yield name, FileProblem("$", None, f"the file is over {MAX_RECORD:,} characters "
                                               f"long: a JSON record is at most that ({_LIMIT})")
            return
        whole.append(line)
    yield from parse_text("".join(whole), name)


class _TooLong(str):
    """In place of a line longer than :data:`MAX_RECORD`, read past and not kept."""


def _bounded(file: TextIO) -> Iterator[str]:
    """The lines of ``file``, each at most :data:`MAX_RECORD` characters: a longer one is
    read past a block at a time and given as an empty :class:`_TooLong`."""
    while line := file.readline(MAX_RECORD + 1):
        if len(line) <= MAX_RECORD or line.endswith("\n"):
            yield line
            continue
        while (rest := file.readline(1 << 20)) and not rest.endswith("\n"):
            pass
        yield _TooLong()


def read_source(source: str) -> tuple[str, str | Problem]:
    """A file's text (``-``: standard input), or the problem reading it."""
    if source == "-":
        try:
            return "<stdin>", sys.stdin.read()
        except UnicodeDecodeError as exc:
            return "<stdin>", Problem("$", None, not_utf8(exc))
    try:
        return source, Path(source).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return source, Problem("$", None, not_utf8(exc))
    except OSError as exc:
        return source, Problem("$", None, f"cannot read: {exc.strerror or exc}")


def _records(source: str) -> Iterator[tuple[str, object | Problem]]:
    """The records of one source ('-': standard input), read as a stream (:func:`parse_lines`),
    or the problem reading it. A source in the hand notation (:func:`napkit.formats.handtext
    .is_notation`: a ``.nap`` file, or text that starts as the notation does) is read a hand
    at a time (:func:`napkit.formats.handtext.typed_hands`)."""
    name = "<stdin>" if source == "-" else source
    counted = _Counted()
    try:
        if source == "-":
            yield from _json_or_notation(sys.stdin, counted, name)
            return
        with open(source, encoding="utf-8") as file:
            yield from _json_or_notation(file, counted, name)
    except UnicodeDecodeError as exc:
        # The text is decoded a block at a time: the line is known, the byte within it not.
        yield name, FileProblem("$", None, not_utf8(exc, counted.read + 1))
    except OSError as exc:
        yield name, FileProblem("$", None, f"cannot read: {exc.strerror or exc}")


def _json_or_notation(file: TextIO, counted: _Counted,
                      name: str) -> Iterator[tuple[str, object | Problem]]:
    """The records of a source: JSON (:func:`parse_lines`, a line at a time), or the hand
    notation, a hand at a time, each read on its own (:func:`napkit.formats.handtext
    .typed_hands`). Its lines up to the first that is not blank tell which; the notation's
    are read :data:`~napkit.formats.handtext.MAX_LINE` characters at most at a time, so
    that a line of any length is refused, not held."""
    pieces = counted.lines(iter(lambda: file.readline(MAX_LINE + 1), ""))
    head: list[str] = []
    for line in pieces:
        head.append(line)
        if line.strip() or not line.endswith("\n"):
            break
    if not is_notation(name, "".join(head)):
        if head and not head[-1].endswith("\n"):
            # the rest of a long line: a JSON line may be long, up to MAX_RECORD
            rest = file.readline(MAX_RECORD + 1 - len(head[-1]))
            head[-1] += rest
            if len(head[-1]) > MAX_RECORD and not head[-1].endswith("\n"):
                # The file's first line: the file is refused whole (no need to read past it,
                # which would never end on /dev/zero).
                yield name, FileProblem("$", None, f"the file is over {MAX_RECORD:,} "
                                                   f"characters long: a JSON record is at most "
                                                   f"that ({_LIMIT})")
                return
        yield from parse_lines(itertools.chain(head, counted.lines(_bounded(file))), name)
        return
    for hand in typed_hands(itertools.chain(head, pieces), name):
        if isinstance(hand, HandTextError):
            yield name, Problem(hand.where, hand.rule, hand.message)
            continue
        try:
            record: object | Problem = hand.record()
        except HandTextError as exc:
            record = Problem(exc.where, exc.rule, exc.message)
        except Exception as exc:  # a bug of ours must not end the batch: report it, go on
            record = Problem(f"line {hand.line}, column {hand.column}", None,
                             f"napkit could not read this hand ({_bug(exc)}); please report it")
        yield hand.where, record


def _bug(exc: Exception) -> str:
    return f"{type(exc).__name__}: {cut(printable(str(exc)), 200)}"


class _Counted:
    """How many lines of a text have been read (to say where the text stopped being UTF-8)."""

    def __init__(self) -> None:
        self.read = 0

    def lines(self, text: Iterable[str]) -> Iterator[str]:
        for line in text:
            self.read += line.endswith("\n")  # a long line may come in pieces
            yield line


@dataclass(frozen=True)
class FileProblem(Problem):
    """A file (or standard input) that could not be read as text: no record of it, or of the
    rest of it, was checked. It is counted apart from the records."""


def check_sources(sources: Iterable[str]) -> Iterator[Checked]:
    """Every record of every source, checked, in order, one at a time: a file of a million
    records is never held whole (a JSON Lines file is read a line at a time)."""
    for source in sources:
        try:
            for where, value in _records(source):
                if isinstance(value, FileProblem):
                    yield Checked(where, "file", "", (value,))
                elif isinstance(value, Problem):
                    yield Checked(where, "?", "", (value,))
                else:
                    yield check_record(value, where)
        except Exception as exc:  # a bug of ours in one file must not keep the next unread
            yield Checked("<stdin>" if source == "-" else source, "file", "", (FileProblem(
                "$", None, f"napkit could not read the rest of this file ({_bug(exc)}); "
                           "please report it"),))


@dataclass
class Tally:
    """How many records a report has seen, how many were valid, and how many files (or
    standard input) could not be read."""

    records: int = 0
    valid: int = 0
    unreadable: int = 0

    @property
    def ok(self) -> bool:
        return self.records > 0 and self.valid == self.records and not self.unreadable


def report_lines(sources: Iterable[str], tally: Tally, *, quiet: bool = False,
                 as_json: bool = False,
                 checked: Callable[[bool], object] | None = None) -> Iterator[str]:
    """The text ``napkit validate`` prints, a piece at a time as the records are checked
    (``tally`` counts them; ``checked``, if given, is told of each record, True if it is
    invalid). ``quiet`` leaves out the valid records (the summary line stays); ``as_json``
    gives one JSON array, an object per record (with ``quiet``, per invalid record), laid out
    as ``json.dumps(..., indent=2)`` lays out the whole array."""
    shown = 0
    for c in check_sources(sources):
        if c.kind == "file":
            tally.unreadable += 1
        else:
            tally.records += 1
            tally.valid += c.valid
        if checked is not None:
            checked(not c.valid)
        if quiet and c.valid:
            continue
        if as_json:
            item = {"where": c.where, "kind": c.kind, "valid": c.valid,
                    "problems": [{"path": p.path, "rule": p.rule, "message": p.message}
                                 for p in c.problems]}
            text = textwrap.indent(json.dumps(item, indent=2), "  ")
            yield ("[\n" if shown == 0 else ",\n") + text
        else:
            yield from c.lines()
        shown += 1
    if as_json:
        yield "\n]" if shown else "[]"
        return
    records = "record" if tally.records == 1 else "records"
    unread = ""
    if tally.unreadable:
        files = "file" if tally.unreadable == 1 else "files"
        unread = f"; {tally.unreadable} {files} could not be read"
    yield (f"{tally.records} {records}: {tally.valid} valid, {tally.records - tally.valid} "
           f"invalid{unread}")


def report(sources: list[str], *, quiet: bool = False, as_json: bool = False) -> tuple[
        list[str], bool]:
    """The lines ``napkit validate`` prints, and whether every record was valid (all at
    once: :func:`report_lines` gives them as they come)."""
    tally = Tally()
    lines = list(report_lines(sources, tally, quiet=quiet, as_json=as_json))
    if as_json:
        return ["".join(lines)], tally.ok
    return lines, tally.ok


__all__ = ["Checked", "Tally", "check_record", "check_sources", "parse_lines", "parse_text",
           "report", "report_lines"]
