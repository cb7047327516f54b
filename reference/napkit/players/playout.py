"""A hand or a match played to its end, or to a condition, by players (:func:`play_out`):
what ``napkit record``, the dispute tools and the tests play whole games with.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.observation import PlayerView
from napkit.players.base import Player
from napkit.players.views import seat_view

_S = TypeVar("_S", HandState, MatchState)


def play_out(state: _S, rng: random.Random, players: Player | Sequence[Player] | None = None,
             *, until: Callable[[_S], bool] | None = None,
             chance: random.Random | None = None) -> _S:
    """The hand or match ``state`` played to its end, or to the first state for which
    ``until`` is true (``state`` itself, if it already is).

    Chance's actions are drawn from ``chance``, or from ``rng`` if no ``chance`` is given
    (:meth:`~napkit.engine.hand.HandState.sample_chance`); the player to act chooses from its
    view, with ``rng``: ``players`` is one :class:`~napkit.players.base.Player` for every seat
    or a sequence of them by seat. Without players, each choice is
    ``rng.choice(state.legal_actions())``, uniformly random. The same ``rng`` (and ``chance``)
    state plays the same game; with a ``chance`` of its own, a seed deals the same cards
    whoever plays them.

    >>> import random
    >>> from napkit import Game, new_match
    >>> from napkit.players.heuristic import HeuristicPlayer
    >>> from napkit.players.playout import play_out
    >>> game = Game.create("pagat", 4)
    >>> hand = play_out(game.new_hand(dealer=0), random.Random(1))
    >>> hand.is_over(), len(hand.history)
    (True, 25)
    >>> hand == play_out(game.new_hand(dealer=0), random.Random(1))
    True
    >>> hand = play_out(game.new_hand(dealer=0), random.Random(3), HeuristicPlayer(game),
    ...                 until=lambda s: s.phase_name == "play")
    >>> hand.phase_name, hand.declarer, hand.contract_bid.name, hand.trick
    ('play', 1, 'Three', ())
    >>> match = play_out(new_match(game, hands=3), random.Random(2))
    >>> match.is_over(), match.played
    (True, 3)
    """
    deals = rng if chance is None else chance
    # One player for every seat, or a player by seat: asked once, not at every decision.
    by_seat: Sequence[Player] | None = None
    viewer: Callable[[HandState, int], PlayerView] | Callable[[MatchState, int], PlayerView]
    viewer = HandState.view if isinstance(state, HandState) else seat_view
    if players is not None:
        by_seat = players if isinstance(players, Sequence) else [players] * state.game.players
    while not (state.is_over() or (until is not None and until(state))):
        if state.is_chance():
            state = state.apply(state.sample_chance(deals))
        elif by_seat is None:
            state = state.apply(rng.choice(state.legal_actions()))
        else:
            seat = state.turn
            state = state.apply(by_seat[seat].choose(viewer(state, seat), rng))
    return state
