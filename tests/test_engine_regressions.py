"""Engine regressions: each test names the fault it keeps out.

- A module of the engine imported on its own, first, in a fresh interpreter (once failed with a
  circular import: the phase modules needed ``napkit.engine.state`` loaded before them).
- A malformed action (a card number off the pack, a suit that is not one, a mask of cards that
  do not exist, the wrong type of thing altogether) handed to ``apply`` in any phase is refused
  with :class:`IllegalActionError` and a rule id, never an ``IndexError`` from building the
  message (``str(Play(52))`` once raised one).
"""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from napkit.engine.actions import (
    PASS,
    PEEK,
    Bid,
    Buy,
    Cut,
    Deal,
    Discard,
    NameTrumps,
    Play,
    Reshuffle,
    Shuffle,
)
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import new_match
from napkit.errors import IllegalActionError
from napkit.strategies import Table, tables

from tests.test_properties import SEEDS, SETTINGS, states

# Every module of the engine and its phases, and a few of the layers above, each imported first
# in a fresh interpreter: an import circle shows as a module that cannot be imported first.
MODULES = ["engine.actions", "engine.phases.auction", "engine.cards", "engine.phases.deal",
           "engine.game", "engine.match", "engine.phases.play", "players",
           "engine.phases.purchase", "formats.records", "engine.phases.settlement",
           "formats.snapshots", "engine.state", "engine.phases.trumps", "spec.views",
           "engine.phases.widow", "formats.validate", "cli", "engine.acting", "engine.hand",
           "engine.observation", "engine.rules"]


@pytest.mark.parametrize("module", MODULES)
def test_each_engine_module_imports_first_on_its_own(module: str) -> None:
    run = subprocess.run([sys.executable, "-c", f"import napkit.{module}"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


BAD_CARDS = [-1, 52, 53, 10**6]

# Actions no state accepts: numbers off the pack, and values of the wrong type.
MALFORMED: list[Any] = (
    [Play(c) for c in BAD_CARDS] + [Discard(c) for c in BAD_CARDS]
    + [NameTrumps(s) for s in (-1, 4, 9)]
    + [Buy(1 << 52), Buy(-1), Bid("no-such-bid"), Bid(""), Cut(-3), Cut(10**6)]
    + [Deal((52,) * 52), Deal((0,)), Deal(()), Reshuffle((99,)), Shuffle((60,))]
    + [Play("AS"), Discard(None), NameTrumps("S"), Bid(7), None, "play AS", 12]  # type: ignore[arg-type]
)


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_a_malformed_action_has_words(action: Any) -> None:
    assert isinstance(str(action), str)


def _refused(state: HandState, action: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    error = caught.value
    assert error.rule.startswith("NAP-"), error
    assert str(error).startswith(error.rule + ": "), str(error)
    return error


@SETTINGS
@given(tables(), SEEDS, st.randoms(use_true_random=False))
def test_malformed_actions_are_refused_in_every_phase(
        table: Table, seed: int, rng: random.Random) -> None:
    for state in states(table.game, seed):
        action = rng.choice(MALFORMED)
        _refused(state, action)


@SETTINGS
@given(tables(), SEEDS)
def test_malformed_actions_are_refused_at_every_step_of_a_match(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    game = table.game
    match = new_match(game, hands=2, chips=8 if game.rules.match.bankroll else None)
    while not match.is_over():
        action = rng.choice(MALFORMED)
        with pytest.raises(IllegalActionError) as caught:
            match.apply(action)
        assert caught.value.rule.startswith("NAP-")
        match = match.apply(match.sample_chance(rng) if match.is_chance()
                            else rng.choice(match.legal_actions()))


def test_a_player_to_play_who_does_something_else_is_told_the_rule_of_that_moment() -> None:
    """A non-card action in play names the rule that gives this player a card to play: the
    declarer's first lead (NAP-7.2.1), following (NAP-8.1.1), a later lead (NAP-8.1.3)."""
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(40):
        state = Game.create("pagat", 4).new_hand(0)
        while not state.is_over():
            if state.phase_name == "play":
                expected = ("NAP-8.1.1" if state.trick else
                            "NAP-8.1.3" if state.tricks else "NAP-7.2.1")
                assert _refused(state, PASS).rule == expected
                seen.add(expected)
            state = state.apply(state.sample_chance(rng) if state.is_chance()
                                else rng.choice(state.legal_actions()))
    assert seen == {"NAP-7.2.1", "NAP-8.1.1", "NAP-8.1.3"}


def test_actions_after_the_hand_are_refused_under_nothing_after_the_end() -> None:
    """Once a hand is over, thrown in (NAP-5.3.2) or played out (NAP-8.3.1), every action is
    refused under NAP-1.3.3, and the reason says which end it was; a look in a game with no
    paid looks is not a call there is (NAP-5.2.1)."""
    rng = random.Random(5)
    reasons: set[str] = set()
    for hand in range(20):
        state = Game.create("classic", 4).new_hand(0)
        state = state.apply(state.sample_chance(rng))
        assert _refused(state, PEEK).rule == "NAP-5.2.1"
        while not state.is_over():
            legal = state.legal_actions()
            # Every other hand, everyone passes: the hand is thrown in (NAP-5.3.2).
            state = state.apply(PASS if hand % 2 and PASS in legal else rng.choice(legal))
        assert state.result is not None
        refused = _refused(state, PASS)
        assert refused.rule == "NAP-1.3.3"
        thrown = "thrown in" in refused.message
        assert thrown == state.result.thrown_in, refused.message
        reasons.add("thrown in" if thrown else "five tricks")
    assert reasons == {"thrown in", "five tricks"}
