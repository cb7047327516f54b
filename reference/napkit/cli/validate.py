"""``napkit validate FILE...``: check recorded hands and matches against their schemas and the
rules. The body is :func:`validate_files`; the checking itself is
:func:`napkit.formats.validate.report`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

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
  napkit validate --ruleset-file house.json hands.jsonl     records of a house game
"""


def register(commands: Commands) -> None:
    validate = commands.add_parser(
        "validate", help="check recorded hands and matches against the schemas and the rules",
        description=_VALIDATE_HELP, epilog=_VALIDATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    validate.set_defaults(run=lambda args: validate_files(args.files, quiet=args.quiet,
                                                           as_json=args.json,
                                                           rulesets=args.ruleset_files))
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="a record file: JSON, JSON Lines or the hand notation "
                               "('-': standard input)")
    validate.add_argument("-q", "--quiet", action="store_true",
                          help="print only the problems (and the count), not the valid records")
    validate.add_argument("--json", action="store_true",
                          help="print the report as JSON: an object per record")
    validate.add_argument("--ruleset-file", dest="ruleset_files", action="append", default=[],
                          metavar="FILE",
                          help="a house ruleset (spec/README.md) whose records are checked by "
                               "its id, as a built-in ruleset's are; repeatable")


def validate_files(files: Sequence[str], quiet: bool = False, as_json: bool = False,
                   rulesets: Sequence[str] = ()) -> int:
    """``napkit validate``: print the report on ``files`` ('-': standard input, read once);
    0 when every record is valid, 1 when any is not. ``rulesets``: house ruleset files whose
    games the records may be of (found by their ids before the spec's)."""
    if list(files).count("-") > 1:
        raise UsageError("'-' (standard input) can be read only once")
    if not rulesets:
        return _validate(files, quiet, as_json)
    from napkit.engine.finder import ruleset_finder
    from napkit.engine.game import set_ruleset_finder

    before = ruleset_finder()  # the spec's, which importing napkit registers
    if before is None:
        raise UsageError("napkit's rulesets are not registered")
    set_ruleset_finder(_finder(rulesets, before))  # SpecError: said on one line by main
    try:
        return _validate(files, quiet, as_json)
    finally:
        set_ruleset_finder(before)


def _validate(files: Sequence[str], quiet: bool, as_json: bool) -> int:
    from napkit.formats.validate import Tally, report_lines  # here: napkit --help must not
    from napkit.output.progress import Progress
    from napkit.output.tables import printable_message

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


def _finder(files: Sequence[str], before: Callable[[str], Any]) -> Callable[[str], Any]:
    """A finder (napkit.engine.finder) of the house rulesets of ``files`` by their ids, then
    of ``before``'s (NAP-10.1.1): the records of a house game are replayed under its rules."""
    from pathlib import Path

    from napkit.spec.house import load_ruleset_path

    own = {r.id: r for r in (load_ruleset_path(Path(f)) for f in files)}
    return lambda ruleset_id: own[ruleset_id] if ruleset_id in own else before(ruleset_id)
