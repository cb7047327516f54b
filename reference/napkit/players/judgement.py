"""What the heuristic player weighs, and which card beats which: the tricks a hand may take
with each suit as trumps (:func:`trick_estimates`), the suit that makes the best trumps
(:func:`best_suit`), how bold a bid may be, how dangerous a hand is for a misère, which card
to keep and which to give away, and who wins a trick so far (:func:`trick_winner`, the
engine's own reckoning of NAP-8.2.1).

Everything here is a pure function of the cards (and a bid's rules), never of the rules of a
particular ruleset: the tables it fills once are safe to share between threads.
"""

from __future__ import annotations

from collections.abc import Sequence

from napkit.engine.cards import SUIT_MASK, SUITS, mask_of, rank_of, suit_of
from napkit.engine.game import BidRule
from napkit.engine.phases.play import winning_card

#: Ranks by name (a card's rank: 0 the two, 12 the ace).
ACE, KING, QUEEN, JACK = 12, 11, 10, 9


def suit_holdings(mask: int) -> tuple[int, int, int, int]:
    """The holding of each suit in a mask of cards, as a mask of ranks (bit ``r`` for rank
    ``r``), by suit (spades, hearts, diamonds, clubs)."""
    return (mask & SUIT_MASK, mask >> 13 & SUIT_MASK, mask >> 26 & SUIT_MASK,
            mask >> 39 & SUIT_MASK)


def held(hand: Sequence[int], suit: int) -> int:
    """How many cards of ``suit`` a hand holds."""
    return sum(1 for c in hand if suit_of(c) == suit)


# --- likely tricks -----------------------------------------------------------------------------
def trick_estimate(hand: Sequence[int], trumps: int | None) -> float:
    """Likely tricks: top trumps in sequence count one each, a third trump and every one after
    it three quarters (the opponents' trumps run out first), other high trumps half, small
    trumps a third (they win by ruffing); side aces most of a trick, guarded kings a little.
    ``trumps`` None (or no suit) counts every suit as a side suit."""
    return trick_estimates(hand)[trumps if trumps in SUITS else 4]


def trick_estimates(hand: Sequence[int]) -> tuple[float, float, float, float, float]:
    """:func:`trick_estimate` of a hand with each suit as trumps, then with none: the cards
    are sorted by suit once for all five."""
    trump_steps, side_steps = [], []
    for holding in suit_holdings(mask_of(hand)):
        steps = _AS_TRUMPS.get(holding)
        trump_steps.append(_steps(holding, True) if steps is None else steps)
        steps = _AS_SIDE.get(holding)
        side_steps.append(_steps(holding, False) if steps is None else steps)
    # Each estimate adds the steps suit by suit, spades first, as the count is written; the
    # side steps of the suits before the trump suit are the same for every choice, so their
    # running sum is shared (the same additions in the same order: the same floats).
    found = []
    before = 0.0  # the side steps of the suits before this one, added up
    for trumps in SUITS:
        tricks = before
        for step in trump_steps[trumps]:
            tricks += step
        for suit in range(trumps + 1, 4):
            for step in side_steps[suit]:
                tricks += step
        found.append(tricks)
        for step in side_steps[trumps]:
            before += step
    return found[0], found[1], found[2], found[3], before  # with no trumps: every side step


# What each card of a suit holding (a 13-bit mask of ranks) adds to the estimate, highest rank
# first, as trumps and as a side suit: worked out once per holding. The estimate adds them in
# that order, suit by suit, so that its sums (floating point) never depend on the tables.
# Fill-once and pure, as _CHEAPEST below: threads may fill them at once, each with equal values.
_AS_TRUMPS: dict[int, tuple[float, ...]] = {}
_AS_SIDE: dict[int, tuple[float, ...]] = {}


def _steps(holding: int, trumps: bool) -> tuple[float, ...]:
    ranks = [r for r in range(12, -1, -1) if holding >> r & 1]
    if trumps:
        found = tuple(1.0 if r >= ACE - i else 0.75 if i >= 2 else 0.5 if r >= JACK else 0.35
                      for i, r in enumerate(ranks))
        _AS_TRUMPS[holding] = found
    else:
        found = tuple(0.8 if r == ACE else 0.4 for i, r in enumerate(ranks)
                      if r == ACE or (r == KING and len(ranks) >= 2 and i <= 1))
        _AS_SIDE[holding] = found
    return found


def best_suit(hand: Sequence[int]) -> int:
    """The suit that would make the best trumps, by :func:`trick_estimates` (ties: longer,
    then the lower suit). The biased player names its trumps otherwise: by length
    (:func:`napkit.players.worth.longest_suit`)."""
    estimates = trick_estimates(hand)
    return max(SUITS, key=lambda s: (estimates[s], held(hand, s), -s))


# --- the auction -------------------------------------------------------------------------------
def boldness(bid: BidRule, players: int) -> float:
    """How far a bid may go beyond the tricks counted, which leave out the tricks that come
    from length and the lead: a full trick where failure costs no more than success wins,
    little where it costs more (a loss paid to the pool by every seat, say). Tuned by play
    between heuristic players over seeded hands of several rulesets."""
    wins = bid.win_each * (players - 1)
    loses = bid.lose_each * (players - 1) + bid.lose_pool_per_player * players
    return 1.0 if loses <= wins else 0.2


def misere_danger(hand: Sequence[int]) -> int:
    """How likely a hand is to be forced to win a trick: ranks above the seven, summed."""
    return sum(max(0, rank_of(c) - 5) for c in hand)


# --- cards to keep, to give away, to win with --------------------------------------------------
def keep_value(card: int, trumps: int, misere: bool) -> int:
    """How much a card is worth keeping: for a misère, low cards; else trumps, then rank."""
    if misere:
        return -rank_of(card)
    return rank_of(card) + (20 if suit_of(card) == trumps else 0)


def lowest(cards: Sequence[int], trumps: int) -> int:
    """The cheapest card to give away: a non-trump before a trump, then the lowest rank (then
    the lower card)."""
    order = _CHEAPEST.get(trumps)
    if order is None:
        order = _CHEAPEST[trumps] = tuple(
            (suit_of(c) == trumps) * 52 * 13 + rank_of(c) * 52 + c for c in range(52))
    return min(cards, key=order.__getitem__)


# By trumps: each card's place in (is a trump, rank, card) order, as one number (fill-once
# and pure: safe to share between threads).
_CHEAPEST: dict[int, tuple[int, ...]] = {}


def beats(card: int, best: int, trumps: int) -> bool:
    """Whether ``card`` would take the lead of a trick now won by ``best`` (NAP-8.2.1): a
    higher card of its suit, or a trump on a card of another suit (within a suit the higher
    card is the higher number). The step of the engine's
    :func:`~napkit.engine.phases.play.winning_card`, for a card not yet played."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trumps


def trick_winner(trick: Sequence[int], seats: Sequence[int], trumps: int) -> tuple[int, int]:
    """The card winning a trick so far, and who played it (``seats``: who played each card),
    as the engine reckons it (:func:`~napkit.engine.phases.play.winning_card`)."""
    if len(trick) != len(seats):
        raise ValueError(f"{len(trick)} cards but {len(seats)} seats")
    best = winning_card(tuple(trick), trumps)
    return trick[best], seats[best]

