"""The auction: who speaks when, which bids may be made, and how it ends (NAP-5)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, cast

from napkit import settlement, widow
from napkit.actions import PASS, PEEK, Action, Bid, Pass, Peek
from napkit.errors import IllegalActionError
from napkit.game import BidRule, Game
from napkit.state import (
    AUCTION,
    F_AUCTION,
    F_CONTRACT,
    F_DECLARER,
    F_LOG,
    F_PHASE,
    F_TURN,
    PHASE_CLASSES,
    Auction,
    HandState,
    new_state,
)


def start(state: HandState) -> HandState:
    """Implements: NAP-5.1.1.

    The auction opens with the player on the dealer's left and goes clockwise, the dealer
    speaking last in each round.
    """
    order = state.order
    f: list[Any] = list(state)
    f[F_PHASE] = AUCTION
    f[F_TURN] = order[0]
    f[F_AUCTION] = _auction((order, -1, -1, 0, 0, 0, 1))
    return _auction_state(f)


def _requirements_met(bid: BidRule, made: int) -> bool:
    """Implements: NAP-5.2.5.

    A bid that needs earlier bids may be made once, for each group of bids it names, at least
    one bid of that group has been made earlier in this auction, by anyone.
    """
    requires = bid.requires
    return not requires or all(made & group for group in requires)


def biddable(state: HandState) -> list[BidRule]:
    """Implements: NAP-5.2.1, NAP-5.2.2.

    The bids the player to speak may make: those of the ruleset's list (lowest first, as
    resolved for the options in play) that rank above the highest bid so far and whose
    requirements are met.
    """
    a = state.auction
    return [b for b in state.game.rules.bids[a.high + 1:] if _requirements_met(b, a.made)]


def legal_calls(state: HandState) -> tuple[Action, ...]:
    a = state.auction
    peek = widow.can_peek(state, state.turn)
    key = (id(state.game), a.high, a.made, peek)
    found = _CALLS.get(key)
    if found is not None and found[0] is state.game:
        return found[1]
    calls: list[Action] = []
    if peek:
        calls.append(PEEK)
    calls.append(PASS)
    calls.extend(Bid(b.id) for b in biddable(state))
    if len(_CALLS) >= 4096:
        _CALLS.clear()
    _CALLS[key] = (state.game, tuple(calls))
    return _CALLS[key][1]


# (id(game), highest bid, bids made, whether a look may be bought) -> the calls then legal,
# which depend on nothing else (biddable and legal_calls read only these).
_CALLS: dict[tuple[int, int, int, bool], tuple[Game, tuple[Action, ...]]] = {}


def _refuse_bid(state: HandState, action: Bid) -> IllegalActionError:
    rules = state.game.rules
    index = state.game.bid_index.get(action.bid)
    if index is None:
        known = ", ".join(b.id for b in rules.bids)
        return IllegalActionError(
            "NAP-5.2.2", f"{action.bid!r} is not a bid of this game (its bids: {known})")
    a = state.auction
    if index <= a.high:
        return IllegalActionError(
            "NAP-5.2.1", f"{rules.bids[index].name} does not rank above the highest bid so far, "
                         f"{rules.bids[a.high].name}")
    needs = " and ".join(
        " or ".join(b.name for b in rules.bids if group >> b.index & 1) or "a bid not in this game"
        for group in rules.bids[index].requires)
    return IllegalActionError(
        "NAP-5.2.5", f"{rules.bids[index].name} may be bid only after {needs}")


def apply_call(state: HandState, action: Action) -> HandState:
    """A pass, a bid, or a paid look at the widow at one's turn to speak."""
    seat = state.turn
    kind = type(action)
    if kind is not Pass and kind is not Bid and isinstance(action, Peek):
        if state.game.rules.peek_cost is None:
            raise IllegalActionError(
                "NAP-5.2.1", f"seat {seat} is to pass or bid: this game has no paid looks")
        return widow.peek(state)
    queue, high, high_seat, passed, bidders, made, rnd = state.auction
    if kind is Bid or (kind is not Pass and isinstance(action, Bid)):
        bid_id = cast(Bid, action).bid
        index = state.game.bid_index.get(bid_id, -1)
        bid = state.game.rules.bids[index] if index >= 0 else None
        if bid is None or index <= high or not _requirements_met(bid, made):
            raise _refuse_bid(state, cast(Bid, action))
        high, high_seat, made = index, seat, made | 1 << index
        if rnd == 1:
            bidders |= 1 << seat
    elif kind is Pass or isinstance(action, Pass):
        passed |= 1 << seat
    else:
        raise IllegalActionError("NAP-5.2.1",
                                 f"seat {seat} is to pass or bid in the auction, not to {action}")
    f: list[Any] = list(state)
    f[F_LOG] = (state.log, (seat, action))
    return _advance(state, f, (queue, high, high_seat, passed, bidders, made, rnd), seat)


# Auction(*fields) without the named tuple's Python-level __new__.
if TYPE_CHECKING:
    def _auction(fields: tuple[tuple[int, ...], int, int, int, int, int, int], /) -> Auction:
        ...
else:
    _auction = partial(tuple.__new__, Auction)


def _advance(state: HandState, f: list[Any],
             called: tuple[tuple[int, ...], int, int, int, int, int, int],
             seat: int) -> HandState:
    """Implements: NAP-5.1.2, NAP-5.4.1.

    A single-round auction ends when the dealer has spoken. With a raising round, the turn
    then goes round once more from the dealer's left among the players the ruleset names
    (those who bid in the first round, or everyone), provided someone bid; each may pass or
    bid higher, and the auction ends after that round. An auction that runs until passes goes
    on round the table, skipping those who have passed, until only the highest bidder has not
    passed (or everyone has passed).

    (``state`` is the state before the call; ``f`` the fields of the one after it, but for
    the auction and the turn, which are set here; ``called`` the auction's fields once the
    call is counted, the queue still starting with the seat that called.)
    """
    queue, high, high_seat, passed, bidders, made, rnd = called
    rules = state.game.rules
    if rules.auction == "until-passes":
        a = f[F_AUCTION] = _auction(called)
        if all(passed >> s & 1 or s == high_seat for s in state.order):
            return _end(f, a)
        nxt = state.ring[seat]
        while passed >> nxt & 1:
            nxt = state.ring[nxt]
        f[F_TURN] = nxt
        return _auction_state(f)
    queue = queue[1:]
    if not queue and rnd == 1 and high >= 0 and rules.auction == "single-then-raise":
        queue = tuple(s for s in state.order
                      if rules.raising == "everyone" or bidders >> s & 1)
        rnd = 2
    a = f[F_AUCTION] = _auction((queue, high, high_seat, passed, bidders, made, rnd))
    if not queue:
        return _end(f, a)
    f[F_TURN] = queue[0]
    return _auction_state(f)


def _end(f: list[Any], a: Auction) -> HandState:
    """Implements: NAP-5.3.1, NAP-5.3.2.

    The highest bidder becomes the declarer and their bid the contract. If nobody bid, the
    hand is thrown in: it is over, unplayed and unsettled. (``f``: the fields of the hand as
    the auction ends, ``a`` its auction.)
    """
    if a.high < 0:
        return settlement.throw_in(new_state(f))
    f[F_DECLARER] = a.high_seat
    f[F_CONTRACT] = a.high
    return widow.start_exchange(new_state(f))


class AuctionState(HandState):
    """A hand in the auction: its ``legal_actions`` and ``apply`` are this module's functions
    themselves, with no dispatch by phase (see :data:`napkit.state.PHASE_CLASSES`).
    """

    __slots__ = ()

    legal_actions = legal_calls
    apply = apply_call

    def is_over(self) -> bool:
        return False  # a hand in this phase is not over, whatever the base class would ask


PHASE_CLASSES[AUCTION] = AuctionState

# new_state(f) for a state known to be still in the auction, without the Python-level call.
if TYPE_CHECKING:
    def _auction_state(fields: list[Any], /) -> HandState: ...
else:
    _auction_state = partial(tuple.__new__, AuctionState)
