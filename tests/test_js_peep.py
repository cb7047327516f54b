"""The second independent implementation (conformance/adapters/js-peep/), run as CI runs it.

Since issue 31 js-peep is an entry point over js-nap (tests/test_js_nap.py), declaring the peep
ruleset alone: these tests hold that entry point to what js-peep promised.

js-peep plays the ``peep`` ruleset (Peep Nap: the pot, peeps at the widow, the widow's
exchange, named trumps, knock-outs) in plain Node.js, written from spec/ alone (its README
says how). `napkit conform --ruleset peep` must run every case of the peep suite on it, skip
none, pass all, and every refusal must name its rule (zero "rule not named"): the law book is
precise enough that a program written from it names the same rule as napkit.
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

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "conformance" / "adapters" / "js-peep" / "adapter.js"
SUITE = ROOT / "conformance" / "cases"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (the js-peep adapter needs Node.js)")


def test_napkit_conform_passes_every_peep_case_naming_every_rule(tmp_path: Path) -> None:
    assert NODE is not None
    cases = sorted(SUITE.glob("peep/*/*.json"))
    assert len(cases) >= 300, len(cases)
    report_path = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, "-m", "napkit", "conform", "--ruleset", "peep", "-q",
         "--json", str(report_path), "--", NODE, str(ADAPTER)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(report_path.read_text(encoding="utf-8"))
    totals = {k: v for k, v in report["totals"].items() if k != "seconds"}
    assert totals == {"cases": len(cases), "selected": len(cases), "passed": len(cases),
                      "failed": 0, "skipped": 0, "xfail": 0, "xpass": 0, "rule_not_named": 0,
                      "not_run": 0}, report["totals"]
    # Every kind is run, the illegal cases of a match's own steps among them.
    kinds = {json.loads(path.read_text(encoding="utf-8"))["kind"] for path in cases}
    assert kinds == {"legal", "illegal", "outcome", "match"}
    assert {case["status"] for case in report["cases"]} == {"passed"}


def test_the_handshake_declares_peep_only_and_every_option(
        handshake: Callable[[Sequence[str]], Hello]) -> None:
    assert NODE is not None
    hello = handshake([NODE, str(ADAPTER)])
    assert hello.name == "js-nap"
    supports = hello.supports
    assert set(supports["rulesets"]) == {"peep"}
    assert set(supports["kinds"]) == {"legal", "illegal", "outcome", "match"}
