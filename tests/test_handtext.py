"""The hand notation (napkit.formats.handtext, spec/formats.md "The hand notation"): round trips
with napkit-hand/1 over random hands of every ruleset, finished or stopped anywhere; the
corpus of bad hands in tests/fixtures/handtext/bad, each with its exact message; hands typed
loosely; and the command line writing and validating ``.nap`` files (issue 16)."""

from __future__ import annotations

import copy
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.cli import EXIT_PROBLEMS, EXIT_USAGE, main
from napkit.engine.actions import Deal
from napkit.engine.cards import parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.errors import SetupError
from napkit.formats.handtext import (
    HandFileError,
    HandTextError,
    dumps,
    hand_text,
    loads,
    read_hand_file,
    read_hand_text,
    state_record,
    write_hand,
)
from napkit.formats.records import check_hand_record, hand_record
from napkit.spec.catalog import default_spec
from napkit.spec.schemas import schema_problems
from napkit.strategies import Table, tables

Capture = pytest.CaptureFixture[str]
BAD = Path(__file__).parent / "fixtures" / "handtext" / "bad"
RULESETS = sorted(default_spec().rulesets)
SETTINGS = settings(max_examples=50, deadline=None)


# --- random hands --------------------------------------------------------------------------------
def table_hand(game: Game, rng: random.Random) -> HandState:
    """A hand of ``game`` at a table drawn from ``rng``: any dealer, sometimes a seat sitting
    out, a pool, chips, stakes; then dealt and played by random legal actions to a drawn
    point, or to the end."""
    n = game.players
    dealer = rng.randrange(n)
    seats: tuple[int, ...] | None = None
    if n > 2 and rng.random() < 0.3:
        seats = tuple(sorted(rng.sample(range(n), n - 1)))
        try:
            game.pack(len(seats))  # the ruleset has a pack for one fewer
        except SetupError:
            seats = None
        if seats is not None and dealer not in seats:
            seats = None
    funds = tuple(rng.randrange(-5, 40) for _ in range(n)) if rng.random() < 0.3 else None
    pool = rng.choice([0, 0, 3, 12])
    stakes = rng.choice([1, 1, 2])
    try:
        state = game.new_hand(dealer, seats=seats, pool=pool, funds=funds, stakes=stakes)
    except SetupError:  # too few seats for the pack: every seat, then
        state = game.new_hand(dealer, pool=pool, funds=funds, stakes=stakes)
    state = state.apply(state.sample_chance(rng))
    stop = rng.choice([None, None, rng.randrange(40)])
    steps = 0
    while not state.is_over() and steps != stop:
        state = state.apply(state.sample_chance(rng) if state.is_chance()
                            else rng.choice(state.legal_actions()))
        steps += 1
    return state


def through_json(record: dict[str, Any]) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(json.dumps(record))
    return parsed


def assert_round_trips(state: HandState) -> None:
    record = through_json(state_record(state))
    assert schema_problems("hand-record", record) == []
    assert check_hand_record(record) == []
    if state.is_over():
        assert record == hand_record(state)
    text = write_hand(record)
    assert text == hand_text(state)
    again = loads(text)
    assert again == [record]  # record -> text -> record: the same record
    assert json.dumps(again[0]) == json.dumps(record)  # the same keys in the same order
    assert dumps(again) == text  # text -> record -> text: the same (canonical) text


@pytest.mark.parametrize("ruleset", RULESETS)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_hands_of_every_ruleset_round_trip(ruleset: str, data: st.DataObject,
                                                  seed: int) -> None:
    table: Table = data.draw(tables((ruleset,)))
    assert_round_trips(table_hand(table.game, random.Random(seed)))


def test_every_kind_of_step_round_trips() -> None:
    """Random hands until every action a hand record holds has been through a round trip:
    the rarer ones (a paid look, leaving the widow, a reshuffle of the discards) too."""
    spec = default_spec()
    wanted = {"pass", "bid", "peek", "buy", "take-widow", "leave-widow", "discard",
              "name-trumps", "play", "reshuffle"}
    seen: set[str] = set()
    for seed in range(3000):
        rng = random.Random(seed)
        ruleset = spec.rulesets[RULESETS[seed % len(RULESETS)]]
        options = {name: rng.choice(sorted(option.choices))
                   for name, option in sorted(ruleset.options.items())}
        allowed = ruleset.resolve(ruleset.option_values(options))["players"]
        assert isinstance(allowed, list)
        game = Game.create(ruleset.id, rng.choice([n for n in allowed if isinstance(n, int)]),
                           options)
        state = table_hand(game, rng)
        kinds = {step["action"]["type"] for step in state_record(state)["actions"]}
        if kinds - seen:
            assert_round_trips(state)
            seen |= kinds
        if wanted <= seen:
            return
    pytest.fail(f"never played: {sorted(wanted - seen)}")


def test_a_hand_stopped_anywhere_round_trips() -> None:
    rng = random.Random(7)
    game = Game.create("peep", 4)
    state = game.new_hand(1)
    state = state.apply(state.sample_chance(rng))
    while True:
        assert_round_trips(state)
        record = state_record(state)
        assert (record["outcome"] is None) == (not state.is_over())
        if state.is_over():
            break
        state = state.apply(rng.choice(state.legal_actions()))


# --- typed loosely -------------------------------------------------------------------------------
TYPED = """\
# typed at the table: no options, no stock, no seats before the steps
RULESET: pagat
Players: 3
dealer: 0
seat 0: 7s kd 8d 5s 4h
seat 1: as ah jd 9s 3c
seat 2: 7c 9h 6c jc 9c
auction: pass, bid four,
  bid nap
play: 5S AS JC
  jd 9h kd
"""


def test_a_hand_typed_in_any_order_deals_those_hands() -> None:
    record = read_hand_text(TYPED)
    game = Game.create("pagat", 3)
    dealt = game.new_hand(0).apply(Deal(tuple(parse_card(c) for c in record["deal"])))
    assert [set(map(str, dealt.hand(seat))) for seat in range(3)] == [
        {str(parse_card(c)) for c in cards.split()}
        for cards in ("7S KD 8D 5S 4H", "AS AH JD 9S 3C", "7C 9H 6C JC 9C")]
    assert record["options"] == dict(game.options)
    assert [step["seat"] for step in record["actions"]] == [1, 2, 0, 0, 1, 2, 1, 2, 0]
    assert record["outcome"] is None
    # Written canonically, then read again: the same record.
    assert loads(dumps([record])) == [record]


def test_several_hands_in_one_text() -> None:
    text = TYPED + "\n" + TYPED.replace("dealer: 0", "dealer: 0\npool: 5")
    first, second = loads(text)
    assert (first["pool"], second["pool"]) == (0, 5)
    with pytest.raises(HandTextError, match="line 14, column 1: a second hand"):
        read_hand_text(text)


# --- suit symbols (issue 30) ---------------------------------------------------------------------
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
OUTLINES = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}


def with_suits(text: str, suits: dict[str, str], after: str = "") -> str:
    """``text`` with each card's suit letter written as ``suits`` has it."""
    return re.sub(r"\b(10|[2-9JQKA])([SHDC])\b",
                  lambda m: m.group(1) + suits[m.group(2).upper()] + after, text,
                  flags=re.IGNORECASE)


@pytest.mark.parametrize(("suits", "after"), [(SYMBOLS, ""), (OUTLINES, ""),
                                              (SYMBOLS, "\ufe0f")],
                         ids=["symbols", "outlines", "emoji"])
def test_suit_symbols_are_read_as_the_letters(suits: dict[str, str], after: str) -> None:
    typed = with_suits(TYPED, suits, after)
    assert "♠" in typed or "♤" in typed
    assert read_hand_text(typed) == read_hand_text(TYPED)


def test_the_writer_writes_symbols_that_read_back() -> None:
    record = read_hand_text(TYPED)
    text = write_hand(record, symbols=True)
    assert "seat 0: 7♠ K♦ 8♦ 5♠ 4♥" in text
    assert "S" not in text.split("players:")[1].split("#")[0].replace("seat", "")
    assert read_hand_text(text) == record
    assert write_hand(read_hand_text(text)) == write_hand(record)


def test_json_keeps_the_letters() -> None:
    record = read_hand_text(TYPED)
    record["deal"][0] = record["deal"][0][:-1] + SYMBOLS[record["deal"][0][-1]]
    assert check_hand_record(record)  # the symbols are for people: a record is refused


def test_replay_symbols_writes_the_suits_as_symbols(tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "hand.nap"
    path.write_text(TYPED, encoding="utf-8")
    # Trumps assumed diamonds: peep's Nap must lead a trump, and 5S is refused (NAP-7.2.2).
    assume = ["--assume", "name diamonds"]
    main(["replay", str(path), "--under", "peep", "--brief", "--symbols", *assume])
    out = capsys.readouterr().out
    assert "S0 play 5♠" in out and "5S" not in out
    main(["replay", str(path), "--under", "peep", "--brief", *assume])
    assert "S0 play 5S" in capsys.readouterr().out


def test_play_typed_on_a_line_of_the_play_is_still_an_action() -> None:
    # A line starting with a key and no colon is a colon left out, but 'play 5S' is an action.
    text = TYPED.replace("play: 5S AS JC\n  jd 9h kd", "play: 5S AS JC\n  play jd")
    assert len(read_hand_text(text)["actions"]) == 7


# --- the corpus of bad hands ---------------------------------------------------------------------
BAD_FILES = sorted(BAD.glob("*.nap"))


def test_the_corpus_is_large_enough_and_each_file_has_its_message() -> None:
    assert len(BAD_FILES) >= 15
    assert sorted(p.stem for p in BAD.glob("*.expected")) == sorted(p.stem for p in BAD_FILES)


@pytest.mark.parametrize("path", BAD_FILES, ids=[p.stem for p in BAD_FILES])
def test_each_bad_hand_gets_its_exact_message(path: Path) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8").rstrip("\n")
    with pytest.raises(HandTextError) as caught:
        read_hand_text(path.read_text(encoding="utf-8"), path.name)
    assert str(caught.value) == expected
    error = caught.value
    assert f"line {error.line}, column {error.column}" in expected
    if error.rule is not None:
        assert f": {error.rule}: " in expected


# --- files of either notation --------------------------------------------------------------------
def test_read_hand_file_reads_json_and_notation_alike(tmp_path: Path) -> None:
    record = read_hand_text(TYPED)
    (tmp_path / "hand.json").write_text(json.dumps(record), encoding="utf-8")
    (tmp_path / "hand.nap").write_text(TYPED, encoding="utf-8")
    (tmp_path / "hand.txt").write_text(TYPED, encoding="utf-8")  # told by its content
    assert read_hand_file(tmp_path / "hand.json") == record
    assert read_hand_file(tmp_path / "hand.nap") == record
    assert read_hand_file(tmp_path / "hand.txt") == record


def test_read_hand_file_errors(tmp_path: Path) -> None:
    record = read_hand_text(TYPED)
    broken = copy.deepcopy(record)
    broken["actions"][3]["action"]["card"] = "3C"  # seat 0 does not hold it
    (tmp_path / "bad.json").write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(HandFileError) as caught:
        read_hand_file(tmp_path / "bad.json")
    assert str(caught.value) == (f"{tmp_path / 'bad.json'}: $.actions[3].action: NAP-1.3.2: "
                                 "seat 0 does not hold the 3 of clubs")
    assert read_hand_file(tmp_path / "bad.json", check=False) == broken
    (tmp_path / "junk.json").write_text("{", encoding="utf-8")
    with pytest.raises(HandFileError, match=r"junk.json: line 1, column 2: "):
        read_hand_file(tmp_path / "junk.json")
    with pytest.raises(HandFileError, match="cannot read"):
        read_hand_file(tmp_path / "missing.nap")


def test_a_record_the_rules_refuse_is_not_written() -> None:
    record = read_hand_text(TYPED)
    record["actions"][0]["seat"] = 2
    with pytest.raises(HandFileError) as caught:
        write_hand(record)
    assert (caught.value.where, caught.value.rule) == ("$.actions[0].seat", "NAP-1.3.1")


def test_a_null_outcome_only_for_a_hand_not_over() -> None:
    game = Game.create("pagat", 3)
    rng = random.Random(3)
    state = game.new_hand(0)
    state = state.apply(state.sample_chance(rng))
    while not state.is_over():
        state = state.apply(rng.choice(state.legal_actions()))
    record = through_json(hand_record(state))
    record["outcome"] = None
    [problem] = check_hand_record(record)
    assert (problem.path, problem.rule) == ("$.outcome", "NAP-1.3.3")


# --- the command line ----------------------------------------------------------------------------
def test_record_writes_the_notation_and_validate_reads_it(tmp_path: Path,
                                                          capsys: Capture) -> None:
    target = tmp_path / "hand.nap"
    assert main(["record", "peep", "--seed", "4", "-o", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert text.startswith("ruleset: peep\n")
    # The same hand as the JSON record of the same seed.
    assert main(["record", "peep", "--seed", "4", "-o", str(tmp_path / "hand.json")]) == 0
    record = json.loads((tmp_path / "hand.json").read_text(encoding="utf-8"))
    assert loads(text) == [record]
    capsys.readouterr()
    assert main(["validate", str(target)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{target}: valid hand (peep, 4 players)", "1 record: 1 valid, 0 invalid"]


def test_record_several_hands_in_the_notation(tmp_path: Path, capsys: Capture) -> None:
    target = tmp_path / "hands.nap"
    assert main(["record", "pagat", "--hands", "3", "--seed", "2", "-q", "-o",
                 str(target)]) == 0
    assert len(loads(target.read_text(encoding="utf-8"))) == 3
    capsys.readouterr()
    assert main(["validate", str(target)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "3 records: 3 valid, 0 invalid"
    assert out[0] == f"{target}:1: valid hand (pagat, 4 players)"


def test_a_match_is_not_written_in_the_notation(tmp_path: Path, capsys: Capture) -> None:
    target = tmp_path / "match.nap"
    assert main(["record", "peep", "--match", "--hands", "2", "-o", str(target)]) == EXIT_USAGE
    assert "writes hands, not a match" in capsys.readouterr().err
    assert not target.exists()
    assert main(["play", "peep", "--match", "--hands", "2", "--record",
                 str(target)]) == EXIT_USAGE
    assert not target.exists()


def test_play_record_writes_the_notation(tmp_path: Path, capsys: Capture) -> None:
    target = tmp_path / "played.nap"
    assert main(["play", "pagat-floater", "--watch", "--seed", "7", "--record",
                 str(target)]) == 0
    capsys.readouterr()
    # One hand played out, after the hands thrown in and dealt again (all kept: --record).
    *thrown, record = loads(target.read_text(encoding="utf-8"))
    assert all(r["ruleset"] == "pagat-floater" for r in [*thrown, record])
    assert all(r["outcome"]["thrown_in"] for r in thrown)
    assert record["outcome"] is not None and not record["outcome"]["thrown_in"]


def test_validate_reports_each_bad_hand_by_line_and_column(tmp_path: Path,
                                                           capsys: Capture) -> None:
    good = (BAD / "revoke.nap").read_text(encoding="utf-8").replace("1 3C", "1 AS")
    text = good + "\n" + (BAD / "revoke.nap").read_text(encoding="utf-8")
    target = tmp_path / "two.nap"
    target.write_text(text, encoding="utf-8")
    assert main(["validate", str(target)]) == EXIT_PROBLEMS
    assert capsys.readouterr().out.splitlines() == [
        f"{target}:1: valid hand (pagat, 3 players, partial: no outcome yet)",
        f"{target}:10: line 17, column 13: NAP-8.1.1: must follow spades; holds the 9 of "
        "spades and the ace of spades",
        "2 records: 1 valid, 1 invalid"]


def test_validate_reads_the_notation_on_stdin(monkeypatch: pytest.MonkeyPatch,
                                              capsys: Capture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(TYPED))
    assert main(["validate", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "<stdin>: valid hand (pagat, 3 players, partial: no outcome yet)")
