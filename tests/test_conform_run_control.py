"""napkit conform's run control (issue 17, parts 5 to 8): timings in every report; an
expected-failures file written from a run (--write-xfail) and filters that exclude; a run
stopped by Ctrl-C that still reports what ran; the versions every report names, --list, and
--shuffle/--repeat catching a program that leaks state from case to case.

Small selections of the classic ruleset keep each run to a second or two."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from napkit import __version__
from napkit.cli import main
from napkit.conform.run.control import Order, run_order
from napkit.conform.suite.versions import check_renumbered, current_rule, renumbered

ROOT = Path(__file__).resolve().parents[1]
ADAPTERS = Path(__file__).parent / "fixtures" / "adapters"
MUTANT = [sys.executable, str(ROOT / "conformance" / "mutants" / "adapter.py"),
          "revoke-allowed"]
LEAKS = [sys.executable, str(ADAPTERS / "leaks_state.py")]
# Revokes refused, and hands whose legal plays a revoking program gets wrong: 40 cases.
REVOKES = ["--ruleset", "classic", "--case", "classic/illegal/00[0-2]*", "--case",
           "classic/legal/000*"]
# Legal cases and outcome cases: in the suite's order no legal case follows an outcome case.
MIXED = ["--ruleset", "classic", "--case", "classic/legal/000*", "--case",
         "classic/outcome/000*"]


def conform(tmp_path: Path, *args: str, program: list[str] | None = None) -> tuple[
        int, dict[str, Any]]:
    """Run napkit conform quietly with a JSON report: its exit status and the report."""
    report = tmp_path / "report.json"
    argv = ["conform", "-q", "--json", str(report), *args]
    if program is not None:
        argv += ["--", *program]
    status = main(argv)
    document: dict[str, Any] = json.loads(report.read_text()) if report.exists() else {}
    return status, document


# --- part 5: timing ---------------------------------------------------------------------------
def test_timings_per_case_per_ruleset_and_in_total(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit = tmp_path / "report.xml"
    status, report = conform(tmp_path, "--in-process", "--case", "classic/outcome/000*",
                             "--case", "napoleon/outcome/000*", "--junit", str(junit))
    assert status == 0
    durations = [c["duration"] for c in report["cases"]]
    assert all(isinstance(d, float) and d >= 0 for d in durations)
    by_ruleset = report["by_ruleset"]
    assert set(by_ruleset) == {"classic", "napoleon"}
    for name, row in by_ruleset.items():
        mine = sum(c["duration"] for c in report["cases"] if c["ruleset"] == name)
        assert row["seconds"] == pytest.approx(mine, abs=1e-5)
    assert report["totals"]["seconds"] == pytest.approx(sum(durations), abs=1e-5)
    assert report["totals"]["seconds"] == pytest.approx(
        sum(row["seconds"] for row in by_ruleset.values()), abs=1e-5)
    # JUnit: every time attribute filled, each testsuite's the sum of its cases'.
    root = ET.parse(junit).getroot()
    assert float(root.get("time", "")) >= 0
    for suite in root.iter("testsuite"):
        times = [float(case.get("time", "")) for case in suite.iter("testcase")]
        assert float(suite.get("time", "")) == pytest.approx(sum(times), abs=1e-5)
    # The terminal (with its tables): the slowest cases and a line per ruleset.
    assert main(["conform", "--in-process", "--case", "classic/outcome/000*"]) == 0
    out = capsys.readouterr().out
    assert "slowest 5 cases:" in out
    assert "seconds by ruleset" in out
    line = next(x for x in out.splitlines() if x.startswith("  classic "))
    assert line.split()[1] == "10" and line.endswith(" ms")


# --- part 6: expected failures from a run, and exclusions ---------------------------------------
def test_write_xfail_then_rerun_then_the_fixed_program(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.json"
    status, report = conform(tmp_path, *REVOKES, "--write-xfail", str(known), program=MUTANT)
    failed = {c["id"]: c for c in report["cases"] if c["status"] == "failed"}
    assert failed and status == 0  # judged by the file written: every failure expected
    document = json.loads(known.read_text())
    assert document["format"] == "napkit-xfail/1" and document["rules"] == {}
    assert set(document["cases"]) == set(failed)
    for case_id, reason in document["cases"].items():  # the failure's one line
        assert reason == failed[case_id]["message"].splitlines()[0]
    assert "wrote" in capsys.readouterr().out

    status, report = conform(tmp_path, *REVOKES, "--xfail", str(known), program=MUTANT)
    assert status == 0 and report["ok"] is True
    assert {c["id"] for c in report["cases"] if c["status"] == "xfail"} == set(failed)
    assert report["totals"]["failed"] == 0

    status, report = conform(tmp_path, *REVOKES, "--xfail", str(known), "--in-process")
    assert status == 1
    xpass = {c["id"]: c for c in report["cases"] if c["status"] == "xpass"}
    assert set(xpass) == set(failed)
    for case_id, case in xpass.items():
        assert f'delete its entry ("cases": "{case_id}") from {known}' in case["message"]
    out = capsys.readouterr().out
    assert f'UNEXPECTED PASS {next(iter(xpass))}' in out and "delete its entry" in out


def test_write_xfail_updates_keeping_reasons_and_entries_not_run(tmp_path: Path) -> None:
    known = tmp_path / "known.json"
    status, report = conform(tmp_path, *REVOKES, "--write-xfail", str(known), program=MUTANT)
    assert status == 0
    document = json.loads(known.read_text())
    first = sorted(document["cases"])[0]
    document["cases"][first] = "our own reason: we allow revokes on purpose"
    document["cases"]["pagat/legal/0000-hand"] = "not run here: kept"
    passing = next(c["id"] for c in report["cases"] if c["status"] == "passed")
    document["cases"][passing] = "it used to fail"
    known.write_text(json.dumps(document))
    # Updated in place (the file read as --xfail): the own reason kept, the entry of a case
    # not selected kept, the entry of a case that passes deleted.
    status, report = conform(tmp_path, *REVOKES, "--write-xfail", str(known), program=MUTANT)
    assert status == 0
    assert {c["id"]: c["status"] for c in report["cases"]}[passing] == "xpass"
    after = json.loads(known.read_text())["cases"]
    assert after[first] == "our own reason: we allow revokes on purpose"
    assert after["pagat/legal/0000-hand"] == "not run here: kept"
    assert passing not in after


def test_write_xfail_replaces_a_rule_entry_some_of_whose_cases_pass(tmp_path: Path) -> None:
    known = tmp_path / "known.json"
    known.write_text(json.dumps({"format": "napkit-xfail/1", "cases": {},
                                 "rules": {"NAP-8.1.1": "revokes allowed"}}))
    status, report = conform(tmp_path, *REVOKES, "--write-xfail", str(known), program=MUTANT)
    assert status == 0
    failing = {c["id"] for c in report["cases"] if c["status"] == "xfail"}
    after = json.loads(known.read_text())
    assert after["rules"] == {}  # some of its cases pass: a rerun would have them xpass
    assert set(after["cases"]) == failing
    assert set(after["cases"].values()) == {"NAP-8.1.1: revokes allowed"}
    status, _ = conform(tmp_path, *REVOKES, "--xfail", str(known), program=MUTANT)
    assert status == 0


def test_write_xfail_refuses_a_place_it_cannot_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no-such-folder" / "known.json"
    status = main(["conform", "--in-process", "-q", "--case", "classic/outcome/0000*",
                   "--write-xfail", str(target)])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    assert err.count("\n") == 1 and "cannot write the expected-failures file" in err
    assert "no case was run" in err
    # Onto a report: refused as any two outputs on one file.
    same = str(tmp_path / "x.json")
    assert main(["conform", "--in-process", "--json", same, "--write-xfail", same]) == 2


@pytest.mark.parametrize(("flag", "value", "gone"), [
    ("--exclude-tag", "made", lambda c: "made" in c["tags"]),
    ("--exclude-rule", "NAP-9", lambda c: any(r.startswith("NAP-9.") for r in c["rules"])),
    ("--exclude-case", "classic/outcome/000[0-4]*",
     lambda c: c["id"] < "classic/outcome/0005"),
])
def test_exclude_filters(flag: str, value: str, gone: Any, tmp_path: Path,
                         capsys: pytest.CaptureFixture[str]) -> None:
    base = ["conform", "--case", "classic/outcome/00*", "--list", "-q"]
    assert main(base) == 0
    every = capsys.readouterr().out.split()
    assert main([*base, flag, value]) == 0
    kept = capsys.readouterr().out.split()
    suite = ROOT / "conformance" / "cases"
    cases = {i: json.loads((suite / f"{i}.json").read_text()) for i in every}
    assert kept == [i for i in every if not gone(cases[i])]
    assert 0 < len(kept) < len(every)
    status, report = conform(tmp_path, "--in-process", "--case", "classic/outcome/00*", flag,
                             value)
    assert status == 0 and [c["id"] for c in report["cases"]] == kept
    key = {"--exclude-tag": "exclude_tags", "--exclude-rule": "exclude_rules",
           "--exclude-case": "exclude_cases"}[flag]
    assert report["selection"]["filters"][key] == [value]


# --- part 7: Ctrl-C ---------------------------------------------------------------------------
@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT: POSIX signals only")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_writes_every_report_marked_interrupted(jobs: str, tmp_path: Path) -> None:
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("json", "junit", "tap", "html")}
    argv = [sys.executable, "-X", "importtime", "-m", "napkit", "conform", "-j", jobs,
            "--ruleset", "classic", "--kind", "outcome", "--json", str(reports["json"]),
            "--junit", str(reports["junit"]), "--tap", str(reports["tap"]), "--html",
            str(reports["html"]), "--timeout", "600", "--",
            sys.executable, str(ADAPTERS / "slow.py"), "0", "3", str(tmp_path / "held")]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=tmp_path)
    assert child.stdout is not None and child.stderr is not None
    for raw in child.stderr:  # napkit's command line imported: Ctrl-C is napkit's to catch
        if raw.decode().split("|")[-1].strip() == "napkit.cli":
            break
    # Then until the handshake is done (its line), and until each program has played two
    # cases and holds the third (it makes a file, and never answers: the time limit is longer
    # than any test): the report must hold some, and not all. No sleep: a fixed wait was too
    # short on a busy machine (no case done) or too long on a fast one (every case done).
    rest: list[bytes] = []  # stderr read on, so that import lines never fill its pipe
    drain = threading.Thread(target=lambda: rest.extend(child.stderr or ()), daemon=True)
    drain.start()
    first = child.stdout.readline().decode()
    assert first.startswith("napkit conform: 92 cases"), first
    deadline = time.monotonic() + 300  # only so that a broken run fails, never to pass
    while len(list(tmp_path.glob("held.*"))) < int(jobs):
        assert child.poll() is None and time.monotonic() < deadline, b"".join(rest).decode()
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    out = first.encode() + child.stdout.read()
    child.wait(timeout=60)
    drain.join(timeout=60)
    text = b"".join(rest).decode()
    assert child.returncode == 130, text[-2000:]
    assert "Traceback" not in text
    assert "interrupted:" in text and "cases not run" in text
    report = json.loads(reports["json"].read_text())
    assert report["interrupted"] is True and report["ok"] is False
    totals = report["totals"]
    assert 0 < totals["cases"] < totals["selected"] == 92
    assert totals["not_run"] == totals["selected"] - totals["cases"]
    assert [c["id"] for c in report["cases"]] == sorted(c["id"] for c in report["cases"])
    junit = ET.parse(reports["junit"]).getroot()
    assert junit.get("errors") == "1"
    assert any(s.get("name") == "interrupted" for s in junit.iter("testsuite"))
    assert "<html" in reports["html"].read_text().lower()  # the page too
    tap = reports["tap"].read_text()
    assert tap.rstrip().splitlines()[-1].startswith("Bail out! interrupted")
    summary = out.decode().splitlines()
    assert summary[-1].startswith("INTERRUPTED:") and "not run" in summary[-1]
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


# --- part 8: versions, --list, --shuffle, --repeat ----------------------------------------------
def test_versions_in_the_report(tmp_path: Path) -> None:
    status, report = conform(tmp_path, "--case", "classic/outcome/0000*")
    assert status == 0
    assert report["versions"] == {"suite": "1.1", "lawbook": "1.2", "napkit": __version__,
                                  "program": __version__}
    status, report = conform(tmp_path, "--case", "classic/outcome/0000*",
                             program=[sys.executable, str(ADAPTERS / "limited.py")])
    assert report["versions"]["program"] == "0"
    # A folder of one's own cases has no version.
    own = ROOT / "tests" / "fixtures" / "conformance"
    status, report = conform(tmp_path, "--in-process", "--suite", str(own))
    assert status == 0 and report["versions"]["suite"] is None


def test_renumbered_rule_ids() -> None:
    assert renumbered() == {}  # none yet
    assert current_rule("NAP-8.1.1") == "NAP-8.1.1"
    rules = {"NAP-8.1.1", "NAP-8.1.2"}
    assert check_renumbered({"NAP-8.0.1": "NAP-8.1.1"}, rules) == []
    assert check_renumbered({"NAP-8.1.2": "NAP-8.1.1"}, rules)  # an old id still a rule
    assert check_renumbered({"NAP-8.0.1": "NAP-8.9.9"}, rules)  # a new id that is none
    from napkit.spec.catalog import default_spec

    assert check_renumbered(renumbered(), set(default_spec().lawbook.rules)) == []


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--ruleset", "classic", "--kind", "match", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.split()[1:] == ["match", "classic"] for line in lines)
    ids = [line.split()[0] for line in lines]
    assert ids == sorted(ids)
    assert main(["conform", "--ruleset", "classic", "--kind", "match", "--list", "-q"]) == 0
    assert capsys.readouterr().out.split() == ids
    # In the order they would run.
    assert main(["conform", "--ruleset", "classic", "--kind", "match", "--list", "-q",
                 "--shuffle", "--seed", "3", "--repeat", "2"]) == 0
    shuffled = capsys.readouterr().out.split()
    assert len(shuffled) == 2 * len(ids) and shuffled != ids + ids
    assert sorted(shuffled[:len(ids)]) == ids == sorted(shuffled[len(ids):])
    # Runs nothing, so writes nothing.
    assert main(["conform", "--list", "--json", "x.json"]) == 2
    assert main(["conform", "--case", "nothing/*", "--list"]) == 1


def test_bad_values_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--repeat", "0"], ["--repeat", "many"], ["--shuffle", "--seed", "-1"],
                 ["--seed", "4"], ["--repeat", "2", "--shard", "1/2"]):
        assert main(["conform", "--in-process", *argv]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1, err


def test_run_order() -> None:
    assert run_order(2, Order()) == [(0, 1), (1, 1)]
    once = run_order(30, Order(shuffle=True, seed=5))
    assert once == run_order(30, Order(shuffle=True, seed=5))  # the seed repeats it
    assert once != run_order(30, Order(shuffle=True, seed=6))
    twice = run_order(30, Order(shuffle=True, seed=5, repeat=2))
    assert twice[:30] == once and twice[30:] != once  # each pass its own order


def test_shuffle_catches_a_program_that_leaks_state(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path, *MIXED, program=LEAKS)
    assert status == 0 and report["order"] is None  # in the suite's order it passes
    status, report = conform(tmp_path, *MIXED, "--shuffle", "--seed", "1", program=LEAKS)
    assert status == 1
    assert report["order"] == {"shuffle": True, "seed": 1, "repeat": 1}
    ids = [c["id"] for c in report["cases"]]
    assert ids == sorted(ids)  # listed in the suite's order
    assert sorted(c["ran"] for c in report["cases"]) == list(range(1, 21))
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    assert failed and all(c["kind"] == "legal" and 'got "over"' in c["message"]
                          for c in failed)
    by_place = {c["ran"]: c for c in report["cases"]}
    assert all(by_place[c["ran"] - 1]["kind"] == "outcome" for c in failed)
    out = capsys.readouterr().out
    assert "--shuffle --seed 1" in out
    first = failed[0]
    assert f"{first['id']} ran {first['ran']}" in out
    assert f"after {by_place[first['ran'] - 1]['id']}" in out
    # The same seed, the same run; --repeat in order catches it too (pass 2 follows pass 1).
    status, report2 = conform(tmp_path, *MIXED, "--shuffle", "--seed", "1", program=LEAKS)
    assert status == 1
    assert [c["status"] for c in report2["cases"]] == [c["status"] for c in report["cases"]]
    status, report = conform(tmp_path, *MIXED, "--repeat", "2", program=LEAKS)
    assert status == 1 and len(report["cases"]) == 40
    assert [(c["id"], c["repetition"]) for c in report["cases"] if c["status"] == "failed"] == [
        ("classic/legal/0000-hand", 2)]


def test_renumbered_ids_are_read_as_the_current_rule(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A law book that renumbered NAP-8.1.1 (say, from NAP-8.0.9): the old id in --rule,
    --exclude-rule and an expected-failures file means the rule it became."""
    from napkit.conform.suite import versions

    monkeypatch.setattr(versions, "renumbered", lambda: {"NAP-8.0.9": "NAP-8.1.1"})
    base = ["conform", "--case", "classic/illegal/00[0-2]*", "--list", "-q"]
    assert main([*base, "--rule", "NAP-8.1.1"]) == 0
    new = capsys.readouterr().out.split()
    assert main([*base, "--rule", "NAP-8.0.9"]) == 0
    assert capsys.readouterr().out.split() == new and new
    assert main([*base, "--exclude-rule", "NAP-8.0.9"]) == 0
    assert not set(capsys.readouterr().out.split()) & set(new)
    known = tmp_path / "known.json"
    known.write_text(json.dumps({"format": "napkit-xfail/1", "cases": {},
                                 "rules": {"NAP-8.0.9": "revokes allowed"}}))
    status, report = conform(tmp_path, "--case", "classic/illegal/00[0-2]*-revoke",
                             "--xfail", str(known), program=MUTANT)
    assert status == 0 and report["totals"]["xfail"] == len(report["cases"]) > 0
    assert all(c["reason"] == "NAP-8.1.1: revokes allowed"
               for c in report["cases"] if c["status"] == "xfail")


def test_write_xfail_with_a_case_file(tmp_path: Path) -> None:
    """A case given as a file (a reproducer of napkit fuzz) is expected by its id too."""
    case = ROOT / "conformance" / "cases" / "classic" / "illegal" / "0000-revoke.json"
    known = tmp_path / "known.json"
    status, report = conform(tmp_path, "--case", str(case), "--write-xfail", str(known),
                             program=MUTANT)
    assert status == 0 and report["cases"][0]["status"] == "failed"
    assert list(json.loads(known.read_text())["cases"]) == ["classic/illegal/0000-revoke"]
    status, report = conform(tmp_path, "--case", str(case), "--xfail", str(known),
                             program=MUTANT)
    assert status == 0 and report["cases"][0]["status"] == "xfail"


def test_a_merge_of_shards_keeps_versions_and_an_interruption(tmp_path: Path) -> None:
    own = str(ROOT / "tests" / "fixtures" / "conformance")
    parts = []
    for k in (1, 2):
        path = tmp_path / f"shard-{k}.json"
        assert main(["conform", "-q", "--in-process", "--suite", own, "--shard", f"{k}/2",
                     "--json", str(path)]) == 0
        parts.append(path)
    document = json.loads(parts[1].read_text())
    document["interrupted"] = True  # as a shard stopped by Ctrl-C writes it
    document["ok"] = False
    parts[1].write_text(json.dumps(document))
    merged = tmp_path / "all.json"
    assert main(["report", "merge", "-q", *map(str, parts), "-o", str(merged)]) == 1
    whole = json.loads(merged.read_text())
    assert whole["interrupted"] is True and whole["ok"] is False
    assert whole["versions"]["napkit"] == __version__ and whole["versions"]["suite"] is None
