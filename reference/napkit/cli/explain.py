"""``napkit explain HAND --at STEP``: one position of a hand that was played, explained (who
acts, what is legal and why), and an action ruled on, for a table settling a dispute. The work
is :mod:`napkit.dispute`'s; this module reads the hand and prints."""

from __future__ import annotations

import argparse

from napkit.cli.common import (
    EXIT_PROBLEMS,
    HAND_HELP,
    Commands,
    print_lines,
    read_hand,
    spec,
    whole_value,
)
from napkit.cli.common import width as width_now
from napkit.errors import RuleError, UsageError

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


def register(commands: Commands) -> None:
    """``napkit explain``."""
    explain = commands.add_parser(
        "explain", help="explain a position of a hand: who acts, what is legal, and why",
        description=_EXPLAIN_HELP, epilog=_EXPLAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    explain.add_argument("hand", metavar="HAND", help=HAND_HELP)
    explain.add_argument("--at", type=whole_value("a step", 1), required=True, metavar="STEP",
                         help="the step about to be made (1: the first action after the deal)")
    explain.add_argument("--under", metavar="RULESET",
                         help="another ruleset (id, id:option=choice, or a file); default: "
                              "the hand's own")
    explain.add_argument("--action", metavar="ACTION",
                         help="an action to rule on, typed as at the table: 7H, 'bid nap', "
                              "pass, 'buy 2C 7D'")
    explain.add_argument("--long", action="store_true",
                         help="every rule checked, in force or not, each with its text and "
                              "quotations every time (by default: the rules in force, each "
                              "text and quotation once)")
    explain.set_defaults(run=run_explain)


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
    width = width_now()
    lines = position_lines(the_spec, position, width)
    if args.action is not None:
        try:
            ruling = rule_on(position, args.action)
        except NotationError as exc:
            raise UsageError(f"--action {args.action!r}: {exc}") from None
        lines += ["", *ruling_lines(the_spec, position, ruling, width, args.long)]
    print_lines(lines)
    return 0
