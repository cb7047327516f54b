"""The second complete implementation (conformance/adapters/js-nap/), run as CI runs it (issue 31).

js-nap plays every ruleset of spec/rulesets, every option and table size, and the house files
given to it, in plain Node.js, written from spec/ alone (its README says how). CommonMark is
checked by two references against one spec; here the suite's expected answers, which the
reference engine computes, are checked by a program that shares no code with it:

* `napkit conform` runs every case of the suite on it: none skipped, all passed, every refusal
  naming its rule (zero "rule not named");
* the generated suite of each example house file, the file given to both sides;
* a short fuzz of each ruleset against the reference, every option choice and table size it
  declares, the `state` request asked at every step; and one with the program dealing.

The long campaigns (ten minutes a ruleset) are in the README; these keep what they showed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from napkit.protocol.process import Hello
from napkit.spec.catalog import default_spec

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "conformance" / "adapters" / "js-nap" / "adapter.js"
SUITE = ROOT / "conformance" / "cases"
HOUSES = sorted((ROOT / "spec" / "examples").glob("house-*.json"))
RULESETS = sorted(path.stem for path in (ROOT / "spec" / "rulesets").glob("*.json"))
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (the js-nap adapter needs Node.js)")


def napkit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "napkit", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=900, check=False)


def all_passed(report_path: Path, cases: int) -> None:
    report = json.loads(report_path.read_text(encoding="utf-8"))
    totals = {k: v for k, v in report["totals"].items() if k != "seconds"}
    assert totals == {"cases": cases, "selected": cases, "passed": cases, "failed": 0,
                      "skipped": 0, "xfail": 0, "xpass": 0, "rule_not_named": 0,
                      "not_run": 0}, report["totals"]


def test_napkit_conform_passes_every_case_of_the_suite_naming_every_rule(
        tmp_path: Path) -> None:
    assert NODE is not None
    cases = sorted(SUITE.glob("*/*/*.json"))
    assert len(cases) >= 3000, len(cases)
    assert {path.parts[-3] for path in cases} == set(RULESETS)
    report = tmp_path / "report.json"
    run = napkit("conform", "-q", "--json", str(report), "--", NODE, str(ADAPTER))
    assert run.returncode == 0, run.stdout + run.stderr
    all_passed(report, len(cases))


@pytest.mark.parametrize("house", HOUSES, ids=[path.stem for path in HOUSES])
def test_a_house_file_s_suite_passes_the_file_given_to_both(tmp_path: Path,
                                                             house: Path) -> None:
    assert NODE is not None
    report = tmp_path / "report.json"
    run = napkit("conform", "-q", "--ruleset-file", str(house), "--json", str(report), "--",
                 NODE, str(ADAPTER), "--house", str(house))
    assert run.returncode == 0, run.stdout + run.stderr
    cases = json.loads(report.read_text(encoding="utf-8"))["totals"]["cases"]
    assert cases >= 300
    all_passed(report, cases)


def test_the_handshake_declares_every_ruleset_every_option_and_the_state_request(
        handshake: Callable[[Sequence[str]], Hello]) -> None:
    assert NODE is not None
    hello = handshake([NODE, str(ADAPTER)])
    assert hello.name == "js-nap"
    supports = hello.supports
    assert sorted(supports["rulesets"]) == RULESETS
    for ruleset, declared in supports["rulesets"].items():  # every option, every choice
        options = default_spec().rulesets[ruleset].options  # inherited ones included
        assert set(options) == set(declared["options"]), (ruleset, declared)
        assert set(declared["options"].values()) == {"*"}, (ruleset, declared)
    assert set(supports["kinds"]) == {"legal", "illegal", "outcome", "match"}
    assert supports["state"] is True


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_short_fuzz_of_each_ruleset_finds_no_disagreement(tmp_path: Path,
                                                             ruleset: str) -> None:
    assert NODE is not None
    report = tmp_path / "fuzz.json"
    run = napkit("fuzz", "-q", "--hands", "150", "--seed", "7", "--ruleset", ruleset,
                 "--json", str(report), "-o", str(tmp_path / "repro.json"), "--",
                 NODE, str(ADAPTER))
    assert run.returncode == 0, run.stdout + run.stderr
    found = json.loads(report.read_text(encoding="utf-8"))
    assert found["disagreement"] is None and not found.get("disagreements"), found
    assert found["episodes"] >= 150 and found["rule_not_named"] == 0


@pytest.mark.parametrize("ruleset", ["pagat-purchase", "pub-floater"])
def test_a_short_fuzz_with_the_program_dealing_finds_no_disagreement(tmp_path: Path,
                                                                     ruleset: str) -> None:
    assert NODE is not None
    report = tmp_path / "fuzz.json"
    run = napkit("fuzz", "-q", "--hands", "100", "--seed", "7", "--ruleset", ruleset,
                 "--program-deals", "--json", str(report), "-o", str(tmp_path / "repro.json"),
                 "--", NODE, str(ADAPTER), "--chance", "both")
    assert run.returncode == 0, run.stdout + run.stderr
    found = json.loads(report.read_text(encoding="utf-8"))
    assert found["disagreement"] is None and not found.get("disagreements"), found
