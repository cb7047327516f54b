"""What one player may know of a hand: their own cards, what they saw, and what was public.

A program playing a seat should be handed a :class:`PlayerView`, never the state itself: the
view holds exactly what a player at the table would know (NAP-4.2.1, NAP-4.3.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from napkit.engine.actions import (
    Action,
    Bid,
    Buy,
    Deal,
    Discard,
    LeaveWidow,
    NameTrumps,
    Pass,
    Peek,
    Play,
    Reshuffle,
    TakeWidow,
)
from napkit.engine.cards import cards_of
from napkit.engine.state import HandData, Payment, Trick


@dataclass(frozen=True, slots=True)
class Hidden:
    """An action the viewer saw happen but not the cards of: another player's purchase
    (``count`` cards bought), the declarer's discard, or a deal or reshuffle."""

    kind: str  # "buy", "discard", "deal", "reshuffle"
    count: int

    def __str__(self) -> str:
        return f"{self.kind} ({self.count} cards)" if self.kind == "buy" else self.kind


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a hand at one moment."""

    seat: int
    ruleset: str
    phase: str
    turn: int
    dealer: int
    order: tuple[int, ...]
    hand: tuple[int, ...]  # the viewer's own cards
    hand_sizes: tuple[int, ...]  # every seat's number of cards
    widow: int | None  # the widow card, if the viewer has seen it (else None)
    widow_out: bool  # whether a widow is still lying apart
    history: tuple[tuple[int, Action | Hidden], ...]
    declarer: int
    contract: str | None
    trumps: int
    trick: tuple[int, ...]
    tricks: tuple[Trick, ...]
    declarer_tricks: int
    pool: int
    funds: tuple[int, ...] | None
    payments: tuple[Payment, ...]
    stakes: int
    legal_actions: tuple[Action, ...]  # empty unless it is the viewer's turn


def _widow_seen(state: HandData, seat: int) -> int | None:
    """Implements: NAP-4.3.2.

    The widow is known only to those who looked at it or took it up; a card the declarer
    discarded is known only to the declarer; nobody sees the stock.
    """
    if not state.seen >> seat & 1:
        return None
    for _, action in state.history:
        if isinstance(action, Deal):
            # The widow is the card dealt apart: recover it from the deal as the engine did.
            rules = state.game.rules
            if not rules.widow:
                return None
            if (rules.widow is not None and rules.widow.dealt == "before-hands"):
                return action.pack[0]
            return action.pack[5 * len(state.order)]
    return None


# The actions everyone at the table sees as they are (the most of any hand's history): the
# view of a hand is built at every decision of a computer player, so these skip _redact.
_OPEN = frozenset({Play, Pass, Bid, Peek, NameTrumps, TakeWidow, LeaveWidow})


def _redact(state: HandData, seat: int, actor: int, action: Action) -> Action | Hidden:
    if isinstance(action, Deal):
        return Hidden("deal", len(action.pack))
    if isinstance(action, Reshuffle):
        return Hidden("reshuffle", len(action.stock))
    if isinstance(action, Buy) and actor != seat:
        return Hidden("buy", action.cards.bit_count())
    if isinstance(action, Discard) and actor != seat:
        return Hidden("discard", 1)
    return action


def player_view(state: HandData, seat: int, legal: tuple[Action, ...] = ()) -> PlayerView:
    """The view of ``seat`` (any seat at the table, in the hand or not); ``legal``: the actions
    the hand allows now, shown to the player to act (see
    :meth:`napkit.engine.hand.HandState.view`, which gives them)."""
    bid = state.contract_bid
    return PlayerView(
        seat=seat, ruleset=state.game.id, phase=state.phase_name, turn=state.turn,
        dealer=state.dealer, order=state.order, hand=cards_of(state.hands[seat]),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        widow=_widow_seen(state, seat), widow_out=state.widow >= 0,
        history=tuple([(a, x if type(x) in _OPEN else _redact(state, seat, a, x))
                       for a, x in state.history]),
        declarer=state.declarer, contract=bid.id if bid else None, trumps=state.trumps,
        trick=state.trick, tricks=state.tricks, declarer_tricks=state.won, pool=state.pool,
        funds=state.funds, payments=state.ledger, stakes=state.stakes,
        legal_actions=legal if state.turn == seat else (),
    )
