"""A third party's program that keeps a score sheet in points and sticks the dealer
(conformance/adapters/py-points/points_nap.py, issue 28 "What it must show"), checked as its
author would check it: `napkit conform --ruleset-file` runs the house game's generated suite
(spec/conformance.md 1.3), `napkit fuzz` plays it against the engine (part 4), and an
arithmetic bug planted in its score sheet (`--bug`) is caught, naming the field and the rule
(NAP-9.6.3, NAP-10.4.5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "spec" / "examples" / "house-points-stick.json"
HERE = ROOT / "conformance" / "adapters" / "py-points"
PROGRAM = [sys.executable, str(HERE / "points_nap.py")]
OWN_CASES = HERE / "cases"


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One cache for the module: the game's suite is generated once, not in the user's cache."""
    return {**os.environ, "NAPKIT_CACHE": str(tmp_path_factory.mktemp("cache"))}


def napkit(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "napkit", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def conform(env: dict[str, str], tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "conform.json"
    run = napkit(env, "conform", "--ruleset-file", str(HOUSE), "-q", "--json", str(report),
                 *args)
    return run.returncode, json.loads(report.read_text(encoding="utf-8"))


def fuzz(env: dict[str, str], tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "fuzz.json"
    run = napkit(env, "fuzz", "--ruleset-file", str(HOUSE), "-q", "--json", str(report),
                 "-o", str(tmp_path / "reproducer.json"), *args)
    return run.returncode, json.loads(report.read_text(encoding="utf-8"))


def failures(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in report["cases"] if c["status"] == "failed"]


def test_the_program_answers_the_handshake_without_napkit() -> None:
    """It is standalone: the handshake declares the house game, every option and table, and
    the program imports nothing of napkit's."""
    source = (HERE / "points_nap.py").read_text(encoding="utf-8")
    assert "napkit" not in "".join(line for line in source.splitlines()
                                   if line.startswith(("import ", "from ")))
    hello = '{"id": 0, "type": "hello", "protocol": "napkit-adapter/1"}\n'
    run = subprocess.run(PROGRAM, input=hello + '{"id": 1, "type": "bye"}\n',
                         capture_output=True, text=True, timeout=30, check=True)
    first, bye = (json.loads(line) for line in run.stdout.splitlines())
    supports = first["supports"]
    assert supports["kinds"] == ["legal", "illegal", "outcome", "match"]
    assert supports["rulesets"]["points-stick"]["players"] == [3, 4, 5, 6, 7]
    assert bye == {"id": 1, "type": "bye"}


def test_it_passes_the_house_games_generated_suite(env: dict[str, str], tmp_path: Path) -> None:
    status, report = conform(env, tmp_path, "--", *PROGRAM)
    totals = report["totals"]
    assert status == 0 and report["ok"] is True, totals
    assert totals["failed"] == 0 and totals["rule_not_named"] == 0, totals
    assert totals["skipped"] == 0 and totals["passed"] >= 300, totals
    assert {c["ruleset"] for c in report["cases"]} == {"points-stick"}
    kinds = {c["id"].split("/")[1] for c in report["cases"]}
    assert kinds == {"legal", "illegal", "outcome", "match"}
    # The dealer stuck has its refusal among the cases, and the program names its rule.
    assert any("dealer-passes-stuck" in c["id"] for c in report["cases"])


def test_it_is_fuzzed_clean(env: dict[str, str], tmp_path: Path) -> None:
    status, report = fuzz(env, tmp_path, "--hands", "150", "--seed", "28", "--", *PROGRAM)
    assert status == 0 and report["disagreement"] is None, report["disagreement"]
    assert report["episodes"] == 150 and report["rule_not_named"] == 0
    reached = set(report["reached"])  # contracts made and defeated, and whole matches
    assert {"three made", "four defeated", "match played out"} <= reached, reached


def test_a_defeat_scored_off_the_declarer_fails_the_suite_at_outcome_score(
        env: dict[str, str], tmp_path: Path) -> None:
    status, report = conform(env, tmp_path, "--", *PROGRAM, "--bug", "defeated-off-declarer")
    assert status == 1 and report["ok"] is False
    failed = failures(report)
    hands = [c for c in failed if c["id"].split("/")[1] == "outcome"]
    matches = [c for c in failed if c["id"].split("/")[1] == "match"]
    assert hands and matches
    # Only the points differ, and only where a contract was defeated.
    assert all(c["id"].endswith("-defeated") for c in hands), [c["id"] for c in hands]
    for case in hands:
        failure = case["failure"]
        assert failure["message"].endswith(": NAP-9.6.3"), failure["message"]
        assert case["blamed"] == ["NAP-9.6.3"], case["blamed"]  # not NAP-9.6.2 (a made one)
        declarer = failure["answered"].index(min(failure["answered"]))
        assert failure["answered"][declarer] < 0 == failure["expected"][declarer]
    for case in matches:
        assert "outcome.scores" in case["failure"]["message"]
        # the defeated hand's points first (the hand that first differs), then the totals
        assert case["blamed"] == ["NAP-9.6.3", "NAP-10.4.4"], case["blamed"]


def test_a_defeat_scored_off_the_declarer_is_found_by_fuzz(
        env: dict[str, str], tmp_path: Path) -> None:
    """The first defeated contract disagrees: in a lone hand at `outcome.score` (NAP-9.6.3),
    in a match at its totals, `outcome.scores` (NAP-10.4.4)."""
    status, report = fuzz(env, tmp_path, "--hands", "200", "--seed", "1",
                          "--shrink-seconds", "5", "--", *PROGRAM,
                          "--bug", "defeated-off-declarer")
    found = report["disagreement"]
    assert status == 1 and found is not None
    case = json.loads((tmp_path / "reproducer.json").read_text(encoding="utf-8"))
    if case["kind"] == "outcome":
        assert found["message"].startswith("outcome.score: ") and \
            found["message"].endswith(": NAP-9.6.3"), found["message"]
        assert case["expect"]["outcome"]["made"] is False
        assert "The rule: NAP-9.6.3 (Points for a defeated contract)." in case["description"]
    else:
        assert found["message"].startswith("outcome.scores: ") and \
            found["message"].endswith(": NAP-10.4.4"), found["message"]


def test_a_match_played_past_its_target_is_caught(env: dict[str, str], tmp_path: Path) -> None:
    """A score exactly at the target ends the match (NAP-10.4.5). The generated suite's
    targeted case (a score reaching 15 exactly before the agreed end) fails the program that
    ends the match at 16, put down to NAP-10.4.5; so does the program's own case, which passes
    on the reference and on the correct program. `napkit fuzz` finds the same bug."""
    status, report = conform(env, tmp_path, "--case", "points-stick/match/t-target-reached",
                             "--", *PROGRAM, "--bug", "target-off-by-one")
    [failed] = failures(report)
    assert status == 1 and failed["failure"]["message"] == \
        "the match is not over after the last step"
    blamed = [b["rule"] for b in failed["failure"]["blamed"]]
    assert "NAP-10.4.5" in blamed and "NAP-10.4.3" not in blamed, blamed
    own = ("--suite", str(OWN_CASES))
    status, reference = conform(env, tmp_path, *own)
    assert status == 0 and reference["totals"]["passed"] == 1, reference["totals"]
    status, report = conform(env, tmp_path, *own, "--", *PROGRAM)
    assert status == 0 and report["totals"]["passed"] == 1, report["totals"]
    status, report = conform(env, tmp_path, *own, "--", *PROGRAM, "--bug", "target-off-by-one")
    [failed] = failures(report)
    assert status == 1 and failed["failure"]["message"] == \
        "the match is not over after the last step"
    assert failed["failure"]["hand"] == 3
    status, found = fuzz(env, tmp_path, "--hands", "400", "--seed", "28", "--no-shrink",
                         "--", *PROGRAM, "--bug", "target-off-by-one")
    assert status == 1 and found["disagreement"] is not None


def test_the_guide_shows_what_the_commands_print(env: dict[str, str], tmp_path: Path) -> None:
    """docs/guides/house-rules.md, section 5, walks this program to a green run with each
    command's output: the lines that say what happened must be what the commands print."""
    guide = (ROOT / "docs" / "guides" / "house-rules.md").read_text(encoding="utf-8")
    game = tmp_path / "my-game.json"
    game.write_bytes(HOUSE.read_bytes())
    program = tmp_path / "points_nap.py"
    program.write_bytes((HERE / "points_nap.py").read_bytes())
    run = subprocess.run([sys.executable, "-m", "napkit", "conform", "--ruleset-file",
                          "my-game.json", "--", "python3", "points_nap.py"], cwd=tmp_path,
                         env={**env, "PYTHONPATH": str(ROOT / "reference")},
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("napkit conform: the "
                                                                         "suite of")]
    counted = said[0].split(" generated in ")[0].split(", kept in ")[0]
    assert counted in guide, counted
    bug = subprocess.run([sys.executable, "-m", "napkit", "conform", "--ruleset-file",
                          "my-game.json", "--kind", "outcome", "-x", "--", "python3",
                          "points_nap.py", "--bug", "defeated-off-declarer"], cwd=tmp_path,
                         env={**env, "PYTHONPATH": str(ROOT / "reference")},
                         capture_output=True, text=True, timeout=300, check=False)
    first = next(line for line in bug.stdout.splitlines() if line.startswith("FAILED "))
    assert bug.returncode == 1 and first in guide, first
