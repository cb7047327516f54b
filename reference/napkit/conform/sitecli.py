"""``napkit report site RUN.json... -o DIR``, ``napkit report diff OLD.json NEW.json`` and
``napkit report html RUN.json -o FILE``: the JSON reports of ``napkit conform`` as a static site
comparing programs (:mod:`napkit.conform.reportsite`), two runs of one program compared
(:mod:`napkit.conform.rundiff`), and a saved run as the page ``napkit conform --html`` writes
(:mod:`napkit.conform.htmlreport`; the report of merged shards, say).

Exit status of ``site``: 0 when the site is written, 1 when a report cannot be read (one line,
naming the file and the JSON path) or the site cannot be written, 2 for a usage error. Of
``diff``: 0 when nothing newly fails, 1 when something does (a regression, for CI) or a
report cannot be read, 2 for a usage error. Of ``html``: 0 when the page is written, 1 when
the report cannot be read or the page written, 2 for a usage error. All: 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from napkit.cli.files import OutputFile, refuse_clashes
from napkit.conform.htmlreport import html_page
from napkit.conform.reportfile import ReportFileError, read_report
from napkit.conform.reportsite import write_site
from napkit.conform.rundiff import diff_lines, diff_runs
from napkit.errors import UsageError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

SITE_EPILOG = """\
example:
  napkit report site napkit.json my-nap.json -o site/

Each RUN is the --json report of one program's run (napkit conform --json RUN.json -- PROGRAM),
one column each, in the order given. The site is DIR/index.html (the comparison: per ruleset
and per rule, which programs pass, each failure linked to its program's page; the badges and
the Markdown to paste one into a README), DIR/programs/PROGRAM.html (a program's own report,
with its failures) and DIR/badges/PROGRAM-RULESET.svg (a badge: 'napkit | classic 328/328',
green when every case run passed, else coloured by the share passed). Every page holds its
style and script and loads nothing: the site opens from disk.
"""

DIFF_EPILOG = """\
example:
  napkit report diff last-release.json this-commit.json

OLD and NEW are the --json reports of two runs of one program. A case newly fails when it
fails (or passes unexpectedly) in NEW and did not in OLD, OLD having passed it, skipped it,
expected its failure or not run it; it newly passes when it failed in OLD and passes in NEW.
Exit status 1 when something newly fails, so that a CI job fails on a regression.
"""


def add_actions(which: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """Add ``site`` and ``diff`` to ``napkit report``'s actions."""
    site = which.add_parser(
        "site", help="a static site comparing several programs' JSON reports, with badges",
        usage="napkit report site RUN... -o DIR [--base-url URL]",
        description="Write a static site (self-contained HTML pages and SVG badges) comparing "
                    "the JSON reports of napkit conform of several programs, side by side.",
        epilog=SITE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    assert isinstance(site, parser_class)
    site.add_argument("runs", nargs="+", metavar="RUN",
                      help="a program's JSON report (napkit conform --json RUN.json)")
    site.add_argument("-o", "--output", required=True, metavar="DIR", type=Path,
                      help="the folder to write the site into (made if need be)")
    site.add_argument("--base-url", default="", metavar="URL",
                      help="the address the site is published at, for the badges' Markdown "
                           "(default: addresses relative to the comparison page)")
    site.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    site.set_defaults(run=run_site)
    diff = which.add_parser(
        "diff", help="compare two runs of one program: what newly fails, what newly passes",
        usage="napkit report diff OLD NEW",
        description="Compare two JSON reports of napkit conform of one program, case by case; "
                    "exit 1 when a case newly fails.",
        epilog=DIFF_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    diff.add_argument("old", metavar="OLD", help="the earlier run's JSON report")
    diff.add_argument("new", metavar="NEW", help="the later run's JSON report")
    diff.set_defaults(run=run_diff)
    page = which.add_parser(
        "html", help="draw a saved JSON report as the page napkit conform --html writes",
        usage="napkit report html RUN [-o FILE]",
        description="Draw a JSON report of napkit conform (a run's, or merged shards') as the "
                    "self-contained page napkit conform --html writes.",
        epilog="example:\n  napkit report html all.json -o report.html\n\nThe page is the same "
               "as napkit conform --html's for the run that wrote the report.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    page.add_argument("report", metavar="RUN", help="a JSON report (napkit conform --json)")
    page.add_argument("-o", "--output", default="-", metavar="FILE",
                      help="where to write the page (default '-': standard output)")
    page.set_defaults(run=run_html)


def _say(action: str, message: str) -> None:
    print(f"napkit report {action}: {message}", file=sys.stderr)


def run_site(args: argparse.Namespace) -> int:
    """The command: read every report, then write the site."""
    try:
        return _site(args.runs, args.output, args.base_url, args.quiet)
    except KeyboardInterrupt:
        _say("site", "interrupted")
        return 130


def _site(paths: list[str], out: Path, base_url: str, quiet: bool) -> int:
    if out.exists() and not out.is_dir():
        _say("site", f"-o {out} is a file, not a folder")
        return EXIT_USAGE
    resolved = {str(Path(p).resolve()) for p in paths}
    if str(out.resolve()) in resolved:
        _say("site", f"-o {out} is one of the reports read")
        return EXIT_USAGE
    reports = []
    for path in paths:
        try:
            reports.append((path, read_report(path)))
        except ReportFileError as exc:
            _say("site", str(exc))
            return EXIT_FAILED
    try:
        written = write_site(reports, out, base_url)
    except OSError as exc:
        _say("site", f"cannot write the site into {out}: {exc.strerror or exc}")
        return EXIT_FAILED
    if not quiet:
        badges = sum(p.suffix == ".svg" for p in written)
        print(f"napkit report site: {len(reports)} programs compared in {out / 'index.html'} "
              f"({len(written) - badges} pages, {badges} badges)")
    return EXIT_OK


def run_diff(args: argparse.Namespace) -> int:
    """The command: read both reports, print what changed; 1 when something newly fails."""
    try:
        documents = [read_report(path) for path in (args.old, args.new)]
    except ReportFileError as exc:
        _say("diff", str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt:
        _say("diff", "interrupted")
        return 130
    found = diff_runs(documents[0], documents[1])
    print("\n".join(diff_lines(found)))
    return EXIT_FAILED if found.regressed else EXIT_OK


def run_html(args: argparse.Namespace) -> int:
    """The command: read the report, write its page."""
    try:
        refuse_clashes([("-o", args.output)], [("the report", args.report)])
    except UsageError as exc:
        _say("html", str(exc))
        return EXIT_USAGE
    try:
        document = read_report(args.report)
        with OutputFile(args.output) as out:
            out.commit(html_page(document))
    except ReportFileError as exc:
        _say("html", str(exc))
        return EXIT_FAILED
    except OSError as exc:
        _say("html", f"cannot write {args.output}: {exc.strerror or exc}")
        return EXIT_FAILED
    except KeyboardInterrupt:
        _say("html", "interrupted")
        return 130
    return EXIT_OK


__all__ = ["add_actions", "run_diff", "run_html", "run_site"]
