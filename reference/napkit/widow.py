"""The widow (or floater): looks at it, bought or free; the declarer's exchange (NAP-6.1, 6.3)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from napkit import trumps
from napkit.actions import (
    DISCARDS,
    LEAVE_WIDOW,
    PEEK,
    TAKE_WIDOW,
    Action,
    Discard,
    LeaveWidow,
    TakeWidow,
)
from napkit.cards import card_words
from napkit.errors import IllegalActionError
from napkit.state import (
    DISCARD,
    EXCHANGE,
    F_FUNDS,
    F_LEDGER,
    F_LOG,
    F_POOL,
    F_SEEN,
    POOL,
    HandState,
    Payment,
    new_state,
)


def dealer_look(state: HandState) -> HandState:
    """Implements: NAP-6.1.2.

    Where the ruleset gives the dealer a free look, the dealer has seen the widow before the
    auction begins (and so has no reason to buy a look).
    """
    rules = state.game.rules
    if rules.peek_dealer_free and state.widow >= 0 and state.ring[state.dealer] >= 0:
        return state._replace(seen=state.seen | 1 << state.dealer)
    return state


def can_peek(state: HandState, seat: int) -> bool:
    """A look may be bought: the ruleset has paid looks, there is a widow, the player has not
    seen it, and (with a fixed stock of chips) can pay."""
    cost = state.game.rules.peek_cost
    return (cost is not None and state.widow >= 0 and not state.seen >> seat & 1
            and (state.funds is None or state.funds[seat] >= cost))


def peek(state: HandState) -> HandState:
    """Implements: NAP-6.1.1.

    At their turn in the auction, before passing or bidding, a player may pay the ruleset's
    cost into the pool and look at the widow. It is still their turn afterwards.
    """
    seat = state.turn
    rules = state.game.rules
    if rules.peek_cost is None:
        raise IllegalActionError("NAP-6.1.1", "this game has no paid looks at the widow")
    if state.widow < 0:
        raise IllegalActionError("NAP-6.1.1", "there is no widow to look at")
    if state.seen >> seat & 1:
        raise IllegalActionError("NAP-6.1.1", f"seat {seat} has already seen the widow")
    cost = rules.peek_cost
    funds = state.funds
    if funds is not None:
        if funds[seat] < cost:
            raise IllegalActionError("NAP-6.1.1", f"seat {seat} cannot pay {cost} for a look")
        funds = funds[:seat] + (funds[seat] - cost,) + funds[seat + 1:]
    # The next state built field by field: a look is bought in most floater auctions.
    f: list[Any] = list(state)
    f[F_SEEN] = state.seen | 1 << seat
    f[F_POOL] = state.pool + cost
    f[F_FUNDS] = funds
    f[F_LEDGER] = state.ledger + (_payment((seat, POOL, cost, "NAP-6.1.1")),)
    f[F_LOG] = (state.log, (seat, PEEK))
    return new_state(f)


# Payment(*fields) without the named tuple's Python-level __new__.
if TYPE_CHECKING:
    def _payment(fields: tuple[int, int, int, str], /) -> Payment: ...
else:
    _payment = partial(tuple.__new__, Payment)


def start_exchange(state: HandState) -> HandState:
    """Implements: NAP-5.2.4, NAP-6.3.1, NAP-6.3.2.

    After the auction, a declarer entitled to the exchange (every declarer, or one whose bid
    was made with the widow, as the ruleset says; a bid without it never is) takes the widow
    and discards one card: at their choice where the exchange is optional (and then any of the
    six may go), or
    necessarily, discarding one of the five dealt, where the ruleset says they must take it.
    The exchange comes before trumps are named.
    """
    rules = state.game.rules
    bid = rules.bids[state.contract]
    entitled = state.widow >= 0 and (
        rules.exchange_when == "any-contract"
        or (rules.exchange_when == "bid-with" and bid.widow == "with"))
    if not entitled:
        return trumps.start(state)
    declarer = state.declarer
    if rules.exchange_take == "must-take-widow":
        return _take(state, keep=1 << state.widow)
    return state._replace(phase=EXCHANGE, turn=declarer)


def _take(state: HandState, keep: int) -> HandState:
    declarer = state.declarer
    hand = state.hands[declarer] | 1 << state.widow
    return state._replace(
        hands=state.hands[:declarer] + (hand,) + state.hands[declarer + 1:], widow=-1,
        seen=state.seen | 1 << declarer, phase=DISCARD, turn=declarer, pending=keep)


def legal_exchange(state: HandState) -> tuple[Action, ...]:
    return (TAKE_WIDOW, LEAVE_WIDOW)


def apply_exchange(state: HandState, action: Action) -> HandState:
    """Take the widow into hand, or leave it, where the exchange is optional (NAP-6.3.1)."""
    log = (state.log, (state.turn, action))
    if isinstance(action, TakeWidow):
        return _take(state._replace(log=log), keep=0)
    if isinstance(action, LeaveWidow):
        return trumps.start(state._replace(log=log))
    raise IllegalActionError("NAP-6.3.1",
                             f"the declarer is to take or leave the widow, not to {action}")


def legal_discards(state: HandState) -> tuple[Action, ...]:
    hand = state.hands[state.turn] & ~state.pending
    return tuple(DISCARDS[c] for c in range(52) if hand >> c & 1)


def apply_discard(state: HandState, action: Action) -> HandState:
    """Discard one card face down after taking the widow (NAP-6.3.1)."""
    declarer = state.turn
    if not isinstance(action, Discard):
        raise IllegalActionError("NAP-6.3.1",
                                 f"the declarer is to discard one card, not to {action}")
    card = action.card
    hand = state.hands[declarer]
    if not (isinstance(card, int) and 0 <= card < 52 and hand >> card & 1):
        raise IllegalActionError("NAP-6.3.1", f"the declarer does not hold {_words(card)}")
    if state.pending >> card & 1:
        raise IllegalActionError(
            "NAP-6.3.1", f"a declarer who must take the {state.game.rules.widow_name} discards "
                         f"one of the five cards dealt, not {card_words(card)}")
    hand &= ~(1 << card)
    done = state._replace(
        hands=state.hands[:declarer] + (hand,) + state.hands[declarer + 1:],
        discards=state.discards + (card,), pending=0,
        log=(state.log, (declarer, action)))
    return trumps.start(done)


def _words(card: object) -> str:
    return card_words(card) if isinstance(card, int) and 0 <= card < 52 else repr(card)
