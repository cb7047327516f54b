"""``napkit perft POSITION... [--depth N] [--divide]``: count the sequences of legal actions from
a position to a depth, as chess programs check a move generator (spec/conformance.md part 5).

The body is :func:`run`; the counting and the reading of positions are
:mod:`napkit.conform.perft.count`. A POSITION is a file (a position of its own, a conformance case,
or
a whole published file) or the id of a published position (``classic/default-3p-deal``; a glob,
``'classic/*'``, or a ruleset id alone for all of a ruleset's). With ``--depth`` and one
position it prints that count (and, with ``--divide``, the count under each first action);
otherwise it checks every count the positions publish (``--slow`` adds those marked slow).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from napkit.cli.common import (
    EXIT_PROBLEMS,
    Commands,
    print_lines,
    seconds_value,
    whole_value,
)
from napkit.errors import RuleError, UsageError

if TYPE_CHECKING:
    from napkit.conform.perft.count import Count, Position, State
    from napkit.protocol.process import Session

# The counting and the reading of positions (napkit.conform.perft.count, the engine, the schemas)
# are
# imported when the command runs, not when napkit's parser is built: 'napkit --help' stays fast.

DESCRIPTION = """\
Count the sequences of legal actions from a position to a depth: Nap's perft, with which a
program's author checks their own move generator against published counts, in their own test
suite and at native speed (spec/conformance.md part 5).

A position is a game and the steps played in it: a start request (start-hand or start-match)
and steps {"seat", "action"}, chance's included, as a conformance case gives them. The count
at depth N is the number of leaves of the tree of play N actions deep: a node is a leaf once N
actions are taken, where chance is to act (a deal, reshuffle, shuffle, cut or choice of
dealer: chance never branches) or where the hand or match is over. Depth 1 is the number of
legal actions.

POSITION is a file (one position as {"start", "steps"}, a conformance case, or a published
file of many) or the id of a published position (conformance/perft/RULESET.json): an id, a
glob ('classic/*') or a ruleset id for all of its positions. With --depth and one position the
count is printed, with --divide the count under each first action too, and --after ACTION
goes on from the position after that action (follow the first action whose count differs
from your program's, one level at a time). Otherwise every count the positions publish is
checked (those marked slow with --slow). A published count that differs is reported and the
exit status is 1.

With --program COMMAND... (the rest of the line; none: napkit's own adapter) the counts are
asked of a program over the adapter protocol, one that declares supports.perft
(spec/conformance.md 5.3), as 'napkit perft classic --program node my-nap.js'. Where its count
differs, napkit follows the difference down through the program's divide to the point where
its legal actions differ from the engine's, and names them.
"""

EPILOG = """\
examples:
  napkit perft classic/default-3p-deal --depth 4 --divide
  napkit perft classic/default-3p-deal --depth 3 --divide --after pass
  napkit perft classic
  napkit perft 'pagat*/*-lead'
  napkit perft peep/default-4p-deal --slow
  napkit perft my-position.json --depth 3
  napkit perft conformance/cases/pagat/legal/0000-hand.json --steps 5 --depth 4
  napkit perft --list peep
  napkit perft classic --program

Exit status: 0 when every count agrees with the published one (or none is published), 1 when
one differs or a file is not a good position (its JSON path, and the rule id of a refused
step, are named), 2 for a usage error.
"""


def register(commands: Commands) -> None:
    command = commands.add_parser(
        "perft", help="count the legal action sequences from a position (perft, divide)",
        description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    command.set_defaults(run=lambda args: run(args.positions, depth=args.depth,
                                              divide_first=args.divide, slow=args.slow,
                                              as_json=args.json, listing=args.list,
                                              after=args.after, steps=args.steps,
                                              program=args.program, timeout=args.timeout))
    command.add_argument("positions", nargs="*", metavar="POSITION",
                         help="a position file, or a published position's id or glob")
    command.add_argument("--depth", type=whole_value("a depth", 0, 60), metavar="N",
                         help="count to this depth (else every published depth)")
    command.add_argument("--divide", action="store_true",
                         help="the count under each first action (one position, with --depth)")
    command.add_argument("--slow", action="store_true",
                         help="check the published counts marked slow too")
    command.add_argument("--json", action="store_true", help="print the results as JSON")
    command.add_argument("--steps", type=whole_value("a number of steps", 0), metavar="K",
                         help="count from the position after the first K steps of POSITION "
                              "(a case's, say) instead of all of them")
    command.add_argument("--after", action="append", default=[], metavar="ACTION",
                         help="count from the position after this action of the player to "
                              "act, as typed ('10H', 'bid nap', 'pass'; repeatable, in order): "
                              "follow a divide down")
    command.add_argument("--list", action="store_true",
                         help="list the published positions (those POSITION selects, or all)")
    command.add_argument("--timeout", type=seconds_value, default=60.0, metavar="S",
                         help="with --program: the seconds a request may take (default 60)")
    command.add_argument("--program", nargs=argparse.REMAINDER, metavar="COMMAND",
                         help="ask the counts of this program over the adapter protocol (it "
                              "declares supports.perft; the rest of the line is its command; "
                              "none: napkit's own adapter) and find where a count differs")


# --- the command ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """One count: the position, the depth, the count, the published count (if any), the
    seconds it took (shared by the depths counted in one walk)."""

    position: Position
    depth: int
    count: int
    published: int | None
    seconds: float

    @property
    def agrees(self) -> bool:
        return self.published is None or self.published == self.count

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position.id, "file": self.position.file,
                "depth": self.depth, "count": self.count, "published": self.published,
                "agrees": self.agrees, "seconds": round(self.seconds, 6)}


def run(arguments: Sequence[str], depth: int | None = None, divide_first: bool = False,
        slow: bool = False, as_json: bool = False, listing: bool = False,
        after: Sequence[str] = (), steps: int | None = None,
        program: Sequence[str] | None = None, timeout: float = 60.0) -> int:
    """``napkit perft``: 0 when every count agrees with its published count, 1 otherwise."""
    if listing:
        return _list(arguments)
    if not arguments:
        raise UsageError("name a position: a file, or a published id ('napkit perft --list' "
                         "lists them)")
    positions = _positions(arguments)
    if steps is not None:
        if len(positions) != 1 or depth is None:
            raise UsageError("--steps cuts one position: give one POSITION and --depth N")
        positions = [_first_steps(positions[0], steps)]
    if after:
        if len(positions) != 1 or depth is None:
            raise UsageError("--after goes on from one position: give one POSITION and "
                             "--depth N")
        positions = [_after(positions[0], after)]
    if divide_first and (depth is None or len(positions) != 1):
        raise UsageError("--divide counts one position to one depth: give one POSITION and "
                         "--depth N")
    if program is not None:
        if divide_first or as_json:
            raise UsageError("--program checks counts; --divide and --json are for napkit's "
                             "own (a difference is followed down by itself)")
        from napkit.cli.conform import reference_command

        return _check_program(positions, list(program) or reference_command(), depth, slow,
                              timeout)
    if depth is not None and len(positions) == 1:
        return _one(positions[0], depth, divide_first, as_json)
    return _check(positions, depth, slow, as_json)


def _positions(arguments: Sequence[str]) -> list[Position]:
    from napkit.conform.perft.count import load_file, published, published_files

    found: list[Position] = []
    ids: list[str] = []
    for argument in arguments:
        if argument.endswith(".json") or Path(argument).is_file():
            found += load_file(Path(argument), argument)
        else:
            ids.append(argument)
    if ids:
        try:
            found += published(ids)
        except LookupError as exc:
            known = sorted(published_files())
            raise UsageError(f"no published position is {exc.args[0]!r} (the published "
                             f"files are of {', '.join(known) or 'no ruleset'}; "
                             "'napkit perft --list' lists the positions)") from None
    return found


def _first_steps(position: Position, steps: int) -> Position:
    """The position after the first ``steps`` of its steps; its counts are not published."""
    from dataclasses import replace

    if steps > len(position.steps):
        raise UsageError(f"--steps {steps}: {position.id} has {len(position.steps)} steps")
    return replace(position, id=f"{position.id} (its first {steps} steps)",
                   steps=position.steps[:steps], counts=())


def _after(position: Position, texts: Sequence[str]) -> Position:
    """The position after ``texts``, each an action of the player to act as typed; its counts
    are no longer the published ones."""
    from dataclasses import replace

    from napkit.engine.acting import act
    from napkit.formats.notation import NotationError, parse_action
    from napkit.formats.values import action_to_json

    state = position.state()
    steps = list(position.steps)
    for text in texts:
        if state.turn < 0:
            raise UsageError(f"--after {text!r}: no player is to act (chance is to act, or "
                             "play is over)")
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise UsageError(f"--after: {exc}") from None
        seat = state.turn
        try:
            state = act(state, seat, action)
        except RuleError as exc:
            raise UsageError(f"--after {text!r}: seat {seat} may not: {exc.rule}: "
                             f"{exc.message}") from None
        steps.append({"seat": seat, "action": action_to_json(action)})
    return replace(position, id=f"{position.id} after {', '.join(texts)}", steps=tuple(steps),
                   counts=())


def _list(arguments: Sequence[str]) -> int:
    from napkit.conform.perft.count import published

    try:
        positions = published(arguments or ["*"])
    except LookupError as exc:
        raise UsageError(f"no published position is {exc.args[0]!r}") from None
    width = max((len(p.id) for p in positions), default=0)
    lines = []
    for position in positions:
        fast = [c for c in position.counts if not c.slow]
        slow = [c for c in position.counts if c.slow]
        text = f"depths {_span(fast)}" if fast else "no fast depth"
        if fast:
            text += f" (to {fast[-1].count:,})"
        if slow:
            text += f"; slow {_span(slow)} (to {slow[-1].count:,})"
        lines.append(f"{position.id:<{width}}  {text}")
    lines.append(f"{len(positions)} positions (a slow count is checked with --slow)")
    print_lines(lines)
    return 0


def _span(counts: Sequence[Count]) -> str:
    first, last = counts[0].depth, counts[-1].depth
    return f"{first}" if first == last else f"{first}-{last}"


def _one(position: Position, depth: int, divide_first: bool, as_json: bool) -> int:
    """One position to one depth: the count, and with ``divide_first`` the count under each
    first action."""
    from napkit.conform.perft.count import action_text, divide, perft, warm
    from napkit.formats.values import action_to_json

    state = position.state()
    warm(state)
    began = time.perf_counter()
    with _walking(position):
        parts = divide(state, depth) if divide_first else []
        # No parts where no player is to act (chance, or over) or at depth 0: a leaf.
        total = sum(n for _, n in parts) if parts else perft(state, depth)
    seconds = time.perf_counter() - began
    known = position.published(depth)
    result = Result(position, depth, total, None if known is None else known.count, seconds)
    if as_json:
        out = result.to_json()
        if divide_first:
            out["divide"] = [{"action": action_to_json(a), "text": action_text(a), "count": n}
                             for a, n in parts]
        print_lines([json.dumps(out, ensure_ascii=False)])
        return 0 if result.agrees else EXIT_PROBLEMS
    lines = _header(position, state)
    if divide_first and not parts:
        lines += ["", "no player is to act here: the position is a leaf, counted 1 at every "
                      "depth (--steps K counts from an earlier point of it)"]
    elif divide_first:
        from napkit.output.tables import table

        rows = [[action_text(a), f"{n:,}"] for a, n in parts]
        rows.append(["total", f"{total:,}", f"({len(parts)} first actions)"])
        lines += ["", *table(["first action", "count"], rows, "<><")]
    lines.append(f"perft {depth}: {total:,}{_verdict(result)}; {_speed(total, seconds)}")
    print_lines(lines)
    return 0 if result.agrees else EXIT_PROBLEMS


@contextlib.contextmanager
def _walking(position: Position) -> Iterator[None]:
    """A walk that meets an action the engine lists as legal and then refuses (an engine with a
    bug: a mutant, say) ends with one line naming the position and the rule, not a traceback."""
    try:
        yield
    except RuleError as exc:
        raise position.error([], f"the count stopped: an action listed as legal below this "
                                 f"position is refused: {exc.rule}: {exc.message}") from None


def _header(position: Position, state: State) -> list[str]:
    from napkit.conform.perft.count import describe, step_text

    where = f" ({position.file})" if position.file and position.file != position.id else ""
    steps = len(position.steps)
    last = f" (the last: {step_text(position.steps[-1])})" if steps else ""
    return [f"position {position.id}{where}",
            f"game     {_game_text(position)}",
            f"after    {steps} step{'s' * (steps != 1)}{last}; now {describe(state)}"]


def _game_text(position: Position) -> str:
    from napkit.spec.catalog import default_spec

    start = position.start
    ruleset = default_spec().rulesets.get(position.ruleset)
    defaults = {n: o.default for n, o in ruleset.options.items()} if ruleset else {}
    changed = [f"{n}={c}" for n, c in sorted(position.options.items()) if defaults.get(n) != c]
    options = f" ({', '.join(changed)})" if changed else ""
    if start["type"] == "start-match":
        length = f"{start['hands']} hands" if start["hands"] is not None else "no agreed length"
        return f"{position.ruleset}{options}, a match of {position.players} players, {length}"
    return (f"{position.ruleset}{options}, a hand of {position.players} players, dealer seat "
            f"{start['dealer']}")


def _verdict(result: Result) -> str:
    if result.published is None:
        return ""
    if result.agrees:
        return " (agrees with the published count)"
    return f" (DIFFERS: the published count is {result.published:,})"


def _speed(count: int, seconds: float) -> str:
    rate = f"{count / seconds:,.0f} nodes/s" if seconds > 0 else "instant"
    return f"{seconds:.3f} s, {rate}"


def _check(positions: Sequence[Position], depth: int | None, slow: bool, as_json: bool) -> int:
    """Every published count of ``positions`` (or each to ``depth``): a row per position,
    printed as it is counted, with its depths, its deepest count and whether each agrees."""
    from napkit.conform.perft.count import perft_levels, warm

    plans: list[tuple[Position, list[int]]] = []
    for position in positions:
        if depth is None and not position.counts:
            raise UsageError(f"{position.file or position.id}: publishes no counts; give "
                             "--depth N")
        plans.append((position, [depth] if depth is not None else
                      [c.depth for c in position.counts if slow or not c.slow]))
    width = max([len("position"), *(len(p.id) for p, _ in plans)])
    if not as_json:
        print_lines([f"{'position':<{width}}  {'depths':>6}  {'count':>11}"])
    results: list[Result] = []
    seconds = 0.0
    nodes = 0
    for position, depths in plans:
        state = position.state()
        warm(state)
        began = time.perf_counter()
        with _walking(position):
            levels = perft_levels(state, max(depths, default=0))
        took = time.perf_counter() - began
        seconds += took
        mine = []
        for d in depths:
            known = position.published(d)
            mine.append(Result(position, d, levels[d - 1] if d else 1,
                               None if known is None else known.count, took))
        results += mine
        nodes += max((r.count for r in mine), default=0)
        if not as_json:
            print_lines([_row(position, mine, width)])
    wrong = [r for r in results if not r.agrees]
    compared = [r for r in results if r.published is not None]
    if as_json:
        print_lines([json.dumps({"counts": [r.to_json() for r in results],
                                 "agree": not wrong}, ensure_ascii=False)])
    else:
        verdict = (f"{len(wrong)} of {len(compared)} published counts DIFFER" if wrong else
                   f"all {len(compared)} published counts agree")
        print_lines([f"{verdict} ({len(results)} counts of {len(plans)} positions; "
                     f"{_speed(nodes, seconds)})"])
    return EXIT_PROBLEMS if wrong else 0


def _check_program(positions: Sequence[Position], command: Sequence[str], depth: int | None,
                   slow: bool, timeout: float) -> int:
    """The counts of ``positions`` asked of a program over the protocol (spec/conformance.md
    5.3): a row per position, and where a count differs, where the legal actions differ."""
    from napkit.conform.perft.check import skip
    from napkit.output import tables
    from napkit.output.tables import printable, printable_lines
    from napkit.protocol.process import ProtocolError, Session, process_opener

    session = Session(process_opener(list(command)), timeout)
    try:
        hello = session.open()
    except ProtocolError as exc:
        print(printable(f"napkit: the program {' '.join(command)} could not be started: it "
                        f"{exc.message}"), file=sys.stderr)
        return EXIT_PROBLEMS
    name = printable(hello.name)  # the program's, text from outside
    if hello.supports.get("perft") is not True:
        session.close()
        print(f"napkit: {name} does not declare supports.perft: it answers no perft "
              "request (spec/conformance.md 5.3)", file=sys.stderr)
        return EXIT_PROBLEMS
    width = max([len("position"), *(len(p.id) for p in positions)])
    print_lines([f"{name} ({' '.join(command)})",
                 f"{'position':<{width}}  {'depths':>6}  {'count':>11}"])
    counted = wrong = skipped = 0
    began = time.perf_counter()
    try:
        for position in positions:
            reason = skip(position, hello.supports)
            if reason is not None:
                skipped += 1
                print_lines([f"{position.id:<{width}}  {'-':>6}  {'-':>11}  skipped: {reason}"])
                continue
            asked, differ, lines = _program_rows(session, position, depth, slow, width)
            counted += asked
            wrong += differ
            print_lines(printable_lines(lines))  # they quote the program's answers
    finally:
        session.close()
    verdict = (f"{tables.counted(wrong, 'position')} DIFFER" if wrong else "all agree"
               if counted else "NOTHING CHECKED")
    left_out = f"; {tables.counted(skipped, 'position')} skipped" if skipped else ""
    print_lines([f"{tables.counted(counted, 'count')} asked of "
                 f"{tables.counted(len(positions) - skipped, 'position')}: {verdict}{left_out} "
                 f"({time.perf_counter() - began:.2f} s)"])
    return EXIT_PROBLEMS if wrong or not counted else 0


def _program_rows(session: Session, position: Position, depth: int | None, slow: bool,
                  width: int) -> tuple[int, int, list[str]]:
    """One position asked of the program: the counts asked, how many differ (or failed), and
    its row (and the finding, where a count differs)."""
    from napkit.conform.perft.check import check_position, expected_counts
    from napkit.protocol.process import ProtocolError

    state = position.state()
    expected = expected_counts(position, state, [depth] if depth is not None else [], slow)
    if not session.alive:
        session.open()
    try:
        results = check_position(session, position, state, expected)
    except ProtocolError as exc:
        session.kill()
        return 0, 1, [f"{position.id:<{width}}  {'-':>6}  {'-':>11}  FAILED: the program "
                      f"{exc.message}"]
    bad = [r for r in results if not r.agrees]
    first, last = min(expected, default=0), max(expected, default=0)
    depths = f"{first}-{last}" if first != last else f"{first}"
    shown = "-" if not results or results[-1].got is None else f"{results[-1].got:,}"
    if not bad:
        return len(results), 0, [f"{position.id:<{width}}  {depths:>6}  {shown:>11}  ok"]
    wrong = bad[0]
    if wrong.problem:
        verdict = f"FAILED at depth {wrong.depth}: {wrong.problem}"
    else:
        verdict = (f"DIFFERS at depth {wrong.depth}: {wrong.got:,} counted by the program, "
                   f"{wrong.expected:,} expected")
        if wrong.depth != last:
            verdict += " (the deeper depths not asked)"
    lines = [f"{position.id:<{width}}  {depths:>6}  {shown:>11}  {verdict}"]
    if wrong.finding:
        lines.append(f"{'':<{width}}  {wrong.finding}")
    return len(results), 1, lines


def _row(position: Position, results: Sequence[Result], width: int) -> str:
    """A position's row: its depths (``1-6``), the count at the deepest, and the verdict: the
    first depth whose count differs from the published one, else ``ok``."""
    if not results:
        return f"{position.id:<{width}}  {'-':>6}  {'-':>11}  (no count to check)"
    first, last = results[0].depth, results[-1].depth
    depths = f"{first}" if first == last else f"{first}-{last}"
    wrong = [r for r in results if not r.agrees]
    if wrong:
        more = f" (and at {len(wrong) - 1} more depths)" if len(wrong) > 1 else ""
        verdict = (f"DIFFERS at depth {wrong[0].depth}: {wrong[0].count:,} counted, "
                   f"{wrong[0].published:,} published{more}")
    elif all(r.published is None for r in results):
        verdict = "(none published)"
    else:
        verdict = "ok"
    return f"{position.id:<{width}}  {depths:>6}  {results[-1].count:>11,}  {verdict}"


__all__ = ["Result", "register", "run"]
