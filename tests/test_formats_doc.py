"""spec/formats.md: every example on the page is valid by its schema, and the recorded hand
replays through the engine to the outcome it records (issue 5; the site renders this page)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from napkit.formats.handtext import dumps, loads
from napkit.formats.records import check_hand_record
from napkit.paths import spec_dir
from napkit.spec.schemas import schema_problems

PAGE = spec_dir() / "formats.md"
# <!-- example: SCHEMA --> then a ```json block holding one document; <!-- example-lines:
# SCHEMA --> then a block holding one document a line.
_EXAMPLE = re.compile(r"<!-- example(-lines)?: ([a-z-]+) -->\n```json\n(.*?)\n```", re.S)


def examples(page: Path = PAGE) -> list[tuple[str, int, Any]]:
    """(schema, line of the page, document) for every example on the page."""
    text = page.read_text(encoding="utf-8")
    found: list[tuple[str, int, Any]] = []
    for match in _EXAMPLE.finditer(text):
        line = text.count("\n", 0, match.start(3)) + 1
        if match.group(1):
            found += [(match.group(2), line + i, json.loads(row))
                      for i, row in enumerate(match.group(3).splitlines())]
        else:
            found.append((match.group(2), line, json.loads(match.group(3))))
    return found


def test_the_page_has_an_example_of_each_kind_it_describes() -> None:
    kinds = {schema for schema, _, _ in examples()}
    assert {"card", "action", "hand-record", "view"} <= kinds
    # Every type of player's action the schema knows has an example line.
    types = {doc["type"] for schema, _, doc in examples() if schema == "action"}
    assert {"pass", "bid", "peek", "buy", "take-widow", "leave-widow", "discard",
            "name-trumps", "play", "ante", "sit-out"} <= types


@pytest.mark.parametrize(("schema", "line", "document"), examples(),
                         ids=[f"{s}@L{n}" for s, n, _ in examples()])
def test_each_example_is_valid_by_its_schema(schema: str, line: int, document: Any) -> None:
    assert schema_problems(schema, document) == [], f"spec/formats.md line {line}"


def test_the_recorded_hand_replays_to_its_outcome() -> None:
    records = [doc for schema, _, doc in examples() if schema == "hand-record"]
    assert records
    for record in records:
        assert check_hand_record(record) == []


def test_a_broken_example_would_be_caught(tmp_path: Path) -> None:
    page = tmp_path / "formats.md"
    page.write_text('<!-- example: card -->\n```json\n"11H"\n```\n', encoding="utf-8")
    [(schema, line, document)] = examples(page)
    assert (schema, line, document) == ("card", 3, "11H")
    assert schema_problems(schema, document) != []


# <!-- example: hand-notation... --> then a ```text block: the hand notation's examples.
_TEXT_EXAMPLE = re.compile(r"<!-- example: (hand-notation[a-z-]*) -->\n```text\n(.*?\n)```", re.S)


def text_examples(page: Path = PAGE) -> dict[str, str]:
    """The page's examples of the hand notation, by name."""
    text = page.read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in _TEXT_EXAMPLE.finditer(text)}


def test_the_hand_notation_example_is_the_recorded_hand_of_the_page() -> None:
    [record] = [doc for schema, _, doc in examples() if schema == "hand-record"]
    text = text_examples()["hand-notation"]
    assert loads(text) == [record]
    assert dumps([record]) == text  # what the writer writes, to the byte


def test_the_partial_hand_example_reads_and_stops_in_the_play() -> None:
    [record] = loads(text_examples()["hand-notation-partial"])
    assert record["outcome"] is None
    assert schema_problems("hand-record", record) == []
    assert check_hand_record(record) == []
    [whole] = [doc for schema, _, doc in examples() if schema == "hand-record"]
    assert record["actions"] == whole["actions"][:len(record["actions"])]


def test_the_error_examples_are_the_corpus_messages() -> None:
    bad = Path(__file__).parent / "fixtures" / "handtext" / "bad"
    for line in text_examples()["hand-notation-errors"].splitlines():
        name = line.split(":", 1)[0]
        expected = (bad / name).with_suffix(".expected").read_text(encoding="utf-8")
        assert line == expected.rstrip("\n")
