"""``napkit validate FILE...``: check recorded hands and matches against their schemas and the
rules. The body is :func:`validate_files`; the checking itself is
:func:`napkit.formats.validate.report`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from napkit.cli.common import EXIT_PROBLEMS, Commands
from napkit.errors import UsageError

_VALIDATE_HELP = """\
Check recorded hands and matches (napkit-hand/1, napkit-match/1): each record against its
JSON Schema (spec/schemas), then against the rules, by replaying it through the engine.

A FILE holds one record as a JSON document, or many as JSON Lines (one record a line), or
hands in the hand notation (a FILE.nap, or text that starts as the notation does: see
spec/formats.md); '-' reads standard input. A hand may stop before its end (a partial
hand): its steps are checked, and it has no outcome yet. Every problem is printed on one
line: the file (and line, for JSON Lines or a file of several hands in the notation), the
JSON path or the line and column, the rule id where a rule is broken, and what is wrong.
One bad record does not stop the others from being checked; a file that cannot be read is
a problem of that file.

The exit status is 0 when every record is valid, 1 when any is not.
"""

_VALIDATE_EPILOG = """\
examples:
  napkit validate hand.json hands.jsonl hand.nap
  napkit record pagat --hands 5 --seed 1 | napkit validate -
  napkit validate --quiet --json records/*.json
"""


def register(commands: Commands) -> None:
    validate = commands.add_parser(
        "validate", help="check recorded hands and matches against the schemas and the rules",
        description=_VALIDATE_HELP, epilog=_VALIDATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    validate.set_defaults(run=lambda args: validate_files(args.files, quiet=args.quiet,
                                                           as_json=args.json))
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="a record file: JSON, JSON Lines or the hand notation "
                               "('-': standard input)")
    validate.add_argument("-q", "--quiet", action="store_true",
                          help="print only the problems (and the count), not the valid records")
    validate.add_argument("--json", action="store_true",
                          help="print the report as JSON: an object per record")


def validate_files(files: Sequence[str], quiet: bool = False, as_json: bool = False) -> int:
    """``napkit validate``: print the report on ``files`` ('-': standard input, read once);
    0 when every record is valid, 1 when any is not."""
    from napkit.formats.validate import Tally, report_lines  # here: napkit --help must not
    from napkit.output.progress import Progress
    from napkit.output.tables import printable_message

    if list(files).count("-") > 1:
        raise UsageError("'-' (standard input) can be read only once")
    tally = Tally()
    # With --quiet or --json a long file shows nothing for a long while: a count of the
    # records checked is drawn on a terminal, taken off whenever a problem is printed there.
    progress = Progress(None, "records", "napkit validate", every=0,
                        enabled=quiet or as_json)
    # Printed as each record is checked: a file of a million records is read, checked and
    # reported in flat memory.
    for piece in report_lines(list(files), tally, quiet=quiet, as_json=as_json,
                              checked=progress.step):
        progress.clear()
        # A line quotes a file's name and what it holds: made printable (JSON escapes its own).
        print(piece if as_json else printable_message(piece), end="" if as_json else "\n")
        if progress.tty:
            sys.stdout.flush()  # the piece before the bar is drawn again
    progress.finish()
    if as_json:
        print()
    sys.stdout.flush()  # a closed pipe shows up here, inside main, not at interpreter exit
    return 0 if tally.ok else EXIT_PROBLEMS
