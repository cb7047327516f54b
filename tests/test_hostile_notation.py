"""Hostile input to the hand notation (spec/formats.md, "The hand notation", issue 27): a
short or repeated ``seats:`` line, keys the notation does not have, and lines and hands of any
length, through every command that reads a hand (``napkit validate``, ``replay``,
``explain``). Each gives one clear line naming the line and column, never a traceback;
``validate`` goes on to the next file; a line or a hand past the stated limits is refused
without being held."""

from __future__ import annotations

import io
import itertools
import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from napkit.cli import EXIT_PROBLEMS, EXIT_USAGE, main
from napkit.formats import handtext
from napkit.formats.handtext import (
    MAX_HAND,
    MAX_LINE,
    HandFileError,
    HandTextError,
    read_hand_file,
    read_hand_text,
)
from napkit.formats.validate import check_sources

Capture = pytest.CaptureFixture[str]
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

TABLE = "ruleset: pagat\nplayers: 3\ndealer: 0\n"
DEAL = "seat 0: 4H 5S 8D KD 7S\nseat 1: 3C JD AH AS 9S\nseat 2: 9C JC 6C 9H 7C\n"
STEPS = "auction: pass, bid four, bid nap\nplay: 5S AS JC\n"
GOOD = TABLE + DEAL + STEPS
COMMANDS = (["validate"], ["replay", "--under", "pagat", "--brief"], ["explain", "--at", "1"])


def run(capsys: Capture, *argv: str) -> tuple[int, list[str]]:
    """The exit status and every line printed (out and err), with validate's count left
    out; a traceback or a raw control character fails the test."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert not any(ord(c) < 32 and c != "\n" for c in out + err), out + err
    lines = [line for line in (out + err).splitlines()
             if not line.split(" ")[0].isdigit()]  # "2 records: 1 valid, 1 invalid"
    return code, lines


def hand_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


# --- defect 2: the seats line -------------------------------------------------------------------
SEATS = {
    # At three players of pagat, two seats dealt in: the third sits out, and the pack is the
    # one for the three at the table (NAP-2.2.1, law book 1.1); the hand's seat 2 then acts
    # (the JSON record's $.actions[1].seat).
    "seats: 0 1": "line 7, column 1: seat 2 is not dealt in (the hand's seats: 0 1)",
    "seats: 0 1 1": "line 4, column 12: seat 1 is listed twice (first at line 4, column 10)",
    "seats: 0 0 0": "line 4, column 10: seat 0 is listed twice (first at line 4, column 8)",
    "seats: 0\n  1\n  1": "line 6, column 3: seat 1 is listed twice (first at line 5, column 3)",
    "seats: 2 1 2 0": "line 4, column 12: seat 2 is listed twice (first at line 4, column 8)",
    "seats: 0": "line 4, column 8: NAP-3.1.1: a hand needs at least two players",
    "seats:": "line 4, column 1: NAP-3.1.1: a hand needs at least two players",
    "seats: 0 1 3": "line 4, column 8: NAP-3.1.1: seats must be between 0 and 2",
}


@pytest.mark.parametrize("seats", sorted(SEATS))
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_short_or_repeated_seats_line_is_refused_at_that_line(
        seats: str, command: list[str], tmp_path: Path, capsys: Capture) -> None:
    path = hand_file(tmp_path, "bad.nap", TABLE + seats + "\n" + DEAL + STEPS)
    code, lines = run(capsys, *command[:1], str(path), *command[1:])
    prefix = "" if command[0] == "validate" else "napkit: "
    assert lines == [f"{prefix}{path}: {SEATS[seats]}"]
    assert code == (EXIT_PROBLEMS if command[0] == "validate" else EXIT_USAGE)


def test_the_same_seats_as_json_and_as_notation_are_refused_alike(tmp_path: Path) -> None:
    record = read_hand_text(GOOD)
    for seats, where in (([0, 1], "$.actions[1].seat"), ([0, 1, 1], "$.seats[2]")):
        as_json = hand_file(tmp_path, "bad.json", json.dumps({**record, "seats": seats}))
        [checked] = check_sources([str(as_json)])
        assert not checked.valid and checked.problems[0].path == where
        with pytest.raises(HandTextError):
            read_hand_text(TABLE + "seats: " + " ".join(map(str, seats)) + "\n" + DEAL)


def test_a_seat_sitting_out_is_still_read(tmp_path: Path) -> None:
    """Fewer seats than players where the ruleset has a pack for them: a hand of a match
    with a player knocked out, as the writer writes it."""
    text = ("ruleset: pagat\nplayers: 4\ndealer: 1\nseats: 1 2 3\n"
            "seat 1: 4H 5S 8D KD 7S\nseat 2: 3C JD AH AS 9S\nseat 3: 9C JC 6C 9H 7C\n")
    record = read_hand_text(text)
    assert record["seats"] == [1, 2, 3]


def test_validate_goes_on_to_the_next_file_after_a_bad_one(tmp_path: Path,
                                                           capsys: Capture) -> None:
    bad = [hand_file(tmp_path, f"bad{i}.nap", TABLE + seats + "\n" + DEAL)
           for i, seats in enumerate(("seats: 0 1", "seats: 0 1 1"))]
    good = hand_file(tmp_path, "good.nap", GOOD)
    code, lines = run(capsys, "validate", *map(str, bad), str(good))
    assert code == EXIT_PROBLEMS
    assert lines == [f"{bad[0]}: {SEATS['seats: 0 1']}", f"{bad[1]}: {SEATS['seats: 0 1 1']}",
                     f"{good}: valid hand (pagat, 3 players, partial: no outcome yet)"]


def test_validate_goes_on_after_a_bug_of_ours_in_one_hand_or_file(
        tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong inside napkit on one hand or one file is that hand's or that
    file's problem, on its line: the files after it are still checked."""
    real = handtext._Reader.read

    def read(self: handtext._Reader) -> object:
        if "hand" in self.source:
            raise RuntimeError("broken\x1b[2J")
        return real(self)

    monkeypatch.setattr(handtext._Reader, "read", read)
    broken = hand_file(tmp_path, "hand.nap", GOOD + GOOD)
    good = hand_file(tmp_path, "good.nap", GOOD)
    code, lines = run(capsys, "validate", str(broken), str(good))
    assert code == EXIT_PROBLEMS
    assert lines == [
        f"{broken}:1: line 1, column 1: napkit could not read this hand (RuntimeError: "
        "broken\\x1b[2J); please report it",
        f"{broken}:9: line 9, column 1: napkit could not read this hand (RuntimeError: "
        "broken\\x1b[2J); please report it",
        f"{good}: valid hand (pagat, 3 players, partial: no outcome yet)"]

    def is_notation(name: str, text: str) -> bool:
        raise MemoryError if "hand" in name else AssertionError("not reached")

    monkeypatch.setattr("napkit.formats.validate.is_notation", is_notation)
    code, lines = run(capsys, "validate", str(broken), str(tmp_path / "good.json"))
    assert code == EXIT_PROBLEMS
    assert lines[0] == (f"{broken}: $: napkit could not read the rest of this file "
                        "(MemoryError: ); please report it")
    assert lines[1].startswith(f"{tmp_path / 'good.json'}: $: cannot read")


# --- defect 11: keys the notation does not have ------------------------------------------------
KEYS = "(the keys: ruleset, options, players, dealer, seats, pool, funds, stakes, seat N, " \
       "widow, stock, purchase, auction, exchange, trumps, play)"
UNKNOWN = {
    # Before the deal (the defect: "seat 0's cards are not given"), between the table's keys,
    # in the deal, after it.
    TABLE + "colour: red\n" + DEAL + STEPS: f"line 4, column 1: unknown key 'colour:' {KEYS}",
    "ruleset: pagat\ncolour: red\nplayers: 3\ndealer: 0\n" + DEAL:
        f"line 2, column 1: unknown key 'colour:' {KEYS}",
    "ruleset: pagat\nplayers: 3\ndealr: 0\n" + DEAL:
        f"line 3, column 1: unknown key 'dealr:': did you mean 'dealer:'? {KEYS}",
    TABLE + "Seet 0: 4H 5S 8D KD 7S\n" + DEAL[23:]:
        f"line 4, column 1: unknown key 'seet 0:': did you mean 'seat N:'? {KEYS}",
    TABLE + DEAL[:23] + "  colour : red\n" + DEAL[23:]:
        f"line 5, column 3: unknown key 'colour:' {KEYS}",
    TABLE + DEAL + "auction: pass\ntrump: hearts\n":
        f"line 8, column 1: unknown key 'trump:': did you mean 'trumps:'? {KEYS}",
    # A key known, in the wrong place: said so, not "seat 1's cards are not given".
    TABLE + DEAL[:23] + "pool: 3\n" + DEAL[23:]:
        "line 5, column 1: 'pool:' belongs before the deal, with 'ruleset:'",
    # Text from the file, escaped and cut, its length said.
    TABLE + "\x1b]0;owned\x07\x1b[2J: red\n" + DEAL:
        f"line 4, column 1: unknown key '\\x1b]0;owned\\x07\\x1b[2j:' {KEYS}",
    TABLE + "k" * 5000 + ": red\n" + DEAL:
        f"line 4, column 1: unknown key '{'k' * 39}…' (5,001 characters) {KEYS}",
    "\x1b[2J: x\n" + GOOD:
        "line 1, column 1: a hand starts with 'ruleset: ID', not '\\x1b[2j:'",
    TABLE + "seat \x1b[31m: 4H\n" + DEAL:
        "line 4, column 6: a seat is a whole number (0 or more), not '\\x1b[31m'",
    TABLE + "seat 0: " + "Q" * 5000 + "\n" + DEAL[23:]:
        f"line 4, column 9: '{'Q' * 39}…' (5,000 characters) is not a card: write rank then "
        "suit, as AS, 10H or A♣",
}


@pytest.mark.parametrize("number", range(len(UNKNOWN)))
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_unknown_key_is_named_where_it_stands(number: int, command: list[str],
                                                 tmp_path: Path, capsys: Capture) -> None:
    text, message = list(UNKNOWN.items())[number]
    path = hand_file(tmp_path, "bad.nap", text)
    code, lines = run(capsys, *command[:1], str(path), *command[1:])
    prefix = "" if command[0] == "validate" else "napkit: "
    assert lines == [f"{prefix}{path}: {message}"]
    assert code != 0


def test_an_action_typed_at_length_is_quoted_cut() -> None:
    with pytest.raises(HandTextError) as caught:
        read_hand_text(TABLE + DEAL + "auction: fold" + "x" * 5000 + "\n")
    assert str(caught.value) == (
        "<text>: line 7, column 10: cannot read 'foldxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' "
        "(5,004 characters): 'foldxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (5,004 characters) "
        "is not an action; type one of: pass, bid BID, peek, buy CARDS, buy nothing, take, "
        "leave, discard CARD, name SUIT, play CARD, CARD, ante, sit out")


# --- defect 9 (part): lines and hands of any length --------------------------------------------
def long_steps(characters: int) -> str:
    """A hand whose play is one line of ``characters`` characters of cards."""
    return TABLE + DEAL + "auction: pass, bid four, bid nap\nplay: " + "5S " * (characters // 3)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_12_mb_line_of_steps_is_refused_on_one_line(command: list[str], tmp_path: Path,
                                                      capsys: Capture) -> None:
    path = hand_file(tmp_path, "long.nap", long_steps(12_000_000) + "\n")
    code, lines = run(capsys, *command[:1], str(path), *command[1:])
    if command[0] == "validate":
        assert lines == [f"{path}: line 8, column 10001: the line is 12,000,006 characters "
                         "long: a line of a hand file is at most 10,000 (spec/formats.md, "
                         "\"The hand notation: limits\")"]
    else:  # a file of one hand: refused by its size before it is read
        assert lines == [f"napkit: {path}: $: the file is over 1,000,000 characters long: a "
                         "file of one hand is at most that (spec/formats.md, \"The hand "
                         "notation: limits\")"]
    assert code != 0


def test_a_long_line_is_never_held(tmp_path: Path) -> None:
    """A 12 MB line through validate, from a file: read and counted a block at a time (the
    reader once held a word object per card of it, 1.1 GB)."""
    path = hand_file(tmp_path, "long.nap", long_steps(12_000_000) + "\n" + GOOD)
    tracemalloc.start()
    try:
        checked = list(check_sources([str(path)]))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [c.valid for c in checked] == [False, True]
    assert peak < 5_000_000, peak


@pytest.mark.parametrize("line", ["pass, " * 500_000, "5S " * 300_000])
def test_the_steps_of_a_long_line_are_read_one_at_a_time(
        line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits lifted, a hand's steps are still read one at a time and the reader stops at
    the first that cannot be made: the memory is the text's, not an object per word."""
    monkeypatch.setattr(handtext, "MAX_LINE", 10**9)
    monkeypatch.setattr(handtext, "MAX_HAND", 10**9)
    text = TABLE + DEAL + ("auction: " + line if line.startswith("pass") else
                           "auction: pass, bid four, bid nap\nplay: " + line)
    tracemalloc.start()
    try:
        with pytest.raises(HandTextError, match=r"NAP-1\.3\."):
            read_hand_text(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(text), (peak, len(text))


def test_a_line_at_the_limit_is_read_and_one_past_it_is_not() -> None:
    steps = "auction: pass, bid four, bid nap"
    at = TABLE + DEAL + steps + " " * (MAX_LINE - len(steps)) + "\n"
    assert read_hand_text(at)["actions"][2]["action"] == {"type": "bid", "bid": "nap"}
    with pytest.raises(HandTextError, match=r"line 7, column 10001: the line is 10,001 "):
        read_hand_text(at.replace(" \n", "  \n"))


def test_a_hand_over_the_limit_is_refused_and_the_next_is_read(tmp_path: Path,
                                                               capsys: Capture) -> None:
    comments = "# a comment of forty characters, or so..\n" * (MAX_HAND // 40)
    path = hand_file(tmp_path, "hands.nap", GOOD + comments + GOOD)
    code, lines = run(capsys, "validate", str(path))
    second = 9 + MAX_HAND // 40
    assert code == EXIT_PROBLEMS
    assert lines[0].startswith(f"{path}:1: line 24")
    assert lines[0].endswith(": the hand is over 1,000,000 characters long (from line 1): a "
                             "hand is at most that (spec/formats.md, \"The hand notation: "
                             "limits\")")
    assert lines[1:] == [f"{path}:{second}: valid hand (pagat, 3 players, partial: no outcome "
                         "yet)"]


def test_a_hand_file_over_the_limit_is_refused_in_either_notation(tmp_path: Path) -> None:
    big = {**read_hand_text(GOOD), "padding": " " * MAX_HAND}
    comments = ("#" * 99 + "\n") * (MAX_HAND // 100)
    for path in (hand_file(tmp_path, "big.json", json.dumps(big)),
                 hand_file(tmp_path, "big.nap", GOOD + comments)):
        with pytest.raises(HandFileError, match=r": \$: the file is over 1,000,000 "):
            read_hand_file(path)
    at_the_limit = GOOD + comments[:MAX_HAND - len(GOOD)]
    assert len(at_the_limit) == MAX_HAND
    assert read_hand_file(hand_file(tmp_path, "ok.nap", at_the_limit)) == read_hand_text(GOOD)


def test_validate_reads_a_long_line_on_stdin(monkeypatch: pytest.MonkeyPatch,
                                             capsys: Capture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(long_steps(100_000) + "\n" + GOOD))
    code, lines = run(capsys, "validate", "-")
    assert code == EXIT_PROBLEMS
    assert lines == [
        "<stdin>:1: line 8, column 10001: the line is 100,005 characters long: a line of a "
        "hand file is at most 10,000 (spec/formats.md, \"The hand notation: limits\")",
        "<stdin>:9: valid hand (pagat, 3 players, partial: no outcome yet)"]


# --- any text, in any blocks -------------------------------------------------------------------
@SETTINGS
@given(st.text(alphabet="ab \r\n\x0c\u2028#:", max_size=60), st.lists(st.integers(0, 60)))
@example(text=":::::\r\n", cuts=[6])  # a "\r" ending one block, its "\n" the next: one break
def test_lines_read_a_block_at_a_time_are_the_text_s_lines(text: str, cuts: list[int]) -> None:
    """However a text is parted into blocks ("\\r" and "\\n" of one break in two blocks
    included), its lines are those ``str.splitlines`` gives."""
    points = sorted({0, len(text), *(c for c in cuts if c < len(text))})
    blocks = [text[a:b] for a, b in itertools.pairwise(points)]
    lines = list(handtext._lines(blocks))
    assert [(line, length) for line, length, _ in lines] == [
        (line, len(line)) for line in text.splitlines()]
    assert sum(taken for _, _, taken in lines) == len(text)


LINES = st.sampled_from([
    "seats: 0 1", "seats: 0 1 1", "seats: 1 2", "seats:", "seats: 0 1 2", "seats: 9",
    "colour: red", "dealr: 0", "players: 3", "dealer: 0", "ruleset: pagat", "pool: 2",
    "funds: 1 2", "stakes: 0", ": x", "x", "seat 0: 4H", "seat 1: 3C JD AH AS 9S",
    "widow: 2C", "stock: 2C", "auction: pass", "play: 5S", "trump: x", "", "# c",
    "seat x: 4H", "seats: 0,1", "seats: -1 0", "seats: 00 1 2"])


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 9), LINES), max_size=4))
def test_any_line_anywhere_gives_a_hand_or_one_line(tmp_path_factory: pytest.TempPathFactory,
                                                     inserted: list[tuple[int, str]]) -> None:
    lines = GOOD.splitlines()
    for at, line in inserted:
        lines.insert(at, line)
    text = "\n".join(lines) + "\n"
    try:
        read_hand_text(text)
    except HandTextError as exc:
        assert "\n" not in str(exc)
    path = tmp_path_factory.mktemp("any") / "any.nap"
    path.write_text(text, encoding="utf-8")
    for checked in check_sources([str(path)]):
        assert "napkit could not" not in " ".join(checked.lines()), checked.lines()


# --- JSON records beyond their limit (spec/formats.md, "Recorded hands and matches: limits") --
def test_a_json_record_beyond_its_limit_is_refused_and_never_held(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``napkit validate /dev/zero`` held 6 GB in 8 s: a JSON document or JSON Lines line of
    any length was read whole."""
    from napkit.formats import validate

    monkeypatch.setattr(validate, "MAX_RECORD", 10_000)
    recorded = tmp_path / "hand.json"
    assert main(["record", "classic", "--seed", "1", "-o", str(recorded)]) == 0
    hand = json.dumps(json.loads(recorded.read_text(encoding="utf-8")))
    assert len(hand) < 10_000
    lines = tmp_path / "hands.jsonl"
    lines.write_text(f"{hand}\n{{\"x\": \"{'a' * 50_000}\"}}\n{hand}\n", encoding="utf-8")
    checked = list(validate.check_sources([str(lines)]))
    assert [c.valid for c in checked] == [True, False, True]
    assert checked[1].where.endswith(":2")
    assert "the line is over 10,000 characters long: a record is at most that" in (
        checked[1].problems[0].message)
    one = tmp_path / "one.json"
    one.write_text(json.dumps(json.loads(hand), indent=1) + " " * 20_000, encoding="utf-8")
    first = tmp_path / "first.json"
    first.write_text("[" + "0," * 30_000 + "0]\n" + hand + "\n", encoding="utf-8")
    for path in (one, first):
        (only,) = validate.check_sources([str(path)])
        assert "the file is over 10,000 characters long: a JSON record is at most that" in (
            only.problems[0].message), path


def test_validate_of_an_endless_file_ends(capsys: Capture) -> None:
    # /dev/zero: a first line with no end, refused at the limit, not read for ever.
    code, lines = run(capsys, "validate", "/dev/zero")
    assert code == EXIT_PROBLEMS
    assert any("the file is over 16,777,216 characters long" in line for line in lines), lines
