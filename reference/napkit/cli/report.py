"""``napkit report``: the JSON reports of ``napkit conform`` (and ``napkit fuzz``), worked on.

- ``napkit report merge REPORT... [-o FILE]``: the reports of ``--shard K/N`` joined into the
  report of the whole run (:func:`napkit.conform.run.shards.merge_reports`);
- ``napkit report site RUN.json... -o DIR``: several programs' reports as a static site
  comparing them (:mod:`napkit.conform.report.site`);
- ``napkit report diff OLD.json NEW.json``: two runs of one program compared
  (:mod:`napkit.conform.report.diff`);
- ``napkit report html RUN.json -o FILE``: a saved run as the page ``napkit conform --html``
  writes (:mod:`napkit.conform.report.html`; the report of merged shards, say).

Exit status of ``merge``: 0 when the merged run passed (as ``napkit conform`` would have
exited), 1 when it failed (or the merged report cannot be written), 2 when the reports cannot
be read or merged (one line, naming the file; nothing written), so that 1 always means a
failed run.
Of ``site``: 0 when the site is written, 1 when a report cannot be read (one line, naming the
file and the JSON path) or the site cannot be written. Of ``diff``: 0 when nothing newly
fails, 1 when something does (a regression, for CI) or a report cannot be read. Of ``html``:
0 when the page is written, 1 when the report cannot be read or the page written. All: 2 for a
usage error (among them an output onto one of the reports read), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from napkit.cli.common import Commands, Parser
from napkit.errors import UsageError

# The reports' readers and writers are imported by the actions that use them: building the
# parsers (napkit --help) must not load them (tests/test_startup_imports.py).

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

EPILOG = """\
example:
  napkit report merge shard-1.json shard-2.json shard-3.json -o all.json

Each REPORT is the --json report of 'napkit conform --shard K/N' for one K, all of one N, of
one program, suite, filters and expected-failures file (or of 'napkit fuzz --shard K/N', all
of one program, seed and budget: their counts are summed and the lowest-numbered
disagreement kept). The merged report is the one an
unsharded run writes (the same cases in the same order, the same totals), but for its timings
(its elapsed time is the shards' sum). Reports of different runs (other versions of the suite,
the law book, napkit or the program among them), reports whose counts are not their cases', a
shard given twice, cases in two shards and missing shards are refused with a line naming the
file, exit status 2, nothing written.
"""


def register(commands: Commands) -> None:
    """``napkit report`` and its actions: ``merge``, ``site``, ``diff``, ``html``."""
    report = commands.add_parser(
        "report", help="work with the JSON reports of napkit conform (merge shards, compare "
                       "programs on a site, diff two runs, draw one as a page)",
        description="Work with the JSON reports of napkit conform.",
        epilog="examples:\n  napkit report merge shard-1.json shard-2.json -o all.json\n"
               "  napkit report site napkit.json my-nap.json -o site/\n"
               "  napkit report diff last-release.json this-commit.json\n"
               "  napkit report html all.json -o report.html",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    report.set_defaults(run=_no_subcommand, report_parser=report)
    which = report.add_subparsers(dest="report_command", metavar="COMMAND",
                                  parser_class=Parser)
    merge = which.add_parser(
        "merge", help="join the JSON reports of napkit conform --shard K/N into the whole run's",
        usage="napkit report merge REPORT... [-o FILE]",
        description="Join the JSON reports of the N shards of a napkit conform run (--shard "
                    "K/N, K from 1 to N) into the report of the whole run.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    merge.add_argument("reports", nargs="+", metavar="REPORT",
                       help="a shard's JSON report (napkit conform --shard K/N --json FILE)")
    merge.add_argument("-o", "--output", default="-", metavar="FILE",
                       help="where to write the merged report (default '-': standard output)")
    merge.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    merge.set_defaults(run=run_merge)
    _add_site_actions(which)  # napkit report site, diff and html


def _no_subcommand(args: argparse.Namespace) -> int:
    args.report_parser.print_help(sys.stderr)
    return EXIT_USAGE


def _say(action: str, message: str) -> None:
    from napkit.output.tables import printable

    # printable: a message may quote a report, text from outside.
    print(printable(f"napkit report {action}: {message}"), file=sys.stderr)


def run_merge(args: argparse.Namespace) -> int:
    """The command: read the reports, merge them, write the result. Ctrl-C is one line."""
    try:
        return _merge(args.reports, args.output, args.quiet)
    except KeyboardInterrupt:
        _say("merge", "interrupted")
        return 130


def _merge(paths: list[str], output: str, quiet: bool) -> int:
    from napkit.conform.fuzz.report import FUZZ_REPORT, merge_fuzz_reports
    from napkit.conform.report.saved import ReportFileError, read_json
    from napkit.conform.report.text import dump_report
    from napkit.conform.run.shards import MergeError, merge_reports
    from napkit.output.files import OutputFile, refuse_clashes

    try:
        refuse_clashes([("-o", output)], [("the report", p) for p in paths])
    except UsageError as exc:
        _say("merge", str(exc))
        return EXIT_USAGE
    with contextlib.ExitStack() as stack:
        try:
            out = stack.enter_context(OutputFile(output))
        except OSError as exc:
            _say("merge", f"cannot write {output}: {exc.strerror or exc}")
            return EXIT_FAILED
        documents: list[tuple[str, object]] = []
        for path in paths:
            try:
                documents.append((path, read_json(path)))
            except ReportFileError as exc:
                _say("merge", str(exc))
                return EXIT_USAGE
        fuzz = [isinstance(d, dict) and d.get("format") == FUZZ_REPORT for _, d in documents]
        try:
            merged = (merge_fuzz_reports(documents) if any(fuzz)
                      else merge_reports(documents))
        except MergeError as exc:  # not the shards of one run: the files given are at fault
            _say("merge", str(exc))
            return EXIT_USAGE
        if any(fuzz):
            try:
                out.commit(json.dumps(merged, indent=2, sort_keys=True) + "\n")
            except OSError as exc:
                _say("merge", f"cannot write {output}: {exc.strerror or exc}")
                return EXIT_FAILED
            if not quiet:
                print(_fuzz_summary(merged, len(paths)),
                      file=sys.stderr if out.stdout else sys.stdout)
            return EXIT_FAILED if merged["disagreement"] else EXIT_OK
        try:
            out.commit(dump_report(merged))
        except OSError as exc:
            _say("merge", f"cannot write {output}: {exc.strerror or exc}")
            return EXIT_FAILED
    if not quiet:
        human = sys.stderr if out.stdout else sys.stdout
        print(_summary(merged, len(paths)), file=human)
    return EXIT_OK if merged["ok"] else EXIT_FAILED




def _fuzz_summary(merged: dict[str, Any], shards: int) -> str:
    from napkit.output.tables import counted

    found = merged["disagreement"]
    words = (f"{merged['episodes']} episodes ({merged['hands']} hands) of {shards} shards "
             f"against {merged['program']}, seed {merged['seed']}")
    if found is None:
        return f"ok: no disagreement: {words}"
    new = [d for d in merged.get("disagreements") or [] if d.get("known") is None]
    if len(new) <= 1:
        return f"FAILED: episode {found['episode']}: {found['message']} ({words})"
    names = "; ".join(f"{d['signature']} ({d['count']}x, from episode {d['episode']})"
                      for d in new)
    return f"FAILED: {counted(len(new), 'distinct disagreement')}: {names} ({words})"


def _summary(merged: dict[str, Any], shards: int) -> str:
    from napkit.conform.report.text import HEADINGS
    from napkit.conform.run.runner import STATUSES

    totals = merged["totals"]
    parts = [f"{totals[s]} {HEADINGS[s]}" for s in STATUSES
             if totals[s] or s in ("passed", "failed")]
    n = totals["cases"]
    not_run = totals["selected"] - n
    stopped = f" ({not_run} not run: a shard stopped early)" if not_run else ""
    verdict = "ok" if merged["ok"] else "FAILED"
    return (f"{verdict}: {n} {'case' if n == 1 else 'cases'} of {shards} shards against "
            f"{merged['program']['name']}: {', '.join(parts)}{stopped}")




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


def _add_site_actions(which: Any) -> None:
    """Add ``site``, ``diff`` and ``html`` to ``napkit report``'s actions."""
    site = which.add_parser(
        "site", help="a static site comparing several programs' JSON reports, with badges",
        usage="napkit report site RUN... -o DIR [--base-url URL]",
        description="Write a static site (self-contained HTML pages and SVG badges) comparing "
                    "the JSON reports of napkit conform of several programs, side by side.",
        epilog=SITE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
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


def run_site(args: argparse.Namespace) -> int:
    """The command: read every report, then write the site."""
    try:
        return _site(args.runs, args.output, args.base_url, args.quiet)
    except KeyboardInterrupt:
        _say("site", "interrupted")
        return 130


def _site(paths: list[str], out: Path, base_url: str, quiet: bool) -> int:
    from napkit.conform.report.saved import ReportFileError, read_report
    from napkit.conform.report.site import write_site

    if out.exists() and not out.is_dir():
        _say("site", f"-o {out} is a file, not a folder")
        return EXIT_USAGE
    # The site's pages (index.html, programs/, badges/) are written into the folder: a report
    # kept inside it (or the folder named as a report) could be one of them, replaced before
    # it was read.
    inside = [p for p in paths if Path(p).resolve().is_relative_to(out.resolve())]
    if inside:
        _say("site", f"the report {inside[0]} is inside the output folder {out}, where the "
                        "site's pages are written: write the site to another folder")
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
    from napkit.conform.report.diff import diff_lines, diff_runs
    from napkit.conform.report.saved import ReportFileError, read_report

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
    from napkit.conform.report.html import html_page
    from napkit.conform.report.saved import ReportFileError, read_report
    from napkit.output.files import OutputFile, refuse_clashes

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





__all__ = ["register", "run_diff", "run_html", "run_merge", "run_site"]
