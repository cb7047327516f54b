"""``napkit report site`` and ``napkit report diff`` (issue 17, part 3): several programs'
JSON reports side by side as a static site with badges, and two runs of one program compared.

Three runs on a few classic cases: the reference, the JavaScript adapter js-classic (where
Node.js is installed) and a mutant that lets a player revoke (a planted failure). The site of
the three is rendered in headless Chromium (its counts equal the reports', its columns in the
order given, its failures linked to the program's page with the filters set) and
screenshotted; each badge is parsed as SVG and sized from its text; the comparison page shows
the Markdown of each badge. The diff of the reference's run and the mutant's names the newly
failing cases and exits 1; the other way round, 0. A file that is not a report is refused with
one line. The rules site's example (napkit.site.reportexample) puts the reference and
js-classic first.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main
from napkit.conform.report.badge import FONT_SIZE, GREEN, badge_colour, text_width
from napkit.conform.report.diff import diff_lines, diff_runs
from napkit.conform.report.site import short_name, site_files, slug
from napkit.site.reportexample import FOLDER, conform_commands, write_report_example

from tests.browser import data_counts, dump_dom, external_references, screenshot

ROOT = Path(__file__).resolve().parents[1]
MUTANT_ADAPTER = ROOT / "conformance" / "mutants" / "adapter.py"
JS_ADAPTER = ROOT / "conformance" / "adapters" / "js-classic" / "adapter.js"
NODE = shutil.which("node")
CASES = ["--case", "classic/illegal/00*", "--case", "classic/legal/000*"]
SVG = "{http://www.w3.org/2000/svg}"


def _conform(out: Path, name: str, *args: str) -> Path:
    report = out / f"{name}.json"
    done = subprocess.run([sys.executable, "-m", "napkit", "conform", "-q", *CASES, "--json",
                           str(report), *args],
                          capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode in (0, 1) and report.exists(), done.stderr
    return report


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("runs")
    found = {"reference": _conform(out, "reference", "--in-process")}
    if NODE is not None:
        found["js"] = _conform(out, "js", "--", NODE, str(JS_ADAPTER))
    found["mutant"] = _conform(out, "mutant", "--", sys.executable, str(MUTANT_ADAPTER),
                               "revoke-allowed")
    return found


def _load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.fixture(scope="module")
def site(reports: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    assert main(["report", "site", *map(str, reports.values()), "-o", str(out)]) == 0
    return out


def test_the_site_has_a_page_and_badges_for_each_program(reports: dict[str, Path],
                                                         site: Path) -> None:
    assert (site / "index.html").is_file()
    for path in reports.values():
        name = slug(short_name(_load(path)))
        assert (site / "programs" / f"{name}.html").is_file()
        assert (site / "badges" / f"{name}-classic.svg").is_file()
    for page in site.rglob("*.html"):
        assert external_references(page.read_text(encoding="utf-8")) == [], page


def test_badges_are_svg_sized_to_their_text(reports: dict[str, Path], site: Path) -> None:
    for key, path in reports.items():
        document = _load(path)
        name = short_name(document)
        root = ET.parse(site / "badges" / f"{slug(name)}-classic.svg").getroot()
        assert root.tag == f"{SVG}svg"
        width, height = int(root.attrib["width"]), int(root.attrib["height"])
        assert height == 20
        rects = [r for r in root.iter(f"{SVG}rect") if "fill" in r.attrib
                 and r.attrib["fill"].startswith("#") and r.attrib["fill"] != "#fff"]
        label, value = rects[0], rects[1]
        assert int(label.attrib["width"]) + int(value.attrib["width"]) == width
        texts = [t for t in root.iter(f"{SVG}text") if "fill-opacity" not in t.attrib]
        assert texts[0].text == name
        ran = [c for c in document["cases"] if c["status"] != "skipped"]
        passed = sum(c["status"] == "passed" for c in ran)
        assert texts[1].text == f"classic {passed}/{len(ran)}"
        group = next(g for g in root.iter(f"{SVG}g") if "font-size" in g.attrib)
        assert int(group.attrib["font-size"]) == FONT_SIZE >= 11
        # Each text fits its box, with room either side, at its length.
        for text, box in zip(texts, (label, value), strict=True):
            assert text_width(text.text or "") <= int(box.attrib["width"]) - 8
            assert int(text.attrib["textLength"]) <= int(box.attrib["width"])
        colour = value.attrib["fill"]
        assert colour == badge_colour(passed, len(ran))
        assert (colour == GREEN) == (key != "mutant")


@pytest.mark.slow  # headless Chromium
def test_the_comparison_page_in_chromium(reports: dict[str, Path], site: Path,
                                         tmp_path: Path) -> None:
    dom = dump_dom((site / "index.html").as_uri(), tmp_path / "profile")
    shown = data_counts(dom)
    headings = re.findall(r'<th class="program"><a href="programs/([^"]+)\.html"', dom)
    names = [slug(short_name(_load(p))) for p in reports.values()]
    assert headings[:len(names)] == names  # the columns in the order given
    for path, name in zip(reports.values(), names, strict=True):
        totals = _load(path)["totals"]
        assert shown[f"{name}-passed"] == totals["passed"]
        assert shown[f"{name}-failed"] == totals["failed"]
        assert f"[![{short_name(_load(path))} classic](badges/{name}-classic.svg)]" in dom
    # A failing cell links to the mutant's page with its failures chosen.
    mutant = slug(short_name(_load(reports["mutant"])))
    link = re.search(rf'href="(programs/{mutant}\.html\?ruleset=classic&amp;outcome=failed)"',
                     dom)
    assert link is not None
    screenshot((site / "index.html").as_uri(), tmp_path / "site.png", tmp_path / "profile-shot")
    target = (site / link.group(1).replace("&amp;", "&")).as_uri()
    page = dump_dom((site / "programs" / f"{mutant}.html").as_uri() + "?ruleset=classic"
                    "&outcome=failed&rule=NAP-8.1.1", tmp_path / "profile-page")
    failed = [c for c in _load(reports["mutant"])["cases"]
              if c["status"] == "failed" and "NAP-8.1.1" in c["rules"]]
    assert f'id="f-shown">{len(failed)}<' in page
    assert "the comparison</a>" in page and target


def test_diff_names_the_planted_failure_and_exits_1(reports: dict[str, Path],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    old, new = str(reports["reference"]), str(reports["mutant"])
    assert main(["report", "diff", old, new]) == 1
    out = capsys.readouterr().out
    failing = [c["id"] for c in _load(reports["mutant"])["cases"] if c["status"] == "failed"]
    assert failing
    assert f"newly failing ({len(failing)}):" in out
    for case_id in failing[:5]:
        assert f"  {case_id} (was passed, now failed): " in out
    assert out.rstrip().splitlines()[-1].startswith(f"REGRESSED: {len(failing)} newly failing")
    # The fix: every failure newly passes, and nothing newly fails.
    assert main(["report", "diff", new, old]) == 0
    out = capsys.readouterr().out
    assert f"newly passing ({len(failing)}):" in out and "newly failing (" not in out
    assert main(["report", "diff", old, old]) == 0


@pytest.mark.parametrize(("text", "wanted"), [
    ('{"format": "napkit-fuzz-report/1"}', "$.format: 'napkit-conform-report/1' was expected"),
    ('{"format": "napkit-conform-report/1", "program": {"name": "x"}, "cases": [{"id": "a", '
     '"ruleset": "classic", "status": 3}]}', "$.cases[0].status: a string was expected"),
    ("[1, 2", "not a JSON report: line 1"),
    ("[]", "$: an object was expected"),
])
def test_a_file_that_is_not_a_report_is_one_line(tmp_path: Path, text: str, wanted: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    for argv in (["report", "site", str(bad), "-o", str(tmp_path / "out")],
                 ["report", "diff", str(bad), str(bad)]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and str(bad) in err and wanted in err, err
    assert main(["report", "diff", str(tmp_path / "missing.json"), str(bad)]) == 1
    assert "missing.json: cannot read" in capsys.readouterr().err


def test_the_rules_sites_example_puts_the_reference_and_js_classic_first(tmp_path: Path
                                                                         ) -> None:
    if NODE is None:
        pytest.skip("node is not installed (js-classic needs Node.js)")
    assert [name for name, _, _ in conform_commands(NODE)] == ["napkit.json", "js-classic.json"]
    written = write_report_example(tmp_path)
    out = tmp_path / FOLDER
    assert out / "index.html" in written
    index = (out / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<th class="program"><a href="programs/([^"]+)\.html"', index)
    assert headings[:2] == ["napkit", "js-classic"]
    shown = data_counts(index)
    assert shown["napkit-failed"] == shown["js-classic-failed"] == 0
    assert shown["napkit-passed"] == shown["js-classic-passed"] > 300
    # docs/report-example.md links only to what the example writes.
    page = (ROOT / "docs" / "report-example.md").read_text(encoding="utf-8")
    for link in re.findall(r'(?:href|src)="(report-example/[^"]+)"', page):
        assert (tmp_path / link).is_file(), link



def _case(case_id: str, status: str) -> dict[str, Any]:
    return {"id": case_id, "ruleset": "classic", "kind": "legal", "rules": ["NAP-8.1.1"],
            "status": status}


def _report(name: str, *found: dict[str, Any]) -> dict[str, Any]:
    return {"format": "napkit-conform-report/1", "program": {"name": name, "command": []},
            "cases": list(found)}


def test_what_newly_fails_and_what_is_no_longer_run() -> None:
    old = _report("my-nap 1.0", _case("a", "passed"), _case("b", "failed"), _case("c", "passed"),
                  _case("d", "passed"), _case("e", "xfail"))
    new = _report("my-nap 1.1", _case("a", "failed"), _case("b", "passed"),
                  _case("c", "skipped"), _case("e", "failed"), _case("f", "failed"))
    found = diff_runs(old, new)
    assert [c["id"] for c in found.newly_failing] == ["a", "e", "f"]  # f: a case added since
    assert found.was == {"a": "passed", "b": "failed", "c": "passed", "d": "passed",
                         "e": "xfail", "f": "not run"}
    assert [c["id"] for c in found.newly_passing] == ["b"]
    assert [c["id"] for c in found.not_run] == ["c", "d"]
    assert found.regressed and not found.notes  # one program, two versions
    lines = diff_lines(found)
    assert lines[-1] == ("REGRESSED: 3 newly failing, 1 newly passing, 0 still failing, "
                         "2 no longer run")
    other = diff_runs(old, _report("their-nap 2.0"))
    assert other.notes == ["the runs are of two programs: my-nap 1.0 and their-nap 2.0"]


def test_the_badges_markdown_takes_the_sites_address() -> None:
    reports = [("a.json", _report("my-nap 1.1", _case("a", "passed"), _case("b", "skipped"))),
               ("b.json", _report("my-nap 1.2", _case("a", "failed")))]
    files = site_files(reports, base_url="https://example.org/nap/")
    # Two runs of one program: told apart by version.
    assert {"badges/my-nap-classic.svg", "badges/my-nap-1-2-classic.svg",
            "programs/my-nap.html", "programs/my-nap-1-2.html", "index.html"} == set(files)
    assert ("[![my-nap classic](https://example.org/nap/badges/my-nap-classic.svg)]"
            "(https://example.org/nap/programs/my-nap.html)") in files["index.html"]
    assert ">classic 1/1</text>" in files["badges/my-nap-classic.svg"]  # skipped not counted
    assert ">classic 0/1</text>" in files["badges/my-nap-1-2-classic.svg"]
