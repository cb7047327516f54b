"""The independent JavaScript adapter (conformance/adapters/js-classic/adapter.js) against the
reference engine, through the adapter protocol napkit-adapter/1 (spec/conformance.md).

The adapter is a second implementation of the ``classic`` ruleset, written in JavaScript from
the law book. These tests run it under Node.js as the harness would (one long-lived process,
a JSON object a line each way) and compare every answer with napkit's engine on random hands
and matches: whose turn it is and the exact set of legal actions before every action, the
refusal of actions the engine refuses (with the same rule id), and the outcome of every hand
and match. Every response is checked against adapter.schema.json. Bad input must be answered
with an error naming the problem, and the program must go on serving.
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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from napkit import formats
from napkit.actions import Action
from napkit.errors import IllegalActionError
from napkit.game import Game
from napkit.match import MatchState, new_match
from napkit.observation import player_view
from napkit.players import HeuristicPlayer
from napkit.records import hand_outcome
from napkit.schemas import registry
from napkit.state import CHANCE, HandState

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "conformance" / "adapters" / "js-classic" / "adapter.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (the JavaScript adapter needs Node.js)")

JSON = dict[str, Any]
TIMEOUT = 10.0

# A response of the protocol (adapter.schema.json's $defs/response). Not the whole schema:
# there a bye response, {"id", "type": "bye"}, is also a bye request, so its top-level oneOf
# refuses it.
RESPONSE_SCHEMA = {"$ref": "https://napkit.dev/schemas/adapter.schema.json#/$defs/response"}
RESPONSE = Draft202012Validator(RESPONSE_SCHEMA, registry=registry())


def _fast_response_check() -> Callable[[Any], bool]:
    """jsonschema-rs's yes/no on a response (some hundred times as fast), where installed;
    jsonschema says why when it says no."""
    try:
        import jsonschema_rs
    except ImportError:
        return lambda response: False
    documents = [json.loads(path.read_text(encoding="utf-8"))
                 for path in sorted((ROOT / "spec" / "schemas").glob("*.schema.json"))]
    rs_registry = jsonschema_rs.Registry([(d["$id"], d) for d in documents])
    is_valid: Callable[[Any], bool] = jsonschema_rs.Draft202012Validator(
        RESPONSE_SCHEMA, registry=rs_registry).is_valid
    return is_valid


RESPONSE_IS_VALID = _fast_response_check()

CARDS = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                          "J", "Q", "K", "A")]
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
    {"type": "cut", "at": 1}, {"type": "cut", "at": 52},
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
        if not RESPONSE_IS_VALID(response):
            problems = [e.message for e in RESPONSE.iter_errors(response)]
            assert not problems, (response, problems)
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


def start_hand(players: int, dealer: int) -> JSON:
    return {"type": "start-hand", "ruleset": "classic", "options": {}, "players": players,
            "dealer": dealer, "seats": list(range(players)), "pool": 0, "funds": None,
            "stakes": 1}


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
    candidates = [*PROBES, *({"type": "play", "card": c} for c in rng.sample(CARDS, 10))]
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
    # Out of turn (NAP-1.2.1, as the suite names it): chance's action from a seat, a player's
    # from the wrong seat or from chance.
    if turn == CHANCE:
        action = formats.action_to_json(state.sample_chance(random.Random(0)))
        answer = adapter.ok({"type": "apply", "seat": 0, "action": action})
        assert (answer["type"], answer["rule"]) == ("refused", "NAP-1.2.1"), answer
    legal = state.legal_actions()
    if turn >= 0 and legal:
        action = formats.action_to_json(rng.choice(legal))
        for wrong in (None, (turn + 1) % state.game.players):
            answer = adapter.ok({"type": "apply", "seat": wrong, "action": action})
            assert (answer["type"], answer["rule"]) == ("refused", "NAP-1.2.1"), answer
    assert adapter.ok({"type": "legal"}) == {**before, "id": adapter.next_id}


def choose(state: HandState | MatchState, rng: random.Random) -> Action:
    """A legal action: the engine's heuristic player's half the time (so that contracts are
    made too), else a random one, passing half the time (so that hands are thrown in)."""
    hand = state.hand if isinstance(state, MatchState) else state
    assert hand is not None
    if rng.random() < 0.5:
        return HeuristicPlayer(hand.game).choose(player_view(hand, hand.turn), rng)
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


def test_handshake_declares_classic_at_its_defaults(adapter: Adapter) -> None:
    hello = adapter.ok({"type": "hello", "protocol": "napkit-adapter/1"})
    assert hello["protocol"] == "napkit-adapter/1" and hello["name"] == "js-classic"
    supports = hello["supports"]
    assert sorted(supports["kinds"]) == ["illegal", "legal", "match", "outcome"]
    assert list(supports["rulesets"]) == ["classic"]
    game = Game.create("classic", 3)
    declared = supports["rulesets"]["classic"]
    # Every option of the ruleset, each with its default choice only.
    assert declared["options"] == {name: [choice] for name, choice in game.options.items()}
    assert declared["players"] == list(game.rules.players)


def stacked(players: int, holder: int) -> list[str]:
    """A pack that, dealt singly from the dealer's left (NAP-4.2.2), gives the five top spades
    to the ``holder``-th seat from there (0: the dealer's left)."""
    strong = ["AS", "KS", "QS", "JS", "10S"]
    rest = [c for c in CARDS if c not in strong]
    random.Random(players).shuffle(rest)
    return [strong[i // players] if i % players == holder else rest.pop()
            for i in range(5 * players)] + rest


def test_random_hands_agree_with_the_engine(adapter: Adapter) -> None:
    readings: Counter[tuple[str, str]] = Counter()
    seen: Counter[str] = Counter()
    for seed in range(160):
        rng = random.Random(seed)
        players = rng.choice([3, 4, 5, 6, 7])
        dealer = rng.randrange(players)
        state: HandState | MatchState = Game.create("classic", players).new_hand(dealer)
        assert adapter.ok(start_hand(players, dealer))["type"] == "ok"
        state = play_and_compare(adapter, state, rng, readings)
        assert isinstance(state, HandState)
        outcome = adapter.ok({"type": "outcome"})["outcome"]
        expected = hand_outcome(state)
        # Everything, the payments' rules and the tricks' cards included.
        assert outcome == expected, seed
        seen["thrown in" if expected["thrown_in"] else
             f"{expected['contract']} {'made' if expected['made'] else 'defeated'}"] += 1
    # The random play reached every kind of ending the hand has.
    for ending in ("thrown in", "three made", "three defeated", "four made",
                   "four defeated", "nap defeated", "wellington defeated"):
        assert seen[ending] > 0, (ending, seen)
    # And every refusal named the same rule. (The adapter, written from the law book, once
    # named other rules than the engine for a look in classic, a non-card at the lead and an
    # action in a thrown-in hand; the engine now names the adapter's, which are the law
    # book's: NAP-5.2.1, NAP-7.2.1/NAP-8.1.3, NAP-5.3.2.)
    assert not readings, readings


@pytest.mark.parametrize(("players", "contract", "dealer"),
                         [(3, "nap", 0), (5, "wellington", 2), (7, "nap", 6)])
def test_made_nap_and_wellington_agree_with_the_engine(adapter: Adapter, players: int,
                                                       contract: str, dealer: int) -> None:
    """Random play seldom makes a Nap or a Wellington: stack the deal for the declarer."""
    bids: list[JSON] = [{"type": "bid", "bid": "nap"}]
    if contract == "wellington":
        bids.append({"type": "bid", "bid": "wellington"})
    holder = len(bids) - 1
    bids += [{"type": "pass"}] * (players - len(bids))
    script = ({"type": "deal", "pack": stacked(players, holder)}, *bids)
    adapter.ok(start_hand(players, dealer))
    state = play_and_compare(adapter, Game.create("classic", players).new_hand(dealer),
                             random.Random(players), Counter(), script, 0.5)
    assert isinstance(state, HandState)
    outcome = adapter.ok({"type": "outcome"})["outcome"]
    assert outcome == hand_outcome(state)
    assert outcome["contract"] == contract
    assert outcome["declarer"] == (dealer + 1 + holder) % players
    assert outcome["made"] is True and outcome["declarer_tricks"] == 5, outcome


def test_random_matches_agree_with_the_engine(adapter: Adapter) -> None:
    readings: Counter[tuple[str, str]] = Counter()
    preparations: Counter[str] = Counter()
    thrown_in = 0
    for seed in range(40):
        rng = random.Random(1000 + seed)
        players = rng.choice([3, 4, 5, 6, 7])
        hands = rng.randint(1, 8)
        match: HandState | MatchState = new_match(Game.create("classic", players), hands=hands)
        assert adapter.ok({"type": "start-match", "ruleset": "classic", "options": {},
                           "players": players, "hands": hands, "chips": None})["type"] == "ok"
        match = play_and_compare(adapter, match, rng, readings)
        assert isinstance(match, MatchState) and match.result is not None
        for _, action in match.history:
            preparations[formats.action_to_json(action)["type"]] += 1
        thrown_in += sum(h.result is not None and h.result.thrown_in for h in match.hands)
        result = match.result
        outcome = adapter.ok({"type": "outcome"})["outcome"]
        assert outcome == {"balances": list(result.balances), "pool": result.pool,
                           "winners": list(result.winners), "hands": result.hands,
                           "out": []}, seed
    # Packs gathered and cut after played and after thrown-in hands.
    assert preparations["cut"] > 100 and thrown_in > 20, (preparations, thrown_in)


@pytest.mark.parametrize(("players", "contract"), [(3, "nap"), (4, "wellington"),
                                                    (6, "nap"), (7, "wellington")])
def test_a_made_nap_or_wellington_brings_a_shuffle(adapter: Adapter, players: int,
                                                   contract: str) -> None:
    """The pack is shuffled after a made Nap or Wellington (NAP-10.2.1, DEC-003), and gathered
    and cut otherwise: the first hand is stacked for the declarer; illegal preparations
    (a cut for a shuffle, a shuffle for a cut) are tried at every step."""
    readings: Counter[tuple[str, str]] = Counter()
    dealer = players - 1
    bids: list[JSON] = [{"type": "bid", "bid": "nap"}]
    if contract == "wellington":
        bids.append({"type": "bid", "bid": "wellington"})
    holder = len(bids) - 1  # the last bidder, seat (dealer + 1 + holder) % players
    bids += [{"type": "pass"}] * (players - len(bids))
    script: tuple[JSON, ...] = ({"type": "choose-dealer", "seat": dealer},
                                {"type": "shuffle", "pack": stacked(players, holder)}, *bids)
    match: HandState | MatchState = new_match(Game.create("classic", players), hands=4)
    adapter.ok({"type": "start-match", "ruleset": "classic", "options": {}, "players": players,
                "hands": 4, "chips": None})
    match = play_and_compare(adapter, match, random.Random(players), readings, script, 1.0)
    assert isinstance(match, MatchState) and match.result is not None
    first = match.hands[0].result
    assert first is not None and first.contract == contract and first.made
    kinds = [formats.action_to_json(a)["type"] for _, a in match.history]
    assert kinds[:3] == ["choose-dealer", "shuffle", "shuffle"], kinds
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
    ('{"id": 1, "type": "start-hand", "ruleset": "classic", "options": {"pack": "24"}, '
     '"players": 3, "dealer": 0, "seats": [0, 1, 2], "pool": 0, "funds": null, "stakes": 1}',
     "$.options.pack"),
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


@pytest.mark.skipif(not (SUITE / "classic").is_dir(),
                    reason="the conformance suite's classic cases (conformance/cases/classic) "
                           "are not there yet")
def test_napkit_conform_passes_every_case_it_declares_and_skips_the_rest(
        tmp_path: Path) -> None:
    """`napkit conform --ruleset classic -- node adapter.js`: every case at classic's default
    options is run and passes; every other case is skipped, never passed."""
    assert NODE is not None
    report_path = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, "-m", "napkit", "conform", "--ruleset", "classic", "-q",
         "--json", str(report_path), "--", NODE, str(ADAPTER)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1].startswith("ok: "), run.stdout
    report = json.loads(report_path.read_text(encoding="utf-8"))
    totals = report["totals"]
    assert totals["failed"] == totals["xfail"] == totals["xpass"] == 0, totals
    assert totals["passed"] >= 1 and totals["rule_not_named"] == 0, totals
    defaults = Game.create("classic", 3).options
    for case in report["cases"]:
        document = json.loads((SUITE / f"{case['id']}.json").read_text(encoding="utf-8"))
        at_defaults = all(defaults[name] == choice
                          for name, choice in document["options"].items())
        assert case["status"] == ("passed" if at_defaults else "skipped"), case
