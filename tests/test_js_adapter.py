"""The independent JavaScript adapter (conformance/adapters/js-classic/adapter.js) against the
reference engine, through the adapter protocol napkit-adapter/1 (spec/conformance.md).

The adapter is a second implementation of the ``classic`` ruleset, with every choice of every
option, written in JavaScript from the law book. These tests run it under Node.js as the harness
would (one long-lived process, a JSON object a line each way) and compare every answer with
napkit's engine on random hands and matches under random option choices: whose turn it is and
the exact set of legal actions before every action, the refusal of actions the engine refuses
(with the same rule id), and the outcome of every hand and match. Every response is checked
against adapter.schema.json. Bad input must be answered with an error naming the problem, and
the program must go on serving. Finally `napkit conform --ruleset classic` runs the whole
classic suite on it: every case must pass, none skipped.
"""

from __future__ import annotations

import json
import queue
import random
import shutil
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from napkit import formats
from napkit.engine.actions import Action
from napkit.engine.cards import card_name, cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.rules import GameLike
from napkit.engine.state import CHANCE
from napkit.errors import IllegalActionError, SetupError
from napkit.formats.records import hand_outcome
from napkit.players.heuristic import HeuristicPlayer
from napkit.spec.catalog import default_spec
from napkit.spec.schemas import schema_problems

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "conformance" / "adapters" / "js-classic" / "adapter.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (the JavaScript adapter needs Node.js)")

JSON = dict[str, Any]
TIMEOUT = 10.0

# A response of the protocol (adapter.schema.json's $defs/response). Not the whole schema:
# there a bye response, {"id", "type": "bye"}, is also a bye request, so its top-level oneOf
# refuses it. napkit.spec.schemas checks it (jsonschema-rs's yes where installed) and says why
# it is refused.
RESPONSE = "adapter#/$defs/response"


CARDS = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                          "J", "Q", "K", "A")]

# Every option of classic and its choices, read from the ruleset (spec/rulesets/classic.json).
CLASSIC = Game.create("classic", 3)
OPTIONS: dict[str, list[str]] = {
    name: list(option.choices)
    for name, option in default_spec().rulesets["classic"].options.items()}


def classic(players: int, options: JSON | None = None) -> Game:
    return Game.create("classic", players, options or {})


def random_game(rng: random.Random, largest: bool = False) -> Game:
    """Classic with every option at a random choice, at a table its pack allows (the largest
    one when ``largest``, so that the reduced packs meet tables beyond them)."""
    options = {name: rng.choice(choices) for name, choices in OPTIONS.items()}
    allowed = classic(3, options).rules.players
    return classic(max(allowed) if largest else rng.choice(allowed), options)


def pack_of(game: GameLike) -> list[str]:
    """The cards of the pack the game's table is dealt from (NAP-2.2.1), in card order."""
    return [card_name(c) for c in cards_of(game.pack())]
# Actions of every type the schema knows, none of which classic ever allows except pass, the
# four bids and a play: each is tried where the engine refuses it.
PROBES: list[JSON] = [
    {"type": "pass"}, {"type": "peek"}, {"type": "take-widow"}, {"type": "leave-widow"},
    {"type": "ante"}, {"type": "sit-out"},
    *({"type": "bid", "bid": b} for b in ("three", "four", "nap", "wellington", "misere", "x")),
    {"type": "buy", "cards": []}, {"type": "discard", "card": "AS"},
    {"type": "name-trumps", "suit": "hearts"},
    {"type": "deal", "pack": CARDS}, {"type": "reshuffle", "stock": []},
    {"type": "choose-dealer", "seat": 0}, {"type": "shuffle", "pack": CARDS},
    {"type": "cut", "at": 1}, {"type": "cut", "at": 52}, {"type": "cut", "at": 24},
]


class Adapter:
    """The adapter under Node, spoken to as the harness does; every response schema-checked."""

    def __init__(self) -> None:
        assert NODE is not None
        self.proc = subprocess.Popen(
            [NODE, str(ADAPTER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send_line(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def receive(self) -> JSON:
        line = self.lines.get(timeout=TIMEOUT)
        assert line is not None, "the adapter exited"
        assert line.endswith("\n") and "\n" not in line[:-1]
        response = json.loads(line)
        assert isinstance(response, dict)
        assert schema_problems(RESPONSE, response) == [], response
        return response

    def ask(self, request: JSON) -> JSON:
        """Send a request (its id added) and return the response, which must repeat the id."""
        self.next_id += 1
        self.send_line(json.dumps({"id": self.next_id, **request}))
        response = self.receive()
        assert response["id"] == self.next_id, response
        return response

    def ok(self, request: JSON) -> JSON:
        response = self.ask(request)
        assert response["type"] != "error", (request, response)
        return response

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                self.ask({"type": "bye"})
            finally:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
        return self.proc.wait(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def adapter() -> Iterator[Adapter]:
    a = Adapter()
    hello = a.ok({"type": "hello", "protocol": "napkit-adapter/1"})
    assert hello["type"] == "hello"
    yield a
    assert a.close() == 0


def start_hand(players: int, dealer: int, options: JSON | None = None) -> JSON:
    return {"type": "start-hand", "ruleset": "classic", "options": options or {},
            "players": players, "dealer": dealer, "seats": list(range(players)), "pool": 0,
            "funds": None, "stakes": 1}


def start_match(game: Game, hands: int | None) -> JSON:
    return {"type": "start-match", "ruleset": "classic", "options": dict(game.options),
            "players": game.players, "hands": hands, "chips": None}


def canonical(actions: list[JSON]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def engine_legal(state: HandState | MatchState) -> list[str]:
    return canonical([formats.action_to_json(a) for a in state.legal_actions()])


def engine_refusal(state: HandState | MatchState, action: JSON) -> str | None:
    """The rule the engine refuses ``action`` for, or None if it accepts it."""
    try:
        state.apply(formats.action_from_json(action))
    except IllegalActionError as e:
        return e.rule
    return None


def probe(adapter: Adapter, state: HandState | MatchState, rng: random.Random,
          readings: Counter[tuple[str, str]]) -> None:
    """Try actions the engine refuses: the adapter must refuse them too, naming the same rule
    (or a known other reading), and stay where it was."""
    turn = state.turn
    seat = None if turn < 0 else turn
    pack = pack_of(state.game)
    outside = [c for c in CARDS if c not in pack]
    # The table's own pack short of a card, or with a card from outside it (a reduced pack).
    packs = [pack[1:], *([[*pack[1:], outside[0]]] if outside else [])]
    candidates = [*PROBES, *({"type": "play", "card": c} for c in rng.sample(CARDS, 10)),
                  *({"type": kind, "pack": p} for kind in ("deal", "shuffle") for p in packs)]
    before = adapter.ok({"type": "legal"})
    for action in candidates:
        engine = engine_refusal(state, action)
        if engine is None:
            continue
        answer = adapter.ok({"type": "apply", "seat": seat, "action": action})
        assert answer["type"] == "refused", (action, answer, engine)
        ours = answer["rule"]
        if ours != engine:
            readings[(engine, ours)] += 1
    # Out of turn (NAP-1.3.1): chance's action from a seat, a player's
    # from the wrong seat or from chance.
    if turn == CHANCE:
        action = formats.action_to_json(state.sample_chance(random.Random(0)))
        answer = adapter.ok({"type": "apply", "seat": 0, "action": action})
        assert (answer["type"], answer["rule"]) == ("refused", "NAP-1.3.1"), answer
    legal = state.legal_actions()
    if turn >= 0 and legal:
        action = formats.action_to_json(rng.choice(legal))
        for wrong in (None, (turn + 1) % state.game.players):
            answer = adapter.ok({"type": "apply", "seat": wrong, "action": action})
            assert (answer["type"], answer["rule"]) == ("refused", "NAP-1.3.1"), answer
    assert adapter.ok({"type": "legal"}) == {**before, "id": adapter.next_id}


def choose(state: HandState | MatchState, rng: random.Random) -> Action:
    """A legal action: the engine's heuristic player's half the time (so that contracts are
    made too), else a random one, passing half the time (so that hands are thrown in)."""
    hand = state.hand if isinstance(state, MatchState) else state
    assert hand is not None
    if rng.random() < 0.5:
        return HeuristicPlayer(hand.game).choose(hand.view(hand.turn), rng)
    legal = state.legal_actions()
    passes = [a for a in legal if formats.action_to_json(a)["type"] == "pass"]
    if passes and rng.random() < 0.5:
        return passes[0]
    return rng.choice(legal)


def play_and_compare(adapter: Adapter, state: HandState | MatchState, rng: random.Random,
                     readings: Counter[tuple[str, str]], script: tuple[JSON, ...] = (),
                     probes: float = 0.2) -> HandState | MatchState:
    """Play the hand or match to its end, comparing every answer with the engine: the actions
    of ``script`` first, then chance's draws and the players' choices; illegal actions are
    tried before a step with probability ``probes``."""
    todo = list(script)
    while not state.is_over():
        legal = adapter.ok({"type": "legal"})
        if state.turn == CHANCE:
            assert (legal["turn"], legal["actions"]) == ("chance", []), legal
            seat = None
        else:
            assert legal["turn"] == state.turn, (legal, state.turn)
            assert canonical(legal["actions"]) == engine_legal(state)
            seat = state.turn
        if todo:
            action: Action = formats.action_from_json(todo.pop(0))
        elif seat is None:
            action = state.sample_chance(rng)
        else:
            action = choose(state, rng)
        if rng.random() < probes:
            probe(adapter, state, rng, readings)
        assert adapter.ok({"type": "outcome"})["outcome"] is None
        answer = adapter.ok({"type": "apply", "seat": seat,
                             "action": formats.action_to_json(action)})
        assert answer["type"] == "accepted", (action, answer)
        state = state.apply(action)
    legal = adapter.ok({"type": "legal"})
    assert (legal["turn"], legal["actions"]) == ("over", [])
    probe(adapter, state, rng, readings)
    return state


def test_handshake_declares_every_choice_of_every_classic_option(adapter: Adapter) -> None:
    hello = adapter.ok({"type": "hello", "protocol": "napkit-adapter/1"})
    assert hello["protocol"] == "napkit-adapter/1" and hello["name"] == "js-classic"
    supports = hello["supports"]
    assert sorted(supports["kinds"]) == ["illegal", "legal", "match", "outcome"]
    assert list(supports["rulesets"]) == ["classic"]
    declared = supports["rulesets"]["classic"]
    # Every option of the ruleset, each with every one of its choices.
    assert declared["options"] == OPTIONS
    assert sorted(OPTIONS) == ["between-hands", "pack", "packets", "small-pack",
                               "throw-in-pack", "wellington-shuffle"]
    assert declared["players"] == list(CLASSIC.rules.players) == [3, 4, 5, 6, 7]


def test_the_tables_each_pack_serves_agree_with_the_engine(adapter: Adapter) -> None:
    """Under every pack and small-pack choice and at every table from 3 to 7, the adapter
    starts a hand or a match exactly where the engine can set the game up (NAP-2.2.2, DEC-002:
    a reduced pack too small for the table is refused, or the full pack stands in), and
    deals from the same pack: the engine's own pack is accepted, and a shuffle of it in a
    match."""
    refused = 0
    for pack in OPTIONS["pack"]:
        for small in OPTIONS["small-pack"]:
            options = {"pack": pack, "small-pack": small}
            for players in range(3, 8):
                try:
                    game: Game | None = classic(players, options)
                except SetupError:  # the engine: not among the players this pack allows
                    game = None
                answer = adapter.ask(start_hand(players, 0, options))
                match = adapter.ask({"type": "start-match", "ruleset": "classic",
                                     "options": options, "players": players, "hands": 1,
                                     "chips": None})
                if game is None:
                    refused += 1
                    for a in (answer, match):
                        assert a["type"] == "error" and a["message"].startswith("$.players"), a
                        assert "NAP-2.2.2" in a["message"], a
                    continue
                assert (answer["type"], match["type"]) == ("ok", "ok"), (answer, match)
                cards = pack_of(game)
                assert len(cards) == (52 if small == "full-pack-beyond" and 5 * players > int(pack)
                                      else int(pack))
                adapter.ok({"type": "apply", "seat": None,
                            "action": {"type": "choose-dealer", "seat": 0}})
                assert adapter.ok({"type": "apply", "seat": None,
                                   "action": {"type": "shuffle", "pack": cards[::-1]}}
                                  )["type"] == "accepted"
                adapter.ok(start_hand(players, 0, options))
                assert adapter.ok({"type": "apply", "seat": None,
                                   "action": {"type": "deal", "pack": cards}}
                                  )["type"] == "accepted"
    # 24 cards for 5, 6, 7; 28 for 6, 7; 32 for 7, under within-capacity.
    assert refused == 6


def stacked(game: Game, holder: int) -> list[str]:
    """The game's pack ordered so that, dealt in its packets from the dealer's left
    (NAP-4.2.2), it gives the five top spades to the ``holder``-th seat from there (0: the
    dealer's left)."""
    strong = ["AS", "KS", "QS", "JS", "10S"]
    rest = [c for c in pack_of(game) if c not in strong]
    random.Random(game.players).shuffle(rest)
    places: list[int] = []
    top = 0
    for size in game.rules.packets:
        places += range(top + holder * size, top + (holder + 1) * size)
        top += size * game.players
    assert len(places) == 5 and top == 5 * game.players
    return [strong.pop(0) if i in places else rest.pop() for i in range(top)] + rest


def test_random_hands_agree_with_the_engine(adapter: Adapter) -> None:
    """Hands under random choices of every option, at random tables the choices allow."""
    readings: Counter[tuple[str, str]] = Counter()
    seen: Counter[str] = Counter()
    choices: Counter[tuple[str, str]] = Counter()
    packs: Counter[tuple[str, int]] = Counter()
    for seed in range(160):
        rng = random.Random(seed)
        game = random_game(rng, largest=seed % 4 == 0)
        players = game.players
        choices.update(game.options.items())
        packs[(game.options["pack"], len(pack_of(game)))] += 1
        dealer = rng.randrange(players)
        state: HandState | MatchState = game.new_hand(dealer)
        assert adapter.ok(start_hand(players, dealer, dict(game.options)))["type"] == "ok"
        state = play_and_compare(adapter, state, rng, readings)
        assert isinstance(state, HandState)
        outcome = adapter.ok({"type": "outcome"})["outcome"]
        expected = hand_outcome(state)
        # Everything, the payments' rules and the tricks' cards included.
        assert outcome == expected, seed
        seen["thrown in" if expected["thrown_in"] else
             f"{expected['contract']} {'made' if expected['made'] else 'defeated'}"] += 1
    # Every choice of every option was played, and each reduced pack both at a table it
    # serves and, with full-pack-beyond, at one beyond it (the full pack stands in).
    assert {(name, c) for name, cs in OPTIONS.items() for c in cs} <= set(choices), choices
    for pack in ("52", "32", "28", "24"):
        assert packs[(pack, int(pack))] > 0, packs
    for pack in ("32", "28", "24"):
        assert packs[(pack, 52)] > 0, packs
    # The random play reached every kind of ending the hand has.
    for ending in ("thrown in", "three made", "three defeated", "four made",
                   "four defeated", "nap defeated", "wellington defeated"):
        assert seen[ending] > 0, (ending, seen)
    # And every refusal named the same rule. (The adapter, written from the law book, once
    # named other rules than the engine for a look in classic, a non-card at the lead and an
    # action in a thrown-in hand; the engine now names the adapter's, which are the law
    # book's: NAP-5.2.1, NAP-7.2.1/NAP-8.1.3, NAP-5.3.2.)
    assert not readings, readings


@pytest.mark.parametrize(("players", "contract", "dealer", "options"), [
    (3, "nap", 0, {}),
    (5, "wellington", 2, {"packets": "3-2"}),
    (7, "nap", 6, {"packets": "2-3", "pack": "24", "small-pack": "full-pack-beyond"}),
    (4, "wellington", 1, {"pack": "24", "packets": "2-3"}),
    (6, "nap", 3, {"pack": "32", "packets": "3-2"}),
])
def test_made_nap_and_wellington_agree_with_the_engine(adapter: Adapter, players: int,
                                                       contract: str, dealer: int,
                                                       options: JSON) -> None:
    """Random play seldom makes a Nap or a Wellington: stack the deal for the declarer."""
    game = classic(players, options)
    bids: list[JSON] = [{"type": "bid", "bid": "nap"}]
    if contract == "wellington":
        bids.append({"type": "bid", "bid": "wellington"})
    holder = len(bids) - 1
    bids += [{"type": "pass"}] * (players - len(bids))
    script = ({"type": "deal", "pack": stacked(game, holder)}, *bids)
    adapter.ok(start_hand(players, dealer, options))
    state = play_and_compare(adapter, game.new_hand(dealer),
                             random.Random(players), Counter(), script, 0.5)
    assert isinstance(state, HandState)
    outcome = adapter.ok({"type": "outcome"})["outcome"]
    assert outcome == hand_outcome(state)
    assert outcome["contract"] == contract
    assert outcome["declarer"] == (dealer + 1 + holder) % players
    assert outcome["made"] is True and outcome["declarer_tricks"] == 5, outcome


def preparations(match: MatchState) -> list[tuple[str, str]]:
    """How the pack was made ready before each deal after the first ("shuffle" or "cut"), with
    what the hand before came to ("thrown in" or "played")."""
    kinds = [kind for _, action in match.history
             if (kind := formats.action_to_json(action)["type"]) in ("shuffle", "cut")]
    assert kinds[:1] == ["shuffle"], kinds  # NAP-10.2.1: the first deal's pack is shuffled
    before = ["thrown in" if h.result is not None and h.result.thrown_in else "played"
              for h in match.hands]
    return list(zip(before, kinds[1:], strict=False))


def test_random_matches_agree_with_the_engine(adapter: Adapter) -> None:
    """Matches under random choices of every option: the pack shuffled, or gathered and cut,
    as the options and the hand before say (NAP-10.2.1, NAP-10.2.3)."""
    readings: Counter[tuple[str, str]] = Counter()
    choices: Counter[tuple[str, str]] = Counter()
    # (between-hands, throw-in-pack, the hand before, how the pack was made ready)
    made_ready: Counter[tuple[str, str, str, str]] = Counter()
    # 72 matches: enough thrown-in hands of each kind below since the engine's players bid as
    # tables do (issue 30: a quarter of hands thrown in, where 48 matches had had enough)
    for seed in range(72):
        rng = random.Random(1000 + seed)
        game = random_game(rng, largest=seed % 4 == 0)
        choices.update(game.options.items())
        hands = rng.randint(1, 8)
        match: HandState | MatchState = new_match(game, hands=hands)
        assert adapter.ok(start_match(game, hands))["type"] == "ok"
        match = play_and_compare(adapter, match, rng, readings)
        assert isinstance(match, MatchState) and match.result is not None
        for before, kind in preparations(match):
            made_ready[(game.options["between-hands"], game.options["throw-in-pack"],
                        before, kind)] += 1
        result = match.result
        outcome = adapter.ok({"type": "outcome"})["outcome"]
        assert outcome == {"balances": list(result.balances), "pool": result.pool,
                           "winners": list(result.winners), "hands": result.hands,
                           "out": []}, seed
    assert not readings, readings
    assert {(name, c) for name, cs in OPTIONS.items() for c in cs} <= set(choices), choices
    # Gathered and cut after played hands and thrown-in ones; shuffled after a throw-in with
    # throw-in-pack 'shuffle' (DEC-004), and after every hand with between-hands 'shuffle'.
    for throw_in in OPTIONS["throw-in-pack"]:
        assert made_ready[("gather-and-cut", throw_in, "played", "cut")] > 5, made_ready
        assert made_ready[("shuffle", throw_in, "played", "shuffle")] > 0, made_ready
        assert made_ready[("shuffle", throw_in, "thrown in", "shuffle")] > 0, made_ready
    assert made_ready[("gather-and-cut", "gather-and-cut", "thrown in", "cut")] > 5, made_ready
    assert made_ready[("gather-and-cut", "shuffle", "thrown in", "shuffle")] > 5, made_ready
    # And never otherwise.
    wrong = {("gather-and-cut", "gather-and-cut", "thrown in", "shuffle"),
             ("gather-and-cut", "shuffle", "thrown in", "cut")}
    assert not wrong & set(made_ready), made_ready


@pytest.mark.parametrize(("players", "contract", "options", "then"), [
    (3, "nap", {}, "shuffle"),
    (4, "wellington", {}, "shuffle"),
    (6, "nap", {"pack": "32", "packets": "3-2"}, "shuffle"),
    (7, "wellington", {"packets": "2-3"}, "shuffle"),
    # DEC-003's other reading: only a made Nap brings a shuffle.
    (3, "nap", {"wellington-shuffle": "nap-only", "pack": "28"}, "shuffle"),
    (4, "wellington", {"wellington-shuffle": "nap-only"}, "cut"),
    (5, "wellington", {"wellington-shuffle": "nap-only", "pack": "24",
                       "small-pack": "full-pack-beyond", "packets": "3-2"}, "cut"),
    # Shuffled before every deal anyway.
    (5, "wellington", {"wellington-shuffle": "nap-only", "between-hands": "shuffle"},
     "shuffle"),
])
def test_a_made_nap_or_wellington_brings_a_shuffle(adapter: Adapter, players: int,
                                                   contract: str, options: JSON,
                                                   then: str) -> None:
    """The pack is shuffled after a made Nap or Wellington (NAP-10.2.1, DEC-003), or after a
    made Nap only (nap-only), and otherwise made ready as usual: the first hand is stacked for
    the declarer; illegal preparations (a cut for a shuffle, a shuffle for a cut) are tried at
    every step."""
    readings: Counter[tuple[str, str]] = Counter()
    game = classic(players, options)
    dealer = players - 1
    bids: list[JSON] = [{"type": "bid", "bid": "nap"}]
    if contract == "wellington":
        bids.append({"type": "bid", "bid": "wellington"})
    holder = len(bids) - 1  # the last bidder, seat (dealer + 1 + holder) % players
    bids += [{"type": "pass"}] * (players - len(bids))
    script: tuple[JSON, ...] = ({"type": "choose-dealer", "seat": dealer},
                                {"type": "shuffle", "pack": stacked(game, holder)}, *bids)
    match: HandState | MatchState = new_match(game, hands=4)
    adapter.ok(start_match(game, 4))
    match = play_and_compare(adapter, match, random.Random(players), readings, script, 1.0)
    assert not readings, readings
    assert isinstance(match, MatchState) and match.result is not None
    first = match.hands[0].result
    assert first is not None and first.contract == contract and first.made
    kinds = [formats.action_to_json(a)["type"] for _, a in match.history]
    assert kinds[:3] == ["choose-dealer", "shuffle", then], kinds
    outcome = adapter.ok({"type": "outcome"})["outcome"]
    assert outcome["balances"] == list(match.result.balances)


def test_a_match_of_unagreed_length_never_ends(adapter: Adapter) -> None:
    """Classic's match ends when the players agree (NAP-10.4.1): with no number of hands, the
    outcome stays null however many hands are played."""
    rng = random.Random(7)
    match: HandState | MatchState = new_match(Game.create("classic", 4))
    adapter.ok({"type": "start-match", "ruleset": "classic", "options": {}, "players": 4,
                "hands": None, "chips": None})
    assert isinstance(match, MatchState)
    while match.played < 6:
        action = match.sample_chance(rng) if match.turn == CHANCE else choose(match, rng)
        seat = None if match.turn == CHANCE else match.turn
        answer = adapter.ok({"type": "apply", "seat": seat,
                             "action": formats.action_to_json(action)})
        assert answer["type"] == "accepted"
        match = match.apply(action)
    assert adapter.ok({"type": "outcome"})["outcome"] is None
    assert adapter.ok({"type": "legal"})["turn"] == "chance"


BAD_LINES = [
    ("not json", "not JSON"),
    ("[1, 2]", "$: a request is a JSON object"),
    ('{"type": "legal"}', "$.id"),
    ('{"id": -1, "type": "legal"}', "$.id"),
    ('{"id": 1.5, "type": "legal"}', "$.id"),
    ('{"id": 1, "type": "dance"}', "$.type"),
    ('{"id": 1, "type": "hello", "protocol": "napkit-adapter/2"}', "$.protocol"),
    ('{"id": 1, "type": "legal", "extra": 1}', "$.extra"),
    ('{"id": 1, "type": "start-hand", "ruleset": "pagat", "options": {}, "players": 3, '
     '"dealer": 0, "seats": [0, 1, 2], "pool": 0, "funds": null, "stakes": 1}', "$.ruleset"),
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {"pack": "20"}, '
     '"players": 3, "dealer": 0, "seats": [0, 1, 2], "pool": 0, "funds": null, "stakes": 1}',
     "$.options.pack"),
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {"packets": 5}, '
     '"players": 3, "dealer": 0, "seats": [0, 1, 2], "pool": 0, "funds": null, "stakes": 1}',
     "$.options.packets"),
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {"pack": "24"}, '
     '"players": 5, "dealer": 0, "seats": [0, 1, 2, 3, 4], "pool": 0, "funds": null, '
     '"stakes": 1}', "$.players"),
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {"nope": "x"}, '
     '"players": 3, "dealer": 0, "seats": [0, 1, 2], "pool": 0, "funds": null, "stakes": 1}',
     "$.options.nope"),
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {}, "players": 8, '
     '"dealer": 0, "seats": [0, 1, 2], "pool": 0, "funds": null, "stakes": 1}', "$.players"),
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {}, "players": 3, '
     '"dealer": 3, "seats": [0, 1, 2], "pool": 0, "funds": null, "stakes": 1}', "$.dealer"),
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {}, "players": 3, '
     '"dealer": 0, "seats": [0, 1, 2], "pool": 0, "funds": null}', "stakes"),
    ('{"id": 1, "type": "start-match", "ruleset": "classic", "options": {}, "players": 3, '
     '"hands": 0, "chips": null}', "$.hands"),
    ('{"id": 1, "type": "apply", "seat": 0, "action": {"type": "play", "card": "1S"}}',
     "$.action.card"),
    ('{"id": 1, "type": "apply", "seat": 0, "action": {"type": "fly"}}', "$.action.type"),
    ('{"id": 1, "type": "apply", "seat": 0, "action": {"type": "pass", "x": 0}}',
     "$.action.x"),
    ('{"id": 1, "type": "apply", "seat": null, "action": {"type": "deal", '
     '"pack": ["AS", "AS"]}}', "$.action.pack[1]"),
    ('{"id": 1, "type": "apply", "seat": "0", "action": {"type": "pass"}}', "$.seat"),
    ('{"id": 1, "type": "apply", "seat": 0}', "action"),
    ('{"id": 1e999, "type": "legal"}', "$.id"),
    ("[" * 100000 + "]" * 100000, ""),
]


def test_bad_input_is_answered_with_an_error_and_the_program_goes_on() -> None:
    a = Adapter()
    try:
        for line, where in BAD_LINES:
            a.send_line(line)
            answer = a.receive()
            assert answer["type"] == "error", (line[:80], answer)
            assert where in answer["message"], (line[:80], answer)
        # Before any start, the game requests are errors too; a refusal is not an error.
        for request in ({"type": "legal"}, {"type": "outcome"},
                        {"type": "apply", "seat": None, "action": {"type": "pass"}}):
            answer = a.ask(request)
            assert answer["type"] == "error" and "no hand or match" in answer["message"]
        a.ok(start_hand(3, 0))
        # A bad start leaves the hand that was started as it was.
        assert a.ask({**start_hand(3, 0), "players": 9})["type"] == "error"
        assert a.ok({"type": "legal"})["turn"] == "chance"
        a.send_line("")  # a blank line is no request: nothing is answered
        assert a.ok({"type": "hello", "protocol": "napkit-adapter/1"})["type"] == "hello"
    finally:
        assert a.close() == 0
        assert a.proc.stderr is not None
        assert a.proc.stderr.read() == ""


def test_bye_ends_the_program_and_end_of_input_too() -> None:
    a = Adapter()
    # A request after bye is never answered.
    a.send_line(json.dumps({"id": 5, "type": "bye"}) + "\n"
                + json.dumps({"id": 6, "type": "legal"}))
    assert a.receive() == {"id": 5, "type": "bye"}
    assert a.proc.wait(timeout=TIMEOUT) == 0
    assert a.lines.get(timeout=TIMEOUT) is None
    b = Adapter()
    assert b.proc.stdin is not None
    b.proc.stdin.close()
    assert b.proc.wait(timeout=TIMEOUT) == 0


SUITE = ROOT / "conformance" / "cases"


def test_napkit_conform_passes_every_classic_case_and_skips_none(tmp_path: Path) -> None:
    """`napkit conform --ruleset classic -- node adapter.js`: every case of the classic suite,
    under every option choice, is run and passes; none is skipped."""
    assert NODE is not None
    cases = sorted(SUITE.glob("classic/*/*.json"))
    assert len(cases) >= 311, len(cases)
    report_path = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, "-m", "napkit", "conform", "--ruleset", "classic", "-q",
         "--json", str(report_path), "--", NODE, str(ADAPTER)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1].startswith("ok: "), run.stdout
    report = json.loads(report_path.read_text(encoding="utf-8"))
    totals = {k: v for k, v in report["totals"].items() if k != "seconds"}
    assert totals == {"cases": len(cases), "selected": len(cases), "passed": len(cases),
                      "failed": 0, "skipped": 0, "xfail": 0, "xpass": 0,
                      "rule_not_named": 0, "not_run": 0}, report["totals"]
    assert sorted(case["id"] for case in report["cases"]) == sorted(
        path.relative_to(SUITE).with_suffix("").as_posix() for path in cases)
    assert {case["status"] for case in report["cases"]} == {"passed"}
    # The suite sets every choice of every option somewhere.
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in cases]
    assert {(name, c) for name, cs in OPTIONS.items() for c in cs} <= {
        item for d in documents for item in d["options"].items()}
