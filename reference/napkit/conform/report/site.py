"""``napkit report site RUN.json... -o DIR``: several programs' conformance results side by
side, as a static site of self-contained pages (no network; it opens from disk).

From the JSON reports of ``napkit conform`` (one a program, in the order given, which is the
order of the columns) it writes:

* ``DIR/index.html``, the comparison: each program (its name, version, command, totals);
  per ruleset, how many cases each passed, coloured, with its badge; per ruleset and rule,
  which programs pass, each failing cell linked to the failures behind it; and the Markdown
  that puts each badge in a README;
* ``DIR/programs/PROGRAM.html``, a program's own report (:func:`napkit.conform.report.html.
  html_page`), listing its failures; the comparison links into it with its filters set
  (``?ruleset=classic&outcome=failed&rule=NAP-8.1.1``);
* ``DIR/badges/PROGRAM-RULESET.svg``, a badge for each program and ruleset
  (:mod:`napkit.conform.report.badge`): ``napkit | classic 328/328``.

``PROGRAM`` is the program's name without its version, in lower case with dashes
(``js-classic``), so that a badge's address stays the same from one release to the next.

The comparison is the template ``site_index.html`` of :mod:`napkit.output.pages`
(autoescaped), its style ``report.css`` and ``site.css`` and its script ``site.js``; this
module shapes the reports into what it lays out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from napkit.conform.report.badge import badge_colour, badge_svg
from napkit.conform.report.html import (
    cases,
    cell_class,
    html_page,
    program_name,
    program_version,
    rule_cells,
    rule_key,
    rule_titles,
    totals,
)
from napkit.conform.run.runner import (
    FAILED,
    PASSED,
    SKIPPED,
    XFAIL,
    XPASS,
    nothing_checked,
    run_ok,
)
from napkit.output.files import write_text
from napkit.output.pages import render


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
    """The comparison of the programs' runs (the template ``site_index.html``): a column a
    program."""
    rulesets = sorted({r for e in columns for r in e.by_ruleset()})
    counted = [(status, word) for status, word in (
        (PASSED, "passed"), (FAILED, "failed"), (SKIPPED, "skipped"),
        (XFAIL, "expected failures"), (XPASS, "unexpected passes"))
        if status in (PASSED, FAILED) or any(totals(e.document).get(status, 0) for e in columns)]
    return render("site_index.html", title="Nap programs compared",
                  columns=[_column(e) for e in columns], counted=counted,
                  by_ruleset=_by_ruleset(columns, rulesets), base_url=base_url,
                  badges=_badges(columns, base_url), by_rule=_by_rule(columns, rulesets))


def _column(entry: Entry) -> dict[str, Any]:
    """What the comparison says of one program in its column."""
    document = entry.document
    return {"slug": entry.slug, "short": entry.short, "version": entry.version,
            "command": _command(entry), "verdict": _verdict(entry),
            "totals": totals(document), "elapsed": str(document.get("elapsed", "")),
            "source": entry.source}


def _command(entry: Entry) -> str:
    program = entry.document.get("program")
    command = program.get("command") if isinstance(program, dict) else None
    if isinstance(command, list) and command:
        return " ".join(map(str, command))
    return "in the harness's process" if isinstance(command, list) else ""


def _verdict(entry: Entry) -> tuple[str, str]:
    """The run's verdict as a pill: its class and its word."""
    document = entry.document
    if document.get("interrupted"):
        return XFAIL, "interrupted"
    counted = totals(document)  # the cases' verdict: a report's "ok" that differs is refused
    if run_ok(counted, False):
        return PASSED, "ok"
    return FAILED, "nothing checked" if nothing_checked(counted) else "FAILED"


def _by_ruleset(columns: Sequence[Entry], rulesets: list[str]
                ) -> list[tuple[str, list[dict[str, str] | None]]]:
    """For each ruleset, each program's cases passed of those it ran, linked to its report."""
    rows: list[tuple[str, list[dict[str, str] | None]]] = []
    for ruleset in rulesets:
        cells: list[dict[str, str] | None] = []
        for entry in columns:
            counts = entry.by_ruleset().get(ruleset)
            if not counts:
                cells.append(None)
                continue
            message, passed, ran = badge_text(counts, ruleset)
            bad = counts[FAILED] + counts[XPASS]
            words = f"{passed}/{ran}" if ran else "skipped"
            if bad:
                words += f" ({bad} failed)"
            cells.append({"cls": cell_class(counts), "slug": entry.slug, "text": words,
                          "query": f"?ruleset={quote(ruleset)}"
                                   + ("&outcome=failed" if bad else ""),
                          "title": f"{entry.name}: {message}"})
        rows.append((ruleset, cells))
    return rows


def _badges(columns: Sequence[Entry], base_url: str) -> list[dict[str, str]]:
    """Each badge, with the Markdown that shows it in a README."""
    base = base_url.rstrip("/") + "/" if base_url else ""
    found = []
    for entry in columns:
        for ruleset in sorted(entry.by_ruleset()):
            path = badge_name(entry, ruleset)
            found.append({"path": path, "alt": f"{entry.short} {ruleset}",
                          "markdown": f"[![{entry.short} {ruleset}]({base}{path})]"
                                      f"({base}programs/{entry.slug}.html)"})
    return found


def _by_rule(columns: Sequence[Entry], rulesets: list[str]) -> list[dict[str, Any]]:
    """For each ruleset and rule, the cases exercising the rule that each program passed."""
    cells = [rule_cells(e.document) for e in columns]
    titles = rule_titles()
    tables = []
    for ruleset in rulesets:
        rules = sorted({r for c in cells for r, row in c.items() if ruleset in row},
                       key=rule_key)
        rows = []
        for rule in rules:
            tds: list[dict[str, str] | None] = []
            kinds = set()
            for entry, table in zip(columns, cells, strict=True):
                counts = table.get(rule, {}).get(ruleset)
                if not counts:
                    tds.append(None)
                    kinds.add("none")
                    continue
                kind = cell_class(counts)
                kinds.add(kind)
                total = sum(counts.values())
                bad = counts[FAILED] + counts[XPASS]
                text = f"{bad} failed" if bad else (
                    f"{counts[PASSED]}/{total}" if kind != SKIPPED else "skipped")
                query = (f"?ruleset={quote(ruleset)}&rule={quote(rule)}"
                         + ("&outcome=failed" if bad else ""))
                tds.append({"cls": kind, "slug": entry.slug, "query": query, "text": text,
                            "title": f"{entry.name}, {rule} in {ruleset}"})
            rows.append({"rule": rule, "title": titles.get(rule, ""), "cells": tds,
                         "same": "yes" if len(kinds) == 1 else "no"})
        tables.append({"ruleset": ruleset, "rows": rows})
    return tables


__all__ = ["Entry", "badge_name", "comparison_page", "entries", "short_name", "site_files",
           "slug", "write_site"]
