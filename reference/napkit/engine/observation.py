"""What one player may know of a hand: their own cards, what they saw, and what was public.

A program playing a seat should be handed a :class:`PlayerView`, never the state itself: the
view holds exactly what a player at the table would know (NAP-4.2.1, NAP-4.3.2).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, overload

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
from napkit.engine.state import PHASE_NAMES, HandData, Log, Payment, Trick


@dataclass(frozen=True, slots=True)
class Hidden:
    """An action the viewer saw happen but not the cards of: another player's purchase
    (``count`` cards bought), the declarer's discard, or a deal or reshuffle."""

    kind: str  # "buy", "discard", "deal", "reshuffle"
    count: int

    def __str__(self) -> str:
        return f"{self.kind} ({self.count} cards)" if self.kind == "buy" else self.kind


class PlayerView(NamedTuple):
    """One seat's knowledge of a hand at one moment.

    A view is built at every decision of a computer player, so it is a named tuple (built in
    one step) and its :attr:`history` is a :class:`SeenHistory`, put together only when read.
    """

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
    history: Sequence[tuple[int, Action | Hidden]]  # what the viewer saw, in order
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


class SeenHistory(Sequence[tuple[int, "Action | Hidden"]]):
    """Every action of a hand so far as one seat saw it (NAP-4.3.2): (actor, action), the
    cards of what the seat did not see replaced by :class:`Hidden`.

    It reads the hand's chain of actions the first time it is asked for anything, and keeps
    the result; it compares equal to the tuple of the same steps.

    >>> import random
    >>> from napkit import Game
    >>> from napkit.engine.observation import Hidden
    >>> hand = Game.create("pagat", 4).new_hand(dealer=0)
    >>> hand = hand.apply(hand.sample_chance(random.Random(1)))
    >>> seen = hand.view(1).history
    >>> len(seen), seen[0]
    (1, (-1, Hidden(kind='deal', count=52)))
    >>> seen == ((-1, Hidden("deal", 52)),)
    True
    """

    __slots__ = ("_log", "_seat", "_steps")

    def __init__(self, log: Log, seat: int) -> None:
        self._log = log
        self._seat = seat
        self._steps: tuple[tuple[int, Action | Hidden], ...] | None = None

    def _read(self) -> tuple[tuple[int, Action | Hidden], ...]:
        steps = self._steps
        if steps is None:
            seat, seen = self._seat, []
            node = self._log
            while node:
                node, (actor, action) = node
                seen.append((actor, action if type(action) in _OPEN
                             else _redact(seat, actor, action)))
            seen.reverse()
            steps = self._steps = tuple(seen)
        return steps

    @overload
    def __getitem__(self, index: int) -> tuple[int, Action | Hidden]: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[int, Action | Hidden], ...]: ...
    def __getitem__(
        self, index: int | slice,
    ) -> tuple[int, Action | Hidden] | tuple[tuple[int, Action | Hidden], ...]:
        return self._read()[index]

    def __len__(self) -> int:
        return len(self._read())

    def __iter__(self) -> Iterator[tuple[int, Action | Hidden]]:
        return iter(self._read())

    def __reversed__(self) -> Iterator[tuple[int, Action | Hidden]]:
        return reversed(self._read())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeenHistory):
            other = other._read()
        return isinstance(other, tuple) and self._read() == other

    def __hash__(self) -> int:
        return hash(self._read())

    def __repr__(self) -> str:
        return repr(self._read())


def _widow_seen(state: HandData, seat: int) -> int | None:
    """Implements: NAP-4.3.2.

    The widow is known only to those who looked at it or took it up; a card the declarer
    discarded is known only to the declarer; nobody sees the stock.
    """
    if not state.seen >> seat & 1:
        return None
    # The hand's first deal: the chain of actions runs from the last back to the first, so the
    # last deal met on the way (read so, not as the history tuple, which a view would build).
    deal: Deal | None = None
    node = state.log
    while node:
        node, (_, action) = node
        if isinstance(action, Deal):
            deal = action
    if deal is not None:
        # The widow is the card dealt apart: recover it from the deal as the engine did.
        rules = state.game.rules
        if not rules.widow:
            return None
        if (rules.widow is not None and rules.widow.dealt == "before-hands"):
            return deal.pack[0]
        return deal.pack[5 * len(state.order)]
    return None


# The actions everyone at the table sees as they are (the most of any hand's history), which
# SeenHistory passes on without a call of _redact.
_OPEN = frozenset({Play, Pass, Bid, Peek, NameTrumps, TakeWidow, LeaveWidow})


def _redact(seat: int, actor: int, action: Action) -> Action | Hidden:
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
    (game, phase, turn, dealer, order, _, hands, widow, _, _, _, _, declarer, contract, trumps,
     _, trick, tricks, won, pool, funds, ledger, stakes, log, _, _) = state
    # Built positionally by tuple.__new__, from the hand's fields unpacked in one step (in
    # HandData's order; a field more or less fails here): a computer player asks for a view
    # at every decision.
    return _new(PlayerView, (
        seat, game.id, PHASE_NAMES[phase], turn, dealer, order, cards_of(hands[seat]),
        tuple(map(int.bit_count, hands)),
        _widow_seen(state, seat), widow >= 0,
        SeenHistory(log, seat), declarer,
        game.rules.bids[contract].id if contract >= 0 else None, trumps, trick, tricks, won,
        pool, funds, ledger, stakes, legal if turn == seat else ()))


_new = tuple.__new__
