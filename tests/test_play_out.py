"""play_out (napkit.players): a hand or a match played to its end, or to a predicate,
chance drawn from the rng and each seat asked its player."""

from __future__ import annotations

import random

import pytest
from napkit.engine.actions import Action, Deal
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.observation import PlayerView
from napkit.engine.state import CHANCE
from napkit.players.heuristic import HeuristicPlayer
from napkit.players.playout import play_out
from napkit.players.uniform import RandomPlayer


class Counting:
    """Any legal action (the first); counts the seats it was asked for."""

    def __init__(self) -> None:
        self.seats: list[int] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.turn == view.seat and view.legal_actions
        self.seats.append(view.seat)
        return view.legal_actions[0]


def _plain_loop(state: HandState, rng: random.Random) -> HandState:
    while not state.is_over():
        state = state.apply(state.sample_chance(rng) if state.is_chance()
                            else rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("ruleset", ["pagat", "peep", "pagat-purchase", "classic"])
def test_a_hand_is_played_to_its_end_as_the_plain_loop_plays_it(ruleset: str) -> None:
    game = Game.create(ruleset, 4)
    for seed in range(10):
        hand = play_out(game.new_hand(seed % 4), random.Random(seed))
        assert hand.is_over() and hand.result is not None
        # The same draws from the rng as the loop it replaces, so the same hand.
        assert hand == _plain_loop(game.new_hand(seed % 4), random.Random(seed))


def test_chance_is_drawn_from_the_rng_reproducibly() -> None:
    game = Game.create("pagat", 4)

    def deal_of(seed: int) -> Deal:
        hand = play_out(game.new_hand(0), random.Random(seed), HeuristicPlayer(game))
        deal = hand.history[0]
        assert deal[0] == CHANCE and isinstance(deal[1], Deal)
        return deal[1]

    assert deal_of(5) == deal_of(5)
    assert len({deal_of(seed).pack for seed in range(6)}) == 6


def test_a_match_is_played_to_its_end() -> None:
    game = Game.create("peep", 4)
    match = play_out(new_match(game, hands=3), random.Random(4), RandomPlayer())
    assert isinstance(match, MatchState)
    assert match.is_over() and match.result is not None
    assert match.played == 3 and len(match.hands) == 3
    assert sum(match.balances) + match.pool == 4 * 20
    again = play_out(new_match(game, hands=3), random.Random(4), RandomPlayer())
    assert again == match


def test_play_stops_at_the_first_state_the_predicate_accepts() -> None:
    game = Game.create("pagat", 4)
    seen: list[str] = []

    def first_trick_done(state: HandState) -> bool:
        seen.append(state.phase_name)
        return len(state.tricks) == 1

    for seed in range(20):
        seen.clear()
        hand = play_out(game.new_hand(0), random.Random(seed), until=first_trick_done)
        if hand.is_over():  # thrown in: no trick was ever played
            assert hand.result is not None and hand.result.thrown_in
            continue
        assert hand.phase_name == "play" and len(hand.tricks) == 1 and hand.trick == ()
        assert seen[-1] == "play" and seen.count("deal") == 1
        break
    else:
        raise AssertionError("no hand of 20 was played")
    start = game.new_hand(0)
    assert play_out(start, random.Random(0), until=lambda _: True) is start


def test_a_match_stops_at_a_predicate_too() -> None:
    match = play_out(new_match(Game.create("pagat", 4), hands=5), random.Random(1),
                     until=lambda m: len(m.hands) == 2)
    assert not match.is_over() and len(match.hands) == 2


def test_each_seat_asks_its_own_player() -> None:
    game = Game.create("pagat", 4)
    players = [Counting() for _ in range(4)]
    hand = play_out(game.new_hand(0), random.Random(2), players)
    assert hand.is_over()
    for seat, player in enumerate(players):
        assert player.seats and set(player.seats) == {seat}
    asked = sum(len(p.seats) for p in players)
    assert asked == sum(1 for actor, _ in hand.history if actor != CHANCE)


def test_chance_may_draw_from_a_source_of_its_own() -> None:
    """With ``chance``, the deal depends on it alone: other players, other choices, same cards."""
    game = Game.create("pagat", 4)
    a = play_out(game.new_hand(0), random.Random(1), HeuristicPlayer(game),
                 chance=random.Random(9))
    b = play_out(game.new_hand(0), random.Random(2), RandomPlayer(), chance=random.Random(9))
    c = play_out(game.new_hand(0), random.Random(1), HeuristicPlayer(game),
                 chance=random.Random(10))
    assert a.history[0] == b.history[0] != c.history[0]
    assert a.history != b.history
