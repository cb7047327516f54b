"""Purchases: buying new cards from the stock before the auction (NAP-6.2)."""

from __future__ import annotations

import random

from napkit.engine.acting import not_held
from napkit.engine.actions import Action, Buy, Reshuffle
from napkit.engine.cards import cards_of, check_pack
from napkit.engine.state import (
    CHANCE,
    NOBODY,
    POOL,
    PURCHASE,
    RESHUFFLE,
    H,
    HandData,
    Payment,
    replace,
)
from napkit.errors import IllegalActionError


def start(state: H) -> H:
    """After the deal, where the ruleset has purchases: each player in turn from the dealer's
    left (NAP-6.2.1)."""
    return replace(state, phase=PURCHASE, turn=state.order[0])


def _cost(state: HandData) -> int:
    purchase = state.game.rules.purchase
    return purchase.cost if purchase is not None else 0


def _limit(state: HandData) -> int:
    """Implements: NAP-6.2.2.

    The most cards a buyer may discard: as many as the stock holds (limit), or as many as the
    stock and the cards already discarded in this hand together hold (reshuffle discards).
    """
    purchase = state.game.rules.purchase
    if purchase is None or purchase.short_stock == "limit":
        return len(state.stock)
    return len(state.stock) + len(state.discards)


def _can_pay(state: HandData, seat: int) -> bool:
    return state.funds is None or state.funds[seat] >= _cost(state)


#: How many Buy objects, and how many lists of them, legal_buys keeps: each emptied when full.
BUYS_KEPT = 1 << 16
LISTS_KEPT = 4096

# The Buy of each card mask listed so far, so that every list names the same objects (a
# consumer that keeps an action's text by identity finds it without the dataclass's hash);
# and each list by (hand, limit), so that a state listed again gives the same tuple (which a
# consumer keeps by identity too) without building it. Both are
# pure functions of their keys, filled once: threads may fill them at once.
_BUYS: dict[int, Buy] = {}
_LISTS: dict[tuple[int, int], tuple[Action, ...]] = {}
_NOTHING: tuple[Action, ...] = (Buy(0),)

# By hand size k: the subsets of k cards as numbers j (bit i: the hand's i-th lowest card),
# fewest cards first, then by number, and how many of them hold at most 0, 1, ..., k cards.
# Spreading j's bits onto the hand's cards keeps both the count and the order of numbers (a
# higher bit goes to a higher card): the order of a hand's submasks is the same for every
# hand of k cards, and needs no sort.
_ORDERS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _order(k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    found = _ORDERS.get(k)
    if found is None:
        order = tuple(sorted(range(1 << k), key=lambda j: (j.bit_count(), j)))
        upto = tuple(sum(1 for j in order if j.bit_count() <= n) for n in range(k + 1))
        found = _ORDERS[k] = (order, upto)
    return found


def forget() -> None:
    """Forget the Buy objects and lists kept (see :func:`napkit.engine.game.clear_memos`)."""
    _BUYS.clear()
    _LISTS.clear()


def legal_buys(state: HandData) -> tuple[Action, ...]:
    """Buy nothing, or discard any one or more cards up to the limit (NAP-6.2.1)."""
    if not _can_pay(state, state.turn):
        return _NOTHING
    hand = state.hands[state.turn]
    limit = _limit(state)
    key = (hand, limit)
    found = _LISTS.get(key)
    if found is not None:
        return found
    # Every submask of the hand, at index j the cards of j's bits (see _order).
    subs = [0]
    for card in cards_of(hand):
        bit = 1 << card
        subs += [s | bit for s in subs]
    order, upto = _order(hand.bit_count())
    buys = _BUYS
    if len(buys) >= BUYS_KEPT:
        buys.clear()
    listed: list[Action] = []
    for j in order[:upto[min(limit, len(upto) - 1)]]:
        m = subs[j]
        buy = buys.get(m)
        if buy is None:
            buy = buys[m] = Buy(m)
        listed.append(buy)
    if len(_LISTS) >= LISTS_KEPT:
        _LISTS.clear()
    found = _LISTS[key] = tuple(listed)
    return found


def apply_buy(state: H, action: Action) -> H:
    """Implements: NAP-6.2.1.

    In turn from the dealer's left, each player once: pay the cost into the pool, discard the
    chosen cards face down, and be dealt as many from the top of the stock; or buy nothing and
    pay nothing.
    """
    seat = state.turn
    if not isinstance(action, Buy):
        raise IllegalActionError("NAP-6.2.1", f"it is seat {seat}'s turn to buy, not to {action}")
    hand = state.hands[seat]
    cards = action.cards
    missing = not_held(hand, cards, seat)
    if missing is not None:
        try:
            raise missing
        finally:
            del missing  # not kept by this frame, which the traceback keeps (see acting.act)
    log = (state.log, (seat, action))
    if cards == 0:
        return _next_buyer(replace(state, log=log))
    cost = _cost(state)
    if not _can_pay(state, seat):
        raise IllegalActionError("NAP-6.2.1", f"seat {seat} cannot pay {cost} to buy")
    want = cards.bit_count()
    if want > _limit(state):
        raise IllegalActionError(
            "NAP-6.2.2", f"seat {seat} may discard at most {_limit(state)} cards, not {want}")
    funds = state.funds
    if funds is not None:
        funds = funds[:seat] + (funds[seat] - cost,) + funds[seat + 1:]
    paid = replace(state, pool=state.pool + cost, funds=funds, log=log,
                   ledger=state.ledger + (Payment(seat, POOL, cost, "NAP-6.2.1"),))
    drawn = state.stock[:want]
    new_hand = hand & ~cards
    for card in drawn:
        new_hand |= 1 << card
    hands = paid.hands[:seat] + (new_hand,) + paid.hands[seat + 1:]
    if want <= len(state.stock):
        return _next_buyer(replace(paid, hands=hands, stock=state.stock[want:],
                                   discards=state.discards + cards_of(cards)))
    # The stock runs out: the earlier discards are shuffled into a new stock (chance).
    return replace(paid, hands=hands, stock=(), phase=RESHUFFLE, turn=CHANCE, pending=cards)


def _buyer(state: HandData) -> int:
    """The seat whose purchase waits on a reshuffle: the last to act in the history."""
    return state.log[1][0] if state.log else -1


def sample_reshuffle(state: HandData, rng: random.Random) -> Reshuffle:
    stock = list(state.discards)
    rng.shuffle(stock)
    return Reshuffle(tuple(stock))


def apply_reshuffle(state: H, action: Action) -> H:
    """The discards so far, shuffled, become the stock; the purchase is completed from it."""
    if not isinstance(action, Reshuffle):
        raise IllegalActionError("NAP-6.2.2", f"the discards must be reshuffled, not {action}")
    check_pack(action.stock, sum(1 << c for c in state.discards), "NAP-6.2.2")
    seat = _buyer(state)
    hand = state.hands[seat]
    short = 5 - hand.bit_count()  # the cards the stock could not supply
    for card in action.stock[:short]:
        hand |= 1 << card
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
    done = replace(
        state, hands=hands, stock=action.stock[short:], discards=cards_of(state.pending), pending=0,
        phase=PURCHASE, turn=seat, log=(state.log, (CHANCE, action)))
    return _next_buyer(done)


def _next_buyer(state: H) -> H:
    seat = state.turn
    if seat == state.order[-1]:
        return replace(state, phase=PURCHASE, turn=NOBODY)  # the auction comes next
    return replace(state, turn=state.ring[seat])
