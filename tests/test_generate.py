"""The case generator as a library (napkit.conform.suite.generate): the built-in suite drawn
again in this process, byte for byte; the cases of a house ruleset never seen before, which
the suite's loader takes and napkit's adapter passes; and one layout of the case files, for
the generator's cases and the fuzzer's reproducers alike.

(tests/test_conformance_suite.py runs the script, conformance/generate.py, into a folder.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest
from napkit.conform.run.runner import PASSED, run_case
from napkit.conform.suite.cases import (
    OWN_RULESETS,
    add_rulesets,
    case_files,
    case_id,
    case_path,
    load_suite,
    path_case_id,
)
from napkit.conform.suite.generate import (
    GENERATOR,
    dumps,
    generate,
    generate_cases,
    is_generated,
    write_suite,
)
from napkit.protocol.process import Session, in_process_opener
from napkit.spec.catalog import default_spec
from napkit.spec.house import load_ruleset_path
from napkit.spec.rulesets import Ruleset

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "conformance" / "cases"
MUTANT = REPO / "conformance" / "mutants" / "adapter.py"

# A table's own game: classic with a bid of Two below Three, and no Wellington.
HOUSE = {
    "house": True, "id": "classic-with-two", "title": "Classic with a Two", "extends": "classic",
    "description": "Classic Nap, but anyone may open with Two; Nap is the top bid.",
    "options": {"wellington-shuffle": {"choices": ["nap-only"]}},
    "params": {"bids": [
        {"id": bid, "name": name, "tricks": tricks, "trumps": "first-card-led", "lead": "any",
         "win": {"each": tricks}, "lose": {"each": tricks}}
        for bid, name, tricks in (("two", "2", 2), ("three", "3", 3), ("four", "4", 4),
                                  ("nap", "Nap", 5))]},
}


def committed(ruleset: str | None = None) -> dict[PurePosixPath, Path]:
    """The generated case files of the built-in suite (of one ruleset), by their path there."""
    return {PurePosixPath(path.relative_to(CASES).as_posix()): path
            for path in sorted(CASES.glob(f"{ruleset or '*'}/*/*.json")) if is_generated(path)}


# --- (a) the built-in suite, again ------------------------------------------------------------
def test_the_library_draws_the_built_in_suite_byte_for_byte() -> None:
    # The whole suite (some 15 s of one core): each ruleset's cases on their own, at the
    # paths and with the bytes of the files committed, and no case more or fewer.
    expected = committed()
    drawn: dict[PurePosixPath, str] = {}
    for ruleset in default_spec().rulesets.values():
        for path, case in generate_cases(ruleset):
            assert path == case_path(case["id"]) and path.parts[0] == ruleset.id, path
            assert path not in drawn, f"{path} drawn twice"
            drawn[path] = dumps(case)
    assert sorted(drawn) == sorted(expected), (
        f"only drawn: {sorted(set(drawn) - set(expected))[:5]}; "
        f"only committed: {sorted(set(expected) - set(drawn))[:5]}")
    different = [str(p) for p, text in drawn.items()
                 if text != expected[p].read_text(encoding="utf-8")]
    assert not different, f"{len(different)} files differ, e.g. {different[:5]}"


def test_write_suite_of_one_ruleset_leaves_the_others(tmp_path: Path) -> None:
    # A ruleset written alone replaces that ruleset's generated cases only: another ruleset's
    # generated case and a hand-written case of the same ruleset stay as they were.
    other = tmp_path / "pagat" / "legal" / "0000-hand.json"
    mine = tmp_path / "classic" / "legal" / "9999-stale.json"
    kept = tmp_path / "classic" / "legal" / "kept-by-hand.json"
    for path, text in ((other, '{"tags": ["generated"]}'), (mine, '{"tags": ["generated"]}'),
                       (kept, '{"tags": ["handworked"]}')):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    classic = default_spec().rulesets["classic"]  # the quickest ruleset to generate
    counts = write_suite(tmp_path, [classic])
    assert other.exists() and kept.exists() and not mine.exists()
    expected = committed("classic")
    found = {PurePosixPath(p.relative_to(tmp_path).as_posix())
             for p in tmp_path.glob("classic/*/*.json") if p != kept}
    assert found == set(expected) and sum(counts.values()) == len(expected)
    assert all((tmp_path / p).read_bytes() == expected[p].read_bytes() for p in found)
    # A generated case whose file is a hand-written one's: refused, naming the file.
    clash = tmp_path / "classic" / "legal" / "0000-hand.json"
    clash.write_text('{"tags": ["handworked"]}', encoding="utf-8")
    with pytest.raises(FileExistsError) as caught:
        write_suite(tmp_path, [classic])
    assert caught.value.filename == os.fspath(clash)


# --- (b) a house ruleset's cases ---------------------------------------------------------------
@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ruleset]:
    path = tmp_path_factory.mktemp("house") / "house.json"
    path.write_text(json.dumps(HOUSE, indent=1), encoding="utf-8")
    ruleset = load_ruleset_path(path)
    saved = dict(OWN_RULESETS)
    add_rulesets([ruleset])  # as napkit conform --ruleset-file makes it known to the loader
    yield ruleset
    OWN_RULESETS.clear()
    OWN_RULESETS.update(saved)


def test_a_house_ruleset_gets_cases_that_load_and_pass(tmp_path: Path, house: Ruleset) -> None:
    by = "napkit conform --ruleset-file house.json"
    counts = write_suite(tmp_path, [house], by=by)
    assert all(counts.get(kind, 0) > 0 for kind in ("legal", "illegal", "outcome", "match"))
    cases, problems = load_suite(tmp_path)
    assert problems == [], "\n".join(map(str, problems[:5]))
    assert len(cases) == sum(counts.values())
    assert {case.ruleset for case in cases} == {house.id}
    assert all(case.path == tmp_path.joinpath(case_path(case.id)) for case in cases)
    # Deterministic: the same cases again, in the same order.
    again = [(str(path), dumps(case)) for path, case in generate_cases(house, by=by)]
    assert again == [(str(case_path(c["id"])), dumps(c)) for c in generate([house], by=by)]
    assert sorted(p for p, _ in again) == sorted(str(case_path(c.id)) for c in cases)
    documents = [json.loads(text) for _, text in again]
    assert all(d["generated"]["by"] == by for d in documents)
    # They are the house's game: its bid of Two is bid, Wellington never (but as a bid the
    # game does not know, refused: NAP-5.2.2).
    played = json.dumps([d["steps"] for d in documents])
    assert '"bid": "two"' in played and '"wellington"' not in played
    assert any(d["expect"].get("refuse", {}).get("action") == {"type": "bid", "bid": "wellington"}
               for d in documents)
    # Every play rule the house has in force has a case, as in the built-in suite.
    lawbook = default_spec().lawbook
    in_force = {r.id for r in lawbook if r.kind == "play"} & set(house.rules)
    assert in_force <= {rule for case in cases for rule in case.rules}
    # And napkit's adapter, playing the house file, passes every one.
    session = Session(in_process_opener([house]), 10.0)
    session.open()
    failed = []
    for case in cases:
        result = run_case(case, session)
        if result.status != PASSED:
            failed.append(f"{case.id}: {result.status} at {result.where}: {result.message}")
        if not session.alive:
            session.open()
    session.kill()
    assert not failed, "\n".join(failed[:10])


# --- (c) one layout -------------------------------------------------------------------------
def test_a_case_id_and_its_path_are_one_layout() -> None:
    ident = case_id("classic-with-two", "illegal", "0001-revoke")
    assert ident == "classic-with-two/illegal/0001-revoke"
    assert case_path(ident) == PurePosixPath("classic-with-two/illegal/0001-revoke.json")
    assert path_case_id(case_path(ident)) == ident
    assert path_case_id(case_path("pagat/legal/odd.name")) == "pagat/legal/odd.name"
    assert case_files(CASES)["classic/legal/0000-hand"] == CASES / "classic/legal/0000-hand.json"


def test_the_fuzzers_reproducer_and_the_generators_cases_share_the_layout(
        tmp_path: Path) -> None:
    # napkit fuzz, finding a planted revoke, writes its reproducer (no -o) under the name the
    # layout gives the case's file; put at its path under a suite folder, beside a generated
    # case of the same ruleset, the suite's loader takes both, their ids their paths.
    run = subprocess.run([sys.executable, "-m", "napkit", "fuzz", "-q", "--seed", "3",
                          "--ruleset", "classic", "--no-shrink", "--hands", "200", "--",
                          sys.executable, str(MUTANT), "revoke-allowed"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120,
                         check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    [written] = tmp_path.glob("*.json")
    reproducer = json.loads(written.read_text(encoding="utf-8"))
    assert written.name == case_path(reproducer["id"]).name
    assert reproducer["id"] == case_id("classic", reproducer["kind"], written.stem)
    suite = tmp_path / "suite"
    path, generated = next(generate_cases(default_spec().rulesets["classic"]))
    for case in (reproducer, generated):
        target = suite.joinpath(case_path(case["id"]))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dumps(case), encoding="utf-8")
    assert suite.joinpath(path).exists()
    shutil.copy(written, suite.joinpath(case_path(reproducer["id"])))  # the bytes fuzz wrote
    cases, problems = load_suite(suite)
    assert problems == []
    assert sorted(c.id for c in cases) == sorted([reproducer["id"], generated["id"]])
    assert generated["generated"]["by"] == GENERATOR
