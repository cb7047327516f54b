"""House rules on one page (issue 16, part 5): ``napkit rules sheet`` and ``napkit rules new``.

The sheet of every built-in ruleset is printed to PDF by headless Chromium (``--print-to-pdf``)
and must fit on two A4 sides at most; two of them are also shot as PNGs (the screenshots that
were looked at when the layout was made). ``napkit rules new`` writes a house file that
``napkit rules check``, ``show`` and ``fuzz`` read, and refuses a bad option with its path.
"""

from __future__ import annotations

import ast
import html
import json
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest
from napkit import Game, paths
from napkit.cli import main
from napkit.handbook import sheet as sheet_module
from napkit.handbook.sheet import sheet_html
from napkit.spec.catalog import default_spec
from napkit.spec.house import load_house_ruleset

from tests.browser import run_chromium

SPEC = default_spec()
RULESETS = sorted(SPEC.rulesets)
A4_POINTS = (595, 842)  # 210 x 297 mm

class Links(HTMLParser):
    """Every href, every src, and whether the page has a script or a stylesheet link."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.fetches: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))
        if tag in ("script", "link", "img", "iframe") or found.get("src"):
            self.fetches.append(tag)


def pdf_pages(pdf: bytes) -> tuple[int, list[tuple[float, float]]]:
    """The page count of the PDF's page tree (its root /Pages /Count), and each page's size
    (the /MediaBox of each /Type /Page object that is not compressed away)."""
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", pdf)]
    counts += [int(n) for n in re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", pdf)]
    boxes = [(float(w), float(h)) for w, h in re.findall(
        rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)]
    return max(counts, default=0), boxes


# --- the sheet -----------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_sheet_prints_on_at_most_two_a4_sides(ruleset_id: str, tmp_path: Path) -> None:
    page = tmp_path / f"{ruleset_id}.html"
    page.write_text(sheet_html(SPEC, SPEC.rulesets[ruleset_id]), encoding="utf-8")
    pdf = tmp_path / f"{ruleset_id}.pdf"
    printed = run_chromium(tmp_path / "profile", "--hide-scrollbars", "--no-pdf-header-footer",
                           f"--print-to-pdf={pdf}", page.as_uri())
    assert pdf.exists(), printed.stderr
    count, boxes = pdf_pages(pdf.read_bytes())
    assert 1 <= count <= 2, f"{ruleset_id}: the sheet prints on {count} pages"
    assert boxes and all(abs(w - A4_POINTS[0]) < 2 and abs(h - A4_POINTS[1]) < 2
                         for w, h in boxes), boxes


@pytest.mark.parametrize("ruleset_id", ["classic", "pagat-teesside"])
def test_a_screenshot_of_the_sheet_is_not_blank(ruleset_id: str, tmp_path: Path) -> None:
    page = tmp_path / f"{ruleset_id}.html"
    page.write_text(sheet_html(SPEC, SPEC.rulesets[ruleset_id]), encoding="utf-8")
    shot = tmp_path / f"{ruleset_id}.png"
    shown = run_chromium(tmp_path / "profile", "--hide-scrollbars", "--window-size=900,1300",
                         f"--screenshot={shot}", page.as_uri())
    assert shot.exists(), shown.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 60_000, "the screenshot is (nearly) blank"


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_sheet_is_self_contained_and_links_every_line(ruleset_id: str) -> None:
    ruleset = SPEC.rulesets[ruleset_id]
    page = sheet_html(SPEC, ruleset, site="../")
    found = Links()
    found.feed(page)
    assert found.fetches == [], "the sheet fetches nothing: no script, stylesheet or image"
    assert "@media print" in page and "size: A4" in page
    known = set(SPEC.lawbook.rules) | set(SPEC.register.by_id)
    targets = set()
    for href in found.hrefs:
        assert href.startswith(("../lawbook.html#NAP-", "../decisions.html#DEC-")), href
        targets.add(href.split("#")[1])
    assert targets <= known, targets - known
    # Every bid, in order; every decision the ruleset relies on; every line has its id.
    bids = ruleset.resolve()["bids"]
    assert isinstance(bids, list)
    names = [str(bid["name"]) for bid in bids if isinstance(bid, dict)]
    positions = [page.index(f'<td class="bid">{html.escape(name)}</td>') for name in names]
    assert positions == sorted(positions)
    assert set(ruleset.decision_ids()) <= targets
    items = re.findall(r"<li>(.*?)</li>", page)
    assert items and all('class="id"' in item for item in items)


def test_the_sheet_says_what_each_bid_pays() -> None:
    page = sheet_html(SPEC, SPEC.rulesets["pagat-floater"])
    assert "20 from each opponent + the kitty" in page
    assert "20 per player into the kitty" in page
    assert "lead your lowest trump to the first trick" in page
    peep = sheet_html(SPEC, SPEC.rulesets["peep"])
    assert "doubles the pot" in peep and "Each player starts with 20 chips" in peep


def test_an_option_changes_the_sheet() -> None:
    plain = sheet_html(SPEC, SPEC.rulesets["pagat"])
    doubled = sheet_html(SPEC, SPEC.rulesets["pagat"], {"doubling": "won", "mis": "on"})
    assert "10 from each opponent" not in plain.split("Wellington")[0]
    assert "<td>10 from each opponent</td><td>5 to each opponent</td>" in doubled
    assert '<td class="bid">Mis (Misère)</td>' in doubled
    assert '<td class="bid">Mis (Misère)</td>' not in plain


def test_the_sheet_is_built_from_data_not_per_ruleset_text() -> None:
    # No string of the code is a ruleset's id: no `if ruleset.id == "peep"` (the doctest's
    # example is inside the module's docstring, one long string).
    tree = ast.parse(Path(sheet_module.__file__).read_text(encoding="utf-8"))
    named = {node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and node.value in SPEC.rulesets}
    assert not named, f"sheet.py names the rulesets {named}"


def test_napkit_rules_sheet_writes_a_house_games_sheet(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    example = paths.spec_dir() / "examples" / "house-two-no-wellington.json"
    out = tmp_path / "sheet.html"
    assert main(["rules", "sheet", str(example), "-o", str(out), "--site",
                 "https://example.org/napkit"]) == 0
    assert "wrote" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    assert "a house game extending <code>classic</code>" in page
    assert 'href="https://example.org/napkit/lawbook.html#NAP-5.2.2"' in page
    bids = page.split("<tbody>")[1].split("</tbody>")[0]
    assert '<td class="bid">2</td>' in bids and "Wellington" not in bids


def test_napkit_rules_sheet_refuses_an_unknown_option(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert main(["rules", "sheet", "pagat", "--option", "mis=maybe", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "option mis has no choice 'maybe'" in err, err


# --- napkit rules new ----------------------------------------------------------------------------
def test_new_then_check_then_show_round_trip(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.json"
    assert main(["rules", "new", "--from", "pagat", "--option", "mis=on",
                 "--set", "bids[nap].win.each=6", "--set", "throw_in.stakes=double-next",
                 "--id", "our-nap", "--title", "Our Nap", "-o", str(house)]) == 0
    said = capsys.readouterr().out
    assert f"wrote {house}: a house game, our-nap (Our Nap), extending pagat" in said
    document = json.loads(house.read_text(encoding="utf-8"))
    assert document["house"] is True and document["extends"] == "pagat"
    assert document["options"] == {"mis": {"default": "on"}}
    assert document["params"]["throw_in"] == {"stakes": "double-next"}

    assert main(["rules", "check", str(house)]) == 0
    checked = capsys.readouterr().out
    assert "1 ruleset file: no problems." in checked
    assert "option mis: default on (was off)" in checked

    assert main(["rules", "show", str(house)]) == 0
    shown = capsys.readouterr().out
    assert "bids[*].win.each: three=3, mis=3, four=4, nap=6, wellington=10" in shown
    assert "throw_in = stakes: double-next" in shown
    ruleset = load_house_ruleset(house)
    assert [bid.id for bid in Game(ruleset, 4).rules.bids] == [
        "three", "mis", "four", "nap", "wellington"]


def test_new_refuses_a_bad_option_with_its_path_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.json"
    assert main(["rules", "new", "--from", "pagat", "--option", "mis=maybe",
                 "-o", str(house)]) == 1
    err = capsys.readouterr().err
    assert (f"{house}: $.options.mis.default: option mis: the default 'maybe' is not a choice "
            "(off, on) (--option mis=maybe)") in err
    assert "Nothing was written." in err
    assert not house.exists()
    assert main(["rules", "new", "--from", "pagat", "--option", "miss=on", "-o",
                 str(house)]) == 1
    assert "$.options.miss: pagat has no option 'miss' (did you mean mis?" in \
        capsys.readouterr().err
    assert main(["rules", "new", "--from", "pagat", "--set", "throw_in.stakes=sometimes",
                 "-o", str(house)]) == 1
    assert '$.params.throw_in.stakes: "sometimes" is not a valid value' in \
        capsys.readouterr().err
    assert not house.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--from", "pagatt"], "--from 'pagatt' is not a built-in ruleset (did you mean pagat"),
    (["--from", "pagat", "--set", "bids[zap].win.each=6"], "pagat has no bid 'zap'"),
    (["--from", "pagat", "--set", "nothing"], "--set takes PARAM=VALUE"),
    (["--from", "pagat", "--option", "mis"], "--option takes NAME=CHOICE"),
])
def test_new_usage_errors_are_one_line(args: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "new", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_new_writes_to_standard_output_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "new", "--from", "classic", "--option", "packets=3-2"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["options"] == {"packets": {"default": "3-2"}}
    assert "wrote (standard output)" in captured.err


ADAPTER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from napkit.protocol.adapter import Adapter, serve
    from napkit.spec.house import load_house_ruleset

    ruleset = load_house_ruleset(Path(sys.argv[1]))

    class PlaysHouse(Adapter):
        def _hello(self, request):
            answer = super()._hello(request)
            rulesets = answer["supports"]["rulesets"]
            answer["supports"]["rulesets"] = {ruleset.id: rulesets[ruleset.id]}
            return answer

    serve(sys.stdin.buffer, sys.stdout.buffer, adapter=PlaysHouse(rulesets=[ruleset]))
""")


def test_a_new_house_file_is_fuzzed(tmp_path: Path) -> None:
    house = tmp_path / "house.json"
    assert main(["rules", "new", "--from", "pagat", "--option", "mis=on",
                 "--set", "bids[nap].win.each=6", "-o", str(house)]) == 0
    program = tmp_path / "plays_house.py"
    program.write_text(ADAPTER, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "napkit", "fuzz", "--ruleset-file", str(house), "--hands", "30",
         "--seed", "3", "-q", "--", sys.executable, str(program), str(house)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_house_rules_guide_shows_what_new_prints(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    guide = (paths.REPO_ROOT / "docs" / "guides" / "house-rules.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["rules", "new", "--from", "classic", "--option", "packets=3-2", "--set",
                 "bids[wellington].win.each=15", "--set", "throw_in.stakes=double-next", "--id",
                 "our-classic", "--title", "Classic Nap, our way", "-o", "my-game.json"]) == 0
    assert capsys.readouterr().out in guide
    assert main(["rules", "new", "--from", "classic", "--option", "packets=4-1", "-o",
                 "my-game.json"]) == 1
    assert capsys.readouterr().err in guide
    assert main(["rules", "sheet", "my-game.json", "-o", "sheet.html"]) == 0
    assert "Classic Nap, our way" in (tmp_path / "sheet.html").read_text(encoding="utf-8")
