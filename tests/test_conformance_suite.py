"""The conformance suite's own files (conformance/cases): valid, complete, reproducible, right.

* every case file loads (its schema, its id is its path, its game is one the spec has), and
  every case is tagged either ``generated`` or ``handworked``;
* running the generator again, into a temporary folder, writes byte for byte the generated
  files that are committed, every one of them, and no others;
* the coverage matrix has no empty cell: every play rule in force in a ruleset has a case of
  that ruleset;
* every hand-written case's expectation (worked out by hand from the law book, never read from
  the engine) agrees with the reference engine, run in this process through the harness; and
  a wrong expectation would be caught;
* every generated ``illegal`` case's last action is refused by the engine for the rule the
  case names, and everything before it is accepted.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from napkit.conform.run.matrix import breach_matrix, empty_cells, main_matrix
from napkit.conform.run.runner import PASSED, run_case
from napkit.conform.suite import generate
from napkit.conform.suite.cases import Case, load_suite
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.protocol.process import Session, in_process_opener
from napkit.spec.catalog import default_spec
from napkit.spec.schemas import schema_problems

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "conformance" / "cases"
GENERATOR = REPO / "conformance" / "generate.py"
KINDS = ("legal", "illegal", "outcome", "match")


def generator() -> ModuleType:
    """The generator's library module, which conformance/generate.py runs."""
    return generate


@cache
def _documents() -> tuple[tuple[Path, dict[str, Any]], ...]:
    return tuple((path, json.loads(path.read_text(encoding="utf-8")))
                 for path in sorted(CASES.glob("*/*/*.json")))


def documents() -> Iterator[tuple[Path, dict[str, Any]]]:
    yield from _documents()


@cache
def suite() -> tuple[Case, ...]:
    """Every case, each file checked against case.schema.json first."""
    cases = []
    for path, doc in documents():
        problems = schema_problems("case", doc)
        assert not problems, f"{path}: {problems[:3]}"
        cases.append(Case.from_document(doc, path))
    return tuple(cases)


def test_every_case_file_is_valid_and_its_id_is_its_path() -> None:
    files = sorted(CASES.glob("**/*.json"))
    assert len(files) >= 3000, f"only {len(files)} case files under {CASES}"
    assert all(p.parent.parent.parent == CASES for p in files), "a case file is misplaced"
    cases = suite()  # each valid by the schema
    assert len(cases) == len(files)
    spec = default_spec()
    for case in cases:
        assert case.path.relative_to(CASES).with_suffix("").as_posix() == case.id
        assert case.id.split("/")[:2] == [case.ruleset, case.kind]
        assert ("generated" in case.tags) != ("handworked" in case.tags), case.id
        for name in ("ruleset", "options", "players"):
            assert case.start[name] == getattr(case, name), f"{case.id}: start.{name}"
        # Every option written out, with a choice the ruleset offers, at a legal table.
        ruleset = spec.rulesets[case.ruleset]
        assert set(case.options) == set(ruleset.options), case.id
        Game.create(case.ruleset, case.players, case.options)
    broken = {**_documents()[0][1], "kind": "nonsense"}
    assert schema_problems("case", broken), "the schema check would pass anything"


def test_the_harness_loads_the_case_files() -> None:
    # napkit conform's own loader (schema, id, game) accepts the hand-written cases and a
    # sample of the generated ones (all of them take it some 20 s).
    sample = {p for p, d in documents() if "handworked" in d["tags"]}
    sample |= {p for p, _ in _documents()[::97]}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for path in sample:
            target = root / path.relative_to(CASES)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
        cases, problems = load_suite(root)
    assert not problems, "\n".join(map(str, problems[:10]))
    assert len(cases) == len(sample)


def test_generated_counts_per_kind() -> None:
    counts = Counter((case.kind, "generated" in case.tags) for case in suite())
    report = ", ".join(f"{counts[k, True]} {k}" for k in KINDS)
    print(f"generated cases: {report}; hand-written: {sum(counts[k, False] for k in KINDS)}")
    for kind in KINDS:
        assert counts[kind, True] >= 200, f"only {counts[kind, True]} generated {kind} cases"
    assert sum(counts[k, True] for k in KINDS) >= 3000


def test_generated_cases_say_how_they_were_made() -> None:
    for path, doc in documents():
        tags = doc["tags"]
        assert isinstance(tags, list)
        if "generated" in tags:
            assert doc["generated"] == {"by": "python conformance/generate.py",
                                        "seed": doc["generated"]["seed"]}
            assert str(doc["description"]).startswith("Generated: "), path
            # Canonical (indented, leaf lists on one line): exactly what the generator writes.
            assert path.read_text(encoding="utf-8") == generator().dumps(doc), path
        else:
            assert "generated" not in doc, path


def test_regenerating_gives_byte_identical_files(tmp_path: Path) -> None:
    # A hand-written case already in the output folder must survive regeneration untouched.
    keep = tmp_path / "classic" / "legal" / "kept-by-hand.json"
    keep.parent.mkdir(parents=True)
    hand = next(p for p, d in documents() if "handworked" in d["tags"])
    keep.write_bytes(hand.read_bytes())
    # And a stale generated file must go.
    stale = tmp_path / "classic" / "legal" / "9999-stale.json"
    stale.write_text(json.dumps({"tags": ["generated"]}), encoding="utf-8")
    run = subprocess.run([sys.executable, str(GENERATOR), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    assert not stale.exists()
    assert keep.read_bytes() == hand.read_bytes()
    written = {p.relative_to(tmp_path) for p in tmp_path.glob("*/*/*.json")} - {
        keep.relative_to(tmp_path)}
    committed = {p.relative_to(CASES) for p, d in documents()
                 if "generated" in d["tags"]}
    assert written == committed, (f"only regenerated: {sorted(written - committed)[:5]}; "
                                  f"only committed: {sorted(committed - written)[:5]}")
    different = [str(rel) for rel in sorted(written)
                 if (tmp_path / rel).read_bytes() != (CASES / rel).read_bytes()]
    assert not different, f"{len(different)} files differ, e.g. {different[:5]}"


def test_the_coverage_matrix_has_no_empty_cell() -> None:
    lines, empty = main_matrix(suite())
    assert not empty, "\n".join(lines[-1:])
    assert empty_cells(suite()) == []
    assert lines[-1].startswith("no empty cell")
    # One row per play rule, one column per ruleset, "-" where a rule is not in force.
    spec = default_spec()
    play = [rule.id for rule in spec.lawbook if rule.kind == "play"]
    rows = [line.split()[0] for line in lines[2:2 + len(play)]]
    assert rows == play
    assert lines[0].split()[1:] == list(spec.rulesets)


def test_the_matrix_shows_an_empty_cell() -> None:
    # Without the cases of peep that exercise NAP-9.5.1, that cell is empty and said to be.
    cases = [c for c in suite() if not (c.ruleset == "peep" and "NAP-9.5.1" in c.rules)]
    lines, empty = main_matrix(cases)
    assert empty
    assert ("NAP-9.5.1", "peep") in empty_cells(cases)
    assert "NAP-9.5.1 in peep" in lines[-1]
    row = next(line for line in lines if line.startswith("NAP-9.5.1"))
    assert row.split()[1:] == ["-"] * (len(default_spec().rulesets) - 1)  # peep: blank


def test_the_breach_matrix_has_no_empty_cell() -> None:
    """Every refusal the law book defines has an illegal case in every ruleset where it can
    arise (issue 14): the matrix by breach, spec/conformance.md 1.2."""
    lines, empty = breach_matrix(suite())
    assert not empty, lines[-1]
    spec = default_spec()
    rows = [line.split()[0] for line in lines[2:]][:len(spec.lawbook.refusals)]
    assert rows == list(spec.lawbook.refusals)
    assert len(rows) >= 30


def test_the_breach_matrix_shows_an_empty_cell() -> None:
    # Without peep's cases of a sit-out that would leave one player, that cell is a hole.
    cases = [c for c in suite()
             if not (c.ruleset == "peep" and "breach-sit-out-last" in c.tags)]
    lines, empty = breach_matrix(cases)
    assert empty
    assert "sit-out-last in peep" in lines[-1]
    row = next(line for line in lines if line.startswith("sit-out-last"))
    assert "n/a" in row.split() and "-" in row.split()  # cannot arise / rule not in force


def test_every_illegal_case_tags_one_refusal_of_its_rule() -> None:
    """The tag breach-ID of an illegal case names a refusal of the law book, defined by the
    rule the case expects; and the generator has a finder for every refusal."""
    spec = default_spec()
    for case in suite():
        if case.kind != "illegal":
            continue
        tags = [t[len("breach-"):] for t in case.tags if t.startswith("breach-")]
        assert len(tags) == 1, (case.id, tags)
        rule, _ = spec.lawbook.refusals[tags[0]]
        assert rule.id == case.expect["refuse"]["rule"], case.id
    assert {b.name for b in generator().BREACHES} == set(spec.lawbook.refusals)


def test_case_rules_are_play_rules_in_force() -> None:
    spec = default_spec()
    play = {rule.id for rule in spec.lawbook if rule.kind == "play"}
    for case in suite():
        in_force = set(spec.rulesets[case.ruleset].rules) & play
        assert case.rules and set(case.rules) <= in_force, case.id


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    opened = Session(in_process_opener(), timeout=10)
    opened.open()
    yield opened
    opened.kill()


def handworked() -> list[Case]:
    return [case for case in suite() if "handworked" in case.tags]


def test_hand_written_cases_cover_every_kind_in_several_rulesets() -> None:
    kinds = Counter((case.ruleset, case.kind) for case in handworked())
    complete = [r for r in default_spec().rulesets if all(kinds[r, k] for k in KINDS)]
    assert len(complete) >= 3, f"rulesets with a hand-written case of every kind: {complete}"
    for case in handworked():
        assert len(case.description) > 200, f"{case.id}: the description derives nothing"


def test_hand_written_expectations_agree_with_the_engine(session: Session) -> None:
    failed = []
    for case in handworked():
        result = run_case(case, session)
        if result.status != PASSED or result.note:
            failed.append(f"{case.id}: {result.status} at {result.where}: {result.message}"
                          f"{result.note}")
        if not session.alive:
            session.open()
    assert not failed, "\n".join(failed)


def test_a_wrong_expectation_is_caught(session: Session) -> None:
    # The check above could fail: the same runner rejects a hand-written case whose expected
    # net, trick winner or refusal rule is changed.
    outcome = next(c for c in handworked() if c.kind == "outcome")
    wrong = copy.deepcopy(outcome.expect)
    wrong["outcome"]["net"][0] += 1
    assert run_case(_with(outcome, expect=wrong), session).status != PASSED
    wrong = copy.deepcopy(outcome.expect)
    wrong["outcome"]["trick_winners"][-1] = (wrong["outcome"]["trick_winners"][-1] + 1) % 4
    assert run_case(_with(outcome, expect=wrong), session).status != PASSED
    illegal = next(c for c in handworked() if c.kind == "illegal")
    wrong = copy.deepcopy(illegal.expect)
    wrong["refuse"]["rule"] = "NAP-1.2.1"
    assert run_case(_with(illegal, expect=wrong), session).status != PASSED
    if not session.alive:
        session.open()


def _with(case: Case, **changes: object) -> Case:
    from dataclasses import replace

    return replace(case, **changes)  # type: ignore[arg-type]


def test_generated_illegal_cases_are_refused_for_their_rule() -> None:
    gen = generator()
    checked: Counter[str] = Counter()
    for _, doc in documents():
        if doc["kind"] != "illegal" or "generated" not in doc["tags"]:
            continue
        answer = gen.replay(doc)  # raises if a step before the last is refused
        expected = doc["expect"]["refuse"]["rule"]
        assert answer["refuse"] == expected, f"{doc['id']}: {answer['refuse']} != {expected}"
        checked[expected] += 1
    assert sum(checked.values()) >= 1000
    # Every kind of breach the generator knows is among them, but those left to hand-written
    # cases (a declarer dealt five cards of one suit, which random play hardly ever reaches)
    # and those of house play that no built-in ruleset can reach (the dealer stuck, NAP-5.3.3,
    # whose cases are in the suites of house games: tests/test_house_rulesets.py).
    builtin = default_spec().rulesets.values()
    assert set(checked) == {breach.rule for breach in gen.BREACHES if breach.name not in
                            gen.BY_HAND and any(gen.reachable(r, breach.name) for r in builtin)}
    assert "NAP-5.3.3" not in checked


def test_the_generator_checks_the_rule_it_meant_to_break() -> None:
    # A breach whose action the engine refuses for another rule (or accepts) stops the
    # generator: here a "revoke" is tried with a card the player does not hold.
    gen = generator()
    real = gen.BREACH_BY_NAME["revoke"]
    ruleset = default_spec().rulesets["classic"]

    from napkit.conform.suite.breaches import Candidates, _not_held

    def not_held(state: HandState, rng: random.Random) -> Candidates:
        return list(_not_held(state, rng))

    fake = gen.Breach("revoke", not_held)
    assert fake.rule == real.rule
    saved = dict(gen.BREACH_BY_NAME)
    gen.BREACH_BY_NAME["revoke"] = fake
    try:
        with pytest.raises(AssertionError, match=r"meant to break NAP-8\.1\.1.*NAP-1\.3\.2"):
            gen.illegal_case(ruleset, 0)
    finally:
        gen.BREACH_BY_NAME.clear()
        gen.BREACH_BY_NAME.update(saved)


@pytest.mark.parametrize(("ruleset", "rule"), [("peep", "NAP-9.5.1"), ("pagat-purchase",
                                                                        "NAP-6.2.2")])
def test_targeted_generation_fills_a_cell(ruleset: str, rule: str) -> None:
    # Random play leaves no cell empty today; were one empty, the generator draws cases aimed
    # at it until one exercises the rule.
    gen = generator()
    case = gen._targeted(gen.Book.load(), default_spec().rulesets[ruleset], rule)
    assert case is not None
    assert rule in case["rules"] and "targeted" in case["tags"]
    slug = rule.lower().replace(".", "-")
    assert case["id"].startswith(f"{ruleset}/") and case["id"].endswith(f"/t-{slug}")
    assert schema_problems("case", case) == []
