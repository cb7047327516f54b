"""``napkit rules ...``: read, compare and check the law book and the rulesets;
``napkit play ...``: play hands or a match in the terminal against the engine's own players;
``napkit record ...``: write the record of hands or a match the engine's players play;
``napkit validate ...``: check recorded hands and matches against their schemas and the rules;
``napkit conform ...``: run the conformance suite against a program (napkit.conform.cli);
``napkit adapter``: the reference engine behind the adapter protocol (napkit.adapter).

Bad input of any kind is reported on one line (``napkit: <file>: <path>: <message>``) with
exit status 2 for a usage error and 1 for an invalid spec, ruleset or record file; never a
traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import errno
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TypeVar

from napkit import paths
from napkit.engine.actions import Action, Ante, Buy, ChooseDealer, Deal, Play, Reshuffle, SitOut
from napkit.engine.cards import SUIT_NAMES, card_name
from napkit.engine.game import Game, compile_rules
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.observation import Hidden, PlayerView
from napkit.engine.players import PLAYER_KINDS, make_player, match_view
from napkit.engine.players import trick_seats as _trick_seats
from napkit.engine.state import NO_TRUMPS, POOL
from napkit.errors import (
    ChoiceError,
    IllegalActionError,
    RuleError,
    SpecError,
    SpecProblemsError,
    UsageError,
)
from napkit.formats.notation import NotationError, parse_action
from napkit.formats.records import hand_record, match_record
from napkit.formats.validate import report
from napkit.spec import views
from napkit.spec.catalog import Spec, load_ruleset_file, load_spec, read_spec
from napkit.spec.checks import check_ruleset, check_spec
from napkit.spec.compare import compare
from napkit.spec.render import hand_text
from napkit.spec.rulesets import Ruleset

EXIT_PROBLEMS = 1
EXIT_USAGE = 2

_S = TypeVar("_S", HandState, MatchState)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        print(f"napkit: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="napkit", description="The reference rules kit for Nap.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    rules = commands.add_parser("rules", help="read, compare and check the rules",
                                description="Read, compare and check the law book and rulesets.")
    rules.set_defaults(run=lambda _args: _help(rules))
    sub = rules.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)

    def add(name: str, run: Callable[[argparse.Namespace], int], text: str) -> _Parser:
        command = sub.add_parser(name, help=text, description=text)
        command.set_defaults(run=run)
        assert isinstance(command, _Parser)
        return command

    add("list", _list, "every ruleset, its source and player counts")
    show = add("show", _show, "one ruleset: its rules with citations, options, decisions")
    show.add_argument("ruleset", metavar="RULESET", help="a ruleset id or a ruleset file")
    show.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                      help="play with this option value (repeatable)")
    rule = add("rule", _rule, "one rule, with every ruleset's citation for it")
    rule.add_argument("rule_id", metavar="RULE_ID")
    comp = add("compare", _compare, "where two rulesets differ, rule by rule")
    comp.add_argument("a", metavar="A", help="a ruleset id or a ruleset file")
    comp.add_argument("b", metavar="B", help="a ruleset id or a ruleset file")
    comp.add_argument("--option-a", action="append", default=[], metavar="NAME=CHOICE")
    comp.add_argument("--option-b", action="append", default=[], metavar="NAME=CHOICE")
    decisions = add("decisions", _decisions, "the decisions register, or one decision")
    decisions.add_argument("decision_id", nargs="?", metavar="DEC_ID")
    check = add("check", _check, "check the spec, or ruleset files of your own")
    check.add_argument("files", nargs="*", metavar="FILE")
    _add_play(commands)
    _add_record(commands)
    _add_validate(commands)
    from napkit.conform.cli import add_commands  # napkit conform, napkit adapter

    add_commands(commands, _Parser)
    return parser


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error, already reported on one line
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return run(args)
    except (UsageError, ChoiceError) as exc:
        message = exc.message if isinstance(exc, ChoiceError) else str(exc)
        print(f"napkit: {message}", file=sys.stderr)
        return EXIT_USAGE
    except SpecProblemsError as exc:
        more = " ('napkit rules check' lists them all)" if len(exc.errors) > 1 else ""
        print(f"napkit: {exc}{more}", file=sys.stderr)
        return EXIT_PROBLEMS
    except SpecError as exc:
        print(f"napkit: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    except BrokenPipeError:  # `napkit rules show x | head`: the reader has gone; not an error
        _silence_stdout()
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"napkit: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_PROBLEMS


def _print(lines: list[str]) -> None:
    print("\n".join(lines))
    sys.stdout.flush()  # a closed pipe shows up here, inside main, not at interpreter exit


def _silence_stdout() -> None:
    # The reader of our output has gone: point stdout at /dev/null so that Python's final
    # flush does not fail again (the recipe of the signal module's documentation).
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _spec() -> Spec:
    return load_spec()


def _ruleset(spec: Spec, argument: str) -> Ruleset:
    """A ruleset id of the spec, or the path of a ruleset file."""
    if argument.endswith(".json") or "/" in argument or "\\" in argument:
        return load_ruleset_file(Path(argument), argument, spec)
    ruleset = spec.rulesets.get(argument)
    if ruleset is None:
        raise UsageError(f"no ruleset {argument!r}{_suggest(argument, spec.rulesets)}; "
                         f"the rulesets are {', '.join(sorted(spec.rulesets))}")
    return ruleset


def _suggest(wrong: str, known: Sequence[str] | object) -> str:
    names = list(known) if isinstance(known, Sequence | dict) else []
    close = difflib.get_close_matches(wrong, names, n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def _choices(values: list[str], flag: str) -> dict[str, str]:
    choices: dict[str, str] = {}
    for value in values:
        name, equals, choice = value.partition("=")
        if not equals or not name or not choice:
            raise UsageError(f"{flag} takes NAME=CHOICE, not {value!r}")
        if name in choices and choices[name] != choice:
            raise UsageError(f"{flag} {name} is given twice ({choices[name]}, {choice})")
        choices[name] = choice
    return choices


def _list(_args: argparse.Namespace) -> int:
    _print(views.list_view(_spec()))
    return 0


def _show(args: argparse.Namespace) -> int:
    spec = _spec()
    ruleset = _ruleset(spec, args.ruleset)
    choices = _choices(args.option, "--option")
    ruleset.option_values(choices)  # an unknown option or choice is a usage error
    _print(views.show_view(spec, ruleset, choices))
    return 0


def _rule(args: argparse.Namespace) -> int:
    spec = _spec()
    rule = spec.lawbook.get(args.rule_id)
    if rule is None:
        raise UsageError(f"the law book has no rule {args.rule_id!r}"
                         f"{_suggest(args.rule_id, list(spec.lawbook.rules))}")
    _print(views.rule_view(spec, rule))
    return 0


def _compare(args: argparse.Namespace) -> int:
    spec = _spec()
    a, b = _ruleset(spec, args.a), _ruleset(spec, args.b)
    choices_a = _choices(args.option_a, "--option-a")
    choices_b = _choices(args.option_b, "--option-b")
    differences = compare(a, b, spec.lawbook, choices_a, choices_b)
    _print(views.compare_view(a, b, differences, choices_a=choices_a, choices_b=choices_b))
    return 0


def _decisions(args: argparse.Namespace) -> int:
    spec = _spec()
    if args.decision_id is None:
        _print(views.decisions_view(spec))
        return 0
    decision = spec.register.get(args.decision_id)
    if decision is None:
        raise UsageError(f"the register has no decision {args.decision_id!r}"
                         f"{_suggest(args.decision_id, list(spec.register.by_id))}")
    _print(views.decision_view(spec, decision))
    return 0


def _check(args: argparse.Namespace) -> int:
    if args.files:
        return _check_files(args.files)
    spec, problems = read_spec()
    if not problems:
        problems = check_spec(spec, paths.sources_dir())
    for problem in problems:
        print(problem)
    what = (f"the spec ({len(spec.rulesets)} rulesets, {len(spec.lawbook.rules)} rules, "
            f"{len(spec.register.decisions)} decisions)")
    print(views.check_summary(problems, what))
    if not paths.sources_dir().is_dir():
        print(f"(the sources are not at {paths.sources_dir()}: their line counts and digests "
              "were not compared)")
    return EXIT_PROBLEMS if problems else 0


def _check_files(files: list[str]) -> int:
    spec = _spec()
    problems: list[SpecError] = []
    for file in files:
        try:
            ruleset = load_ruleset_file(Path(file), file, spec)
        except SpecProblemsError as exc:
            problems += exc.errors
            continue
        except SpecError as exc:
            problems.append(exc)
            continue
        problems += check_ruleset(ruleset, spec)
    for problem in problems:
        print(problem)
    count = len(files)
    print(views.check_summary(problems, f"{count} ruleset file{'s' if count != 1 else ''}"))
    return EXIT_PROBLEMS if problems else 0


# --- napkit play ---------------------------------------------------------------------------------
_PLAY_HELP = """\
Play hands of Nap, or a match, in the terminal against the engine's own players, or watch
them play every seat.

With --seat N you play seat N (seats are numbered 0 to players-1, clockwise). Each time it
is your turn the table shows what your seat may know: your hand, the widow if you have
seen it, the contract and trumps, the trick so far, the tricks won, the pool and the
scores; then what you may do. Type an action:

  pass                 pass in the auction
  bid BID              bid by the bid's id in the ruleset: bid three, bid nap-without
  peek                 pay to look at the widow
  buy CARDS            discard these cards and be dealt as many: buy 2C 7D
  buy nothing          keep the hand as dealt
  take / leave         take the widow into your hand, or leave it
  discard CARD         discard a card after taking the widow: discard 3C
  name SUIT            name trumps: name hearts, name H
  play CARD, or CARD   play a card: play 10H, 10H, TH, AS
  ante / sit out       before a hand of a match where sitting out is allowed
  ?                    show the table again

Cards are rank then suit: AS, KH, 10D (or TD), 2C. An action the rules do not allow is
refused with the rule it breaks (NAP-8.1.1: must follow hearts; holds the 9 of hearts) and
you are asked again. End of input (Ctrl-D) abandons the game, with exit status 1.

Without --seat (or with --watch) the engine's players play every seat; each action, trick
and result is printed. --hands K deals K hands (each settled on its own; the totals are
printed at the end); --match plays a match (NAP-10): antes, the pool carried over, the
deal passing left, until its end, or for K hands with --hands K (a ruleset whose match
ends only when the players agree needs --hands).

--seed S makes a run reproducible: the same seed (and the same typed actions) plays and
prints the same game again. Without it a seed is drawn and printed, so any game can be
replayed.

--record FILE also writes the record of what was played, your seat's actions included, as
'napkit record' writes it (replacing FILE only once the game is over; an abandoned game
writes nothing).
"""

_PLAY_EPILOG = """\
examples:
  napkit play pagat --players 4 --seat 0 --seed 1
  napkit play pagat-floater --watch --hands 3 --seed 7
  napkit play peep --players 5 --match --opponents random --seed 2
  napkit play pagat --option optional-bids=misere --seat 2
"""


class _InputEndedError(Exception):
    """stdin ended while the human was to act."""


def _add_play(commands: argparse._SubParsersAction[_Parser]) -> None:
    play = commands.add_parser(
        "play", help="play hands or a match against the engine's players",
        description=_PLAY_HELP, epilog=_PLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    play.set_defaults(run=_play)
    _add_table_options(play)
    who = play.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, metavar="N", help="play seat N yourself")
    who.add_argument("--watch", action="store_true",
                     help="let the engine's players play every seat (the default)")
    play.add_argument("--record", metavar="FILE",
                      help="also write the record of what is played to FILE (as 'napkit "
                           "record' writes it; not written if the game is abandoned)")


def _add_table_options(command: argparse.ArgumentParser) -> None:
    """The options 'napkit play' and 'napkit record' share: the game, the players, the run."""
    command.add_argument("ruleset", metavar="RULESET", help="a ruleset id or a ruleset file")
    command.add_argument("--players", type=int, metavar="N",
                         help="players at the table (default: 4, or the ruleset's nearest count)")
    command.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                         help="play with this option value (repeatable; see 'napkit rules show')")
    command.add_argument("--opponents", choices=PLAYER_KINDS, default="heuristic",
                         help="the engine's players (default: heuristic)")
    command.add_argument("--hands", type=int, metavar="K",
                         help="deal K hands (default 1), or end the match after K hands")
    command.add_argument("--match", action="store_true", help="play a match (NAP-10)")
    command.add_argument("--seed", type=int, metavar="S",
                         help="the seed that makes the run replay")


def _setup(args: argparse.Namespace) -> tuple[Game, dict[str, str], int]:
    """The game, the option choices and the seed of ``napkit play`` or ``napkit record``;
    every usage error is raised here, before anything is played or written."""
    spec = _spec()
    ruleset = _ruleset(spec, args.ruleset)
    # Sorted, so that a record names its options in the same order however they were typed.
    choices = dict(sorted(_choices(args.option, "--option").items()))
    values = ruleset.option_values(choices)  # an unknown option or choice is a usage error
    allowed = compile_rules(ruleset.resolve(values)).players
    players = args.players
    if players is None:
        players = min(allowed, key=lambda n: (abs(n - 4), n))
    try:
        game = Game(ruleset, players, choices)
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    seat = getattr(args, "seat", None)
    if seat is not None and not 0 <= seat < players:
        raise UsageError(f"--seat must be a seat from 0 to {players - 1}, not {seat}")
    if args.hands is not None and args.hands < 1:
        raise UsageError(f"--hands must be at least 1, not {args.hands}")
    if args.match and args.hands is None and game.rules.match.end == "agreed":
        raise UsageError(f"a match of {ruleset.id} ends when the players agree (NAP-10.4.1): "
                         "say how many hands with --hands K")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return game, choices, seed


def _play(args: argparse.Namespace) -> int:
    game, choices, seed = _setup(args)
    if args.record == "-":
        raise UsageError("--record takes a file name (the game itself is printed on stdout)")
    with _Output(args.record) as output:  # a file that cannot be written fails before play
        table = _Table(game, args.seat, args.opponents, seed)
        human = f"you play seat {args.seat}" if args.seat is not None else "watching"
        options = "".join(f", {name}={choice}" for name, choice in choices.items())
        table.say(f"napkit play {game.id}{options}: {game.players} players, {human}, "
                  f"opponents {args.opponents}, seed {seed}")
        try:
            table.run(args.match, args.hands)
        except _InputEndedError:
            unwritten = f"; {args.record} is not written" if args.record is not None else ""
            print(f"\nnapkit: end of input: the game is abandoned (replay it with --seed {seed})"
                  f"{unwritten}", file=sys.stderr)
            return EXIT_PROBLEMS
        except KeyboardInterrupt:
            print("\nnapkit: interrupted", file=sys.stderr)
            return 130
        sys.stdout.flush()
        if args.record is not None:
            output.commit(table.record_text(args.match))
    return 0


# --- napkit record -------------------------------------------------------------------------------
_RECORD_HELP = """\
Write the record of hands, or of a match, played by the engine's players: the same table as
'napkit play --watch', with the same options, but what is written is the record (JSON, the
formats of spec/schemas) instead of the game as text.

One hand is written as one napkit-hand/1 document; --hands K (K > 1) as JSON Lines, one
hand record a line; --match as one napkit-match/1 document (its hands inside it). 'napkit
validate' reads all three.

The same seed (and the same options) writes the same bytes. Without --seed a seed is drawn
and printed on stderr, so any record can be written again.

With -o FILE the record is written to a temporary file beside FILE and renamed over it only
once complete: an interrupted or failed run leaves FILE as it was.
"""

_RECORD_EPILOG = """\
examples:
  napkit record pagat --seed 1 -o hand.json
  napkit record pagat-floater --players 5 --hands 10 --seed 7 -o hands.jsonl
  napkit record peep --match --hands 4 --seed 2 | napkit validate -
"""


def _add_record(commands: argparse._SubParsersAction[_Parser]) -> None:
    record = commands.add_parser(
        "record", help="write the record of hands or a match played by the engine's players",
        description=_RECORD_HELP, epilog=_RECORD_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    record.set_defaults(run=_record)
    _add_table_options(record)
    record.add_argument("-o", "--output", metavar="FILE",
                        help="write the record to FILE, atomically (default: stdout)")


def _record(args: argparse.Namespace) -> int:
    game, _, seed = _setup(args)
    with _Output(None if args.output in (None, "-") else args.output) as output:
        table = _Table(game, None, args.opponents, seed, quiet=True)
        try:
            table.run(args.match, args.hands)
        except KeyboardInterrupt:
            print("\nnapkit: interrupted: nothing is written", file=sys.stderr)
            return 130
        output.commit(table.record_text(args.match))
    if args.seed is None:
        print(f"napkit: seed {seed} (write the same record again with --seed {seed})",
              file=sys.stderr)
    return 0


class _Output:
    """Where a record goes: stdout, or ``target`` replaced atomically. A temporary file is
    made beside the target at once (so an unwritable place fails before anything is played);
    :meth:`commit` fills it, flushes it to disk and renames it over the target; leaving the
    ``with`` block without committing removes it, and the target is never touched."""

    def __init__(self, target: str | None) -> None:
        self.target = target
        self.temp: str | None = None
        self.fd = -1
        if target is None:
            return
        if Path(target).is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), target)
        directory = os.path.dirname(target) or "."
        try:
            self.fd, self.temp = tempfile.mkstemp(
                dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
            os.fchmod(self.fd, _mode_for(target))
        except OSError as exc:
            self.close()
            raise OSError(exc.errno, exc.strerror, target) from None

    def __enter__(self) -> _Output:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def commit(self, text: str) -> None:
        if self.target is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        assert self.temp is not None and self.fd >= 0
        fd, self.fd = self.fd, -1
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(self.temp, self.target)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, self.target) from None
        self.temp = None

    def close(self) -> None:
        """Remove the temporary file unless it was committed."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


def _mode_for(target: str) -> int:
    """The permissions of a new record: those of the file it replaces, else the umask's."""
    try:
        return os.stat(target).st_mode & 0o777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


# --- napkit validate -----------------------------------------------------------------------------
_VALIDATE_HELP = """\
Check recorded hands and matches (napkit-hand/1, napkit-match/1): each record against its
JSON Schema (spec/schemas), then against the rules, by replaying it through the engine.

A FILE holds one record as a JSON document, or many as JSON Lines (one record a line);
'-' reads standard input. Every problem is printed on one line: the file (and line, for
JSON Lines), the JSON path or the action, the rule id where a rule is broken, and what is
wrong. One bad record does not stop the others from being checked; a file that cannot be
read is a problem of that file.

The exit status is 0 when every record is valid, 1 when any is not.
"""

_VALIDATE_EPILOG = """\
examples:
  napkit validate hand.json hands.jsonl
  napkit record pagat --hands 5 --seed 1 | napkit validate -
  napkit validate --quiet --json records/*.json
"""


def _add_validate(commands: argparse._SubParsersAction[_Parser]) -> None:
    validate = commands.add_parser(
        "validate", help="check recorded hands and matches against the schemas and the rules",
        description=_VALIDATE_HELP, epilog=_VALIDATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    validate.set_defaults(run=_validate)
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="a record file, JSON or JSON Lines ('-': standard input)")
    validate.add_argument("-q", "--quiet", action="store_true",
                          help="print only the problems (and the count), not the valid records")
    validate.add_argument("--json", action="store_true",
                          help="print the report as JSON: an object per record")


def _validate(args: argparse.Namespace) -> int:
    if args.files.count("-") > 1:
        raise UsageError("'-' (standard input) can be read only once")
    lines, ok = report(args.files, quiet=args.quiet, as_json=args.json)
    _print(lines)
    return 0 if ok else EXIT_PROBLEMS


def _seat(seat: int) -> str:
    return "the pool" if seat == POOL else f"seat {seat}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _legal_text(legal: Sequence[Action]) -> str:
    """The legal actions in a line: plays as their cards, purchases by how many may be bought."""
    plays = [a.card for a in legal if isinstance(a, Play)]
    buys = [a.cards.bit_count() for a in legal if isinstance(a, Buy)]
    if plays:
        return "play one of " + " ".join(card_name(c) for c in plays)
    if buys:
        most = max(buys)
        if most == 0:
            return "buy nothing"
        return f"buy up to {most} of your cards (buy 2C 7D), or buy nothing"
    return " | ".join(str(a) for a in legal)


class _Table:
    """One run of ``napkit play``: the engine's players, the human, and what is printed."""

    def __init__(self, game: Game, human: int | None, opponents: str, seed: int,
                 quiet: bool = False) -> None:
        self.game = game
        self.human = human
        self.quiet = quiet  # 'napkit record': play the same game, print nothing
        self.chance = random.Random(seed)
        # The players draw from their own source, so that a seed deals the same cards
        # whichever players play them.
        self.rng = random.Random(f"napkit-players-{seed}")
        self.players = [make_player(opponents, game) for _ in range(game.players)]
        self.scores = [0] * game.players  # what the human sees as the standings
        self.number = 0  # the hand being played, counting from 1
        self.played: list[HandState] = []  # the hands dealt on their own, finished
        self.final: MatchState | None = None  # the match, once over

    def say(self, line: str = "") -> None:
        if not self.quiet:
            print(line)

    # --- driving hands and matches -------------------------------------------------------
    def run(self, match: bool, hands: int | None) -> None:
        """A match (of ``hands`` hands, or to its end), or ``hands`` hands (default one)."""
        if match:
            self.match(hands)
        else:
            self.hands(hands or 1)

    def record_text(self, match: bool) -> str:
        """The record of what was played: a match record, one hand record, or JSON Lines of
        hand records, one a line."""
        if match:
            assert self.final is not None
            return json.dumps(match_record(self.final), indent=2) + "\n"
        records = [hand_record(state) for state in self.played]
        if len(records) == 1:
            return json.dumps(records[0], indent=2) + "\n"
        return "".join(json.dumps(record) + "\n" for record in records)

    def hands(self, count: int) -> None:
        """Deal ``count`` hands, each on its own (no pool carried), the deal passing left."""
        n = self.game.players
        dealer = self.chance.randrange(n)  # the first dealer is found by chance (NAP-4.1.1)
        for _ in range(count):
            state = self.game.new_hand(dealer)
            shown = 0
            while not state.is_over():
                if state.is_chance():
                    state = state.apply(state.sample_chance(self.chance))
                else:
                    seat = state.turn
                    state = self.act(seat, state.view(seat), state.apply)
                shown = self.events(state, shown)
            self.finish(state)
            self.played.append(state)
            dealer = (dealer + 1) % n
        if count > 1:
            self.say(f"after {count} hands: " + ", ".join(
                f"seat {s} {_signed(t)}" for s, t in enumerate(self.scores)))

    def match(self, hands: int | None) -> None:
        m = new_match(self.game, hands)
        self.scores = list(m.balances)
        done, hand_shown, finished = 0, 0, 0
        while not m.is_over():
            self.scores = list(m.balances)  # antes and settled hands so far
            if m.is_chance():
                m = m.apply(m.sample_chance(self.chance))
            elif m.hand is not None:
                seat = m.turn
                m = self.act(seat, m.hand.view(seat), m.apply)
            else:
                seat = m.turn
                m = self.act(seat, match_view(m, seat), m.apply)
            for actor, action in m.history[done:]:
                self.match_event(actor, action, m)
            done = len(m.history)
            if len(m.hands) > finished:  # the hand just ended: the rest of it, and its result
                self.events(m.hands[-1], hand_shown)
                self.finish(m.hands[-1])
                finished, hand_shown = len(m.hands), 0
            if m.hand is not None:
                hand_shown = self.events(m.hand, hand_shown)
        self.final = m
        result = m.result
        assert result is not None
        self.say(f"match over after {result.hands} hand{'s' if result.hands != 1 else ''}")
        self.say("  balances: " + ", ".join(
            f"seat {s} {b if m.chips is not None else _signed(b)}"
            for s, b in enumerate(result.balances)))
        if self.game.rules.pool:
            self.say(f"  left in the {self.game.rules.pool_name}: {result.pool}")
        label = "winner" if len(result.winners) == 1 else "winners (tied)"
        self.say(f"  {label}: " + ", ".join(f"seat {s}" for s in result.winners))

    def act(self, seat: int, view: PlayerView, apply: Callable[[Action], _S]) -> _S:
        """The action of the seat to act, applied; a human is asked until the engine agrees."""
        if seat != self.human:
            return apply(self.players[seat].choose(view, self.rng))
        self.show(view)
        while True:
            print("> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                raise _InputEndedError
            if line.strip() in ("?", "help"):
                self.show(view)
                continue
            try:
                return apply(parse_action(line))
            except NotationError as exc:
                self.say(str(exc))
            except IllegalActionError as exc:
                self.say(f"not allowed: {exc}")

    # --- what is printed ------------------------------------------------------------------
    def events(self, state: HandState, shown: int) -> int:
        """Print the hand's actions from entry ``shown`` of its history; return how far."""
        history = state.history if self.human is None else state.view(self.human).history
        size = len(state.order)
        plays = sum(1 for _, a in history[:shown] if isinstance(a, Play))
        for actor, action in history[shown:]:
            kind = action.kind if isinstance(action, Hidden) else None
            if isinstance(action, Deal) or kind == "deal":
                self.deal(state)
            elif isinstance(action, Reshuffle) or kind == "reshuffle":
                self.say("  the discards are shuffled into a new stock")
            elif isinstance(action, Hidden):
                what = "a card" if action.kind == "discard" else f"{action.count} cards"
                self.say(f"  seat {actor}: {action.kind} {what}")
            else:
                self.say(f"  {self.who(actor)}: {action}")
                if isinstance(action, Play):
                    plays += 1
                    if plays % size == 0 and plays // size <= len(state.tricks):
                        trick = state.tricks[plays // size - 1]
                        self.say(f"    trick {plays // size} to seat {trick.winner}")
        return len(history)

    def who(self, seat: int) -> str:
        return f"seat {seat} (you)" if seat == self.human else f"seat {seat}"

    def deal(self, state: HandState) -> None:
        self.number += 1
        rules = self.game.rules
        extra = f", {rules.pool_name} {state.pool}" if rules.pool else ""
        if state.stakes > 1:
            extra += f", stakes x{state.stakes}"
        seats = "" if len(state.order) == self.game.players else (
            ", dealt to seats " + " ".join(str(s) for s in state.order))
        self.say(f"hand {self.number}: seat {state.dealer} deals{seats}{extra}")
        if self.human is not None:
            return
        # Watching: every hand is open, as at a table where all the cards are shown.
        for seat in state.order:
            self.say(f"  seat {seat}: {hand_text(state.hand(seat))}")
        if state.widow >= 0:
            self.say(f"  {rules.widow_name}: {card_name(state.widow)}")

    def match_event(self, actor: int, action: Action, m: MatchState) -> None:
        if isinstance(action, ChooseDealer):
            self.say(f"first dealer: seat {action.seat}")
        elif isinstance(action, Ante | SitOut):
            self.say(f"  {self.who(actor)}: {action}")

    def finish(self, state: HandState) -> None:
        """The result of a settled hand: contract, made or defeated, tricks, payments."""
        result = state.result
        assert result is not None
        if result.thrown_in:
            self.say("result: thrown in: nobody bid")
        else:
            bid = self.game.rules.bids[self.game.bid_index[result.contract or ""]]
            outcome = "made" if result.made else "defeated"
            self.say(f"result: seat {result.declarer} bid {bid.name} ({bid.id}): {outcome}, "
                     f"{result.tricks} trick{'s' if result.tricks != 1 else ''} "
                     f"of {len(result.trick_winners)}")
        for p in result.payments:
            self.say(f"  {_seat(p.payer)} pays {_seat(p.payee)} {p.amount} ({p.rule})")
        pool = f"; {self.game.rules.pool_name} {result.pool}" if self.game.rules.pool else ""
        self.say("  net: " + ", ".join(
            f"seat {s} {_signed(d)}" for s, d in enumerate(result.net)) + pool)
        for s, d in enumerate(result.net):
            self.scores[s] += d

    def show(self, view: PlayerView) -> None:
        """What the human's seat may know now, and what it may do."""
        rules = self.game.rules
        self.say(f"--- seat {view.seat} (you) to act: {view.phase} ---")
        if view.hand or view.phase != "ante":
            self.say(f"your hand: {hand_text(view.hand)}")
        if view.widow is not None and view.widow_out:
            self.say(f"the {rules.widow_name}: {card_name(view.widow)}")
        elif view.widow_out:
            self.say(f"the {rules.widow_name}: face down")
        if view.contract is not None:
            bid = rules.bids[self.game.bid_index[view.contract]]
            trumps = ("not yet fixed" if view.trumps < 0 else
                      "none" if view.trumps == NO_TRUMPS else SUIT_NAMES[view.trumps])
            self.say(f"contract: {self.who(view.declarer)} bid {bid.name}; trumps: {trumps}")
            played = len(view.tricks)
            if played:
                self.say(f"tricks: declarer {view.declarer_tricks} of {played} "
                         f"({', '.join(f'seat {t.winner}' for t in view.tricks)})")
        if view.trick:
            seats = _trick_seats(view)
            self.say("trick so far: " + ", ".join(
                f"seat {s} {card_name(c)}" for s, c in zip(seats, view.trick, strict=True)))
        money = []
        if rules.pool:
            money.append(f"{rules.pool_name} {view.pool}")
        if view.funds is not None:  # chips held, this hand's payments already taken
            scores = list(view.funds)
        else:  # the standings before this hand, and what has been paid in it so far
            scores = list(self.scores)
            for p in view.payments:
                if p.payer >= 0:
                    scores[p.payer] -= p.amount
                if p.payee >= 0:
                    scores[p.payee] += p.amount
        shown = str if view.funds is not None else _signed
        money.append(("chips " if view.funds is not None else "scores ")
                     + ", ".join(f"seat {s} {shown(b)}" for s, b in enumerate(scores)))
        self.say("; ".join(money))
        self.say("you may: " + _legal_text(view.legal_actions))
