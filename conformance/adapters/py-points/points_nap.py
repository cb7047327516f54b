#!/usr/bin/env python3
"""points_nap: classic Nap kept on a score sheet in points, with the dealer stuck.

A small standalone Nap program, written as a third party would write one: it plays the house
game `points-stick` (spec/examples/house-points-stick.json: classic Nap, spec/rulesets/
classic.json, scored in points on a score sheet, first to 15, the dealer stuck) and speaks the
adapter protocol napkit-adapter/1 (spec/conformance.md part 2): one JSON object a line on
stdin, one back on stdout, in order.

It is written from the law book (spec/lawbook/*.toml), the rulesets and the formats
(spec/formats.md, spec/schemas), not from napkit's code, and imports nothing but Python's
standard library. Each rule it applies is marked with its law book id.

    python3 points_nap.py                               # correct
    python3 points_nap.py --bug defeated-off-declarer   # a defeat scored off the declarer
    python3 points_nap.py --bug target-off-by-one       # the match ends at the target + 1

The `--bug` flags plant an arithmetic bug in the score sheet, so that one can see napkit
catch it.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from dataclasses import dataclass, field
from typing import Any, NoReturn

PROTOCOL = "napkit-adapter/1"
NAME = "py-points"
VERSION = "1.0"
RULESET = "points-stick"

BUGS = ("defeated-off-declarer", "target-off-by-one")

# ---------------------------------------------------------------------------------------------
# The game: classic Nap (spec/rulesets/classic.json) as the house file changes it.

# Every option of classic, its choices, the default first. The house file changes none.
OPTIONS: dict[str, list[str]] = {
    "pack": ["52", "32", "28", "24"],  # NAP-2.2.1
    "small-pack": ["within-capacity", "full-pack-beyond"],  # NAP-2.2.2, DEC-002
    "packets": ["singly", "3-2", "2-3"],  # NAP-4.2.2, DEC-001
    "between-hands": ["gather-and-cut", "shuffle"],  # NAP-10.2.1
    "wellington-shuffle": ["nap-and-wellington", "nap-only"],  # NAP-10.2.1, DEC-003
    "throw-in-pack": ["gather-and-cut", "shuffle"],  # NAP-10.2.3, DEC-004
}

PLAYERS = [3, 4, 5, 6, 7]  # NAP-3.1.1

LOWEST_RANK = {"52": "2", "32": "7", "28": "8", "24": "9"}  # NAP-2.2.1
PACKETS = {"singly": [1, 1, 1, 1, 1], "3-2": [3, 2], "2-3": [2, 3]}  # NAP-4.2.2


@dataclass(frozen=True)
class Bid:
    id: str
    name: str
    tricks: int  # NAP-5.2.3
    points: int  # NAP-9.6.4: no points given, so the units its winner is paid by each opponent
    requires: tuple[tuple[str, ...], ...] = ()  # NAP-5.2.5


# NAP-5.2.2: classic's bids, lowest first.
BIDS = [
    Bid("three", "3", 3, 3),
    Bid("four", "4", 4, 4),
    Bid("nap", "Nap", 5, 5),
    Bid("wellington", "Wellington", 5, 10, (("nap",),)),
]
BID_RANK = {b.id: i for i, b in enumerate(BIDS)}

# NAP-10.2.1 (DEC-003): the made contracts after which the pack is shuffled.
SHUFFLE_AFTER_MADE = {"nap-and-wellington": {"nap", "wellington"}, "nap-only": {"nap"}}

# The house file: "scoring": {"sheet": "points", "made": "declarer",
# "defeated": "each-opponent", "target": 15}; "auction": {"dealer_must_bid": true}.
TARGET = 15

# ---------------------------------------------------------------------------------------------
# Cards (NAP-2.1.1): "10H"; ranks from 2 (0) up to the ace (12).

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# Card order: spades, hearts, diamonds, clubs, two up to ace in each (NAP-10.2.2).
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
CARD_ORDER = {c: i for i, c in enumerate(ALL_CARDS)}


def suit_of(card: str) -> str:
    return card[-1]


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1])


def pack_down_to(lowest: str) -> list[str]:
    """NAP-2.2.1: every card from the ace down to `lowest`, in all four suits."""
    floor = RANKS.index(lowest)
    return [c for c in ALL_CARDS if rank_of(c) >= floor]


# ---------------------------------------------------------------------------------------------
# Refusals and bad requests.


class IllegalActionError(Exception):
    """An action the rules do not allow (NAP-1.3), with the rule that forbids it."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(reason)
        self.rule = rule
        self.reason = reason


class BadRequestError(Exception):
    """A request this program cannot read: the message names the JSON path."""


def refuse(rule: str, reason: str) -> NoReturn:
    raise IllegalActionError(rule, reason)


def bad(message: str) -> NoReturn:
    raise BadRequestError(message)


# ---------------------------------------------------------------------------------------------
# The score sheet (NAP-9.6, NAP-10.4.4, NAP-10.4.5).


class ScoreSheet:
    """The points each seat has scored over a match, and the arithmetic of a hand's points."""

    def __init__(self, players: int, target: int | None, bug: str | None = None) -> None:
        self.totals = [0] * players
        self.target = target
        self.bug = bug

    def hand_points(self, players: int, seats: list[int], declarer: int | None, bid: Bid | None,
                    made: bool | None, stakes: int) -> list[int]:
        """The points each seat scores in one hand (NAP-9.6.2 to NAP-9.6.4)."""
        points = [0] * players
        if declarer is None or bid is None:
            return points  # NAP-9.6.4: a hand thrown in scores nobody anything
        worth = bid.points * stakes  # NAP-9.6.4: the bid's worth times the hand's stakes
        if made:
            points[declarer] += worth  # NAP-9.6.2: the declarer scores it
        elif self.bug == "defeated-off-declarer":
            points[declarer] -= worth  # planted bug: NAP-9.6.3's off-declarer, not this game's
        else:
            for seat in seats:  # NAP-9.6.3 each-opponent: every opponent scores it in full
                if seat != declarer:
                    points[seat] += worth
        return points

    def add(self, points: list[int]) -> None:
        """NAP-10.4.4: each hand's points are added to every player's score."""
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]

    def reached_target(self) -> bool:
        """NAP-10.4.5: some player's score is the target or more."""
        if self.target is None:
            return False
        target = self.target + 1 if self.bug == "target-off-by-one" else self.target
        return max(self.totals) >= target

    def winners(self) -> list[int]:
        """NAP-10.4.4: the highest score wins; players who tie share the win."""
        best = max(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]


# ---------------------------------------------------------------------------------------------
# The game at a table.


@dataclass
class Table:
    options: dict[str, str]
    players: int
    lowest: str
    pack: list[str]
    packets: list[int]
    usual: str  # NAP-10.2.1
    shuffle_after_made: set[str]  # NAP-10.2.1
    after_throw_in: str  # NAP-10.2.3


def table_for(options: dict[str, str], players: int) -> Table:
    """The game for these option choices at a table of `players` (NAP-2.2.1, NAP-2.2.2)."""
    lowest = LOWEST_RANK[options["pack"]]
    pack = pack_down_to(lowest)
    if len(pack) < 5 * players:
        if options["small-pack"] == "within-capacity":
            most = len(pack) // 5
            bad(f"$.players: the {len(pack)}-card pack deals five cards to at most {most} "
                f"players, not {players} (NAP-2.2.2, DEC-002)")
        lowest = "2"  # full-pack-beyond: the full pack for this table
        pack = pack_down_to(lowest)
    usual = options["between-hands"]
    return Table(
        options=options,
        players=players,
        lowest=lowest,
        pack=pack,
        packets=PACKETS[options["packets"]],
        usual=usual,
        shuffle_after_made=SHUFFLE_AFTER_MADE[options["wellington-shuffle"]],
        # With every deal shuffled, a redeal after a throw-in is shuffled too.
        after_throw_in="shuffle" if usual == "shuffle" else options["throw-in-pack"],
    )


def check_turn(turn: int | str, seat: int | None) -> None:
    """NAP-1.3.1: only the one to act (chance is None) may act."""
    expected = None if turn == "chance" else turn
    if seat != expected:
        who = "chance" if expected is None else f"seat {expected}"
        by = "chance" if seat is None else f"seat {seat}"
        refuse("NAP-1.3.1", f"it is {who}'s turn, not {by}'s")


def check_pack(pack: list[str], table: Table) -> None:
    """NAP-2.2.1: a pack must be exactly this table's pack, each card once."""
    if sorted(pack, key=CARD_ORDER.__getitem__) != table.pack:
        refuse("NAP-2.2.1", f"the pack for {table.players} players is the {len(table.pack)} "
                            f"cards from the ace down to the {table.lowest}s, each once")


def describe(action: dict[str, Any]) -> str:
    """An action in a few words, for a refusal's reason (a pack by its size)."""
    words = [action["type"]]
    for key, value in action.items():
        if key != "type":
            words.append(f"({len(value)} cards)" if isinstance(value, list) else str(value))
    return " ".join(words)


# ---------------------------------------------------------------------------------------------
# A hand (NAP-4 to NAP-9).


@dataclass
class Trick:
    leader: int
    winner: int
    cards: list[str]


@dataclass
class Hand:
    table: Table
    dealer: int
    stakes: int
    sheet: ScoreSheet
    pool: int = 0
    phase: str = "deal"  # deal, auction, play, over
    order: list[int] = field(default_factory=list)  # seats dealt in, from the dealer's left
    held: dict[int, list[str]] = field(default_factory=dict)
    stock: list[str] = field(default_factory=list)
    speaker: int = 0  # index into order during the auction
    bids_made: list[str] = field(default_factory=list)
    highest: tuple[int, Bid] | None = None
    trumps: str | None = None
    tricks: list[Trick] = field(default_factory=list)
    trick: list[tuple[int, str]] = field(default_factory=list)
    to_play: int = 0
    result: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        n = self.table.players
        # NAP-4.2.2, NAP-5.1.1: clockwise from the dealer's left, the dealer last.
        self.order = [(self.dealer + i) % n for i in range(1, n + 1)]

    # --- whose turn, and what is legal

    def turn(self) -> int | str:
        if self.phase == "deal":
            return "chance"
        if self.phase == "over":
            return "over"
        if self.phase == "auction":
            return self.order[self.speaker]
        return self.to_play

    def legal(self) -> list[dict[str, Any]]:
        if self.phase == "auction":
            bids = [{"type": "bid", "bid": b.id} for b in self.biddable()]
            return bids if self.stuck() else [{"type": "pass"}] + bids
        if self.phase == "play":
            return [{"type": "play", "card": c} for c in self.playable(self.to_play)]
        return []

    def biddable(self) -> list[Bid]:
        """NAP-5.2.1: above the highest so far; NAP-5.2.5: with its earlier bids made."""
        floor = -1 if self.highest is None else BID_RANK[self.highest[1].id]
        return [b for i, b in enumerate(BIDS) if i > floor and self.prerequisites_met(b)]

    def prerequisites_met(self, bid: Bid) -> bool:
        return all(any(i in self.bids_made for i in group) for group in bid.requires)

    def stuck(self) -> bool:
        """NAP-5.3.3: the last to speak, nobody having bid, must bid if any bid is open."""
        return (self.highest is None and self.speaker == len(self.order) - 1
                and bool(self.biddable()))

    def playable(self, seat: int) -> list[str]:
        """NAP-8.1.1, NAP-8.1.2: follow suit if one can; a leader leads anything (NAP-8.1.3)."""
        held = self.held[seat]
        if not self.trick:
            return list(held)
        led = suit_of(self.trick[0][1])
        follow = [c for c in held if suit_of(c) == led]
        return follow or list(held)

    # --- acting (NAP-1.3.4: the end, the turn, the kind of action, one's cards, the rest)

    def apply(self, seat: int | None, action: dict[str, Any]) -> None:
        if self.phase == "over":
            refuse("NAP-1.3.3", "the hand is over")
        check_turn(self.turn(), seat)
        if self.phase == "deal":
            if action["type"] != "deal":
                refuse("NAP-4.2.2", f"the cards are to be dealt, not {describe(action)}")
            check_pack(action["pack"], self.table)
            self.deal_from(action["pack"])
        elif self.phase == "auction":
            assert seat is not None
            self.call(seat, action)
        else:
            assert seat is not None
            self.play(seat, action)

    def deal_from(self, pack: list[str]) -> None:
        """NAP-4.2.2: from the top, clockwise from the dealer's left, in the packets' rounds."""
        self.held = {s: [] for s in self.order}
        top = 0
        for size in self.table.packets:
            for s in self.order:
                self.held[s].extend(pack[top:top + size])
                top += size
        self.stock = pack[top:]  # NAP-4.2.3
        self.phase = "auction"
        self.speaker = 0  # NAP-5.1.1

    def call(self, seat: int, action: dict[str, Any]) -> None:
        if action["type"] == "bid":
            if action["bid"] not in BID_RANK:
                refuse("NAP-5.2.2", f"{action['bid']!r} is not a bid of this game")
            bid = BIDS[BID_RANK[action["bid"]]]
            if self.highest is not None and BID_RANK[bid.id] <= BID_RANK[self.highest[1].id]:
                refuse("NAP-5.2.1", f"{bid.name} is not above {self.highest[1].name}")
            if not self.prerequisites_met(bid):
                refuse("NAP-5.2.5", f"{bid.name} needs an earlier bid")
            self.bids_made.append(bid.id)
            self.highest = (seat, bid)
        elif action["type"] == "pass":
            if self.stuck():
                refuse("NAP-5.3.3", "everyone else passed: the dealer must bid")
        else:
            refuse("NAP-5.2.1", f"seat {seat} is to pass or bid, not {describe(action)}")
        self.speaker += 1
        if self.speaker < len(self.order):
            return
        if self.highest is None:
            self.phase = "over"  # NAP-5.3.2: thrown in
            self.result = self.outcome(thrown_in=True)
            return
        self.phase = "play"  # NAP-5.3.1; NAP-7.2.1: the declarer leads
        self.to_play = self.highest[0]

    def play(self, seat: int, action: dict[str, Any]) -> None:
        if action["type"] != "play":
            rule = "NAP-8.1.1" if self.trick else ("NAP-8.1.3" if self.tricks else "NAP-7.2.1")
            refuse(rule, f"seat {seat} is to play a card, not {describe(action)}")
        card = action["card"]
        held = self.held[seat]
        if card not in held:
            refuse("NAP-1.3.2", f"seat {seat} does not hold {card}")
        if self.trick:
            led = suit_of(self.trick[0][1])
            if suit_of(card) != led and any(suit_of(c) == led for c in held):
                refuse("NAP-8.1.1", f"seat {seat} must follow {SUIT_NAMES[led]}")
        if self.trumps is None:
            self.trumps = suit_of(card)  # NAP-7.1.1: the first card led fixes trumps
        held.remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < len(self.order):
            self.to_play = self.order[(self.order.index(seat) + 1) % len(self.order)]
            return
        winner = self.trick_winner()
        self.tricks.append(Trick(self.trick[0][0], winner, [c for _, c in self.trick]))
        self.trick = []
        self.to_play = winner  # NAP-8.1.3
        if len(self.tricks) == 5:  # NAP-8.3.1
            self.phase = "over"
            self.result = self.outcome(thrown_in=False)

    def trick_winner(self) -> int:
        """NAP-8.2.1: the highest trump, else the highest card of the suit led."""
        led = suit_of(self.trick[0][1])

        def strength(card: str) -> tuple[int, int]:
            if suit_of(card) == self.trumps:
                return (2, rank_of(card))
            return (1, rank_of(card)) if suit_of(card) == led else (0, 0)

        return max(self.trick, key=lambda p: strength(p[1]))[0]

    def outcome(self, thrown_in: bool) -> dict[str, Any]:
        """NAP-8.3.2 and NAP-9.6.1: the points go on the sheet; no units change hands."""
        n = self.table.players
        if thrown_in:
            declarer, bid, won, made = None, None, 0, None
        else:
            assert self.highest is not None
            declarer, bid = self.highest
            won = sum(1 for t in self.tricks if t.winner == declarer)
            made = won >= bid.tricks  # NAP-5.2.3: more earns nothing more
        score = self.sheet.hand_points(n, self.order, declarer, bid, made, self.stakes)
        return {
            "thrown_in": thrown_in,
            "declarer": declarer,
            "contract": None if bid is None else bid.id,
            "declarer_tricks": won,
            "made": made,
            "trick_winners": [t.winner for t in self.tricks],
            "payments": [],
            "pool": self.pool,
            "net": [0] * n,
            "score": score,
            "tricks": [{"leader": t.leader, "winner": t.winner, "cards": list(t.cards)}
                       for t in self.tricks],
        }

    def gather(self) -> list[str]:
        """NAP-10.2.2: tricks in play order, cards still held by seat in card order, stock."""
        pack = [c for t in self.tricks for c in t.cards] + [c for _, c in self.trick]
        for s in self.order:
            pack += sorted(self.held[s], key=CARD_ORDER.__getitem__)
        return pack + self.stock


# ---------------------------------------------------------------------------------------------
# A match (NAP-4.1, NAP-10).


@dataclass
class Match:
    table: Table
    limit: int | None  # the hands agreed (NAP-10.1.1), or None
    sheet: ScoreSheet
    phase: str = "choose-dealer"  # choose-dealer, prepare, hand, over
    dealer: int = 0
    played: int = 0
    hand: Hand | None = None
    pack: list[str] = field(default_factory=list)  # as gathered after the last hand
    shuffle_next: bool = True  # NAP-10.2.1: the first deal follows a shuffle
    result: dict[str, Any] | None = None

    def turn(self) -> int | str:
        if self.phase == "hand":
            assert self.hand is not None
            return self.hand.turn()
        return "over" if self.phase == "over" else "chance"

    def legal(self) -> list[dict[str, Any]]:
        return self.hand.legal() if self.hand is not None else []

    def apply(self, seat: int | None, action: dict[str, Any]) -> None:
        if self.phase == "over":
            refuse("NAP-1.3.3", f"the match is over after {self.played} hands")
        if self.phase == "hand":
            assert self.hand is not None
            self.hand.apply(seat, action)
            if self.hand.phase == "over":
                self.after_hand()
            return
        check_turn("chance", seat)
        if self.phase == "choose-dealer":
            if action["type"] != "choose-dealer":
                refuse("NAP-4.1.1", f"the first dealer is to be chosen, not {describe(action)}")
            if action["seat"] >= self.table.players:
                refuse("NAP-4.1.1", f"no seat {action['seat']} at this table")
            self.dealer = action["seat"]
            self.phase = "prepare"
            return
        if self.shuffle_next:
            if action["type"] != "shuffle":
                refuse("NAP-10.2.1", f"the pack is to be shuffled, not {describe(action)}")
            check_pack(action["pack"], self.table)
            pack = action["pack"]
        else:
            if action["type"] != "cut":
                refuse("NAP-10.2.2", f"the pack is to be cut, not {describe(action)}")
            if action["at"] >= len(self.pack):
                refuse("NAP-10.2.2", "a cut leaves cards on both sides")
            pack = self.pack[action["at"]:] + self.pack[:action["at"]]
        self.hand = Hand(self.table, self.dealer, 1, self.sheet)
        self.hand.deal_from(pack)  # the shuffle or cut is the deal (spec/conformance.md 2.3)
        self.phase = "hand"

    def after_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.result is not None
        r = hand.result
        self.sheet.add(r["score"])  # NAP-10.4.4
        self.played += 1  # NAP-10.4.1: every deal counts, a thrown-in one too
        self.pack = hand.gather()
        t = self.table
        if r["thrown_in"]:
            self.shuffle_next = t.after_throw_in == "shuffle"  # NAP-10.2.3
        elif r["made"] and r["contract"] in t.shuffle_after_made:
            self.shuffle_next = True  # NAP-10.2.1
        else:
            self.shuffle_next = t.usual == "shuffle"
        self.dealer = (self.dealer + 1) % t.players  # NAP-4.1.2
        self.hand = None
        agreed_over = self.limit is not None and self.played >= self.limit  # NAP-10.4.1
        if agreed_over or self.sheet.reached_target():  # NAP-10.4.5
            self.phase = "over"
            self.result = {
                "balances": [0] * t.players,  # NAP-9.6.1: nobody paid anybody
                "pool": 0,
                "winners": self.sheet.winners(),  # NAP-10.4.4
                "hands": self.played,
                "out": [],
                "scores": list(self.sheet.totals),
            }
        else:
            self.phase = "prepare"


# ---------------------------------------------------------------------------------------------
# Reading requests (the schemas, checked by hand).


def is_whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def fields(obj: dict[str, Any], path: str, allowed: list[str]) -> None:
    for key in obj:
        if key not in allowed:
            bad(f"{path}.{key}: unexpected field")
    for key in allowed:
        if key not in obj:
            bad(f"{path}: missing field {key!r}")


def read_card(v: Any, path: str) -> str:
    if not isinstance(v, str) or v[:-1] not in RANKS or v[-1:] not in SUITS:
        bad(f"{path}: {json.dumps(v)} is not a card")
    return v


def read_cards(v: Any, path: str) -> list[str]:
    if not isinstance(v, list):
        bad(f"{path}: not an array of cards")
    cards = [read_card(c, f"{path}[{i}]") for i, c in enumerate(v)]
    if len(set(cards)) != len(cards):
        bad(f"{path}: a card appears twice")
    return cards


NO_FIELDS = {"pass", "peek", "take-widow", "leave-widow", "ante", "sit-out"}


def read_action(v: Any, path: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        bad(f"{path}: not an action object")
    kind = v.get("type")
    if kind in NO_FIELDS:
        fields(v, path, ["type"])
    elif kind == "bid":
        fields(v, path, ["type", "bid"])
        if not isinstance(v["bid"], str) or not v["bid"]:
            bad(f"{path}.bid: a bid is a non-empty string")
    elif kind in ("play", "discard"):
        fields(v, path, ["type", "card"])
        read_card(v["card"], f"{path}.card")
    elif kind == "buy":
        fields(v, path, ["type", "cards"])
        read_cards(v["cards"], f"{path}.cards")
    elif kind == "name-trumps":
        fields(v, path, ["type", "suit"])
        if v["suit"] not in SUIT_NAMES.values():
            bad(f"{path}.suit: not a suit")
    elif kind in ("deal", "shuffle"):
        fields(v, path, ["type", "pack"])
        read_cards(v["pack"], f"{path}.pack")
    elif kind == "reshuffle":
        fields(v, path, ["type", "stock"])
        read_cards(v["stock"], f"{path}.stock")
    elif kind == "choose-dealer":
        fields(v, path, ["type", "seat"])
        if not is_whole(v["seat"]) or v["seat"] < 0:
            bad(f"{path}.seat: not a seat")
    elif kind == "cut":
        fields(v, path, ["type", "at"])
        if not is_whole(v["at"]) or v["at"] < 1:
            bad(f"{path}.at: not a whole number from 1")
    else:
        bad(f"{path}.type: {json.dumps(kind)} is not an action type")
    return v


def read_table(req: dict[str, Any]) -> Table:
    if req.get("ruleset") != RULESET:
        bad(f"$.ruleset: this program plays only {RULESET!r}")
    if not isinstance(req.get("options"), dict):
        bad("$.options: an object of option name to choice")
    options = {name: choices[0] for name, choices in OPTIONS.items()}
    for name, choice in req["options"].items():
        if name not in OPTIONS:
            bad(f"$.options.{name}: no such option")
        if choice not in OPTIONS[name]:
            bad(f"$.options.{name}: no choice {json.dumps(choice)}")
        options[name] = choice
    if req.get("players") not in PLAYERS:
        bad("$.players: this game is played by 3 to 7 (NAP-3.1.1)")
    return table_for(options, req["players"])


# ---------------------------------------------------------------------------------------------
# The protocol (spec/conformance.md 2).


class Program:
    def __init__(self, bug: str | None) -> None:
        self.bug = bug
        self.game: Hand | Match | None = None

    def hello(self) -> dict[str, Any]:
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "name": NAME,
            "version": VERSION,
            "supports": {
                "kinds": ["legal", "illegal", "outcome", "match"],
                "rulesets": {RULESET: {"options": {k: list(v) for k, v in OPTIONS.items()},
                                       "players": PLAYERS}},
            },
        }

    def start_hand(self, req: dict[str, Any]) -> None:
        fields(req, "$", ["id", "type", "ruleset", "options", "players", "dealer", "seats",
                          "pool", "funds", "stakes"])
        table = read_table(req)
        n = table.players
        if not is_whole(req["dealer"]) or not 0 <= req["dealer"] < n:
            bad("$.dealer: not a seat of the table")
        if req["seats"] != list(range(n)):
            bad("$.seats: every seat is dealt in (classic has no sitting out)")
        if req["pool"] != 0:
            bad("$.pool: this game keeps no pool")
        if req["funds"] is not None:
            bad("$.funds: this game plays from no stock of chips")
        if not is_whole(req["stakes"]) or req["stakes"] < 1:
            bad("$.stakes: a whole number from 1")
        # A lone hand has its own sheet, with no target: only its points are asked.
        sheet = ScoreSheet(n, None, self.bug)
        self.game = Hand(table, req["dealer"], req["stakes"], sheet)

    def start_match(self, req: dict[str, Any]) -> None:
        fields(req, "$", ["id", "type", "ruleset", "options", "players", "hands", "chips"])
        table = read_table(req)
        hands = req["hands"]
        if hands is not None and (not is_whole(hands) or hands < 1):
            bad("$.hands: a whole number from 1, or null")
        # chips: no stock of chips here, so nothing to apply them to.
        self.game = Match(table, hands, ScoreSheet(table.players, TARGET, self.bug))

    def handle(self, req: Any) -> dict[str, Any]:
        if not isinstance(req, dict):
            bad("$: a request is a JSON object")
        kind = req.get("type")
        if kind == "hello":
            fields(req, "$", ["id", "type", "protocol"])
            if req["protocol"] != PROTOCOL:
                bad(f"$.protocol: this program speaks {PROTOCOL}")
            return self.hello()
        if kind == "start-hand":
            self.start_hand(req)
            return {"type": "ok"}
        if kind == "start-match":
            self.start_match(req)
            return {"type": "ok"}
        if kind == "bye":
            return {"type": "bye"}
        if kind not in ("legal", "apply", "outcome"):
            bad(f"$.type: {json.dumps(kind)} is not a request this program serves")
        if self.game is None:
            bad("$: no hand or match has been started")
        if kind == "legal":
            fields(req, "$", ["id", "type"])
            return {"type": "legal", "turn": self.game.turn(), "actions": self.game.legal()}
        if kind == "outcome":
            fields(req, "$", ["id", "type"])
            return {"type": "outcome", "outcome": self.game.result}
        fields(req, "$", ["id", "type", "seat", "action"])
        seat = req["seat"]
        if seat is not None and (not is_whole(seat) or seat < 0):
            bad("$.seat: a seat (a whole number from 0) or null")
        action = read_action(req["action"], "$.action")
        before = copy.deepcopy(self.game)
        try:
            self.game.apply(seat, action)
        except IllegalActionError as refusal:
            self.game = before  # a refused action changes nothing (spec/conformance.md 2.3)
            return {"type": "refused", "rule": refusal.rule, "reason": refusal.reason}
        return {"type": "accepted"}

    def respond(self, line: str) -> dict[str, Any]:
        try:
            req = json.loads(line, object_pairs_hook=no_twice, parse_float=no_float,
                             parse_constant=no_float)
        except (ValueError, BadRequestError) as e:
            return {"id": None, "type": "error", "message": f"$: not a request: {e}"}
        rid = req.get("id") if isinstance(req, dict) else None
        if not isinstance(rid, int) or isinstance(rid, bool) or not 0 <= rid < 2**53:
            return {"id": None, "type": "error", "message": "$.id: no request id"}
        try:
            return {"id": rid, **self.handle(req)}
        except BadRequestError as e:
            return {"id": rid, "type": "error", "message": str(e)}


def no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        bad("a key appears twice")
    return obj


def no_float(text: str) -> Any:
    bad(f"{text} is not a whole number")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bug", choices=BUGS, help="plant an arithmetic bug in the score sheet")
    program = Program(parser.parse_args().bug)
    while True:
        raw = sys.stdin.buffer.readline()
        if not raw:
            return
        line = raw.decode("utf-8", errors="replace")
        if not line.strip():
            continue
        answer = program.respond(line)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if answer["type"] == "bye":
            return


if __name__ == "__main__":
    main()
