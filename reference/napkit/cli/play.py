"""``napkit play``: play hands or a match in the terminal against the engine's players.

The body is :func:`play`, a function of plain arguments returning the exit status; the table is
:mod:`napkit.cli.table`. The table's options and the files a table reads are shared with
``napkit record`` (:mod:`napkit.cli.record`).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from napkit import paths
from napkit.cli.common import (
    EXIT_PROBLEMS,
    Commands,
    option_choices,
    ruleset_argument,
    ruleset_file,
    seed_value,
    spec,
    whole_value,
)
from napkit.errors import RuleError, SpecError, UsageError
from napkit.players.policy import PLAYER_KINDS

if TYPE_CHECKING:  # the engine, the table and the files are imported by the commands' bodies
    from napkit.engine.game import Game

_PLAY_HELP = """\
Play hands of Nap, or a match, in the terminal against the engine's own players, or watch
them play every seat.

With --seat N you play seat N (seats are numbered 0 to players-1, clockwise). Each time it
is your turn the table shows what your seat may know: your hand, the widow if you have
seen it, the contract and trumps, the trick so far, the tricks won, the pool and the
scores; then what you may do. Type an action:

  pass                 pass in the auction
  bid BID              bid by the bid's id or name, as shown: bid three, bid 3,
                       bid nap-without, bid nap without
  peek                 pay to look at the widow
  buy CARDS            discard these cards and be dealt as many: buy 2C 7D
  buy nothing          keep the hand as dealt
  take / leave         take the widow into your hand, or leave it
  discard CARD         discard a card after taking the widow: discard 3C
  name SUIT, or SUIT   name trumps: name hearts, name H, hearts, H
  play CARD, or CARD   play a card: play 10H, 10H, TH, AS
  ante / sit out       before a hand of a match where sitting out is allowed
  ?                    show the table again

Cards are rank then suit: AS, KH, 10D (or TD), 2C. An action the rules do not allow is
refused with the rule it breaks (NAP-8.1.1: must follow hearts; holds the 9 of hearts) and
you are asked again. End of input (Ctrl-D) abandons the game, with exit status 1.

Without --seat (or with --watch) the engine's players play every seat; each action, trick
and result is printed. --hands K plays K hands (each settled on its own; the totals are
printed at the end): a hand nobody bids for is thrown in and dealt again by the next
dealer, as at a table (NAP-5.3.2), and is not one of the K. --match plays a match
(NAP-10): antes, the pool carried over, the deal passing left, until its end, or for K
hands with --hands K, where every deal counts, a thrown-in one included (NAP-10.4.1; a
ruleset whose match ends only when the players agree needs --hands).

--seed S makes a run reproducible: the same seed (and the same typed actions) plays and
prints the same game again. Without it a seed is drawn and printed, so any game can be
replayed.

--record FILE also writes the record of what was played, your seat's actions included, as
'napkit record -o FILE' would: a file is replaced only once the game is over (an abandoned
game writes nothing), a symbolic link's file is replaced and the link kept, a FIFO or a
device is written to directly; FILE may not be the ruleset file. It holds every hand dealt,
the thrown-in ones too. A FILE named *.nap is written in the hand notation
(spec/formats.md), hands only, not a match.
"""

_PLAY_EPILOG = """\
examples:
  napkit play pagat --players 4 --seat 0 --seed 1
  napkit play pagat-floater --watch --hands 3 --seed 7
  napkit play peep --players 5 --match --opponents random --seed 2
  napkit play pagat --option mis=on --seat 2
  napkit play --ruleset-file spec/examples/house-two-no-wellington.json --seat 0
"""


def register(commands: Commands) -> None:
    """``napkit play``."""
    command = commands.add_parser(
        "play", help="play hands or a match against the engine's players",
        description=_PLAY_HELP, epilog=_PLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    command.set_defaults(run=lambda args: play(**table_arguments(args), seat=args.seat,
                                               record=args.record))
    add_table_options(command, hands_help="play K hands (default 1), a thrown-in hand dealt "
                                          "again and not counted; or end the match after K "
                                          "deals")
    who = command.add_mutually_exclusive_group()
    who.add_argument("--seat", type=whole_value("a seat", 0), metavar="N",
                     help="play seat N yourself")
    who.add_argument("--watch", action="store_true",
                     help="let the engine's players play every seat (the default)")
    command.add_argument("--record", metavar="FILE",
                         help="also write the record of what is played to FILE (as 'napkit "
                              "record' writes it; not written if the game is abandoned)")


def add_table_options(command: argparse.ArgumentParser,
                      hands_help: str = "deal K hands (default 1), or end the match after K "
                                        "hands") -> None:
    """The options 'napkit play' and 'napkit record' share: the game, the players, the run
    (``hands_help``: what --hands counts, which differs between them)."""
    command.add_argument("ruleset", metavar="RULESET", nargs="?",
                         help="a ruleset id or a ruleset file (a house game's too)")
    command.add_argument("--ruleset-file", metavar="FILE",
                         help="the game of this ruleset file (a house game: spec/README.md, "
                              "'House rulesets'), instead of RULESET")
    command.add_argument("--players", type=whole_value("a number of players", 1), metavar="N",
                         help="players at the table (default: 4, or the ruleset's nearest count)")
    command.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                         help="play with this option value (repeatable; see 'napkit rules show')")
    command.add_argument("--opponents", choices=PLAYER_KINDS, default="heuristic",
                         help="the engine's players (default: heuristic)")
    command.add_argument("--hands", type=whole_value("a number of hands", 1), metavar="K",
                         help=hands_help)
    command.add_argument("--match", action="store_true", help="play a match (NAP-10)")
    command.add_argument("--seed", type=seed_value, metavar="S",
                         help="the seed that makes the run replay: a whole number from 0 to "
                              "2^53 - 1")


def table_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The options 'napkit play' and 'napkit record' share, as keyword arguments."""
    if (args.ruleset is None) == (args.ruleset_file is None):
        raise UsageError("give a ruleset: a RULESET (an id or a file) or --ruleset-file FILE, "
                         "not both" if args.ruleset else "give a ruleset: a RULESET (an id or "
                         "a file) or --ruleset-file FILE")
    ruleset = args.ruleset
    if args.ruleset_file is not None:
        # A file, whatever its name: a path with a folder in it is never read as an id.
        ruleset = args.ruleset_file if ruleset_file(args.ruleset_file) else os.path.join(
            os.curdir, args.ruleset_file)
    return {"ruleset_id": ruleset, "players": args.players, "options": args.option,
            "opponents": args.opponents, "hands": args.hands, "match": args.match,
            "seed": args.seed}


def setup(ruleset_id: str, players: int | None = None, options: Sequence[str] = (),
          hands: int | None = None, match: bool = False, seed: int | None = None,
          seat: int | None = None) -> tuple[Game, dict[str, str], int]:
    """The game, the option choices and the seed of ``napkit play`` or ``napkit record``;
    every usage error is raised here, before anything is played or written."""
    from napkit.engine.game import Game, compile_rules

    the_spec = spec()
    ruleset = ruleset_argument(the_spec, ruleset_id)
    # Sorted, so that a record names its options in the same order however they were typed.
    choices = dict(sorted(option_choices(list(options), "--option").items()))
    values = ruleset.option_values(choices)  # an unknown option or choice is a usage error
    allowed = compile_rules(ruleset.resolve(values)).players
    if players is None:
        players = min(allowed, key=lambda n: (abs(n - 4), n))
    try:
        game = Game(ruleset, players, choices)
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    if seat is not None and not 0 <= seat < players:
        raise UsageError(f"--seat must be a seat from 0 to {players - 1}, not {seat}")
    if hands is not None and hands < 1:
        raise UsageError(f"--hands must be at least 1, not {hands}")
    if match and hands is None and game.rules.match.end == "agreed":
        raise UsageError(f"a match of {ruleset.id} ends when the players agree (NAP-10.4.1): "
                         "say how many hands with --hands K")
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
    return game, choices, seed


def play(ruleset_id: str, players: int | None = None, options: Sequence[str] = (),
         opponents: str = "heuristic", hands: int | None = None, match: bool = False,
         seed: int | None = None, seat: int | None = None, record: str | None = None) -> int:
    """``napkit play``: play at the terminal table (seat ``seat`` read from standard input, or
    watching), printing the game; with ``record``, also write its record to that file."""
    from napkit.output.files import is_stdout, refuse_clashes

    if record is not None:
        if is_stdout(record):
            raise UsageError("--record takes a file name (the game itself is printed on "
                             "stdout)")
        refuse_clashes([("--record", record)], inputs(ruleset_id))
        refuse_match_notation(record, match, "--record")
    return interruptible(lambda: _play(ruleset_id, players, options, opponents, hands, match,
                                        seed, seat, record))


def _play(ruleset_id: str, players: int | None, options: Sequence[str], opponents: str,
          hands: int | None, match: bool, seed: int | None, seat: int | None,
          record: str | None) -> int:
    from napkit.cli.table import InputEndedError, Table
    from napkit.output.records import Output

    game, choices, seed = setup(ruleset_id, players, options, hands, match, seed, seat)
    with Output(record) as output:  # a file that cannot be written fails before play
        table = Table(game, seat, opponents, seed)
        human = f"you play seat {seat}" if seat is not None else "watching"
        shown = "".join(f", {name}={choice}" for name, choice in choices.items())
        table.say(f"napkit play {game.id}{shown}: {game.players} players, {human}, "
                  f"opponents {opponents}, seed {seed}")
        try:
            table.run(match, hands)
        except InputEndedError:
            unwritten = f"; {record} is not written" if record is not None else ""
            print(f"\nnapkit: end of input: the game is abandoned (replay it with --seed {seed})"
                  f"{unwritten}", file=sys.stderr)
            return EXIT_PROBLEMS
        except KeyboardInterrupt:
            print("\nnapkit: interrupted", file=sys.stderr)
            return 130
        sys.stdout.flush()
        if record is not None:
            output.commit(table.record_text(match, notation=notation(record)))
    return 0


def notation(target: str | None) -> bool:
    """Whether a record file is written in the hand notation: a name ending in ``.nap``."""
    from napkit.formats.handtext import SUFFIX

    return target is not None and target.lower().endswith(SUFFIX)


def refuse_match_notation(target: str | None, match: bool, option: str) -> None:
    from napkit.formats.handtext import SUFFIX

    if match and notation(target):
        raise UsageError(f"{option} {target}: the hand notation ({SUFFIX}) writes hands, not a "
                         "match: write a match's record as JSON (napkit-match/1)")


def inputs(ruleset_id: str) -> list[tuple[str, str]]:
    """The files 'napkit play' and 'napkit record' read that an output must not replace: the
    ruleset file, if one is given, and the spec's own files (rulesets, law book, schemas)."""
    path = ruleset_file(ruleset_id)
    found = [] if path is None else [("the ruleset file", path)]
    try:
        folder = paths.spec_dir()
    except SpecError:
        return found  # reading the spec will say what is wrong with it
    return found + [("the spec's file", str(p)) for p in sorted(folder.rglob("*"))
                    if p.is_file()]


def interruptible(body: Callable[[], int]) -> int:
    """Run a command's body: Ctrl-C anywhere in it (reading the spec, writing the file) is one
    line and status 130, not a traceback; every file it was writing is as it was."""
    try:
        return body()
    except KeyboardInterrupt:
        print("\nnapkit: interrupted", file=sys.stderr)
        return 130
