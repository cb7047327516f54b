"""The state of one hand: an immutable value; applying an action returns a new state.

A :class:`HandState` answers whose turn it is (:attr:`HandState.turn`, :data:`CHANCE` while
chance is to act), :meth:`HandState.legal_actions`, :meth:`HandState.apply`,
:meth:`HandState.is_over` and :attr:`HandState.result`, in the manner of OpenSpiel's states.
The rules themselves live in one module per phase (:mod:`napkit.deal`, :mod:`napkit.purchase`,
:mod:`napkit.auction`, :mod:`napkit.widow`, :mod:`napkit.trumps`, :mod:`napkit.play`,
:mod:`napkit.settlement`); this module holds the data and sends each action to its phase.

States are named tuples: cheap to build, impossible to change, equal when their contents are.
Seats are numbered 0 to ``players - 1`` clockwise; :data:`POOL` stands for the pool in a
payment.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

from napkit.actions import Action, ChanceAction
from napkit.cards import cards_of
from napkit.errors import IllegalActionError, SetupError

if TYPE_CHECKING:
    from napkit.game import BidRule, Game
    from napkit.observation import PlayerView

CHANCE = -1  # the turn while chance is to act
NOBODY = -2  # the turn once the hand is over
POOL = -1  # the pool, as payer or payee of a payment
NO_TRUMPS = 4  # the trumps of a contract played without trumps; -1 while not yet fixed

# Phases, in the order a hand goes through them.
DEAL, PURCHASE, RESHUFFLE, AUCTION, EXCHANGE, DISCARD, NAMING, PLAY, OVER = range(9)
PHASE_NAMES = ("deal", "purchase", "reshuffle", "auction", "exchange", "discard", "naming",
               "play", "over")


# The actions of a hand as a chain: () before the first; after an action, (the chain before
# it, (actor, action)). Extending it is one small tuple, however long the hand has run.
Log = tuple[()] | tuple["Log", tuple[int, Action]]


class Payment(NamedTuple):
    """``amount`` units from ``payer`` to ``payee`` (a seat, or :data:`POOL`), under ``rule``."""

    payer: int
    payee: int
    amount: int
    rule: str


class Trick(NamedTuple):
    """A finished trick: who led, who won, and the cards in the order they were played."""

    leader: int
    winner: int
    cards: tuple[int, ...]


class Auction(NamedTuple):
    """Where the auction stands (NAP-5)."""

    queue: tuple[int, ...]  # seats still to speak in this round, next first
    high: int  # index of the highest bid so far, -1 if none
    high_seat: int
    passed: int  # seat mask: who has passed (in an auction that runs until passes)
    bidders: int  # seat mask: who bid in the first round
    made: int  # bid-index mask: every bid made so far, by anyone
    round: int  # 1, or 2 in a raising round


class Result(NamedTuple):
    """The outcome of a hand."""

    thrown_in: bool
    declarer: int  # -1 when thrown in
    contract: str | None  # the bid id
    tricks: int  # tricks the declarer won
    made: bool | None
    trick_winners: tuple[int, ...]
    payments: tuple[Payment, ...]  # every payment of the hand, looks and purchases included
    pool: int  # what the pool holds after the hand
    net: tuple[int, ...]  # each seat's gain (negative: loss) over the hand


class HandState(NamedTuple):
    """One hand, at one moment. Build with :meth:`napkit.game.Game.new_hand`."""

    game: Game
    phase: int
    turn: int
    dealer: int
    order: tuple[int, ...]  # the seats in the hand, clockwise from the dealer's left
    ring: tuple[int, ...]  # ring[seat]: the next seat clockwise in the hand (-1: not in it)
    hands: tuple[int, ...]  # each seat's cards, as a mask
    widow: int  # the widow card, -1 when there is none or it has been taken up
    stock: tuple[int, ...]  # undealt cards, top first
    discards: tuple[int, ...]  # cards discarded in purchases and the exchange, in order
    seen: int  # seat mask: who has seen the widow
    auction: Auction
    declarer: int
    contract: int  # index of the contract bid, -1 before the auction ends
    trumps: int  # suit, NO_TRUMPS, or -1 while not fixed
    leader: int  # who leads (or led) the current trick
    trick: tuple[int, ...]  # cards played to the current trick, in order
    tricks: tuple[Trick, ...]
    won: int  # tricks the declarer has won
    pool: int
    funds: tuple[int, ...] | None  # each seat's chips, where the match has a fixed stock
    ledger: tuple[Payment, ...]
    stakes: int  # the multiplier of NAP-9.4.1
    log: Log  # every (actor, action) so far, as a chain: see :attr:`history`
    pending: int  # cards a buyer has discarded while waiting for a reshuffle
    result: Result | None

    # --- asking ------------------------------------------------------------------------
    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action of the hand so far, in order, as (actor, action); chance acts as
        :data:`CHANCE`. The state keeps them as a chain (:attr:`log`) that each action
        extends in one step, rather than a tuple it would copy."""
        steps = []
        node = self.log
        while node:
            node, step = node
            steps.append(step)
        steps.reverse()
        return tuple(steps)

    def is_chance(self) -> bool:
        return self.turn == CHANCE

    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def contract_bid(self) -> BidRule | None:
        return self.game.rules.bids[self.contract] if self.contract >= 0 else None

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards a seat holds, in card order."""
        return cards_of(self.hands[seat])

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take; empty at a chance node or when over.

        Chance's actions cannot be listed (a shuffle has too many outcomes): draw one with
        :meth:`sample_chance`, or supply one, as a recorded hand does.
        """
        return _LEGAL[self.phase](self)

    def apply(self, action: Action) -> HandState:
        """The state after ``action``; :class:`IllegalActionError` (with a rule id) if illegal."""
        if self.phase == OVER:
            raise over_error(self)
        return _APPLY[self.phase](self, action)

    def sample_chance(self, rng: random.Random) -> ChanceAction:
        """Draw chance's action at a chance node from ``rng``."""
        if self.phase == DEAL:
            return _sample_deal(self, rng)
        if self.phase == RESHUFFLE:
            return _sample_reshuffle(self, rng)
        raise IllegalActionError("NAP-4.2.2", f"chance does not act in the {self.phase_name}")

    def view(self, seat: int) -> PlayerView:
        """What the player in ``seat`` knows (NAP-4.3.2): see :mod:`napkit.observation`."""
        from napkit.observation import player_view

        return player_view(self, seat)

    def __repr__(self) -> str:
        return (f"<HandState {self.game.id} {self.phase_name} turn={self.turn} "
                f"history={len(self.history)}>")


# Building a state from all its fields at once: ``new_state(fields)`` is
# ``HandState(*fields)`` without the named tuple's Python-level ``__new__``. The hot paths
# copy a state's fields into a list, change the few that an action changes (by the field
# indexes below) and build the next state from it: the states themselves stay immutable.
#
# A state of a phase whose module registers a class of its own (see napkit.play.PlayState)
# is built as that subclass, whose ``legal_actions`` and ``apply`` are the phase's functions
# themselves: the hottest phases skip a dispatch per action. The subclasses add no fields,
# and equality is the tuple's, so a state equals the same fields in the base class.
PHASE_CLASSES: list[type[HandState]] = [HandState] * len(PHASE_NAMES)


def new_state(fields: Sequence[object], /) -> HandState:
    built: HandState = tuple.__new__(PHASE_CLASSES[cast(int, fields[1])], fields)
    return built


def _make(cls: type[HandState], iterable: Iterable[object]) -> HandState:
    """``HandState._make`` (and so ``_replace``): the class the new state's phase has."""
    fields = tuple(iterable)
    if len(fields) != len(HandState._fields):
        raise TypeError(f"a hand state has {len(HandState._fields)} fields, not {len(fields)}")
    return new_state(fields)


setattr(HandState, "_make", classmethod(_make))  # noqa: B010 (NamedTuple forbids it in the body)

(F_GAME, F_PHASE, F_TURN, F_DEALER, F_ORDER, F_RING, F_HANDS, F_WIDOW, F_STOCK, F_DISCARDS,
 F_SEEN, F_AUCTION, F_DECLARER, F_CONTRACT, F_TRUMPS, F_LEADER, F_TRICK, F_TRICKS, F_WON, F_POOL,
 F_FUNDS, F_LEDGER, F_STAKES, F_LOG, F_PENDING, F_RESULT) = range(26)
assert HandState._fields[F_RESULT] == "result" and len(HandState._fields) == 26


def seating(players: int, dealer: int, seats: tuple[int, ...] | None) -> tuple[
        tuple[int, ...], tuple[int, ...]]:
    """Implements: NAP-1.2.1.

    The seats of a hand in clockwise order from the dealer's left, and each seat's left-hand
    neighbour among them: play, dealing and bidding go round in this order.
    """
    taking_part = set(range(players) if seats is None else seats)
    order = tuple(s for s in ((dealer + 1 + k) % players for k in range(players))
                  if s in taking_part)
    ring = [-1] * players
    for i, seat in enumerate(order):
        ring[seat] = order[(i + 1) % len(order)]
    return order, tuple(ring)


def new_hand(game: Game, dealer: int, seats: tuple[int, ...] | None, pool: int,
             funds: tuple[int, ...] | None, stakes: int) -> HandState:
    """A hand waiting for its deal."""
    n = game.players
    key = (n, dealer, seats)
    seated = _SEATINGS.get(key)
    if seated is None:
        if not 0 <= dealer < n:
            raise SetupError("NAP-4.1.1", f"no seat {dealer} at a table of {n}")
        if seats is not None and any(not 0 <= s < n for s in seats):
            raise SetupError("NAP-3.1.1", f"seats must be between 0 and {n - 1}")
        seated = seating(n, dealer, seats)
        if len(seated[0]) < 2:
            raise SetupError("NAP-3.1.1", "a hand needs at least two players")
        if len(_SEATINGS) < 4096:
            _SEATINGS[key] = seated
    order, ring = seated
    if len(order) != n:
        from napkit.game import check_table

        # Fewer players than seats (someone out of the match or sitting out): the pack must
        # still deal them, though the count itself may be below the ruleset's table sizes.
        try:
            check_table(game.rules, len(order), game.id)
        except SetupError as exc:
            if exc.rule != "NAP-3.1.1":
                raise
    if funds is not None and len(funds) != n:
        raise SetupError("NAP-10.1.2", f"funds must give {n} seats")
    return new_state((game, DEAL, CHANCE, dealer, order, ring, (0,) * n, -1, (), (), 0,
                      _NO_AUCTION, -1, -1, -1, -1, (), (), 0, pool, funds, (), stakes, (), 0,
                      None))


# (players, dealer, seats) -> seating(...): tables are few, and seating is asked every hand.
_SEATINGS: dict[tuple[int, int, tuple[int, ...] | None],
                tuple[tuple[int, ...], tuple[int, ...]]] = {}
_NO_AUCTION = Auction((), -1, -1, 0, 0, 0, 1)


def over_error(state: HandState) -> IllegalActionError:
    """The refusal of any action once a hand is over: a thrown-in hand is not played at all
    (NAP-5.3.2); a played hand ends with its fifth trick (NAP-8.3.1)."""
    if state.result is not None and state.result.thrown_in:
        return IllegalActionError("NAP-5.3.2", "the hand was thrown in: nobody bid, so it is "
                                               "not played and no action can be taken")
    return IllegalActionError("NAP-8.3.1", "the hand is over: all five tricks have been played")


def _over_legal(state: HandState) -> tuple[Action, ...]:
    return ()


def _chance_legal(state: HandState) -> tuple[Action, ...]:
    return ()


# What each phase does, by phase: the functions of the phase modules. Those modules import
# this one, so they are bound on first use (by _bind) rather than imported here, which lets
# each of them be imported first, on its own.
def _bind() -> None:
    global _sample_deal, _sample_reshuffle  # noqa: PLW0603
    from napkit import auction, deal, play, purchase, trumps, widow

    _LEGAL[:] = [_chance_legal, purchase.legal_buys, _chance_legal, auction.legal_calls,
                 widow.legal_exchange, widow.legal_discards, trumps.legal_names,
                 play.legal_plays, _over_legal]
    _APPLY[:] = [deal.apply_deal, purchase.apply_buy, purchase.apply_reshuffle,
                 auction.apply_call, widow.apply_exchange, widow.apply_discard,
                 trumps.apply_name, play.apply_play, play.apply_play]
    _sample_deal = deal.sample_deal
    _sample_reshuffle = purchase.sample_reshuffle


def _bind_then_legal(state: HandState) -> tuple[Action, ...]:
    _bind()
    return state.legal_actions()


def _bind_then_apply(state: HandState, action: Action) -> HandState:
    _bind()
    return state.apply(action)


def _bind_then_sample(state: HandState, rng: random.Random) -> ChanceAction:
    _bind()
    return state.sample_chance(rng)


_LEGAL: list[Callable[[HandState], tuple[Action, ...]]] = [_bind_then_legal] * len(PHASE_NAMES)
_APPLY: list[Callable[[HandState, Action], HandState]] = [_bind_then_apply] * len(PHASE_NAMES)
_sample_deal: Callable[[HandState, random.Random], ChanceAction] = _bind_then_sample
_sample_reshuffle: Callable[[HandState, random.Random], ChanceAction] = _bind_then_sample

__all__ = [
    "CHANCE",
    "NOBODY",
    "NO_TRUMPS",
    "POOL",
    "HandState",
    "Payment",
    "Result",
    "Trick",
]
