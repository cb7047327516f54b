"""A seat's view, as the players read it: who played each card of the trick
(:func:`trick_seats`), which cards the seat knows are out of play (:func:`known_gone`,
:func:`is_master`); and a seat's view of a match between hands (:func:`match_view`), or of a
hand or a match, whichever it is (:func:`seat_view`).
"""

from __future__ import annotations

from napkit.engine.actions import Play
from napkit.engine.cards import SUIT_BITS, mask_of, suit_of
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.observation import PlayerView


def trick_seats(view: PlayerView) -> list[int]:
    """Who played each card of the current trick.

    The play passes clockwise (NAP-8.1.1) round the seats of the hand, which
    :attr:`~napkit.engine.observation.PlayerView.order` lists clockwise, so while a seat of
    the hand is to play the cards came from the seats before it; else from the last plays of
    the history.
    """
    count, order = len(view.trick), view.order
    if view.turn in order:
        last, size = order.index(view.turn), len(order)
        return [order[(last - count + k) % size] for k in range(count)]
    seats: list[int] = []
    for actor, action in reversed(view.history):
        if len(seats) == count:
            break
        if isinstance(action, Play):
            seats.append(actor)
    return seats[::-1]


def known_gone(view: PlayerView) -> int:
    """The cards (a mask) the viewer knows nobody else can still play: its own, and those
    played to this trick and the tricks before."""
    gone = mask_of(view.hand) | mask_of(view.trick)
    for trick in view.tricks:
        gone |= mask_of(trick.cards)
    return gone


def is_master(card: int, view: PlayerView, gone: int | None = None) -> bool:
    """Whether every higher card of the suit has been played or is in the viewer's hand
    (``gone``: :func:`known_gone` of the view, if already worked out)."""
    if gone is None:
        gone = known_gone(view)
    above = SUIT_BITS[suit_of(card)] & ~((2 << card) - 1)  # the cards of its suit above it
    return gone & above == above


def match_view(match: MatchState, seat: int) -> PlayerView:
    """A seat's view between hands of a match, when it is to ante or sit out (NAP-10.3.1).

    No cards are dealt yet: the view holds the table, the pool and the balances.
    """
    n = match.game.players
    return PlayerView(
        seat=seat, ruleset=match.game.id, phase=match.phase_name, turn=match.turn,
        dealer=match.dealer, order=tuple((match.dealer + 1 + k) % n for k in range(n)),
        hand=(), hand_sizes=(0,) * n, widow=None, widow_out=False, history=(), declarer=-1,
        contract=None, trumps=-1, trick=(), tricks=(), declarer_tricks=0, pool=match.pool,
        funds=match.balances if match.chips is not None else None, payments=(), stakes=1,
        legal_actions=match.legal_actions() if match.turn == seat else ())


def seat_view(state: HandState | MatchState, seat: int) -> PlayerView:
    """What ``seat`` knows of a hand, or of a match (its hand in play, else the table between
    hands: :func:`match_view`)."""
    if isinstance(state, HandState):
        return state.view(seat)
    return state.hand.view(seat) if state.hand is not None else match_view(state, seat)
