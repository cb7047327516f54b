"""``napkit fuzz [OPTIONS] [-- COMMAND...]``: check a Nap program on random hands and matches
against the reference engine, and hand back the smallest hand that shows the first bug.

Without a command the program is napkit's own reference adapter. Exit status: 0 when the
budget was spent without a disagreement, 1 when the program disagreed (the reproducer is
written and shown) or could not be run (among them a handshake naming an option or a choice
its ruleset does not have), 2 for a usage error, 130 when interrupted (143 by SIGTERM).
"""

from __future__ import annotations

import argparse
import json
import random
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
    from napkit.conform.fuzz.campaign import Campaign, Found, Outcome, Reach
    from napkit.conform.fuzz.episodes import Scope
    from napkit.spec.rulesets import Ruleset

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
DEFAULT_HANDS = 1000

EPILOG = """\
examples:
  napkit fuzz --seconds 60 -- node my-nap.js
  napkit fuzz --ruleset classic --players 4 --hands 5000 -- ./my-nap --adapter
  napkit fuzz --seed 12345 --hands 200 -- python my_nap.py      (replays that run exactly)
  napkit fuzz --ruleset-file house.json -- ./my-house-nap

The program speaks napkit-adapter/1 (spec/conformance.md). Every ruleset, option choice and
table size it declares in its handshake is fuzzed (narrow with --ruleset, --option,
--players): hands and matches of random play biased to reach the rare parts of the game
(five-trick bids made and lost, misères, throw-ins, looks, purchases, exchanges, knock-outs),
with illegal actions tried along the way. At every step its turn and legal actions are
compared with the reference engine's, every illegal try must be refused under its rule, and
every outcome must agree. The first disagreement is shrunk to the smallest episode that still
shows it and written as a conformance case (napkit-case/1) that

  napkit conform --case FILE -- COMMAND

runs again. --seed N replays a run exactly: episode I of seed N is always the same.
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
    shrinking = fuzz.add_argument_group("the reproducer")
    shrinking.add_argument("-o", "--out", metavar="FILE",
                           help="where to write the reproducer case (default: "
                                "fuzz-SEED-EPISODE.json here)")
    shrinking.add_argument("--no-shrink", action="store_true",
                           help="write the first disagreement as found")
    shrinking.add_argument("--shrink-seconds", type=seconds_value, default=30.0, metavar="S",
                           help="time allowed for shrinking (default 30)")
    fuzz.add_argument("--program-deals", action="store_true",
                      help="have the program make the chance events (deals, shuffles, cuts), "
                           "where it declares supports.chance \"both\"; always so where it "
                           "declares \"program\" (spec/conformance.md 2.5)")
    fuzz.add_argument("-j", "--jobs", type=jobs_value, default=1, metavar="N",
                      help="N worker processes, each with the program (0 or auto: one per core); "
                           "the same episodes and the same first disagreement as -j 1")
    fuzz.add_argument("--worker-dir", help=argparse.SUPPRESS)  # a worker of -j N: its folder
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
        refuse_clashes([(f, p) for f, p in (("--out", args.out), ("--json", args.json)) if p],
                       [("the program's file", w) for w in command if Path(w).is_file()]
                       + [("--ruleset-file", str(p)) for p in args.ruleset_files])
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
    return _report(args, outcome, seed, command, program, scope, _rules_in_force(scope), human)


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
    human.flush()


def _campaign(args: argparse.Namespace, campaign: Campaign, scope: Scope, seed: int
              ) -> Outcome | None:
    """Run the campaign with a progress bar; None (said) if it could not go on."""
    from napkit.conform.fuzz.jobs import Worker
    from napkit.longrun import settle
    from napkit.output.progress import Progress
    from napkit.protocol.process import ProtocolError

    hands = args.hands if args.hands is not None or args.seconds is not None else DEFAULT_HANDS
    progress = Progress(hands, "hands", "napkit fuzz", sys.stderr, every=0,
                        enabled=not args.quiet)
    in_force = _rules_in_force(scope)

    worker = Worker(args.worker_dir, args.shard) if args.worker_dir else None

    def tick(reach: Reach) -> None:
        progress.step(note=f"{len(reach.rules & in_force)}/{len(in_force)} rules")
        if worker is not None:
            worker.tick(reach)

    settle()
    try:
        outcome = campaign.run(hands, args.seconds, args.shard, tick,
                               shrink_seconds=args.shrink_seconds, do_shrink=not args.no_shrink,
                               beyond=worker.beyond if worker is not None else None)
        if worker is not None and outcome.found is not None:
            worker.found(outcome.found.first.index)
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
    from napkit.conform.fuzz.jobs import replayer, run_jobs

    hands = args.hands if args.hands is not None or args.seconds is not None else DEFAULT_HANDS

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
        return [*line, "--", *command]

    outcome, problem = run_jobs(argv, args.jobs, args.shard, hands, args.quiet,
                                replayer(campaign, args.shrink_seconds, not args.no_shrink))
    if outcome is None:
        _say(problem)
        return None
    if outcome.stopped == "not replayed":
        _say("a worker found a disagreement that did not show again when its episode was "
             "replayed here: the program's answers depend on more than the requests")
    return outcome


def _scope_line(scope: Scope) -> str:
    ids = [p.id for p in scope.rulesets]
    choices = sum(len(c) for p in scope.rulesets for _, c in p.options)
    return (f"fuzzing {len(ids)} ruleset{'s' if len(ids) != 1 else ''} ({', '.join(ids)}), "
            f"{choices} option choices and the declared table sizes; kinds: "
            f"{', '.join(sorted(scope.kinds))}")


def _rules_in_force(scope: Scope) -> set[str]:
    from napkit.spec.catalog import default_spec

    book = default_spec().lawbook
    plays = {r.id for r in book if r.kind == "play"}
    found: set[str] = set()
    for playable in scope.rulesets:
        found |= set(playable.ruleset.rules) & plays
    return found


def _report(args: argparse.Namespace, outcome: Outcome, seed: int, command: list[str],
            program: str, scope: Scope, in_force: set[str], human: Any) -> int:
    from napkit.conform.fuzz.episodes import episode_words
    from napkit.conform.fuzz.reproducer import readable, reproducer_case
    from napkit.conform.suite.cases import case_path
    from napkit.output.files import OutputFile
    from napkit.output.tables import counted

    reach = outcome.reach
    rate = reach.hands / outcome.seconds if outcome.seconds > 0 else 0.0
    written = ""
    case: dict[str, Any] | None = None
    found = outcome.found
    if found is not None:
        rerun = _rerun_command(args, seed)
        case = reproducer_case(found.episode, found.disagreement, seed, rerun, program)
        path = args.out or case_path(case["id"]).name  # fuzz-SEED-EPISODE.json
        try:
            with OutputFile(path) as out:
                out.commit(json.dumps(case, indent=2, sort_keys=True) + "\n")
            written = path
        except OSError as exc:
            _say(f"cannot write the reproducer {path}: {exc.strerror or exc}")
    if not args.quiet:
        _tell(file=human)
        for line in _reach_lines(reach, in_force):
            _tell(line, file=human)
    _tell(file=human)
    words = (f"{counted(reach.episodes, 'episode')} ({counted(reach.hands, 'hand')}, "
             f"{counted(reach.steps, 'step')}) in {outcome.seconds:.1f} s, {rate:.0f} hands/s")
    if found is None:
        what = {"interrupted": "interrupted", "time": "time up", "hands": "done"}.get(
            outcome.stopped, outcome.stopped)
        _tell(f"ok: no disagreement: {words} ({what}; seed {seed})", file=human)
    else:
        assert case is not None
        _tell(f"FOUND after {found.seconds_to_find:.1f} s, in episode "
              f"{found.first.index}: {episode_words(found.first)}", file=human)
        _tell(_shrunk_line(found), file=human)
        _tell(file=human)
        for line in readable(found.episode, found.disagreement, case):
            _tell(line, file=human)
        _tell(file=human)
        if written:
            rerun = " ".join(["napkit", "conform", "--case", written]
                             + [f"--ruleset-file {p}" for p in args.ruleset_files]
                             + ["--", *command])
            _tell(f"reproducer: {written} (rerun: {rerun})", file=human)
        _tell(f"FAILED: {found.disagreement.message} ({words}; seed {seed})", file=human)
    human.flush()
    if args.json:
        hands = args.hands if args.hands is not None or args.seconds is not None else (
            DEFAULT_HANDS)
        report = _json_report(outcome, seed, program, command, scope, case, written, in_force,
                              args.shard, (hands, args.seconds))
        try:
            with OutputFile(args.json) as out:
                out.commit(json.dumps(report, indent=2, sort_keys=True) + "\n")
        except OSError as exc:
            _say(f"cannot write the JSON report {args.json}: {exc.strerror or exc}")
            return EXIT_FOUND
    if outcome.stopped == "interrupted" and found is None:
        return 130
    return EXIT_FOUND if found is not None else EXIT_OK


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
    return " ".join(parts)


def _json_report(outcome: Outcome, seed: int, program: str, command: list[str], scope: Scope,
                 case: dict[str, Any] | None, written: str, in_force: set[str],
                 shard: tuple[int, int] = (1, 1),
                 budget: tuple[int | None, float | None] = (None, None)) -> dict[str, Any]:
    from napkit.conform.fuzz.campaign import episode_seed

    reach = outcome.reach
    found = outcome.found
    report: dict[str, Any] = {
        "format": "napkit-fuzz-report/1",
        "program": program, "command": command, "seed": seed,
        "rulesets": [p.id for p in scope.rulesets], "kinds": sorted(scope.kinds),
        "notes": list(scope.notes),
        "episodes": reach.episodes, "hands": reach.hands, "steps": reach.steps,
        "seconds": round(outcome.seconds, 3), "stopped": outcome.stopped,
        "restarts": outcome.restarts,
        "reached": dict(sorted(reach.events.items())),
        "breaches": dict(sorted(reach.breaches.items())),
        "rules_exercised": sorted(reach.rules & in_force),
        "rule_not_named": reach.unnamed,
        "disagreement": None,
        "shard": {"index": shard[0], "count": shard[1]} if shard != (1, 1) else None,
        "budget": {"hands": budget[0], "seconds": budget[1]},
    }
    if found is not None:
        result = found.shrinking
        report["disagreement"] = {
            "episode": found.first.index,
            "episode_seed": episode_seed(seed, found.first.index),
            "seconds_to_find": round(found.seconds_to_find, 3),
            "message": found.disagreement.message,
            "steps_before_shrinking": len(found.first.steps),
            "steps": len(found.episode.steps),
            "shrink_tries": result.tries if result is not None else 0,
            "shrink_seconds": round(result.seconds, 3) if result is not None else 0.0,
            "reproducer": written or None,
            "case": case,
        }
    return report


__all__ = ["register", "run_fuzz"]

