"""The reference adapter's memos (napkit.protocol.adapter.Adapter.handle_line): a request line met
before but for its id is served from what was kept of it, and the answer must be the very bytes
the full path writes (:func:`full_path`: read, checked, served and encoded afresh, as before
the memos). Conversations are made by playing hands and matches of several rulesets, with
illegal tries and malformed lines among them."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator

import pytest
from napkit.engine.actions import Action, Bid, Buy, Play
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE
from napkit.errors import IllegalActionError
from napkit.formats import jsontext
from napkit.formats.values import action_to_json, buy_text
from napkit.protocol import adapter as adapter_module
from napkit.protocol.adapter import Adapter, serve
from napkit.reading import loads

ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
GAMES = [("pagat", 4, {}), ("pagat", 3, {"mis": "on"}), ("classic", 5, {}),
         ("napoleon", 4, {}), ("peep", 4, {}), ("pub-floater", 4, {}),
         ("pagat-purchase", 4, {})]
ODD = [
    b'{"id":5,"type":"legal"',  # not JSON
    b'{"id":6,"type":"legal","type":"legal"}',  # a key twice
    b'{"id":1.0,"type":"legal"}', b'{"id":-1,"type":"legal"}', b'{"id":007,"type":"legal"}',
    b'{"id":9007199254740992,"type":"legal"}', b'{"id":99999999999999999,"type":"legal"}',
    b'{"id":12345678901234567890,"type":"legal"}', b'{"id":"8","type":"legal"}',
    b'{ "id":8,"type":"legal"}', b'{"type":"legal","id":8}', b'{"id":9,"type":"nonsense"}',
    b'{"id":10,"type":"legal","extra":1}', b'{"id":11,"type":"apply","seat":0}',
    b'{"id":12,"type":"apply","seat":0,"action":{"type":"bid","bid":"three","x":1}}',
    b'{"id":13,"type":"apply","seat":1.0,"action":{"type":"pass"}}',
    b'{"id":14,"type":"apply","seat":0,"action":{"type":"play","card":"ZZ"}}',
    b'{"id":15,"type":"legal","\xc3\xa9":"\\ud800"}', b'\xff\xfe{}', b'[1]', b'null',
    b'\xef\xbb\xbf{"id":16,"type":"legal"}', b'{"id":17,"type":"legal"}  ',
    b'{"id":18,"type":"outcome"}', b'{"id":0,"type":"legal"}',
]


def line(ident: int, request: dict[str, object]) -> bytes:
    return ENCODER.encode({"id": ident, **request}).encode()


def full_path(adapter: Adapter, raw: bytes) -> bytes:
    """The answer as the adapter writes it without its memos: read, checked, served, encoded."""
    return adapter._read_line(raw, None)


def conversation(seed: int, episodes: int = 12) -> Iterator[bytes]:
    """Request lines as a fuzzing harness sends them: each hand or match started, legal asked
    before each step, now and then an illegal try (another seat, another action), the step,
    the outcome; the odd lines above before anything is started and among the steps."""
    rng = random.Random(seed)
    ident = 0
    yield from ODD
    for episode in range(episodes):
        ruleset, players, options = GAMES[episode % len(GAMES)]
        game = Game.create(ruleset, players, options)
        start: dict[str, object] = {"ruleset": ruleset, "options": options, "players": players}
        if episode % 3 == 2:
            state: HandState | MatchState = new_match(game, hands=2, chips=None)
            start = {"type": "start-match", **start, "hands": 2, "chips": None}
        else:
            state = game.new_hand(0)
            start = {"type": "start-hand", **start, "dealer": 0,
                     "seats": list(range(players)), "pool": 0, "funds": None, "stakes": 1}
        ident += 1
        yield line(ident, start)
        steps = 0
        while not state.is_over():
            ident += 1
            yield line(ident, {"type": "legal"})
            turn = state.turn
            action: Action
            seat: int | None = None
            if turn == CHANCE:
                action = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                seat = turn
                if rng.random() < 0.3:  # an illegal try: out of turn, or a card not held
                    ident += 1
                    wrong = (turn + 1) % players
                    yield line(ident, {"type": "apply", "seat": wrong,
                                       "action": action_to_json(action)})
                    ident += 1
                    yield line(ident, {"type": "apply", "seat": turn,
                                       "action": {"type": "play", "card": "2C"}})
            ident += 1
            yield line(ident, {"type": "apply", "seat": seat, "action": action_to_json(action)})
            state = state.apply(action)
            steps += 1
            if steps == 3 and episode % 4 == 1:
                yield from ODD
        ident += 1
        yield line(ident, {"type": "outcome"})
        ident += 1
        yield line(ident, {"type": "legal"})
        yield line(ident, {"type": "apply", "seat": 0, "action": {"type": "pass"}})


def test_remembered_lines_answer_the_bytes_the_full_path_writes() -> None:
    fast, full = Adapter(), Adapter()
    lines = list(conversation(1))
    for raw in lines:
        assert fast.handle_line(raw) == full_path(full, raw)
    assert len(fast.known) < len(lines) / 4  # most lines were served from the memo
    assert fast.texts and fast.lists and fast.refusals and fast.made


def test_lines_met_first_answer_the_bytes_the_full_path_writes() -> None:
    # Each line met for the first time (the memo emptied before it): checked once, its action
    # read once, and kept, on a path of its own.
    fast, full = Adapter(), Adapter()
    for raw in conversation(5):
        fast.known.clear()
        assert fast.handle_line(raw) == full_path(full, raw)
        assert fast.state == full.state


def test_the_memo_is_never_changed_by_what_it_serves() -> None:
    adapter = Adapter()
    for raw in conversation(2):
        adapter.handle_line(raw)
    for body, (kind, rest, action) in adapter.known.items():
        read = loads((b'{"id":0,' + body).decode())
        del read["id"]
        assert rest == read and rest["type"] == kind
        if kind == "apply":
            assert action is not None and action_to_json(action) == rest["action"]


def test_served_from_a_stream_in_small_pieces_as_line_by_line() -> None:
    """serve() hands bytearrays (lines pieced together across reads) as well as bytes."""

    class Trickle(io.BytesIO):
        def read1(self, size: int | None = -1) -> bytes:
            return super().read1(7)

    lines = list(conversation(3, episodes=6))
    full = Adapter()
    expected = b"".join(full_path(full, raw) for raw in lines)
    out = io.BytesIO()
    serve(Trickle(b"\n".join(lines) + b"\n"), out)
    assert out.getvalue() == expected


def test_ids_of_every_form_are_answered_as_the_full_path_answers_them() -> None:
    fast, full = Adapter(), Adapter()
    start = line(1, {"type": "start-hand", "ruleset": "pagat", "options": {}, "players": 4,
                     "dealer": 0, "seats": [0, 1, 2, 3], "pool": 0, "funds": None,
                     "stakes": 1})
    lines = [start, b'{"id":2,"type":"legal"}']
    for ident in (b"0", b"3", b"00", b"03", b"9007199254740991", b"9007199254740992",
                  b"12345678901234567", b"123456789012345678", b"-1", b"1e3", b"\xd9\xa3"):
        lines.append(b'{"id":' + ident + b',"type":"legal"}')
        lines.append(b'{"id":' + ident + b',"type":"apply","seat":0,"action":{"type":"pass"}}')
    for raw in lines:
        assert fast.handle_line(raw) == full_path(full, raw)


def test_a_refusal_or_an_action_utf8_cannot_carry_is_written_in_ascii() -> None:
    adapter = Adapter()
    refusal = IllegalActionError("NAP-1.3.1", "not \ud800 here \u00e9")
    expected = adapter_module._encode({"id": 42, "type": "refused", "rule": "NAP-1.3.1",
                                       "reason": refusal.message})
    assert expected.isascii()
    assert adapter._refused(b'{"id":42,', refusal) == expected
    assert adapter._refused(b'{"id":42,', refusal) == expected  # kept
    assert adapter._joined((Play(0), Bid("\ud800"))) is None  # the legal answer's full path
    assert adapter._joined((Play(0), Bid("three"))) == b",".join(
        ENCODER.encode(action_to_json(a)).encode() for a in (Play(0), Bid("three")))


def test_a_buy_is_written_as_the_full_path_writes_it() -> None:
    rng = random.Random(5)
    for size in range(9):
        for _ in range(50):
            cards = sum(1 << card for card in rng.sample(range(52), size))
            assert buy_text(cards) == ENCODER.encode(
                action_to_json(Buy(cards))).encode()
    actions = (Buy(0), Play(3), Buy(1 << 51 | 1 << 13 | 1), Buy(0))
    assert Adapter()._joined(actions) == b",".join(
        ENCODER.encode(action_to_json(a)).encode() for a in actions)


def test_the_last_games_used_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adapter_module, "GAMES_KEPT", 2)
    adapter = Adapter()
    base = {"type": "start-hand", "ruleset": "pagat", "options": {}, "dealer": 0, "pool": 0,
            "funds": None, "stakes": 1}
    for ident, players in enumerate((3, 4, 3, 5, 3), 1):
        answer = adapter.handle({"id": ident, **base, "players": players,
                                 "seats": list(range(players))})
        assert answer == {"id": ident, "type": "ok"}
    assert list(adapter.made) == [("pagat", 5, ()), ("pagat", 3, ())]
    assert adapter.made[("pagat", 3, ())] is Game.create("pagat", 3)


def test_a_subclass_that_answers_its_own_way_sees_every_request() -> None:
    # A program built on napkit's adapter (a test's planted bug, a house variant) overrides
    # handle: the lines it has answered before must still reach it.
    class Counting(Adapter):
        asked = 0

        def handle(self, request: object) -> dict[str, object]:
            self.asked += 1
            return super().handle(request)

    counting, plain = Counting(), Adapter()
    requests = [line(0, {"type": "hello", "protocol": "napkit-adapter/1"})]
    requests += [line(i, {"type": "legal"}) for i in range(1, 6)]
    for raw in requests:
        assert counting.handle_line(raw) == plain.handle_line(raw)
    assert counting.asked == len(requests)
    assert plain.known  # the plain adapter did keep the legal line


def test_the_encoder_made_once_writes_what_json_writes() -> None:
    # jsontext.dumps (the adapter's, the harness's and the fuzzer's) stands for
    # ENCODER.encode (its C encoder made once, not once a value).
    values: list[object] = [
        {"id": 3, "type": "accepted"}, {"type": "buy", "cards": ["QD", "10H"]},
        {"id": None, "type": "error", "message": "$.x: \u00e9 \ud800 \"q\" \\ \x1f"},
        {"a": [1, -2, 9007199254740991, 1.5, None, True, False, {}, [], ""]}, [], "text",
        {"outcome": {"net": [0, -5], "made": None, "tricks": [{"cards": ["AH"]}]}},
    ]
    for value in values:
        assert jsontext.dumps(value) == jsontext.ENCODER.encode(value)
    with pytest.raises(TypeError):
        jsontext.dumps({"x": object()})
