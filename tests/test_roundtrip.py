"""Round trips: every state, view, action and record the engine produces serialises to JSON that
its schema accepts, and reads back to an equal object (issue 5)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.engine.game import Game
from napkit.engine.match import new_match
from napkit.formats.records import Problem, hand_record, match_record, replay_hand, replay_match
from napkit.formats.snapshots import state_from_json, state_to_json, view_from_json, view_to_json
from napkit.formats.values import FormatError, action_from_json, action_to_json
from napkit.players.playout import play_out
from napkit.spec.schemas import schema_problems
from napkit.strategies import Table, tables

from tests.test_properties import SEEDS, SETTINGS, states


def through_json(value: dict[str, Any]) -> dict[str, Any]:
    """What another program would read: the text, parsed again."""
    parsed: dict[str, Any] = json.loads(json.dumps(value))
    return parsed


@settings(SETTINGS, max_examples=60)
@given(tables(), SEEDS)
def test_states_and_views_round_trip(table: Table, seed: int) -> None:
    game = table.game
    # Each state reads back by replaying its actions, so a whole hand of them is quadratic;
    # six states spread over the hand, the last always among them, cover every phase the
    # hand went through across the examples.
    every = list(states(game, seed))
    stride = max(1, len(every) // 6)
    for state in every[::-stride]:
        document = through_json(state_to_json(state))
        assert schema_problems("state", document) == []
        assert state_from_json(document) == state
        for seat in range(game.players):
            view = state.view(seat)
            document = through_json(view_to_json(view))
            assert schema_problems("view", document) == []
            assert view_from_json(document) == view


@SETTINGS
@given(tables(), SEEDS)
def test_actions_round_trip(table: Table, seed: int) -> None:
    for state in states(table.game, seed):
        for action in [a for _, a in state.history[-1:]] + list(state.legal_actions()):
            document = through_json(action_to_json(action))
            assert schema_problems("action", document) == []
            assert action_from_json(document) == action


@SETTINGS
@given(tables(), SEEDS)
def test_hand_records_replay_to_the_same_state(table: Table, seed: int) -> None:
    *_, last = states(table.game, seed)
    record = through_json(hand_record(last))
    assert schema_problems("hand-record", record) == []
    problems: list[Problem] = []
    assert replay_hand(record, problems) == last and problems == []


@settings(SETTINGS, max_examples=60)
@given(tables(), SEEDS, st.integers(1, 5))
def test_match_records_replay_to_the_same_match(table: Table, seed: int, hands: int) -> None:
    rng = random.Random(seed)
    game = table.game
    match = new_match(game, hands=hands, chips=8 if game.rules.match.bankroll else None)
    # A match recorded part-way through is a record too: one in twenty steps ends it there.
    match = play_out(match, rng, until=lambda _: rng.random() < 0.05)
    record = through_json(match_record(match))
    assert schema_problems("match-record", record) == []
    problems: list[Problem] = []
    assert replay_match(record, problems) == match and problems == []


def _mid_hand() -> dict[str, Any]:
    rng = random.Random(5)
    state = play_out(Game.create("pagat", 4).new_hand(0), rng,
                     until=lambda s: s.phase_name == "play" and len(s.tricks) >= 2)
    return through_json(state_to_json(state))


def test_a_state_whose_position_disagrees_is_refused_by_path() -> None:
    document = _mid_hand()
    wrong = copy.deepcopy(document)
    wrong["position"]["declarer_tricks"] = 5
    with pytest.raises(FormatError) as caught:
        state_from_json(wrong)
    assert caught.value.path == "$.position.declarer_tricks"
    assert caught.value.rule == "NAP-3.2.1"


def test_a_state_with_an_illegal_action_names_the_rule() -> None:
    document = _mid_hand()
    wrong = copy.deepcopy(document)
    first_play = next(i for i, s in enumerate(wrong["actions"]) if s["action"]["type"] == "play")
    wrong["actions"][first_play]["action"] = {"type": "bid", "bid": "nap"}
    with pytest.raises(FormatError) as caught:
        state_from_json(wrong)
    assert caught.value.path == f"$.actions[{first_play}].action"
    # The first play is the declarer's lead to the first trick: a bid there breaks NAP-7.2.1.
    assert caught.value.rule == "NAP-7.2.1"


def test_a_malformed_state_is_refused_by_schema_path() -> None:
    document = _mid_hand()
    wrong = copy.deepcopy(document)
    wrong["position"]["trumps"] = "wands"
    with pytest.raises(FormatError) as caught:
        state_from_json(wrong)
    assert caught.value.path == "$.position.trumps" and caught.value.rule is None
    with pytest.raises(FormatError) as caught:
        view_from_json({"format": "napkit-view/1"})
    assert caught.value.path == "$"
