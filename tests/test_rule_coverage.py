"""Every rule of the law book that governs play is executed in exactly one place of the engine.

The engine says where it implements a rule by a docstring that begins ``Implements:`` and lists
rule ids. These tests read those docstrings from the source (no import tricks) and hold the
engine to the law book:

* every rule of kind ``play`` is cited by exactly one function (or class), and informative rules
  (a definition, naming a stake) by none;
* every rule id written anywhere in the engine's code (in an error, a payment, a comment) is a
  rule of the law book, so that the id a user reads in an error is one they can look up;
* every citing function really runs: random hands and matches of every ruleset, under every
  choice of every option, call each of them at least once (a citation on dead code would not
  enforce anything).
"""

from __future__ import annotations

import ast
import random
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import CodeType, FrameType

import napkit
from napkit.game import Game, default_spec
from napkit.match import MatchState, new_match

ENGINE = Path(napkit.__file__).parent
RULE_ID = re.compile(r"\bNAP-\d+\.\d+\.\d+\b")
# The modules that are the engine: the rules of play live here and nowhere else. The spec
# tooling (loading, checks, compare, render, cli) handles rule ids as data, not as rules.
ENGINE_MODULES = ("actions", "auction", "cards", "deal", "game", "match", "observation", "play",
                  "purchase", "settlement", "state", "trumps", "widow")


def _citing(tree: ast.AST) -> Iterator[tuple[str, int, tuple[str, ...]]]:
    """(qualified name, line, rule ids) of every function or class whose docstring cites rules."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int, tuple[str, ...]]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                doc = ast.get_docstring(child) or ""
                if doc.startswith("Implements:"):
                    head = doc.split("\n\n", 1)[0]
                    yield name, child.lineno, tuple(RULE_ID.findall(head))
                yield from walk(child, name + ".")

    yield from walk(tree, "")


@cache
def citations() -> dict[str, list[tuple[str, str, int]]]:
    """rule id -> [(module, qualified function name, line)] over the engine's modules."""
    found: dict[str, list[tuple[str, str, int]]] = {}
    for module in ENGINE_MODULES:
        tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
        for name, line, rules in _citing(tree):
            assert rules, f"{module}.{name} (line {line}) says 'Implements:' but names no rule"
            for rule in rules:
                found.setdefault(rule, []).append((module, name, line))
    return found


def _book() -> dict[str, str]:
    """rule id -> kind, for every rule of the real law book."""
    return {rule.id: rule.kind for rule in default_spec().lawbook}


def test_every_play_rule_is_cited_exactly_once() -> None:
    kinds = _book()
    play_rules = {rule for rule, kind in kinds.items() if kind == "play"}
    cited = citations()
    missing = sorted(play_rules - set(cited), key=default_spec().lawbook.order)
    assert not missing, f"play rules the engine cites nowhere: {missing}"
    twice = {rule: places for rule, places in cited.items() if len(places) > 1}
    assert not twice, f"rules cited in more than one place: {twice}"


def test_cited_rules_exist_and_govern_play() -> None:
    kinds = _book()
    unknown = sorted(set(citations()) - set(kinds))
    assert not unknown, f"the engine cites rules the law book does not have: {unknown}"
    informative = sorted(rule for rule in citations() if kinds[rule] != "play")
    assert not informative, f"informative rules need no code, yet are cited: {informative}"


def test_every_rule_id_in_the_engine_is_in_the_law_book() -> None:
    kinds = _book()
    for path in sorted(ENGINE.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule in RULE_ID.findall(line):
                assert rule in kinds, f"{path.name}:{number} names {rule}, not in the law book"


def test_the_law_book_has_play_rules_to_cite() -> None:
    # Guards the tests above against passing on an empty or misread law book.
    kinds = _book()
    assert sum(kind == "play" for kind in kinds.values()) >= 50
    assert "NAP-8.1.1" in citations()


# --- every citing function runs ------------------------------------------------------------

def _drive(match: MatchState, rng: random.Random) -> MatchState:
    """Random play, each player acting on what their view of the hand shows (NAP-4.3.2)."""
    while not match.is_over():
        if match.is_chance():
            match = match.apply(match.sample_chance(rng))
        elif match.hand is not None:
            match = match.apply(rng.choice(match.hand.view(match.turn).legal_actions))
        else:
            match = match.apply(rng.choice(match.legal_actions()))
    return match


def _games() -> Iterator[Game]:
    """Every ruleset at its smallest and largest table, under each choice of each option
    (one option changed at a time from the defaults)."""
    spec = default_spec()
    for ruleset in spec.rulesets.values():
        variants: list[dict[str, str]] = [{}]
        for name, option in ruleset.options.items():
            variants += [{name: choice} for choice in option.choices if choice != option.default]
        for options in variants:
            resolved = ruleset.resolve(ruleset.option_values(options))["players"]
            assert isinstance(resolved, list)
            players = [n for n in resolved if isinstance(n, int)]
            for n in {min(players), max(players)}:
                yield Game(ruleset, n, options)


def test_every_citing_function_runs_in_play() -> None:
    wanted: dict[tuple[str, str], str] = {}
    for rule, places in citations().items():
        for module, name, _ in places:
            wanted[(f"{module}.py", name.rsplit(".", 1)[-1])] = rule
    called: set[tuple[str, str]] = set()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            code: CodeType = frame.f_code
            key = (Path(code.co_filename).name, code.co_name)
            if key in wanted:
                called.add(key)

    rng = random.Random(20261123)
    sys.setprofile(profile)
    try:
        for game in _games():
            # A few short matches: antes, the deal passing, pools carried, stakes raised after
            # throw-ins, knock-outs where chips are few, and the end of the match.
            _drive(new_match(game, hands=6, chips=3 if game.rules.bankroll else None), rng)
    finally:
        sys.setprofile(None)
    never = sorted(f"{wanted[key]} ({key[0]}: {key[1]})" for key in set(wanted) - called)
    assert not never, f"engine functions that cite a rule but never ran: {never}"
