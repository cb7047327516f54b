"""The engine's own players (a random one and a simple heuristic one), and :func:`play_out`,
which plays a hand or a match to its end with them.

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
from typing import Protocol, TypeVar

from napkit.engine.actions import (
    ANTE,
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
from napkit.engine.game import BidRule, Game
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

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn")
        first = legal[0]
        if isinstance(first, Play):
            choice = self._play(view)
        elif isinstance(first, Discard):
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
                ok = self.expected_tricks(hand, bid, players) + boldness(bid, players) >= bid.tricks
            if ok:
                best = action  # legal bids come lowest first: keep the highest that fits
        return best if best is not None else next(
            (a for a in view.legal_actions if isinstance(a, Pass)), view.legal_actions[0])

    def expected_tricks(self, hand: Sequence[int], bid: BidRule, players: int) -> float:
        """The tricks this hand should take under a bid, with its best suit as trumps."""
        if bid.trumps == "none":
            tricks = trick_estimate(hand, None)
        else:
            tricks = max(trick_estimate(hand, s) for s in SUITS)
        if bid.widow == "with":
            tricks += 0.3  # the widow replaces the weakest card
        if bid.lead != "any":
            tricks -= 0.3  # a forced opening lead (lowest trump, say) can give a trick away
        # Every opponent beyond three holds five more cards that may beat ours.
        return tricks - 0.15 * max(0, players - 4)

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
        return NameTrumps(max(suits, key=lambda s: (trick_estimate(view.hand, s),
                                                    held(view.hand, s), -s)))

    def _misere(self, view: PlayerView) -> bool:
        bid = self.bids.get(view.contract) if view.contract else None
        return bid is not None and bid.misere

    # --- play --------------------------------------------------------------------------
    def _play(self, view: PlayerView) -> Action:
        cards = [a.card for a in view.legal_actions if isinstance(a, Play)]
        trumps = view.trumps if 0 <= view.trumps < 4 else -1
        declaring = view.seat == view.declarer
        misere = self._misere(view)
        if not view.trick:
            return Play(self._lead(view, cards, trumps, declaring, misere))
        winner_card, winner_seat = trick_winner(view.trick, trick_seats(view), trumps)
        beating = [c for c in cards if beats(c, winner_card, trumps)]
        under = [c for c in cards if c not in beating]
        played = trick_seats(view)
        last = len(view.trick) == len(view.order) - 1
        declarer_to_come = view.declarer not in played and not declaring
        if misere:
            if declaring:
                # Stay under the trick with the highest card that can; if every card wins,
                # win with the highest and keep the low ones for later.
                return Play(max(under, key=rank_of) if under else max(cards, key=rank_of))
            if winner_seat == view.declarer and under:
                return Play(max(under, key=rank_of))  # leave the declarer winning
            return Play(lowest(cards, trumps))
        if not declaring and winner_seat != view.declarer and not declarer_to_come:
            return Play(lowest(cards, trumps))  # a fellow opponent has the trick already
        if beating:
            if last or not (declaring or declarer_to_come):
                return Play(lowest(beating, trumps))
            # Someone who may beat us plays after: win with the highest card.
            return Play(max(beating, key=lambda c: (c // 13 == trumps, rank_of(c))))
        return Play(lowest(cards, trumps))

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
            masters = [c for c in cards if is_master(c, view)]
            return max(masters or cards, key=rank_of)
        side = [c for c in cards if suit_of(c) != trumps] or cards
        masters = [c for c in side if is_master(c, view)]
        if masters:
            return max(masters, key=rank_of)
        return lowest(side, trumps)


def make_player(kind: str, game: Game) -> Player:
    """``"random"`` or ``"heuristic"``."""
    if kind == "random":
        return RandomPlayer()
    if kind == "heuristic":
        return HeuristicPlayer(game)
    raise ValueError(f"no player {kind!r} (random or heuristic)")


PLAYER_KINDS = ("random", "heuristic")


# --- card arithmetic shared by the heuristics --------------------------------------------------
def held(hand: Sequence[int], suit: int) -> int:
    return sum(1 for c in hand if suit_of(c) == suit)


def trick_estimate(hand: Sequence[int], trumps: int | None) -> float:
    """Likely tricks: top trumps in sequence count one each, other high trumps half, small
    trumps a third (they win by ruffing); side aces most of a trick, guarded kings a little."""
    tricks = 0.0
    for suit in SUITS:
        ranks = sorted((rank_of(c) for c in hand if suit_of(c) == suit), reverse=True)
        if suit == trumps:
            for i, r in enumerate(ranks):
                if r >= ACE - i:
                    tricks += 1.0
                elif r >= JACK:
                    tricks += 0.5
                else:
                    tricks += 0.35
        else:
            for i, r in enumerate(ranks):
                if r == ACE:
                    tricks += 0.8
                elif r == KING and len(ranks) >= 2 and i <= 1:
                    tricks += 0.4
    return tricks


def best_suit(hand: Sequence[int]) -> int:
    """The suit that would make the best trumps (ties: longer, then the lower suit)."""
    return max(SUITS, key=lambda s: (trick_estimate(hand, s), held(hand, s), -s))


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
    """The cheapest card to give away: a non-trump before a trump, then the lowest rank."""
    return min(cards, key=lambda c: (suit_of(c) == trumps, rank_of(c), c))


def beats(card: int, best: int, trumps: int) -> bool:
    """Whether ``card`` would take the lead of a trick now won by ``best`` (NAP-8.2.1)."""
    if suit_of(card) == suit_of(best):
        return rank_of(card) > rank_of(best)
    return suit_of(card) == trumps


def trick_winner(trick: Sequence[int], seats: Sequence[int], trumps: int) -> tuple[int, int]:
    """The card winning a trick so far, and who played it."""
    best, who = trick[0], seats[0]
    for card, seat in zip(trick[1:], seats[1:], strict=True):
        if beats(card, best, trumps):
            best, who = card, seat
    return best, who


def trick_seats(view: PlayerView) -> list[int]:
    """Who played each card of the current trick: the actors of the last plays."""
    seats: list[int] = []
    for actor, action in reversed(view.history):
        if len(seats) == len(view.trick):
            break
        if isinstance(action, Play):
            seats.append(actor)
    return seats[::-1]


def is_master(card: int, view: PlayerView) -> bool:
    """Whether every higher card of the suit has been played or is in the viewer's hand."""
    gone = set(view.hand) | set(view.trick)
    for trick in view.tricks:
        gone.update(trick.cards)
    suit = suit_of(card)
    return all(suit * 13 + r in gone for r in range(rank_of(card) + 1, 13))


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
             *, until: Callable[[_S], bool] | None = None) -> _S:
    """The hand or match ``state`` played to its end, or to the first state for which
    ``until`` is true (``state`` itself, if it already is).

    Chance's actions are drawn from ``rng`` (:meth:`~napkit.engine.hand.HandState.sample_chance`);
    the player to act chooses from its view, with ``rng``: ``players`` is one
    :class:`Player` for every seat or a sequence of them by seat. Without players, each
    choice is ``rng.choice(state.legal_actions())``, uniformly random. The same ``rng``
    state plays the same game.

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
    while not (state.is_over() or (until is not None and until(state))):
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        elif players is None:
            state = state.apply(rng.choice(state.legal_actions()))
        else:
            seat = state.turn
            player = players[seat] if isinstance(players, Sequence) else players
            state = state.apply(player.choose(seat_view(state, seat), rng))
    return state
