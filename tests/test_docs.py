"""The rules site (issue 7): it builds with warnings as errors; every rule, decision and schema
has its anchor; every example on it is valid by its schema, and a broken one stops the build;
no internal link is broken; and in headless Chromium the law book and the comparison matrix
render with their headings.

The site is built once for the module, in a temporary folder, by ``sphinx-build -W`` in a
separate process, as the README's command and CI build it. These are the slow tests of the
suite (marked ``slow``: tens of seconds), and they run in CI with the rest.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from napkit import paths
from napkit.dispute.disagreements import points
from napkit.site import data
from napkit.spec.catalog import load_spec
from napkit.spec.schemas import schema_problems

from tests.browser import CHROMIUM_FLAGS, chromium

pytestmark = pytest.mark.slow

REPO = paths.REPO_ROOT
DOCS = REPO / "docs"

def sphinx_build(source: Path, out: Path, *extra: str,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", "-d", str(out / ".doctrees"),
         *extra, str(source), str(out)],
        capture_output=True, text=True, env=env, timeout=600, check=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = sphinx_build(DOCS, out)
    assert built.returncode == 0, f"sphinx-build -W failed:\n{built.stdout}\n{built.stderr}"
    return out


class Page(HTMLParser):
    """The ids, links, headings and <pre> texts of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.headings: list[tuple[str, str]] = []  # (tag, text)
        self.pre: list[tuple[str, str]] = []  # (the innermost section id, text)
        self._sections: list[str | None] = []
        self._heading: list[str] | None = None
        self._heading_tag = ""
        self._pre: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if values.get("name") and tag == "a":
            self.ids.add(str(values["name"]))
        for key in ("href", "src"):
            if values.get(key) and tag in ("a", "link", "script", "img"):
                self.links.append(str(values[key]))
        if tag == "section":
            self._sections.append(values.get("id"))
        if tag in ("h1", "h2", "h3", "h4"):
            self._heading, self._heading_tag = [], tag
        if tag == "pre":
            self._pre = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self._sections:
            self._sections.pop()
        if tag == self._heading_tag and self._heading is not None:
            self.headings.append((tag, " ".join("".join(self._heading).split()).rstrip("¶ ")))
            self._heading = None
        if tag == "pre" and self._pre is not None:
            section = next((s for s in reversed(self._sections) if s), "")
            self.pre.append((section, "".join(self._pre)))
            self._pre = None

    def handle_data(self, text: str) -> None:
        if self._heading is not None:
            self._heading.append(text)
        if self._pre is not None:
            self._pre.append(text)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def parse_text(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


# --- the law book, the rulesets, the register, the schemas: an anchor for every id ----------------
def test_every_rule_of_the_law_book_has_its_anchor(site: Path) -> None:
    spec = load_spec()
    page = parse(site / "lawbook.html")
    missing = sorted(spec.lawbook.all_ids() - page.ids)
    assert not missing, f"law book ids with no anchor on lawbook.html: {missing}"
    assert {rule.id for rule in spec.lawbook} <= page.ids
    assert len(list(spec.lawbook)) > 50


def test_every_ruleset_page_has_an_anchor_for_each_rule_in_force(site: Path) -> None:
    spec = load_spec()
    for rid, ruleset in spec.rulesets.items():
        page = parse(site / "rulesets" / f"{rid}.html")
        missing = sorted(set(ruleset.rules) - page.ids)
        assert not missing, f"rulesets/{rid}.html lacks anchors for {missing}"
        assert f"{rid}-options" in page.ids and f"{rid}-decisions" in page.ids
        assert page.headings[0][0] == "h1" and page.headings[0][1].startswith(f"{rid}: ")


def test_every_decision_has_its_anchor(site: Path) -> None:
    spec = load_spec()
    page = parse(site / "decisions.html")
    missing = sorted({d.id for d in spec.register} - page.ids)
    assert not missing, f"decisions with no anchor: {missing}"


def test_the_comparison_links_every_ruleset_and_rule_it_shows(site: Path) -> None:
    spec = load_spec()
    page = parse(site / "comparison.html")
    for rid in spec.rulesets:
        assert any(link.startswith(f"rulesets/{rid}.html") for link in page.links), rid
    for row in data.comparison_rows(spec):
        assert f"lawbook.html#{row.rule.id}" in page.links, row.rule.id


def test_the_sources_are_named_and_listed_with_their_files(site: Path) -> None:
    """Issue 30: a page names a source by its name, linked to the list of sources on the
    rulesets' page, where its title and file are; the law book's and the disagreements'
    citation tables show no file name (a hash) at all."""
    spec = load_spec()
    listed = (site / "rulesets" / "index.html").read_text(encoding="utf-8")
    page = parse_text(listed)
    for source in spec.index:
        anchor = f"source-{source.file[:3]}"
        assert anchor in page.ids, anchor
        assert source.file in listed and source.title in listed
        assert f'href="#{anchor}"' in listed  # the rulesets' table links each ruleset's source
    for name in ("lawbook.html", "disagreements.html"):
        html = (site / name).read_text(encoding="utf-8")
        assert not re.search(r"[0-9]{3}_[0-9a-f]{16}\.txt", html), name
        assert "rulesets/index.html#source-004" in parse_text(html).links, name
        assert ">pagat.com (McLeod)</" in html, name


# --- the examples --------------------------------------------------------------------------
def test_every_schema_is_on_the_site_with_an_example_valid_by_it(site: Path) -> None:
    page = parse(site / "schemas.html")
    by_section: dict[str, list[str]] = defaultdict(list)
    for section, text in page.pre:
        by_section[section].append(text)
    names = sorted(p.name.removesuffix(".schema.json")
                   for p in (paths.spec_dir() / "schemas").glob("*.schema.json"))
    assert len(names) >= 13
    for name in names:
        blocks = by_section[f"schema-{name}"]
        # The examples, then the schema itself (folded under <details>).
        assert len(blocks) >= 2, f"schema {name}: no example on the page"
        assert json.loads(blocks[-1])["$id"].endswith(f"/{name}.schema.json")
        for block in blocks[:-1]:
            assert schema_problems(name, json.loads(block)) == [], f"an example of {name}"


def test_the_examples_of_the_formats_pages_are_on_the_site(site: Path) -> None:
    formats = parse(site / "formats.html")
    hand = next(json.loads(text) for _, text in formats.pre if '"napkit-hand/1"' in text)
    assert schema_problems("hand-record", hand) == []
    conformance = parse(site / "conformance.html")
    hello = [json.loads(text) for _, text in conformance.pre if '"hello"' in text]
    assert len(hello) == 2
    assert all(schema_problems("adapter", doc) == [] for doc in hello)


def test_a_broken_example_is_named_by_the_check() -> None:
    good = data.Example("card", "here", "10H")
    bad = data.Example("card", "spec/formats.md line 31", "11H")
    data.check_examples([good])
    with pytest.raises(data.ExampleError, match=r"spec/formats\.md line 31: \$: '11H'"):
        data.check_examples([good, bad])


def test_a_broken_example_stops_the_build(tmp_path: Path) -> None:
    # A copy of the spec whose formats.md has an example that its schema refuses, and a site of
    # one page showing the schemas: the build must fail, whatever the flags, naming the example.
    spec = tmp_path / "spec"
    shutil.copytree(paths.spec_dir(), spec)
    page = spec / "formats.md"
    text = page.read_text(encoding="utf-8")
    assert '<!-- example: card -->\n```json\n"10H"\n```' in text
    page.write_text(text.replace('<!-- example: card -->\n```json\n"10H"\n```',
                                 '<!-- example: card -->\n```json\n"11H"\n```'), encoding="utf-8")
    source = tmp_path / "docs"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["napkit.site"]\n', encoding="utf-8")
    (source / "index.rst").write_text("Schemas\n=======\n\n.. napkit-schemas::\n",
                                      encoding="utf-8")
    env = {**os.environ, "NAPKIT_SPEC": str(spec),
           "NAPKIT_SUITE": str(REPO / "tests" / "fixtures" / "conformance")}
    built = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source), str(tmp_path / "out")],
        capture_output=True, text=True, env=env, timeout=300, check=False)
    output = built.stdout + built.stderr
    assert built.returncode != 0, output
    assert "fails its schema" in output and "formats.md line" in output, output
    assert "'11H'" in output, output
    assert "Traceback" not in output, output
    # The same project with the example mended builds (with warnings: its one page links to
    # pages, such as the law book, that only the whole site has).
    page.write_text(text, encoding="utf-8")
    built = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source), str(tmp_path / "out2")],
        capture_output=True, text=True, env=env, timeout=300, check=False)
    output = built.stdout + built.stderr
    assert built.returncode == 0, output
    assert "wrong example" not in output and "fails its schema" not in output, output


# --- links ---------------------------------------------------------------------------------------
def broken_links(root: Path) -> list[str]:
    """Every relative link of every page that names a missing file or a missing #fragment."""
    pages: dict[Path, Page] = {path: parse(path) for path in root.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("mailto:"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(root)}: {link} (no such file)")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if fragment not in ids:
                    broken.append(f"{path.relative_to(root)}: {link} (no such anchor)")
    return broken


def test_no_internal_link_is_broken(site: Path) -> None:
    assert broken_links(site) == []
    # Links to the case files and between the generated pages were among those checked.
    lawbook = parse(site / "lawbook.html")
    assert any(link.startswith("cases/") for link in lawbook.links)
    assert any(link.startswith("decisions.html#DEC-") for link in lawbook.links)


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<p id="here"><a href="b.html#nowhere">b</a>'
                                     '<a href="#here">me</a><a href="c.html">c</a>'
                                     '<a href="https://example.org/x">out</a></p>',
                                     encoding="utf-8")
    (tmp_path / "b.html").write_text('<p id="somewhere">b</p>', encoding="utf-8")
    assert broken_links(tmp_path) == ["a.html: b.html#nowhere (no such anchor)",
                                      "a.html: c.html (no such file)"]


# --- headless Chromium -------------------------------------------------------------------------
def run_chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


@pytest.mark.parametrize(("page", "title", "headings"), [
    ("lawbook.html", "The law book", ["NAP-1 General", "NAP-8.1.1 Following suit"]),
    ("comparison.html", "The variant comparison",
     ["Cards and packs", "The auction", "Settlement", "Options"]),
    ("disagreements.html", "Where the sources disagree",
     ["NAP-2.2.1 The pack", "NAP-9.1.1 The opponents pay the declarer"]),
])
def test_chromium_shows_the_page(site: Path, tmp_path: Path, page: str, title: str,
                                 headings: list[str]) -> None:
    binary = chromium()
    url = (site / page).as_uri()
    shot = tmp_path / page.replace(".html", ".png")
    shown = run_chromium(binary, tmp_path / "profile-shot", f"--screenshot={shot}",
                         "--window-size=1280,2000", url)
    assert shot.exists(), shown.stderr
    assert png_size(shot) == (1280, 2000)
    assert shot.stat().st_size > 50_000, "the screenshot is (nearly) blank"

    dom = run_chromium(binary, tmp_path / "profile-dom", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr
    rendered = parse_text(dom.stdout)
    assert rendered.headings[0] == ("h1", title)
    texts = [text for _, text in rendered.headings]
    for heading in headings:
        assert any(text.startswith(heading) for text in texts), (heading, texts[:20])
    if page == "comparison.html":
        spec = load_spec()
        assert 'class="napkit-table napkit-matrix' in dom.stdout
        assert all(f"rulesets/{rid}.html" in rendered.links for rid in spec.rulesets)
    elif page == "disagreements.html":
        disputed = {p.rule.id for p in points(load_spec())}
        assert {f"disagree-{r}".lower() for r in disputed} <= {i.lower() for i in rendered.ids}
        assert "worked hand" in dom.stdout and "♠" in dom.stdout
    else:
        assert {rule.id for rule in load_spec().lawbook} <= rendered.ids
    # The rendered page's own links resolve too (the DOM after the theme's scripts ran).
    for link in rendered.links:
        parts = urlsplit(link)
        if parts.scheme in ("", "file") and parts.path and not parts.netloc:
            target = Path(unquote(parts.path)) if parts.scheme else (site / unquote(parts.path))
            assert target.exists(), link


# --- the guides' commands -----------------------------------------------------------------------
GUIDES = DOCS / "guides"


def napkit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "napkit", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


def _blocks(text: str, language: str) -> list[str]:
    return [part.split("```", 1)[0] for part in text.split(f"```{language}\n")[1:]]


def test_the_dispute_guide_shows_what_its_commands_print(tmp_path: Path) -> None:
    """Every hand of the guide is written to its file (the first as hand.nap, the others as
    their first line's comment names them), and every replay and explain it shows is run: the
    text block after each command is what it prints (its parts between lines of '...')."""
    guide = (GUIDES / "settle-a-dispute.md").read_text(encoding="utf-8")
    texts = _blocks(guide, "text")
    typed = next(block for block in texts if block.startswith("ruleset: classic"))
    (tmp_path / "hand.nap").write_text(typed, encoding="utf-8")
    valid = napkit("validate", "hand.nap", cwd=tmp_path)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    for block in texts:
        named = re.match(r"# (\S+\.nap)", block)
        if named and "\nruleset: " in block:
            (tmp_path / named.group(1)).write_text(block, encoding="utf-8")
    blocks = re.findall(r"```(sh|text)\n(.*?)```", guide, re.S)
    ran = []
    for (kind, block), (after, shown) in itertools.pairwise(blocks):
        commands = [shlex.split(line) for line in block.splitlines() if kind == "sh" and (
            line.startswith("napkit replay") or line.startswith("napkit explain"))]
        for command in commands:
            assert after == "text", command
            run = subprocess.run([sys.executable, "-m", *command], cwd=tmp_path, text=True,
                                 capture_output=True, timeout=300, check=False,
                                 env={**os.environ, "COLUMNS": "100"})
            assert "Traceback" not in run.stderr, run.stderr
            for part in re.split(r"^\s*\.\.\.\n", shown, flags=re.M):
                assert part in run.stdout, (command, part, run.stdout)
            ran.append(" ".join(command[:3]))
    assert {"napkit replay hand.nap", "napkit explain hand.nap", "napkit replay revoke.nap",
            "napkit replay classic-nap.nap", "napkit replay wellington.nap"} <= set(ran)
    compared = napkit("rules", "compare", "classic", "napoleon", cwd=tmp_path)
    assert "  bids[three].win.each\n    classic : 3\n    napoleon: 1\n" in compared.stdout
    assert "  bids[three].win.each\n    classic : 3\n    napoleon: 1\n" in guide


def test_the_first_adapter_of_the_guide_runs_and_is_reported(tmp_path: Path) -> None:
    guide = (GUIDES / "check-your-program.md").read_text(encoding="utf-8")
    program = guide.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "my_nap.py").write_text(program, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "napkit", "conform", "--ruleset", "classic", "--",
         sys.executable, str(tmp_path / "my_nap.py")],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    failure = ("FAILED classic/legal/auction-and-following-suit: start: the program could not "
               "serve the start-hand request: start-hand is not written yet")
    assert failure in run.stdout and failure in guide
    assert "cases against my-nap 0.1: 0 passed, 1 failed," in run.stdout
