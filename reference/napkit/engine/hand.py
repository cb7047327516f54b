"""The conductor: the order of a hand's phases, and each action sent to its phase.

A hand goes deal, purchase, auction, exchange, naming of trumps, play, settlement; a ruleset
without purchases (or an exchange, or named trumps) skips that phase. This module alone knows
that order (:func:`phases`, read from the compiled rules) and which function of which phase
module lists the legal actions and applies an action in each phase (:data:`LEGAL`,
:data:`APPLY`). The phase modules (:mod:`~napkit.engine.deal`, :mod:`~napkit.engine.purchase`,
:mod:`~napkit.engine.auction`, :mod:`~napkit.engine.widow`, :mod:`~napkit.engine.trumps`,
:mod:`~napkit.engine.play`, :mod:`~napkit.engine.settlement`) import none of each other's
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
from typing import cast

from napkit.engine import auction, deal, play, purchase, settlement, trumps, widow
from napkit.engine.actions import Action, ChanceAction
from napkit.engine.observation import PlayerView, player_view
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
    PLAY,
    PURCHASE,
    RESHUFFLE,
    HandData,
    Phase,
    seating,
)
from napkit.errors import IllegalActionError, SetupError

__all__ = ["APPLY", "LEGAL", "HandState", "new_hand", "over_error", "phases"]


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

    def __repr__(self) -> str:
        return (f"<HandState {self.game.id} {self.phase_name} turn={self.turn} "
                f"history={len(self.history)}>")


def new_hand(game: GameLike, dealer: int, seats: tuple[int, ...] | None, pool: int,
             funds: tuple[int, ...] | None, stakes: int) -> HandState:
    """A hand waiting for its deal (see :meth:`napkit.engine.game.Game.new_hand`)."""
    n = game.players
    if not 0 <= dealer < n:
        raise SetupError("NAP-4.1.1", f"no seat {dealer} at a table of {n}")
    if seats is not None and any(not 0 <= s < n for s in seats):
        raise SetupError("NAP-3.1.1", f"seats must be between 0 and {n - 1}")
    order, ring = seating(n, dealer, seats)
    if len(order) < 2:
        raise SetupError("NAP-3.1.1", "a hand needs at least two players")
    if len(order) != n:
        # Fewer players than seats (someone out of the match or sitting out): the pack must
        # still deal them, though the count itself may be below the ruleset's table sizes.
        try:
            check_table(game.rules, len(order), game.id)
        except SetupError as exc:
            if exc.rule != "NAP-3.1.1":
                raise
    if funds is not None and len(funds) != n:
        raise SetupError("NAP-10.1.2", f"funds must give {n} seats")
    return HandState(game, DEAL, CHANCE, dealer, order, ring, (0,) * n, -1, (), (), 0,
                     NO_AUCTION, -1, -1, -1, -1, (), (), 0, pool, funds, (), stakes, (), 0,
                     None)


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


def _next(state: HandData) -> HandState:
    """The hand once the phase that has just finished gives way to the next one (which may
    itself have nothing to ask of this hand, and give way in turn)."""
    rules = state.game.rules
    order = phases(rules)
    # RESHUFFLE and DISCARD are moments of the purchase and the exchange.
    current = {RESHUFFLE: PURCHASE, DISCARD: EXCHANGE}.get(state.phase, state.phase)
    while True:
        if current == DEAL:
            state = widow.dealer_look(state)
        elif current == AUCTION and state.contract < 0:
            return cast(HandState, settlement.throw_in(state))
        elif current == PLAY:
            return cast(HandState, settlement.settle(state))
        current = order[order.index(current) + 1]
        start = START[current]
        assert start is not None, f"the {current.name.lower()} cannot be started"
        state = start(state)
        if state.turn != NOBODY:
            return cast(HandState, state)


# --- sending each action to its phase ---------------------------------------------------

def over_error(state: HandData) -> IllegalActionError:
    """The refusal of any action once a hand is over: a thrown-in hand is not played at all
    (NAP-5.3.2); a played hand ends with its fifth trick (NAP-8.3.1)."""
    if state.result is not None and state.result.thrown_in:
        return IllegalActionError("NAP-5.3.2", "the hand was thrown in: nobody bid, so it is "
                                               "not played and no action can be taken")
    return IllegalActionError("NAP-8.3.1", "the hand is over: all five tricks have been played")


def _refuse_over(state: HandState, action: Action) -> HandState:
    raise over_error(state)


def _nothing(state: HandState) -> tuple[Action, ...]:
    return ()


# The tables are lists of the phase modules' own functions, indexed by phase, so that the
# conformance mutants (conformance/mutants/patching.py) can replace a phase function here as
# they do in its module. The phase functions take and return HandData; the hands they are
# given and build are of the caller's class, HandState (napkit.engine.state.rebuild).

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
START: list[Callable[[HandData], HandData] | None] = [
    None, purchase.start, None, auction.start, widow.start_exchange, None, trumps.start,
    play.start, None]

assert len(LEGAL) == len(APPLY) == len(START) == len(Phase)
