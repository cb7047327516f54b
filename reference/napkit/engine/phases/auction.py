"""The auction: who speaks when, which bids may be made, and how it ends (NAP-5).

A call is applied at every turn of the auction, so :func:`apply_call` is, after the play of
the cards (:mod:`napkit.engine.phases.play`), the engine's other hot loop: it builds the next hand
from a copy of the fields with the three a call changes (the auction, the turn, the history)
set in place, and the next :class:`Auction` without the named tuple's Python-level
``__new__`` (``benchmarks/engine_throughput.py`` measures both).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import cast

from napkit.engine.actions import PASS, PEEK, Action, Bid, Pass, Peek
from napkit.engine.phases import widow
from napkit.engine.rules import BidRule
from napkit.engine.state import AUCTION, NOBODY, Auction, H, HandData, Log, replace
from napkit.errors import IllegalActionError


def start(state: H) -> H:
    """Implements: NAP-5.1.1.

    The auction opens with the player on the dealer's left and goes clockwise, the dealer
    speaking last in each round.
    """
    order = state.order
    return replace(state, phase=AUCTION, turn=order[0],
                   auction=_auction((order, -1, -1, 0, 0, 0, 1)))


def _requirements_met(bid: BidRule, made: int) -> bool:
    """Implements: NAP-5.2.5.

    A bid that needs earlier bids may be made once, for each group of bids it names, at least
    one bid of that group has been made earlier in this auction, by anyone.
    """
    requires = bid.requires
    return not requires or all(made & group for group in requires)


def biddable(state: HandData) -> list[BidRule]:
    """Implements: NAP-5.2.1, NAP-5.2.2.

    The bids the player to speak may make: those of the ruleset's list (lowest first, as
    resolved for the options in play) that rank above the highest bid so far and whose
    requirements are met; not a bid with the widow by a player who has not seen it, where the
    ruleset keeps those bids to players who have (NAP-5.2.4).
    """
    a = state.auction
    blind = bids_blind(state)
    return [b for b in state.game.rules.bids[a.high + 1:]
            if _requirements_met(b, a.made) and not (blind and b.widow == "with")]


def bids_blind(state: HandData) -> bool:
    """Whether the player to speak may not bid with the widow: the ruleset keeps such bids to
    players who have seen it, and this one has not (NAP-5.2.4; the rest of that rule, the
    exchange a bid with the widow brings, is :func:`napkit.engine.phases.widow.start_exchange`)."""
    peek = state.game.rules.peek
    return peek is not None and peek.with_bids_seen_only and not state.seen >> state.turn & 1


#: How many lists of calls, and how many Bid objects, legal_calls keeps: each emptied when full.
CALLS_KEPT = 4096

# The calls legal at a point of the auction depend on nothing else than the key's parts
# (biddable reads only these): kept by the identity of the ruleset's bids, which games of the
# same bids share (compile_rules keeps each parameter's compiled field), since a fuzzer plays
# a new game nearly every episode and a table meets the same few points of the auction hand
# after hand. Each entry keeps its bids alive, so no other tuple takes their id meanwhile.
# And one Bid object for each bid id, so that every list names the same objects (a consumer
# that keeps an action's text by identity finds it without the dataclass's hash). Both are
# pure functions of their keys, filled once: threads may fill them at once.
_CALLS: dict[tuple[int, int, int, bool, bool, bool],
             tuple[tuple[BidRule, ...], tuple[Action, ...]]] = {}
_BIDS: dict[str, Bid] = {}


def forget() -> None:
    """Forget the lists of calls and the Bid objects kept (see
    :func:`napkit.engine.game.clear_memos`)."""
    _CALLS.clear()
    _BIDS.clear()


def _bid(bid_id: str) -> Bid:
    found = _BIDS.get(bid_id)
    if found is None:
        if len(_BIDS) >= CALLS_KEPT:
            _BIDS.clear()
        found = _BIDS[bid_id] = Bid(bid_id)
    return found


def legal_calls(state: HandData) -> tuple[Action, ...]:
    a = state.auction
    peek = widow.can_peek(state, state.turn)
    rules = state.game.rules
    bids = rules.bids
    stuck = a.high < 0 and rules.auction.dealer_must_bid and dealer_stuck(state)
    key = (id(bids), a.high, a.made, peek, bids_blind(state), stuck)
    found = _CALLS.get(key)
    if found is not None and found[0] is bids:
        return found[1]
    calls: list[Action] = []
    if peek:
        calls.append(PEEK)
    if not stuck:
        calls.append(PASS)
    calls.extend(_bid(b.id) for b in biddable(state))
    listed = tuple(calls)
    if len(_CALLS) >= CALLS_KEPT:
        _CALLS.clear()
    _CALLS[key] = (bids, listed)
    return listed


def dealer_stuck(state: HandData) -> bool:
    """Implements: NAP-5.3.3.

    Stick the dealer: where the ruleset says so, the player to speak may not pass when nobody
    has bid and every other player in the hand has passed (so the dealer, who speaks last,
    NAP-5.1.1), unless they have no bid they may make (then the hand is thrown in). In an
    auction of several rounds that is only ever in the first, since a bid made ends it; a look
    at the widow may still be bought first, where looks are sold.
    """
    a = state.auction
    if a.high >= 0 or not state.game.rules.auction.dealer_must_bid:
        return False
    others = 0
    for seat in state.order:
        others |= 1 << seat
    return a.passed | 1 << state.turn == others and bool(biddable(state))


def _refuse_bid(state: HandData, action: Bid) -> IllegalActionError:
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
    if bids_blind(state) and rules.bids[index].widow == "with":
        return IllegalActionError(
            "NAP-5.2.4", f"{rules.bids[index].name} is a bid with the {rules.widow_name}: only a "
                         f"player who has seen it may make it")
    needs = " and ".join(
        " or ".join(b.name for b in rules.bids if group >> b.index & 1) or "a bid not in this game"
        for group in rules.bids[index].requires)
    return IllegalActionError(
        "NAP-5.2.5", f"{rules.bids[index].name} may be bid only after {needs}")


def apply_call(state: H, action: Action) -> H:
    """A pass, a bid, or a paid look at the widow at one's turn to speak."""
    seat = state.turn
    kind = type(action)
    if kind is not Pass and kind is not Bid and isinstance(action, Peek):
        if state.game.rules.peek is None:
            raise IllegalActionError(
                "NAP-5.2.1", f"seat {seat} is to pass or bid: this game has no paid looks")
        return widow.peek(state)
    queue, high, high_seat, passed, bidders, made, rnd = state.auction
    if kind is Bid or (kind is not Pass and isinstance(action, Bid)):
        bid_id = cast(Bid, action).bid
        index = state.game.bid_index.get(bid_id, -1)
        bid = state.game.rules.bids[index] if index >= 0 else None
        if bid is None or index <= high or not _requirements_met(bid, made) or (
                bid.widow == "with" and bids_blind(state)):
            raise _refuse_bid(state, cast(Bid, action))
        called = _bid_made(state, seat, index, state.auction)
    elif kind is Pass or isinstance(action, Pass):
        if high < 0 and state.game.rules.auction.dealer_must_bid and dealer_stuck(state):
            raise IllegalActionError(
                "NAP-5.3.3", f"seat {seat} may not pass: nobody has bid and every other player "
                             "has passed, so the dealer (the last to speak) must bid")
        called = (queue, high, high_seat, passed | 1 << seat, bidders, made, rnd)
    else:
        raise IllegalActionError("NAP-5.2.1",
                                 f"seat {seat} is to pass or bid in the auction, not to {action}")
    return _advance(state, (state.log, (seat, action)), called, seat)


def _bid_made(state: HandData, seat: int, index: int, auction: Fields) -> Fields:
    """The auction once ``seat`` has bid the bid at ``index``: it is the highest bid so far, and
    ``seat`` its bidder; in the first round, ``seat`` is one of those who bid (a raising round
    asks them); in an auction that reopens, nobody has passed since it."""
    queue, _, _, passed, bidders, made, rnd = auction
    if rnd == 1:
        bidders |= 1 << seat
    if state.game.rules.auction.rounds == "reopening":
        passed = 0  # who has passed since the last bid (NAP-5.1.2)
    return queue, index, seat, passed, bidders, made | 1 << index, rnd


def as_bid(state: H, seat: int, action: Action) -> H:
    """The bid or pass as the table made it, for a hand that broke NAP-5.2.1, NAP-5.2.4,
    NAP-5.2.5, NAP-5.3.3 or NAP-1.3.1: no rule's implementation (each rule is implemented in
    one place, and this function cites none), but the table's call, for replaying irregular
    hands only (a dispute over
    a hand already played, :mod:`napkit.dispute.replay`), never in play, which goes through
    :func:`apply_call`. ``seat`` makes the call whatever the ranking (a bid no higher than
    the last), an earlier bid's need (Wellington though nobody bid Nap), the widow, a stuck
    dealer or the turn say of it (a call out of turn, a second call after passing). A bid is
    then the highest bid so far, however it ranks: the table played it as the contract if
    nobody bid after it. The turn goes on round the table from ``seat``, as the auction's own
    rules go (:func:`_advance`: in a round, the seats still to speak in it, taken round from
    ``seat``; until passes, skipping those who have passed), and the auction ends as they end
    it (:func:`_end`).

    Raises :class:`~napkit.errors.IllegalActionError` where the table's call cannot be
    followed: a bid the game has not got (NAP-5.2.2), a seat not in the hand, an action that
    is not a bid or a pass, or no auction going on.
    """
    if state.phase != AUCTION or state.turn == NOBODY:
        raise IllegalActionError("NAP-5.1.1", "no bid is made now: it is not the auction")
    if not (0 <= seat < len(state.hands) and state.ring[seat] >= 0):
        raise IllegalActionError("NAP-1.3.1", f"seat {seat} is not in this hand")
    queue, high, high_seat, passed, bidders, made, rnd = state.auction
    if state.game.rules.auction.rounds not in ("until-passes", "reopening"):
        # A round: the seat that called first, then the others still to speak in it, round
        # the table from that seat (at its turn, the queue as it was).
        ring, rest = state.ring, []
        nxt = ring[seat]
        while nxt != seat:
            if nxt in queue:
                rest.append(nxt)
            nxt = ring[nxt]
        queue = (seat, *rest)
    if isinstance(action, Bid):
        index = state.game.bid_index.get(action.bid)
        if index is None:  # short: the auction's own refusal (_refuse_bid) names the bids
            raise IllegalActionError("NAP-5.2.2", f"the auction cannot go on with "
                                                  f"{action.bid!r}: this game has no such bid")
        called = _bid_made(state, seat, index,
                           (queue, high, high_seat, passed, bidders, made, rnd))
    elif isinstance(action, Pass):
        called = (queue, high, high_seat, passed | 1 << seat, bidders, made, rnd)
    else:
        raise IllegalActionError(
            "NAP-5.2.1", f"only a bid or a pass is taken as the table made it, not {action}")
    return _advance(state, (state.log, (seat, action)), called, seat)


Fields = tuple[tuple[int, ...], int, int, int, int, int, int]  # an Auction's, in order

# Auction(*fields), as a C-level call; and where a hand keeps what a call changes.
_auction = cast(Callable[[Fields], Auction], partial(tuple.__new__, Auction))
_TURN, _AUCTION, _LOG = (HandData._fields.index(f) for f in ("turn", "auction", "log"))


def _called(state: H, auction: Fields, turn: int, log: Log) -> H:
    """The hand after a call: ``replace(state, auction=..., turn=..., log=...)``, done in place
    on a copy of the fields."""
    fields = list(state)
    fields[_AUCTION] = _auction(auction)
    fields[_TURN] = turn
    fields[_LOG] = log
    return tuple.__new__(type(state), fields)


def _advance(state: H, log: Log, called: Fields, seat: int) -> H:
    """Implements: NAP-5.1.2, NAP-5.4.1.

    A single-round auction ends when the dealer has spoken. With a raising round, the turn
    then goes round once more from the dealer's left among the players the ruleset names
    (those who bid in the first round, or everyone), provided someone bid; each may pass or
    bid higher, and the auction ends after that round. An auction that runs until passes goes
    on round the table, skipping those who have passed, until only the highest bidder has not
    passed (or everyone has passed). An auction that reopens goes round the table, everyone
    speaking, until every player but the highest bidder has passed since the last bid (or,
    nobody bidding, everyone has passed once): ``passed`` holds who has passed since the last
    bid, emptied at each bid; each bid ranks higher than the last, so it ends.

    (``state`` is the state before the call, ``log`` its history after it; ``called`` the
    auction once the call is counted, the queue still starting with the seat that called.)
    """
    queue, high, high_seat, passed, bidders, made, rnd = called
    rules = state.game.rules.auction
    if rules.rounds in ("until-passes", "reopening"):
        if all(passed >> s & 1 or s == high_seat for s in state.order):
            return _end(_called(state, called, seat, log))
        nxt = state.ring[seat]
        # Until passes, one who passed does not speak again; a reopening auction asks
        # everyone in turn (the highest bidder's turn never comes: the others have all
        # passed since their bid, and the auction has ended, or one has bid over it).
        while rules.rounds == "until-passes" and passed >> nxt & 1:
            nxt = state.ring[nxt]
        return _called(state, called, nxt, log)
    queue = queue[1:]
    if not queue and rnd == 1 and high >= 0 and rules.rounds == "single-then-raise":
        queue = tuple(s for s in state.order
                      if rules.raising == "everyone" or bidders >> s & 1)
        rnd = 2
    fields = (queue, high, high_seat, passed, bidders, made, rnd)
    if not queue:
        return _end(_called(state, fields, seat, log))
    return _called(state, fields, queue[0], log)


def _end(state: H) -> H:
    """Implements: NAP-5.3.1, NAP-5.3.2.

    The highest bidder becomes the declarer and their bid the contract. If nobody bid, the
    hand is thrown in: it is over, unplayed and unsettled
    (:func:`napkit.engine.phases.settlement.throw_in`
    makes its result). Either way nobody speaks any more.
    """
    a = state.auction
    if a.high < 0:
        return replace(state, turn=NOBODY)
    return replace(state, declarer=a.high_seat, contract=a.high, turn=NOBODY)
