"""The ``"heuristic"`` style: :class:`HeuristicPlayer`, a simple, sensible player, which
``napkit play`` and ``napkit record`` seat by default.

Besides its view, it knows the game being played (the ruleset, its options, the table): that
is public, agreed before the first deal (NAP-10.1.1); it reads the bids' tricks and misère
flags from it. What it weighs is :mod:`napkit.players.judgement`'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from napkit.engine.actions import (
    ANTE,
    PLAYS,
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
from napkit.engine.cards import SUITS, rank_of, suit_of
from napkit.engine.game import BidRule
from napkit.engine.observation import PlayerView
from napkit.engine.rules import GameLike
from napkit.engine.state import NO_TRUMPS
from napkit.players.base import legal_choices
from napkit.players.judgement import (
    ACE,
    beats,
    best_suit,
    boldness,
    held,
    keep_value,
    lowest,
    misere_danger,
    trick_estimates,
    trick_winner,
)
from napkit.players.views import is_master, known_gone, trick_seats


class HeuristicPlayer:
    """A simple, sensible player.

    It bids the highest bid it expects to make, counting likely tricks (high trumps, length in
    the best suit, side aces and guarded kings), or a misère with a hand of low cards; the
    last to speak, when everyone else has passed, bids the lowest bid on a hand near it, as a
    table does rather than throw the hand in (NAP-5.3.2); never
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
        """:func:`~napkit.players.judgement.trick_estimate`, remembered for the hands this
        player has weighed."""
        return self.estimates(hand)[trumps if trumps in SUITS else 4]

    def estimates(self, hand: Sequence[int]) -> tuple[float, float, float, float, float]:
        """:func:`~napkit.players.judgement.trick_estimates`, remembered for the hands this
        player has weighed."""
        key = tuple(hand)
        found = self._estimates.get(key)
        if found is None:
            if len(self._estimates) >= 4096:
                self._estimates.clear()
            found = self._estimates[key] = trick_estimates(key)
        return found

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = legal_choices(view)
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
        if _last_call(view):
            # Passing would throw the hand in (NAP-5.3.2): a table's last player bids the
            # lowest bid on a hand near it, rather than deal again.
            for action in view.legal_actions:
                bid = self.bids.get(action.bid) if isinstance(action, Bid) else None
                if bid is None or bid.misere:
                    continue
                tricks = _expected(estimates[4] if bid.trumps == "none" else best_trumps, bid,
                                   players)
                if tricks + self._boldness(bid, players) + LAST_CALL >= bid.tricks:
                    return action
                break  # the lowest bid only
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
        beating = [c for c in cards if beats(c, winner_card, trumps)]
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


#: How far short of the lowest bid the last to speak may be and still bid it, where passing
#: would throw the hand in: tuned so that at most a quarter of 4-player pagat hands are thrown
#: in, and most contracts are still made (benchmarks/players_bidding.py).
LAST_CALL = 0.75


def _last_call(view: PlayerView) -> bool:
    """Whether nobody has bid and every other seat of the hand has passed: a pass now throws
    the hand in (NAP-5.3.2)."""
    passes = 0
    for _, action in view.history:
        if isinstance(action, Bid):
            return False
        if isinstance(action, Pass):
            passes += 1
    return passes == len(view.order) - 1


def _expected(tricks: float, bid: BidRule, players: int) -> float:
    """:meth:`HeuristicPlayer.expected_tricks`, from the estimate with the bid's trumps."""
    if bid.widow == "with":
        tricks += 0.3  # the widow replaces the weakest card
    if bid.lead != "any":
        tricks -= 0.3  # a forced opening lead (lowest trump, say) can give a trick away
    # Every opponent beyond three holds five more cards that may beat ours.
    return tricks - 0.15 * max(0, players - 4)
