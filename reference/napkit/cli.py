"""``napkit rules ...``: read, compare and check the law book and the rulesets.

Bad input of any kind is reported on one line (``napkit: <file>: <path>: <message>``) with
exit status 2 for a usage error and 1 for an invalid spec or ruleset file; never a traceback.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from napkit import paths, views
from napkit.checks import check_ruleset, check_spec
from napkit.compare import compare
from napkit.errors import ChoiceError, SpecError, SpecProblemsError, UsageError
from napkit.rulesets import Ruleset
from napkit.spec import Spec, load_ruleset_file, load_spec, read_spec

EXIT_PROBLEMS = 1
EXIT_USAGE = 2


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
