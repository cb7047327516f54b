"""The ``"biased"`` style: :class:`BiasedPlayer`, random play with a :class:`Style`'s biases
(bid high, bid low, pass, bid a misère, pay for looks, buy cards, take or leave the widow,
play the declarer's best cards...), so that rarer paths of the rules come up; the
conformance generator (conformance/generate.py) and the fuzzer play their hands with it.

Its draws from the ``rng`` are part of what the generator's seeds replay: a change to them,
or to their order, changes the generated cases.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from napkit.engine.actions import (
    ANTE,
    LEAVE_WIDOW,
    PASS,
    PEEK,
    SIT_OUT,
    TAKE_WIDOW,
    Action,
    Bid,
    Buy,
    Discard,
    NameTrumps,
    Play,
)
from napkit.engine.game import BidRule
from napkit.engine.observation import PlayerView
from napkit.engine.rules import GameLike
from napkit.players.base import legal_choices
from napkit.players.judgement import beats, trick_winner
from napkit.players.views import trick_seats
from napkit.players.worth import hand_worth, longest_suit

#: The biases in the auction, as :meth:`Style.draw` draws them (a repeated one more often).
AUCTION_STYLES = ("uniform", "sensible", "sensible", "sensible", "nap", "nap", "high", "low",
                  "pass", "misere", "peek")
#: The biases in play, as :meth:`Style.draw` draws them.
PLAY_STYLES = ("uniform", "declarer", "sensible", "sensible")


@dataclass(frozen=True)
class Style:
    """How a :class:`BiasedPlayer` chooses: a bias in the auction and the exchange, and in
    play either uniformly or the declarer's side playing its best cards.

    ``auction``: ``uniform``, ``sensible`` (bid what the hand is worth), ``nap`` (the same;
    the conformance generator also deals such a hand a strong pack), ``high``, ``low``,
    ``pass``, ``misere``, ``peek``; ``play``: ``uniform``, ``declarer`` (the declarer strong,
    the rest weak), ``sensible`` (win tricks cheaply); ``buy``: buy cards when offered;
    ``take``: take the widow, leave it, or None to choose uniformly.
    """

    auction: str = "sensible"
    play: str = "sensible"
    buy: bool = False
    take: bool | None = None

    @classmethod
    def draw(cls, rng: random.Random) -> Style:
        """A style drawn from ``rng`` (the conformance generator draws one for each hand)."""
        return cls(auction=rng.choice(AUCTION_STYLES), play=rng.choice(PLAY_STYLES),
                   buy=rng.random() < 0.5, take=rng.choice((None, True, False)))

    def words(self) -> str:
        """The style in words: ``random play biased to passing``."""
        bits = []
        if self.auction != "uniform":
            bits.append({"high": "bidding high", "low": "bidding low", "pass": "passing",
                         "misere": "misère", "peek": "looks",
                         "sensible": "bidding what the hand is worth",
                         "nap": "a strong hand dealt and bid for"}[self.auction])
        if self.play != "uniform":
            bits.append({"declarer": "the declarer playing strong, the rest weak",
                         "sensible": "playing to win tricks cheaply"}[self.play])
        return "random play" + (f" biased to {' and '.join(bits)}" if bits else "")

    def wanted_widow(self) -> str | None:
        """The bids :attr:`take` prefers, by their widow (``"with"``, ``"without"``), or
        None if it prefers none."""
        return None if self.take is None else "with" if self.take else "without"


class BiasedPlayer:
    """Random play with a :class:`Style`'s biases; between the hands of a match, sits out
    (where it may) with probability ``sit_out``, else antes.

    It reads only its view and the game (the bids of the ruleset), like every player; the
    draws it makes from ``rng`` are part of what the conformance generator's seeds replay,
    so a change to them changes the generated cases.
    """

    def __init__(self, game: GameLike, style: Style | None = None, sit_out: float = 0.0) -> None:
        self.game = game
        self.style = style if style is not None else Style()
        self.sit_out = sit_out

    def _bid(self, bid_id: str) -> BidRule:
        return self.game.rules.bids[self.game.bid_index[bid_id]]

    def _miseres(self, calls: Sequence[Bid]) -> list[Bid]:
        """The misère bids among some calls."""
        return [a for a in calls if self._bid(a.bid).misere]

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_choices(view)
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        style = self.style
        if phase == "ante":
            return SIT_OUT if SIT_OUT in legal and rng.random() < self.sit_out else ANTE
        if phase == "auction":
            calls = [a for a in legal if isinstance(a, Bid)]
            how = style.auction
            if how == "peek" and PEEK in legal and rng.random() < 0.8:
                return PEEK
            if how == "pass" and PASS in legal and rng.random() < 0.95:
                return PEEK if PEEK in legal and rng.random() < 0.2 else PASS
            if how == "misere":
                mis = self._miseres(calls)
                if mis and rng.random() < 0.9:
                    return rng.choice(mis)
            if how in ("sensible", "nap", "misere", "peek"):
                return self._sensible_call(view, calls, rng)
            if how == "high" and calls and rng.random() < 0.6:
                return calls[-1]
            if how == "low":
                if PASS in legal and rng.random() < 0.5:
                    return PASS
                if calls:
                    return calls[0]
            wanted = style.wanted_widow()
            if wanted is not None and calls and rng.random() < 0.5:
                pick = [a for a in calls if self._bid(a.bid).widow == wanted]
                if pick:
                    return rng.choice(pick)
        elif phase == "purchase":
            buys = [a for a in legal if isinstance(a, Buy) and a.cards]
            if style.buy and buys:
                return rng.choice(buys)
        elif phase == "exchange" and style.take is not None:
            return TAKE_WIDOW if style.take else LEAVE_WIDOW
        elif phase in ("naming", "discard") and style.play != "uniform":
            # Name the longest suit; discard the lowest card outside it.
            best = longest_suit(view.hand)
            if phase == "naming":
                return next((a for a in legal if isinstance(a, NameTrumps) and a.suit == best),
                            rng.choice(legal))
            return min(legal, key=lambda a: (a.card // 13 == best, a.card % 13)
                       if isinstance(a, Discard) else (True, 99))
        elif phase == "play" and style.play == "declarer":
            return self._best_or_worst(view)
        elif phase == "play" and style.play == "sensible":
            return self._sensible_play(view)
        return rng.choice(legal)

    def _sensible_call(self, view: PlayerView, calls: Sequence[Bid],
                       rng: random.Random) -> Action:
        """Bid about what the hand is worth: the tricks its longest suit as trumps and its
        aces may take (a little more or less at random), a misère with no card above the
        nine."""
        legal = view.legal_actions
        hand = view.hand
        if max(c % 13 for c in hand) <= 7:
            mis = self._miseres(calls)
            if mis:
                return rng.choice(mis)
        worth = hand_worth(hand) + rng.choice((-1, 0, 0, 1, 1))
        fit = [a for a in calls if not self._bid(a.bid).misere
               and self._bid(a.bid).tricks <= worth]
        wanted = self.style.wanted_widow()
        if wanted is not None:
            fit = [a for a in fit if self._bid(a.bid).widow in (wanted, None)] or fit
        if fit:
            return fit[-1] if rng.random() < 0.7 else rng.choice(fit)
        return PASS if PASS in legal else rng.choice(legal)

    def _best_or_worst(self, view: PlayerView) -> Action:
        """The declarer plays their strongest card (trumps first), the opponents their
        weakest; reversed in a misère, where the declarer wants to lose every trick."""
        bid = self._bid(view.contract or "")
        order = _strength_order(view.trumps)

        def strength(action: Action) -> int:
            return order[action.card if isinstance(action, Play) else 0]

        best = (view.seat == view.declarer) != bid.misere
        return (max if best else min)(view.legal_actions, key=strength)

    def _sensible_play(self, view: PlayerView) -> Action:
        """Lead the strongest card; follow with the cheapest card that takes the trick from
        the other side, else the weakest. In a misère the declarer ducks with the highest
        card that does not win, and the opponents play low."""
        legal = view.legal_actions
        trumps = view.trumps
        bid = self._bid(view.contract or "")
        declaring = view.seat == view.declarer
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        order = _strength_order(trumps)

        def strength(action: Play) -> int:
            return order[action.card]

        if not view.trick:
            pick = min if bid.misere and declaring else max
            return pick(plays, key=strength)
        top, top_seat = trick_winner(view.trick, trick_seats(view), trumps)
        if bid.misere:
            if declaring:
                ducks = [a for a in plays if not beats(a.card, top, trumps)]
                return max(ducks or plays, key=strength)
            return min(plays, key=strength)
        ours = (top_seat == view.declarer) == declaring
        winners = [a for a in plays if beats(a.card, top, trumps)]
        if winners and not ours:
            return min(winners, key=strength)
        return min(plays, key=strength)


def _strength_order(trumps: int) -> tuple[int, ...]:
    """By card: its place in the biased player's order of strength, a trump above every
    other card, then by rank (as the pair (is a trump, rank), equal where the pairs are)."""
    order = _STRENGTH.get(trumps)
    if order is None:
        order = _STRENGTH[trumps] = tuple((c // 13 == trumps) * 13 + c % 13 for c in range(52))
    return order


# _strength_order's tables, by trumps (fill-once and pure, as judgement's: safe to share
# between threads).
_STRENGTH: dict[int, tuple[int, ...]] = {}
