"""The shortcuts napkit fuzz's illegal tries take give the answers the long way gives.

- which breaches a game allows (breaches.possible_breaches), kept by the identity of the
  values its needs read: the answer can_meet gives each need afresh, for many choices of the
  options of every ruleset; parameters a caller may change are read afresh; the stores stay
  bounded;
- the finders that tell cards apart by suit, or lift one pair for all, or list a lifted
  turn's plays without lifting it (not-held at the first lead of a contract that sets no
  lead, buy-not-held, out-of-turn in the play) offer what lifting each one offers, at every
  state of a few hundred fuzzed episodes.
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any, cast

import pytest
from napkit.conform.fuzz.campaign import episode_seed
from napkit.conform.fuzz.episodes import Games, Prober, draw_episode, scope_of
from napkit.conform.fuzz.shrink import Choices
from napkit.conform.suite import breaches
from napkit.conform.suite.breaches import (
    Breach,
    Candidates,
    _buy_not_held,
    _later_players,
    _not_held,
    _out_of_turn,
    lift_card,
    lift_turn,
    possible_breaches,
)
from napkit.engine.actions import Buy, Peek, Play
from napkit.engine.cards import SUIT_BITS, cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.phases.deal import hand_pack
from napkit.engine.phases.play import playable
from napkit.engine.rules import compile_rules
from napkit.engine.state import PLAY, PURCHASE
from napkit.protocol.adapter import supports
from napkit.spec.catalog import default_spec
from napkit.spec.loading import JSONObject
from napkit.spec.rulesets import Ruleset, can_meet


def combinations(ruleset: Ruleset, most: int) -> list[dict[str, str]]:
    """Choices of the ruleset's options: all of them, or ``most`` drawn (seeded)."""
    names = list(ruleset.options)
    every = [dict(zip(names, combo, strict=True)) for combo in
             itertools.product(*(list(ruleset.options[n].choices) for n in names))]
    return every if len(every) <= most else random.Random(ruleset.id).sample(every, most)


def read_afresh(ruleset: Ruleset, params: JSONObject) -> tuple[Breach, ...]:
    """The long way: each breach whose rule is in force, each of its needs asked of params."""
    table = breaches._spec_tables()[0]
    return tuple(b for b, rule, needs in table if rule in ruleset.rules
                 and all(can_meet(params, need) for need in needs))


@pytest.fixture
def empty_stores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(breaches, "_KEPT", {})
    monkeypatch.setattr(breaches, "_MET", {})


@pytest.mark.usefixtures("empty_stores")
@pytest.mark.parametrize("ruleset_id", sorted(default_spec().rulesets))
def test_the_breaches_kept_are_those_read_afresh(ruleset_id: str) -> None:
    # Games one after another, as a fuzzer makes them: most find their answer kept from
    # another choice of options, or the answers of their needs.
    ruleset = default_spec().rulesets[ruleset_id]
    for choices in combinations(ruleset, 120):
        fresh = ruleset.resolve(ruleset.option_values(choices))
        game = Game(ruleset, min(compile_rules(fresh).players), choices)
        assert possible_breaches(game) == read_afresh(ruleset, fresh), choices
    assert breaches._KEPT and breaches._MET


@pytest.mark.usefixtures("empty_stores")
def test_parameters_a_caller_may_change_are_read_afresh() -> None:
    ruleset = default_spec().rulesets["peep"]
    params: dict[str, Any] = copy.deepcopy(dict(ruleset.resolve(ruleset.option_values())))
    assert "look" in [b.name for b in breaches._possible(ruleset, params)]
    params["peek"] = None
    assert "look" not in [b.name for b in breaches._possible(ruleset, params)]
    assert not breaches._KEPT and not breaches._MET


@pytest.mark.usefixtures("empty_stores")
def test_the_stores_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(breaches, "POSSIBLE_KEPT", 3)
    ruleset = default_spec().rulesets["pagat-purchase"]
    for choices in combinations(ruleset, 40):
        values = ruleset.option_values(choices)
        params = cast(JSONObject, ruleset.resolve_kept(values))
        assert breaches._possible(ruleset, params) == read_afresh(ruleset, params)
        assert len(breaches._KEPT) <= 3 and len(breaches._MET) <= 3


# --- the finders ---------------------------------------------------------------------------------

def fuzzed_states(count: int) -> list[HandState]:
    """Every hand state of ``count`` fuzzed episodes (the hands of matches too)."""
    scope = scope_of(supports(), default_spec().rulesets)
    games, prober = Games(default_spec().rulesets), Prober()
    found: list[HandState] = []
    for i in range(count):
        episode = draw_episode(scope, games, prober, Choices(seed=episode_seed(7, i)), i)
        for state in [*(step.before for step in episode.steps), episode.final]:
            hand = state if isinstance(state, HandState) else state.hand
            if hand is not None:
                found.append(hand)
    return found


@pytest.fixture(scope="module")
def states() -> list[HandState]:
    return fuzzed_states(400)


def lifted_each_pair(state: HandState, phase: str) -> Candidates:
    """The long way: each card not held, lifted in for each card of its suit in turn, kept if
    the lifted hand may play it (or buy it, alone)."""
    seat, hand = state.turn, state.hands[state.turn]
    out: Candidates = []
    for suit in SUIT_BITS:
        for card in cards_of(hand_pack(state) & ~hand & suit):
            for instead in cards_of(hand & suit):
                lifted = lift_card(state, seat, card, instead)
                if phase == "play" and playable(lifted) >> card & 1:
                    out.append((seat, Play(card)))
                    break
                if phase == "purchase" and lifted.is_legal(Buy(1 << card)):
                    out.append((seat, Buy(1 << card)))
                    break
    return out


def test_a_card_not_held_is_played_as_lifting_each_pair_finds(states: list[HandState]) -> None:
    play = [s for s in states if s.phase == PLAY]
    first = [s for s in play if not s.trick and not s.tricks]
    assert {s.game.rules.bids[s.contract].lead for s in first} >= {"any", "trump"}
    for state in play:
        assert _not_held(state, random.Random(0)) == lifted_each_pair(state, "play"), state


def test_a_card_not_held_is_bought_as_lifting_each_pair_finds(states: list[HandState]) -> None:
    buying = [s for s in states if s.phase == PURCHASE]
    found = [_buy_not_held(s, random.Random(0)) for s in buying]
    assert any(found) and not all(found)  # some buyers may buy one card, some not
    for state, candidates in zip(buying, found, strict=True):
        assert candidates == lifted_each_pair(state, "purchase"), state


def test_out_of_turn_plays_are_those_of_the_lifted_turn(states: list[HandState]) -> None:
    play = [s for s in states if s.phase == PLAY]
    assert any(s.trick for s in play) and any(s.tricks and not s.trick for s in play)
    for state in states:
        lifted = [(seat, action) for seat in _later_players(state)
                  for action in lift_turn(state, seat).legal_actions()
                  if not isinstance(action, Peek)]
        assert _out_of_turn(state, random.Random(0)) == lifted, state
