"""The source index (spec/sources.toml), citations, and how a citation is shown."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from napkit.errors import SpecError, json_path
from napkit.spec.loading import JSONObject

_CITATION = re.compile(r"^(?:L([1-9][0-9]*)(?:-([1-9][0-9]*))?|(DEC-[0-9]{3}))$")


@dataclass(frozen=True)
class Section:
    """A stretch of a source under one heading (or under a bracketed heading of ours)."""

    title: str
    first: int
    last: int


@dataclass(frozen=True)
class Source:
    """One rule source file, as the index describes it."""

    file: str
    title: str
    lines: int
    sha256: str | None
    sections: tuple[Section, ...]
    position: int = 0  # index in sources.toml's list, for JSON paths in messages
    short: str | None = None

    @property
    def name(self) -> str:
        """The source as a person reads it in a citation: its short name, else its title."""
        return self.short or self.title

    def section_at(self, line: int) -> Section | None:
        """The section that holds ``line``, if the index has one."""
        for section in self.sections:
            if section.first <= line <= section.last:
                return section
        return None


@dataclass(frozen=True)
class SourceIndex:
    """Every source by file name, in index order."""

    file: str
    sources: Mapping[str, Source]

    def __iter__(self) -> Iterator[Source]:
        return iter(self.sources.values())

    def get(self, file: str) -> Source | None:
        return self.sources.get(file)

    def name(self, file: str, *, detail: bool = False) -> str:
        """The source ``file`` as a person reads it wherever it is cited, by its name
        (``pagat.com (McLeod)``), never by its file name alone; with ``detail``, the file name
        follows in brackets (``pagat.com (McLeod) [004_d686e73063261d6b.txt]``). A file the
        index does not have can only be named by its file name."""
        source = self.sources.get(file)
        if source is None:
            return file
        return f"{source.name} [{file}]" if detail else source.name


@dataclass(frozen=True)
class Citation:
    """``L12``, ``L12-14`` (lines of a source) or ``DEC-007`` (a decision of the register)."""

    text: str
    first: int = 0
    last: int = 0
    decision: str | None = None

    @classmethod
    def parse(cls, text: str) -> Citation:
        found = _CITATION.match(text)
        if found is None:
            raise ValueError(f"not a citation: {text!r} (expected L12, L12-14 or DEC-007)")
        if found[3]:
            return cls(text, decision=found[3])
        first = int(found[1])
        last = int(found[2]) if found[2] else first
        return cls(text, first, last)

    @property
    def is_lines(self) -> bool:
        return self.decision is None

    def __str__(self) -> str:
        return self.text


def index_from_document(document: JSONObject, shown: str) -> SourceIndex:
    """Build the index from a schema-valid sources.toml document."""
    sources: dict[str, Source] = {}
    entries = document["sources"]
    assert isinstance(entries, list)
    for position, entry in enumerate(entries):
        assert isinstance(entry, dict)
        sections = entry.get("sections", [])
        assert isinstance(sections, list)
        source = Source(
            file=str(entry["file"]),
            title=str(entry["title"]),
            short=str(entry["short"]) if "short" in entry else None,
            lines=_int(entry["lines"]),
            sha256=str(entry["sha256"]) if "sha256" in entry else None,
            sections=tuple(
                Section(str(s["title"]), _int(s["first"]), _int(s["last"]))
                for s in sections
                if isinstance(s, dict)
            ),
            position=position,
        )
        # A repeated file keeps its first entry; check_index reports the repeat.
        sources.setdefault(source.file, source)
    return SourceIndex(shown, sources)


def _int(value: object) -> int:
    assert isinstance(value, int)
    return value


def citation_problem(citation: Citation, source: Source) -> str | None:
    """Why a line citation does not fit its source, or None if it does."""
    if citation.decision is not None:
        return None
    if citation.first > citation.last:
        return f"{citation} runs backwards"
    if citation.last > source.lines:
        return f"{citation} is past the end of {source.file} ({source.lines} lines)"
    return None


def render_citation(citation: Citation, source: Source | None, with_file: bool = True) -> str:
    """``pagat.com (McLeod), "Nap with a floater", L76`` (section found by line); with
    ``with_file``, the source is named as people read it (:meth:`SourceIndex.name`)."""
    if citation.decision is not None:
        return citation.text
    parts = []
    if with_file:
        parts.append(source.name if source else "?")
    section = source.section_at(citation.first) if source else None
    if section is not None:
        parts.append(f'"{section.title}"')
    parts.append(citation.text)
    return ", ".join(parts)


def check_index(index: SourceIndex, entries: list[JSONObject]) -> list[SpecError]:
    """The index itself: files listed once, sections inside the file and in order."""
    errors = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        file = str(entry["file"])
        if file in seen:
            errors.append(SpecError(index.file, json_path(["sources", i, "file"]),
                                    f"{file} is listed twice"))
        seen.add(file)
        source = index.sources[file]
        for j, section in enumerate(source.sections):
            where = json_path(["sources", i, "sections", j])
            if section.first > section.last:
                errors.append(SpecError(index.file, where,
                                        f'section "{section.title}" ends before it starts'))
            if section.last > source.lines:
                errors.append(SpecError(
                    index.file, where,
                    f'section "{section.title}" ends past line {source.lines}, the last of {file}'))
    return errors


def count_lines(path: Path) -> int:
    """Lines as ``cat -n`` numbers them (and as Python iterates a text file)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        return sum(1 for _ in handle)


def check_files(index: SourceIndex, directory: Path) -> list[SpecError]:
    """Compare each indexed source's line count and digest with the file in ``directory``."""
    errors = []
    for source in index:
        i = source.position
        path = directory / source.file
        where = json_path(["sources", i])
        try:
            import hashlib  # here: only the checks read the sources (OpenSSL starts slowly)

            lines = count_lines(path)
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as exc:
            errors.append(SpecError(index.file, where,
                                    f"cannot read {path}: {exc.strerror or exc}"))
            continue
        if lines != source.lines:
            errors.append(SpecError(index.file, json_path(["sources", i, "lines"]),
                                    f"{source.file} has {lines} lines, the index says "
                                    f"{source.lines}"))
        if source.sha256 is not None and digest != source.sha256:
            errors.append(SpecError(index.file, json_path(["sources", i, "sha256"]),
                                    f"{source.file} has changed: its sha256 is {digest}"))
    return errors
