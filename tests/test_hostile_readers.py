"""Hostile input to every reader of a file: whatever the bytes or the JSON, each gives its
value or its own error (a clean message naming the file and where), never another exception
and never an internal error (issue 13). The readers: records (``napkit validate``, a whole file
and JSON Lines), ruleset files (JSON and TOML: ``napkit rules check/show``, and every command
taking a RULESET file), conformance case files and expected-failures files (``napkit
conform``)."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from napkit.conform.suite.cases import load_case
from napkit.conform.suite.xfail import XfailError, load_xfail
from napkit.errors import SpecError, SpecProblemsError
from napkit.formats.records import Problem
from napkit.formats.validate import check_record, check_sources
from napkit.spec.catalog import default_spec, load_ruleset_file

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# Any JSON value, numbers of every kind included (floats, huge integers).
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20)
FIELDS = st.sampled_from(["format", "ruleset", "players", "dealer", "seats", "deal", "actions",
                          "outcome", "options", "pool", "funds", "stakes", "id", "tags",
                          "extends", "set", "expected", "steps", "game"])
# Objects that look like napkit's documents, each field any JSON value.
DOCUMENTS = st.dictionaries(FIELDS, JSON, max_size=8)


def _bytes_in(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _every_reader(data: bytes) -> None:
    """Feed ``data`` as a file to every reader; each must give its value or its own error."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name in ("x.json", "x.toml"):
            try:
                load_ruleset_file(_bytes_in(root, name, data), name, default_spec())
            except (SpecError, SpecProblemsError) as exc:
                assert str(exc).startswith(name), exc
        record = _bytes_in(root, "r.jsonl", data)
        for checked in check_sources([str(record)]):
            assert "napkit could not" not in str(checked.lines()), checked.lines()
        cases = root / "cases" / "pagat" / "legal"
        cases.mkdir(parents=True)
        case, problems = load_case(_bytes_in(cases, "0001-x.json", data), root / "cases")
        assert (case is None) == bool(problems)
        with contextlib.suppress(XfailError):  # its own error, with the file and the path
            load_xfail(_bytes_in(root, "xfail.json", data))


@SETTINGS
@given(st.binary(max_size=300))
def test_any_bytes(data: bytes) -> None:
    _every_reader(data)


@SETTINGS
@given(JSON)
def test_any_json_value(value: Any) -> None:
    _every_reader(json.dumps(value).encode())


@SETTINGS
@given(DOCUMENTS)
def test_any_document_shaped_like_napkits(doc: dict[str, Any]) -> None:
    _every_reader(json.dumps(doc).encode())
    for fmt in ("napkit-hand/1", "napkit-match/1"):
        checked = check_record({**doc, "format": fmt}, "x")
        assert all(isinstance(p, Problem) for p in checked.problems)
        assert not any("napkit could not" in p.message for p in checked.problems), checked


@SETTINGS
@given(st.text(max_size=200))
def test_any_text_as_toml_or_json(text: str) -> None:
    _every_reader(text.encode("utf-8", "surrogatepass"))


def _records() -> list[dict[str, Any]]:
    from napkit import Game
    from napkit.formats.recording import record_table

    found = []
    for ruleset in sorted(default_spec().rulesets):
        for seed in (1, 2):
            text = record_table(Game.create(ruleset, 4), seed, opponents="random")
            found.append(json.loads(text))
        found.append(json.loads(record_table(Game.create(ruleset, 4), 3, opponents="random",
                                             hands=3, match=True)))
    return found


RECORDS = _records()


def _paths(value: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_real_record_with_any_one_value_changed(data: st.DataObject) -> None:
    """Records of every ruleset (hands and matches), one value anywhere replaced by any JSON
    value: the schema or the replay says what is wrong, never an internal error."""
    record = json.loads(json.dumps(data.draw(st.sampled_from(RECORDS))))
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    *parents, last = path
    holder = record
    for key in parents:
        holder = holder[key]
    holder[last] = data.draw(JSON)
    text = json.dumps(record)
    with tempfile.TemporaryDirectory() as folder:
        file = _bytes_in(Path(folder), "r.json", text.encode())
        for checked in check_sources([str(file)]):
            assert not any("napkit could not" in line for line in checked.lines()), (
                path, checked.lines())
