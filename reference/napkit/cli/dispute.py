"""``napkit replay HAND --under ...`` and ``napkit explain HAND --at STEP``: a hand that was
played, replayed under other rulesets, and one position of it explained, for a table settling
a dispute. The work is :mod:`napkit.dispute`'s; this module reads the hand and prints."""

from __future__ import annotations

import argparse
import json
import shutil
from typing import Any

from napkit.cli.common import EXIT_PROBLEMS, Parser, print_lines, spec
from napkit.errors import RuleError, UsageError

# napkit.dispute (and the engine and spec modules behind it) is imported by the commands'
# bodies, not here: every other command starts without it.
SAME = ("hands", "pack")  # napkit.dispute.replay.SAME
HAND_HELP = "a hand: the hand notation (.nap) or napkit-hand/1 JSON"

_REPLAY_HELP = """\
Replay a hand that was played under other rulesets: each ruleset's column says whether the
hand is legal under it to the end, or the first step where it parts (the action and the rule
id), and what the hand settles under it (each seat's net gain). Below the table, each
ruleset's verdict in words, with the rule's text and the lines of its source that put it in
force.

Under another ruleset each seat is dealt the cards it held (--same pack keeps the pack's
order instead, which a ruleset dealing in other packets gives out otherwise), and a bid the
ruleset does not have is read as its one bid of as many tricks, if it has one (classic's nap
is napoleon's napoleon). Step 1 is the first action after the deal.

HAND is a hand in the hand notation (hand.nap: the deal and the steps, typed as at the
table; spec/formats.md) or a recorded hand (napkit-hand/1 JSON), finished or stopped
anywhere. The exit status is 0 when the hand is legal under every ruleset asked, 1 when it
is not.
"""

_REPLAY_EPILOG = """\
examples:
  napkit replay hand.nap --under all
  napkit replay hand.json --under classic --under napoleon
  napkit replay hand.json --under pagat:doubling=won --under house.json
"""

_EXPLAIN_HELP = """\
Explain one position of a hand: the cards of every seat, the calls, the contract and
trumps, the tricks so far, who is to act and every action they may make. With --action, say
whether that action is allowed there and by which rule, with the rule's text, the lines of
its source and the decisions behind it.

The position at step N is the hand after steps 1 to N-1: step N is the action about to be
made (step 1 is the first action after the deal). --under takes another ruleset, dealing
each seat the same cards.
"""

_EXPLAIN_EPILOG = """\
examples:
  napkit explain hand.nap --at 5
  napkit explain hand.json --at 5 --action 7H
  napkit explain hand.json --at 4 --action "bid nap" --under pagat
"""


def add_commands(commands: argparse._SubParsersAction[Parser]) -> None:
    """``napkit replay`` and ``napkit explain``."""
    replay = commands.add_parser(
        "replay", help="replay a hand that was played under other rulesets, side by side",
        description=_REPLAY_HELP, epilog=_REPLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    replay.add_argument("hand", metavar="HAND", help=HAND_HELP)
    replay.add_argument("--under", action="append", default=[], metavar="RULESET",
                        help="'all' (every built-in ruleset), a ruleset id with options "
                             "(pagat:doubling=won,mis=on) or a ruleset file; repeatable "
                             "(default: all)")
    replay.add_argument("--same", choices=SAME, default="hands",
                        help="keep each seat's cards (default) or the pack's order")
    replay.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    replay.add_argument("--brief", action="store_true",
                        help="the table only, without each ruleset's verdict in words")
    replay.set_defaults(run=run_replay)

    explain = commands.add_parser(
        "explain", help="explain a position of a hand: who acts, what is legal, and why",
        description=_EXPLAIN_HELP, epilog=_EXPLAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    explain.add_argument("hand", metavar="HAND", help=HAND_HELP)
    explain.add_argument("--at", type=int, required=True, metavar="STEP",
                         help="the step about to be made (1: the first action after the deal)")
    explain.add_argument("--under", metavar="RULESET",
                         help="another ruleset (id, id:option=choice, or a file); default: "
                              "the hand's own")
    explain.add_argument("--action", metavar="ACTION",
                         help="an action to rule on, typed as at the table: 7H, 'bid nap', "
                              "pass, 'buy 2C 7D'")
    explain.set_defaults(run=run_explain)


def read_hand(path: str) -> dict[str, Any]:
    """A recorded hand from a file, in the hand notation (``*.nap``) or as JSON
    (``napkit-hand/1``), finished or stopped anywhere; :class:`~napkit.errors.UsageError`
    naming the line and column, or the JSON path, otherwise. The recorded outcome is not
    checked (it may be what the table is arguing about), but every step must be one the
    record's own ruleset can deal and replay as far as it goes."""
    from napkit.dispute.replay import RecordError, dealt
    from napkit.formats.handtext import HandFileError, read_hand_file

    try:
        record = read_hand_file(path, check=False)
    except HandFileError as exc:
        raise UsageError(str(exc)) from None
    if record["deal"] is None:
        raise UsageError(f"{path}: $.deal: the hand has not been dealt: nothing to replay")
    try:
        dealt(record)
    except RecordError as exc:
        raise UsageError(f"{path}: {exc}") from None
    return record


def _width() -> int:
    return max(60, min(120, shutil.get_terminal_size((100, 24)).columns))


def run_replay(args: argparse.Namespace) -> int:
    from napkit.dispute.replay import RecordError, TargetError, replay_under, targets
    from napkit.dispute.report import as_json, details, summary, table
    from napkit.spec.views import wrap

    record = read_hand(args.hand)
    the_spec = spec()
    try:
        chosen = targets(the_spec, args.under or ["all"])
    except TargetError as exc:
        raise UsageError(f"--under {exc}") from None
    if not args.under:  # every ruleset: by source, as 'napkit rules list' shows them
        chosen.sort(key=lambda t: (t.ruleset.source, t.ruleset.id))
    try:
        verdicts = [replay_under(record, t, args.same) for t in chosen]
    except RecordError as exc:
        raise UsageError(f"{args.hand}: {exc}") from None
    if args.json:
        print(json.dumps({"hand": args.hand, "same": args.same, "summary": summary(verdicts),
                          "rulesets": as_json(verdicts)}, indent=1))
        return 0 if all(v.legal for v in verdicts) else EXIT_PROBLEMS
    width = _width()
    steps = len(record["actions"])
    lines = [f"{args.hand}: a hand of {record['ruleset']}, {record['players']} players, "
             f"{steps} steps after the deal; each seat dealt the "
             f"{'cards it held' if args.same == 'hands' else 'pack in its order'}", "",
             *table(verdicts, record["seats"], width), "", *wrap(summary(verdicts), "", width)]
    if not args.brief:
        for verdict in verdicts:
            lines += ["", *details(the_spec, verdict, width)]
    print_lines(lines)
    return 0 if all(v.legal for v in verdicts) else EXIT_PROBLEMS


def run_explain(args: argparse.Namespace) -> int:
    from napkit.dispute.explain import (
        StepError,
        locate,
        position_lines,
        rule_on,
        ruling_lines,
    )
    from napkit.dispute.replay import Target, TargetError, target
    from napkit.formats.notation import NotationError

    record = read_hand(args.hand)
    the_spec = spec()
    try:
        under = (target(the_spec, args.under) if args.under else
                 Target(the_spec.rulesets[record["ruleset"]], record.get("options") or {}))
    except (TargetError, KeyError) as exc:
        raise UsageError(f"--under {exc}") from None
    try:
        position = locate(record, args.at, under)
    except StepError as exc:
        raise UsageError(f"--at {args.at}: {exc}") from None
    except RuleError as exc:
        print(f"napkit: {under.label} cannot deal this hand: {exc}")
        return EXIT_PROBLEMS
    width = _width()
    lines = position_lines(the_spec, position, width)
    if args.action is not None:
        try:
            ruling = rule_on(position, args.action)
        except NotationError as exc:
            raise UsageError(f"--action {args.action!r}: {exc}") from None
        lines += ["", *ruling_lines(the_spec, position, ruling, width)]
    print_lines(lines)
    return 0
