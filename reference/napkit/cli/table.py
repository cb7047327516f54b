"""The terminal game table of ``napkit play``: the engine's players and a human at one table,
and what is printed of the game (each seat's cards when watching, the actions, the tricks,
each hand's result, what the human's seat may know at its turn).

The table is driven step by step (not with :func:`napkit.players.playout.play_out`): after each
action it prints what happened, and a human is asked again until the engine accepts an action.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from napkit.engine.actions import (
    Action,
    Ante,
    Bid,
    Buy,
    ChooseDealer,
    Deal,
    NameTrumps,
    Play,
    Reshuffle,
    SitOut,
)
from napkit.engine.cards import SUIT_NAMES, card_name
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.observation import Hidden, PlayerView
from napkit.engine.state import NO_TRUMPS, POOL
from napkit.errors import IllegalActionError
from napkit.formats.handtext import action_text
from napkit.formats.notation import NotationError, parse_action
from napkit.formats.recording import chance_rng, player_rng, record_text
from napkit.players.policy import make_player
from napkit.players.views import match_view
from napkit.players.views import trick_seats as _trick_seats
from napkit.spec.render import hand_text

_S = TypeVar("_S", HandState, MatchState)


class InputEndedError(Exception):
    """stdin ended while the human was to act."""


def _seat(seat: int) -> str:
    return "the pool" if seat == POOL else f"seat {seat}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _shown(action: Action) -> str:
    """An action as the table prints it, in a form the player may type back: trumps named
    by the suit (``name diamonds``, as the hand notation writes them), the rest in full."""
    return action_text(action) if isinstance(action, NameTrumps) else str(action)


def _legal_text(legal: Sequence[Action]) -> str:
    """The legal actions in a line: plays as their cards, purchases by how many may be bought."""
    plays = [a.card for a in legal if isinstance(a, Play)]
    buys = [a.cards.bit_count() for a in legal if isinstance(a, Buy)]
    if plays:
        return "play one of " + " ".join(card_name(c) for c in plays)
    if buys:
        most = max(buys)
        if most == 0:
            return "buy nothing"
        return f"buy up to {most} of your cards (buy 2C 7D), or buy nothing"
    return " | ".join(_shown(a) for a in legal)


# Numbers as the bids' ids and names spell them: 'bid 3' is the bid 'three'.
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five")


def _bid_key(text: str) -> str:
    """A bid as typed, as an id or as a name, in one spelling: lower case, words joined by
    '-', numbers as words ('Three' and '3' are 'three'; '4 with' is 'four-with')."""
    words = text.lower().replace("-", " ").split()
    return "-".join(_NUMBER_WORDS[int(w)] if w.isdigit() and int(w) < len(_NUMBER_WORDS)
                    else w for w in words)


def read_action(text: str, game: Game, legal: Sequence[Action]) -> Action:
    """What a player types at the table, read as the table shows actions (NAP-5.2.2: a bid by
    its id or its name, in words or figures: ``bid 3``, ``bid three``; trumps named by a suit
    alone: ``diamonds``, ``D``); :class:`NotationError` if it is no action. Whether the action
    is legal is the engine's to say."""
    bids = [bid.id for bid in game.rules.bids]
    words = text.split()
    if len(words) == 1 and any(isinstance(a, NameTrumps) for a in legal):
        try:
            return parse_action("name " + words[0])  # the suit alone, when trumps are named
        except NotationError:
            pass
    action = parse_action(text, bids)
    if isinstance(action, Bid) and action.bid not in game.bid_index:
        found = _bid_of(game, action.bid)
        if found is not None:
            return Bid(found)
    return action  # an unknown bid is the auction's to refuse, with its rule


def _bid_of(game: Game, typed: str) -> str | None:
    """The id of the game's bid that ``typed`` spells (by id or by name), if one does; an
    id is matched before a name."""
    spelled: dict[str, str] = {}
    for bid in game.rules.bids:
        spelled.setdefault(_bid_key(bid.id), bid.id)
    for bid in game.rules.bids:
        spelled.setdefault(_bid_key(bid.name), bid.id)
    return spelled.get(_bid_key(typed))


class Table:
    """One run of ``napkit play``: the engine's players, the human, and what is printed."""

    def __init__(self, game: Game, human: int | None, opponents: str, seed: int) -> None:
        self.game = game
        self.human = human
        # The seed's two sources, as napkit.formats.recording.play_table draws them: the
        # players draw from their own, so that a seed deals the same cards whichever players
        # play them, and 'napkit record' writes what 'napkit play --watch' shows.
        self.chance = chance_rng(seed)
        self.rng = player_rng(seed)
        self.players = [make_player(opponents, game) for _ in range(game.players)]
        self.scores = [0] * game.players  # what the human sees as the standings
        self.number = 0  # the hand being played, counting from 1
        self.played: list[HandState] = []  # the hands dealt on their own, finished
        self.final: MatchState | None = None  # the match, once over

    def say(self, line: str = "") -> None:
        print(line)

    # --- driving hands and matches -------------------------------------------------------
    def run(self, match: bool, hands: int | None) -> None:
        """A match (of ``hands`` hands, or to its end), or ``hands`` hands (default one)."""
        if match:
            self.match(hands)
        else:
            self.hands(hands or 1)

    def record_text(self, match: bool, notation: bool = False) -> str:
        """The record of what was played, as 'napkit record' writes it (with ``notation``, in
        the hand notation)."""
        if match:
            assert self.final is not None
            return record_text(self.final, notation=notation)
        return record_text(self.played, notation=notation)

    def hands(self, count: int) -> None:
        """Play ``count`` hands, each on its own (no pool carried), the deal passing left
        (NAP-4.1.2); a hand thrown in is dealt again by the next dealer, as at a table
        (NAP-5.3.2), and is not one of the ``count``."""
        n = self.game.players
        dealer = self.chance.randrange(n)  # the first dealer is found by chance (NAP-4.1.1)
        played = thrown = 0
        while played < count:
            state = self.game.new_hand(dealer)
            shown = 0
            while not state.is_over():
                if state.is_chance():
                    state = state.apply(state.sample_chance(self.chance))
                else:
                    seat = state.turn
                    state = self.act(seat, state.view(seat), state.apply)
                shown = self.events(state, shown)
            self.finish(state)
            self.played.append(state)  # the record keeps every hand dealt, thrown in or not
            dealer = (dealer + 1) % n
            assert state.result is not None
            if state.result.thrown_in:
                thrown += 1
                self.say(f"  dealt again by seat {dealer}")
            else:
                played += 1
        if count > 1 or thrown:
            redealt = f" ({thrown} thrown in and dealt again)" if thrown else ""
            self.say(f"after {count} hand{'s' if count != 1 else ''}{redealt}: " + ", ".join(
                f"seat {s} {_signed(t)}" for s, t in enumerate(self.scores)))

    def match(self, hands: int | None) -> None:
        m = new_match(self.game, hands)
        self.scores = list(m.balances)
        done, hand_shown, finished = 0, 0, 0
        while not m.is_over():
            self.scores = list(m.balances)  # antes and settled hands so far
            if m.is_chance():
                m = m.apply(m.sample_chance(self.chance))
            elif m.hand is not None:
                seat = m.turn
                m = self.act(seat, m.hand.view(seat), m.apply)
            else:
                seat = m.turn
                m = self.act(seat, match_view(m, seat), m.apply)
            for actor, action in m.history[done:]:
                self.match_event(actor, action, m)
            done = len(m.history)
            if len(m.hands) > finished:  # the hand just ended: the rest of it, and its result
                self.events(m.hands[-1], hand_shown)
                self.finish(m.hands[-1])
                finished, hand_shown = len(m.hands), 0
            if m.hand is not None:
                hand_shown = self.events(m.hand, hand_shown)
        self.final = m
        result = m.result
        assert result is not None
        self.say(f"match over after {result.hands} hand{'s' if result.hands != 1 else ''}")
        self.say("  balances: " + ", ".join(
            f"seat {s} {b if m.chips is not None else _signed(b)}"
            for s, b in enumerate(result.balances)))
        if self.game.rules.pool:
            self.say(f"  left in the {self.game.rules.pool_name}: {result.pool}")
        label = "winner" if len(result.winners) == 1 else "winners (tied)"
        self.say(f"  {label}: " + ", ".join(f"seat {s}" for s in result.winners))

    def act(self, seat: int, view: PlayerView, apply: Callable[[Action], _S]) -> _S:
        """The action of the seat to act, applied; a human is asked until the engine agrees."""
        if seat != self.human:
            return apply(self.players[seat].choose(view, self.rng))
        self.show(view)
        while True:
            print("> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                raise InputEndedError
            if line.strip() in ("?", "help"):
                self.show(view)
                continue
            try:
                return apply(read_action(line, self.game, view.legal_actions))
            except NotationError as exc:
                self.say(str(exc))
            except IllegalActionError as exc:
                self.say(f"not allowed: {exc}")

    # --- what is printed ------------------------------------------------------------------
    def events(self, state: HandState, shown: int) -> int:
        """Print the hand's actions from entry ``shown`` of its history; return how far."""
        history = state.history if self.human is None else state.view(self.human).history
        size = len(state.order)
        plays = sum(1 for _, a in history[:shown] if isinstance(a, Play))
        for actor, action in history[shown:]:
            kind = action.kind if isinstance(action, Hidden) else None
            if isinstance(action, Deal) or kind == "deal":
                self.deal(state)
            elif isinstance(action, Reshuffle) or kind == "reshuffle":
                self.say("  the discards are shuffled into a new stock")
            elif isinstance(action, Hidden):
                what = "a card" if action.kind == "discard" else f"{action.count} cards"
                self.say(f"  seat {actor}: {action.kind} {what}")
            else:
                self.say(f"  {self.who(actor)}: {_shown(action)}")
                if isinstance(action, Play):
                    plays += 1
                    if plays % size == 0 and plays // size <= len(state.tricks):
                        trick = state.tricks[plays // size - 1]
                        self.say(f"    trick {plays // size} to seat {trick.winner}")
        return len(history)

    def who(self, seat: int) -> str:
        return f"seat {seat} (you)" if seat == self.human else f"seat {seat}"

    def deal(self, state: HandState) -> None:
        self.number += 1
        rules = self.game.rules
        extra = f", {rules.pool_name} {state.pool}" if rules.pool else ""
        if state.stakes > 1:
            extra += f", stakes x{state.stakes}"
        seats = "" if len(state.order) == self.game.players else (
            ", dealt to seats " + " ".join(str(s) for s in state.order))
        self.say(f"hand {self.number}: seat {state.dealer} deals{seats}{extra}")
        if self.human is not None:
            return
        # Watching: every hand is open, as at a table where all the cards are shown.
        for seat in state.order:
            self.say(f"  seat {seat}: {hand_text(state.hand(seat))}")
        if state.widow >= 0:
            self.say(f"  {rules.widow_name}: {card_name(state.widow)}")

    def match_event(self, actor: int, action: Action, m: MatchState) -> None:
        if isinstance(action, ChooseDealer):
            self.say(f"first dealer: seat {action.seat}")
        elif isinstance(action, Ante | SitOut):
            self.say(f"  {self.who(actor)}: {action}")

    def finish(self, state: HandState) -> None:
        """The result of a settled hand: contract, made or defeated, tricks, payments."""
        result = state.result
        assert result is not None
        if result.thrown_in:
            self.say("result: thrown in: nobody bid")
        else:
            bid = self.game.rules.bids[self.game.bid_index[result.contract or ""]]
            outcome = "made" if result.made else "defeated"
            self.say(f"result: seat {result.declarer} bid {bid.name} ({bid.id}): {outcome}, "
                     f"{result.tricks} trick{'s' if result.tricks != 1 else ''} "
                     f"of {len(result.trick_winners)}")
        for p in result.payments:
            self.say(f"  {_seat(p.payer)} pays {_seat(p.payee)} {p.amount} ({p.rule})")
        pool = f"; {self.game.rules.pool_name} {result.pool}" if self.game.rules.pool else ""
        self.say("  net: " + ", ".join(
            f"seat {s} {_signed(d)}" for s, d in enumerate(result.net)) + pool)
        for s, d in enumerate(result.net):
            self.scores[s] += d

    def show(self, view: PlayerView) -> None:
        """What the human's seat may know now, and what it may do."""
        rules = self.game.rules
        self.say(f"--- seat {view.seat} (you) to act: {view.phase} ---")
        if view.hand or view.phase != "ante":
            self.say(f"your hand: {hand_text(view.hand)}")
        if view.widow is not None and view.widow_out:
            self.say(f"the {rules.widow_name}: {card_name(view.widow)}")
        elif view.widow_out:
            self.say(f"the {rules.widow_name}: face down")
        if view.contract is not None:
            bid = rules.bids[self.game.bid_index[view.contract]]
            trumps = ("not yet fixed" if view.trumps < 0 else
                      "none" if view.trumps == NO_TRUMPS else SUIT_NAMES[view.trumps])
            self.say(f"contract: {self.who(view.declarer)} bid {bid.name}; trumps: {trumps}")
            played = len(view.tricks)
            if played:
                self.say(f"tricks: declarer {view.declarer_tricks} of {played} "
                         f"({', '.join(f'seat {t.winner}' for t in view.tricks)})")
        if view.trick:
            seats = _trick_seats(view)
            self.say("trick so far: " + ", ".join(
                f"seat {s} {card_name(c)}" for s, c in zip(seats, view.trick, strict=True)))
        money = []
        if rules.pool:
            money.append(f"{rules.pool_name} {view.pool}")
        if view.funds is not None:  # chips held, this hand's payments already taken
            scores = list(view.funds)
        else:  # the standings before this hand, and what has been paid in it so far
            scores = list(self.scores)
            for p in view.payments:
                if p.payer >= 0:
                    scores[p.payer] -= p.amount
                if p.payee >= 0:
                    scores[p.payee] += p.amount
        shown = str if view.funds is not None else _signed
        money.append(("chips " if view.funds is not None else "scores ")
                     + ", ".join(f"seat {s} {shown(b)}" for s, b in enumerate(scores)))
        self.say("; ".join(money))
        self.say("you may: " + _legal_text(view.legal_actions))
