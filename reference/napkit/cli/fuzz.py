"""``napkit fuzz [OPTIONS] [-- COMMAND...]``: check a Nap program on random hands and matches
against the reference engine until the budget is spent, and hand back, for each distinct
disagreement, the smallest hand that shows it.

Without a command the program is napkit's own reference adapter. Exit status: 0 when the
budget was spent without a disagreement (or with known ones only, ``--known``), 1 when the
program disagreed (the reproducers are written and shown) or could not be run (among them a
handshake naming an option or a choice its ruleset does not have), 2 for a usage error, 130
when interrupted (143 by SIGTERM).
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from napkit.cli.common import (
    Commands,
    jobs_value,
    option_choices,
    seconds_value,
    seed_value,
    shard_value,
    whole_value,
)
from napkit.errors import RuleError, SpecError, UsageError

if TYPE_CHECKING:  # the fuzzer, the spec and the protocol are imported by the command's body
    from napkit.conform.fuzz.campaign import Campaign, Found, Group, Outcome, Reach
    from napkit.conform.fuzz.episodes import Scope
    from napkit.spec.rulesets import Ruleset

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
DEFAULT_HANDS = 1000
SHOWN = 3  # new disagreements drawn in full; the others in a line each

EPILOG = """\
examples:
  napkit fuzz --seconds 60 -- node my-nap.js
  napkit fuzz --ruleset classic --players 4 --hands 5000 -- ./my-nap --adapter
  napkit fuzz --seed 12345 --hands 200 -- python my_nap.py      (replays that run exactly)
  napkit fuzz --ruleset-file house.json -- ./my-house-nap
  napkit fuzz --seconds 60 --write-known known.json -- node my-nap.js   (adopt today's bugs)
  napkit fuzz --seconds 60 --known known.json -- node my-nap.js         (only new ones fail)

The program speaks napkit-adapter/1 (spec/conformance.md). Every ruleset, option choice and
table size it declares in its handshake is fuzzed (narrow with --ruleset, --option,
--players): hands and matches of random play biased to reach the rare parts of the game
(five-trick bids made and lost, misères, throw-ins, looks, purchases, exchanges, knock-outs),
with illegal actions tried along the way. At every step its turn and legal actions are
compared with the reference engine's, every illegal try must be refused under its rule, and
every outcome must agree. The run goes on to its budget; each disagreement is put down to its
cause, the rule whose effect the program got wrong (e.g. NAP-7.1.1, whether it showed as a
wrong turn, wrong trick winners or a wrong settlement), each cause is counted once, and one
episode of each is shrunk to the smallest that still shows it and written as a conformance
case (napkit-case/1) that

  napkit conform --case FILE -- COMMAND

runs again. --seconds bounds the whole run, shrinking included. --first stops at the first
disagreement. --seed N replays a run exactly: episode I of seed N is always the same.
"""


def register(commands: Commands) -> None:
    """``napkit fuzz``."""
    fuzz = commands.add_parser(
        "fuzz", help="check a program on random hands against the reference engine",
        usage="napkit fuzz [OPTIONS] [-- COMMAND [ARG...]]",
        description="Differential testing: play random hands and matches through a Nap "
                    "program and the reference engine side by side, and shrink the first "
                    "disagreement to the smallest hand that shows it.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    fuzz.add_argument("command", nargs="*", metavar="COMMAND",
                      help="the program to check and its arguments, after -- (default: the "
                           "reference adapter)")
    fuzz.add_argument("--ruleset", dest="rulesets", action="append", default=[], metavar="ID",
                      help="only this ruleset (of those the program declares); repeatable")
    fuzz.add_argument("--option", dest="options", action="append", default=[],
                      metavar="NAME=CHOICE", help="only this choice of an option; repeatable")
    fuzz.add_argument("--kind", dest="kinds", action="append", default=[],
                      choices=("legal", "illegal", "outcome", "match"), metavar="KIND",
                      help="only episodes of this kind of case (legal, illegal: with illegal "
                           "tries, outcome, match), as napkit conform --kind; repeatable")
    fuzz.add_argument("--players", dest="players", action="append", default=[],
                      type=whole_value("a number of players", 2, 10),
                      metavar="N", help="only tables of N players; repeatable")
    fuzz.add_argument("--ruleset-file", dest="ruleset_files", action="append", default=[],
                      type=Path, metavar="FILE",
                      help="a house ruleset file (spec/README.md) the program may name in its "
                           "handshake; repeatable")
    budget = fuzz.add_argument_group("budget")
    budget.add_argument("--hands", type=whole_value("a number of hands", 1), metavar="N",
                        help=f"play N episodes (default {DEFAULT_HANDS} unless --seconds)")
    budget.add_argument("--seconds", type=seconds_value, metavar="S",
                        help="play for S seconds (with --hands: whichever comes first)")
    budget.add_argument("--seed", type=seed_value, metavar="N",
                        help="the run's seed (default: drawn, and printed)")
    budget.add_argument("--shard", type=shard_value, default=(1, 1), metavar="K/N",
                        help="play only the episodes I with I %% N = K - 1 (split a campaign "
                             "across machines)")
    budget.add_argument("--first", action="store_true",
                        help="stop at the first disagreement (not known) instead of going on "
                             "to the budget")
    known = fuzz.add_argument_group("known differences")
    known.add_argument("--known", type=Path, metavar="FILE",
                       help="a file of known differences (napkit-fuzz-known/1, written by "
                            "--write-known): they are counted and listed, not failed")
    known.add_argument("--write-known", type=Path, metavar="FILE",
                       help="write the run's disagreements into FILE as known (entries it "
                            "did not meet are kept); exit 0 once written")
    shrinking = fuzz.add_argument_group("the reproducers")
    shrinking.add_argument("-o", "--out", metavar="FILE",
                           help="where to write the reproducer case (default: "
                                "fuzz-SEED-EPISODE.json here); with several disagreements, "
                                "the second goes to FILE's name with -2, and so on")
    shrinking.add_argument("--no-shrink", action="store_true",
                           help="write each disagreement as found")
    shrinking.add_argument("--shrink-seconds", type=seconds_value, default=30.0, metavar="S",
                           help="time allowed for shrinking each disagreement (default 30; "
                                "within --seconds where given)")
    fuzz.add_argument("--program-deals", action="store_true",
                      help="have the program make the chance events (deals, shuffles, cuts), "
                           "where it declares supports.chance \"both\"; always so where it "
                           "declares \"program\" (spec/conformance.md 2.5)")
    fuzz.add_argument("-j", "--jobs", type=jobs_value, default=1, metavar="N",
                      help="N worker processes, each with the program (0 or auto: one per core); "
                           "the same episodes and the same first disagreement as -j 1")
    fuzz.add_argument("--worker-dir", help=argparse.SUPPRESS)  # a worker of -j N: its folder
    # A worker of -j N that does not shrink leaves the time its parent shrinks in.
    fuzz.add_argument("--leave-shrink-time", action="store_true", help=argparse.SUPPRESS)
    fuzz.add_argument("--json", metavar="FILE", help="write a JSON report ('-': stdout)")
    fuzz.add_argument("--timeout", type=seconds_value, default=10.0, metavar="SECONDS",
                      help="time limit for each answer (default 10)")
    fuzz.add_argument("--start-timeout", type=seconds_value, default=30.0, metavar="SECONDS",
                      help="time limit for the program to start and answer hello (default 30)")
    fuzz.add_argument("-q", "--quiet", action="store_true",
                      help="no progress and no tables: the verdict only")
    fuzz.set_defaults(run=run_fuzz)


def _say(message: str) -> None:
    _tell(f"napkit fuzz: {message}", sys.stderr)


def _tell(line: str = "", file: Any = None) -> None:
    """``print``, for a line for people that may quote the program (its name, its answers,
    its reasons: text from outside), made printable."""
    from napkit.output.tables import printable_message

    print(printable_message(line), file=file)


# --- the command -------------------------------------------------------------------------------
def run_fuzz(args: argparse.Namespace) -> int:
    try:
        return _fuzz(args)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130


def _known(files: list[Path]) -> dict[str, Ruleset]:
    """The rulesets napkit can fuzz: the spec's, and the house rulesets given."""
    from napkit.spec.catalog import default_spec
    from napkit.spec.house import load_ruleset_path

    known: dict[str, Ruleset] = dict(default_spec().rulesets)
    for path in files:
        ruleset = load_ruleset_path(path)
        if ruleset.id in known:
            raise UsageError(f"--ruleset-file {path}: its id {ruleset.id!r} is already a "
                             "ruleset of the spec")
        known[ruleset.id] = ruleset
    return known


def _known_differences(args: argparse.Namespace) -> dict[str, str]:
    """The known differences: of ``--known``, else of the ``--write-known`` file where it is
    there already (as ``conform --write-xfail`` reads its file), else none. A file that cannot
    be written is found out now, before the campaign."""
    from napkit.conform.fuzz.groups import read_known

    if args.write_known is not None:
        target = args.write_known
        folder = target.parent if str(target.parent) else Path(".")
        if target.is_dir() or not folder.is_dir():
            raise UsageError(f"--write-known {target}: not a file in an existing folder")
    path = args.known or (args.write_known if args.write_known is not None
                          and args.write_known.is_file() else None)
    args.known_path = path  # the workers of -j N read it too
    return read_known(path) if path is not None else {}


def _fuzz(args: argparse.Namespace) -> int:
    from napkit.conform.fuzz.campaign import Campaign
    from napkit.conform.fuzz.episodes import Games, HandshakeError, ScopeError, scope_of
    from napkit.conform.suite.cases import add_rulesets
    from napkit.output.files import refuse_clashes
    from napkit.protocol.process import ProtocolError, Session, process_opener
    from napkit.spec.catalog import default_spec

    options = option_choices(args.options, "--option")
    # The reference, without a program, plays the house games given too.
    command = list(args.command) or [sys.executable, "-m", "napkit.protocol.adapter",
                                     *(w for p in args.ruleset_files
                                       for w in ("--ruleset-file", str(p)))]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    try:
        refuse_clashes([(f, str(p)) for f, p in (("--out", args.out), ("--json", args.json),
                                                 ("--write-known", args.write_known)) if p],
                       [("the program's file", w) for w in command if Path(w).is_file()]
                       + [("--ruleset-file", str(p)) for p in args.ruleset_files]
                       + ([("--known", str(args.known))] if args.known else []))
        args.known_differences = _known_differences(args)
        known = _known(args.ruleset_files)
    except UsageError as exc:
        _say(str(exc))
        return EXIT_USAGE
    except SpecError as exc:
        _say(str(exc))
        return EXIT_FOUND
    session = Session(process_opener(command), args.timeout, args.start_timeout)
    try:
        hello = session.open()
    except ProtocolError as exc:
        _say(f"the program {exc.message}")
        for line in exc.stderr.splitlines():
            _tell(f"  | {line}", sys.stderr)
        return EXIT_FOUND
    try:
        try:
            scope = scope_of(hello.supports, known, args.rulesets, options, args.players,
                             args.kinds)
        except ScopeError as exc:  # a handshake refused is the program's fault, not the user's
            _say(str(exc))
            return EXIT_FOUND if isinstance(exc, HandshakeError) else EXIT_USAGE
        program = f"{hello.name} {hello.version}".strip()
        human = sys.stderr if args.json == "-" else sys.stdout
        chance = hello.supports.get("chance", "harness")
        if args.program_deals and chance == "harness":
            _say("--program-deals: the program does not declare that it makes chance events "
                 "(supports.chance is \"harness\"; spec/conformance.md 2.5)")
            return EXIT_USAGE
        program_chance = chance == "program" or args.program_deals
        if program_chance and args.jobs > 1 and not args.worker_dir:
            # The parent replays the workers' first disagreement; the program's own deals
            # cannot be replayed. --shard splits such a campaign instead.
            _say("-j N needs the harness to make the chance events (the first disagreement "
                 "is replayed here): with a program that makes its own, split the run with "
                 "--shard K/N")
            return EXIT_USAGE
        if not args.quiet:
            _header(args, program, command, seed, scope, program_chance, human)
        add_rulesets(known.values())  # a reproducer of a house game is checked against it
        campaign = Campaign(scope, session, seed, Games(default_spec().rulesets),
                            program_chance=program_chance, chance_tries=chance != "program",
                            pack_tries=chance == "harness")
        if args.jobs > 1 and not args.worker_dir:
            outcome = _in_jobs(args, campaign, seed, command)
        else:
            outcome = _campaign(args, campaign, scope, seed)
        if outcome is None:
            return EXIT_FOUND
    finally:
        session.close()
    from napkit.conform.fuzz.report import rules_in_force

    return _report(args, outcome, seed, command, program, scope, rules_in_force(scope), human)


def _header(args: argparse.Namespace, program: str, command: list[str], seed: int,
            scope: Scope, program_chance: bool, human: Any) -> None:
    shard = f", shard {args.shard[0]}/{args.shard[1]}" if args.shard != (1, 1) else ""
    _tell(f"napkit fuzz: {program} ({' '.join(command)}), seed {seed}{shard}", file=human)
    _tell("  " + _scope_line(scope), file=human)
    for note in scope.notes:
        _tell(f"  note: {note}", file=human)
    if program_chance:
        _tell("  the program makes the chance events (deals, shuffles, cuts): a "
              "disagreement is not shrunk", file=human)
    if scope.skips_forced:
        _tell("  the program takes its forced passes itself (supports.forced_passes "
              "\"skipped\"): they are not sent, nor tried illegally", file=human)
    human.flush()


def _campaign(args: argparse.Namespace, campaign: Campaign, scope: Scope, seed: int
              ) -> Outcome | None:
    """Run the campaign with a progress bar; None (said) if it could not go on."""
    from napkit.conform.fuzz.jobs import Worker
    from napkit.conform.fuzz.report import rules_in_force
    from napkit.longrun import settle
    from napkit.output.progress import Progress
    from napkit.output.tables import counted
    from napkit.protocol.process import ProtocolError

    hands = args.hands if args.hands is not None or args.seconds is not None else DEFAULT_HANDS
    progress = Progress(hands, "hands", "napkit fuzz", sys.stderr, every=0,
                        enabled=not args.quiet)
    in_force = rules_in_force(scope)

    worker = Worker(args.worker_dir, args.shard) if args.worker_dir else None

    def tick(reach: Reach) -> None:
        found = campaign.found_so_far
        note = f", {counted(found, 'disagreement')}" if found else ""
        progress.step(note=f"{len(reach.rules & in_force)}/{len(in_force)} rules{note}")
        if worker is not None:
            worker.tick(reach)

    settle()
    try:
        outcome = campaign.run(hands, args.seconds, args.shard, tick,
                               shrink_seconds=args.shrink_seconds, do_shrink=not args.no_shrink,
                               beyond=worker.beyond if worker is not None and args.first
                               else None, first=args.first, known=args.known_differences,
                               leave_time=args.leave_shrink_time or not args.no_shrink)
        if worker is not None and args.first and outcome.new:
            worker.found(outcome.new[0].index)
        if campaign.problem:
            progress.finish()
            _say(f"the program {campaign.problem} (seed {seed}): the run stopped there")
        return outcome
    except ProtocolError as exc:  # it died and cannot be started again
        progress.finish()
        _say(f"the program {exc.message} (seed {seed})")
    except (RuleError, SpecError, ValueError, AssertionError, RuntimeError) as exc:
        progress.finish()  # a bug of napkit's own: one line, and how to replay it
        _say(f"napkit could not go on ({type(exc).__name__}: {exc}); please report it with "
             f"the command line and seed {seed}")
    finally:
        progress.finish()
    return None


def _in_jobs(args: argparse.Namespace, campaign: Campaign, seed: int, command: list[str]
             ) -> Outcome | None:
    """``-j N``: the campaign in N worker processes (napkit.conform.fuzz.jobs)."""
    import time

    from napkit.conform.fuzz.jobs import replayer, run_jobs

    hands = args.hands if args.hands is not None or args.seconds is not None else DEFAULT_HANDS
    deadline = None if args.seconds is None else time.monotonic() + args.seconds

    def argv(shard: tuple[int, int], share: int | None, report: str, folder: str) -> list[str]:
        line = [sys.executable, "-m", "napkit", "fuzz", "-q", "--no-shrink", "--seed", str(seed),
                "--shard", f"{shard[0]}/{shard[1]}", "--json", report, "-o",
                report + ".case", "--worker-dir", folder, "--timeout", str(args.timeout),
                "--start-timeout", str(args.start_timeout)]
        if share is not None:
            line += ["--hands", str(share)]
        if args.seconds is not None:
            line += ["--seconds", str(args.seconds)]
        for flag, values in (("--ruleset", args.rulesets), ("--option", args.options),
                             ("--players", args.players), ("--kind", args.kinds),
                             ("--ruleset-file", args.ruleset_files)):
            for value in values:
                line += [flag, str(value)]
        if args.program_deals:
            line.append("--program-deals")
        if args.first:
            line.append("--first")
        if not args.no_shrink:
            line.append("--leave-shrink-time")
        if args.known_path is not None:
            line += ["--known", str(args.known_path)]
        return [*line, "--", *command]

    outcome, problem = run_jobs(argv, args.jobs, args.shard, hands, args.quiet,
                                replayer(campaign, args.shrink_seconds, not args.no_shrink,
                                         deadline), first=args.first)
    if outcome is None:
        _say(problem)
        return None
    return outcome


def _scope_line(scope: Scope) -> str:
    ids = [p.id for p in scope.rulesets]
    choices = sum(len(c) for p in scope.rulesets for _, c in p.options)
    return (f"fuzzing {len(ids)} ruleset{'s' if len(ids) != 1 else ''} ({', '.join(ids)}), "
            f"{choices} option choices and the declared table sizes; kinds: "
            f"{', '.join(sorted(scope.kinds))}")


def _report(args: argparse.Namespace, outcome: Outcome, seed: int, command: list[str],
            program: str, scope: Scope, in_force: set[str], human: Any) -> int:
    from napkit.conform.fuzz.campaign import PROGRAM_LOST
    from napkit.conform.fuzz.report import json_report
    from napkit.output.files import OutputFile
    from napkit.output.tables import counted

    reach = outcome.reach
    played = outcome.played or outcome.seconds
    rate = reach.hands / played if played > 0 else 0.0
    cases = _write_reproducers(args, outcome, seed, program)
    if not args.quiet:
        _tell(file=human)
        for line in _reach_lines(reach, in_force):
            _tell(line, file=human)
    shrinking = outcome.seconds - played
    took = (f"{outcome.seconds:.1f} s ({played:.1f} s playing, {shrinking:.1f} s shrinking)"
            if shrinking >= 0.05 else f"{outcome.seconds:.1f} s")
    words = (f"{counted(reach.episodes, 'episode')} ({counted(reach.hands, 'hand')}, "
             f"{counted(reach.steps, 'step')}) in {took}, {rate:.0f} hands/s playing")
    if outcome.groups:
        _tell(file=human)
        for line in _group_lines(outcome):
            _tell(line, file=human)
    new = outcome.new
    if new:  # the verdict itself: drawn with -q too
        for place, group in enumerate(new, 1):
            _tell(file=human)
            for line in _drawn(args, group, place, len(new), cases, command):
                _tell(line, file=human)
    _tell(file=human)
    what = {"interrupted": "interrupted", "time": "time up", "hands": "done",
            "found": "stopped at the first (--first)"}.get(outcome.stopped, outcome.stopped)
    known = [g for g in outcome.groups if g.known is not None]
    also = f"; {counted(len(known), 'known difference')} met, not failed" if known else ""
    if not new:
        _tell(f"ok: no {'new ' if known else ''}disagreement: {words} ({what}{also}; seed "
              f"{seed})", file=human)
    else:
        names = ", ".join(g.key for g in new[:6]) + (", ..." if len(new) > 6 else "")
        _tell(f"FAILED: {counted(len(new), 'distinct disagreement')} ({names}): {words} "
              f"({what}{also}; seed {seed})", file=human)
    human.flush()
    status = EXIT_FOUND if new or outcome.stopped == PROGRAM_LOST else EXIT_OK
    if args.write_known is not None:
        status = _write_known(args, outcome, status)
    if args.json:
        hands = args.hands if args.hands is not None or args.seconds is not None else (
            DEFAULT_HANDS)
        report = json_report(outcome, seed, program, command, scope, cases, in_force,
                              args.shard, (hands, args.seconds))
        try:
            with OutputFile(args.json) as out:
                out.commit(json.dumps(report, indent=2, sort_keys=True) + "\n")
        except OSError as exc:
            _say(f"cannot write the JSON report {args.json}: {exc.strerror or exc}")
            return EXIT_FOUND
    if outcome.stopped == "interrupted" and not new:
        return 130
    return status


def _write_reproducers(args: argparse.Namespace, outcome: Outcome, seed: int, program: str
                       ) -> dict[str, dict[str, Any]]:
    """Each new disagreement's reproducer case written (``group.reproducer``: its file); the
    cases by signature."""
    from napkit.conform.fuzz.reproducer import reproducer_case
    from napkit.conform.suite.cases import case_path
    from napkit.output.files import OutputFile

    rerun = _rerun_command(args, seed)
    cases: dict[str, dict[str, Any]] = {}
    paths: set[str] = set()
    for place, group in enumerate(outcome.new, 1):
        found = group.found
        if found is None:
            continue
        case = reproducer_case(found.episode, found.disagreement, seed, rerun, program,
                               shrunk=_shrunk_line(found))
        path = _out_path(args.out, place) or case_path(case["id"]).name  # fuzz-SEED-EPISODE
        if path in paths:  # two disagreements of one episode: a case and a file each
            case["id"] += f"-{place}"
            path = case_path(case["id"]).name
        paths.add(path)
        cases[group.key] = case
        try:
            with OutputFile(path) as out:
                out.commit(json.dumps(case, indent=2, sort_keys=True) + "\n")
            group.reproducer = path
        except OSError as exc:
            _say(f"cannot write the reproducer {path}: {exc.strerror or exc}")
    return cases


def _out_path(out: str | None, place: int) -> str | None:
    """``-o FILE`` for the first disagreement, FILE's name with ``-N`` for the N-th after."""
    if out is None or place == 1:
        return out
    path = Path(out)
    return str(path.with_name(f"{path.stem}-{place}{path.suffix}"))


def _group_lines(outcome: Outcome) -> list[str]:
    """The distinct disagreements as a table: the rule and its title, how often, as what kinds
    of difference, where first, and the reproducer (or why there is none); the known ones
    after, marked."""
    from napkit.output.tables import counted, cut, table
    from napkit.spec.catalog import default_spec

    lawbook = default_spec().lawbook
    groups = outcome.new + [g for g in outcome.groups if g.known is not None]
    known = len(groups) - len(outcome.new)
    lines = [f"disagreements: {counted(len(outcome.new), 'distinct one')}"
             + (f" and {known} known" if known else "")
             + f", in {outcome.reach.disagreed:,} of {outcome.reach.episodes:,} "
             f"episode{'' if outcome.reach.episodes == 1 else 's'}:"]
    rows: list[list[str | int | None]] = []
    for place, group in enumerate(groups, 1):
        if group.known is not None:
            where = f"known: {group.known}"
        elif group.reproducer:
            where = f"{group.reproducer} ({_shrunk_words(group.found)})"
        else:
            where = group.note or "no reproducer written"
        rule = lawbook.get(group.rule) if group.rule else None
        shown = ", ".join(f"{kind} {n}" if len(group.differences) > 1 else kind
                          for kind, n in group.differences.most_common()) or group.difference
        rows.append([str(place) if group.known is None else "-", group.key,
                     cut(rule.title, 32) if rule is not None else "", group.count,
                     cut(shown, 44), f"episode {group.index}", cut(where, 60)])
    lines += ["  " + line for line in table(
        ["", "rule", "", "times", "shown as", "first seen", "reproducer"], rows, "<<<><<<",
        rule=True)]
    return lines


def _shrunk_words(found: Found | None) -> str:
    if found is None:
        return "not shrunk"
    if found.shrinking is None:
        return "not shrunk" if not found.note else found.note.split(":")[0]
    return f"{len(found.first.steps)} -> {len(found.episode.steps)} steps"


def _drawn(args: argparse.Namespace, group: Group, place: int, count: int,
           cases: dict[str, dict[str, Any]], command: list[str]) -> list[str]:
    """A new disagreement drawn as a hand (the first SHOWN in full, the others one line)."""
    from napkit.conform.fuzz.episodes import episode_words
    from napkit.conform.fuzz.reproducer import readable

    found = group.found
    head = (f"{place} of {count}. {group.key}: {_times(group.count)}, first in episode "
            f"{group.index} after {group.seconds_to_find:.1f} s")
    if found is None:
        return [head, f"  {group.note or group.message}"]
    head += f": {episode_words(found.first)}"
    if place > SHOWN:
        return [head, f"  {found.disagreement.message}"
                + (f" (reproducer: {group.reproducer})" if group.reproducer else "")]
    lines = [head, _shrunk_line(found), ""]
    case = cases.get(group.key)
    if case is not None:
        lines += readable(found.episode, found.disagreement, case)
    if group.reproducer:
        rerun = " ".join(["napkit", "conform", "--case", group.reproducer]
                         + [f"--ruleset-file {p}" for p in args.ruleset_files]
                         + ["--", *command])
        lines += ["", f"reproducer: {group.reproducer} (rerun: {rerun})"]
    return lines


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _write_known(args: argparse.Namespace, outcome: Outcome, status: int) -> int:
    """``--write-known FILE``: the run's disagreements written as known; the status 0 once
    written (every disagreement is then expected), else ``status``."""
    from napkit.conform.fuzz.groups import known_text
    from napkit.output.files import OutputFile

    try:
        with OutputFile(str(args.write_known)) as out:
            out.commit(known_text([(g.key, g.message) for g in outcome.groups],
                                  args.known_differences))
    except OSError as exc:
        _say(f"cannot write --write-known {args.write_known}: {exc.strerror or exc}")
        return EXIT_FOUND
    _say(f"wrote {args.write_known}: {len(outcome.groups)} disagreements of this run known "
         f"(rerun with --known {args.write_known})")
    return EXIT_OK if outcome.stopped != "interrupted" else status


def _shrunk_line(found: Found) -> str:
    before, after = len(found.first.steps), len(found.episode.steps)
    result = found.shrinking
    if result is None:
        return (f"not shrunk ({found.note})" if found.note else
                f"not shrunk: {before} steps")
    how = {"done": "no smaller episode fails the same way", "tries": "try budget spent",
           "time": "time budget spent"}.get(result.stopped, result.stopped)
    extra = f"; {found.note}" if found.note else ""
    return (f"shrunk from {before} steps to {after} ({result.tries} tries in "
            f"{result.seconds:.1f} s; {how}{extra})")


def _reach_lines(reach: Reach, in_force: set[str]) -> list[str]:
    """What the episodes reached, as a table."""
    lines = ["reached:"]
    events = sorted(reach.events.items(), key=lambda kv: (-kv[1], kv[0]))
    width = max([len(k) for k in reach.events] + [len(k) + 2 for k in reach.breaches] + [10])
    for name, count in events:
        lines.append(f"  {name:<{width}}  {count:>7}")
    if reach.breaches:
        lines.append(f"  illegal tries refused, by refusal ({sum(reach.breaches.values())}):")
        for name, count in sorted(reach.breaches.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"    {name:<{width - 2}}  {count:>7}")
    if reach.unnamed:
        lines.append(f"  refusals that named no rule: {reach.unnamed}")
    lines.append(f"  rules exercised (sampled): {len(reach.rules & in_force)} of "
                 f"{len(in_force)} in force")
    return lines


def _rerun_command(args: argparse.Namespace, seed: int) -> str:
    parts = ["napkit fuzz", f"--seed {seed}"]
    parts += [f"--ruleset {r}" for r in args.rulesets]
    parts += [f"--option {o}" for o in args.options]
    parts += [f"--players {p}" for p in args.players]
    parts += [f"--kind {k}" for k in args.kinds]
    parts += [f"--ruleset-file {shlex.quote(str(p))}" for p in args.ruleset_files]
    if args.program_deals:
        parts.append("--program-deals")
    return " ".join(parts)


__all__ = ["register", "run_fuzz"]

