"""``napkit replay HAND --under ...``: a hand that was played, replayed under other rulesets
side by side, for a table settling a dispute. The work is :mod:`napkit.dispute`'s; this module
reads the hand and prints."""

from __future__ import annotations

import argparse
import json

from napkit.cli.common import EXIT_PROBLEMS, HAND_HELP, Commands, print_lines, read_hand, spec
from napkit.cli.common import width as width_now
from napkit.errors import UsageError

# napkit.dispute (and the engine and spec modules behind it) is imported by the command's
# body, not here: every other command starts without it.
SAME = ("hands", "pack")  # napkit.dispute.replay.SAME

_REPLAY_HELP = """\
Replay a hand that was played under other rulesets: each ruleset's column says whether the
hand is legal under it to the end, or the first step it refuses (the action and the rule id),
and what the hand settles under it (each seat's net gain). A card a ruleset refuses (a revoke,
a card out of turn) is played on as the table played it, to a settlement, and every later
refusal noted; where going on is impossible (a bid the ruleset has not got) the column stops.
A step the hand lacks that a ruleset needs (trumps named, the widow taken or left, a purchase)
is filled by a default or by --assume, and said so; the trumps row says how trumps were fixed.
Below the table, each ruleset's verdict in words and the rules it names, each rule's text once
(--long: every rule's text and its source's lines quoted, under every ruleset).

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
  napkit replay hand.nap --under peep --assume "name hearts" --assume "take widow"
  napkit replay hand.nap --under pagat-floater --deal-anyway
  napkit replay hand.nap --long             # every rule's text and source lines, per ruleset
"""

def register(commands: Commands) -> None:
    """``napkit replay``."""
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
    replay.add_argument("--long", action="store_true",
                        help="each ruleset's verdict with every rule's text, its source's "
                             "lines quoted and its decisions (by default: each verdict short, "
                             "its rules and source lines named, each rule's text once)")
    replay.add_argument("--assume", action="append", default=[], metavar="STEP",
                        help="a step the hand lacks that a ruleset needs, as typed at the "
                             "table: 'name hearts', 'take widow', 'leave widow', 'discard "
                             "2S', 'buy nothing'; repeatable (default: no purchase, the widow "
                             "left, trumps the suit of the first card the declarer led)")
    replay.add_argument("--deal-anyway", action="store_true",
                        help="replay a hand dealt from a fuller pack under a ruleset whose "
                             "pack lacks some of its cards: each seat keeps its cards, the "
                             "widow and stock from the cards no seat held (flagged)")
    replay.add_argument("--symbols", action="store_true",
                        help="write the cards' suits as symbols (A♣, 10♥), not letters (AC, "
                             "10H); --json keeps the letters")
    replay.add_argument("--html", metavar="FILE",
                        help="also write the dispute as one self-contained page to pass round: "
                             "the hand stepped through as a table, every ruleset's verdict at "
                             "each step, the rules cited")
    replay.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from napkit.dispute.replay import (
        RecordError,
        TargetError,
        assumption,
        replay_under,
        targets,
    )
    from napkit.dispute.report import as_json, details, short, summary, table
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
        assume = [assumption(text) for text in args.assume]
    except ValueError as exc:  # NotationError too: a step that is no action
        raise UsageError(f"--assume: {exc}") from None
    try:
        verdicts = [replay_under(record, t, args.same, assume=assume,
                                 deal_anyway=args.deal_anyway) for t in chosen]
    except RecordError as exc:
        raise UsageError(f"{args.hand}: {exc}") from None
    if args.html:  # the page to pass round (napkit.dispute.viewer)
        from napkit.dispute.viewer import write_viewer

        write_viewer(args.html, args.hand, the_spec, record, verdicts)
    if args.json:
        print(json.dumps({"hand": args.hand, "same": args.same, "summary": summary(verdicts),
                          "rulesets": as_json(verdicts)}, indent=1))
        return 0 if all(v.legal for v in verdicts) else EXIT_PROBLEMS
    width = width_now()
    steps = len(record["actions"])
    lines = [f"{args.hand}: a hand of {record['ruleset']}, {record['players']} players, "
             f"{steps} steps after the deal; each seat dealt the "
             f"{'cards it held' if args.same == 'hands' else 'pack in its order'}", "",
             *table(verdicts, record["seats"], width), "", *wrap(summary(verdicts), "", width)]
    if args.long:
        for verdict in verdicts:
            lines += ["", *details(the_spec, verdict, width)]
    elif not args.brief:
        lines += ["", *short(the_spec, verdicts, width)]
    if args.symbols:
        from napkit.engine.cards import with_symbols
        lines = [with_symbols(line) for line in lines]
    print_lines(lines)
    return 0 if all(v.legal for v in verdicts) else EXIT_PROBLEMS


