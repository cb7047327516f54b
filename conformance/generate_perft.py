"""Write the published perft files, ``conformance/perft/RULESET.json`` (spec/conformance.md,
part 5): positions of every ruleset with their counts at several depths.

    python conformance/generate_perft.py                     # (re)write every file
    python conformance/generate_perft.py --ruleset classic   # one ruleset's file
    python conformance/generate_perft.py --out DIR           # write them under DIR instead

For each ruleset, :data:`GAMES` lists the games played: option choices that change what is
legal (the bids, the auction, the pack, the exchange, naming, the purchase) and several table
sizes. Each game's hands are dealt from the ruleset's own seeded random source and played by
a simple seeded player (:func:`choose`: random among the legal actions, bidding more often
than passing so that most hands reach the play); the positions are taken where each phase
begins (the first decision after the deal, an exchange, a discard, naming, the first lead, the
second trick; the last decision of a purchase; for the first game of each ruleset the fourth
trick, from where the walk meets the end of the hand), from as many hands as it takes to meet
each (:func:`hand_positions`). For each ruleset a match is played to its first decision and to
the fourth trick of its first hand, from where the walk meets chance's next shuffle or cut.

Each position's counts are the reference engine's (:func:`napkit.conform.perft.count.perft`), from
depth 1 up: a count of more than :data:`FAST` is marked ``slow`` (checked by
``benchmarks/perft.py`` and ``napkit perft --slow``, not the test suite), the first count of
more than :data:`SLOW` is not published, and the depths stop where no player is left to act
(every deeper count would be the same) or at :data:`MAX_DEPTH`.

Running this again gives byte-identical files: each ruleset's seed is fixed (written in its
file), keys are sorted and the layout is stable.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from napkit.conform.perft.count import (
    PERFT_FORMAT,
    Count,
    Position,
    describe,
    perft,
    read_published,
)
from napkit.engine.actions import PASS, Action, Bid, Buy, Peek
from napkit.engine.game import Game
from napkit.engine.hand import HandState, phases
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE, DISCARD, EXCHANGE, NAMING, PLAY, PURCHASE
from napkit.formats.values import action_to_json
from napkit.spec.catalog import default_spec

COMMAND = "python conformance/generate_perft.py"
HERE = Path(__file__).resolve().parent / "perft"
FAST = 5_000  # the largest count the test suite checks (the others are marked slow)
SLOW = 100_000  # the largest count published
MAX_DEPTH = 12  # the deepest count published
HANDS_TRIED = 40  # the hands played for a game's positions, at most

JSONObject = dict[str, Any]
State = HandState | MatchState

# Each ruleset's games: (a name, the options that differ from the defaults, the players). The
# first is the ruleset at its defaults; the others change what is legal: which bids there are
# and how the auction runs (napoleon's and peep's until-passes, pagat's Two, Misère and
# Blücher, pub-floater's raising round, the floater bids' prerequisites and forms), the pack
# and the deal (classic's 32 cards, pagat's reduced pack, the packets), the exchange (Dorset's
# Nap with the floater, pub-floater's optional exchange), naming (peep's any suit, the
# trumps of napoleon's Blücher and the misères) and the purchase (a reshuffled stock).
GAMES: dict[str, list[tuple[str, dict[str, str], int]]] = {
    "classic": [("default", {}, 3), ("default", {}, 5), ("pack-32", {"pack": "32"}, 4),
                ("packets-3-2", {"packets": "3-2"}, 4)],
    "napoleon": [("default", {}, 4), ("until-passes", {"auction": "until-passes"}, 3),
                 ("two-players", {"players": "two-to-ten"}, 2),
                 ("misery-lowest", {"misery-rank": "lowest", "trick-bids": "two-to-four",
                                    "misery-trumps": "none"}, 5),
                 ("blucher-lowest-card", {"blucher-trumps": "lowest-card-fixes-trumps",
                                          "wellington-lead": "named-then-lowest-trump"}, 4)],
    "pagat": [("default", {}, 4), ("two-mis-blucher", {"two": "on", "mis": "on",
                                                       "blucher": "on"}, 3),
              ("reduced", {"pack": "reduced"}, 5), ("default", {}, 7)],
    "pagat-purchase": [("default", {}, 3), ("reshuffle", {"short-stock": "reshuffle-discards"}, 9),
                       ("reduced-mis", {"pack": "reduced", "mis": "on"}, 4), ("default", {}, 10)],
    "pagat-floater": [("default", {}, 4), ("after-nap", {"floater-prerequisites": "after-nap"}, 3),
                      ("packets-2-3", {"packets": "2-3"}, 5)],
    "pagat-aylesbury": [("default", {}, 4),
                        ("after-nap", {"floater-prerequisites": "after-nap"}, 5)],
    "pagat-dorset": [("default", {}, 4), ("nap-with-and-without",
                                         {"dorset-nap": "with-and-without"}, 3),
                     ("nap-single-with", {"dorset-nap": "single-with"}, 5)],
    "pagat-teesside": [("default", {}, 4), ("without-only", {"teesside-forms": "without-only"}, 3),
                       ("mis-no-trumps", {"teesside-mis": "none"}, 5)],
    "peep": [("default", {}, 4), ("one-until-passes", {"lowest-bid": "one",
                                                      "auction": "until-passes"}, 3),
             ("any-suit", {"naming": "any-suit"}, 5), ("default", {}, 2)],
    "pub-floater": [("default", {}, 4), ("raising-everyone", {"raising": "everyone"}, 3),
                    ("may-exchange", {"floating-exchange": "may"}, 5),
                    ("seen-only", {"with-bids": "seen-only"}, 6)],
}
# Each ruleset's match: (a name, the options, the players, the agreed number of hands).
MATCHES: dict[str, list[tuple[str, dict[str, str], int, int | None]]] = {
    ruleset: [("default", {}, 4, 2)] for ruleset in GAMES
}
MATCHES["peep"].append(("may-sit-out", {"sit-out": "may-sit-out"}, 4, 2))

# Where a hand's phases begin, by name: the positions taken from each hand.
# (A purchase is a hand's first phase after the deal: its first decision is the "deal"
# position, and its last one "purchase-last".)
PHASE_POSITIONS = {EXCHANGE: "exchange", DISCARD: "discard", NAMING: "naming"}


def seed_of(ruleset: str) -> int:
    """The fixed seed of a ruleset's file."""
    return zlib.crc32(f"perft/{ruleset}".encode())


# --- playing ------------------------------------------------------------------------------------
def choose(state: State, rng: random.Random) -> Action:
    """The generator's player: at random among the legal actions, but in the auction a bid
    two times in three (a paid look now and then), so that most hands reach the play, and half
    of those the lowest bid allowed, so that low contracts (and those taking the widow, which
    rank below the same bid without it) are played too; buying no cards half the time in a
    purchase (buying is 31 choices in 32)."""
    legal = state.legal_actions()
    bids = [a for a in legal if isinstance(a, Bid)]
    if bids or PASS in legal:
        if any(isinstance(a, Peek) for a in legal) and rng.random() < 0.1:
            return next(a for a in legal if isinstance(a, Peek))
        if bids and rng.random() < 2 / 3:
            return bids[0] if rng.random() < 0.5 else rng.choice(bids)
        return PASS if PASS in legal else rng.choice(legal)
    if any(isinstance(a, Buy) for a in legal) and Buy(0) in legal and rng.random() < 0.5:
        return Buy(0)
    return rng.choice(legal)


def play(state: State, rng: random.Random, steps: list[JSONObject]
         ) -> Iterator[tuple[State, list[JSONObject]]]:
    """Play on from ``state``, adding each step to ``steps``; yield (the state, the steps so
    far) before every player's action, until the hand or match is over."""
    while not state.is_over():
        if state.turn == CHANCE:
            action: Action = state.sample_chance(rng)
            steps.append({"seat": None, "action": action_to_json(action)})
        else:
            yield state, list(steps)
            action = choose(state, rng)
            steps.append({"seat": state.turn, "action": action_to_json(action)})
        state = state.apply(action)


def _hand_of(state: State) -> HandState | None:
    return state.hand if isinstance(state, MatchState) else state


def hand_positions(game: Game, rng: random.Random, last_trick: bool
                   ) -> list[tuple[str, State, list[JSONObject], JSONObject]]:
    """The positions of ``game``'s hands: (kind, state, steps, start request), each kind once.
    Hands are dealt (the draws going on) until every kind wanted has been met or
    :data:`HANDS_TRIED` hands have been played: the first decision after the first deal; the
    first lead and the second trick, from the first hand that is not thrown in; the beginning of
    each later phase of the ruleset (an exchange, a discard, naming), from the first hand that
    has it; the last decision of a purchase, where the stock may run short; and with
    ``last_trick``, the fourth trick."""
    wanted = {"deal", "lead", "trick-2", *(["trick-4"] if last_trick else [])}
    present = set(phases(game.rules))
    wanted |= {kind for phase, kind in PHASE_POSITIONS.items()
               if phase in present or (phase == DISCARD and EXCHANGE in present)}
    if PURCHASE in present:
        wanted.add("purchase-last")
    found: list[tuple[str, State, list[JSONObject], JSONObject]] = []
    seen: set[str] = set()
    for _ in range(HANDS_TRIED):
        dealer = rng.randrange(game.players)
        start: JSONObject = {"type": "start-hand", "ruleset": game.id,
                             "options": dict(game.options), "players": game.players,
                             "dealer": dealer, "seats": list(range(game.players)), "pool": 0,
                             "funds": None, "stakes": 1}
        mine: dict[str, tuple[str, State, list[JSONObject], JSONObject]] = {}
        steps: list[JSONObject] = []
        for state, prefix in play(game.new_hand(dealer), rng, steps):
            hand = _hand_of(state)
            assert hand is not None
            kind = "deal" if not prefix[1:] else _kind(hand, last_trick)
            if kind is not None and kind not in mine:
                mine[kind] = (kind, state, prefix, start)
            if hand.phase == PURCHASE:
                mine["purchase-last"] = ("purchase-last", state, prefix, start)
        last = mine.get("purchase-last")
        if last is not None and last[2] == mine["deal"][2]:
            del mine["purchase-last"]  # the first decision was the only purchase
        for kind, entry in mine.items():
            if kind in wanted and kind not in seen and (
                    kind not in ("trick-2", "trick-4") or "lead" in mine):
                seen.add(kind)
                found.append(entry)
        if seen >= wanted:
            break
    if "lead" not in seen:
        raise SystemExit(f"{game.id}: every hand was thrown in")
    order = [*KIND_WORDS]
    return sorted(found, key=lambda entry: order.index(entry[0]))


def _kind(hand: HandState, last_trick: bool) -> str | None:
    """The kind of position ``hand`` is, if it is one to publish."""
    if hand.phase == PLAY and not hand.trick:
        if len(hand.tricks) == 3 and last_trick:
            return "trick-4"
        return {0: "lead", 1: "trick-2"}.get(len(hand.tricks))
    return PHASE_POSITIONS.get(hand.phase)


def match_positions(game: Game, hands: int | None, rng: random.Random
                    ) -> list[tuple[str, State, list[JSONObject], JSONObject]]:
    """A match's first decision, and the first lead of the fourth trick of the first hand
    that reaches it, from where the walk meets the chance step of the next deal."""
    start: JSONObject = {"type": "start-match", "ruleset": game.id,
                         "options": dict(game.options), "players": game.players,
                         "hands": hands, "chips": None}
    found: list[tuple[str, State, list[JSONObject], JSONObject]] = []
    steps: list[JSONObject] = []
    for state, prefix in play(new_match(game, hands=hands), rng, steps):
        hand = _hand_of(state)
        if not found:
            found.append(("match-first", state, prefix, start))
        elif hand is not None and hand.phase == PLAY and len(hand.tricks) == 3 and not hand.trick:
            found.append(("match-trick-4", state, prefix, start))
            return found
    return found


# --- counting -----------------------------------------------------------------------------------
def players_at(state: State, depth: int) -> int:
    """How many nodes ``depth`` actions below ``state`` have a player to act (0: the walk
    ends before it, and every deeper count is the same)."""
    if state.turn < 0:
        return 0
    if depth == 0:
        return 1
    return sum(players_at(state.apply(a), depth - 1) for a in state.legal_actions())


def counts(state: State) -> tuple[Count, ...]:
    """The counts published for a position (see the module's docstring)."""
    found: list[Count] = []
    for depth in range(1, MAX_DEPTH + 1):
        count = perft(state, depth)
        if count > SLOW:
            break
        found.append(Count(depth, count, slow=count > FAST))
        if count > FAST or players_at(state, depth) == 0:
            break
    return tuple(found)


# --- the files ----------------------------------------------------------------------------------
def _options_words(ruleset_id: str, changed: Mapping[str, str]) -> str:
    if not changed:
        return "default options"
    return ", ".join(f"{name} {choice}" for name, choice in sorted(changed.items()))


KIND_WORDS = {
    "deal": "the first decision after the deal",
    "purchase-last": "the last purchase of the hand, where the stock may be short",
    "exchange": "the declarer's exchange",
    "discard": "the declarer's discard",
    "naming": "the naming of trumps",
    "lead": "the first lead",
    "trick-2": "the first lead of the second trick",
    "trick-4": "the first lead of the fourth trick (the walk meets the end of the hand)",
    "match-first": "the first decision of a match, after the choice of dealer and the shuffle",
    "match-trick-4": ("the fourth trick of the match's first hand played out (the walk meets "
                      "chance's shuffle or cut of the next deal)"),
}


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def position(ruleset_id: str, name: str, changed: Mapping[str, str], kind: str, state: State,
             steps: list[JSONObject], start: JSONObject) -> Position:
    players = start["players"]
    where = ("a match" if start["type"] == "start-match" else
             f"a hand dealt by seat {start['dealer']}")
    chance = sum(1 for s in steps if s["seat"] is None)
    description = (f"{ruleset_id}, {_options_words(ruleset_id, changed)}, {players} players: "
                   f"{where}, {KIND_WORDS[kind]}; after {_n(len(steps), 'step')} ({chance} by "
                   f"chance), {describe(state)}. Counted by the reference engine ({COMMAND}).")
    return Position(f"{ruleset_id}/{name}-{players}p-{kind}", description, start, tuple(steps),
                    counts(state))


def ruleset_file(ruleset_id: str) -> JSONObject:
    """The published file of one ruleset."""
    ruleset = default_spec().rulesets[ruleset_id]
    defaults = {n: o.default for n, o in ruleset.options.items()}
    seed = seed_of(ruleset_id)
    rng = random.Random(seed)
    found: list[Position] = []
    for index, (name, changed, players) in enumerate(GAMES[ruleset_id]):
        game = Game.create(ruleset_id, players, {**defaults, **changed})
        for kind, state, steps, start in hand_positions(game, rng, last_trick=index == 0):
            found.append(position(ruleset_id, name, changed, kind, state, steps, start))
    for name, changed, players, hands in MATCHES[ruleset_id]:
        game = Game.create(ruleset_id, players, {**defaults, **changed})
        for kind, state, steps, start in match_positions(game, hands, rng):
            found.append(position(ruleset_id, name, changed, kind, state, steps, start))
    return {"format": PERFT_FORMAT, "ruleset": ruleset_id,
            "description": (f"Perft positions of {ruleset_id} with the number of legal action "
                            "sequences from each to several depths (spec/conformance.md part "
                            "5). A count marked slow is too long for a test suite."),
            "generated": {"by": COMMAND, "seed": seed},
            "positions": [p.to_json() for p in found]}


def dumps(doc: JSONObject) -> str:
    """A file as it is written: indented by one space, keys sorted, a newline at the end; a
    position's start request, options, each step and each count on one line."""
    return _layout(doc, 0, "") + "\n"


_ONE_LINE = {"start", "options", "steps[]", "perft[]"}


def _layout(value: Any, depth: int, key: str) -> str:
    inside = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    if key in _ONE_LINE or not any(isinstance(item, dict | list) for item in inside):
        return json.dumps(value, sort_keys=True, separators=(", ", ": "), ensure_ascii=False)
    pad = " " * (depth + 1)
    if isinstance(value, list):
        lines = [pad + _layout(item, depth + 1, key + "[]") for item in value]
        return "[\n" + ",\n".join(lines) + "\n" + " " * depth + "]"
    lines = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_layout(value[k], depth + 1, k)}"
             for k in sorted(value)]
    return "{\n" + ",\n".join(lines) + "\n" + " " * depth + "}"


def write(out: Path, rulesets: Sequence[str]) -> dict[str, int]:
    """Write the files of ``rulesets`` under ``out``; the number of positions of each."""
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    for ruleset_id in rulesets:
        doc = ruleset_file(ruleset_id)
        read_published(json.loads(dumps(doc)), f"{ruleset_id}.json")  # as napkit reads it
        (out / f"{ruleset_id}.json").write_text(dumps(doc), encoding="utf-8")
        written[ruleset_id] = len(doc["positions"])
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND, description="Write the published perft files (byte for byte the same "
                                  "every run).")
    parser.add_argument("--out", type=Path, default=HERE,
                        help="the folder of the files (default: conformance/perft)")
    parser.add_argument("--ruleset", action="append", choices=sorted(GAMES),
                        help="write this ruleset's file only (repeatable)")
    args = parser.parse_args(argv)
    missing = sorted(set(default_spec().rulesets) - set(GAMES))
    if missing:
        raise SystemExit(f"{COMMAND}: no games are listed for {', '.join(missing)}")
    written = write(args.out, args.ruleset or sorted(GAMES))
    print(f"wrote {sum(written.values())} positions under {args.out}: "
          + ", ".join(f"{r} {n}" for r, n in written.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
