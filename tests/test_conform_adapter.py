"""The reference adapter (napkit.protocol.adapter): the handshake, hands and matches through the
protocol,
refusals with the engine's rule ids, and malformed requests answered with an error naming the
JSON path, never a crash. Every response is checked against adapter.schema.json."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.engine.game import Game
from napkit.formats.records import hand_outcome
from napkit.formats.values import action_from_json, action_to_json
from napkit.protocol.adapter import Adapter, main, serve, supports
from napkit.spec.catalog import default_spec
from napkit.spec.schemas import schema_problems

START = {"type": "start-hand", "ruleset": "pagat", "options": {}, "players": 4, "dealer": 0,
         "seats": [0, 1, 2, 3], "pool": 0, "funds": None, "stakes": 1}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PACK = [r + s for s in "SHDC" for r in RANKS]
# Dealt three then two from the top, from seat 1: seat 1 holds 2S 3S 4S AS 2H, seat 2 5S 6S 7S
# 3H 4H, seat 3 8S 9S 10S 5H 6H, seat 0 JS QS KS 7H 8H.
DEAL = {"type": "deal", "pack": PACK}


def ask(adapter: Adapter, request: dict[str, Any], ident: int = 7) -> dict[str, Any]:
    """The adapter's answer, checked against its schema definition."""
    answer = adapter.handle({"id": ident, **request})
    assert answer["id"] == ident
    kind = answer["type"]
    assert schema_problems(f"adapter#/$defs/response-{kind}", answer) == []
    return answer


def started(dealt: bool = True) -> Adapter:
    adapter = Adapter()
    assert ask(adapter, START)["type"] == "ok"
    if dealt:
        assert ask(adapter, {"type": "apply", "seat": None, "action": DEAL})["type"] == "accepted"
    return adapter


def test_hello_declares_everything_the_engine_plays() -> None:
    answer = ask(Adapter(), {"type": "hello", "protocol": "napkit-adapter/1"}, 0)
    assert answer["protocol"] == "napkit-adapter/1" and answer["name"] == "napkit"
    declared = answer["supports"]
    assert declared == supports()
    assert declared["kinds"] == ["legal", "illegal", "outcome", "match"]
    spec = default_spec()
    assert set(declared["rulesets"]) == set(spec.rulesets)
    for ruleset_id, ruleset in spec.rulesets.items():
        entry = declared["rulesets"][ruleset_id]
        assert entry["options"] == {name: "*" for name in ruleset.options}
    assert declared["rulesets"]["napoleon"]["players"] == list(range(2, 11))  # either choice
    assert declared["rulesets"]["pub-floater"]["players"] == list(range(2, 10))
    assert declared["rulesets"]["classic"]["players"] == [3, 4, 5, 6, 7]


def test_a_hand_through_the_protocol() -> None:
    """A hand played by the first legal action at every turn gives the engine's own outcome."""
    adapter = started(dealt=False)
    assert ask(adapter, {"type": "legal"}) == {"id": 7, "type": "legal", "turn": "chance",
                                               "actions": []}
    assert ask(adapter, {"type": "outcome"})["outcome"] is None
    ask(adapter, {"type": "apply", "seat": None, "action": DEAL})
    state = Game.create("pagat", 4).new_hand(0).apply(action_from_json(DEAL))
    while (legal := ask(adapter, {"type": "legal"}))["turn"] != "over":
        assert legal["turn"] == state.turn
        assert legal["actions"] == [action_to_json(a) for a in state.legal_actions()]
        action = legal["actions"][1] if len(legal["actions"]) > 1 else legal["actions"][0]
        assert ask(adapter, {"type": "apply", "seat": legal["turn"], "action": action}) == {
            "id": 7, "type": "accepted"}
        state = state.apply(action_from_json(action))
    assert state.is_over() and legal["actions"] == []
    assert ask(adapter, {"type": "outcome"})["outcome"] == hand_outcome(state)
    over = ask(adapter, {"type": "apply", "seat": 1, "action": {"type": "pass"}})
    assert over["type"] == "refused" and over["rule"] == "NAP-1.3.3"


def test_refusals_carry_the_rule_and_change_nothing() -> None:
    adapter = started()
    before = ask(adapter, {"type": "legal"})
    out_of_turn = ask(adapter, {"type": "apply", "seat": 2, "action": {"type": "pass"}})
    assert out_of_turn["type"] == "refused" and out_of_turn["rule"] == "NAP-1.3.1"
    assert "seat 1" in out_of_turn["reason"]
    chance = ask(adapter, {"type": "apply", "seat": None, "action": {"type": "pass"}})
    assert chance["rule"] == "NAP-1.3.1"
    wellington = ask(adapter, {"type": "apply", "seat": 1,
                               "action": {"type": "bid", "bid": "wellington"}})
    assert wellington["type"] == "refused" and wellington["rule"] == "NAP-5.2.5"
    assert wellington["reason"]
    assert ask(adapter, {"type": "legal"}) == before
    for seat, action in [(1, {"type": "bid", "bid": "nap"}), (2, {"type": "pass"}),
                         (3, {"type": "pass"}), (0, {"type": "pass"}),
                         (1, {"type": "play", "card": "2S"}), (2, {"type": "play", "card": "5S"})]:
        assert ask(adapter, {"type": "apply", "seat": seat, "action": action})["type"] == \
            "accepted"
    revoke = ask(adapter, {"type": "apply", "seat": 3, "action": {"type": "play", "card": "5H"}})
    assert revoke["type"] == "refused" and revoke["rule"] == "NAP-8.1.1"
    assert "spades" in revoke["reason"]


def test_a_match_through_the_protocol() -> None:
    adapter = Adapter()
    assert ask(adapter, {"type": "start-match", "ruleset": "pagat", "options": {},
                         "players": 3, "hands": 2, "chips": None})["type"] == "ok"
    assert ask(adapter, {"type": "legal"})["turn"] == "chance"
    bad = ask(adapter, {"type": "apply", "seat": None, "action": {"type": "cut", "at": 3}})
    assert bad["type"] == "refused" and bad["rule"] == "NAP-4.1.1"
    ask(adapter, {"type": "apply", "seat": None, "action": {"type": "choose-dealer", "seat": 0}})
    ask(adapter, {"type": "apply", "seat": None, "action": {"type": "shuffle", "pack": PACK}})
    for seat in (1, 2, 0):
        ask(adapter, {"type": "apply", "seat": seat, "action": {"type": "pass"}})
    outcome = ask(adapter, {"type": "outcome"})["outcome"]  # thrown in: a second hand is due
    assert outcome is None
    replaced = ask(adapter, START)  # a start replaces the match
    assert replaced["type"] == "ok" and ask(adapter, {"type": "legal"})["turn"] == "chance"


def test_a_finished_match_reports_balances_winners_and_out() -> None:
    adapter = Adapter()
    ask(adapter, {"type": "start-match", "ruleset": "pagat", "options": {}, "players": 3,
                  "hands": 1, "chips": None})
    ask(adapter, {"type": "apply", "seat": None, "action": {"type": "choose-dealer", "seat": 2}})
    ask(adapter, {"type": "apply", "seat": None, "action": {"type": "shuffle", "pack": PACK}})
    while (legal := ask(adapter, {"type": "legal"}))["turn"] != "over":
        seat = legal["turn"]
        action = legal["actions"][-1] if legal["actions"][0] == {"type": "pass"} \
            else legal["actions"][0]
        assert ask(adapter, {"type": "apply", "seat": seat, "action": action})["type"] == \
            "accepted"
    outcome = ask(adapter, {"type": "outcome"})["outcome"]
    assert set(outcome) == {"balances", "pool", "winners", "hands", "out"}
    assert outcome["hands"] == 1 and outcome["out"] == [] and sum(outcome["balances"]) == 0
    assert outcome["winners"] == [s for s in range(3)
                                  if outcome["balances"][s] == max(outcome["balances"])]


@pytest.mark.parametrize(("request_", "path", "words"), [
    ([1, 2], "$", "a request is a JSON object"),
    ({"type": "legal"}, "$", "missing field 'id'"),
    ({"id": "seven", "type": "legal"}, "$.id", "whole number"),
    ({"id": -1, "type": "legal"}, "$.id", "at least 0"),
    ({"id": True, "type": "legal"}, "$.id", "whole number"),
    ({"id": 7}, "$", "missing field 'type'"),
    ({"id": 7, "type": "shuffle"}, "$.type", "unknown request type 'shuffle'"),
    ({"id": 7, "type": "legal", "seat": 1}, "$.seat", "unexpected field"),
    ({"id": 7, "type": "hello"}, "$", "missing field 'protocol'"),
    ({"id": 7, "type": "hello", "protocol": "napkit-adapter/2"}, "$.protocol", "speaks"),
    ({**START, "id": 7, "players": 11}, "$.players", "at most 10"),
    ({**START, "id": 7, "options": {"pack": 52}}, '$.options.pack', "a choice is a string"),
    ({**START, "id": 7, "options": []}, "$.options", "an object"),
    ({**START, "id": 7, "seats": [0, 1, 1]}, "$.seats[2]", "listed twice"),
    ({**START, "id": 7, "seats": [0]}, "$.seats", "at least two"),
    ({**START, "id": 7, "funds": [1, "x"]}, "$.funds[1]", "whole number"),
    ({**START, "id": 7, "stakes": 0}, "$.stakes", "at least 1"),
    ({**START, "id": 7, "ruleset": 3}, "$.ruleset", "a string"),
    ({"id": 7, "type": "start-match", "ruleset": "pagat", "options": {}, "players": 4,
      "hands": 0, "chips": None}, "$.hands", "at least 1"),
    ({"id": 7, "type": "apply", "seat": -2, "action": {"type": "pass"}}, "$.seat", "a seat"),
])
def test_malformed_requests_name_the_json_path(request_: object, path: str, words: str) -> None:
    answer = Adapter().handle(request_)
    assert answer["type"] == "error"
    assert answer["message"].startswith(path + ": "), answer
    assert words in answer["message"]
    # A request whose id cannot be read is answered with id null (spec/conformance.md 2.1).
    assert answer["id"] == (7 if isinstance(request_, dict) and request_.get("id") == 7 else None)


@pytest.mark.parametrize(("action", "path"), [
    ({"type": "play", "card": "ZZ"}, "$.action.card"),
    ({"type": "play"}, "$.action"),
    ({"type": "play", "card": "AS", "x": 1}, "$.action.x"),
    ({"type": "fold"}, "$.action.type"),
    ("pass", "$.action"),
])
def test_malformed_actions_name_the_json_path(action: object, path: str) -> None:
    answer = started().handle({"id": 3, "type": "apply", "seat": 1, "action": action})
    assert answer["type"] == "error" and answer["message"].startswith(path + ": ")


def test_requests_the_adapter_cannot_serve_say_why() -> None:
    answer = Adapter().handle({"id": 4, "type": "legal"})
    assert answer["type"] == "error" and "no hand or match has been started" in answer["message"]
    changes: list[tuple[dict[str, object], str]] = [
                          ({"ruleset": "nosuch"}, "NAP-10.1.1: no ruleset 'nosuch'"),
                          ({"options": {"doubling": "never"}}, "doubling"),
                          ({"players": 2}, "NAP-3.1.1"),
                          ({"dealer": 4}, "NAP-4.1.1")]
    for change, words in changes:
        answer = Adapter().handle({**START, **change, "id": 5})
        assert answer["type"] == "error" and words in answer["message"], answer


@pytest.mark.parametrize(("line", "words"), [
    (b"not json\n", "$: not JSON: a value was expected here"),
    (b'{"id": 1, "type": "legal"\n', "$: not JSON"),
    (b'{"id": NaN, "type": "legal"}\n', "NaN is not a JSON value"),
    (b"[" * 100_000 + b"\n", "nested too deeply"),
    (b'{"id": 1, "type": "\xff"}\n', "not UTF-8"),
])
def test_lines_that_are_not_json(line: bytes, words: str) -> None:
    answer = json.loads(Adapter().handle_line(line))
    assert answer["type"] == "error" and answer["id"] is None and words in answer["message"]


def test_serve_answers_every_line_in_order_and_stops_at_bye() -> None:
    lines = [{"id": 0, "type": "hello", "protocol": "napkit-adapter/1"}, {**START, "id": 1},
             {"id": 2, "type": "legal"}, {"id": 3, "type": "bye"}, {"id": 4, "type": "legal"}]
    stdin = io.BytesIO(b"\n".join(json.dumps(x).encode() for x in lines[:2]) + b"\n\n  \n"
                       + b"\n".join(json.dumps(x).encode() for x in lines[2:]) + b"\n")
    stdout = io.BytesIO()
    assert serve(stdin, stdout) == 0
    answers = [json.loads(x) for x in stdout.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [0, 1, 2, 3]  # blank lines skipped; nothing after bye
    assert [a["type"] for a in answers] == ["hello", "ok", "legal", "bye"]


def test_serve_takes_a_last_line_without_its_newline() -> None:
    stdout = io.BytesIO()
    stdin = io.BytesIO(b'{"id": 9, "type": "legal"}')
    assert serve(stdin, stdout) == 0
    assert json.loads(stdout.getvalue())["id"] == 9


def test_the_adapter_as_a_process() -> None:
    lines = [{"id": 0, "type": "hello", "protocol": "napkit-adapter/1"}, {**START, "id": 1},
             {"id": 2, "type": "bye"}]
    done = subprocess.run([sys.executable, "-m", "napkit.protocol.adapter"], input="".join(
        json.dumps(x) + "\n" for x in lines), capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert [json.loads(x)["type"] for x in done.stdout.splitlines()] == ["hello", "ok", "bye"]


def test_the_adapter_takes_no_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--verbose"]) == 2
    assert "takes no arguments" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "napkit-adapter/1" in capsys.readouterr().out


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
        ["legal", "apply", "start-hand", "start-match", "outcome", "hello", "pass", "AS",
         "pagat", "napkit-adapter/1", "deal", "play", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "type", "seat", "action", "card", "ruleset", "options",
                         "players", "dealer", "seats", "pool", "funds", "stakes", "protocol",
                         "hands", "chips", "bid"]), inner, max_size=6),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values, min_size=1, max_size=4))
def test_any_request_gets_an_answer_its_schema_accepts(requests: list[Any]) -> None:
    """Whatever arrives (in a started hand or not), the answer is one response, never a
    crash."""
    for adapter in (Adapter(), started()):
        for request in requests:
            answer = adapter.handle(request)
            kind = answer["type"]
            if answer["id"] is None:
                # Only for a request whose id cannot be read (spec/conformance.md 2.1).
                readable = isinstance(request, dict) and type(request.get("id")) is int and \
                    request["id"] >= 0
                assert kind == "error" and not readable, (request, answer)
            assert schema_problems(f"adapter#/$defs/response-{kind}",
                                   answer) == [], (request, answer)
