"""Citations and the source index."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from napkit.spec.catalog import load_spec
from napkit.spec.sources import (
    Citation,
    Section,
    Source,
    SourceIndex,
    citation_problem,
    render_citation,
)

from .conftest import edit_text, one_with, problems

SOURCE = Source("004_d686e73063261d6b.txt", "pagat", 111, None,
                (Section("Deal", 15, 20), Section("Nap with a floater", 62, 107)))
SHORT = replace(SOURCE, title="The pagat.com page on Nap by John McLeod",
                short="pagat.com (McLeod)")


@pytest.mark.parametrize(("text", "first", "last", "decision"), [
    ("L12", 12, 12, None), ("L12-14", 12, 14, None), ("DEC-007", 0, 0, "DEC-007")])
def test_parse(text: str, first: int, last: int, decision: str | None) -> None:
    citation = Citation.parse(text)
    assert (citation.first, citation.last, citation.decision) == (first, last, decision)
    assert str(citation) == text


@pytest.mark.parametrize("text", ["L0", "12", "L1-", "DEC-7", "l12", ""])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="not a citation"):
        Citation.parse(text)


def test_render_with_the_section_found_by_line() -> None:
    assert (render_citation(Citation.parse("L76"), SOURCE)
            == 'pagat, "Nap with a floater", L76')
    assert render_citation(Citation.parse("L17-18"), SOURCE, with_file=False) == '"Deal", L17-18'
    assert render_citation(Citation.parse("L3"), SHORT) == "pagat.com (McLeod), L3"
    assert render_citation(Citation.parse("DEC-021"), SOURCE) == "DEC-021"


def test_a_source_is_named_by_its_short_name_the_file_only_as_a_detail() -> None:
    """Issue 30: a person reads a source's name, not its file name (a hash)."""
    index = SourceIndex("sources.toml", {SHORT.file: SHORT, "x.txt": replace(SOURCE, file="x.txt")})
    assert index.name(SHORT.file) == "pagat.com (McLeod)"
    assert index.name(SHORT.file, detail=True) == (
        "pagat.com (McLeod) [004_d686e73063261d6b.txt]")
    assert index.name("x.txt") == "pagat"  # no short name: the title
    assert index.name("999_0000000000000000.txt") == "999_0000000000000000.txt"  # not indexed


def test_every_source_of_the_spec_has_a_short_name() -> None:
    index = load_spec().index
    names = [index.name(source.file) for source in index]
    assert all(source.short for source in index)
    assert len(set(names)) == len(names)  # two sources never read alike
    assert max(len(name) for name in names) <= 20


def test_citation_problems() -> None:
    assert citation_problem(Citation.parse("L111"), SOURCE) is None
    assert citation_problem(Citation.parse("L110-112"), SOURCE) == (
        "L110-112 is past the end of 004_d686e73063261d6b.txt (111 lines)")
    assert citation_problem(Citation.parse("L9-3"), SOURCE) == "L9-3 runs backwards"
    assert citation_problem(Citation.parse("DEC-001"), SOURCE) is None


@pytest.mark.parametrize("short", ["A name of more than twenty", "Little\x1b[2J", ""])
def test_a_short_name_that_would_not_fit_or_print_is_refused(spec_dir: Path,
                                                              short: str) -> None:
    """The short name is printed in terminal tables: at most 20 characters, none a control."""
    edit_text(spec_dir / "sources.toml", 'short = "Little Nap page"',
              f"short = {json.dumps(short)}")
    one_with(problems(spec_dir), "sources.toml: $.sources[0].short")
