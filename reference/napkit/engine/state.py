"""The state of one hand: its data, and questions about it that need no rules.

A hand moves through phases (:class:`Phase`), from the deal to the end; at each moment it is
one :class:`HandData`: who deals, who holds what, where the auction stands, the tricks so far,
what has been paid, every action so far. It is a named tuple: cheap to build, impossible to
change, equal when the contents are. What may be done next, and what an action does, is the
business of the phase modules and of the conductor, :mod:`napkit.engine.hand`, whose
:class:`~napkit.engine.hand.HandState` is this data with those verbs.

Seats are numbered 0 to ``players - 1`` clockwise; :data:`POOL` stands for the pool in a
payment.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple, TypeVar

from napkit.engine.actions import Action
from napkit.engine.cards import cards_of
from napkit.engine.rules import BidRule, GameLike

CHANCE = -1  # the turn while chance is to act
NOBODY = -2  # the turn once the hand is over, or once a phase has nothing more to ask
POOL = -1  # the pool, as payer or payee of a payment
NO_TRUMPS = 4  # the trumps of a contract played without trumps; -1 while not yet fixed


class Phase(IntEnum):
    """The phases of a hand, in the order a hand goes through those its ruleset has.

    ``RESHUFFLE`` is the purchase waiting on chance (the stock ran out, NAP-6.2.2), and
    ``DISCARD`` the exchange waiting on the declarer's discard (NAP-6.3.1).
    """

    DEAL = 0
    PURCHASE = 1
    RESHUFFLE = 2
    AUCTION = 3
    EXCHANGE = 4
    DISCARD = 5
    NAMING = 6
    PLAY = 7
    OVER = 8


DEAL, PURCHASE, RESHUFFLE, AUCTION, EXCHANGE, DISCARD, NAMING, PLAY, OVER = Phase
PHASE_NAMES = tuple(p.name.lower() for p in Phase)


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
    passed: int  # seat mask: who has passed (in a reopening auction: since the last bid)
    bidders: int  # seat mask: who bid in the first round
    made: int  # bid-index mask: every bid made so far, by anyone
    round: int  # 1, or 2 in a raising round


NO_AUCTION = Auction((), -1, -1, 0, 0, 0, 1)


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
    # Each seat's points this hand, on a score sheet in points (NAP-9.6); None: chips.
    score: tuple[int, ...] | None = None


class HandData(NamedTuple):
    """One hand at one moment, as data (the fields of :class:`~napkit.engine.hand.HandState`)."""

    game: GameLike
    phase: Phase
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

    @classmethod
    def class_for(cls, phase: Phase) -> type[HandData]:
        """The class a hand of this family has in ``phase``: this one. (The conductor's
        :class:`~napkit.engine.hand.HandState` gives its busiest phases classes of their own;
        :func:`replace` asks this whenever the phase changes.)"""
        return cls



#: A hand of any class built on :class:`HandData`: a phase returns a hand of the class it was
#: given (:class:`~napkit.engine.hand.HandState` in play), which it never needs to import.
H = TypeVar("H", bound=HandData)


def replace(state: H, /, **changes: Any) -> H:
    """A hand like ``state`` but for the fields named, of ``state``'s class: what the named
    tuple's own ``state._replace(**changes)`` gives, in half the time (benchmarks/README.md),
    which matters at a few calls an action; where the phase changes, of the class the family
    gives that phase (:meth:`HandData.class_for`). A name that is no field is a
    :class:`KeyError`."""
    fields = list(state)
    for name, value in changes.items():
        fields[_INDEX[name]] = value
    cls: Any = type(state)
    if "phase" in changes:
        cls = cls.class_for(changes["phase"])
    built: H = tuple.__new__(cls, fields)
    return built


_INDEX: dict[str, int] = {name: i for i, name in enumerate(HandData._fields)}


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
