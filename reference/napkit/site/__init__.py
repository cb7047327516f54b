"""napkit's rules site: a Sphinx extension that writes the site's pages from the spec.

``docs/conf.py`` loads it (``extensions = [..., "napkit.site"]``). The law book, the rulesets,
the comparison, the decisions register, the schemas, the conformance cases and the worked
hands are not kept as text anywhere: each build reads them through napkit's own loaders
(:mod:`napkit.site.data`) and lays them out (:mod:`napkit.site.pages`, with the small node
builders and links of :mod:`napkit.site.nodes`; the page of the sources' disagreements is
:mod:`napkit.site.disagreements`), so the site cannot say anything the spec, the engine and the
suite do not.

The extension lives in the napkit package, not in ``docs/_ext``, so that it is installed,
imported, type-checked and linted with the rest of napkit, and the tests can call it directly.
It needs the ``docs`` extra (Sphinx, MyST, furo); nothing else in napkit imports it.

Each ruleset's printable rules sheet (:mod:`napkit.handbook.sheet`) is written into the built site
as ``sheets/RULESET.html`` when the build ends, and linked from the ruleset's page; so is the
example of ``napkit report site`` (:mod:`napkit.site.reportexample`), as ``report-example/``;
and every hand the site shows as a hand viewer's page (:mod:`napkit.site.viewers`), as
``hands/NAME.html``.

Pages that need a file of their own (one per ruleset, one per ruleset's cases) are written as
small stubs under ``docs/rulesets/`` and ``docs/cases/`` when the build starts (those folders
are not kept in git), each holding the directive that fills it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from napkit.handbook.sheet import sheet_html
from napkit.site import nodes, pages
from napkit.site.data import SiteData
from napkit.site.disagreements import DisagreementsDirective
from napkit.site.reportexample import write_report_example
from napkit.site.viewers import PENDING, PlaythroughsDirective, write_viewers

__all__ = ["setup"]

GENERATED = ("rulesets", "cases")
logger = logging.getLogger(__name__)


def _write(path: Path, content: str) -> None:
    """Write a stub only if it changed, so that an unchanged page is not read again."""
    if path.exists() and path.read_text(encoding="utf-8") == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(content, encoding="utf-8")
    temporary.replace(path)


def stubs(site: SiteData) -> dict[str, str]:
    """Every generated page: its path under the source folder, and its text."""
    spec = site.spec
    found: dict[str, str] = {}
    listed = "\n".join(spec.rulesets)
    found["rulesets/index.md"] = (
        "# The rulesets\n\n"
        "One ruleset for each system a source describes; a ruleset never takes a rule from "
        "another source. The [comparison](../comparison.md) sets them side by side.\n\n"
        f"```{{napkit-rulesets}}\n```\n\n"
        "## The sources\n\n"
        "The documents the rules come from, by the names the site and napkit's commands "
        "give them; a citation's lines (`L17`) count from 1 in the file named here.\n\n"
        f"```{{napkit-sources}}\n```\n\n```{{toctree}}\n:hidden:\n\n{listed}\n```\n")
    for rid, ruleset in spec.rulesets.items():
        found[f"rulesets/{rid}.md"] = (f"# {rid}: {ruleset.title}\n\n"
                                       f"```{{napkit-ruleset}} {rid}\n```\n")
    with_cases = [rid for rid in spec.rulesets if site.cases.by_ruleset.get(rid)]
    toctree = ("\n\n```{toctree}\n:hidden:\n\n" + "\n".join(with_cases) + "\n```"
               if with_cases else "")
    found["cases/index.md"] = (
        "# The conformance cases\n\n"
        "The suite under `conformance/cases/` (its format: [the conformance suite]"
        "(../conformance.md)), counted by ruleset and kind; each ruleset's page lists its "
        "cases, the `illegal` ones grouped by the rule whose refusal they expect.\n\n"
        f"```{{napkit-cases-index}}\n```{toctree}\n")
    for rid in with_cases:
        found[f"cases/{rid}.md"] = (f"# Conformance cases: {rid}\n\n"
                                    f"```{{napkit-cases}} {rid}\n```\n")
    return found


def write_stubs(app: Sphinx) -> None:
    """Event ``builder-inited``: write the generated pages' stubs, remove stale ones."""
    srcdir = Path(app.srcdir)
    wanted = stubs(pages.current())
    for relative, content in wanted.items():
        _write(srcdir / relative, content)
    for folder in GENERATED:
        for path in (srcdir / folder).glob("*.md"):
            if f"{folder}/{path.name}" not in wanted:
                path.unlink()


def outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
             removed: set[str]) -> list[str]:
    """Event ``env-get-outdated``: the generated pages are read again at every build, since
    what they show comes from files Sphinx does not watch (the spec, the suite, the engine)."""
    again = []
    for docname in env.found_docs:
        path = Path(env.doc2path(docname))
        try:
            if "{napkit-" in path.read_text(encoding="utf-8"):
                again.append(docname)
        except OSError:
            continue
    return again


def copy_cases(app: Sphinx, exception: Exception | None) -> None:
    """Event ``build-finished``: copy the suite's case files into the site, where the case
    pages link to them (``cases/RULESET/KIND/NAME.json``)."""
    if exception is not None or app.builder.format != "html":
        return
    site = pages.current()
    for case in site.cases.cases:
        target = Path(app.outdir) / pages.case_file(case)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(case.path, target)


def write_sheets(app: Sphinx, exception: Exception | None) -> None:
    """Event ``build-finished``: each built-in ruleset's one-page rules sheet
    (:func:`napkit.handbook.sheet.sheet_html`), its ids linked to the law book and the register
    one folder up."""
    if exception is not None or app.builder.format != "html":
        return
    spec = pages.current().spec
    for rid, ruleset in spec.rulesets.items():
        target = Path(app.outdir) / pages.sheet_file(rid)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(sheet_html(spec, ruleset, site="../"), encoding="utf-8")


def start(app: Sphinx) -> None:
    """Event ``builder-inited``: no failure yet; write the generated pages' stubs."""
    pages.FAILURES.clear()
    PENDING.clear()  # every page showing a hand is read again, and notes it again
    write_stubs(app)


def finish(app: Sphinx, exception: Exception | None) -> None:
    """Event ``build-finished``: a wrong example fails the build, whatever its flags; else the
    case files are copied into the site."""
    if pages.FAILURES:
        logger.error("napkit: %d wrong example(s) on the site: the build has failed",
                     len(pages.FAILURES))
        app.statuscode = 1
        return
    copy_cases(app, exception)
    write_sheets(app, exception)
    if exception is None and app.builder.format == "html":
        write_viewers(app, pages.current().spec)
    if exception is None and app.builder.format == "html":  # docs/report-example.md links it
        try:
            write_report_example(Path(app.outdir))
        except (RuntimeError, OSError, ValueError) as exc:
            logger.warning("napkit: the example of napkit report site: %s", exc)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("napkit-lawbook", pages.LawBookDirective)
    app.add_directive("napkit-ruleset", pages.RulesetDirective)
    app.add_directive("napkit-rulesets", pages.RulesetsDirective)
    app.add_directive("napkit-sources", pages.SourcesDirective)
    app.add_directive("napkit-comparison", pages.ComparisonDirective)
    app.add_directive("napkit-decisions", pages.DecisionsDirective)
    app.add_directive("napkit-schemas", pages.SchemasDirective)
    app.add_directive("napkit-cases", pages.CasesDirective)
    app.add_directive("napkit-cases-index", pages.CasesIndexDirective)
    app.add_directive("napkit-hand", pages.HandDirective)
    app.add_directive("napkit-disagreements", DisagreementsDirective)
    app.add_directive("napkit-playthroughs", PlaythroughsDirective)
    app.add_role("rule", pages.rule_role)
    app.add_role("decision", pages.rule_role)
    app.connect("builder-inited", start)
    app.connect("env-get-outdated", outdated)
    app.connect("doctree-resolved", nodes.resolve_links)
    app.connect("build-finished", finish)
    # Not parallel: the failures of the reading are counted in this process (FAILURES).
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
