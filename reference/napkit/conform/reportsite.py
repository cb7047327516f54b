"""``napkit report site RUN.json... -o DIR``: several programs' conformance results side by
side, as a static site of self-contained pages (no network; it opens from disk).

From the JSON reports of ``napkit conform`` (one a program, in the order given, which is the
order of the columns) it writes:

* ``DIR/index.html``, the comparison: each program (its name, version, command, totals);
  per ruleset, how many cases each passed, coloured, with its badge; per ruleset and rule,
  which programs pass, each failing cell linked to the failures behind it; and the Markdown
  that puts each badge in a README;
* ``DIR/programs/PROGRAM.html``, a program's own report (:func:`napkit.conform.htmlreport.
  html_page`), listing its failures; the comparison links into it with its filters set
  (``?ruleset=classic&outcome=failed&rule=NAP-8.1.1``);
* ``DIR/badges/PROGRAM-RULESET.svg``, a badge for each program and ruleset
  (:mod:`napkit.conform.badge`): ``napkit | classic 328/328``.

``PROGRAM`` is the program's name without its version, in lower case with dashes
(``js-classic``), so that a badge's address stays the same from one release to the next.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from napkit.cli.files import write_text
from napkit.conform.badge import badge_colour, badge_svg
from napkit.conform.htmlreport import (
    cases,
    cell_class,
    esc,
    html_page,
    page,
    program_name,
    program_version,
    rule_cells,
    rule_key,
    rule_titles,
    totals,
)
from napkit.conform.runner import FAILED, PASSED, SKIPPED, XFAIL, XPASS

SITE_STYLE = """
table.compare td { text-align: center; min-width: 90px; }
table.compare td.name { text-align: left; }
table.compare td a { color: inherit; text-decoration: none; display: block; }
table.compare td a:hover { text-decoration: underline; }
table.compare th.program { text-align: center; }
.badge-list { display: grid; grid-template-columns: max-content 1fr; gap: 6px 14px;
  align-items: center; background: #fff; border: 1px solid var(--line); border-radius: 8px;
  padding: 10px 14px; }
.badge-list code { background: #f3f5f7; padding: 2px 6px; border-radius: 4px;
  word-break: break-all; user-select: all; }
details.ruleset { margin: 8px 0; } details.ruleset summary { font-weight: 600; cursor: pointer;
  font-size: 16px; margin: 6px 0; }
"""

SITE_SCRIPT = """
(function () {
  var rule = document.getElementById('c-rule'), differ = document.getElementById('c-differ');
  function apply() {
    var text = rule.value.trim().toUpperCase();
    document.querySelectorAll('tr[data-rule]').forEach(function (row) {
      var ok = text === '' || row.getAttribute('data-rule').toUpperCase().indexOf(text) >= 0;
      if (differ.checked && row.getAttribute('data-same') === 'yes') ok = false;
      row.classList.toggle('hidden', !ok);
    });
  }
  rule.addEventListener('input', apply);
  differ.addEventListener('change', apply);
  apply();
})();
"""


@dataclass(frozen=True)
class Entry:
    """One program's run on the site: a column of the comparison."""

    slug: str  # its file names: programs/SLUG.html, badges/SLUG-RULESET.svg
    name: str  # the program's name as the report gives it (napkit 0.2.0)
    short: str  # without its version (napkit): the badges' label
    version: str | None
    source: str  # the report's file, as given
    document: Mapping[str, Any]

    def by_ruleset(self) -> dict[str, Counter[str]]:
        found: dict[str, Counter[str]] = {}
        for case in cases(self.document):
            found.setdefault(str(case.get("ruleset")), Counter())[str(case.get("status"))] += 1
        return found


def short_name(document: Mapping[str, Any]) -> str:
    """The program's name without its version: ``napkit 0.2.0`` is ``napkit``."""
    name = program_name(document)
    version = program_version(document)
    versions = document.get("versions")
    if version is None and isinstance(versions, dict) and isinstance(versions.get("program"),
                                                                      str):
        version = versions["program"]
    if version and name.endswith(f" {version}"):
        return name[:-len(version) - 1]
    words = name.split()
    if len(words) > 1 and re.fullmatch(r"v?\d[\w.+-]*", words[-1]):
        return " ".join(words[:-1])
    return name


def slug(text: str) -> str:
    """A name for a file: lower case, dashes for the rest (``NAP-8.1.1`` is ``nap-8-1-1``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "program"


def entries(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Entry]:
    """The site's columns, one for each (file, report), with file names of their own (two runs
    of one program told apart by version, then by number)."""
    found: list[Entry] = []
    taken: set[str] = set()
    for source, document in reports:
        short = short_name(document)
        version = program_version(document) or program_name(document)[len(short):].strip() \
            or None
        name = slug(short)
        if name in taken and version:
            name = slug(f"{short} {version}")
        base, n = name, 2
        while name in taken:
            name, n = f"{base}-{n}", n + 1
        taken.add(name)
        found.append(Entry(name, program_name(document), short, version, source, document))
    return found


def badge_name(entry: Entry, ruleset: str) -> str:
    return f"badges/{entry.slug}-{slug(ruleset)}.svg"


def badge_text(counts: Counter[str], ruleset: str) -> tuple[str, int, int]:
    """A badge's message (``classic 328/328``), the cases passed and the cases run (all but the
    skipped)."""
    ran = sum(n for s, n in counts.items() if s != SKIPPED)
    passed = counts[PASSED]
    return (f"{ruleset} {passed}/{ran}" if ran else f"{ruleset} not run"), passed, ran


def site_files(reports: Sequence[tuple[str, Mapping[str, Any]]], base_url: str = ""
               ) -> dict[str, str]:
    """Every file of the site, by its path under the site's folder."""
    columns = entries(reports)
    files: dict[str, str] = {}
    for entry in columns:
        files[f"programs/{entry.slug}.html"] = html_page(entry.document, back="../index.html")
        for ruleset, counts in sorted(entry.by_ruleset().items()):
            message, passed, ran = badge_text(counts, ruleset)
            files[badge_name(entry, ruleset)] = badge_svg(entry.short, message,
                                                          badge_colour(passed, ran))
    files["index.html"] = comparison_page(columns, base_url)
    return files


def write_site(reports: Sequence[tuple[str, Mapping[str, Any]]], out: Path,
               base_url: str = "") -> list[Path]:
    """Write the site into ``out`` (made if need be), each file whole or not at all; the files
    written."""
    written = []
    for relative, text in site_files(reports, base_url).items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text(str(target), text)
        written.append(target)
    return written


# --- the comparison page ----------------------------------------------------------------------
def comparison_page(columns: Sequence[Entry], base_url: str = "") -> str:
    rulesets = sorted({r for e in columns for r in e.by_ruleset()})
    body = ["<h1>Nap programs compared</h1>",
            f'<p class="sub">{len(columns)} {"program" if len(columns) == 1 else "programs"} '
            "against napkit's conformance suite: each column is one program's JSON report "
            "(<code>napkit conform --json</code>), joined by <code>napkit report site</code>."
            "</p>",
            _programs(columns), _by_ruleset(columns, rulesets), _badges(columns, base_url),
            _by_rule(columns, rulesets)]
    return page("Nap programs compared", "".join(body), SITE_SCRIPT).replace(
        "</style>", SITE_STYLE + "</style>", 1)


def _head(columns: Sequence[Entry]) -> str:
    return "".join(f'<th class="program"><a href="programs/{e.slug}.html">{esc(e.short)}</a>'
                   + (f'<br><span class="note">{esc(e.version)}</span>' if e.version else "")
                   + "</th>" for e in columns)


def _programs(columns: Sequence[Entry]) -> str:
    rows: list[tuple[str, list[str]]] = [
        ("version", [esc(e.version or "") for e in columns]),
        ("command", [f"<code>{esc(_command(e))}</code>" for e in columns]),
        ("verdict", [_verdict(e) for e in columns]),
    ]
    for status, word in ((PASSED, "passed"), (FAILED, "failed"), (SKIPPED, "skipped"),
                         (XFAIL, "expected failures"), (XPASS, "unexpected passes")):
        counted = [totals(e.document).get(status, 0) for e in columns]
        if any(counted) or status in (PASSED, FAILED):
            rows.append((word, [f'<span data-count="{esc(e.slug)}-{status}">{n}</span>'
                                for e, n in zip(columns, counted, strict=True)]))
    rows.append(("seconds", [esc(e.document.get("elapsed", "")) for e in columns]))
    rows.append(("report", [esc(e.source) for e in columns]))
    body = "".join(f'<tr><td class="name">{esc(label)}</td>'
                   + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"
                   for label, cells in rows)
    return (f'<h2>The programs</h2><table class="compare"><thead><tr><th class="name"></th>'
            f"{_head(columns)}</tr></thead><tbody>{body}</tbody></table>")


def _command(entry: Entry) -> str:
    program = entry.document.get("program")
    command = program.get("command") if isinstance(program, dict) else None
    if isinstance(command, list) and command:
        return " ".join(map(str, command))
    return "in the harness's process" if isinstance(command, list) else ""


def _verdict(entry: Entry) -> str:
    document = entry.document
    if document.get("interrupted"):
        return '<span class="pill xfail">interrupted</span>'
    counted = totals(document)
    ok = document.get("ok", not (counted.get(FAILED) or counted.get(XPASS)))
    return ('<span class="pill passed">ok</span>' if ok
            else '<span class="pill failed">FAILED</span>')


def _by_ruleset(columns: Sequence[Entry], rulesets: list[str]) -> str:
    rows = []
    for ruleset in rulesets:
        cells = []
        for entry in columns:
            counts = entry.by_ruleset().get(ruleset)
            if not counts:
                cells.append('<td class="none">not run</td>')
                continue
            message, passed, ran = badge_text(counts, ruleset)
            bad = counts[FAILED] + counts[XPASS]
            words = f"{passed}/{ran}" if ran else "skipped"
            if bad:
                words += f" ({bad} failed)"
            fragment = f"?ruleset={quote(ruleset)}" + ("&outcome=failed" if bad else "")
            cells.append(f'<td class="{cell_class(counts)}" data-cell="{esc(entry.slug)}:'
                         f'{esc(ruleset)}"><a href="programs/{entry.slug}.html{esc(fragment)}" '
                         f'title="{esc(entry.name)}: {esc(message)}">{esc(words)}</a></td>')
        rows.append(f'<tr><td class="name">{esc(ruleset)}</td>{"".join(cells)}</tr>')
    return ('<h2>By ruleset</h2><p class="note">the cases each program passed of those it ran '
            "(skipped cases, outside what it declares, are not counted); a cell links to the "
            'program\'s report</p><table class="compare by-ruleset"><thead><tr>'
            f'<th class="name">ruleset</th>{_head(columns)}</tr></thead><tbody>'
            f"{''.join(rows)}</tbody></table>")


def _badges(columns: Sequence[Entry], base_url: str) -> str:
    base = base_url.rstrip("/") + "/" if base_url else ""
    items = []
    for entry in columns:
        for ruleset in sorted(entry.by_ruleset()):
            path = badge_name(entry, ruleset)
            markdown = (f"[![{entry.short} {ruleset}]({base}{path})]"
                        f"({base}programs/{entry.slug}.html)")
            items.append(f'<img src="{esc(path)}" alt="{esc(entry.short)} {esc(ruleset)}">'
                         f'<code class="markdown">{esc(markdown)}</code>')
    where = ("" if base else " (the addresses are relative to this page: give "
             "<code>--base-url</code> the address the site is published at for whole ones)")
    return (f"<h2>Badges</h2><p class=\"note\">Paste a line into a README to show a badge"
            f"{where}.</p><div class=\"badge-list\">{''.join(items)}</div>")


def _by_rule(columns: Sequence[Entry], rulesets: list[str]) -> str:
    cells = [rule_cells(e.document) for e in columns]
    titles = rule_titles()
    parts = ['<h2 id="by-rule">By rule</h2><div class="filters"><label>rule id '
             '<input id="c-rule" type="search" placeholder="NAP-8.1" size="12"></label>'
             '<label><input id="c-differ" type="checkbox"> only the rules where the programs '
             'differ</label></div><p class="note">for each ruleset and rule, the cases '
             "exercising the rule that each program passed; a failure counts against the rule "
             "it is put down to, where the report says (the others it touches read "
             '"failed elsewhere"); a cell links to the failures</p>']
    for n, ruleset in enumerate(rulesets):
        rules = sorted({r for c in cells for r, row in c.items() if ruleset in row},
                       key=rule_key)
        rows = []
        for rule in rules:
            tds, kinds = [], set()
            for entry, table in zip(columns, cells, strict=True):
                counts = table.get(rule, {}).get(ruleset)
                if not counts:
                    tds.append('<td class="none">-</td>')
                    kinds.add("none")
                    continue
                kind = cell_class(counts)
                kinds.add(kind)
                total = sum(counts.values())
                bad = counts[FAILED] + counts[XPASS]
                text = f"{bad} failed" if bad else (
                    f"{counts[PASSED]}/{total}" if kind != SKIPPED else "skipped")
                fragment = (f"?ruleset={quote(ruleset)}&rule={quote(rule)}"
                            + ("&outcome=failed" if bad else ""))
                title = f"{entry.name}, {rule} in {ruleset}"
                tds.append(f'<td class="{kind}"><a href="programs/{entry.slug}.html'
                           f'{esc(fragment)}" title="{esc(title)}">{esc(text)}</a></td>')
            same = "yes" if len(kinds) == 1 else "no"
            rows.append(f'<tr data-rule="{esc(rule)}" data-same="{same}"><td class="name">'
                        f'<span class="mono">{esc(rule)}</span> <span class="rule-title">'
                        f'{esc(titles.get(rule, ""))}</span></td>{"".join(tds)}</tr>')
        parts.append(f'<details class="ruleset"{" open" if n == 0 else ""}><summary>'
                     f'{esc(ruleset)} ({len(rules)} rules)</summary><table class="compare">'
                     f'<thead><tr><th class="name">rule</th>{_head(columns)}</tr></thead>'
                     f"<tbody>{''.join(rows)}</tbody></table></details>")
    return "".join(parts)


__all__ = ["Entry", "badge_name", "comparison_page", "entries", "short_name", "site_files",
           "slug", "write_site"]
