"""A failure as a hand, and blame on the right rule (issue 17, parts 1 and 4).

* A planted bug in a match, shown only in its third hand (the fixture program
  ``third_hand_paid_twice``), is reported at that hand's settlement: the hand, the step that
  ends it, the deal of that hand as cards per seat, expected and answered, the rule.
* The command printed to run a failure again, run as it is printed, fails the same way.
* A bidding bug (the mutant ``equal-bid-allowed``, NAP-5.2.1) is put down to the rules of the
  auction in the by-rule table, not to the play rules its cases also touch; the column
  ``touching`` still counts those.
* Steps are numbered as people count them: step 0 is the deal.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main
from napkit.conform.report.failure import rerun_command
from napkit.conform.report.numbering import hand_bounds, labels, places
from napkit.conform.suite.cases import default_suite_dir, load_case

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
THIRD_HAND = [PYTHON, str(ROOT / "tests" / "fixtures" / "adapters" / "third_hand_paid_twice.py")]
BIDDING = [PYTHON, str(ROOT / "conformance" / "mutants" / "adapter.py"), "equal-bid-allowed"]
MATCHES = ["classic/match/0001-4-hands", "classic/match/0008-5-hands"]


def conform(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
            program: list[str] | None = None) -> tuple[int, dict[str, Any], str]:
    """napkit conform in this process: its exit status, JSON report and standard output."""
    report = tmp_path / "report.json"
    argv = ["conform", "--json", str(report), *args]
    if program is not None:
        argv += ["--", *program]
    status = main(argv)
    out = capsys.readouterr().out
    return status, json.loads(report.read_text()), out


def failed(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in report["cases"] if c["status"] == "failed"]


# --- a match: the hand that first differs -----------------------------------------------------
def test_a_bug_of_the_third_hand_is_named_at_that_hand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [a for case_id in MATCHES for a in ("--case", case_id)]
    status, report, out = conform(tmp_path, capsys, *args, "-v", program=THIRD_HAND)
    assert status == 1
    assert [c["id"] for c in failed(report)] == MATCHES
    for case_json in failed(report):
        case, _ = load_case(default_suite_dir() / f"{case_json['id']}.json", None)
        assert case is not None
        # The final balances differ: the runner says only that.
        assert case_json["where"] == "outcome.balances"
        # The third hand's settlement: the step that ends the third hand.
        _, end = hand_bounds(case.steps)[2]
        last = labels(case.steps, match=True)[end - 1]
        assert last.startswith("hand 3, step ")
        failure = case_json["failure"]
        assert failure["hand"] == 3 and failure["step"] == end - 1
        assert failure["hand_step"] == places(case.steps, True)[end - 1][1]
        assert failure["where"] == last and failure["after"] is True
        assert failure["first"].startswith(
            f"hand 3 of the match first differs: its settlement, at {last}")
        # Stopped after the third hand, the balances differ by that hand's net counted twice.
        assert failure["expected"] != failure["answered"]
        assert failure["message"].startswith("with the match stopped after this hand, "
                                             "outcome.balances: expected")
        # The deal of the third hand, as cards per seat, and its steps from its own deal.
        assert set(failure["deal"]["hands"]) == {str(s) for s in range(case.players)}
        assert failure["actions"][0]["number"] == 0
        assert failure["actions"][0]["action"]["type"] in ("shuffle", "cut")
        assert failure["actions"][-1]["number"] == failure["hand_step"]
        assert case_json["blamed"] and all(r.startswith("NAP-9.") for r in case_json["blamed"])
        assert failure["blamed"][0]["title"]
        # The terminal says the same.
        assert f"FAILED {case.id}: outcome.balances" in out
        assert f"hand 3 of the match first differs: its settlement, at {last}" in " ".join(
            out.split())
        assert "the deal of hand 3 (dealer: seat " in out
    # A payment rule's text is quoted under the failure.
    assert "NAP-9." in out and "  rerun: napkit conform --case classic/match/0001-4-hands -- " \
        in out


def test_the_rerun_command_fails_the_same_way(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, report, out = conform(tmp_path, capsys, "--case", MATCHES[1], "--case",
                                  "classic/legal/0001-hand", program=BIDDING)
    assert status == 1
    legal = next(c for c in failed(report) if c["id"] == "classic/legal/0001-hand")
    rerun = legal["failure"]["rerun"]
    assert rerun == shlex.join(["napkit", "conform", "--case", "classic/legal/0001-hand", "--",
                                *BIDDING])
    assert f"  rerun: {rerun}" in out
    words = shlex.split(rerun)
    assert words[:2] == ["napkit", "conform"]
    again = subprocess.run([PYTHON, "-m", "napkit", *words[1:]], capture_output=True, text=True,
                           cwd=ROOT, timeout=120, check=False)
    assert again.returncode == 1, again.stdout + again.stderr
    assert f"FAILED {legal['id']}: {legal['message']}" in again.stdout
    assert "1 failed" in again.stdout.splitlines()[-1]


def test_the_rerun_command_of_the_third_hand_fails_the_same_way(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, report, _ = conform(tmp_path, capsys, "--case", MATCHES[0], "-q", program=THIRD_HAND)
    (case,) = failed(report)
    again = subprocess.run([PYTHON, "-m", "napkit", *shlex.split(case["failure"]["rerun"])[1:],
                            ], capture_output=True, text=True, cwd=ROOT, timeout=120,
                           check=False)
    assert again.returncode == 1
    assert f"FAILED {case['id']}: {case['message']}" in again.stdout
    assert "hand 3 of the match first differs" in " ".join(again.stdout.split())


def test_the_reference_is_rerun_without_a_command() -> None:
    case, _ = load_case(default_suite_dir() / "classic/legal/0001-hand.json", None)
    assert case is not None
    assert rerun_command(case, [], default_suite_dir()) == (
        "napkit conform --case classic/legal/0001-hand")
    assert rerun_command(case, ["node", "my nap.js"], default_suite_dir()) == (
        "napkit conform --case classic/legal/0001-hand -- node 'my nap.js'")
    # A case file given by its path is named by its path.
    assert rerun_command(case, [], None).startswith("napkit conform --case /")


# --- blame ------------------------------------------------------------------------------------
def test_a_bidding_bug_is_blamed_on_the_auction_not_on_the_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, out = conform(tmp_path, capsys, "--case", "classic/legal/000*",
                                  program=BIDDING)
    assert status == 1
    bad = failed(report)
    assert len(bad) >= 3
    # Every failure is put down to a rule of the auction (NAP-5), none to the play (NAP-8).
    assert all(c["blamed"] and all(r.startswith("NAP-5.") for r in c["blamed"]) for c in bad)
    blamed = report["by_blamed_rule"]
    assert blamed and all(rule.startswith("NAP-5.") for rule in blamed)
    assert sum(v["failed"] for v in blamed.values()) >= len(bad)
    # The cases touching the play rules still count the failed cases.
    assert report["by_rule"]["NAP-8.1.1"]["failed"] == len(bad)
    # The terminal's table: failed against the auction's rule, touching counts the play's.
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()
            if line.startswith("NAP-")}
    head = next(line.split()[2:] for line in out.splitlines()
                if line.split()[:2] == ["by", "rule"])
    assert head == ["passed", "failed", "skipped", "xfail", "xpass", "touching"]
    failed_col, touching_col = head.index("failed"), head.index("touching")
    assert rows["NAP-8.1.1"][failed_col] == "0"
    assert int(rows["NAP-8.1.1"][touching_col]) == sum(report["by_rule"]["NAP-8.1.1"].values())
    assert int(rows["NAP-5.2.1"][failed_col]) == len(bad)
    assert "a failure counts once, against the rule of the step that failed" in out


def test_a_failure_is_drawn_as_a_hand_with_step_0_the_deal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, report, out = conform(tmp_path, capsys, "--case", "classic/legal/0001-hand",
                             program=BIDDING)
    (case,) = failed(report)
    failure = case["failure"]
    # The legal set differs at the step before which it is asked: step 0 is the deal, step 1
    # the first action after it, as napkit replay and explain count them.
    assert case["where"] == failure["where"] == f"step {failure['step']}"
    assert failure["actions"][0] == {"number": 0, "seat": None, "action": {"type": "deal"},
                                     "words": failure["actions"][0]["words"]}
    assert [a["number"] for a in failure["actions"]] == list(range(failure["step"]))
    assert failure["after"] is False and " to bid" in failure["position"]
    assert [b["rule"] for b in failure["blamed"]] == ["NAP-5.2.1"]
    assert f"the steps before step {failure['step']} (step 0 is the deal):" in out
    assert "NAP-5.2.1 Pass or bid higher" in out
    assert "    expected: [" in out and "    answered: [" in out


def test_an_illegal_try_accepted_is_drawn_as_the_hand_it_was_tried_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # classic/illegal/0000-revoke: seat 1 holds a spade when the spade king is led, and tries
    # the king of clubs after step 5; the revoke-allowed mutant accepts it.
    revoke = [PYTHON, str(ROOT / "conformance" / "mutants" / "adapter.py"), "revoke-allowed"]
    _, report, out = conform(tmp_path, capsys, "--case", "classic/illegal/0000-revoke",
                             program=revoke)
    (case,) = failed(report)
    failure = case["failure"]
    assert failure["after"] is True and failure["where"] == "step 5"
    assert failure["deal"] is not None and "AS" in failure["deal"]["hands"]["1"]
    assert [a["number"] for a in failure["actions"]] == list(range(6))
    assert failure["position"].startswith("seat 1 to play to trick 1; ")
    assert "the steps to step 5 (step 0 is the deal):" in out
    assert "after step 5: accepted seat 1's" in out


def test_the_first_three_failures_are_drawn_and_v_draws_them_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, report, out = conform(tmp_path, capsys, "--case", "classic/legal/00*", program=BIDDING)
    n = len(failed(report))
    assert n > 3
    assert out.count("  rerun: ") == 3
    assert "(the first 3 failures are drawn in full, the others one line each: -v draws every " \
           "one)" in out
    _, _, verbose = conform(tmp_path, capsys, "--case", "classic/legal/00*", "-v",
                            program=BIDDING)
    assert verbose.count("  rerun: ") == n
    assert "-v draws every one" not in verbose


def test_junit_and_tap_carry_the_failure(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    junit, tap = tmp_path / "r.xml", tmp_path / "r.tap"
    _, report, _ = conform(tmp_path, capsys, "--case", "classic/legal/0001-hand", "--junit",
                           str(junit), "--tap", str(tap), "-q", program=BIDDING)
    rerun = report["cases"][0]["failure"]["rerun"]
    failure = ET.parse(junit).getroot().find(".//failure")
    assert failure is not None and failure.text is not None
    assert f"rerun: {rerun}" in failure.text and "NAP-5.2.1 Pass or bid higher" in failure.text
    text = tap.read_text()
    assert f"  rerun: {json.dumps(rerun)}" in text and '  blamed: "NAP-5.2.1"' in text


def test_match_steps_are_numbered_by_hand() -> None:
    case, _ = load_case(default_suite_dir() / f"{MATCHES[0]}.json", None)
    assert case is not None
    named = labels(case.steps, match=True)
    assert named[0] == "before hand 1, step 0"  # the choice of the first dealer
    assert named[1] == "hand 1, step 0"  # the first shuffle: hand 1's deal
    assert named[2] == "hand 1, step 1"
    starts = [first for first, _ in hand_bounds(case.steps)]
    assert [named[i] for i in starts] == [f"hand {k}, step 0" for k in range(1, 5)]


def test_a_step_refused_as_out_of_turn_is_blamed_on_turn_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The deal passed to the right: the first bid of the second hand is refused as out of turn
    # (NAP-1.3.1), which the rules of turn order decide, not those of the bid itself.
    dealer = [PYTHON, str(ROOT / "conformance" / "mutants" / "adapter.py"), "dealer-passes-right"]
    _, report, _ = conform(tmp_path, capsys, "--case", "classic/illegal/b-cut",
                           "--case", MATCHES[0], "-q", program=dealer)
    cases = {c["id"]: c for c in failed(report)}
    refused = cases["classic/illegal/b-cut"]
    assert refused["where"].startswith("hand 2, step ") and "NAP-1.3.1" in refused["message"]
    assert "NAP-4.1.2" in refused["blamed"] and not any(
        r.startswith("NAP-5.2.") for r in refused["blamed"])
    match = cases[MATCHES[0]]["failure"]
    assert match["first"].startswith("hand 2 of the match first differs: its preparation, at "
                                     "hand 2, step 1: whose turn")
    assert "NAP-4.1.2" in cases[MATCHES[0]]["blamed"]
