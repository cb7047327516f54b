"""The widow (or floater): looks at it, bought or free; the declarer's exchange (NAP-6.1, 6.3)."""

from __future__ import annotations

from napkit.engine.acting import not_held
from napkit.engine.actions import (
    DISCARDS,
    LEAVE_WIDOW,
    PEEK,
    TAKE_WIDOW,
    Action,
    Discard,
    LeaveWidow,
    NameTrumps,
    TakeWidow,
)
from napkit.engine.cards import card_words
from napkit.engine.state import DISCARD, EXCHANGE, NOBODY, POOL, H, HandData, Payment, replace
from napkit.errors import IllegalActionError


def dealer_look(state: H) -> H:
    """Implements: NAP-6.1.2.

    Where the ruleset gives the dealer a free look, the dealer has seen the widow before the
    auction begins (and so has no reason to buy a look).
    """
    peek = state.game.rules.peek
    if peek is not None and peek.dealer_free and state.widow >= 0 and state.ring[state.dealer] >= 0:
        return replace(state, seen=state.seen | 1 << state.dealer)
    return state


def can_peek(state: HandData, seat: int) -> bool:
    """A look may be bought: the ruleset has paid looks, there is a widow, the player has not
    seen it, and (with a fixed stock of chips) can pay."""
    peek = state.game.rules.peek
    return (peek is not None and state.widow >= 0 and not state.seen >> seat & 1
            and (state.funds is None or state.funds[seat] >= peek.cost))


def peek(state: H) -> H:
    """Implements: NAP-6.1.1.

    At their turn in the auction, before passing or bidding, a player may pay the ruleset's
    cost into the pool and look at the widow. It is still their turn afterwards.
    """
    seat = state.turn
    looks = state.game.rules.peek
    if looks is None:
        raise IllegalActionError("NAP-6.1.1", "this game has no paid looks at the widow")
    if state.widow < 0:
        raise IllegalActionError("NAP-6.1.1", "there is no widow to look at")
    if state.seen >> seat & 1:
        raise IllegalActionError("NAP-6.1.1", f"seat {seat} has already seen the widow")
    cost = looks.cost
    funds = state.funds
    if funds is not None:
        if funds[seat] < cost:
            raise IllegalActionError("NAP-6.1.1", f"seat {seat} cannot pay {cost} for a look")
        funds = funds[:seat] + (funds[seat] - cost,) + funds[seat + 1:]
    return replace(state, seen=state.seen | 1 << seat, pool=state.pool + cost, funds=funds,
                   ledger=state.ledger + (Payment(seat, POOL, cost, "NAP-6.1.1"),),
                   log=(state.log, (seat, PEEK)))


def start_exchange(state: H) -> H:
    """Implements: NAP-5.2.4, NAP-6.3.1, NAP-6.3.2.

    After the auction, a declarer entitled to the exchange (every declarer, or one whose bid
    was made with the widow, as the ruleset says; a bid without it never is) takes the widow
    and discards one card: at their choice where the exchange is optional (and then any of the
    six may go), or
    necessarily, discarding one of the five dealt, where the ruleset says they must take it.
    The exchange comes before trumps are named.
    """
    rules = state.game.rules
    exchange = rules.exchange
    bid = rules.bids[state.contract]
    entitled = exchange is not None and state.widow >= 0 and (
        exchange.when == "any-contract" or (exchange.when == "bid-with" and bid.widow == "with"))
    if exchange is None or not entitled:  # no exchange in this hand: nothing to ask
        return state if state.turn == NOBODY else replace(state, phase=EXCHANGE, turn=NOBODY)
    if exchange.take == "must-take-widow":
        return _take(state, keep=1 << state.widow)
    return replace(state, phase=EXCHANGE, turn=state.declarer)


def _take(state: H, keep: int) -> H:
    declarer = state.declarer
    hand = state.hands[declarer] | 1 << state.widow
    return replace(
        state, hands=state.hands[:declarer] + (hand,) + state.hands[declarer + 1:], widow=-1,
        seen=state.seen | 1 << declarer, phase=DISCARD, turn=declarer, pending=keep)


def legal_exchange(state: HandData) -> tuple[Action, ...]:
    return (TAKE_WIDOW, LEAVE_WIDOW)


def apply_exchange(state: H, action: Action) -> H:
    """Take the widow into hand, or leave it, where the exchange is optional (NAP-6.3.1)."""
    log = (state.log, (state.turn, action))
    if isinstance(action, TakeWidow):
        return _take(replace(state, log=log), keep=0)
    if isinstance(action, LeaveWidow):
        return replace(state, log=log, turn=NOBODY)
    raise _naming_first(state, action) or IllegalActionError(
        "NAP-6.3.1", f"the declarer is to take or leave the widow, not to {action}")


def _naming_first(state: HandData, action: Action) -> IllegalActionError | None:
    """Trumps named before the exchange is done, where the contract's trumps are named: refused
    under the rule that puts the exchange first (NAP-6.3.2, with :func:`start_exchange`), not
    as any other wrong action."""
    if isinstance(action, NameTrumps) and state.game.rules.bids[state.contract].trumps == "named":
        return IllegalActionError("NAP-6.3.2", "the exchange comes first: trumps are named once "
                                               "the declarer's five cards are settled")
    return None


def legal_discards(state: HandData) -> tuple[Action, ...]:
    hand = state.hands[state.turn] & ~state.pending
    return tuple(DISCARDS[c] for c in range(52) if hand >> c & 1)


def apply_discard(state: H, action: Action) -> H:
    """Discard one card face down after taking the widow (NAP-6.3.1)."""
    declarer = state.turn
    if not isinstance(action, Discard):
        raise _naming_first(state, action) or IllegalActionError(
            "NAP-6.3.1", f"the declarer is to discard one card, not to {action}")
    card = action.card
    hand = state.hands[declarer]
    if not (isinstance(card, int) and 0 <= card < 52):
        raise IllegalActionError("NAP-2.1.1", f"{card!r} is not a card")
    missing = not_held(hand, 1 << card, declarer, "the declarer")
    if missing is not None:
        try:
            raise missing
        finally:
            del missing  # not kept by this frame, which the traceback keeps (see acting.act)
    if state.pending >> card & 1:
        raise IllegalActionError(
            "NAP-6.3.1", f"a declarer who must take the {state.game.rules.widow_name} discards "
                         f"one of the five cards dealt, not {card_words(card)}")
    hand &= ~(1 << card)
    return replace(
        state, hands=state.hands[:declarer] + (hand,) + state.hands[declarer + 1:],
        discards=state.discards + (card,), pending=0,
        log=(state.log, (declarer, action)), turn=NOBODY)
