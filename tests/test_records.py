"""Recorded hands and matches: written from the engine, accepted by their schemas, and checked
by replay; deliberately broken records are reported by JSON path and rule id."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from napkit.engine.actions import Deal, Play
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.errors import SetupError
from napkit.formats.recording import play_table, table_hands
from napkit.formats.records import (
    check_hand_record,
    check_match_record,
    hand_record,
    hand_record_line,
    match_record,
)
from napkit.formats.values import FormatError, action_from_json, action_to_json, cards_from_json
from napkit.players.playout import play_out
from napkit.spec.catalog import default_spec
from napkit.spec.schemas import schema_problems

RULESETS = sorted(default_spec().rulesets)


def _random_hand(ruleset: str, players: int, seed: int) -> HandState:
    rng = random.Random(seed)
    return play_out(Game.create(ruleset, players).new_hand(rng.randrange(players)), rng)


def _played_record(ruleset: str = "pagat", seed: int = 1) -> dict[str, Any]:
    for s in range(seed, seed + 50):
        state = _random_hand(ruleset, 4, s)
        assert state.result is not None
        if not state.result.thrown_in:
            record: dict[str, Any] = json.loads(json.dumps(hand_record(state)))
            return record
    raise AssertionError("no played hand in 50 seeds")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hand_records_validate_and_replay(ruleset: str) -> None:
    for seed in range(15):
        record = json.loads(json.dumps(hand_record(_random_hand(ruleset, 4, seed))))
        assert schema_problems("hand-record", record) == []
        assert check_hand_record(record) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_match_records_validate_and_replay(ruleset: str) -> None:
    rng = random.Random(ruleset)
    match = play_out(new_match(Game.create(ruleset, 4), hands=4), rng)
    record = json.loads(json.dumps(match_record(match)))
    assert schema_problems("match-record", record) == []
    assert check_match_record(record) == []


def test_actions_round_trip() -> None:
    state = _random_hand("pagat-purchase", 5, 3)
    for _, action in state.history:
        data = json.loads(json.dumps(action_to_json(action)))
        assert schema_problems("action", data) == []
        assert action_from_json(data) == action


def test_wrong_payment_is_reported_with_its_rule() -> None:
    record = _played_record()
    payments = record["outcome"]["payments"]
    payments[0]["amount"] += 1
    problems = check_hand_record(record)
    assert any(p.path == "$.outcome.payments[0].amount" and p.rule == payments[0]["rule"]
               for p in problems), problems


def test_revoke_is_reported_with_the_following_rule() -> None:
    # Find a recorded card play where the player held the suit led and played another suit.
    for seed in range(200):
        record = _played_record(seed=seed)
        state = Game.create("pagat", 4).new_hand(record["dealer"])
        state = state.apply(Deal(cards_from_json(record["deal"], ["deal"])))
        for i, step in enumerate(record["actions"]):
            action = action_from_json(step["action"])
            if state.trick and state.phase_name == "play":
                led = state.trick[0] // 13
                hand = state.hands[state.turn]
                off = [c for c in range(52) if hand >> c & 1 and c // 13 != led]
                if hand & (0x1FFF << 13 * led) and off:
                    broken = copy.deepcopy(record)
                    broken["actions"][i]["action"] = action_to_json(Play(off[0]))
                    problems = check_hand_record(broken)
                    assert [(p.path, p.rule) for p in problems] == [
                        (f"$.actions[{i}].action", "NAP-8.1.1")]
                    assert "must follow" in problems[0].message
                    return
            state = state.apply(action)
    raise AssertionError("no hand offered a revoke to test")


def test_out_of_turn_and_truncated_records() -> None:
    record = _played_record()
    out_of_turn = copy.deepcopy(record)
    out_of_turn["actions"][0]["seat"] = (record["actions"][0]["seat"] + 1) % 4
    problems = check_hand_record(out_of_turn)
    assert [(p.path, p.rule) for p in problems] == [("$.actions[0].seat", "NAP-1.3.1")]
    truncated = copy.deepcopy(record)
    del truncated["actions"][-3:]
    problems = check_hand_record(truncated)
    assert [(p.path, p.rule) for p in problems] == [("$.actions", "NAP-8.3.1")]


def test_card_dealt_twice_and_unknown_card() -> None:
    record = _played_record()
    twice = copy.deepcopy(record)
    twice["deal"][1] = twice["deal"][0]
    assert schema_problems("hand-record", twice)  # uniqueItems
    assert [(p.path, p.rule) for p in check_hand_record(twice)] == [("$.deal", "NAP-2.2.1")]
    unknown = copy.deepcopy(record)
    unknown["deal"][0] = "1X"
    assert ("$.deal[0]", "'1X' does not match '^(10|[2-9JQKA])[SHDC]$'") in schema_problems(
        "hand-record", unknown)


def test_format_errors_name_the_path() -> None:
    with pytest.raises(FormatError) as caught:
        action_from_json({"type": "play", "card": "ZZ"}, ["actions", 3, "action"])
    assert caught.value.path == "$.actions[3].action.card"
    with pytest.raises(FormatError) as caught:
        action_from_json({"type": "fly"})
    assert caught.value.path == "$.type"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_record_line_is_json_dumps_of_the_record_to_the_byte(ruleset: str) -> None:
    """``napkit record`` writes each hand with ``hand_record_line``, which puts the line
    together itself: it must be ``json.dumps(hand_record(hand))`` exactly, for random and
    heuristic play (thrown-in hands, every kind of action), and for the hands of matches,
    whose pools and fixed stocks of chips are not empty."""
    for players in (3, 4, 5):
        try:
            game = Game.create(ruleset, players)
        except SetupError:
            continue
        hands = [*table_hands(game, 3, opponents="heuristic", hands=15),
                 *table_hands(game, 4, opponents="random", hands=15)]
        match = play_table(game, 5, opponents="random", hands=8, match=True)
        assert isinstance(match, MatchState)
        for hand in [*hands, *match.hands]:
            assert hand_record_line(hand) == json.dumps(hand_record(hand))


def test_the_record_line_of_an_unfinished_hand_is_refused() -> None:
    hand = Game.create("pagat", 4).new_hand(dealer=0)
    with pytest.raises(ValueError, match="only a finished hand"):
        hand_record_line(hand)
