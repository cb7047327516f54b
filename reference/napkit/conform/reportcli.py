"""``napkit report merge REPORT... [-o FILE]``: the JSON reports of ``napkit conform --shard K/N``
joined into the report of the whole run (:func:`napkit.conform.shards.merge_reports`).
``napkit report``'s other actions (``site``, ``diff``, ``html``) are in
:mod:`napkit.conform.sitecli`.

Exit status: 0 when the merged run passed (as ``napkit conform`` would have exited), 1 when it
failed or the reports cannot be merged or read (one line, naming the file), 2 for a usage
error (among them an output onto one of the reports read), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any

from napkit.cli.files import OutputFile, refuse_clashes
from napkit.conform.fuzzjobs import FUZZ_REPORT, merge_fuzz_reports
from napkit.conform.report import HEADINGS, dump_report
from napkit.conform.reportfile import ReportFileError, read_json
from napkit.conform.runner import STATUSES
from napkit.conform.shards import MergeError, merge_reports
from napkit.conform.sitecli import add_actions as add_site_actions
from napkit.errors import UsageError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

EPILOG = """\
example:
  napkit report merge shard-1.json shard-2.json shard-3.json -o all.json

Each REPORT is the --json report of 'napkit conform --shard K/N' for one K, all of one N, of
one program, suite, filters and expected-failures file (or of 'napkit fuzz --shard K/N', all
of one program, seed and budget: their counts are summed and the lowest-numbered
disagreement kept). The merged report is the one an
unsharded run writes (the same cases in the same order, the same totals), but for its timings
(its elapsed time is the shards' sum). Reports of different runs, a shard given twice, cases in
two shards and missing shards are refused with a line naming the file.
"""


def add_command(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """Add ``report`` (and its ``merge``) to napkit's subcommands."""
    report = commands.add_parser(
        "report", help="work with the JSON reports of napkit conform (merge shards, compare "
                       "programs on a site, diff two runs, draw one as a page)",
        description="Work with the JSON reports of napkit conform.",
        epilog="examples:\n  napkit report merge shard-1.json shard-2.json -o all.json\n"
               "  napkit report site napkit.json my-nap.json -o site/\n"
               "  napkit report diff last-release.json this-commit.json\n"
               "  napkit report html all.json -o report.html",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    assert isinstance(report, parser_class)
    report.set_defaults(run=_no_subcommand, report_parser=report)
    which = report.add_subparsers(dest="report_command", metavar="COMMAND",
                                  parser_class=parser_class)
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
    add_site_actions(which, parser_class)  # napkit report site, diff and html


def _no_subcommand(args: argparse.Namespace) -> int:
    args.report_parser.print_help(sys.stderr)
    return EXIT_USAGE


def _say(message: str) -> None:
    print(f"napkit report merge: {message}", file=sys.stderr)


def run_merge(args: argparse.Namespace) -> int:
    """The command: read the reports, merge them, write the result. Ctrl-C is one line."""
    try:
        return _merge(args.reports, args.output, args.quiet)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130


def _merge(paths: list[str], output: str, quiet: bool) -> int:
    try:
        refuse_clashes([("-o", output)], [("the report", p) for p in paths])
    except UsageError as exc:
        _say(str(exc))
        return EXIT_USAGE
    with contextlib.ExitStack() as stack:
        try:
            out = stack.enter_context(OutputFile(output))
        except OSError as exc:
            _say(f"cannot write {output}: {exc.strerror or exc}")
            return EXIT_FAILED
        documents: list[tuple[str, object]] = []
        for path in paths:
            try:
                documents.append((path, read_json(path)))
            except ReportFileError as exc:
                _say(str(exc))
                return EXIT_FAILED
        fuzz = [isinstance(d, dict) and d.get("format") == FUZZ_REPORT for _, d in documents]
        try:
            merged = (merge_fuzz_reports(documents) if any(fuzz)
                      else merge_reports(documents))
        except MergeError as exc:
            _say(str(exc))
            return EXIT_FAILED
        if any(fuzz):
            try:
                out.commit(json.dumps(merged, indent=2, sort_keys=True) + "\n")
            except OSError as exc:
                _say(f"cannot write {output}: {exc.strerror or exc}")
                return EXIT_FAILED
            if not quiet:
                print(_fuzz_summary(merged, len(paths)),
                      file=sys.stderr if out.stdout else sys.stdout)
            return EXIT_FAILED if merged["disagreement"] else EXIT_OK
        try:
            out.commit(dump_report(merged))
        except OSError as exc:
            _say(f"cannot write {output}: {exc.strerror or exc}")
            return EXIT_FAILED
    if not quiet:
        human = sys.stderr if out.stdout else sys.stdout
        print(_summary(merged, len(paths)), file=human)
    return EXIT_OK if merged["ok"] else EXIT_FAILED




def _fuzz_summary(merged: dict[str, Any], shards: int) -> str:
    found = merged["disagreement"]
    words = (f"{merged['episodes']} episodes ({merged['hands']} hands) of {shards} shards "
             f"against {merged['program']}, seed {merged['seed']}")
    if found is None:
        return f"ok: no disagreement: {words}"
    return f"FAILED: episode {found['episode']}: {found['message']} ({words})"


def _summary(merged: dict[str, Any], shards: int) -> str:
    totals = merged["totals"]
    parts = [f"{totals[s]} {HEADINGS[s]}" for s in STATUSES
             if totals[s] or s in ("passed", "failed")]
    n = totals["cases"]
    not_run = totals["selected"] - n
    stopped = f" ({not_run} not run: a shard stopped early)" if not_run else ""
    verdict = "ok" if merged["ok"] else "FAILED"
    return (f"{verdict}: {n} {'case' if n == 1 else 'cases'} of {shards} shards against "
            f"{merged['program']['name']}: {', '.join(parts)}{stopped}")


__all__ = ["add_command", "run_merge"]
