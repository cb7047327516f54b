"""The engine's players, the one place where moves are chosen, and :func:`play_out`, which
plays a hand or a match to its end with them.

The styles of play (:func:`make_player`, by name):

- ``"random"`` (:class:`RandomPlayer`): any legal action, uniformly at random.
- ``"heuristic"`` (:class:`HeuristicPlayer`): a simple, sensible player.
- ``"biased"`` (:class:`BiasedPlayer`): random play with a :class:`Style`'s biases (bid high,
  bid low, pass, bid a misère, pay for looks, buy cards, take or leave the widow, play the
  declarer's best cards...), so that rarer paths of the rules come up; the conformance
  generator (conformance/generate.py) plays its cases with it.

A player is anything with ``choose(view, rng) -> Action``. It is handed a
:class:`~napkit.engine.observation.PlayerView` (what its seat may know, NAP-4.3.2), never the state,
and returns one of ``view.legal_actions``. The heuristic player also knows the game being
played (the ruleset, its options, the table): that is public, agreed before the first deal
(NAP-10.1.1); it reads the bids' tricks and misère flags from it.

Neither player ever returns an action outside ``view.legal_actions``: whatever a heuristic
prefers is looked up among the legal actions, and when it has no preference (an unfamiliar
phase, an odd obligation) it falls back to a legal action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from napkit.engine.actions import (
    ANTE,
    LEAVE_WIDOW,
    PASS,
    PEEK,
    PLAYS,
    SIT_OUT,
    TAKE_WIDOW,
    Action,
    Ante,
    Bid,
    Buy,
    Discard,
    LeaveWidow,
    NameTrumps,
    Pass,
    Play,
    SitOut,
    TakeWidow,
)
from napkit.engine.cards import SUITS, cards_of, rank_of, suit_of
from napkit.engine.game import BidRule
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.observation import PlayerView
from napkit.engine.rules import GameLike
from napkit.engine.state import NO_TRUMPS

ACE, KING, QUEEN, JACK = 12, 11, 10, 9


class Player(Protocol):
    """Chooses one of a view's legal actions."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


class RandomPlayer:
    """Any legal action, uniformly at random."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn")
        return rng.choice(view.legal_actions)


class HeuristicPlayer:
    """A simple, sensible player.

    It bids the highest bid it expects to make, counting likely tricks (high trumps, length in
    the best suit, side aces and guarded kings), or a misère with a hand of low cards; never
    pays for a look; buys away the cards outside its best suit; takes a widow unless the card
    is known to be worse than its own; discards its weakest card; names its strongest suit;
    leads high as declarer and masters as an opponent; follows with the lowest card that wins
    when winning is wanted, else its lowest card (a misère's declarer keeps under the trick);
    antes rather than sits out.
    """

    def __init__(self, game: GameLike) -> None:
        self.game = game
        self.bids: dict[str, BidRule] = {b.id: b for b in game.rules.bids}
        # What this player has worked out of a hand's likely tricks with each trump suit: asked
        # for every bid it weighs, at every turn of the auction (it was most of the time
        # `napkit record` took, benchmarks/record_memory.py). Both memos hold pure functions
        # of their keys and are read and filled by single dict operations (atomic under the
        # GIL), so one player may be shared between threads and choose as it would alone.
        self._estimates: dict[tuple[int, ...], tuple[float, float, float, float, float]] = {}
        self._bold: dict[tuple[str, int], float] = {}  # boldness() by bid and players

    def estimate(self, hand: Sequence[int], trumps: int | None) -> float:
        """:func:`trick_estimate`, remembered for the hands this player has weighed."""
        return self.estimates(hand)[trumps if trumps in SUITS else 4]

    def estimates(self, hand: Sequence[int]) -> tuple[float, float, float, float, float]:
        """:func:`trick_estimates`, remembered for the hands this player has weighed."""
        key = tuple(hand)
        found = self._estimates.get(key)
        if found is None:
            if len(self._estimates) >= 4096:
                self._estimates.clear()
            found = self._estimates[key] = trick_estimates(key)
        return found

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn")
        first = legal[0]
        if isinstance(first, Play):
            return self._play(view)  # a card of the legal plays
        if isinstance(first, Bid | Pass):
            return self._call(view)  # one of the legal calls
        if isinstance(first, Discard):
            choice = self._discard(view)
        elif isinstance(first, NameTrumps):
            choice = self._name(view)
        elif isinstance(first, TakeWidow | LeaveWidow):
            choice = self._exchange(view)
        elif isinstance(first, Buy):
            choice = self._buy(view)
        elif isinstance(first, Ante | SitOut):
            choice = ANTE
        else:
            choice = self._call(view)
        if choice in legal:
            return choice
        # Nothing preferred is legal (a phase or obligation this heuristic does not know):
        # any legal action, chosen reproducibly from the rng.
        return rng.choice(legal)

    # --- the auction -------------------------------------------------------------------
    def _call(self, view: PlayerView) -> Action:
        hand = view.hand
        players = len(view.order)
        estimates = self.estimates(hand)  # for every bid weighed below
        best_trumps = max(estimates[:4])
        best: Action | None = None
        for action in view.legal_actions:
            if not isinstance(action, Bid):
                continue
            bid = self.bids.get(action.bid)
            if bid is None:
                continue
            if bid.misere:
                ok = misere_danger(hand) <= (4 if bid.widow == "with" else 3)
            else:
                tricks = _expected(estimates[4] if bid.trumps == "none" else best_trumps, bid,
                                   players)
                ok = tricks + self._boldness(bid, players) >= bid.tricks
            if ok:
                best = action  # legal bids come lowest first: keep the highest that fits
        if best is not None:
            return best
        for action in view.legal_actions:
            if isinstance(action, Pass):
                return action
        return view.legal_actions[0]

    def _boldness(self, bid: BidRule, players: int) -> float:
        key = (bid.id, players)
        found = self._bold.get(key)
        if found is None:
            found = self._bold[key] = boldness(bid, players)
        return found

    def expected_tricks(self, hand: Sequence[int], bid: BidRule, players: int) -> float:
        """The tricks this hand should take under a bid, with its best suit as trumps."""
        estimates = self.estimates(hand)
        return _expected(estimates[4] if bid.trumps == "none" else max(estimates[:4]), bid,
                         players)

    # --- purchases, the widow, trumps --------------------------------------------------
    def _buy(self, view: PlayerView) -> Action:
        best = best_suit(view.hand)
        weak = 0
        for card in view.hand:
            if suit_of(card) != best and rank_of(card) != ACE:
                weak |= 1 << card
        # The largest legal purchase of weak cards only (the stock may limit how many).
        choice: Action = Buy(0)
        for action in view.legal_actions:
            if (isinstance(action, Buy) and action.cards & ~weak == 0 and isinstance(choice, Buy)
                    and action.cards.bit_count() > choice.cards.bit_count()):
                choice = action
        return choice

    def _exchange(self, view: PlayerView) -> Action:
        if view.widow is None:
            return TakeWidow()
        misere = self._misere(view)
        trumps = view.trumps if 0 <= view.trumps < 4 else best_suit(view.hand + (view.widow,))
        keep = sorted(view.hand, key=lambda c: keep_value(c, trumps, misere))
        better = keep_value(view.widow, trumps, misere) > keep_value(keep[0], trumps, misere)
        return TakeWidow() if better else LeaveWidow()

    def _discard(self, view: PlayerView) -> Action:
        misere = self._misere(view)
        trumps = view.trumps if 0 <= view.trumps < 4 else best_suit(view.hand)
        cards = [a.card for a in view.legal_actions if isinstance(a, Discard)]
        return Discard(min(cards, key=lambda c: keep_value(c, trumps, misere)))

    def _name(self, view: PlayerView) -> Action:
        suits = [a.suit for a in view.legal_actions if isinstance(a, NameTrumps)]
        if self._misere(view):
            # Declaring to lose: trumps in a suit held short means fewer sure winners held.
            return NameTrumps(min(suits, key=lambda s: (held(view.hand, s), s)))
        return NameTrumps(max(suits, key=lambda s: (self.estimate(view.hand, s),
                                                    held(view.hand, s), -s)))

    def _misere(self, view: PlayerView) -> bool:
        bid = self.bids.get(view.contract) if view.contract else None
        return bid is not None and bid.misere

    # --- play --------------------------------------------------------------------------
    def _play(self, view: PlayerView) -> Action:
        return PLAYS[self._card(view)]  # the engine's own Play of the card: none is built

    def _card(self, view: PlayerView) -> int:
        cards = [a.card for a in view.legal_actions if type(a) is Play]
        trumps = view.trumps if 0 <= view.trumps < 4 else -1
        declaring = view.seat == view.declarer
        misere = self._misere(view)
        if not view.trick:
            return self._lead(view, cards, trumps, declaring, misere)
        played = trick_seats(view)
        winner_card, winner_seat = trick_winner(view.trick, played, trumps)
        top = winner_card // 13
        beating = [c for c in cards if ((c > winner_card) if c // 13 == top else c // 13 == trumps)]
        under = [c for c in cards if c not in beating]
        last = len(view.trick) == len(view.order) - 1
        declarer_to_come = view.declarer not in played and not declaring
        if misere:
            if declaring:
                # Stay under the trick with the highest card that can; if every card wins,
                # win with the highest and keep the low ones for later.
                return max(under, key=rank_of) if under else max(cards, key=rank_of)
            if winner_seat == view.declarer and under:
                return max(under, key=rank_of)  # leave the declarer winning
            return lowest(cards, trumps)
        if not declaring and winner_seat != view.declarer and not declarer_to_come:
            return lowest(cards, trumps)  # a fellow opponent has the trick already
        if beating:
            if last or not (declaring or declarer_to_come):
                return lowest(beating, trumps)
            # Someone who may beat us plays after: win with the highest card.
            return max(beating, key=lambda c: (c // 13 == trumps, rank_of(c)))
        return lowest(cards, trumps)

    def _lead(self, view: PlayerView, cards: list[int], trumps: int, declaring: bool,
              misere: bool) -> int:
        if misere:
            return min(cards, key=lambda c: (rank_of(c), c))
        if declaring:
            if trumps < 0 and view.trumps != NO_TRUMPS:
                # The first lead fixes trumps: lead the top of the best suit.
                suit = best_suit(view.hand)
                of_suit = [c for c in cards if suit_of(c) == suit]
                return max(of_suit or cards, key=rank_of)
            trump_cards = [c for c in cards if suit_of(c) == trumps]
            if trump_cards:
                return max(trump_cards, key=rank_of)  # draw the opponents' trumps
            gone = known_gone(view)
            masters = [c for c in cards if is_master(c, view, gone)]
            return max(masters or cards, key=rank_of)
        side = [c for c in cards if suit_of(c) != trumps] or cards
        gone = known_gone(view)
        masters = [c for c in side if is_master(c, view, gone)]
        if masters:
            return max(masters, key=rank_of)
        return lowest(side, trumps)


def _expected(tricks: float, bid: BidRule, players: int) -> float:
    """:meth:`HeuristicPlayer.expected_tricks`, from the estimate with the bid's trumps."""
    if bid.widow == "with":
        tricks += 0.3  # the widow replaces the weakest card
    if bid.lead != "any":
        tricks -= 0.3  # a forced opening lead (lowest trump, say) can give a trick away
    # Every opponent beyond three holds five more cards that may beat ours.
    return tricks - 0.15 * max(0, players - 4)


# --- random play with a bias -------------------------------------------------------------------
AUCTION_STYLES = ("uniform", "sensible", "sensible", "sensible", "nap", "nap", "high", "low",
                  "pass", "misere", "peek")
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

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn")
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
                mis = [a for a in calls if self._bid(a.bid).misere]
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
            if style.take is not None and calls and rng.random() < 0.5:
                wanted = "with" if style.take else "without"
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
            # Name the longest suit (the highest cards breaking ties); discard the lowest card
            # outside it.
            hand = view.hand
            best = max(range(4), key=lambda s: sum(13 + c % 13 for c in hand if c // 13 == s))
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
            mis = [a for a in calls if self._bid(a.bid).misere]
            if mis:
                return rng.choice(mis)
        worth = hand_worth(hand) + rng.choice((-1, 0, 0, 1, 1))
        fit = [a for a in calls if not self._bid(a.bid).misere
               and self._bid(a.bid).tricks <= worth]
        if self.style.take is not None:
            wanted = "with" if self.style.take else "without"
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
        top = view.trick[0]
        seats = trick_seats(view)
        top_seat = seats[0]
        for card, seat in zip(view.trick[1:], seats[1:], strict=True):
            if (card // 13 == top // 13 and card > top) or (
                    card // 13 == trumps and top // 13 != trumps):
                top, top_seat = card, seat

        def beats(card: int) -> bool:
            if card // 13 == top // 13:
                return card > top
            return card // 13 == trumps

        if bid.misere:
            if declaring:
                ducks = [a for a in plays if not beats(a.card)]
                return max(ducks or plays, key=strength)
            return min(plays, key=strength)
        ours = (top_seat == view.declarer) == declaring
        winners = [a for a in plays if beats(a.card)]
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


# _strength_order's tables, by trumps (fill-once and pure, as _CHEAPEST).
_STRENGTH: dict[int, tuple[int, ...]] = {}


def hand_worth(hand: Sequence[int]) -> float:
    """Roughly the tricks a hand may take with its longest suit as trumps (the biased
    player's measure)."""
    mask = 0
    for card in hand:
        mask |= 1 << card
    if cards_of(mask) != hand:  # not a tuple of distinct cards in card order: count as given
        return _worth_of(hand)
    return mask_worth(mask)


def _worth_of(hand: Sequence[int]) -> float:
    # The count as written, card by card in the hand's order (its floating-point sums depend
    # on that order): mask_worth gives the same numbers for a hand in card order.
    trumps = max(range(4), key=lambda s: sum(1 + (c % 13) / 13 for c in hand if c // 13 == s))
    return sum(1.0 if c // 13 == trumps and c % 13 >= 8 else 0.6 if c // 13 == trumps
               else 1.0 if c % 13 == 12 else 0.3 if c % 13 == 11 else 0.0 for c in hand)


def mask_worth(mask: int) -> float:
    """:func:`hand_worth` of the cards of a mask (in card order): the biased player weighs
    every hand it bids on, and a strong deal (napkit.conform.starts) every hand of thirty
    deals, so each suit's part is worked out once per holding."""
    parts = _WORTH_PARTS
    spades = parts.get(mask & 0x1FFF) or _worth_parts(mask & 0x1FFF)
    hearts = parts.get(mask >> 13 & 0x1FFF) or _worth_parts(mask >> 13 & 0x1FFF)
    clubs = parts.get(mask >> 26 & 0x1FFF) or _worth_parts(mask >> 26 & 0x1FFF)
    diamonds = parts.get(mask >> 39 & 0x1FFF) or _worth_parts(mask >> 39 & 0x1FFF)
    # The longest suit, by the same sums as _worth_of's, the first of equals (as max() picks
    # it: a later suit only if longer); then every card's part in card order, added up by one
    # sum() as there: the same floats.
    trumps, top = 0, spades[0]
    if hearts[0] > top:
        trumps, top = 1, hearts[0]
    if clubs[0] > top:
        trumps, top = 2, clubs[0]
    if diamonds[0] > top:
        trumps = 3
    return sum(spades[1][trumps == 0] + hearts[1][trumps == 1]
               + clubs[1][trumps == 2] + diamonds[1][trumps == 3])


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


# By suit holding: mask_worth's parts (fill-once and pure, as _CHEAPEST: threads may fill it
# at once, each with equal values).
_WORTH_PARTS: dict[int, WorthParts] = {}


# --- the styles by name ------------------------------------------------------------------------
#: Every style of play, by name (see the module's docstring).
STYLES = ("random", "heuristic", "biased")

#: The styles ``napkit play`` and ``napkit record`` offer as --opponents.
PLAYER_KINDS = ("random", "heuristic")


def make_player(kind: str, game: GameLike, style: Style | None = None) -> Player:
    """A player of style ``kind``, one of :data:`STYLES` (``style``: the biases of a
    ``"biased"`` player; the default bids and plays sensibly).

    >>> from napkit import Game
    >>> from napkit.engine.players import STYLES, Style, make_player
    >>> game = Game.create("pagat", 4)
    >>> [type(make_player(kind, game)).__name__ for kind in STYLES]
    ['RandomPlayer', 'HeuristicPlayer', 'BiasedPlayer']
    >>> make_player("biased", game, Style(auction="pass")).style.words()
    'random play biased to passing and playing to win tricks cheaply'
    """
    if kind == "random":
        return RandomPlayer()
    if kind == "heuristic":
        return HeuristicPlayer(game)
    if kind == "biased":
        return BiasedPlayer(game, style)
    raise ValueError(f"no player {kind!r} ({', '.join(STYLES)})")


# --- card arithmetic shared by the heuristics --------------------------------------------------
def held(hand: Sequence[int], suit: int) -> int:
    return sum(1 for c in hand if suit_of(c) == suit)


def trick_estimate(hand: Sequence[int], trumps: int | None) -> float:
    """Likely tricks: top trumps in sequence count one each, other high trumps half, small
    trumps a third (they win by ruffing); side aces most of a trick, guarded kings a little.
    ``trumps`` None (or no suit) counts every suit as a side suit."""
    return trick_estimates(hand)[trumps if trumps in SUITS else 4]


def trick_estimates(hand: Sequence[int]) -> tuple[float, float, float, float, float]:
    """:func:`trick_estimate` of a hand with each suit as trumps, then with none: the cards
    are sorted by suit once for all five."""
    masks = _suit_masks(hand)
    trump_steps, side_steps = [], []
    for holding in masks:
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


def _suit_masks(hand: Sequence[int]) -> tuple[int, int, int, int]:
    mask = 0
    for card in hand:
        mask |= 1 << card
    return (mask & 0x1FFF, mask >> 13 & 0x1FFF, mask >> 26 & 0x1FFF, mask >> 39 & 0x1FFF)


# What each card of a suit holding (a 13-bit mask of ranks) adds to the estimate, highest rank
# first, as trumps and as a side suit: worked out once per holding. The estimate adds them in
# that order, suit by suit, so that its sums (floating point) never depend on the tables.
# Fill-once and pure, as _CHEAPEST below: threads may fill them at once, each with equal values.
_AS_TRUMPS: dict[int, tuple[float, ...]] = {}
_AS_SIDE: dict[int, tuple[float, ...]] = {}


def _steps(holding: int, trumps: bool) -> tuple[float, ...]:
    ranks = [r for r in range(12, -1, -1) if holding >> r & 1]
    if trumps:
        found = tuple(1.0 if r >= ACE - i else 0.5 if r >= JACK else 0.35
                      for i, r in enumerate(ranks))
        _AS_TRUMPS[holding] = found
    else:
        found = tuple(0.8 if r == ACE else 0.4 for i, r in enumerate(ranks)
                      if r == ACE or (r == KING and len(ranks) >= 2 and i <= 1))
        _AS_SIDE[holding] = found
    return found


def best_suit(hand: Sequence[int]) -> int:
    """The suit that would make the best trumps (ties: longer, then the lower suit)."""
    estimates = trick_estimates(hand)
    return max(SUITS, key=lambda s: (estimates[s], held(hand, s), -s))


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
    """Whether ``card`` would take the lead of a trick now won by ``best`` (NAP-8.2.1): within
    a suit the higher card is the higher number."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trumps


def trick_winner(trick: Sequence[int], seats: Sequence[int], trumps: int) -> tuple[int, int]:
    """The card winning a trick so far, and who played it."""
    if len(trick) != len(seats):
        raise ValueError(f"{len(trick)} cards but {len(seats)} seats")
    best, who = trick[0], seats[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if (card > best) if card // 13 == best // 13 else card // 13 == trumps:  # beats()
            best, who = card, seats[i]
    return best, who


def trick_seats(view: PlayerView) -> list[int]:
    """Who played each card of the current trick.

    The play passes clockwise (NAP-8.1.1) round the seats of the hand, which
    :attr:`~napkit.engine.observation.PlayerView.order` lists clockwise, so while a seat of
    the hand is to play the cards came from the seats before it; else from the last plays of
    the history.
    """
    count, order = len(view.trick), view.order
    if view.turn in order:
        last, size = order.index(view.turn), len(order)
        return [order[(last - count + k) % size] for k in range(count)]
    seats: list[int] = []
    for actor, action in reversed(view.history):
        if len(seats) == count:
            break
        if isinstance(action, Play):
            seats.append(actor)
    return seats[::-1]


def known_gone(view: PlayerView) -> int:
    """The cards (a mask) the viewer knows nobody else can still play: its own, and those
    played to this trick and the tricks before."""
    gone = 0
    for card in view.hand:
        gone |= 1 << card
    for card in view.trick:
        gone |= 1 << card
    for trick in view.tricks:
        for card in trick.cards:
            gone |= 1 << card
    return gone


def is_master(card: int, view: PlayerView, gone: int | None = None) -> bool:
    """Whether every higher card of the suit has been played or is in the viewer's hand
    (``gone``: :func:`known_gone` of the view, if already worked out)."""
    if gone is None:
        gone = known_gone(view)
    above = ((1 << 13) - (1 << (rank_of(card) + 1))) << (suit_of(card) * 13)
    return gone & above == above


def match_view(match: MatchState, seat: int) -> PlayerView:
    """A seat's view between hands of a match, when it is to ante or sit out (NAP-10.3.1).

    No cards are dealt yet: the view holds the table, the pool and the balances.
    """
    n = match.game.players
    return PlayerView(
        seat=seat, ruleset=match.game.id, phase=match.phase_name, turn=match.turn,
        dealer=match.dealer, order=tuple((match.dealer + 1 + k) % n for k in range(n)),
        hand=(), hand_sizes=(0,) * n, widow=None, widow_out=False, history=(), declarer=-1,
        contract=None, trumps=-1, trick=(), tricks=(), declarer_tricks=0, pool=match.pool,
        funds=match.balances if match.chips is not None else None, payments=(), stakes=1,
        legal_actions=match.legal_actions() if match.turn == seat else ())


# --- playing out -------------------------------------------------------------------------------
_S = TypeVar("_S", HandState, MatchState)


def seat_view(state: HandState | MatchState, seat: int) -> PlayerView:
    """What ``seat`` knows of a hand, or of a match (its hand in play, else the table between
    hands: :func:`match_view`)."""
    if isinstance(state, HandState):
        return state.view(seat)
    return state.hand.view(seat) if state.hand is not None else match_view(state, seat)


def play_out(state: _S, rng: random.Random, players: Player | Sequence[Player] | None = None,
             *, until: Callable[[_S], bool] | None = None,
             chance: random.Random | None = None) -> _S:
    """The hand or match ``state`` played to its end, or to the first state for which
    ``until`` is true (``state`` itself, if it already is).

    Chance's actions are drawn from ``chance``, or from ``rng`` if no ``chance`` is given
    (:meth:`~napkit.engine.hand.HandState.sample_chance`); the player to act chooses from its
    view, with ``rng``: ``players`` is one :class:`Player` for every seat or a sequence of
    them by seat. Without players, each choice is ``rng.choice(state.legal_actions())``,
    uniformly random. The same ``rng`` (and ``chance``) state plays the same game; with a
    ``chance`` of its own, a seed deals the same cards whoever plays them.

    >>> import random
    >>> from napkit import Game, new_match
    >>> from napkit.engine.players import HeuristicPlayer, play_out
    >>> game = Game.create("pagat", 4)
    >>> hand = play_out(game.new_hand(dealer=0), random.Random(1))
    >>> hand.is_over(), len(hand.history)
    (True, 25)
    >>> hand == play_out(game.new_hand(dealer=0), random.Random(1))
    True
    >>> hand = play_out(game.new_hand(dealer=0), random.Random(3), HeuristicPlayer(game),
    ...                 until=lambda s: s.phase_name == "play")
    >>> hand.phase_name, hand.declarer, hand.contract_bid.name, hand.trick
    ('play', 1, 'Three', ())
    >>> match = play_out(new_match(game, hands=3), random.Random(2))
    >>> match.is_over(), match.played
    (True, 3)
    """
    deals = rng if chance is None else chance
    # One player for every seat, or a player by seat: asked once, not at every decision.
    by_seat: Sequence[Player] | None = None
    viewer: Callable[[HandState, int], PlayerView] | Callable[[MatchState, int], PlayerView]
    viewer = HandState.view if isinstance(state, HandState) else seat_view
    if players is not None:
        by_seat = players if isinstance(players, Sequence) else [players] * state.game.players
    while not (state.is_over() or (until is not None and until(state))):
        if state.is_chance():
            state = state.apply(state.sample_chance(deals))
        elif by_seat is None:
            state = state.apply(rng.choice(state.legal_actions()))
        else:
            seat = state.turn
            state = state.apply(by_seat[seat].choose(viewer(state, seat), rng))
    return state
