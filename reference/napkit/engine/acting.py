"""Who may act: an action by anyone but the player (or chance) to act is refused (NAP-1.3.1).

The engine's ``apply`` acts for whoever is to act; a program that is told *who* acted, as the
adapter protocol and the records are, checks that first. :func:`act` does both, in the order
NAP-1.3.4 gives: nothing after the end (NAP-1.3.3), then the turn, then the phase's rules.

>>> from napkit.engine.game import Game
>>> hand = Game.create("classic", players=3).new_hand(dealer=0)
>>> turn_refusal(hand.turn, 1)
IllegalActionError('NAP-1.3.1', "it is chance's turn, not seat 1's")
>>> turn_refusal(hand.turn, None) is None
True
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from napkit.engine.actions import Action
from napkit.engine.state import CHANCE
from napkit.errors import IllegalActionError

__all__ = ["Playable", "act", "turn_refusal", "who"]

P = TypeVar("P", bound="Playable")


class Playable(Protocol):
    """A hand or a match: whose turn it is, whether it is over, and what an action does."""

    @property
    def turn(self) -> int: ...

    def is_over(self) -> bool: ...

    def apply(self: P, action: Action) -> P: ...


def who(seat: int | None) -> str:
    """A seat in words: ``seat 2``, or ``chance`` for None."""
    return "chance" if seat is None else f"seat {seat}"


def turn_refusal(turn: int, seat: int | None) -> IllegalActionError | None:
    """Implements: NAP-1.3.1.

    The refusal of an action by ``seat`` (None for chance) when ``turn`` is to act, or None
    if ``seat`` is the one to act.
    """
    expected = None if turn == CHANCE else turn
    if seat == expected:
        return None
    return IllegalActionError("NAP-1.3.1", f"it is {who(expected)}'s turn, not {who(seat)}'s")


def act(state: P, seat: int | None, action: Action) -> P:
    """``state`` after ``seat`` (None for chance) takes ``action``; IllegalActionError, with
    the rule NAP-1.3.4 says to name, if it may not."""
    if not state.is_over():
        refusal = turn_refusal(state.turn, seat)
        if refusal is not None:
            raise refusal
    return state.apply(action)
