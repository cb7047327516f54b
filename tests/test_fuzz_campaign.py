"""A fuzzing campaign that keeps going (spec/conformance.md 4.2 to 4.4): every disagreement
grouped by its signature and counted, one reproducer for each, ``--first``, the file of known
differences, the budget that includes shrinking, shrinking checked on a fresh start of the
program, ``-j N`` and shards joined by signature.

The program with several bugs is napkit's adapter with several mutants of conformance/mutants
at once: ``wellington-without-nap`` (a legal set, NAP-5.2.5) shows in the auction of almost
every hand, and ``loss-paid-once`` (a payment, NAP-9.2.1) only once a hand is settled, so a
run that stopped at the first difference would never see the second.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.fuzz.groups import KNOWN_FORMAT, difference, known_text, merge, read_known
from napkit.errors import UsageError
from napkit.spec.schemas import schema_problems

from tests.test_fuzz import DEALS_ITSELF, MUTANT, PATIENT, ROOT, fuzz, napkit

TWO_BUGS = [sys.executable, str(MUTANT), "wellington-without-nap", "loss-paid-once"]
CLASSIC = ("--ruleset", "classic", "--seed", "1", "--shrink-seconds", "5")
LEAKS = [sys.executable, str(ROOT / "tests" / "fixtures" / "adapters" / "leaks_state.py")]


def rules_of(report: dict[str, Any]) -> set[str]:
    return {d["rule"] for d in report["disagreements"]}


def test_a_campaign_goes_on_and_reports_each_bug_once(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--hands", "120", *CLASSIC, program=TWO_BUGS)
    assert run.returncode == 1, run.stdout + run.stderr
    assert report["stopped"] == "hands" and report["episodes"] == 120
    # Both bugs, each once, with how often it showed; the one behind the other one too.
    assert {"NAP-5.2.5", "NAP-9.2.1"} <= rules_of(report), report["disagreements"]
    signatures = [d["signature"] for d in report["disagreements"]]
    assert len(signatures) == len(set(signatures))
    wellington = next(d for d in report["disagreements"] if d["rule"] == "NAP-5.2.5")
    assert wellington["signature"] == "NAP-5.2.5"
    assert wellington["differences"]["legal set"] >= 1
    assert 1 < wellington["count"] <= 120
    # The report keeps its first disagreement where it always was, and is as its schema says.
    assert report["disagreement"]["signature"] == signatures[0]
    assert schema_problems("fuzz-report", report) == []
    # The table of distinct disagreements, and one reproducer each, each failing again.
    assert "disagreements: " in run.stdout and "NAP-9.2.1" in run.stdout
    files = [d["reproducer"] for d in report["disagreements"]]
    assert len(set(files)) == len(files) and all(Path(f).is_file() for f in files)
    for entry in report["disagreements"]:
        again = napkit("conform", "--case", entry["reproducer"], "-q", *PATIENT, "--",
                       *TWO_BUGS)
        assert again.returncode == 1, (entry["signature"], again.stdout + again.stderr)
        case = json.loads(Path(entry["reproducer"]).read_text())
        assert entry["rule"] in case["rules"] or entry["rule"] in case["description"]


def test_first_stops_at_the_first_disagreement(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--hands", "120", "--first", *CLASSIC, program=TWO_BUGS)
    assert run.returncode == 1, run.stdout + run.stderr
    assert report["stopped"] == "found" and report["episodes"] < 120
    assert len(report["disagreements"]) == 1
    assert report["disagreement"]["reproducer"] == str(tmp_path / "case.json")


def test_known_differences_are_counted_but_do_not_fail(tmp_path: Path) -> None:
    known = tmp_path / "known.json"
    run, report = fuzz(tmp_path, "--hands", "60", *CLASSIC, "--write-known", str(known),
                       program=TWO_BUGS)
    assert run.returncode == 0, run.stdout + run.stderr  # written: every one is now known
    written = read_known(known)
    assert set(written) == {d["signature"] for d in report["disagreements"]}
    assert schema_problems("fuzz-known", json.loads(known.read_text())) == []
    # Rerun with the file: the same disagreements, known, none shrunk or written.
    (tmp_path / "case.json").unlink(missing_ok=True)
    again, second = fuzz(tmp_path, "--hands", "60", *CLASSIC, "--known", str(known),
                         program=TWO_BUGS)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "ok: no new disagreement" in again.stdout
    assert all(d["known"] == written[d["signature"]] for d in second["disagreements"])
    assert second["disagreement"] is None and not (tmp_path / "case.json").exists()
    # Only the Wellington bug known: the payment fails the run alone.
    only = tmp_path / "only.json"
    only.write_text(json.dumps({"format": KNOWN_FORMAT, "disagreements": {
        "NAP-5.2.5": "we allow Wellington at any time"}}))
    third_run, third = fuzz(tmp_path, "--hands", "60", *CLASSIC, "--known", str(only),
                            program=TWO_BUGS)
    assert third_run.returncode == 1
    new = [d for d in third["disagreements"] if d["known"] is None]
    assert new and all(d["rule"] != "NAP-5.2.5" for d in new)
    assert "we allow Wellington at any time" in third_run.stdout


def test_a_file_of_known_differences_that_is_not_one_is_a_usage_error(tmp_path: Path
                                                                        ) -> None:
    bad = tmp_path / "known.json"
    bad.write_text(json.dumps({"format": "napkit-xfail/1", "cases": {}}))
    run = napkit("fuzz", "--hands", "1", "--known", str(bad))
    assert run.returncode == 2 and "$.format" in run.stderr, run.stderr
    bad.write_text(json.dumps({"format": KNOWN_FORMAT, "disagreements": {"x": 3}}))
    run = napkit("fuzz", "--hands", "1", "--known", str(bad))
    assert run.returncode == 2 and '$.disagreements["x"]' in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_the_budget_of_seconds_includes_shrinking(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--seconds", "6", *CLASSIC, program=TWO_BUGS)
    assert run.returncode == 1, run.stdout + run.stderr
    # Play stopped early to leave time to shrink: the whole run within its budget (with room
    # for one fresh start of the program past it), and hands per second of playing time.
    assert report["seconds_playing"] < report["seconds"] <= 6 + 4
    assert report["seconds_playing"] <= 6 - min(3, 5 * len(report["disagreements"])) + 0.5
    assert "s playing" in run.stdout and "s shrinking" in run.stdout


def test_a_program_that_keeps_state_is_not_shrunk_to_an_unrelated_hand(tmp_path: Path
                                                                       ) -> None:
    # It fails the first legal request after an outcome was asked: any episode fails once
    # one came before it, and none on a fresh start.
    run, report = fuzz(tmp_path, "--hands", "20", "--seed", "1", "--ruleset", "classic",
                       "--shrink-seconds", "5", program=LEAKS)
    assert run.returncode == 1, run.stdout + run.stderr
    found = report["disagreements"][0]
    assert not found["shrunk"] and found["steps"] == found["steps_before_shrinking"]
    assert "fresh start" in found["note"], found["note"]


def test_workers_find_the_same_disagreements_as_one_process(tmp_path: Path) -> None:
    found = {}
    for name, jobs in (("one", "1"), ("two", "2")):
        folder = tmp_path / name
        folder.mkdir()
        run, report = fuzz(folder, "--hands", "48", *CLASSIC, "--no-shrink", "-j", jobs,
                           program=TWO_BUGS)
        assert run.returncode == 1, run.stdout + run.stderr
        found[name] = [(d["signature"], d["episode"], d["count"])
                       for d in report["disagreements"]]
    assert found["one"] == found["two"]


def test_shards_are_joined_by_signature(tmp_path: Path) -> None:
    reports = []
    for k in (1, 2):
        folder = tmp_path / str(k)
        folder.mkdir()
        run, report = fuzz(folder, "--hands", "20", *CLASSIC, "--no-shrink", "--shard",
                           f"{k}/2", program=TWO_BUGS)
        assert run.returncode == 1, run.stdout + run.stderr
        reports.append(report)
    merged_path = tmp_path / "merged.json"
    run = napkit("report", "merge", str(tmp_path / "1" / "report.json"),
                 str(tmp_path / "2" / "report.json"), "-o", str(merged_path))
    assert run.returncode == 1, run.stdout + run.stderr  # what the shards found fails it
    assert "distinct disagreements: NAP-5.2.5" in run.stdout, run.stdout
    merged = json.loads(merged_path.read_text())
    for entry in merged["disagreements"]:
        parts = [d for r in reports for d in r["disagreements"]
                 if d["signature"] == entry["signature"]]
        assert entry["count"] == sum(d["count"] for d in parts)
        assert entry["episode"] == min(d["episode"] for d in parts)


def test_a_program_that_deals_for_itself_counts_the_rules_exercised(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--hands", "40", "--seed", "4",
                       program=[sys.executable, str(DEALS_ITSELF), "9"])
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["rules_exercised"], "the sampled episodes are traced whoever deals"


# --- the groups themselves ------------------------------------------------------------------------
def test_merging_keeps_the_first_episode_and_adds_the_counts() -> None:
    one = {"signature": "NAP-8.1.1", "rule": "NAP-8.1.1", "difference": "legal set",
           "differences": {"legal set": 3}, "episode": 7, "seconds_to_find": 0.5, "count": 3,
           "message": "m7"}
    two = {**one, "episode": 2, "count": 4, "message": "m2",
           "differences": {"legal set": 1, "step refused": 3}}
    other = {**one, "signature": "NAP-9.2.1", "episode": 5, "count": 1}
    joined = merge([[one, other], [two]])
    assert [(e["signature"], e["episode"], e["count"], e["message"]) for e in joined] == [
        ("NAP-8.1.1", 2, 7, "m2"), ("NAP-9.2.1", 5, 1, "m7")]
    assert joined[0]["differences"] == {"legal set": 4, "step refused": 3}


def test_a_known_file_keeps_entries_the_run_did_not_meet(tmp_path: Path) -> None:
    met = [("NAP-9.2.1", "outcome.payments: expected ..., got ...")]
    text = known_text(met, {"NAP-1.2.1": "ours plays to the right"})
    path = tmp_path / "k.json"
    path.write_text(text)
    assert read_known(path) == {"NAP-1.2.1": "ours plays to the right",
                                "NAP-9.2.1": "outcome.payments: expected ..., got ..."}


def test_reading_a_known_file_that_is_not_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    path.write_text("{\n  nope")
    try:
        read_known(path)
    except UsageError as exc:
        assert "not JSON" in str(exc) and "line 2" in str(exc)
    else:  # pragma: no cover - the assertion's message
        raise AssertionError("read a file that is not JSON")


def test_the_kinds_of_difference_read_as_words() -> None:
    from napkit.conform.fuzz.episodes import Disagreement, Ref

    assert difference(Disagreement(Ref("legal", 3), "whose turn: ...")) == "turn"
    assert difference(Disagreement(Ref("legal", 3), "legal actions differ")) == "legal set"
    assert difference(Disagreement(Ref("probe", 3), "accepted", "NAP-8.1.1", "accepted")) == (
        "illegal try accepted")
    assert difference(Disagreement(Ref("outcome"), "outcome.payments: expected")) == (
        "outcome.payments")
    assert difference(Disagreement(Ref("apply", 2), "refused", problem="timeout")) == (
        "protocol: timeout")


# --- the program: js-classic with three bugs planted -------------------------------------
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None,
                    reason="node is not installed (the JavaScript adapter needs Node.js)")
def test_three_planted_bugs_are_three_disagreements_each_with_its_rule(tmp_path: Path
                                                                        ) -> None:
    from conformance.mutants.planted import plant

    assert NODE is not None
    program = [NODE, str(plant(["trumps-never-fixed", "wellington-without-nap",
                                "four-defeat-costs-3"], tmp_path / "copy"))]
    run, report = fuzz(tmp_path, "--hands", "200", *CLASSIC, program=program)
    assert run.returncode == 1, run.stdout + run.stderr
    # One bug, one line, whatever it showed as: the trumps in whose turn it is, the trick
    # winners and the declarer's tricks; the Four in a hand's payments and a match's balances.
    assert [d["signature"] for d in report["disagreements"]] == [
        "NAP-5.2.5", "NAP-7.1.1", "NAP-9.2.1"], report["disagreements"]
    for entry in report["disagreements"]:
        again = napkit("conform", "--case", entry["reproducer"], "-q", *PATIENT, "--",
                       *program)
        assert again.returncode == 1, (entry["signature"], again.stdout + again.stderr)


def test_the_hands_of_a_match_as_lone_hands_are_settled_as_in_the_match() -> None:
    from napkit.conform.fuzz.campaign import episode_seed
    from napkit.conform.fuzz.episodes import Games, Prober, draw_episode, scope_of
    from napkit.conform.fuzz.hands import lone_hands
    from napkit.conform.fuzz.shrink import Choices
    from napkit.engine.hand import HandState
    from napkit.engine.match import MatchState
    from napkit.formats.records import hand_outcome
    from napkit.protocol.adapter import Adapter
    from napkit.spec.catalog import default_spec

    spec = default_spec()
    hello = Adapter().handle({"id": 0, "type": "hello", "protocol": "napkit-adapter/1"})
    scope = scope_of(hello["supports"], spec.rulesets, [], {}, [], [])
    games = Games(spec.rulesets)
    hands = 0
    for index in range(80):
        episode = draw_episode(scope, games, Prober(), Choices(seed=episode_seed(5, index)),
                               index)
        if not isinstance(episode.final, MatchState):
            assert list(lone_hands(episode)) == []
            continue
        for lone, hand in zip(lone_hands(episode), episode.final.hands, strict=True):
            hands += 1
            assert lone.kind == "hand" and lone.steps[0].seat is None  # chance deals
            assert isinstance(lone.final, HandState)
            assert hand_outcome(lone.final) == hand_outcome(hand)
    assert hands > 20


def test_two_disagreements_of_one_episode_get_a_reproducer_each(tmp_path: Path) -> None:
    # Seed 1's first episode lists a Wellington (a legal case) and pays a defeated Three once
    # (an outcome case): two cases of one episode, whose ids differ by kind but whose default
    # file names were one.
    run = napkit("fuzz", "--hands", "60", *CLASSIC, "--no-shrink", "-q", "--json",
                 str(tmp_path / "report.json"), "--", *TWO_BUGS, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    entries = json.loads((tmp_path / "report.json").read_text())["disagreements"]
    assert [e["episode"] for e in entries] == [0, 0], entries
    files = [tmp_path / e["reproducer"] for e in entries]
    assert len(set(files)) == 2 and all(f.is_file() for f in files)
    ids = {json.loads(f.read_text())["id"] for f in files}
    assert len(ids) == 2
