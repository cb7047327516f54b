"""``napkit conform [OPTIONS] [-- COMMAND...]``: run the conformance suite against a program.

Without a command (or with ``--reference``), the program is napkit's own reference adapter,
``python -m napkit.protocol.adapter``; ``--in-process`` runs the reference in this process instead,
without the protocol's process and pipes. Exit status: 0 when every case that ran passed (or
failed as the expected-failures file says), 1 otherwise (a failure, an unexpected pass, a bad
case file, an empty suite or selection, a program that cannot be started, whose handshake is
refused or that timed out on --max-timeouts cases in a row, a run whose every case was skipped,
a report that cannot be written), 2 for a usage error (among them a report onto an input or onto
another report), 130 when interrupted (143 by SIGTERM, handled as Ctrl-C).

The reports are written by napkit's one policy for outputs (napkit.output.files), each made
before the run so that a place that cannot be written is refused before any case runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from napkit.cli import interrupt
from napkit.cli.common import (
    Commands,
    jobs_value,
    seconds_value,
    seed_value,
    shard_value,
    whole_value,
)
from napkit.conform.suite.cases import (
    KINDS,
    Case,
    Filters,
    SuiteIds,
    add_rulesets,
    default_suite_dir,
    load_case,
    load_suite,
    select,
)
from napkit.conform.suite.versions import current_rule, report_versions
from napkit.conform.suite.xfail import Expected, XfailError, load_xfail
from napkit.errors import UsageError

# The harness (the runner, the reports, the protocol, the schemas) is imported by the
# functions that run the cases, not here: building the parsers (napkit --help) must not load
# it (tests/test_startup_imports.py). napkit.conform.suite's cases, versions and xfail are light.
if TYPE_CHECKING:
    from napkit.conform.report.text import Run, Selection
    from napkit.conform.run.control import Order
    from napkit.conform.run.runner import CaseResult
    from napkit.conform.suite.games import Game
    from napkit.output.files import OutputFile
    from napkit.protocol.process import Channel, Hello, Session

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

EPILOG = """\
examples:
  napkit conform                                  the whole suite against the reference
  napkit conform --ruleset pagat --kind illegal -- node my-nap.js
  napkit conform --rule NAP-8 --junit report.xml -- ./my-nap --adapter
  napkit conform --xfail known.json -- python my_nap.py
  napkit conform -v --html report.html -- python my_nap.py   every failure drawn; a page too
  napkit conform --in-process --case 'pagat/legal/*' -q --json - | python3 -m json.tool
  napkit conform -j 2 --ruleset classic -- node my-nap.js
  napkit conform -j auto --shard 2/4 --json shard-2.json -- ./my-nap
  napkit report merge shard-1.json shard-2.json shard-3.json shard-4.json -o all.json
  napkit conform --write-xfail known.json -- ./my-nap     then: --xfail known.json
  napkit conform --ruleset classic --exclude-tag handworked --exclude-rule NAP-10 --list -q
  napkit conform --shuffle --seed 7 --repeat 3 --ruleset classic -- ./my-nap

The program speaks napkit-adapter/1 (spec/conformance.md) on its standard input and output.

-j N runs N processes of the program at once (0 or 'auto': one per core), the cases shared
among them; the report is the one -j 1 writes, in the same order (only timings differ): the
results are taken in the cases' order, so -x stops at the same first failure and
--max-timeouts counts the same cases in a row (cases already under way past that point are
dropped). A program that breaks the protocol is restarted in its own worker only.
--shard K/N runs every N-th selected case from the K-th (a CI matrix of N machines runs each
case once); 'napkit report merge' joins the N JSON reports into the whole run's.
An expected-failures file is {"format": "napkit-xfail/1", "cases": {ID: REASON},
"rules": {RULE: REASON}}. --write-xfail FILE writes one from the run: every failure expected
(with its first line as the reason, or the reason its entry already had), entries of cases that
now pass deleted, entries of cases not run kept; an existing FILE is read as --xfail when none
is given, and the exit status is the run's judged by the file written.

--shuffle runs the cases in an order drawn from --seed N (drawn and printed if not given), and
--repeat N runs the selection N times, each pass in its own order: state a program keeps from
case to case then shows. The reports still list the cases in the suite's order, each with its
place in the run, so that runs of different orders compare line by line.
Ctrl-C (or SIGTERM) prints the summary of what ran and writes every report asked for, marked
interrupted (the cases not run counted; none run, before the first), then exits 130 (143 for
SIGTERM); a second Ctrl-C abandons the reports. A run whose every case was skipped checked
nothing: it is not ok (exit 1). A handshake naming an option or a choice its ruleset does not
have is refused.
Every report names the versions of the suite, the law book, napkit and the program.

A report FILE is replaced whole once the run is over (a temporary file beside it, renamed
over it; a symbolic link's file is replaced and the link kept); '-' is standard output (the
summary then goes to standard error), and a FIFO or a device is written to directly. A report
onto the --xfail file, into the suite folder or onto another report is refused, and so is a
place that cannot be written, before any case runs.
"""


def register(commands: Commands) -> None:
    """``napkit conform``."""
    conform = commands.add_parser(
        "conform", help="run the conformance suite against a program (the reference by default)",
        usage="napkit conform [OPTIONS] [-- COMMAND [ARG...]]",
        description="Run the conformance suite against a Nap program that speaks the adapter "
                    "protocol, or against napkit's reference engine.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
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
                                             "of napkit fuzz)"),
            ("--exclude-rule", "exclude_rules", "RULE", "leave out cases exercising this rule "
                                                        "or a chapter or section of them"),
            ("--exclude-tag", "exclude_tags", "TAG", "leave out cases with this tag"),
            ("--exclude-case", "exclude_cases", "GLOB", "leave out cases whose id matches")]:
        conform.add_argument(flag, dest=dest, action="append", default=[], metavar=meta,
                             help=text + "; repeatable")
    conform.add_argument("--ruleset-file", dest="ruleset_files", action="append", default=[],
                         metavar="FILE|RULESET:OPTION=CHOICE",
                         help="a game of one's own: a house ruleset file (spec/README.md), or "
                              "a ruleset with options fixed (pagat:doubling=won); without "
                              "--suite, its own cases are run, generated the first time and "
                              "kept in napkit's cache (napkit suite build writes them to a "
                              "folder); with --suite DIR, the house game of DIR's cases or of "
                              "a reproducer; repeatable")
    conform.add_argument("--timeout", type=seconds_value, default=10.0, metavar="SECONDS",
                         help="time limit for each answer (default 10)")
    conform.add_argument("--start-timeout", type=seconds_value, default=30.0, metavar="SECONDS",
                         help="time limit for the program to start and answer hello "
                              "(default 30, or --timeout if longer)")
    conform.add_argument("-j", "--jobs", type=jobs_value, default=1, metavar="N",
                         help="run N processes of the program at once, the cases shared "
                              "among them (0 or 'auto': one per core; default 1); the report "
                              "is the same as with 1")
    conform.add_argument("--shard", type=shard_value, metavar="K/N",
                         help="run only the K-th of N slices of the selected cases (every "
                              "N-th from the K-th), for a CI matrix; 'napkit report merge' "
                              "joins the slices' JSON reports")
    conform.add_argument("-x", "--exitfirst", action="store_true",
                         help="stop at the first failure")
    conform.add_argument("--max-timeouts", type=whole_value("a number of cases", 0), default=3,
                         metavar="N",
                         help="stop after N cases in a row that the program timed out on "
                              "(default 3; 0: never stop)")
    conform.add_argument("--xfail", metavar="FILE", type=Path,
                         help="the expected-failures file (napkit-xfail/1)")
    conform.add_argument("--write-xfail", metavar="FILE",
                         help="write (or update) the expected-failures file from the run: its "
                              "failures expected, each with its reason")
    conform.add_argument("--list", action="store_true",
                         help="list the cases the filters select (id, kind, ruleset; -q: ids), "
                              "in the order they would run, without running them")
    conform.add_argument("--shuffle", action="store_true",
                         help="run the cases in a random order (--seed N to repeat it)")
    conform.add_argument("--seed", type=seed_value, metavar="N",
                         help="the seed of --shuffle's order")
    conform.add_argument("--repeat", type=whole_value("a number of runs", 1), default=1,
                         metavar="N",
                         help="run the selected cases N times (default 1)")
    conform.add_argument("--json", metavar="FILE", help="write a JSON report ('-': stdout)")
    conform.add_argument("--junit", metavar="FILE",
                         help="write a JUnit XML report ('-': stdout)")
    conform.add_argument("--tap", metavar="FILE", help="write a TAP report ('-': stdout)")
    conform.add_argument("--html", metavar="FILE", help="write the run as one self-contained "
                         "web page (napkit.conform.report.html)")
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


SUITE_EPILOG = """\
examples:
  napkit suite build --ruleset-file house.json -o tests/nap-cases
  napkit suite build --ruleset-file pagat:doubling=won -o cases-doubling
  napkit conform --suite tests/nap-cases --ruleset-file house.json -- ./my-nap

The cases are those 'napkit conform --ruleset-file FILE' runs (from napkit's cache): drawn
by napkit's generator for the game (legal play, every refusal it can reach, outcomes,
matches), the same for the same game, each tagged "generated". A folder that holds cases
already keeps every case not generated for these games (hand-written ones); the generated
ones of these games are replaced. Its suite.toml names the games and how many cases each got.
"""


def register_suite(commands: Commands) -> None:
    """``napkit suite build``."""
    suite = commands.add_parser(
        "suite", help="write the generated cases of a house game to a folder",
        usage="napkit suite build --ruleset-file FILE|RULESET:OPTION=CHOICE... -o DIR",
        description="The conformance suite of games of one's own.",
        epilog=SUITE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = suite.add_subparsers(dest="action", metavar="ACTION")
    build = actions.add_parser(
        "build", help="write a game's generated cases to a folder a project can commit",
        usage="napkit suite build --ruleset-file FILE|RULESET:OPTION=CHOICE... -o DIR",
        description="Write the generated conformance cases of house games (or of rulesets "
                    "with options fixed) under a folder: what 'napkit conform --ruleset-file' "
                    "runs, to commit beside a program.",
        epilog=SUITE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    build.add_argument("--ruleset-file", dest="ruleset_files", action="append", required=True,
                       metavar="FILE|RULESET:OPTION=CHOICE",
                       help="a house ruleset file, or a ruleset with options fixed "
                            "(pagat:doubling=won); repeatable")
    build.add_argument("-o", "--out", required=True, type=Path, metavar="DIR",
                       help="the folder to write (made if need be)")
    build.set_defaults(run=_suite_build)
    suite.set_defaults(run=lambda _args: _suite_usage(suite))


def _suite_usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_USAGE


def _suite_build(args: argparse.Namespace) -> int:
    from napkit.conform.suite.games import build_suite, counts_words, read_game

    games = [read_game(given) for given in args.ruleset_files]  # said on one line by main
    if args.out.exists() and not args.out.is_dir():
        raise UsageError(f"-o {args.out}: not a folder")
    began = time.perf_counter()
    _tell(f"napkit suite: generating the cases of {', '.join(g.describe() for g in games)}",
          sys.stderr)
    counts = build_suite(games, args.out)
    for game in games:
        _tell(f"{game.describe()}: {counts_words(counts.get(game.describe(), {}))} under "
              f"{args.out / game.ruleset.id}", sys.stdout)
    words = ["napkit", "conform", "--suite", str(args.out)]
    for game in games:  # the cases of a game of a file need the file to be read
        words += [word for file in game.files for word in ("--ruleset-file", str(file))]
    _tell(f"written in {time.perf_counter() - began:.1f} s; run them with: "
          f"{shlex.join(words)} -- YOUR-PROGRAM", sys.stdout)
    return EXIT_OK


def _say(message: str) -> None:
    _tell(f"napkit conform: {message}", sys.stderr)


def _tell(line: str, stream: TextIO) -> None:
    """A line for people, made printable: it may quote the program (its name, an error it
    answered with), text from outside."""
    from napkit.output.tables import printable

    print(printable(line), file=stream, flush=True)


REPORT_FLAGS = (("json", "--json"), ("junit", "--junit"), ("tap", "--tap"), ("html", "--html"))


def run_conform(args: argparse.Namespace) -> int:
    """The command: check the outputs, load, choose, run, report. Ctrl-C (or SIGTERM) once
    the reports' files are made writes them, marked interrupted, with the cases that ran (none,
    before the first: spec/conformance.md 7.3); before that, or a second time while they are
    written, it is one line, and leaves every report file as it was."""
    so_far = _SoFar()
    try:
        with contextlib.ExitStack() as outputs:  # abandoned, unless committed, on the way out
            try:
                return _conform(args, outputs, so_far)
            except KeyboardInterrupt:
                if so_far.finishing or not (so_far.opened or so_far.xfail_out):
                    raise
                return _stopped_early(args, so_far)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130


@dataclass
class _SoFar:
    """What a run has come to know, for the reports a Ctrl-C before its cases are done writes:
    the reports' outputs, the cases chosen, the program's handshake."""

    opened: list[tuple[str, OutputFile]] = field(default_factory=list)
    xfail_out: OutputFile | None = None
    expected: Expected | None = None  # None: not read yet, so --write-xfail writes nothing
    human: TextIO = sys.stdout
    suite: str = ""
    selection: Selection | None = None
    selected: int = 0  # 0 until the cases are chosen
    order: Order | None = None
    command: list[str] = field(default_factory=list)
    program: str = "(stopped before its handshake)"
    version: str | None = None
    sessions: list[Session] = field(default_factory=list)
    began: float = field(default_factory=time.perf_counter)
    finishing: bool = False  # the run is over and its reports are being written
    own: list[Game] = field(default_factory=list)  # the house games of --ruleset-file


def _stopped_early(args: argparse.Namespace, so_far: _SoFar) -> int:
    """The reports of a run stopped by Ctrl-C (or SIGTERM) before its cases began: no case,
    marked interrupted, the cases chosen counted as not run."""
    from napkit.conform.report.text import Run

    for session in so_far.sessions:  # the program must not outlive the run
        session.kill()
    run = Run([], so_far.program, so_far.command, so_far.suite,
              time.perf_counter() - so_far.began, so_far.selected, [],
              selection=so_far.selection, shard=args.shard, interrupted=True,
              versions=report_versions(Path(so_far.suite), so_far.version),
              order=None if so_far.order is None or so_far.order.plain
              else so_far.order.to_json())
    run.stopped = f"by {interrupt.stopped_by()}"
    return _finish(args, run, so_far.opened, so_far.human, True, so_far.expected,
                   so_far.xfail_out)


def _conform(args: argparse.Namespace, outputs: contextlib.ExitStack, so_far: _SoFar) -> int:
    root: Path = args.suite or default_suite_dir()
    reports = [(kind, flag, path) for kind, flag in REPORT_FLAGS
               if (path := getattr(args, kind)) is not None]
    written = [] if args.write_xfail is None else [("xfail", "--write-xfail", args.write_xfail)]
    same = (args.xfail is not None and args.write_xfail is not None
            and os.path.realpath(args.xfail) == os.path.realpath(args.write_xfail))
    try:  # before anything is read: a report would replace what the run reads
        _refuse_misuse(args, bool(reports))
        _refuse_clashes(reports + written, None if same else args.xfail, root, args.command,
                        _read_files(args))
    except UsageError as exc:
        _say(str(exc))
        return EXIT_USAGE
    opened = [] if args.matrix or args.list else _open_run(args, reports, outputs)
    if opened is None:
        return EXIT_FAILED
    # A report on standard output has it to itself: what is said for people goes to stderr.
    so_far.opened, so_far.suite, so_far.human = opened, str(root), (
        sys.stderr if any(out.stdout for _, out in opened) else sys.stdout)
    xfail_out = None
    if args.write_xfail is not None and not (args.matrix or args.list):
        try:  # made now: a place that cannot be written runs nothing
            xfail_out = so_far.xfail_out = outputs.enter_context(_output(args.write_xfail))
        except OSError as exc:
            _say(f"cannot write the expected-failures file {args.write_xfail}: "
                 f"{exc.strerror or exc} (no case was run)")
            return EXIT_FAILED
    games, so_far.own = _games(args)  # SpecError, UsageError: said on one line
    # A --case that names a case file (a reproducer napkit fuzz wrote) runs that file; the
    # others are globs on the ids of the suite's cases.
    files = [Path(c) for c in args.cases if c.endswith(".json") and Path(c).is_file()]
    globs = tuple(c for c in args.cases if not (c.endswith(".json") and Path(c).is_file()))
    if files and not globs:
        return _conform_files(args, files, opened, root, xfail_out, so_far)
    root, game_notes = _suite_root(args, root, games, so_far)
    if not root.is_dir():
        _say(f"the suite is empty: there is no folder {root}")
        return EXIT_FAILED
    filters = Filters(tuple(args.rulesets), tuple(map(current_rule, args.rules)),
                      tuple(args.tags), tuple(args.kinds), globs,
                      tuple(map(current_rule, args.exclude_rules)), tuple(args.exclude_tags),
                      tuple(args.exclude_cases))
    ids = SuiteIds(root)  # listed only if asked for more than whether there is a case
    # Only the files the filters may choose are read and checked (the whole suite for the
    # matrix): rerunning one case starts at once.
    cases, problems = load_suite(root, None if args.matrix else filters, args.jobs)
    for problem in problems:
        _say(f"bad case file: {problem}")
    if not ids:
        _say(f"the suite is empty: no case under {root}")
        return EXIT_FAILED
    if args.matrix:  # of the games' rulesets, where their own cases are run
        columns = [g.ruleset for g in games] if games and args.suite is None else None
        return _matrix(cases, columns) if cases else EXIT_FAILED
    chosen = select(cases, filters)
    if not chosen:
        if not problems:
            _say(f"no case matches the filters ({len(ids)} cases in the suite)")
        return EXIT_FAILED
    if args.list:
        return _list(args, chosen)
    try:
        expected = so_far.expected = _expected(args)
    except XfailError as exc:
        _say(str(exc))
        return EXIT_FAILED
    notes = game_notes + _games_missing(games, cases) if args.suite is not None else game_notes
    notes += [f"the expected-failures file lists {case_id}, which is not in the suite"
              for case_id in expected.unknown_cases(ids)]
    human = so_far.human
    run = _run(args, chosen, expected, str(root), notes, human, filters, so_far)
    if run is None:
        return EXIT_FAILED
    return _finish(args, run, opened, human, not problems, expected, xfail_out)


def _refuse_misuse(args: argparse.Namespace, reports: bool) -> None:
    """UsageError for options that do not go together, or a kind that is none."""
    if args.kinds and (bad := sorted(set(args.kinds) - set(KINDS))):
        raise UsageError(f"no kind {bad[0]!r} (one of {', '.join(KINDS)})")
    if args.command and (args.reference or args.in_process):
        raise UsageError("give a COMMAND or --reference/--in-process, not both")
    if args.seed is not None and not args.shuffle:
        raise UsageError("--seed N is the seed of --shuffle: give --shuffle too")
    if args.list and (reports or args.write_xfail):
        raise UsageError("--list runs no case: it writes no report and no expected-failures "
                         "file")
    if args.repeat > 1 and args.shard is not None:
        raise UsageError("--repeat runs each case several times, and 'napkit report merge' "
                         "joins shards that ran each case once: run --repeat without --shard")


def _expected(args: argparse.Namespace) -> Expected:
    """The expected failures: --xfail's file; else a --write-xfail file that is there (it is
    updated); else none. XfailError if the file is not one."""
    read = args.xfail if args.xfail is not None or args.write_xfail is None else (
        Path(args.write_xfail) if os.path.isfile(args.write_xfail) else None)
    return Expected() if read is None else load_xfail(read)


def _finish(args: argparse.Namespace, run: Run, opened: list[tuple[str, OutputFile]],
            human: TextIO, good: bool, expected: Expected | None = None,
            xfail_out: OutputFile | None = None) -> int:
    """The summary, the reports and the expected-failures file written; the exit status (130
    for a run stopped by Ctrl-C or SIGTERM, which still reports what ran; 1 for a run whose
    every case was skipped, which checked nothing: spec/conformance.md 2.2)."""
    from napkit.conform.report.text import summary_lines
    from napkit.conform.run.runner import nothing_checked

    for line in summary_lines(run, tables=not args.quiet, verbose=args.verbose):
        print(line, file=human)
    human.flush()  # before a report on stdout
    unwritten = _write_reports(run, opened)
    ok = run.ok
    if xfail_out is not None and expected is not None:
        ok = _write_xfail(run, expected, xfail_out, human) and not nothing_checked(run.counts)
    for line in unwritten:
        _say(line)
    if nothing_checked(run.counts) and not run.interrupted:
        from napkit.conform.fuzz.reproducer import not_run

        # A reproducer of napkit fuzz skipped for the program's chance events says how to see
        # its disagreement again (spec/conformance.md 2.5), not only that nothing ran.
        said = [not_run(r.case, r.message, run.command) for r in run.results]
        if said and all(said):
            for why in dict.fromkeys(said):
                _say(f"nothing was checked: {why}")
        else:
            _say(f"nothing was checked: the program's handshake declares none of the "
                 f"{run.selected} cases chosen, and every one was skipped")
    if run.interrupted:
        _say(f"interrupted: {run.selected - len(run.results)} of {run.selected} cases not run"
             + (", the reports written with what ran" if opened and not unwritten else ""))
        return 130
    return EXIT_OK if ok and good and not unwritten else EXIT_FAILED


def _write_reports(run: Run, opened: list[tuple[str, OutputFile]]) -> list[str]:
    """Each report written (napkit.conform.report.html.write_reports, imported only for a run
    that has reports to write); what could not be, as lines to say."""
    if not opened:
        return []
    from napkit.conform.report.html import write_reports  # and --html

    return write_reports(run, opened)


def _list(args: argparse.Namespace, chosen: list[Case]) -> int:
    """``--list``: the cases that would run, in the order they would run, one a line."""
    from napkit.conform.run.control import list_lines, run_order
    from napkit.conform.run.parallel import shard

    if args.shard is not None:
        chosen = shard(chosen, *args.shard)
    order = _order(args)
    for line in list_lines([chosen[i] for i, _ in run_order(len(chosen), order)], args.quiet):
        print(line)
    return EXIT_OK if chosen else EXIT_FAILED


def _order(args: argparse.Namespace) -> Order:
    """The run's order; --shuffle without --seed draws one (said, so that it can be
    repeated)."""
    import random  # here: only --shuffle draws

    from napkit.conform.run.control import Order

    seed = args.seed
    if args.shuffle and seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
        args.seed = seed
    return Order(args.shuffle, seed, args.repeat)


def _write_xfail(run: Run, expected: Expected, out: OutputFile, human: TextIO) -> bool:
    """--write-xfail: the file that expects the run's failures; whether it was written."""
    from napkit.conform.run.control import xfail_document, xfail_text

    document, changes = xfail_document(run.results, expected)
    try:
        out.commit(xfail_text(document))
    except OSError as exc:
        _say(f"cannot write the expected-failures file {out.path}: {exc.strerror or exc}")
        return False
    print(f"wrote {out.path}: {len(document['cases'])} cases and {len(document['rules'])} "
          f"rules expected to fail ({changes['added']} added, {changes['deleted']} deleted as "
          "they now pass); rerun with --xfail " + out.path, file=human)
    return True


def _conform_files(args: argparse.Namespace, files: list[Path],
                   opened: list[tuple[str, OutputFile]], root: Path,
                   xfail_out: OutputFile | None = None, so_far: _SoFar | None = None) -> int:
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
    if args.list:
        return _list(args, cases)
    so_far = so_far or _SoFar()
    human = sys.stderr if any(out.stdout for _, out in opened) else sys.stdout
    try:
        expected = so_far.expected = _expected(args)
    except XfailError as exc:
        _say(str(exc))
        return EXIT_FAILED
    run = _run(args, cases, expected, str(root), [], human, None, so_far)
    if run is None:
        return EXIT_FAILED
    return _finish(args, run, opened, human, not bad, expected, xfail_out)


def _games(args: argparse.Namespace) -> tuple[list[Game], list[Game]]:
    """The games of --ruleset-file, and those of them read from a file (a house game), each
    made known to the case checks (a house game's cases name its id)."""
    from napkit.conform.suite.games import read_game

    games = [read_game(given) for given in args.ruleset_files]
    own = [game for game in games if game.files]  # a file's ruleset, not the spec's
    add_rulesets(game.base for game in own)
    return games, own


def _suite_root(args: argparse.Namespace, root: Path, games: list[Game], so_far: _SoFar
                ) -> tuple[Path, list[str]]:
    """The folder of the cases to run: the games' own generated cases where --ruleset-file
    gives games without --suite (spec/conformance.md 1.3), else ``root``; and the notes on
    the games' cases."""
    if not games or args.suite is not None:
        return root, []
    root, notes = _game_suite(games, None if args.quiet else so_far.human)
    so_far.suite = str(root)
    return root, notes


def _game_suite(games: list[Game], human: TextIO | None) -> tuple[Path, list[str]]:
    """The folder of the games' generated cases (from the cache, or generated now), and a
    note for each game of how many cases it has, which is said and kept in the reports."""
    from napkit.conform.suite.games import cached_suite, counts_words

    built = cached_suite(games, (lambda line: _tell(f"napkit conform: {line}", human))
                         if human is not None else (lambda _: None))
    where = (f"generated in {built.seconds:.1f} s and kept in {built.root}" if built.fresh
             else f"kept in {built.root}")
    notes = []
    for game in games:
        cases = counts_words(built.counts.get(game.describe(), {}), "generated cases")
        notes.append(f"the suite of {game.describe()}: {cases}, {where}")
    if human is not None:
        for note in notes:
            _tell(f"napkit conform: {note}", human)
    return built.root, notes


def _games_missing(games: list[Game], cases: list[Case]) -> list[str]:
    """A note for each game of --ruleset-file that has no case in the --suite folder."""
    have = {case.ruleset for case in cases}
    return [f"{game.describe()} has no case in this suite: without --suite, napkit conform "
            "runs the game's own generated cases" for game in games if game.ruleset.id not in have]


def _read_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files a run reads besides the suite: each --case given as a file (a reproducer)
    and each --ruleset-file (a house game)."""
    cases = [("the case file", c) for c in args.cases if os.path.isfile(c)]
    return cases + [("the ruleset file", p) for p in args.ruleset_files if os.path.isfile(p)]


def _refuse_clashes(reports: list[tuple[str, str, str]], xfail: Path | None, root: Path,
                    command: list[str], read: Sequence[tuple[str, str]] = ()) -> None:
    """UsageError for a report onto the expected-failures file, onto a file the program's
    command line names (its script, say), onto a case or ruleset file the run reads
    (``read``), onto another report, or into the suite folder as a .json file (the next run
    would read it as a case, or it would replace one)."""
    from napkit.output.files import refuse_clashes

    inputs = [] if xfail is None else [("the expected-failures file", str(xfail))]
    inputs += list(read)
    inputs += [("the program's file", word) for word in command if os.path.isfile(word)]
    refuse_clashes([(flag, path) for _, flag, path in reports], inputs)
    suite = os.path.realpath(root)
    for _, flag, path in reports:
        real = os.path.realpath(path)
        if real.endswith(".json") and real.startswith(suite.rstrip(os.sep) + os.sep):
            raise UsageError(f"{flag} {path} is inside the suite folder {root}, where it would "
                             "be read as a case: write it elsewhere")


def _open_run(args: argparse.Namespace, reports: list[tuple[str, str, str]],
              outputs: contextlib.ExitStack) -> list[tuple[str, OutputFile]] | None:
    """Each report's output made (:func:`_open_reports`), then the program started
    (:func:`_start_early`), before the cases are read; None (said) if a report cannot be."""
    opened = _open_reports(reports, outputs)
    if opened is not None:
        _start_early(args, outputs)
    return opened


#: Programs started before their session, by command line (see _start_early).
_EARLY: dict[tuple[str, ...], Channel] = {}


def _start_early(args: argparse.Namespace, outputs: contextlib.ExitStack) -> None:
    """Start the program now, so that it starts up while the cases are read and checked (each
    of them some bare Python starts: benchmarks/README.md, start-up); the first session's
    opener (:func:`_program`) takes it. It is ended with the command if no session took it (no
    case chosen, a bad file, Ctrl-C); a program that cannot be started is said so when the
    session starts it, as before. napkit's reference is not started here: it is forked from
    this process once the cases are read (:func:`_reference`)."""
    if args.in_process or not args.command:
        return
    from napkit.protocol.process import ProcessChannel, ProtocolError

    command = tuple(args.command) or tuple(reference_command())
    try:
        channel = ProcessChannel(command)
    except ProtocolError:
        return
    _EARLY[command] = channel

    def unused() -> None:
        if _EARLY.get(command) is channel:
            del _EARLY[command]
            channel.kill()

    outputs.callback(unused)


def _open_reports(reports: list[tuple[str, str, str]], outputs: contextlib.ExitStack
                  ) -> list[tuple[str, OutputFile]] | None:
    """Each report's output, made now, before the run; None (said) if one cannot be."""
    opened: list[tuple[str, OutputFile]] = []
    for kind, _, path in reports:
        try:
            opened.append((kind, outputs.enter_context(_output(path))))
        except OSError as exc:
            _say(f"cannot write the {kind} report {path}: {exc.strerror or exc} (no case was "
                 "run)")
            return None
    return opened


def _output(path: str) -> OutputFile:
    """An output file of the run (napkit.output.files, imported here: not for the parsers)."""
    from napkit.output.files import OutputFile

    return OutputFile(path)


def _run(args: argparse.Namespace, chosen: list[Case], expected: Expected, suite: str,
         notes: list[str], human: TextIO, filters: Filters | None = None,
         so_far: _SoFar | None = None) -> Run | None:
    """Start the program, run the chosen cases (the ``--shard`` of them) on it, on
    ``args.jobs`` processes of it at once (the first started here for the handshake, the
    others, each in a worker process of the harness where the system forks, as their first
    case comes), end it; None if it cannot be started. What is said for people goes to
    ``human``. What it learns on the way is kept in ``so_far``, for the reports of a Ctrl-C
    before the cases are done."""
    from napkit.conform.report.text import Run, Selection
    from napkit.conform.run.control import in_suite_order, run_order
    from napkit.conform.run.parallel import shard
    from napkit.conform.run.runner import timeouts_in_a_row
    from napkit.conform.run.shards import cases_digest, filters_json
    from napkit.protocol.process import Session

    so_far = so_far or _SoFar()
    # An empty slice (more shards than cases) is no failure.
    whole, chosen = chosen, chosen if args.shard is None else shard(chosen, *args.shard)
    order = so_far.order = _order(args)
    plan = run_order(len(chosen), order)
    chosen = [chosen[i] for i, _ in plan]  # in the order they run, each repetition
    so_far.selected = len(chosen)
    selection = so_far.selection = Selection(
        filters_json(filters or Filters()), None if args.xfail is None else str(args.xfail),
        len(whole), cases_digest(whole))
    opener, command = _program(args, so_far.own)
    so_far.command = command
    jobs = max(1, min(args.jobs, len(chosen)))
    sessions = so_far.sessions = [Session(opener, args.timeout, args.start_timeout)
                                  for _ in range(jobs)]
    session = sessions[0]
    hello = _handshake(session, notes, so_far)
    if hello is None:
        return None
    program = so_far.program
    if not args.quiet:
        shown = " ".join(command) if command else "in this process"
        part = "" if args.shard is None else (f" (shard {args.shard[0]}/{args.shard[1]} of "
                                              f"{selection.cases})")
        at_once = f", {jobs} processes at once" if jobs > 1 else ""
        _tell(f"napkit conform: {len(chosen)} cases{part} against {program} ({shown})"
              f"{at_once}", human)
    if args.shuffle or args.repeat > 1:
        shuffled = f"shuffled (--shuffle --seed {order.seed})" if args.shuffle else "in order"
        print(f"napkit conform: the cases run {shuffled}"
              + (f", {args.repeat} times" if args.repeat > 1 else ""), file=human, flush=True)
    if args.shard is not None and not chosen:  # said, not noted: the merged report has none
        _say(f"shard {args.shard[0]}/{args.shard[1]} has no case: the filters chose "
             f"{selection.cases}, fewer than the shards")
    began = time.perf_counter()
    results, said, interrupted = _run_cases(args, chosen, sessions, opener, hello.supports,
                                            expected)
    so_far.finishing = True  # the results are in: a Ctrl-C from here on abandons the reports
    row = timeouts_in_a_row(results)  # in the order run, where the row was counted
    results = in_suite_order(results, plan, order)
    said, interrupted = _close(sessions, said, interrupted)
    for note in said:
        if note and f"the program {note}" not in notes:
            notes.append(f"the program {note}")
    run = Run(results, program, command, suite, time.perf_counter() - began, len(chosen),
              notes, selection=selection, shard=args.shard, jobs=jobs, interrupted=interrupted,
              versions=report_versions(Path(suite), hello.version),
              order=None if order.plain else order.to_json())
    if interrupted:
        run.stopped = f"by {interrupt.stopped_by()}"
    elif _drawn(results):  # each failure drawn as a hand; a match asked again of a fresh
        # start of the program
        from napkit.conform.report.failure import (
                    describe_all,  # only for a run: napkit starts faster
                )

        with contextlib.suppress(KeyboardInterrupt):
            run.failures = describe_all(
                results, list(args.command), Path(suite), args.ruleset_files,
                lambda: Session(opener, args.timeout, args.start_timeout))
    if args.max_timeouts and len(results) < len(chosen) and row >= args.max_timeouts:
        run.stopped = f"after {row} timeouts in a row"
        notes.append(f"stopped: the program timed out on {row} cases in a row (--max-timeouts "
                     f"{args.max_timeouts}); is it reading its standard input and flushing "
                     "each answer?")
    return run


def _handshake(session: Session, notes: list[str], so_far: _SoFar) -> Hello | None:
    """Start the program and shake hands (a Ctrl-C meanwhile writes the reports with no case:
    run_conform); its hello, checked against the rulesets it names, what is doubtful noted;
    None (said) if it cannot be started or its hello is refused."""
    from napkit.conform.suite.support import handshake_problems, known_rulesets
    from napkit.output.tables import printable_lines
    from napkit.protocol.process import ProtocolError

    try:
        hello = session.open()
    except ProtocolError as exc:
        _say(f"the program {exc.message}" + (" (it did not complete the handshake)"
                                              if exc.what != "cannot-start" else ""))
        for line in printable_lines(exc.stderr.splitlines()):
            print(f"  | {line}", file=sys.stderr)
        return None
    so_far.program = f"{hello.name} {hello.version}".strip()
    so_far.version = hello.version
    # spec/conformance.md 2.2: a choice napkit does not know would skip every case of it, and
    # the run would pass having checked nothing.
    refused, unknown = handshake_problems(hello.supports, known_rulesets())
    if refused:
        session.kill()
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        _say(f"the program's handshake is refused: hello: {refused[0]}{more}")
        return None
    notes += [note for note in unknown if note not in notes]
    return hello


def _drawn(results: Sequence[CaseResult]) -> bool:
    """Whether a result is a failure or an expected failure, which napkit.conform.report.failure
    draws: a module as heavy as the rest of a run, which a run that passes never imports."""
    from napkit.conform.run.runner import FAILED, XFAIL

    return any(r.status in (FAILED, XFAIL) for r in results)


def _run_cases(args: argparse.Namespace, chosen: list[Case], sessions: list[Session],
               opener: Callable[[], Channel], supports: dict[str, Any], expected: Expected
               ) -> tuple[list[CaseResult], list[str], bool]:
    """Run the cases on the sessions (the first through its handshake): their results in
    the order run, what the programs did wrong as they were told goodbye, and whether Ctrl-C
    stopped the run (the results are then those that came before it)."""
    from napkit.conform.report.text import Progress
    from napkit.conform.run.parallel import can_fork
    from napkit.conform.run.runner import run_suite, run_suite_in_processes
    from napkit.protocol.process import Session

    progress = Progress(len(chosen), enabled=not args.quiet)
    said: list[str] = []
    done: list[CaseResult] = []  # the results so far, in order: what a Ctrl-C leaves

    def on_result(result: CaseResult) -> None:
        done.append(result)
        progress.update(result)

    session, jobs = sessions[0], len(sessions)
    try:
        if jobs > 1 and can_fork():  # each program and its share of the harness in a process
            said.append(session.close())  # the handshake was this one's work
            results, closing = run_suite_in_processes(
                chosen, lambda: Session(opener, args.timeout, args.start_timeout), jobs,
                supports, expected.classify, on_result, args.exitfirst, args.max_timeouts)
            said += closing
        else:  # one program, or several in threads of this process
            results = run_suite(chosen, sessions if jobs > 1 else session, supports,
                                expected.classify, on_result, args.exitfirst,
                                args.max_timeouts)
    except KeyboardInterrupt:  # Ctrl-C: report what ran, as pytest does
        for each in sessions:
            each.kill()
        return list(done), said, True
    except BaseException:  # the program must not outlive the run
        for each in sessions:
            each.kill()
        raise
    finally:
        progress.finish()
    return results, said, False


def _close(sessions: list[Session], said: list[str], interrupted: bool
           ) -> tuple[list[str], bool]:
    """Say bye to every program still running, all at once: ``said`` with the notes of those
    that did not take their leave as the protocol says, and whether the run was interrupted
    (a Ctrl-C meanwhile kills them: the cases are done, and their reports are written)."""
    from napkit.conform.run.parallel import Pool

    running = [s for s in sessions if s.alive]
    try:
        if len(running) <= 1:
            return said + [note for s in running if (note := s.close())], interrupted
        with Pool([None] * len(running)) as pool:
            return said + [note for note in pool.map(lambda _, s: s.close(), running)
                           if note], interrupted
    except KeyboardInterrupt:
        for each in sessions:
            each.kill()
        return said, True


def reference_command() -> list[str]:
    """The reference adapter as a program: this Python, ``-m napkit.protocol.adapter``."""
    return [sys.executable, "-m", "napkit.protocol.adapter"]


def _program(args: argparse.Namespace, own: Sequence[Game] = ()
             ) -> tuple[Callable[[], Channel], list[str]]:
    """The program's opener and command. The reference (in this process, or forked) plays
    the house games of --ruleset-file too: its command line names their files."""
    from napkit.protocol.process import in_process_opener, process_opener

    rulesets = [game.base for game in own]
    if args.in_process:
        return in_process_opener(rulesets), []
    command = list(args.command) or reference_command()
    if not args.command:
        for game in own:
            command += ["--ruleset-file", str(game.files[0])]
        return _reference(command, rulesets), command
    opener, early = process_opener(command), _EARLY.pop(tuple(command), None)
    if early is None:
        return opener, command
    started = [early]  # the first session's program, already starting (_start_early)

    def first_early() -> Channel:
        try:
            return started.pop()
        except IndexError:
            return opener()

    return first_early, command


def _reference(command: list[str], rulesets: Sequence[Any] = ()) -> Callable[[], Channel]:
    """The opener of napkit's reference adapter: forked from this process, which has loaded
    what it plays by (napkit.protocol.adapter.Forked), where it can be; else ``command``
    (``python -m napkit.protocol.adapter``) started as any program is."""
    from napkit.protocol.adapter import Forked, can_fork
    from napkit.protocol.process import ProcessChannel, process_opener

    started = process_opener(command)
    return lambda: (ProcessChannel(command, started=Forked(command, rulesets)) if can_fork()
                    else started())


def _matrix(cases: list[Any], rulesets: Sequence[Any] | None = None) -> int:
    """``--matrix``: the coverage matrices of napkit.conform.run.matrix, by rule and by breach
    (each refusal the law book defines), of ``rulesets`` (by default the spec's); exit 1 if
    either has an empty cell."""
    from napkit.conform.run.matrix import breach_matrix, main_matrix

    lines, empty = main_matrix(cases, rulesets=rulesets)
    breaches, holes = breach_matrix(cases, rulesets=rulesets)
    print("\n".join([*lines, "", *breaches]))
    return EXIT_FAILED if empty or holes else EXIT_OK


__all__ = ["reference_command", "register", "register_suite", "run_conform"]
