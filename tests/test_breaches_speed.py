"""The finders of napkit.conform.suite.breaches that take a short way for speed offer exactly what
the long way offers: past the first lead, the cards not held that a play could be lifted to
are told apart by suit (breaches._not_held_as), not by lifting each pair of cards."""

from __future__ import annotations

import random

import pytest
from napkit.conform.suite.breaches import Candidates, _not_held, lift_card
from napkit.engine.actions import Play
from napkit.engine.cards import SUIT_BITS, cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.phases.deal import hand_pack
from napkit.engine.phases.play import playable
from napkit.engine.rules import compile_rules
from napkit.engine.state import PLAY
from napkit.players.biased import BiasedPlayer, Style
from napkit.spec.catalog import default_spec


def lifted_each_pair(state: HandState) -> Candidates:
    """The long way: each card not held, lifted in for each card of its suit in turn, kept if
    the lifted hand may play it."""
    seat, hand = state.turn, state.hands[state.turn]
    out: Candidates = []
    for suit in SUIT_BITS:
        for card in cards_of(hand_pack(state) & ~hand & suit):
            if any(playable(lift_card(state, seat, card, instead)) >> card & 1
                   for instead in cards_of(hand & suit)):
                out.append((seat, Play(card)))
    return out


def play_states(ruleset_id: str, seed: int) -> list[HandState]:
    """Every state of the play of a few hands of the ruleset, played by biased players."""
    rng = random.Random(seed)
    ruleset = default_spec().rulesets[ruleset_id]
    game = Game.create(ruleset_id, min(compile_rules(ruleset.resolve()).players))
    found = []
    for _ in range(6):
        state = game.new_hand(dealer=rng.randrange(game.players))
        player = BiasedPlayer(game, Style.draw(rng))
        while not state.is_over():
            if state.phase == PLAY:
                found.append(state)
            state = state.apply(state.sample_chance(rng) if state.is_chance()
                                else player.choose(state.view(state.turn), rng))
    return found


@pytest.mark.parametrize("ruleset_id", sorted(default_spec().rulesets))
def test_the_cards_not_held_are_those_lifting_each_pair_finds(ruleset_id: str) -> None:
    states = play_states(ruleset_id, 5)
    assert any(s.trick for s in states) and any(s.tricks and not s.trick for s in states)
    for state in states:
        assert _not_held(state, random.Random(0)) == lifted_each_pair(state), state
