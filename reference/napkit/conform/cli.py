"""``napkit conform [OPTIONS] [-- COMMAND...]``: run the conformance suite against a program.

Without a command (or with ``--reference``), the program is napkit's own reference adapter,
``python -m napkit.adapter``; ``--in-process`` runs the reference in this process instead,
without the protocol's process and pipes. Exit status: 0 when every case that ran passed (or
failed as the expected-failures file says), 1 otherwise (a failure, an unexpected pass, a bad
case file, an empty suite or selection, a program that cannot be started or that timed out on
--max-timeouts cases in a row, a report that cannot be written), 2 for a usage error (among them
a report onto an input or onto another report), 130 when interrupted.

The reports are written by napkit's one policy for outputs (napkit.cli.files), each made
before the run so that a place that cannot be written is refused before any case runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from napkit.cli.common import seconds_value
from napkit.cli.files import OutputFile, refuse_clashes
from napkit.conform.parallel import Pool, can_fork, parse_jobs, parse_shard, shard
from napkit.conform.process import (
    Channel,
    ProtocolError,
    Session,
    in_process_opener,
    process_opener,
)
from napkit.conform.report import Progress, Run, Selection, summary_lines, write_reports
from napkit.conform.runner import run_suite, run_suite_in_processes, timeouts_in_a_row
from napkit.conform.suite import (
    KINDS,
    Case,
    Filters,
    add_rulesets,
    case_files,
    default_suite_dir,
    load_case,
    load_suite,
    select,
)
from napkit.conform.xfail import Expected, XfailError, load_xfail
from napkit.errors import UsageError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

EPILOG = """\
examples:
  napkit conform                                  the whole suite against the reference
  napkit conform --ruleset pagat --kind illegal -- node my-nap.js
  napkit conform --rule NAP-8 --junit report.xml -- ./my-nap --adapter
  napkit conform --xfail known.json -- python my_nap.py
  napkit conform --in-process --case 'pagat/legal/*' -q --json - | python3 -m json.tool
  napkit conform -j 2 --ruleset classic -- node my-nap.js
  napkit conform -j auto --shard 2/4 --json shard-2.json -- ./my-nap
  napkit report merge shard-1.json shard-2.json shard-3.json shard-4.json -o all.json

The program speaks napkit-adapter/1 (spec/conformance.md) on its standard input and output.

-j N runs N processes of the program at once (0 or 'auto': one per core), the cases shared
among them; the report is the one -j 1 writes, in the same order (only timings differ): the
results are taken in the cases' order, so -x stops at the same first failure and
--max-timeouts counts the same cases in a row (cases already under way past that point are
dropped). A program that breaks the protocol is restarted in its own worker only.
--shard K/N runs every N-th selected case from the K-th (a CI matrix of N machines runs each
case once); 'napkit report merge' joins the N JSON reports into the whole run's.
An expected-failures file is {"format": "napkit-xfail/1", "cases": {ID: REASON},
"rules": {RULE: REASON}}.

A report FILE is replaced whole once the run is over (a temporary file beside it, renamed
over it; a symbolic link's file is replaced and the link kept); '-' is standard output (the
summary then goes to standard error), and a FIFO or a device is written to directly. A report
onto the --xfail file, into the suite folder or onto another report is refused, and so is a
place that cannot be written, before any case runs.
"""


def add_commands(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """Add ``conform`` and ``adapter`` to napkit's subcommands."""
    adapter = commands.add_parser(
        "adapter", help="serve the reference engine over the adapter protocol (stdin/stdout)",
        description="napkit's engine behind napkit-adapter/1: one JSON request a line on "
                    "standard input, one JSON response a line on standard output "
                    "(spec/conformance.md). The same as python -m napkit.adapter.",
        epilog="example:\n  printf '%s\\n' '{\"id\": 0, \"type\": \"hello\", "
               "\"protocol\": \"napkit-adapter/1\"}' | napkit adapter",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    adapter.set_defaults(run=_adapter)
    conform = commands.add_parser(
        "conform", help="run the conformance suite against a program (the reference by default)",
        usage="napkit conform [OPTIONS] [-- COMMAND [ARG...]]",
        description="Run the conformance suite against a Nap program that speaks the adapter "
                    "protocol, or against napkit's reference engine.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    assert isinstance(conform, parser_class)
    conform.add_argument("command", nargs="*", metavar="COMMAND",
                         help="the program to check and its arguments, after --")
    which = conform.add_mutually_exclusive_group()
    which.add_argument("--reference", action="store_true",
                       help="check napkit's reference adapter (the default without COMMAND)")
    which.add_argument("--in-process", action="store_true",
                       help="check the reference engine in this process, without the protocol")
    conform.add_argument("--suite", metavar="DIR", type=Path,
                         help="the folder of cases (default: conformance/cases)")
    for flag, dest, meta, text in [
            ("--ruleset", "rulesets", "ID", "only cases of this ruleset"),
            ("--rule", "rules", "RULE", "only cases exercising this rule (NAP-8.1.1) or a "
                                        "chapter or section of them (NAP-8, NAP-8.1)"),
            ("--tag", "tags", "TAG", "only cases with this tag"),
            ("--kind", "kinds", "KIND", f"only cases of this kind ({', '.join(KINDS)})"),
            ("--case", "cases", "GLOB|FILE", "only cases whose id matches (pagat/legal/*); "
                                             "or a case file to run on its own (a reproducer "
                                             "of napkit fuzz)")]:
        conform.add_argument(flag, dest=dest, action="append", default=[], metavar=meta,
                             help=text + "; repeatable")
    conform.add_argument("--ruleset-file", dest="ruleset_files", action="append", default=[],
                         type=Path, metavar="FILE",
                         help="a house ruleset (spec/README.md) whose cases may be run: a "
                              "reproducer napkit fuzz wrote for a house game; repeatable")
    conform.add_argument("--timeout", type=seconds_value, default=10.0, metavar="SECONDS",
                         help="time limit for each answer (default 10)")
    conform.add_argument("--start-timeout", type=seconds_value, default=30.0, metavar="SECONDS",
                         help="time limit for the program to start and answer hello "
                              "(default 30, or --timeout if longer)")
    conform.add_argument("-j", "--jobs", type=parse_jobs, default=1, metavar="N",
                         help="run N processes of the program at once, the cases shared "
                              "among them (0 or 'auto': one per core; default 1); the report "
                              "is the same as with 1")
    conform.add_argument("--shard", type=parse_shard, metavar="K/N",
                         help="run only the K-th of N slices of the selected cases (every "
                              "N-th from the K-th), for a CI matrix; 'napkit report merge' "
                              "joins the slices' JSON reports")
    conform.add_argument("-x", "--exitfirst", action="store_true",
                         help="stop at the first failure")
    conform.add_argument("--max-timeouts", type=_count, default=3, metavar="N",
                         help="stop after N cases in a row that the program timed out on "
                              "(default 3; 0: never stop)")
    conform.add_argument("--xfail", metavar="FILE", type=Path,
                         help="the expected-failures file (napkit-xfail/1)")
    conform.add_argument("--json", metavar="FILE", help="write a JSON report ('-': stdout)")
    conform.add_argument("--junit", metavar="FILE",
                         help="write a JUnit XML report ('-': stdout)")
    conform.add_argument("--tap", metavar="FILE", help="write a TAP report ('-': stdout)")
    conform.add_argument("-q", "--quiet", action="store_true",
                         help="no progress and no tables: the failures and the totals only")
    conform.add_argument("-v", "--verbose", action="store_true",
                         help="draw every failure in full (the deal, the steps, expected and "
                              "answered, the rule); by default the first 3")
    conform.add_argument("--matrix", action="store_true",
                         help="print the rule-by-ruleset and refusal-by-ruleset matrices of "
                              "case counts instead of "
                              "running (exit 1 if a cell is empty)")
    conform.set_defaults(run=run_conform)
    from napkit.conform.fuzzcli import add_command as add_fuzz  # napkit fuzz

    add_fuzz(commands, parser_class)
    from napkit.conform.reportcli import add_command as add_report  # napkit report merge

    add_report(commands, parser_class)


def _adapter(_args: argparse.Namespace) -> int:
    from napkit.adapter import main

    return main([])


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _say(message: str) -> None:
    print(f"napkit conform: {message}", file=sys.stderr)


REPORT_FLAGS = (("json", "--json"), ("junit", "--junit"), ("tap", "--tap"))


def run_conform(args: argparse.Namespace) -> int:
    """The command: check the outputs, load, choose, run, report. Ctrl-C at any moment is one
    line, and leaves every report file as it was."""
    try:
        with contextlib.ExitStack() as outputs:  # abandoned, unless committed, on the way out
            return _conform(args, outputs)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130


def _conform(args: argparse.Namespace, outputs: contextlib.ExitStack) -> int:
    if args.kinds and (bad := sorted(set(args.kinds) - set(KINDS))):
        _say(f"no kind {bad[0]!r} (one of {', '.join(KINDS)})")
        return EXIT_USAGE
    if args.command and (args.reference or args.in_process):
        _say("give a COMMAND or --reference/--in-process, not both")
        return EXIT_USAGE
    root: Path = args.suite or default_suite_dir()
    reports = [(kind, flag, path) for kind, flag in REPORT_FLAGS
               if (path := getattr(args, kind)) is not None]
    try:  # before anything is read: a report would replace what the run reads
        _refuse_clashes(reports, args.xfail, root, args.command)
    except UsageError as exc:
        _say(str(exc))
        return EXIT_USAGE
    opened = [] if args.matrix else _open_reports(reports, outputs)
    if opened is None:
        return EXIT_FAILED
    if not root.is_dir():
        _say(f"the suite is empty: there is no folder {root}")
        return EXIT_FAILED
    if args.ruleset_files:
        from napkit.spec.house import load_ruleset_path

        add_rulesets(load_ruleset_path(path) for path in args.ruleset_files)  # SpecError: said
    # A --case that names a case file (a reproducer napkit fuzz wrote) runs that file; the
    # others are globs on the ids of the suite's cases.
    files = [Path(c) for c in args.cases if c.endswith(".json") and Path(c).is_file()]
    globs = tuple(c for c in args.cases if not (c.endswith(".json") and Path(c).is_file()))
    if files and not globs:
        return _conform_files(args, files, opened, root)
    filters = Filters(tuple(args.rulesets), tuple(args.rules), tuple(args.tags),
                      tuple(args.kinds), globs)
    ids = set(case_files(root))
    # Only the files the filters may choose are read and checked (the whole suite for the
    # matrix): rerunning one case starts at once.
    cases, problems = load_suite(root, None if args.matrix else filters)
    for problem in problems:
        _say(f"bad case file: {problem}")
    if not ids:
        _say(f"the suite is empty: no case under {root}")
        return EXIT_FAILED
    if args.matrix:
        return _matrix(cases) if cases else EXIT_FAILED
    chosen = select(cases, filters)
    if not chosen:
        if not problems:
            _say(f"no case matches the filters ({len(ids)} cases in the suite)")
        return EXIT_FAILED
    expected = Expected()
    if args.xfail is not None:
        try:
            expected = load_xfail(args.xfail)
        except XfailError as exc:
            _say(str(exc))
            return EXIT_FAILED
    notes = [f"the expected-failures file lists {case_id}, which is not in the suite"
             for case_id in expected.unknown_cases(ids)]
    # A report on standard output has it to itself: what is said for people goes to stderr.
    human = sys.stderr if any(out.stdout for _, out in opened) else sys.stdout
    run = _run(args, chosen, expected, str(root), notes, human, filters)
    if run is None:
        return EXIT_FAILED
    for line in summary_lines(run, tables=not args.quiet, verbose=args.verbose):
        print(line, file=human)
    human.flush()  # before a report on stdout
    unwritten = write_reports(run, opened)
    for line in unwritten:
        _say(line)
    return EXIT_OK if run.ok and not problems and not unwritten else EXIT_FAILED


def _conform_files(args: argparse.Namespace, files: list[Path],
                   opened: list[tuple[str, OutputFile]], root: Path) -> int:
    """``--case FILE``: run case files given on their own (each checked as a suite's case is,
    but for its id, which need not be its path)."""
    cases: list[Case] = []
    bad = False
    for path in files:
        case, problems = load_case(path, None)
        for problem in problems:
            _say(f"bad case file: {problem}")
            bad = True
        if case is not None:
            cases.append(case)
    if not cases:
        return EXIT_FAILED
    human = sys.stderr if any(out.stdout for _, out in opened) else sys.stdout
    run = _run(args, cases, Expected(), str(root), [], human)
    if run is None:
        return EXIT_FAILED
    for line in summary_lines(run, tables=not args.quiet, verbose=args.verbose):
        print(line, file=human)
    human.flush()
    unwritten = write_reports(run, opened)
    for line in unwritten:
        _say(line)
    return EXIT_OK if run.ok and not bad and not unwritten else EXIT_FAILED


def _refuse_clashes(reports: list[tuple[str, str, str]], xfail: Path | None, root: Path,
                    command: list[str]) -> None:
    """UsageError for a report onto the expected-failures file, onto a file the program's
    command line names (its script, say), onto another report, or into the suite folder as a
    .json file (the next run would read it as a case, or it would replace one)."""
    inputs = [] if xfail is None else [("the expected-failures file", str(xfail))]
    inputs += [("the program's file", word) for word in command if os.path.isfile(word)]
    refuse_clashes([(flag, path) for _, flag, path in reports], inputs)
    suite = os.path.realpath(root)
    for _, flag, path in reports:
        real = os.path.realpath(path)
        if real.endswith(".json") and real.startswith(suite.rstrip(os.sep) + os.sep):
            raise UsageError(f"{flag} {path} is inside the suite folder {root}, where it would "
                             "be read as a case: write it elsewhere")


def _open_reports(reports: list[tuple[str, str, str]], outputs: contextlib.ExitStack
                  ) -> list[tuple[str, OutputFile]] | None:
    """Each report's output, made now, before the run; None (said) if one cannot be."""
    opened: list[tuple[str, OutputFile]] = []
    for kind, _, path in reports:
        try:
            opened.append((kind, outputs.enter_context(OutputFile(path))))
        except OSError as exc:
            _say(f"cannot write the {kind} report {path}: {exc.strerror or exc} (no case was "
                 "run)")
            return None
    return opened


def _run(args: argparse.Namespace, chosen: list[Case], expected: Expected, suite: str,
         notes: list[str], human: TextIO, filters: Filters | None = None) -> Run | None:
    """Start the program, run the chosen cases (the ``--shard`` of them) on it, on
    ``args.jobs`` processes of it at once (the first started here for the handshake, the
    others, each in a worker process of the harness where the system forks, as their first
    case comes), end it; None if it cannot be started. What is said for people goes to
    ``human``."""
    from napkit.conform.shards import cases_digest, filters_json

    selection = Selection(filters_json(filters or Filters()),
                          None if args.xfail is None else str(args.xfail), len(chosen),
                          cases_digest(chosen))
    if args.shard is not None:  # an empty slice (more shards than cases) is no failure
        chosen = shard(chosen, *args.shard)
    opener, command = _program(args)
    jobs = max(1, min(args.jobs, len(chosen)))
    sessions = [Session(opener, args.timeout, args.start_timeout) for _ in range(jobs)]
    session = sessions[0]
    try:
        hello = session.open()
    except ProtocolError as exc:
        _say(f"the program {exc.message}" + (" (it did not complete the handshake)"
                                              if exc.what != "cannot-start" else ""))
        for line in exc.stderr.splitlines():
            print(f"  | {line}", file=sys.stderr)
        return None
    program = f"{hello.name} {hello.version}".strip()
    if not args.quiet:
        shown = " ".join(command) if command else "in this process"
        part = "" if args.shard is None else (f" (shard {args.shard[0]}/{args.shard[1]} of "
                                              f"{selection.cases})")
        at_once = f", {jobs} processes at once" if jobs > 1 else ""
        print(f"napkit conform: {len(chosen)} cases{part} against {program} ({shown})"
              f"{at_once}", file=human, flush=True)
    if args.shard is not None and not chosen:  # said, not noted: the merged report has none
        _say(f"shard {args.shard[0]}/{args.shard[1]} has no case: the filters chose "
             f"{selection.cases}, fewer than the shards")
    progress = Progress(len(chosen), enabled=not args.quiet)
    began = time.perf_counter()
    said: list[str] = []  # what the programs did wrong as they were told goodbye
    try:
        if jobs > 1 and can_fork():  # each program and its share of the harness in a process
            said.append(session.close())  # the handshake was this one's work
            results, closing = run_suite_in_processes(
                chosen, lambda: Session(opener, args.timeout, args.start_timeout), jobs,
                hello.supports, expected.classify, progress.update, args.exitfirst,
                args.max_timeouts)
            said += closing
        else:  # one program, or several in threads of this process
            results = run_suite(chosen, sessions if jobs > 1 else session, hello.supports,
                                expected.classify, progress.update, args.exitfirst,
                                args.max_timeouts)
    except BaseException:  # Ctrl-C above all: the program must not outlive the run
        for each in sessions:
            each.kill()
        raise
    finally:
        progress.finish()
    for note in said + _close(sessions):
        if note and f"the program {note}" not in notes:
            notes.append(f"the program {note}")
    run = Run(results, program, command, suite, time.perf_counter() - began, len(chosen),
              notes, selection=selection, shard=args.shard, jobs=jobs)
    # Each failure drawn as a hand; a match asked again of a fresh start of the program.
    from napkit.conform.failure import describe_all  # only for a run: napkit starts faster

    with contextlib.suppress(KeyboardInterrupt):
        run.failures = describe_all(results, list(args.command), Path(suite),
                                    args.ruleset_files,
                                    lambda: Session(opener, args.timeout, args.start_timeout))
    row = timeouts_in_a_row(results)
    if args.max_timeouts and len(results) < len(chosen) and row >= args.max_timeouts:
        run.stopped = f"after {row} timeouts in a row"
        notes.append(f"stopped: the program timed out on {row} cases in a row (--max-timeouts "
                     f"{args.max_timeouts}); is it reading its standard input and flushing "
                     "each answer?")
    return run


def _close(sessions: list[Session]) -> list[str]:
    """Say bye to every program still running, all at once; the notes of those that did not
    take their leave as the protocol says."""
    running = [s for s in sessions if s.alive]
    if len(running) <= 1:
        return [note for s in running if (note := s.close())]
    with Pool([None] * len(running)) as pool:
        return [note for note in pool.map(lambda _, s: s.close(), running) if note]


def reference_command() -> list[str]:
    """The reference adapter as a program: this Python, ``-m napkit.adapter``."""
    return [sys.executable, "-m", "napkit.adapter"]


def _program(args: argparse.Namespace) -> tuple[Callable[[], Channel], list[str]]:
    if args.in_process:
        return in_process_opener(), []
    command = list(args.command) or reference_command()
    return process_opener(command), command


def _matrix(cases: list[Any]) -> int:
    """``--matrix``: the coverage matrices of napkit.conform.matrix, by rule and by breach
    (each refusal the law book defines); exit 1 if either has an empty cell."""
    from napkit.conform.matrix import breach_matrix, main_matrix

    lines, empty = main_matrix(cases)
    breaches, holes = breach_matrix(cases)
    print("\n".join([*lines, "", *breaches]))
    return EXIT_FAILED if empty or holes else EXIT_OK


__all__ = ["add_commands", "reference_command", "run_conform"]
