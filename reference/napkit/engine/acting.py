"""Acting (NAP-1.3): who may act, with which cards, until when, and which rule a refusal names.

These rules hold in every phase of every ruleset, so they live here once:

* only the player (or chance) to act may act (NAP-1.3.1, :func:`turn_refusal`);
* a player acts only with cards they hold (NAP-1.3.2, :func:`not_held`);
* nothing is done once a hand or a match is over (NAP-1.3.3, :func:`over_error`);
* an action that breaks several rules is refused under the first of them in the order of
  NAP-1.3.4 (:func:`act`).

The engine's ``apply`` acts for whoever is to act; a program that is told *who* acted, as the
adapter protocol and the records are, calls :func:`act`, which checks the end and the turn
first, then hands the action to its phase.

>>> from napkit.engine.game import Game
>>> from napkit.engine.acting import not_held, turn_refusal
>>> hand = Game.create("classic", players=3).new_hand(dealer=0)
>>> turn_refusal(hand.turn, 1)
IllegalActionError('NAP-1.3.1', "it is chance's turn, not seat 1's")
>>> turn_refusal(hand.turn, None) is None
True
>>> not_held(0b111, 0b1000, seat=2)
IllegalActionError('NAP-1.3.2', 'seat 2 does not hold the 5 of spades')
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from napkit.engine.actions import Action
from napkit.engine.cards import card_words, names
from napkit.engine.state import CHANCE
from napkit.errors import IllegalActionError

__all__ = ["Playable", "act", "not_held", "over_error", "turn_refusal", "who"]

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


def not_held(hand: int, cards: int, seat: int, holder: str = "") -> IllegalActionError | None:
    """Implements: NAP-1.3.2.

    The refusal of an action naming the cards ``cards`` (a mask) by ``seat``, whose cards are
    ``hand``, if any of them is not theirs; else None. ``holder`` names the seat in the
    message (``the declarer``), if not ``seat N``."""
    missing = cards & ~hand
    if not missing:
        return None
    shown = card_words(missing.bit_length() - 1) if missing.bit_count() == 1 else names(missing)
    return IllegalActionError("NAP-1.3.2", f"{holder or f'seat {seat}'} does not hold {shown}")


def over_error(thrown_in: bool = False, match: bool = False) -> IllegalActionError:
    """Implements: NAP-1.3.3.

    The refusal of any action once play is over: a match that has ended (NAP-10.4.1), a hand
    thrown in because nobody bid (NAP-5.3.2), or a hand whose fifth trick has been played
    (NAP-8.3.1). The reason says which."""
    if match:
        return IllegalActionError("NAP-1.3.3", "the match is over: no action can be taken")
    if thrown_in:
        return IllegalActionError("NAP-1.3.3", "the hand was thrown in: nobody bid, so it is "
                                               "not played and no action can be taken")
    return IllegalActionError("NAP-1.3.3", "the hand is over: all five tricks have been played")


def act(state: P, seat: int | None, action: Action) -> P:
    """Implements: NAP-1.3.4.

    ``state`` after ``seat`` (None for chance) takes ``action``; IllegalActionError if it may
    not, naming the first rule broken in NAP-1.3.4's order: the end (the state's ``apply``
    refuses anything once over), the turn, then the phase's rules, where the kind of action
    due comes before the cards held (each phase's ``apply`` checks in that order)."""
    if not state.is_over():
        refusal = turn_refusal(state.turn, seat)
        if refusal is not None:
            try:
                raise refusal
            finally:
                # Not kept by this frame, which the traceback keeps: the error and the frame
                # would hold each other, and with the frame its callers' (a whole fuzzed
                # episode), until the cyclic collector came round.
                del refusal
    return state.apply(action)
