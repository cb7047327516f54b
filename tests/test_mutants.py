"""The suite's own strength: every mutant of the reference engine must be caught.

A mutant (conformance/mutants/) is the reference engine with one deliberate, plausible bug,
naming the rule id it breaks and the rulesets it affects. These tests check, in turn:

* the registry: at least 30 mutants, every ruleset of the spec and every phase of play
  affected by one, each naming a rule of the law book in force in the rulesets it names;
* in-process, that each mutant really changes the engine's answers (legal actions, refusals,
  outcomes) on random hands or matches of every ruleset it names, without crashing, and that
  undoing it gives back the engine as it was;
* through the real protocol, that the conformance suite catches each one: the mutant adapter
  (``python conformance/mutants/adapter.py NAME``) is run as a separate process, spoken to in
  JSON Lines by the harness, on the cases of the rulesets the mutant affects, and must fail
  one of them by disagreeing with it (not by crashing). A mutant that passes them all is a gap
  in the suite, and the failure names the mutant, its rule and its rulesets.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from napkit.conform.run.runner import FAILED, CaseResult, run_suite
from napkit.conform.suite.cases import (
    Case,
    Filters,
    default_suite_dir,
    load_suite,
    rule_matches,
    select,
)
from napkit.engine.cards import RANK_NAMES, SUIT_LETTERS
from napkit.engine.game import Game
from napkit.protocol.process import ProtocolError, Session, process_opener
from napkit.spec.catalog import default_spec

from conformance.mutants import PHASES, REGISTRY, Mutant
from conformance.mutants.compare import (
    first_difference,
    record,
    replay,
    runs,
    self_play,
    table_sizes,
)

ROOT = Path(__file__).resolve().parents[1]
MUTANT_ADAPTER = ROOT / "conformance" / "mutants" / "adapter.py"
MUTANTS = sorted(REGISTRY)
TIMEOUT = 20.0  # seconds for each answer of the mutant adapter


def _lawbook_rules() -> set[str]:
    found: set[str] = set()
    for path in sorted((ROOT / "spec" / "lawbook").glob("*.toml")):
        chapter = tomllib.loads(path.read_text(encoding="utf-8"))
        for section in chapter["sections"]:
            found.update(rule["id"] for rule in section["rules"])
    return found


# --- the registry --------------------------------------------------------------------------
def test_at_least_thirty_mutants() -> None:
    assert len(REGISTRY) >= 30, f"only {len(REGISTRY)} mutants: issue 6 asks for at least 30"


def test_every_ruleset_is_affected_by_a_mutant() -> None:
    affected = {r for m in REGISTRY.values() for r in m.rulesets}
    missing = sorted(set(default_spec().rulesets) - affected)
    assert not missing, f"rulesets no mutant affects: {', '.join(missing)}"


def test_every_phase_has_a_mutant() -> None:
    missing = [p for p in PHASES if not any(m.phase == p for m in REGISTRY.values())]
    assert not missing, f"phases no mutant breaks: {', '.join(missing)}"


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_names_a_rule_in_force_in_its_rulesets(name: str) -> None:
    m = REGISTRY[name]
    assert m.rule in _lawbook_rules(), f"{name}: {m.rule} is not a rule of the law book"
    assert m.description, f"{name} has no description"
    assert m.rulesets and len(set(m.rulesets)) == len(m.rulesets), f"{name}: rulesets {m.rulesets}"
    spec = default_spec()
    for ruleset in m.rulesets:
        assert ruleset in spec.rulesets, f"{name}: no ruleset {ruleset}"
        assert m.rule in spec.rulesets[ruleset].rules, (
            f"{name} breaks {m.rule}, which is not in force in {ruleset}")
    for ruleset, options in m.options.items():
        assert ruleset in m.rulesets, f"{name} gives options for {ruleset}, not one of its own"
        # the options exist, with these choices
        Game.create(ruleset, table_sizes(ruleset, options)[0], dict(options))


# --- in-process: each mutant changes the engine, and is undone cleanly ----------------------
@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_changes_the_engines_answers(name: str) -> None:
    m = REGISTRY[name]
    unchanged = [r for r in m.rulesets if first_difference(m, r) is None]
    assert not unchanged, (
        f"mutant {name} ({m.rule}) makes no difference to random {m.scope}s of "
        f"{', '.join(unchanged)}: it is no mutant of them")
    for ruleset in m.rulesets:
        self_play(m, ruleset, games=2)  # raises MutantCrashError if it breaks down


def test_a_difference_says_where() -> None:
    m = REGISTRY["revoke-allowed"]
    found = first_difference(m, "classic")
    assert found is not None
    text = str(found)
    assert text.startswith("classic (") and "the engine answers" in text and "the mutant" in text


def test_undoing_every_mutant_restores_the_engine() -> None:
    recorded = {(r, scope): [run for _, run in zip(range(4), runs(r, {}, scope), strict=False)]
                for r in ("classic", "pagat-purchase", "peep", "pub-floater", "pagat-teesside")
                for scope in ("hand", "match")}
    for m in REGISTRY.values():
        with m.applied():
            pass
    for (_, scope), done in recorded.items():
        for run in done:
            assert replay(run, scope) is None, f"after undoing, {run.describe()} differs"
    # and a fresh recording is what it was before any mutant was applied
    assert record("peep", {}, "match", 1) == recorded[("peep", "match")][1]


# --- through the protocol: the suite catches every mutant -----------------------------------
@cache
def _suite() -> tuple[Case, ...]:
    root = default_suite_dir()
    if not root.is_dir():
        pytest.fail(f"the conformance suite is empty: there is no folder {root} "
                    "(python conformance/generate.py writes it); no mutant can be run through it")
    cases, problems = load_suite(root)
    assert not problems, f"bad case files: {problems[:3]}"
    if not cases:
        pytest.fail(f"the conformance suite is empty: no case under {root}; no mutant can be "
                    "run through it")
    return tuple(cases)


def _stages(m: Mutant, cases: tuple[Case, ...]) -> Iterator[list[Case]]:
    """The cases to run the mutant on, in two stages: first those of its rulesets that
    exercise its rule (the quickest to catch it), then every other case of its rulesets (where
    no case of the rule catches it, any may). Both are cases of the rulesets the mutant
    affects: a mutant passes only if it passes all of them."""
    mine = select(cases, Filters(rulesets=m.rulesets))
    first = [c for c in mine if any(rule_matches(r, m.rule) for r in c.rules)]
    chosen = {c.id for c in first}
    yield first
    yield [c for c in mine if c.id not in chosen]


def _run(m: Mutant, cases: list[Case]) -> list[CaseResult]:
    if not cases:
        return []
    session = Session(process_opener([sys.executable, str(MUTANT_ADAPTER), m.name]), TIMEOUT)
    try:
        hello = session.open()
    except ProtocolError as exc:
        pytest.fail(f"the adapter of mutant {m.name} did not start: {exc}\n{exc.stderr}")
    assert m.name in hello.name, f"the handshake does not name the mutant: {hello.name!r}"
    try:
        return run_suite(cases, session, hello.supports, exitfirst=True)
    finally:
        session.close()


def _broke_down(result: CaseResult) -> bool:
    """Whether a case failed because the program broke down (crashed, hung, broke the
    protocol, or answered with an error) rather than because it answered wrongly."""
    errored = isinstance(result.got, dict) and result.got.get("type") == "error"
    return errored or result.where == "restart" or bool(result.stderr)


@pytest.mark.parametrize("name", MUTANTS)
def test_suite_catches_mutant_through_the_protocol(name: str) -> None:
    m = REGISTRY[name]
    cases = _suite()
    ran = 0
    for stage in _stages(m, cases):
        results = _run(m, stage)
        ran += len(results)
        failed = [r for r in results if r.status == FAILED]
        if failed:
            caught = failed[0]
            assert not _broke_down(caught), (
                f"mutant {name} ({m.rule}) is caught only by breaking down, not by a wrong "
                f"answer: {caught.id}: {caught.message}\n{caught.stderr}")
            return
    pytest.fail(
        f"mutant {name} survives the suite: it breaks {m.rule} in "
        f"{', '.join(m.rulesets)}"
        + (f" (with options {dict(m.options)})" if m.options else "")
        + f", yet passes all {ran} cases of those rulesets. {m.description} "
        f"The suite needs a case that catches it.")


def test_napkit_conform_fails_on_a_mutant(tmp_path: Path) -> None:
    """The command itself, as a user would run it, on one mutant: exit status 1 and the
    failing case in the JSON report."""
    _suite()
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "napkit", "conform", "--exitfirst", "--quiet", "--ruleset",
         "pagat", "--rule", "NAP-8.1.1", "--json", str(report), "--",
         sys.executable, str(MUTANT_ADAPTER), "revoke-allowed"],
        capture_output=True, text=True, timeout=600, check=False, cwd=ROOT)
    assert done.returncode == 1, done.stdout + done.stderr
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["ok"] is False
    assert "revoke-allowed" in document["program"]["name"]
    assert any(c["status"] == FAILED for c in document["cases"])


# --- the mutant adapter's own command line ---------------------------------------------------
def _adapter(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(MUTANT_ADAPTER), *args], input=stdin,
                          capture_output=True, text=True, timeout=120, check=False, cwd="/")


def test_adapter_lists_every_mutant_with_its_rule() -> None:
    done = _adapter("--list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(REGISTRY)
    for line, m in zip(lines, REGISTRY.values(), strict=True):
        name, rule, *_ = line.split()
        assert (name, rule) == (m.name, m.rule)


@pytest.mark.parametrize("args", [(), ("no-such-mutant",), ("revoke-allowed", "extra"),
                                  ("--bogus",)])
def test_adapter_usage_errors(args: tuple[str, ...]) -> None:
    done = _adapter(*args)
    assert done.returncode == 2
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.strip()


def _revoke_hand() -> list[dict[str, object]]:
    """A hand of classic (three players, seat 0 deals, cards dealt singly from seat 1): seat 1
    holds the top five spades, bids three and leads the ace; seat 2 holds the two of spades
    and four hearts, so must follow with the two (NAP-8.1.1)."""
    seat1 = ["AS", "KS", "QS", "JS", "10S"]
    seat2 = ["2S", "2H", "3H", "4H", "5H"]
    seat0 = ["6H", "7H", "8H", "9H", "10H"]
    dealt = [card for trio in zip(seat1, seat2, seat0, strict=True) for card in trio]
    rest = [r + s for s in SUIT_LETTERS for r in RANK_NAMES if r + s not in dealt]
    return [
        {"type": "hello", "protocol": "napkit-adapter/1"},
        {"type": "start-hand", "ruleset": "classic", "options": {}, "players": 3, "dealer": 0,
         "seats": [0, 1, 2], "pool": 0, "funds": None, "stakes": 1},
        {"type": "apply", "seat": None, "action": {"type": "deal", "pack": dealt + rest}},
        {"type": "apply", "seat": 1, "action": {"type": "bid", "bid": "three"}},
        {"type": "apply", "seat": 2, "action": {"type": "pass"}},
        {"type": "apply", "seat": 0, "action": {"type": "pass"}},
        {"type": "apply", "seat": 1, "action": {"type": "play", "card": "AS"}},
        {"type": "legal"},
        {"type": "apply", "seat": 2, "action": {"type": "play", "card": "5H"}},
        {"type": "bye"},
    ]


@pytest.mark.parametrize("command", [[str(MUTANT_ADAPTER), "revoke-allowed"],
                                     ["-m", "napkit.protocol.adapter"]])
def test_adapter_serves_the_protocol_with_the_mutant(command: list[str]) -> None:
    """Out of any directory, the mutant adapter plays as the reference does, but for its bug:
    it lists every card of seat 2 as legal after a spade lead, and accepts the revoke that the
    reference adapter refuses."""
    requests = [{"id": i, **r} for i, r in enumerate(_revoke_hand())]
    done = subprocess.run([sys.executable, *command],
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, timeout=120, check=False, cwd="/")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == list(range(len(requests)))
    assert [a["type"] for a in answers[1:7]] == ["ok"] + ["accepted"] * 5
    legal, revoke = answers[7], answers[8]
    mutant = command[0] == str(MUTANT_ADAPTER)
    assert legal["turn"] == 2
    assert len(legal["actions"]) == (5 if mutant else 1)
    if mutant:
        assert "revoke-allowed" in answers[0]["name"] and "NAP-8.1.1" in answers[0]["name"]
        assert revoke["type"] == "accepted"
    else:
        assert (revoke["type"], revoke["rule"]) == ("refused", "NAP-8.1.1")
