"""The fast schema check (jsonschema-rs) and jsonschema agree: a document the fast check accepts
is one jsonschema finds no fault with, and one it rejects is one jsonschema explains, so that
napkit.spec.schemas.schema_problems gives exactly what jsonschema alone gives. Checked on every
record of tests/fixtures/records, and with Hypothesis on the states, views, actions and records the
engine writes, and on copies of them broken in one way (a field deleted, a wrong type, an
unknown card)."""

from __future__ import annotations

import copy
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.engine.actions import Action
from napkit.engine.match import new_match
from napkit.formats.records import Problem, hand_record, match_record
from napkit.formats.snapshots import state_to_json, view_to_json
from napkit.formats.validate import parse_text
from napkit.formats.values import action_to_json
from napkit.players.playout import play_out
from napkit.spec import schemas
from napkit.spec.schemas import RECORD_SCHEMAS, jsonschema_problems, schema_problems
from napkit.strategies import Table, tables

from tests.fixtures.records import corpus
from tests.test_properties import SEEDS, SETTINGS, states
from tests.test_roundtrip import through_json

pytest.importorskip("jsonschema_rs")

CORPUS = Path(corpus.__file__).parent
CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$")
Path_ = list[str | int]


def fast(name: str) -> Callable[[Any], bool]:
    check = schemas.fast_validator(name)
    assert check is not None, "jsonschema-rs is installed, so napkit must use it"
    return check


def assert_agree(name: str, document: Any) -> bool:
    """Both libraries give the same verdict, and schema_problems gives jsonschema's answer."""
    explained = jsonschema_problems(name, document)
    assert fast(name)(document) == (explained == []), (name, explained, document)
    assert schema_problems(name, document) == explained
    return explained == []


def fixture_documents() -> list[tuple[str, Any]]:
    documents = []
    for path in sorted([*CORPUS.glob("*.json"), *CORPUS.glob("*.jsonl")]):
        if path.name == "expected.json":
            continue
        for where, value in parse_text(path.read_text(encoding="utf-8"), path.name):
            if not isinstance(value, Problem):
                documents.append((where, value))
    return documents


FIXTURES = fixture_documents()


def test_the_fixtures_hold_records_to_check() -> None:
    assert len(FIXTURES) >= 15
    assert any(isinstance(v, dict) and v.get("format") == "napkit-match/1" for _, v in FIXTURES)


@pytest.mark.parametrize(("where", "document"), FIXTURES, ids=[w for w, _ in FIXTURES])
def test_the_two_paths_agree_on_every_fixture(where: str, document: Any) -> None:
    # Against both record schemas, so that each record is also checked as the wrong kind.
    for name in ("hand-record", "match-record"):
        assert_agree(name, document)


# --- engine documents and broken copies -----------------------------------------------------

def places(document: Any, path: Path_ | None = None) -> list[Path_]:
    """The path of every value inside ``document`` (not the document itself)."""
    path = path or []
    found: list[Path_] = []
    items: list[tuple[str | int, Any]] = (
        list(document.items()) if isinstance(document, dict)
        else list(enumerate(document)) if isinstance(document, list) else [])
    for key, value in items:
        found.append([*path, key])
        found += places(value, [*path, key])
    return found


def get(document: Any, path: Path_) -> Any:
    for key in path:
        document = document[key]
    return document


WRONG_TYPES: list[Any] = [None, True, 7, -1, 2.5, "x", "", [], ["x"], {}, {"type": "x"}]


def mutate(document: Any, data: st.DataObject) -> Any:
    """A copy of ``document`` broken (or not: some changes are harmless) in one way."""
    broken = copy.deepcopy(document)
    where = places(broken)
    cards = [p for p in where if isinstance(get(broken, p), str) and CARD.match(get(broken, p))]
    kinds = ["delete", "wrong type"] + (["unknown card"] if cards else [])
    kind = data.draw(st.sampled_from(kinds), label="mutation")
    if kind == "unknown card":
        path = data.draw(st.sampled_from(cards), label="card")
        get(broken, path[:-1])[path[-1]] = data.draw(
            st.sampled_from(["1X", "ZZ", "11S", "as", "A", "AS ", "\u0410S"]), label="as")
        return broken
    if kind == "delete":
        keyed = [p for p in where if isinstance(p[-1], str)]
        if keyed:
            path = data.draw(st.sampled_from(keyed), label="deleted")
            del get(broken, path[:-1])[path[-1]]
            return broken
    if not where:
        return data.draw(st.sampled_from(WRONG_TYPES), label="document")
    path = data.draw(st.sampled_from(where), label="replaced")
    get(broken, path[:-1])[path[-1]] = data.draw(st.sampled_from(WRONG_TYPES), label="by")
    return broken


def documents(table: Table, seed: int, pick: Callable[[int], int]) -> list[tuple[str, Any]]:
    """(schema, document) for a few of the states of one random hand, a view of each, the
    actions of the last and the legal ones next, the hand's record and a short match's."""
    game = table.game
    every = list(states(game, seed))
    chosen = sorted({pick(len(every)) for _ in range(3)} | {len(every) - 1})
    found: list[tuple[str, Any]] = []
    for state in (every[i] for i in chosen):
        found.append(("state", state_to_json(state)))
        found.append(("view", view_to_json(state.view(pick(game.players)))))
        actions: list[Action] = [a for _, a in state.history[-1:]] + list(state.legal_actions())
        found += [("action", action_to_json(a)) for a in actions[:4]]
    found.append(("hand-record", hand_record(every[-1])))
    match = play_out(new_match(game, hands=2, chips=8 if game.rules.match.bankroll else None),
                     random.Random(seed))
    found.append(("match-record", match_record(match)))
    return [(name, through_json(document)) for name, document in found]


@settings(SETTINGS, max_examples=50)
@given(tables(), SEEDS, st.data())
def test_the_two_paths_agree_on_engine_documents_and_broken_copies(
        table: Table, seed: int, data: st.DataObject) -> None:
    pick = random.Random(seed).randrange
    for name, document in documents(table, seed, pick):
        assert name in RECORD_SCHEMAS
        assert assert_agree(name, document), f"the engine wrote an invalid {name}"
        assert_agree(name, mutate(document, data))


# --- without jsonschema-rs ------------------------------------------------------------------

def test_without_jsonschema_rs_napkit_uses_jsonschema_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)  # as if no wheel were installed
    assert schemas.fast_validator.__wrapped__("hand-record") is None
    monkeypatch.setattr(schemas, "fast_validator", lambda name: None)
    for _, document in FIXTURES:
        assert schema_problems("hand-record", document) == jsonschema_problems(
            "hand-record", document)


def test_a_value_the_fast_check_cannot_take_goes_to_jsonschema() -> None:
    with pytest.raises(ValueError):
        fast("card")({"AS"})  # a set is no JSON value
    assert schema_problems("card", {"AS"}) == jsonschema_problems("card", {"AS"}) != []
