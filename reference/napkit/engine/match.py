"""The match: hand after hand, with the deal passing left, the pack made ready between hands,
antes, the pool carried over, raised stakes, chips and knock-outs, and the match's end (NAP-10).

A :class:`MatchState` is immutable like a hand's state and is driven the same way:
``turn``, ``legal_actions()``, ``apply(action)``, ``sample_chance(rng)``, ``is_over()``. While
a hand is being played it forwards to the hand (:attr:`MatchState.hand`); between hands,
chance chooses the first dealer and shuffles or cuts the pack, and, where the ruleset lets
players sit out, each player antes or sits out.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from napkit.engine.acting import over_error
from napkit.engine.actions import (
    ANTE,
    SIT_OUT,
    Action,
    Ante,
    ChanceAction,
    ChooseDealer,
    Cut,
    Deal,
    Shuffle,
    SitOut,
)
from napkit.engine.cards import cards_of, check_pack
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.state import CHANCE, NOBODY, Payment, Result
from napkit.errors import IllegalActionError, SetupError

FIRST_DEALER, PREPARE, ANTES, HAND, FINISHED = range(5)
MATCH_PHASES = ("first-dealer", "prepare", "ante", "hand", "over")


class MatchResult(NamedTuple):
    """How a match ended: final balances, what was left in the pool, and the winners."""

    balances: tuple[int, ...]
    pool: int  # left unclaimed
    winners: tuple[int, ...]
    hands: int
    scores: tuple[int, ...] | None = None  # the score sheet's totals (NAP-10.4.4); None: chips


class MatchState(NamedTuple):
    """A match at one moment. Build with :func:`new_match`; like a hand, it answers ``turn``,
    ``legal_actions``, ``apply`` and ``sample_chance``, and holds the hand in play.

    >>> import random
    >>> from napkit import Game, new_match
    >>> match = new_match(Game.create("peep", 4), hands=2)
    >>> match.phase_name, match.is_chance(), match.balances
    ('first-dealer', True, (20, 20, 20, 20))
    >>> rng = random.Random(3)
    >>> while not match.is_over():
    ...     match = match.apply(match.sample_chance(rng) if match.is_chance()
    ...                         else rng.choice(match.legal_actions()))
    >>> match.played, sum(match.balances) + match.pool
    (2, 80)
    """

    game: Game
    hand_limit: int | None  # the agreed number of hands, if any
    phase: int
    balances: tuple[int, ...]  # chips held (fixed stock) or running totals from 0
    out: int  # seat mask: knocked out
    pool: int
    dealer: int
    played: int  # hands dealt so far, thrown-in ones included
    streak: int  # consecutive throw-ins just before the next hand
    pack: tuple[int, ...]  # the pack as gathered after the last hand (empty before the first)
    shuffle_next: bool  # whether the next pack is shuffled (else gathered and cut)
    ante_paid: bool  # whether the coming hand's ante has been taken
    taking_part: int  # seat mask: who antes into the coming hand
    queue: tuple[int, ...]  # seats still to ante or sit out
    hand: HandState | None
    hands: tuple[HandState, ...]  # every finished hand, in order
    history: tuple[tuple[int, Action], ...]  # match-level actions: chance's and antes
    ledger: tuple[Payment, ...]  # antes and the pool's share-out at the end
    result: MatchResult | None
    chips: int | None = None  # the starting stock, where the ruleset plays from one
    hand_starts: tuple[int, ...] = ()  # len(history) when each hand was dealt
    scores: tuple[int, ...] | None = None  # the score sheet's running totals; None: chips

    @property
    def turn(self) -> int:
        if self.phase == HAND and self.hand is not None:
            return self.hand.turn
        if self.phase == ANTES:
            return self.queue[0]
        return NOBODY if self.phase == FINISHED else CHANCE

    def is_chance(self) -> bool:
        return self.turn == CHANCE

    def is_over(self) -> bool:
        return self.phase == FINISHED

    @property
    def phase_name(self) -> str:
        return MATCH_PHASES[self.phase]

    def legal_actions(self) -> tuple[Action, ...]:
        if self.phase == HAND and self.hand is not None:
            return self.hand.legal_actions()
        if self.phase == ANTES:
            return (ANTE, SIT_OUT) if _may_sit_out(self) else (ANTE,)
        return ()

    def apply(self, action: Action) -> MatchState:
        """The match after ``action``; :class:`IllegalActionError` if it is not allowed."""
        if self.phase == HAND and self.hand is not None:
            hand = self.hand.apply(action)
            if hand.is_over():
                return _after_hand(self, hand)
            # self._replace(hand=hand), built in one step: a match asks it at every action
            # of its hands.
            return tuple.__new__(type(self), (*self[:_HAND_FIELD], hand, *self[_HAND_FIELD + 1:]))
        if self.phase == FIRST_DEALER:
            return _choose_dealer(self, action)
        if self.phase == PREPARE:
            return _prepare(self, action)
        if self.phase == ANTES:
            return _ante(self, action)
        raise over_error(match=True)

    def sample_chance(self, rng: random.Random) -> ChanceAction:
        if self.phase == HAND and self.hand is not None:
            return self.hand.sample_chance(rng)
        if self.phase == FIRST_DEALER:
            return ChooseDealer(rng.randrange(self.game.players))
        if self.phase == PREPARE:
            if self.shuffle_next:
                pack = list(cards_of(self.game.pack(_players_in(self))))
                rng.shuffle(pack)
                return Shuffle(tuple(pack))
            return Cut(rng.randint(1, len(self.pack) - 1))
        raise IllegalActionError("NAP-10.2.1", f"chance does not act in the {self.phase_name}")

    def __repr__(self) -> str:
        return f"<MatchState {self.game.id} {self.phase_name} hands={self.played}>"


_HAND_FIELD = MatchState._fields.index("hand")


def new_match(game: Game, hands: int | None = None, chips: int | None = None) -> MatchState:
    """Implements: NAP-10.1.2.

    A match about to begin: chance will choose the first dealer. ``hands`` is the agreed number
    of hands (None: until stopped, or until one player has chips where the ruleset says so);
    ``chips`` the starting stock where the ruleset plays from one (its own figure by default).
    Every player starts with the same stock.

    >>> from napkit import Game, new_match
    >>> new_match(Game.create("peep", 3), hands=5, chips=8).balances
    (8, 8, 8)
    """
    rules = game.rules
    if hands is not None and hands < 1:
        raise SetupError("NAP-10.4.1", "a match must have at least one hand")
    start = 0
    if rules.match.bankroll is not None:
        start = rules.match.bankroll if chips is None else chips
        if start < 1:
            raise SetupError("NAP-10.1.2", "every player must start with at least one chip")
    return MatchState(
        game=game, hand_limit=hands, phase=FIRST_DEALER, balances=(start,) * game.players,
        out=0, pool=0, dealer=-1, played=0, streak=0, pack=(), shuffle_next=True,
        ante_paid=False, taking_part=0, queue=(), hand=None, hands=(), history=(), ledger=(),
        result=None, chips=start if rules.match.bankroll is not None else None,
        scores=None if rules.scoring is None else (0,) * game.players)


def _limited(game: Game) -> bool:
    """Whether players pay only what they have (a fixed stock and no debts, NAP-9.5.1)."""
    match = game.rules.match
    return match.bankroll is not None and match.short_payment == "pay-what-you-have"


def _players_in(match: MatchState) -> int:
    return sum(1 for s in range(match.game.players) if not match.out >> s & 1)


def _seats_in(match: MatchState, after: int) -> list[int]:
    """The seats still in the match, clockwise from ``after``'s left."""
    n = match.game.players
    return [s for s in ((after + 1 + k) % n for k in range(n)) if not match.out >> s & 1]


def _choose_dealer(match: MatchState, action: Action) -> MatchState:
    """Implements: NAP-4.1.1.

    The first dealer is found by chance (drawn, or by cutting): a :class:`ChooseDealer`.
    """
    if not isinstance(action, ChooseDealer):
        raise IllegalActionError("NAP-4.1.1", f"the first dealer must be chosen, not {action}")
    if not (isinstance(action.seat, int) and 0 <= action.seat < match.game.players):
        raise IllegalActionError("NAP-4.1.1", f"no seat {action.seat!r} at this table")
    return match._replace(phase=PREPARE, dealer=action.seat,
                          history=match.history + ((CHANCE, action),))


def _prepare(match: MatchState, action: Action) -> MatchState:
    """Implements: NAP-10.2.1, NAP-10.2.2.

    Before each deal the pack is made ready: shuffled (always before the first deal), or, as
    the ruleset says, gathered and cut, the cut lifting at least one card and not all of them
    and putting the rest on top.
    """
    history = match.history + ((CHANCE, action),)
    if match.shuffle_next:
        if not isinstance(action, Shuffle):
            raise IllegalActionError("NAP-10.2.1", f"the pack must be shuffled, not {action}")
        check_pack(action.pack, match.game.pack(_players_in(match)), "NAP-2.2.1")
        pack = action.pack
    else:
        if not isinstance(action, Cut):
            raise IllegalActionError("NAP-10.2.2", f"the pack must be cut, not {action}")
        at = action.at
        if not (isinstance(at, int) and 1 <= at < len(match.pack)):
            raise IllegalActionError(
                "NAP-10.2.2", f"a cut lifts between 1 and {len(match.pack) - 1} cards, not {at!r}")
        pack = match.pack[at:] + match.pack[:at]
    return _antes(match._replace(pack=pack, history=history))


def _ante_due(match: MatchState) -> bool:
    rules = match.game.rules
    return rules.ante.amount > 0 and (match.streak == 0 or rules.ante.on_redeal)


def _antes(match: MatchState) -> MatchState:
    """Ante decisions where players may sit out; otherwise every player's ante, then the deal."""
    rules = match.game.rules
    everyone = _seats_in(match, match.dealer)
    if _ante_due(match) and rules.ante.sit_out:
        return match._replace(phase=ANTES, queue=tuple(everyone), taking_part=0)
    if _ante_due(match):
        return _deal(_pay_antes(match, everyone), everyone)
    # A redeal without a fresh ante is dealt to those who took part in the thrown-in hand and
    # are still in the match; if fewer than two of them are (a look bought with one's last
    # chips puts a player out), to everyone still in (NAP-10.3.1).
    seats = [s for s in everyone if match.taking_part >> s & 1]
    if len(seats) < 2:
        seats = everyone
    return _deal(match, seats)


def _may_sit_out(match: MatchState) -> bool:
    # At least two must take part: the last to decide may not leave fewer (a napkit decision,
    # NAP-10.3.1).
    return match.taking_part.bit_count() + len(match.queue) - 1 >= 2


def _ante(match: MatchState, action: Action) -> MatchState:
    seat = match.queue[0]
    if isinstance(action, SitOut):
        if not _may_sit_out(match):
            raise IllegalActionError(
                "NAP-10.3.1", f"seat {seat} may not sit out: a hand needs two players")
        taking = match.taking_part
    elif isinstance(action, Ante):
        taking = match.taking_part | 1 << seat
    else:
        raise IllegalActionError("NAP-10.3.1", f"seat {seat} is to ante or sit out, not {action}")
    match = match._replace(queue=match.queue[1:], taking_part=taking,
                           history=match.history + ((seat, action),))
    if match.queue:
        return match
    seats = [s for s in _seats_in(match, match.dealer) if taking >> s & 1]
    return _deal(_pay_antes(match, seats), seats)


def _pay_antes(match: MatchState, seats: list[int]) -> MatchState:
    """Implements: NAP-10.3.1.

    Every player taking part pays the ante into the pool before the deal (one who has chips
    but fewer than the ante pays what they have). A deal after a throw-in takes a fresh ante
    only where the ruleset says so; where players may sit out, one who does not ante is dealt
    no cards.
    """
    amount = match.game.rules.ante.amount
    balances = list(match.balances)
    ledger = list(match.ledger)
    pool = match.pool
    limited = _limited(match.game)
    for seat in seats:
        paid = min(amount, balances[seat]) if limited else amount
        if paid > 0:
            balances[seat] -= paid
            pool += paid
            ledger.append(Payment(seat, -1, paid, "NAP-10.3.1"))
    mask = sum(1 << s for s in seats)
    return match._replace(balances=tuple(balances), pool=pool, ledger=tuple(ledger),
                          taking_part=mask, ante_paid=True)


def stakes(match: MatchState) -> int:
    """Implements: NAP-9.4.1.

    The multiplier of the next hand's amounts won and lost: 1; or, after throw-ins, 2 (never
    more than doubled) or 2 for each consecutive throw-in (cumulative), as the ruleset says.
    """
    how = match.game.rules.throw_in_stakes
    if how == "unchanged" or match.streak == 0:
        return 1
    return 2 if how == "double-next" else 2 ** match.streak


def _deal(match: MatchState, seats: list[int]) -> MatchState:
    game = match.game
    funds = match.balances if _limited(game) else None
    hand = game.new_hand(match.dealer, seats=tuple(seats), pool=match.pool, funds=funds,
                         stakes=stakes(match))
    hand = hand.apply(Deal(match.pack))
    return match._replace(phase=HAND, hand=hand, queue=(),
                          hand_starts=match.hand_starts + (len(match.history),))


def gathered(hand: HandState) -> tuple[int, ...]:
    """The pack gathered after a hand, in the fixed order of NAP-10.2.2: the tricks as played,
    the cards still held (seat order from the dealer's left), the widow and the discards, the
    stock."""
    pack: list[int] = []
    for trick in hand.tricks:
        pack.extend(trick.cards)
    pack.extend(hand.trick)
    for seat in hand.order:
        pack.extend(cards_of(hand.hands[seat]))
    if hand.widow >= 0:
        pack.append(hand.widow)
    pack.extend(hand.discards)
    pack.extend(hand.stock)
    return tuple(pack)


def _after_hand(match: MatchState, hand: HandState) -> MatchState:
    """Implements: NAP-4.1.2, NAP-9.3.1, NAP-10.2.3, NAP-10.4.2.

    Take the settled hand into the match: balances, the hand's points added to the score
    sheet's totals where the ruleset keeps one (NAP-10.4.4), and the pool, which is carried into the
    next hand whatever it holds; players left without chips are
    out; the deal passes to the left among those still in; and the next pack is shuffled
    after a throw-in or a made contract the ruleset lists, where it says so, else gathered
    and cut as usual.
    """
    result = hand.result
    assert result is not None
    game = match.game
    rules = game.rules
    if hand.funds is not None:
        balances = hand.funds
    else:
        balances = tuple(b + d for b, d in zip(match.balances, result.net, strict=True))
    out = match.out
    if _limited(game):
        # Where debts are allowed instead, nobody is ever out (DEC-019's alternative).
        out |= sum(1 << s for s in range(game.players) if balances[s] <= 0)
    streak = match.streak + 1 if result.thrown_in else 0
    if result.thrown_in:
        shuffle = rules.preparation.after_throw_in == "shuffle"
    elif result.made and result.contract in rules.preparation.shuffle_after_made:
        shuffle = True
    else:
        shuffle = rules.preparation.usual == "shuffle"
    scores = match.scores
    if scores is not None and result.score is not None:
        scores = tuple(t + p for t, p in zip(scores, result.score, strict=True))
    nxt = match._replace(
        phase=PREPARE, hand=None, hands=match.hands + (hand,), balances=balances, out=out,
        scores=scores,
        pool=hand.pool, played=match.played + 1, streak=streak, pack=gathered(hand),
        ante_paid=False, taking_part=sum(1 << s for s in hand.order))
    still_in = _seats_in(nxt, match.dealer)
    if still_in:
        nxt = nxt._replace(dealer=still_in[0])
    pack_changes = len(nxt.pack) != game.pack(max(2, len(still_in))).bit_count()
    nxt = nxt._replace(shuffle_next=shuffle or pack_changes)
    return _finish(nxt) if _ended(nxt) else nxt


def _ended(match: MatchState) -> bool:
    """Implements: NAP-10.4.1, NAP-10.4.5.

    The match ends after the agreed number of hands, or when only one player has chips, or at
    whichever comes first, as the ruleset says; where it ends only when the players agree, the
    caller stops it (or an agreed number of hands is given). Where the score sheet has a
    target, it also ends once some score has reached it.
    """
    scoring = match.game.rules.scoring
    if (scoring is not None and scoring.target is not None and match.scores is not None
            and max(match.scores) >= scoring.target):
        return True
    end = match.game.rules.match.end
    by_hands = match.hand_limit is not None and match.played >= match.hand_limit
    by_chips = _players_in(match) <= 1
    if end == "last-with-chips":
        return by_chips
    if end == "last-with-chips-or-agreed-hands":
        return by_chips or by_hands
    return by_hands or (match.game.rules.match.bankroll is not None and by_chips)


def _finish(match: MatchState) -> MatchState:
    """Implements: NAP-9.3.2, NAP-10.4.3, NAP-10.4.4.

    What is left in the pool is left unclaimed, or shared equally among the players still in
    (any remainder unclaimed), as the ruleset says. The highest balance wins, or, on a score
    sheet in points, the highest score; a tie shares the win.
    """
    rules = match.game.rules
    balances = list(match.balances)
    pool = match.pool
    ledger = list(match.ledger)
    still_in = [s for s in range(match.game.players) if not match.out >> s & 1]
    if rules.pool and rules.pool.at_end == "split-equally" and still_in and pool:
        share = pool // len(still_in)
        if share:
            for seat in still_in:
                balances[seat] += share
                ledger.append(Payment(-1, seat, share, "NAP-9.3.2"))
            pool -= share * len(still_in)
    ranked = balances if match.scores is None else list(match.scores)
    best = max(ranked)
    winners = tuple(s for s in range(len(ranked)) if ranked[s] == best)
    result = MatchResult(tuple(balances), pool, winners, match.played, match.scores)
    return match._replace(phase=FINISHED, balances=tuple(balances), pool=pool,
                          ledger=tuple(ledger), result=result)


def stop(match: MatchState) -> MatchState:
    """End a match between hands where the players agree to stop (NAP-10.4.1)."""
    if match.phase not in (PREPARE, FIRST_DEALER):
        raise IllegalActionError("NAP-10.4.1", "a match can be stopped only between hands")
    return _finish(match)


__all__ = ["MatchResult", "MatchState", "Result", "gathered", "new_match", "stakes", "stop"]
