"""A hand drawn for a person, one way for ``napkit conform``'s failures
(:mod:`napkit.conform.report.failure`) and ``napkit fuzz``'s reproducers
(:mod:`napkit.conform.fuzz.reproducer`): the deal as a table (a row a seat, the cards grouped
by suit, the widow and the stock), where play stands in plain words, and a value quoted short.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from napkit.engine.cards import card_name, cards_of, parse_card
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.rules import BidRule
from napkit.engine.state import (
    AUCTION,
    CHANCE,
    DEAL,
    DISCARD,
    EXCHANGE,
    NAMING,
    NO_TRUMPS,
    PLAY,
    PURCHASE,
    RESHUFFLE,
)
from napkit.output.tables import cut, printable
from napkit.spec.render import hand_text

JSONObject = dict[str, Any]
SUITS = ("spades", "hearts", "diamonds", "clubs")
_NUMBERS = ("none", "one", "two", "three", "four", "five")
SHORT = 300  # the most of a value quoted (expected, answered), in characters


# --- the deal ------------------------------------------------------------------------------------
def deal_json(hand: HandState) -> JSONObject:
    """``hand`` as dealt, as the reports write it: ``{"dealer", "hands": {SEAT: [CARD...]},
    "widow", "stock"}`` (the widow's card or None; the stock, how many cards)."""
    return {"dealer": hand.dealer,
            "hands": {str(s): [card_name(c) for c in cards_of(hand.hands[s])]
                      for s in hand.order},
            "widow": card_name(hand.widow) if hand.widow >= 0 else None,
            "stock": len(hand.stock)}


def deal_lines(deal: Mapping[str, Any], heading: str, indent: str = "") -> list[str]:
    """The deal (:func:`deal_json`) as a table under ``heading``: a row a seat, its cards
    grouped by suit, then the widow and the stock's size where there are any."""
    rows = [(f"seat {seat}", by_suit(cards)) for seat, cards in deal["hands"].items()]
    if deal.get("widow"):
        rows.append(("widow", str(deal["widow"])))
    if deal.get("stock"):
        rows.append(("stock", f"{deal['stock']} cards"))
    width = max((len(name) for name, _ in rows), default=0)
    return [f"{indent}{heading} (dealer: seat {deal['dealer']}):",
            *(f"{indent}  {name:<{width}}  {cards}" for name, cards in rows)]


def by_suit(names: Sequence[str]) -> str:
    """Cards by suit (``S: K 8  H: 7``), as napkit draws a hand; as given where one is no
    card napkit reads."""
    try:
        return hand_text(parse_card(n) for n in names)
    except ValueError:
        return printable(" ".join(names))


# --- where play stands ---------------------------------------------------------------------------
def position(state: HandState | MatchState) -> str:
    """Where play stands at ``state``, in plain words: who is to do what (to bid, to lead or
    play to which trick), the contract and the declarer's tricks, trumps and what fixed them,
    the trick so far with who played each card, and the cards of the seat to act. For
    example: ``seat 2 to play to trick 3; seat 0 bid Nap and has won 2 tricks; trumps
    spades (fixed by the first card led); the trick so far: seat 0 KS, seat 1 7S; seat 2
    holds ...``."""
    hand = state if isinstance(state, HandState) else state.hand
    if hand is None:
        assert isinstance(state, MatchState)
        return _between_hands(state)
    parts = [_doing(hand)]
    bid = hand.contract_bid
    if bid is not None and not hand.is_over():
        won = (f" and has won {_count(hand.won, 'trick')}" if hand.phase == PLAY and hand.tricks
               else "")
        parts.append(f"seat {hand.declarer} bid {bid_words(bid)}{won}")
        trumps = _trumps(hand, bid)
        if trumps:
            parts.append(trumps)
    if hand.trick:
        seat, played = hand.leader, []
        for card in hand.trick:
            played.append(f"seat {seat} {card_name(card)}")
            seat = hand.ring[seat]
        parts.append("the trick so far: " + ", ".join(played))
    if hand.turn >= 0:
        parts.append(f"seat {hand.turn} holds {hand_text(cards_of(hand.hands[hand.turn]))}")
    return "; ".join(parts)


def bid_words(bid: BidRule) -> str:
    """A bid as players say it: its name (``Nap``, ``Misère``), a number of tricks in words
    (``four``) where the name is only the number."""
    name = bid.name
    if name.isdigit() and int(name) < len(_NUMBERS):
        return _NUMBERS[int(name)]
    return name


def _doing(hand: HandState) -> str:
    """Who is to do what in ``hand``; how it ended, once it is over."""
    if hand.is_over():
        result = hand.result
        if result is None or result.thrown_in or result.declarer < 0:
            return "the hand is over: thrown in, nobody having bid"
        bid = hand.contract_bid
        name = bid_words(bid) if bid is not None else str(result.contract)
        made = "made" if result.made else "defeated"
        return (f"the hand is over: seat {result.declarer} bid {name} and won "
                f"{_count(result.tricks, 'trick')} ({made})")
    seat = hand.turn
    if seat == CHANCE:
        return {DEAL: "chance is to deal",
                RESHUFFLE: "chance is to reshuffle the discards into a stock"}.get(
                    hand.phase, f"chance is to act ({hand.phase_name})")
    if seat < 0:
        return f"nobody is to act ({hand.phase_name})"
    if hand.phase == PLAY:
        number = len(hand.tricks) + 1
        return (f"seat {seat} to play to trick {number}" if hand.trick
                else f"seat {seat} to lead to trick {number}")
    if hand.phase == AUCTION:
        auction = hand.auction
        if auction.high < 0:
            return f"seat {seat} to bid (no bid yet)"
        high = hand.game.rules.bids[auction.high]
        return (f"seat {seat} to bid (the highest so far: seat {auction.high_seat}'s "
                f"{bid_words(high)})")
    return {PURCHASE: f"seat {seat} to buy cards or stand",
            EXCHANGE: f"seat {seat}, the declarer, to take up the widow or leave it",
            DISCARD: f"seat {seat}, the declarer, to discard",
            NAMING: f"seat {seat}, the declarer, to name trumps"}.get(
                hand.phase, f"seat {seat} to act ({hand.phase_name})")


def _trumps(hand: HandState, bid: BidRule) -> str:
    """Trumps in words, and what fixed them (or will)."""
    if hand.trumps == NO_TRUMPS or bid.trumps == "none":
        return "no trumps"
    how = {"first-card-led": "fixed by the first card led",
           "named": f"named by seat {hand.declarer}"}.get(bid.trumps, "")
    if hand.trumps >= 0:
        return f"trumps {SUITS[hand.trumps]}" + (f" ({how})" if how else "")
    if bid.trumps == "first-card-led":
        return "trumps not fixed yet (the first card led fixes them)"
    if bid.trumps == "named":
        return f"trumps not named yet (seat {hand.declarer} names them)"
    return ""


def _between_hands(match: MatchState) -> str:
    """Where a match stands between its hands."""
    coming = match.played + 1
    if match.is_over():
        return f"the match is over, after {_count(match.played, 'hand')}"
    if match.phase_name == "first-dealer":
        return "chance is to choose the first dealer"
    if match.phase_name == "prepare":
        what = "shuffle the pack" if match.shuffle_next else "cut the pack"
        return f"chance is to {what} for hand {coming} (dealer: seat {match.dealer})"
    if match.phase_name == "ante" and match.turn >= 0:
        return f"seat {match.turn} to pay the ante for hand {coming}, or sit out"
    return f"the match is at its {match.phase_name} step, before hand {coming}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- values quoted -------------------------------------------------------------------------------
def short(value: object) -> str:
    """A value quoted on one line (JSON, or the text as it is), escaped for the terminal
    and cut to :data:`SHORT` characters."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(", ", ": "),
                                                            ensure_ascii=False)
    return cut(printable(text), SHORT)


__all__ = ["SHORT", "SUITS", "bid_words", "by_suit", "deal_json", "deal_lines", "position",
           "short"]
