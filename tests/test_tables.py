"""Terminal tables (napkit.output.tables): columns from their cells, numbers to the right,
widths as the terminal prints them, every cell safe to print."""

from __future__ import annotations

import doctest

import pytest
from napkit.output.tables import cut, printable, table, width


def test_columns_are_as_wide_as_their_widest_cell_and_numbers_go_right() -> None:
    lines = table(["ruleset", "cases", "note"], [["pagat", 328, "ok"], ["napoleon", 7, ""]])
    assert lines == ["ruleset   cases  note",
                     "pagat       328  ok",
                     "napoleon      7"]  # no trailing spaces


def test_align_gap_widths_and_rule() -> None:
    lines = table(["a", "b", "c"], [["x", "1,234", "y"]], "<><", gap=(4, 1), widths=(0, 7),
                  rule=True)
    assert lines == ["a          b c",
                     "-    ------- -",
                     "x      1,234 y"]
    # A column align does not cover is right-aligned only if every cell of it is a number.
    assert table(None, [[1, "a"], [22, 3]], "<") == ["1   a", "22  3"]
    assert table(None, [[True], [2]]) == ["True", "2"]  # a boolean is no number


def test_wide_characters_take_two_columns_and_combining_marks_none() -> None:
    assert width("abc") == 3
    assert width("王様") == 4  # CJK ideographs: wide
    assert width("10♥") == 3  # the suits are narrow where terminals print them narrow
    assert width("♠\ufe0f") == 2  # but their emoji form is wide
    assert width("e\u0301") == 1  # e and a combining acute accent
    assert width("🂡") == 1 and width("🃏") == 2
    lines = table(["who", "n"], [["王様", 1], ["ab", 22], ["é♠", 3]])
    assert lines == ["who    n",
                     "王様   1",
                     "ab    22",
                     "é♠     3"]


def test_cells_are_made_safe_to_print() -> None:
    hostile = "evil\x1b[2J\x1b]0;pwned\x07\r\nname\u202etxt.exe\x7f\x9b"
    shown = printable(hostile)
    assert shown == "evil\\x1b[2J\\x1b]0;pwned\\x07\\r\\nname\\u202etxt.exe\\x7f\\x9b"
    assert shown.isprintable()
    lines = table(["id", "n"], [[hostile, 1]])
    assert all(line.isprintable() for line in lines)
    assert lines[1] == f"{shown}  1"
    assert len(lines[0]) == len(lines[1])  # measured after escaping
    fine = "plain ♠ 王 e\u0301 👩\u200d👩\u200d👧"  # a combining accent, an emoji's joiners
    assert printable(fine) == fine
    assert printable("\ud800") == "\\ud800" and printable("\U000e0001") == "\\U000e0001"


def test_an_empty_table() -> None:
    assert table(None, []) == []
    assert table([], []) == []
    assert table(["id", "kind"], []) == ["id  kind"]
    assert table(["id", "kind"], [], rule=True) == ["id  kind", "--  ----"]
    assert table(None, [[], []]) == []


def test_short_rows_and_empty_cells() -> None:
    assert table(["a", "b", "c"], [["x"], ["y", None, "z"]]) == ["a  b  c", "x", "y     z"]


@pytest.mark.parametrize(("text", "limit", "expected"), [
    ("short", 16, "short"), ("a-long-ruleset-name", 10, "a-long-ru…"), ("王様王様", 5, "王様…")])
def test_cut(text: str, limit: int, expected: str) -> None:
    assert cut(text, limit) == expected
    assert width(cut(text, limit)) <= limit


def test_limit_cuts_cells() -> None:
    assert table(["name"], [["abcdefghij"]], limit=5) == ["name", "abcd…"]


def test_the_last_column_wraps_under_itself() -> None:
    lines = table(["id", "title"], [["a", "one two three four five six seven eight"]],
                  wrap=25)
    assert lines == ["id  title",
                     "a   one two three four",
                     "    five six seven eight"]


def test_the_examples_of_the_module_run() -> None:
    from napkit.output import tables

    result = doctest.testmod(tables)
    assert result.attempted >= 4 and result.failed == 0
