"""The published perft counts found again, independently (spec/conformance.md 5.2).

``conformance/walk_perft.py`` walks a position's tree of play through a program over the
adapter protocol, replaying the position and the path to every node (the protocol has no
undo), and learns every legal action from the program's ``legal`` answers: it shares no code
with napkit's perft. Here it walks every published position of ``classic`` through the
JavaScript adapter ``js-classic``, every one of ``peep`` through ``js-peep``, and every one of
every ruleset through ``js-nap`` (each written from the law book, not from napkit's engine),
to the depths whose count is at most 300, and
each count must be the published one. The walker itself must see a difference where there is
one: a count changed in the file, and a program with a bug (the reference engine with the
mutant ``revoke-allowed``).
"""

from __future__ import annotations

import shutil
import sys
from functools import cache
from pathlib import Path

import pytest

from conformance import walk_perft

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "conformance" / "adapters"
NODE = shutil.which("node")
MAX_COUNT = 300


@cache
def published(ruleset: str) -> list[dict[str, object]]:
    return walk_perft.positions([], [ruleset])


def walked(command: list[str], ruleset: str) -> list[tuple[str, int, int, int]]:
    program = walk_perft.Program(command)
    try:
        return [(str(position["id"]), depth, found, count)
                for position in published(ruleset)
                for depth, found, count in walk_perft.check(program, position, MAX_COUNT)]
    finally:
        program.close()


@pytest.mark.skipif(NODE is None, reason="node is not installed (the JavaScript adapters)")
@pytest.mark.parametrize(("ruleset", "adapter"), [
    ("classic", "js-classic"), ("peep", "js-peep"),
    *[(path.stem, "js-nap") for path in sorted((ROOT / "spec" / "rulesets").glob("*.json"))]])
def test_a_javascript_adapter_finds_every_published_count(ruleset: str, adapter: str) -> None:
    assert NODE is not None
    results = walked([NODE, str(ADAPTERS / adapter / "adapter.js")], ruleset)
    assert {r[0] for r in results} == {str(p["id"]) for p in published(ruleset)}  # every one
    wrong = [r for r in results if r[2] != r[3]]
    assert wrong == [], f"(position, depth, walked, published): {wrong}"
    assert len(results) > 50


@pytest.mark.skipif(NODE is None, reason="node is not installed (the JavaScript adapters)")
def test_the_walker_reports_a_count_that_differs() -> None:
    assert NODE is not None
    position = dict(published("classic")[0])
    position["perft"] = [{"depth": 1, "count": 999}, {"depth": 2, "count": 11}]
    program = walk_perft.Program([NODE, str(ADAPTERS / "js-classic" / "adapter.js")])
    try:
        (first, second) = walk_perft.check(program, position, 2000)
    finally:
        program.close()
    assert first[0] == 1 and first[1] != 999
    assert second == (2, 11, 11)


def test_the_walker_finds_a_bug_in_a_program() -> None:
    command = [sys.executable, str(ROOT / "conformance" / "mutants" / "adapter.py"),
               "revoke-allowed"]
    program = walk_perft.Program(command)
    try:
        results = [r for position in published("classic") if "trick-2" in str(position["id"])
                   for r in walk_perft.check(program, position, 100)]
    finally:
        program.close()
    assert any(found != count for _, found, count in results), results
