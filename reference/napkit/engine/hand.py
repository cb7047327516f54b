"""The conductor: the order of a hand's phases, and each action sent to its phase.

A hand goes deal, purchase, auction, exchange, trumps, play, settlement; a ruleset without
purchases (or without an exchange) skips that phase, and trumps are named only where the
contract says so (elsewhere the phase only settles them). This module alone knows
that order (:func:`phases`, read from the compiled rules) and which function of which phase
module lists the legal actions and applies an action in each phase (:data:`LEGAL`,
:data:`APPLY`). The phase modules (:mod:`~napkit.engine.phases.deal`,
:mod:`~napkit.engine.phases.purchase`,
:mod:`~napkit.engine.phases.auction`, :mod:`~napkit.engine.phases.widow`,
:mod:`~napkit.engine.phases.trumps`,
:mod:`~napkit.engine.phases.play`, :mod:`~napkit.engine.phases.settlement`) import none of each
other's
starts: a phase's ``apply`` returns the state after the action, with the turn :data:`NOBODY`
once the phase has nothing more to ask, and a phase's ``start`` does the same when the phase
has nothing to ask of this hand (a contract without the exchange, trumps not named). The
conductor then starts the next phase.

:class:`HandState` is a hand's data (:class:`~napkit.engine.state.HandData`) with the verbs a
caller uses, in the manner of OpenSpiel's states: :attr:`~HandData.turn` (:data:`CHANCE` while
chance is to act), :meth:`HandState.legal_actions`, :meth:`HandState.apply`,
:meth:`HandState.is_legal`, :meth:`HandState.sample_chance`, :meth:`~HandData.is_over` and
:attr:`~HandData.result`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from napkit.engine import acting
from napkit.engine.actions import Action, ChanceAction
from napkit.engine.observation import PlayerView, player_view
from napkit.engine.phases import auction, deal, play, purchase, settlement, trumps, widow
from napkit.engine.rules import GameLike, Rules, check_table
from napkit.engine.state import (
    AUCTION,
    CHANCE,
    DEAL,
    DISCARD,
    EXCHANGE,
    NAMING,
    NO_AUCTION,
    NOBODY,
    OVER,
    PLAY,
    PURCHASE,
    RESHUFFLE,
    HandData,
    Phase,
    seating,
)
from napkit.errors import IllegalActionError, SetupError

__all__ = ["APPLY", "LEGAL", "HandState", "as_bid", "as_played", "new_hand", "over_error",
           "phases"]


class HandState(HandData):
    """One hand, at one moment: build one with :meth:`napkit.engine.game.Game.new_hand`.

    >>> import random
    >>> from napkit import Game, parse_action
    >>> hand = Game.create("pagat", 4).new_hand(dealer=0)
    >>> hand.phase_name, hand.is_chance()
    ('deal', True)
    >>> hand = hand.apply(hand.sample_chance(random.Random(1)))
    >>> hand.phase_name, hand.turn, [str(a) for a in hand.legal_actions()]
    ('auction', 1, ['pass', 'bid three', 'bid four', 'bid nap'])
    >>> hand.is_legal(parse_action("bid nap"))
    True
    >>> hand = hand.apply(parse_action("bid four"))
    >>> hand.turn, hand.is_legal(parse_action("bid three"))
    (2, False)
    >>> hand.refusal(parse_action("bid three"))
    IllegalActionError('NAP-5.2.1', 'Three does not rank above the highest bid so far, Four')
    >>> hand.apply(parse_action("bid wellington"))
    Traceback (most recent call last):
    ...
    napkit.errors.IllegalActionError: NAP-5.2.5: Wellington may be bid only after Nap
    """

    __slots__ = ()

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take; empty at a chance node or when over.

        Chance's actions cannot be listed (a shuffle has too many outcomes): draw one with
        :meth:`sample_chance`, or supply one, as a recorded hand does.
        """
        return LEGAL[self.phase](self)

    def apply(self, action: Action) -> HandState:
        """The state after ``action``; :class:`~napkit.errors.IllegalActionError`, with the
        id of the rule it breaks, if it is not allowed."""
        after = APPLY[self.phase](self, action)
        # A phase that has nothing more to ask hands over to the next (the conductor's job).
        return after if after.turn != NOBODY else _next(after)

    def refusal(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` is not allowed now (the error :meth:`apply` would raise, with its
        rule id), or None if it is."""
        try:
            self.apply(action)
        except IllegalActionError as exc:
            return exc
        return None

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be taken now: :meth:`apply` would accept it."""
        return self.refusal(action) is None

    def sample_chance(self, rng: random.Random) -> ChanceAction:
        """Draw chance's action at a chance node from ``rng``."""
        if self.phase == DEAL:
            return deal.sample_deal(self, rng)
        if self.phase == RESHUFFLE:
            return purchase.sample_reshuffle(self, rng)
        raise IllegalActionError("NAP-4.2.2", f"chance does not act in the {self.phase_name}")

    def view(self, seat: int) -> PlayerView:
        """What the player in ``seat`` knows (NAP-4.3.2): see :mod:`napkit.engine.observation`."""
        return player_view(self, seat, self.legal_actions() if self.turn == seat else ())

    @classmethod
    def class_for(cls, phase: Phase) -> type[HandData]:
        """:class:`_Bidding` in the auction, :class:`_Playing` in the play, else HandState."""
        return _CLASSES.get(phase, HandState)

    def __repr__(self) -> str:
        return (f"<HandState {self.game.id} {self.phase_name} turn={self.turn} "
                f"history={len(self.history)}>")


def new_hand(game: GameLike, dealer: int, seats: tuple[int, ...] | None, pool: int,
             funds: tuple[int, ...] | None, stakes: int) -> HandState:
    """A hand waiting for its deal (see :meth:`napkit.engine.game.Game.new_hand`)."""
    n = game.players
    key = ("seating", dealer, seats)
    seated: tuple[tuple[int, ...], tuple[int, ...]] | None = game.memo.get(key)
    if seated is None:  # a table has few seatings, and every hand asks
        seated = game.memo[key] = _seating(game, dealer, seats)
    order, ring = seated
    if funds is not None and len(funds) != n:
        raise SetupError("NAP-10.1.2", f"funds must give {n} seats")
    # Built by name: once a hand, so a reader need not count 26 fields (only the play of a card
    # and a call in the auction, at every action, build a state positionally).
    return HandState(
        game=game, phase=DEAL, turn=CHANCE, dealer=dealer, order=order, ring=ring,
        hands=(0,) * n, widow=-1, stock=(), discards=(), seen=0, auction=NO_AUCTION,
        declarer=-1, contract=-1, trumps=-1, leader=-1, trick=(), tricks=(), won=0, pool=pool,
        funds=funds, ledger=(), stakes=stakes, log=(), pending=0, result=None)


#: How many seatings _seating keeps for every game: emptied when full.
SEATINGS_KEPT = 4096

# The seating of a table, by (players, dealer, seats), shared by every game: a fuzzer plays a
# new game nearly every episode, and each game's memo (new_hand's) starts empty. A pure
# function of its key, filled once: threads may fill it at once.
_SEATINGS: dict[tuple[int, int, tuple[int, ...] | None],
                tuple[tuple[int, ...], tuple[int, ...]]] = {}


def forget() -> None:
    """Forget the seatings kept (see :func:`napkit.engine.game.clear_memos`)."""
    _SEATINGS.clear()


def _seating(game: GameLike, dealer: int, seats: tuple[int, ...] | None) -> tuple[
        tuple[int, ...], tuple[int, ...]]:
    n = game.players
    key = (n, dealer, seats)
    seated = _SEATINGS.get(key)
    if seated is None:  # else these checks passed for this very key
        if not 0 <= dealer < n:
            raise SetupError("NAP-4.1.1", f"no seat {dealer} at a table of {n}")
        if seats is not None and any(not 0 <= s < n for s in seats):
            raise SetupError("NAP-3.1.1", f"seats must be between 0 and {n - 1}")
        seated = seating(n, dealer, seats)
        if len(seated[0]) < 2:
            raise SetupError("NAP-3.1.1", "a hand needs at least two players")
        if len(_SEATINGS) >= SEATINGS_KEPT:
            _SEATINGS.clear()
        _SEATINGS[key] = seated
    if len(seated[0]) != n:
        # Fewer players than seats (someone out of the match or sitting out): the pack must
        # still deal them, though the count itself may be below the ruleset's table sizes.
        try:
            check_table(game.rules, len(seated[0]), game.id)
        except SetupError as exc:
            if exc.rule != "NAP-3.1.1":
                raise
    return seated


# --- the order of the phases ------------------------------------------------------------

def phases(rules: Rules) -> tuple[Phase, ...]:
    """The phases a hand of these rules may go through, in order (those a ruleset lacks left
    out): the deal, purchases (NAP-6.2), the auction (NAP-5), the exchange (NAP-6.3), trumps
    (named by the declarer where the contract says so, NAP-7.1), the play (NAP-8). A hand ends
    after the play, or after the auction if it is thrown in (NAP-5.3.2)."""
    order = [DEAL]
    if rules.purchase is not None:
        order.append(PURCHASE)
    order.append(AUCTION)
    if rules.exchange is not None and rules.widow is not None:
        order.append(EXCHANGE)
    order += [NAMING, PLAY]
    return tuple(order)


def _following(rules: Rules) -> tuple[Phase, ...]:
    """For each phase, the one after it in :func:`phases` (RESHUFFLE and DISCARD, moments of
    the purchase and the exchange, are followed by what follows those; the last by OVER)."""
    order = phases(rules)
    after = {phase: order[i + 1] if i + 1 < len(order) else OVER
             for i, phase in enumerate(order)}
    after[RESHUFFLE] = after.get(PURCHASE, OVER)
    after[DISCARD] = after.get(EXCHANGE, OVER)
    return tuple(after.get(phase, OVER) for phase in Phase)


def _next(state: HandState) -> HandState:
    """The hand once the phase that has just finished gives way to the next one (which may
    itself have nothing to ask of this hand, and give way in turn)."""
    memo = state.game.memo
    following = memo.get("following")
    if following is None:  # the order is the game's, asked at every change of phase
        following = memo["following"] = _following(state.game.rules)
    phase = state.phase
    while True:
        if phase == DEAL:
            state = widow.dealer_look(state)
        elif phase == AUCTION and state.contract < 0:
            return settlement.throw_in(state)
        elif phase == PLAY:
            return settlement.settle(state)
        phase = following[phase]
        start = START[phase]
        assert start is not None, f"the {phase.name.lower()} cannot be started"
        state = start(state)
        if state.turn != NOBODY:
            return state


def as_played(state: HandState, seat: int, card: int) -> HandState:
    """``seat``'s ``card`` as the table played it, whatever the rules of play say of it, and
    the hand settled after the fifth trick: for replaying irregular hands only
    (:func:`napkit.engine.phases.play.as_played`)."""
    after = play.as_played(state, seat, card)
    return after if after.turn != NOBODY else _next(after)


def as_bid(state: HandState, seat: int, action: Action) -> HandState:
    """``seat``'s bid or pass as the table made it, whatever the rules of the auction say of
    it, and the next phase started as usual when the auction ends: for replaying irregular
    hands only (:func:`napkit.engine.phases.auction.as_bid`)."""
    after = auction.as_bid(state, seat, action)
    return after if after.turn != NOBODY else _next(after)


# --- sending each action to its phase ---------------------------------------------------

def over_error(state: HandData) -> IllegalActionError:
    """The refusal of any action once a hand is over (NAP-1.3.3), saying how it ended."""
    return acting.over_error(thrown_in=state.result is not None and state.result.thrown_in)


class _Bidding(HandState):
    """A hand in the auction. The two phases where a hand spends most of its actions have a
    class of their own, so that a call or a card costs no dispatch by phase: its
    ``legal_actions`` is the phase's own function, its ``apply`` the phase's followed by the
    conductor's check. A hand takes this class when its phase becomes the auction
    (:meth:`HandState.class_for`, which :func:`napkit.engine.state.replace` asks); a phase
    builds the next hand of the class it was given. The classes add no fields: a hand equals
    the same fields in any of them. (benchmarks/engine_throughput.py measures what they
    save.)"""

    __slots__ = ()

    legal_actions = auction.legal_calls

    def apply(self, action: Action) -> HandState:
        after = auction.apply_call(self, action)
        return after if after.turn != NOBODY else _next(after)

    def is_over(self) -> bool:
        return False


class _Playing(HandState):
    """A hand in the play of the tricks (see :class:`_Bidding`)."""

    __slots__ = ()

    legal_actions = play.legal_plays

    def apply(self, action: Action) -> HandState:
        after = play.apply_play(self, action)
        return after if after[2] != NOBODY else _next(after)  # [2]: the turn, read fastest

    def is_over(self) -> bool:
        return False


_CLASSES: dict[Phase, type[HandState]] = {AUCTION: _Bidding, PLAY: _Playing}


def _refuse_over(state: HandState, action: Action) -> HandState:
    raise over_error(state)


def _nothing(state: HandState) -> tuple[Action, ...]:
    return ()


# The tables are lists of the phase modules' own functions, indexed by phase, so that the
# conformance mutants (conformance/mutants/patching.py) can replace a phase function here as
# they do in its module. The phase functions take and return HandData; the hands they are
# given and build are of the caller's class, HandState (napkit.engine.state.replace).

#: By phase: the function that lists the legal actions of a hand in that phase.
LEGAL: list[Callable[[HandState], tuple[Action, ...]]] = [
    _nothing, purchase.legal_buys, _nothing, auction.legal_calls, widow.legal_exchange,
    widow.legal_discards, trumps.legal_names, play.legal_plays, _nothing]

#: By phase: the function that applies an action to a hand in that phase.
APPLY: list[Callable[[HandState, Action], HandState]] = [
    deal.apply_deal, purchase.apply_buy, purchase.apply_reshuffle, auction.apply_call,
    widow.apply_exchange, widow.apply_discard, trumps.apply_name, play.apply_play,
    _refuse_over]

#: By phase: the function that starts a phase (None: entered only from within another).
START: list[Callable[[HandState], HandState] | None] = [
    None, purchase.start, None, auction.start, widow.start_exchange, None, trumps.start,
    play.start, None]

assert len(LEGAL) == len(APPLY) == len(START) == len(Phase)
