"""``napkit record``: write the record of hands or a match the engine's players play.

The body is :func:`record`, a function of plain arguments returning the exit status; what it
writes is :func:`napkit.formats.recording.record_table`, which the rules site calls too. The
table's options are ``napkit play``'s (:mod:`napkit.cli.play`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from napkit.cli.common import Commands
from napkit.cli.play import (
    add_table_options,
    inputs,
    interruptible,
    notation,
    refuse_match_notation,
    setup,
    table_arguments,
)

# What writes the record is imported by the command's body: building the parsers must not.

_RECORD_HELP = """\
Write the record of hands, or of a match, played by the engine's players: the same table as
'napkit play --watch', with the same options, but what is written is the record (JSON, the
formats of spec/schemas) instead of the game as text.

One hand is written as one napkit-hand/1 document; --hands K (K > 1) as JSON Lines, one
hand record a line; --match as one napkit-match/1 document (its hands inside it). With -o
FILE.nap the hands are written in the hand notation instead (spec/formats.md, "The hand
notation"), a blank line between hands; a match cannot be. 'napkit validate' reads them all.

The same seed (and the same options) writes the same bytes. Without --seed a seed is drawn
and printed on stderr, so any record can be written again.

With -o FILE the record is written to a temporary file beside FILE and renamed over it only
once complete: an interrupted or failed run leaves FILE as it was. A symbolic link is
followed (the file it leads to is replaced; the link stays); a FIFO or a device such as
/dev/null is written to directly, and '-' is stdout. FILE may not be the ruleset file read.
"""

_RECORD_EPILOG = """\
examples:
  napkit record pagat --seed 1 -o hand.json
  napkit record pagat --seed 1 -o hand.nap
  napkit record pagat-floater --players 5 --hands 10 --seed 7 -o hands.jsonl
  napkit record peep --match --hands 4 --seed 2 | napkit validate -
"""


def register(commands: Commands) -> None:
    """``napkit record``."""
    command = commands.add_parser(
        "record", help="write the record of hands or a match played by the engine's players",
        description=_RECORD_HELP, epilog=_RECORD_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    command.set_defaults(run=lambda args: record(**table_arguments(args), output=args.output,
                                                 quiet=args.quiet))
    add_table_options(command)
    command.add_argument("-o", "--output", metavar="FILE",
                         help="write the record to FILE, replacing a file atomically "
                              "(default: stdout)")
    command.add_argument("-q", "--quiet", action="store_true",
                         help="no progress bar (shown on a terminal for --hands K, while the "
                              "record goes to a file or a pipe)")


def record(ruleset_id: str, players: int | None = None, options: Sequence[str] = (),
           opponents: str = "heuristic", hands: int | None = None, match: bool = False,
           seed: int | None = None, output: str | None = None, quiet: bool = False) -> int:
    """``napkit record``: write the record of the table's game (played by
    :func:`napkit.formats.recording.record_chunks`, written as each hand ends) to ``output``
    ('-' or None: stdout), with a progress bar of the hands on a terminal unless ``quiet``."""
    from napkit.output.files import STDOUT, refuse_clashes

    if output is not None and output != STDOUT:
        refuse_clashes([("-o", output)], inputs(ruleset_id))
    refuse_match_notation(output, match, "-o")
    return interruptible(lambda: _record(ruleset_id, players, options, opponents, hands,
                                          match, seed, output, quiet))


def _record(ruleset_id: str, players: int | None, options: Sequence[str], opponents: str,
            hands: int | None, match: bool, seed: int | None, output: str | None,
            quiet: bool) -> int:
    from napkit.formats.recording import record_chunks
    from napkit.output.progress import Progress, isatty
    from napkit.output.records import Output

    game, _, drawn = setup(ruleset_id, players, options, hands, match, seed)
    with Output(output) as out:
        # Hands one a line (not a match, written whole at its end), and not onto the screen
        # the bar is drawn on.
        progress = Progress(hands, "hands", "napkit record", every=0, failures=False,
                            enabled=not quiet and not match and (hands or 1) > 1 and (
                                out.target is not None or not isatty(sys.stdout)))
        try:
            for chunk in record_chunks(game, drawn, opponents=opponents, hands=hands,
                                       match=match, notation=notation(output)):
                out.write(chunk)  # each hand's line as it ends: memory stays flat
                progress.step()
        except KeyboardInterrupt:
            progress.finish()
            where = "nothing is written" if out.atomic else "the hands so far were written"
            print(f"\nnapkit: interrupted: {where}", file=sys.stderr)
            return 130
        progress.finish()
        out.commit()
    if seed is None:
        print(f"napkit: seed {drawn} (write the same record again with --seed {drawn})",
              file=sys.stderr)
    return 0
