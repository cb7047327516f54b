"""What a hand is worth to the biased player: roughly the tricks it may take with its longest
suit as trumps (:func:`hand_worth`, :func:`mask_worth`, which a strong deal of the conformance
generator weighs too), and the longest suit itself (:func:`longest_suit`, which the biased
player names as trumps).
"""

from __future__ import annotations

from collections.abc import Sequence

from napkit.engine.cards import SUIT_MASK, SUITS, cards_of, mask_of


def longest_suit(hand: Sequence[int]) -> int:
    """The longest suit of a hand, the higher ranks breaking ties (then the lower suit): the
    suit whose cards' ranks, each counted as thirteen more, add up to the most.

    :func:`hand_worth` weighs suits the same way, thirteen times smaller, in floating point,
    whose rounding breaks some exact ties otherwise (4♠ Q♠ 2♥ A♥ 4♦: spades here, hearts
    there). Both are kept as they are, since the generated cases were played with both.
    """
    return max(SUITS, key=lambda s: sum(13 + c % 13 for c in hand if c // 13 == s))


def hand_worth(hand: Sequence[int]) -> float:
    """Roughly the tricks a hand may take with its longest suit as trumps (the biased
    player's measure)."""
    mask = mask_of(hand)
    if cards_of(mask) != hand:  # not a tuple of distinct cards in card order: count as given
        return _worth_of(hand)
    return mask_worth(mask)


def _worth_of(hand: Sequence[int]) -> float:
    # The count as written, card by card in the hand's order (its floating-point sums depend
    # on that order): mask_worth gives the same numbers for a hand in card order.
    trumps = max(SUITS, key=lambda s: sum(1 + (c % 13) / 13 for c in hand if c // 13 == s))
    return sum(1.0 if c // 13 == trumps and c % 13 >= 8 else 0.6 if c // 13 == trumps
               else 1.0 if c % 13 == 12 else 0.3 if c % 13 == 11 else 0.0 for c in hand)


def mask_worth(mask: int) -> float:
    """:func:`hand_worth` of the cards of a mask (in card order): the biased player weighs
    every hand it bids on, and a strong deal (napkit.conform.suite.starts) every hand of thirty
    deals, so each suit's part is worked out once per holding."""
    # Each suit's holding, as judgement.suit_holdings gives them, but worked out here: the
    # call to it made this function a fifth slower.
    parts, suit = _WORTH_PARTS, SUIT_MASK
    spades = parts.get(mask & suit) or _worth_parts(mask & suit)
    hearts = parts.get(mask >> 13 & suit) or _worth_parts(mask >> 13 & suit)
    diamonds = parts.get(mask >> 26 & suit) or _worth_parts(mask >> 26 & suit)
    clubs = parts.get(mask >> 39 & suit) or _worth_parts(mask >> 39 & suit)
    # The longest suit, by the same sums as _worth_of's, the first of equals (as max() picks
    # it: a later suit only if longer); then every card's part in card order, added up by one
    # sum() as there: the same floats.
    trumps, top = 0, spades[0]
    if hearts[0] > top:
        trumps, top = 1, hearts[0]
    if diamonds[0] > top:
        trumps, top = 2, diamonds[0]
    if clubs[0] > top:
        trumps = 3
    return sum(spades[1][trumps == 0] + hearts[1][trumps == 1]
               + diamonds[1][trumps == 2] + clubs[1][trumps == 3])


WorthParts = tuple[float, tuple[tuple[float, ...], tuple[float, ...]]]


def _worth_parts(holding: int) -> WorthParts:
    """For a suit's holding (a 13-bit mask of ranks): its length as _worth_of counts it, and
    each card's part of the worth, lowest first, with the suit a side suit and as trumps."""
    ranks = [r for r in range(13) if holding >> r & 1]
    found = (sum(1 + r / 13 for r in ranks),
             (tuple(1.0 if r == 12 else 0.3 if r == 11 else 0.0 for r in ranks),
              tuple(1.0 if r >= 8 else 0.6 for r in ranks)))
    _WORTH_PARTS[holding] = found
    return found


# By suit holding: mask_worth's parts (fill-once and pure: threads may fill it at once, each
# with equal values).
_WORTH_PARTS: dict[int, WorthParts] = {}
