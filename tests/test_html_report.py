"""``napkit conform --html FILE`` (issue 17, part 2): a run as one self-contained page.

Two small runs write their JSON and HTML reports: the reference on the classic ruleset (all
pass), and a mutant that lets a player revoke (conformance/mutants/) on a few classic cases
(failures that carry cards). Each page is rendered in headless Chromium: the counts it shows
equal its JSON report's, a failure is drawn per failing case with its cards as cards, the
filters (set from the address's #fragment) hide what they should, and a screenshot is taken.
The page needs nothing from the network, a saved JSON report draws the same page, and fields
the report may or may not have (a version, the deal, the steps, a rerun command, an
interrupted run) are drawn when present and not missed when absent.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main
from napkit.conform.report.html import DRAWN_PER_RULESET, card_html, html_page

from tests.browser import data_counts, dump_dom, external_references, screenshot

ROOT = Path(__file__).resolve().parents[1]
MUTANT_ADAPTER = ROOT / "conformance" / "mutants" / "adapter.py"


def _conform(out: Path, name: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "napkit", "conform", "-q", "--json", str(out / f"{name}.json"),
         "--html", str(out / f"{name}.html"), *args],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    document: dict[str, Any] = json.loads((out / f"{name}.json").read_text(encoding="utf-8"))
    return document


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("html")
    return out, {
        "reference": _conform(out, "reference", "--in-process", "--ruleset", "classic"),
        "mutant": _conform(out, "mutant", "--case", "classic/illegal/00*", "--case",
                           "classic/legal/000*", "--", sys.executable, str(MUTANT_ADAPTER),
                           "revoke-allowed"),
    }


@pytest.mark.slow  # headless Chromium
@pytest.mark.parametrize("name", ["reference", "mutant"])
def test_page_shows_the_json_reports_counts(runs: tuple[Path, dict[str, dict[str, Any]]],
                                            tmp_path: Path, name: str) -> None:
    out, documents = runs
    document = documents[name]
    page = out / f"{name}.html"
    dom = dump_dom(page.as_uri(), tmp_path / "profile")
    shown = data_counts(dom)
    totals = document["totals"]
    assert shown["cases"] == totals["cases"]
    for status in ("passed", "failed", "skipped", "xfail", "xpass"):
        assert shown.get(status, 0) == totals[status], status
    failing = [c for c in document["cases"] if c["status"] in ("failed", "xfail", "xpass")]
    assert dom.count('<article class="failure') == len(failing)
    assert f'id="f-shown">{len(failing)}<' in dom
    assert document["program"]["name"] in dom
    # The matrix: a row per rule the cases exercise, a column per ruleset.
    rules = {r for c in document["cases"] for r in c["rules"]}
    assert set(re.findall(r'<tr data-rule="([^"]+)"', dom)) == rules
    screenshot(page.as_uri(), tmp_path / f"{name}.png", tmp_path / "profile-shot")


@pytest.mark.slow  # headless Chromium
def test_the_mutants_failures_are_drawn(runs: tuple[Path, dict[str, dict[str, Any]]],
                                        tmp_path: Path) -> None:
    out, documents = runs
    document = documents["mutant"]
    assert not document["ok"]
    dom = dump_dom((out / "mutant.html").as_uri(), tmp_path / "profile")
    assert 'class="verdict v-failed"' in dom
    for case in document["cases"]:
        if case["status"] == "failed":
            assert f'<h3 class="mono">{case["id"]}</h3>' in dom
    # Cards as cards, with suit symbols: the revoke each illegal case expected refused.
    assert re.search(r'<span class="card (red|black)" title="\d*[0-9JQKA][SHDC]">', dom)
    assert any(symbol in dom for symbol in "♠♥♦♣")
    assert "expected" in dom and "answered" in dom


@pytest.mark.slow  # headless Chromium
def test_the_filters_follow_the_address(runs: tuple[Path, dict[str, dict[str, Any]]],
                                        tmp_path: Path) -> None:
    out, documents = runs
    document = documents["mutant"]
    rule = "NAP-8.1.1"
    url = (out / "mutant.html").as_uri() + f"#outcome=failed&rule={rule}"
    dom = dump_dom(url, tmp_path / "profile")
    wanted = [c for c in document["cases"] if c["status"] == "failed" and rule in c["rules"]]
    assert wanted
    assert f'id="f-shown">{len(wanted)}<' in dom
    visible = re.findall(r'<tr data-rule="([^"]+)"(?! class="hidden")', dom)
    assert visible == [rule]


def test_the_page_is_self_contained(runs: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    out, _ = runs
    for name in ("reference", "mutant"):
        text = (out / f"{name}.html").read_text(encoding="utf-8")
        assert external_references(text) == [], name
        assert text.startswith("<!DOCTYPE html>") and "<style>" in text and "<script>" in text


def test_a_saved_report_draws_the_same_page(runs: tuple[Path, dict[str, dict[str, Any]]]
                                            ) -> None:
    out, documents = runs
    for name, document in documents.items():
        assert html_page(document) == (out / f"{name}.html").read_text(encoding="utf-8")


def test_fields_drawn_when_present_and_not_missed_when_absent() -> None:
    assert "No case ran" in html_page({"format": "napkit-conform-report/1", "cases": []})
    assert "a program" in html_page({})
    rerun = "napkit conform --case classic/match/0007-3-hands -- ./my-nap"
    case = {"id": "classic/match/0007-3-hands", "ruleset": "classic", "kind": "match",
            "rules": ["NAP-9.1.1", "NAP-8.1.1"], "status": "failed", "duration": 0.01,
            "message": "outcome.balances: expected [4, -8, 4], got [2, -4, 2]",
            "where": "outcome.balances", "expected": [4, -8, 4], "got": [2, -4, 2],
            "blamed": ["NAP-9.1.1"],
            "failure": {
                "rerun": rerun, "where": "hand 3, step 12", "step": 40, "hand": 3,
                "hand_step": 12, "first": "hand 3 of the match first differs: its settlement",
                "message": "outcome.payments differ", "expected": [{"payer": 0, "payee": 1,
                                                                    "amount": 4}],
                "answered": [{"payer": 0, "payee": 1, "amount": 8}],
                "blamed": [{"rule": "NAP-9.1.1", "title": "The opponents pay the declarer"}],
                "deal": {"dealer": 2, "hands": {"0": "S: A K  H: 10", "1": "D: Q J  C: 2 3",
                                                "2": "H: 9 8 7"}, "widow": None, "stock": 37},
                "actions": [{"number": 0, "seat": None, "action": {"type": "shuffle"},
                             "words": "chance: shuffle"},
                            {"number": 1, "seat": 0, "action": {"type": "bid", "bid": "three"},
                             "words": "seat 0: bid three"},
                            {"number": 2, "seat": 0, "action": {"type": "play", "card": "10H"},
                             "words": "seat 0: play 10H"}],
                "position": "the hand is over", "lawbook_note": "a field not known yet"}}
    document = {"format": "napkit-conform-report/1", "interrupted": True,
                "program": {"name": "my-nap", "version": "1.4", "command": ["./my-nap"]},
                "totals": {"cases": 1, "selected": 5, "passed": 0, "failed": 1, "skipped": 0,
                           "xfail": 0, "xpass": 0, "not_run": 4},
                "cases": [case]}
    text = html_page(document)
    assert 'class="verdict v-interrupted"' in text
    assert "<dt>version</dt><dd>1.4</dd>" in text
    assert 'data-count="not-run">4<' in text
    assert f'<pre class="rerun">{rerun}</pre>' in text
    assert "the deal of hand 3" in text and "seat 2 (dealer)" in text and "37 cards" in text
    assert card_html("10H") in text and card_html("AS") in text and card_html("3C") in text
    assert "hand 3 of the match first differs" in text
    assert "up to hand 3, step 12" in text and "<b>bid</b> three" in text
    assert "put down to" in text and "The opponents pay the declarer" in text
    assert "lawbook note" in text and "a field not known yet" in text
    assert '<td class="failed">2</td>' in text  # seat 0's balance differs
    # The failure counts against the rule it is put down to; the other rule is touched.
    assert re.search(r'<tr data-rule="NAP-9\.1\.1">.*?<td class="failed"', text)
    assert re.search(r'<tr data-rule="NAP-8\.1\.1">.*?<td class="touched"', text)


def test_html_onto_another_report_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    same = str(tmp_path / "r.json")
    assert main(["conform", "--in-process", "--json", same, "--html", same]) == 2
    err = capsys.readouterr().err
    assert "--html" in err and "Traceback" not in err


def test_a_page_of_many_failures_draws_the_first_of_each_ruleset_in_full() -> None:
    def case(ruleset: str, n: int) -> dict[str, Any]:
        return {"id": f"{ruleset}/legal/{n:04}", "ruleset": ruleset, "kind": "legal",
                "rules": ["NAP-5.1.1"], "status": "failed", "message": "step 1: whose turn",
                "failure": {"rerun": f"napkit conform --case {ruleset}/legal/{n:04}",
                            "deal": {"dealer": 0, "hands": {"0": "S: A", "1": "H: K"}},
                            "actions": [], "blamed": [{"rule": "NAP-5.1.1", "title": ""}]}}

    found = [case(r, n) for r in ("classic", "peep") for n in range(DRAWN_PER_RULESET + 5)]
    text = html_page({"format": "napkit-conform-report/1", "cases": found})
    assert text.count('<article class="failure') == len(found)
    assert text.count("the deal of the hand") == 2 * DRAWN_PER_RULESET
    assert text.count('<pre class="rerun">') == len(found)  # every one can be rerun


def test_napkit_report_html_draws_a_saved_report_as_conform_did(
        runs: tuple[Path, dict[str, dict[str, Any]]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = runs
    page = tmp_path / "again.html"
    assert main(["report", "html", str(out / "mutant.json"), "-o", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == (out / "mutant.html").read_text(encoding="utf-8")
    assert main(["report", "html", str(out / "mutant.json"), "-o",
                 str(out / "mutant.json")]) == 2
    assert main(["report", "html", str(out / "mutant.html"), "-o", str(page)]) == 1
    err = capsys.readouterr().err
    assert "mutant.html: not a JSON report: line 1, column 1" in err and "Traceback" not in err
