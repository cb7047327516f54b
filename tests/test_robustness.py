"""Whatever a ruleset file holds, the CLI answers with a status and lines, never a traceback."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from napkit.cli import main
from napkit.spec.loading import JSON

from .conftest import FIXTURE_SOURCES, FIXTURE_SPEC

BASE = json.loads((FIXTURE_SPEC / "rulesets" / "little.json").read_text())

json_values: st.SearchStrategy[JSON] = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
        ["on", "off", "mis", "players", "L3", "L99", "DEC-001", "DEC-002", "NAP-1.1.1", "9",
         "by_option", "three", "nap", "little", "little-widow", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["by_option", "cases", "option", "choices", "id", "decision",
                         "three-to-five", "on", "off", "each"]), inner, max_size=3),
    max_leaves=6)


def _paths(value: JSON, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


PATHS = [p for p in _paths(BASE) if p]


def _replace(document: JSON, path: tuple[str | int, ...], new: JSON | None, delete: bool) -> JSON:
    copy = json.loads(json.dumps(document))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    result: JSON = copy
    return result


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), json_values, st.booleans()), min_size=1,
                max_size=3))
def test_mutated_ruleset_files_never_raise(
        mutations: list[tuple[tuple[str | int, ...], JSON, bool]]) -> None:
    document: JSON = BASE
    for path, value, delete in mutations:
        with contextlib.suppress(KeyError, IndexError, TypeError):
            document = _replace(document, path, value, delete)
    env = {"NAPKIT_SPEC": str(FIXTURE_SPEC), "NAPKIT_SOURCES": str(FIXTURE_SOURCES)}
    with tempfile.TemporaryDirectory() as folder, mock.patch.dict(os.environ, env):
        mine = Path(folder) / "mine.json"
        mine.write_text(json.dumps(document))
        for argv in (["rules", "check", str(mine)], ["rules", "show", str(mine)],
                     ["rules", "compare", str(mine), "little"]):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
            assert code in {0, 1, 2}
            if code != 0 and argv[1] != "check":
                assert err.getvalue().count("\n") == 1, err.getvalue()
