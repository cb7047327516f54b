"""Citations and the source index."""

from __future__ import annotations

import pytest
from napkit.spec.sources import Citation, Section, Source, citation_problem, render_citation

SOURCE = Source("004_d686e73063261d6b.txt", "pagat", 111, None,
                (Section("Deal", 15, 20), Section("Nap with a floater", 62, 107)))


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
            == '004_d686e73063261d6b.txt, "Nap with a floater", L76')
    assert render_citation(Citation.parse("L17-18"), SOURCE, with_file=False) == '"Deal", L17-18'
    assert render_citation(Citation.parse("L3"), SOURCE) == "004_d686e73063261d6b.txt, L3"
    assert render_citation(Citation.parse("DEC-021"), SOURCE) == "DEC-021"


def test_citation_problems() -> None:
    assert citation_problem(Citation.parse("L111"), SOURCE) is None
    assert citation_problem(Citation.parse("L110-112"), SOURCE) == (
        "L110-112 is past the end of 004_d686e73063261d6b.txt (111 lines)")
    assert citation_problem(Citation.parse("L9-3"), SOURCE) == "L9-3 runs backwards"
    assert citation_problem(Citation.parse("DEC-001"), SOURCE) is None
