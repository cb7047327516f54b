"""No report, program or house file can put markup into napkit's web pages.

The pages (``napkit conform --html``, ``napkit report html``, ``napkit report site``,
``napkit rules sheet``) are Jinja2 templates with autoescaping on (napkit/output/pages.py).
A real report (a deliberately wrong program's run on a few cases, so that failures carry
deals, steps and expectations) has every string in it, anywhere, replaced by a payload that
would run a script if it reached the page as markup, and fields with payload names added
where a report may carry fields napkit does not know. A house file's title, description and
bid names are payloads too. Each page is checked twice: its text holds no payload unescaped,
and headless Chromium, which runs whatever script the page holds, shows that no payload ran;
as a control, the same check sees a script planted in a copy of the page, so that it could
fail.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.report.html import html_page
from napkit.conform.report.site import site_files
from napkit.handbook.sheet import sheet_html
from napkit.spec.catalog import default_spec
from napkit.spec.house import load_house_ruleset

from tests.browser import dump_dom

ROOT = Path(__file__).resolve().parents[1]
MUTANT_ADAPTER = ROOT / "conformance" / "mutants" / "adapter.py"

# What a payload does when it runs: marks the page. Its escaped text never holds the mark
# (the text says 'yes' in single quotes; the mark is an attribute in double quotes).
RUN = "document.documentElement.setAttribute('data-pwned','yes')"
MARK = 'data-pwned="yes"'
PAYLOADS = {
    "script": f'"><script>{RUN}</script>',
    "img": f'"><img src=x onerror="{RUN}">',
    "script-data": f"</script><script>{RUN}</script>",  # for values in a page's script data
}
# The markup a payload would leave in a page that let it through.
RAW = re.compile(r"<script>document|<img src=x|onerror=\"document")


def _conform(out: Path) -> dict[str, Any]:
    report = out / "mutant.json"
    done = subprocess.run(
        [sys.executable, "-m", "napkit", "conform", "-q", "--case", "classic/illegal/000*",
         "--case", "classic/legal/000*", "--json", str(report), "--", sys.executable,
         str(MUTANT_ADAPTER), "revoke-allowed"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 1 and report.exists(), done.stderr
    document: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return document


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real report of failures, with the fields a report may have that this one lacks."""
    document = _conform(tmp_path_factory.mktemp("report"))
    failed = [c for c in document["cases"] if c["status"] == "failed"]
    assert failed and all(isinstance(c.get("failure"), dict) for c in failed)
    case = failed[0]
    case.update({"reason": "why", "note": "a note", "stderr": "an error", "where": "step 3",
                 "expected": [4, -8, 4], "got": [2, -4, 2]})
    failure = case["failure"]
    failure.update({"first": "hand 3 first differs at KC", "position": "the hand is over",
                    "message": "another message", "hand": 3, "where": "hand 3, step 12",
                    "expected": {"balances": "AS"}, "answered": ["play", "KC"]})
    failure["deal"]["widow"] = ["3S"]
    failure["actions"].append({"seat": 1, "action": {"type": "play", "card": "10H",
                                                      "other": "x"}, "more": "y"})
    failure["actions"].append({"seat": None, "action": {"type": "shuffle",
                                                         "pack": ["AS"] * 12}})
    failure["actions"].append("a step of its own")
    document["cases"].append({**copy.deepcopy(case), "status": "xpass", "id": "another"})
    document["cases"].append({**copy.deepcopy(case), "status": "xfail", "id": "a third"})
    document.update({"notes": ["a note"], "skipped_by_declaration": {"a cause": 2},
                     "interrupted": "by a signal", "shard": {"index": "1", "count": "2"},
                     "versions": {"program": "1.0"}, "suite_version": "1", "order": "given"})
    document["selection"] = {"filters": {"case": ["a"]}, "xfail": "xfail.txt"}
    return document


def _poisoned(value: Any, payload: str, keep: Callable[[str, Any], bool]) -> Any:
    """``value`` with every string in it the payload (a field for which ``keep(name, value)``
    is true kept as it is), and a field named by the payload added to every object."""
    if isinstance(value, str):
        return payload
    if isinstance(value, list):
        return [_poisoned(v, payload, keep) for v in value]
    if isinstance(value, dict):
        out = {k: v if keep(k, v) else _poisoned(v, payload, keep) for k, v in value.items()}
        if value and not {"cases", "totals"} & set(value):  # not the document's own fields
            out[payload] = payload
        return out
    return value


def _everything(name: str, value: Any) -> bool:
    return False


def _the_statuses(name: str, value: Any) -> bool:
    # The statuses kept, so that the failures are drawn, with everything else a payload.
    return name == "status"


def _documents(report: dict[str, Any], payload: str) -> list[dict[str, Any]]:
    return [_poisoned(report, payload, _everything), _poisoned(report, payload, _the_statuses)]


def _house_file(folder: Path, payload: str) -> Path:
    parent = default_spec().rulesets["pagat-floater"]
    bids = parent.params["bids"]
    assert isinstance(bids, list)
    house = {"house": True, "id": "poisoned", "title": payload, "extends": "pagat-floater",
             "description": payload,
             "params": {"bids": [{**b, "name": f"{payload} {n}"}
                                 for n, b in enumerate(bids) if isinstance(b, dict)]}}
    path = folder / "house.json"
    path.write_text(json.dumps(house), encoding="utf-8")
    return path


def _pages(report: dict[str, Any], payload: str, folder: Path) -> dict[str, str]:
    """Every kind of page, drawn from the payload's reports and house file."""
    everything, statuses_kept = _documents(report, payload)
    assert everything["cases"][0]["status"] == payload
    assert statuses_kept["cases"][0]["failure"]["deal"]["hands"]
    site = site_files([(payload, everything), (payload, statuses_kept)], base_url=payload)
    programs = sorted(k for k in site if k.startswith("programs/"))
    assert len(programs) == 2
    ruleset = load_house_ruleset(_house_file(folder, payload))
    assert ruleset.title == payload
    return {"report": html_page(everything), "report-failures": html_page(statuses_kept),
            "site-index": site["index.html"], "site-program": site[programs[1]],
            "sheet": sheet_html(default_spec(), ruleset, site=payload)}


@pytest.mark.parametrize("kind", sorted(PAYLOADS))
def test_no_payload_reaches_a_page_as_markup(report: dict[str, Any], kind: str,
                                             tmp_path: Path) -> None:
    payload = PAYLOADS[kind]
    for name, text in _pages(report, payload, tmp_path).items():
        assert payload not in text, name
        assert RAW.search(text) is None, f"{name}: {RAW.search(text)}"
        # The page's own script only (the sheet has none), and the payload there as text.
        assert text.count("<script") == (0 if name == "sheet" else 1), name
        assert "&#34;&gt;" in text or "&lt;/script&gt;" in text, name


def test_a_forged_status_stays_inside_its_attribute() -> None:
    forged = 'passed" onmouseover="x'
    case = {"id": "a", "ruleset": "classic", "kind": "legal", "rules": ["NAP-8.1.1"],
            "status": forged}
    document = {"format": "napkit-conform-report/1", "program": {"name": "p"},
                "cases": [case, {**case, "id": "b", "status": "failed", "rules": ["NAP-5.1.1"]}]}
    text = html_page(document)
    assert 'onmouseover="x' not in text
    assert 'class="passed&#34; onmouseover=&#34;x"' in text  # the matrix's cell, as a class
    assert 'data-has="passed&#34; onmouseover=&#34;x"' in text
    assert '<option value="passed&#34; onmouseover=&#34;x">' in text
    index = site_files([("r.json", document)])["index.html"]
    assert 'onmouseover="x' not in index and 'class="passed&#34; onmouseover=&#34;x"' in index


# --- in Chromium ---------------------------------------------------------------------------------
def _ran(page: Path, profile: Path) -> bool:
    """Whether a payload's script ran when Chromium opened the page."""
    return MARK in dump_dom(page.as_uri(), profile)


@pytest.mark.slow  # headless Chromium
@pytest.mark.parametrize("kind", sorted(PAYLOADS))
def test_no_payload_runs_in_chromium(report: dict[str, Any], kind: str, tmp_path: Path) -> None:
    for name, text in _pages(report, PAYLOADS[kind], tmp_path).items():
        page = tmp_path / f"{name}.html"
        page.write_text(text, encoding="utf-8")
        assert not _ran(page, tmp_path / f"profile-{name}"), f"{kind} ran in {name}"


@pytest.mark.slow  # headless Chromium
def test_the_check_sees_a_payload_that_gets_through(report: dict[str, Any],
                                                   tmp_path: Path) -> None:
    # The control: the same payloads planted as markup in the pages are seen to run.
    pages = _pages(report, PAYLOADS["script"], tmp_path)
    planted = {"report-script": pages["report"].replace("</main>", PAYLOADS["script"] + "</main>"),
               "sheet-img": pages["sheet"].replace("</h1>", "</h1>" + PAYLOADS["img"]),
               "site-script-data": pages["site-index"].replace(
                   "<script>", "<script>var data = '" + PAYLOADS["script-data"], 1)}
    for name, text in planted.items():
        page = tmp_path / f"{name}.html"
        page.write_text(text, encoding="utf-8")
        assert _ran(page, tmp_path / f"profile-{name}"), f"the planted {name} did not run"
