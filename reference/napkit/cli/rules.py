"""``napkit rules ...``: read, compare and check the law book and the rulesets.

Each command's body is a function of plain arguments that prints what the command prints and
returns its exit status: :func:`list_rulesets`, :func:`show`, :func:`rule`,
:func:`compare_rulesets`, :func:`decisions`, :func:`check`, :func:`search`, :func:`new`,
:func:`sheet`. What they print is drawn by :mod:`napkit.spec.views` (and
:mod:`napkit.handbook.search`, :mod:`napkit.handbook.sheet`); a usage error is raised as
:class:`~napkit.errors.UsageError`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from napkit import paths
from napkit.cli.common import (
    EXIT_PROBLEMS,
    EXIT_USAGE,
    Commands,
    Parser,
    option_choices,
    print_lines,
    ruleset_argument,
    ruleset_file,
    spec,
    suggest,
    whole_value,
)
from napkit.errors import SpecError, SpecProblemsError, UsageError

if TYPE_CHECKING:
    from napkit.spec.catalog import Spec

# The spec's readers and views are imported by the actions that use them, not here: building
# the parsers (napkit --help) must not load them (tests/test_startup_imports.py).

# What each action's --help shows as its example (tests/test_cli_help.py runs each one).
EXAMPLES = {
    "list": "napkit rules list",
    "show": "napkit rules show peep --option naming=any-suit",
    "rule": "napkit rules rule NAP-8.1.1",
    "compare": "napkit rules compare classic napoleon",
    "decisions": "napkit rules decisions DEC-003",
    "check": "napkit rules check spec/examples/house-two-no-wellington.json",
    "search": 'napkit rules search "what does a failed Nap cost?"',
    "new": "napkit rules new --from pagat --option mis=on --set bids[nap].win.each=6 "
           "-o house.json",
    "sheet": "napkit rules sheet pagat-floater -o sheet.html",
}


def register(commands: Commands) -> None:
    """``napkit rules`` and its actions."""
    rules = commands.add_parser(
        "rules", help="read, compare and check the rules",
        description="Read, compare and check the law book and rulesets.",
        epilog="examples:\n  napkit rules list\n  napkit rules show pagat-floater\n"
               "  napkit rules compare classic pagat",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    rules.set_defaults(run=lambda _args: _help(rules))
    sub = rules.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)

    def add(name: str, run: Callable[[argparse.Namespace], int], text: str) -> Parser:
        command = sub.add_parser(name, help=text, description=text,
                                 epilog=f"example:\n  {EXAMPLES[name]}",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        command.set_defaults(run=run)
        assert isinstance(command, Parser)
        return command

    add("list", lambda _args: list_rulesets(), "every ruleset, its source and player counts")
    show_ = add("show", lambda args: show(args.ruleset, args.option),
                "one ruleset: its rules with citations, options, decisions")
    show_.add_argument("ruleset", metavar="RULESET", help="a ruleset id or a ruleset file")
    show_.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                       help="play with this option value (repeatable)")
    rule_ = add("rule", lambda args: rule(args.rule_id),
                "one rule, with every ruleset's citation for it")
    rule_.add_argument("rule_id", metavar="RULE_ID")
    comp = add("compare", lambda args: compare_rulesets(args.a, args.b, args.option_a,
                                                        args.option_b),
               "where two rulesets differ, rule by rule")
    comp.add_argument("a", metavar="A", help="a ruleset id or a ruleset file")
    comp.add_argument("b", metavar="B", help="a ruleset id or a ruleset file")
    comp.add_argument("--option-a", action="append", default=[], metavar="NAME=CHOICE")
    comp.add_argument("--option-b", action="append", default=[], metavar="NAME=CHOICE")
    decisions_ = add("decisions", lambda args: decisions(args.decision_id),
                     "the decisions register, or one decision")
    decisions_.add_argument("decision_id", nargs="?", metavar="DEC_ID")
    check_ = add("check", lambda args: check(args.files),
                 "check the spec, or ruleset files of your own (house games too) or files of "
                 "players' questions")
    check_.add_argument("files", nargs="*", metavar="FILE")
    search_ = add("search", lambda args: search(args.words, args.limit, args.json),
                  "find the rules, decisions and options about a question or topic, best first")
    search_.add_argument("words", nargs="+", metavar="WORDS",
                         help="the question or topic in words (\"must I lead a trump?\")")
    search_.add_argument("-n", "--limit", type=whole_value("a number of results", 1), default=5,
                         metavar="N",
                         help="show the N best (default 5)")
    search_.add_argument("--json", action="store_true", help="print the results as JSON")
    new_ = add("new", lambda args: new(args.parent, args.option, args.set, args.id, args.title,
                                       args.output),
               "write a house ruleset file: a built-in ruleset with your options and changes")
    new_.add_argument("--from", dest="parent", required=True, metavar="RULESET",
                      help="the built-in ruleset your game starts from")
    new_.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                      help="play with this choice of an option: it becomes the option's default "
                           "(repeatable)")
    new_.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                      help="change a parameter: throw_in.stakes=double-next, "
                           "bids[nap].win.each=10, ante.amount=2 (VALUE is JSON or a word; "
                           "repeatable)")
    new_.add_argument("--id", help="your game's id (default house-RULESET)")
    new_.add_argument("--title", help="your game's title")
    new_.add_argument("-o", "--output", default="-", metavar="FILE",
                      help="the house file to write (default: standard output)")
    sheet_ = add("sheet", lambda args: sheet(args.ruleset, args.option, args.output, args.site),
                 "write a ruleset's rules on one printable page (HTML, A4, two sides at most)")
    sheet_.add_argument("ruleset", metavar="RULESET", help="a ruleset id or a ruleset file")
    sheet_.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                        help="with this option value (repeatable)")
    sheet_.add_argument("-o", "--output", default="-", metavar="FILE",
                        help="the HTML file to write (default: standard output)")
    sheet_.add_argument("--site", default="", metavar="URL",
                        help="where the rules site is, for the links of the rule ids (default: "
                             "beside the sheet, lawbook.html#NAP-...)")


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_USAGE


def list_rulesets() -> int:
    """``napkit rules list``: every ruleset, its source and player counts."""
    from napkit.spec import views

    print_lines(views.list_view(spec()))
    return 0


def show(ruleset_id: str, options: Sequence[str] = ()) -> int:
    """``napkit rules show RULESET [--option NAME=CHOICE]...``: one ruleset (an id or a file)."""
    from napkit.output.tables import printable_lines
    from napkit.spec import views

    the_spec = spec()
    ruleset = ruleset_argument(the_spec, ruleset_id)
    choices = option_choices(list(options), "--option")
    ruleset.option_values(choices)  # an unknown option or choice is a usage error
    # A ruleset file's title, description and names are text from outside.
    print_lines(printable_lines(views.show_view(the_spec, ruleset, choices)))
    return 0


def rule(rule_id: str) -> int:
    """``napkit rules rule RULE_ID``: one rule, with every ruleset's citation for it."""
    from napkit.spec import views

    the_spec = spec()
    found = the_spec.lawbook.get(rule_id)
    if found is None:
        raise UsageError(f"the law book has no rule {rule_id!r}"
                         f"{suggest(rule_id, list(the_spec.lawbook.rules))}")
    print_lines(views.rule_view(the_spec, found))
    return 0


def compare_rulesets(a_id: str, b_id: str, options_a: Sequence[str] = (),
                     options_b: Sequence[str] = ()) -> int:
    """``napkit rules compare A B``: where two rulesets differ, rule by rule."""
    from napkit.spec import views
    from napkit.spec.compare import compare

    the_spec = spec()
    a, b = ruleset_argument(the_spec, a_id), ruleset_argument(the_spec, b_id)
    choices_a = option_choices(list(options_a), "--option-a")
    choices_b = option_choices(list(options_b), "--option-b")
    differences = compare(a, b, the_spec.lawbook, choices_a, choices_b)
    print_lines(views.compare_view(the_spec, a, b, differences, choices_a=choices_a,
                                   choices_b=choices_b))
    return 0


def decisions(decision_id: str | None = None) -> int:
    """``napkit rules decisions [DEC_ID]``: the decisions register, or one decision."""
    from napkit.spec import views

    the_spec = spec()
    if decision_id is None:
        print_lines(views.decisions_view(the_spec))
        return 0
    decision = the_spec.register.get(decision_id)
    if decision is None:
        raise UsageError(f"the register has no decision {decision_id!r}"
                         f"{suggest(decision_id, list(the_spec.register.by_id))}")
    print_lines(views.decision_view(the_spec, decision))
    return 0


def check(files: Sequence[str] = ()) -> int:
    """``napkit rules check [FILE]...``: check the spec, or ruleset files of your own, or files
    of players' questions (as spec/questions/'s, and against them)."""
    from napkit.output.tables import printable_message
    from napkit.spec import views
    from napkit.spec.catalog import read_spec
    from napkit.spec.checks import check_spec

    if files:
        return _check_files(list(files))
    the_spec, problems = read_spec()
    if not problems:
        problems = check_spec(the_spec, paths.sources_dir())
    for problem in problems:
        print(printable_message(str(problem)))
    what = (f"the spec ({len(the_spec.rulesets)} rulesets, {len(the_spec.lawbook.rules)} rules, "
            f"{len(the_spec.register.decisions)} decisions)")
    print(views.check_summary(problems, what))
    if not paths.sources_dir().is_dir():
        print(f"(the sources are not at {paths.sources_dir()}: their line counts and digests "
              "were not compared)")
    return EXIT_PROBLEMS if problems else 0


def _check_files(files: list[str]) -> int:
    from napkit.output.tables import printable_lines, printable_message
    from napkit.spec import views
    from napkit.spec.catalog import load_ruleset_file
    from napkit.spec.checks import check_ruleset
    from napkit.spec.house import is_house_document, not_a_house_file_said, read_house_ruleset
    from napkit.spec.loading import read_document
    from napkit.spec.questions import is_question_document

    the_spec = spec()
    problems: list[SpecError] = []
    asking = 0  # files of players' questions, checked as spec/questions/'s are
    for file in files:
        try:
            document = read_document(Path(file), file)
            if is_question_document(document):
                asking += 1
                problems += _check_question_file(Path(file), file, the_spec)
                continue
            if is_house_document(document):
                house, found = read_house_ruleset(Path(file), file, the_spec)
                if house is not None:
                    # Its title and names are text from outside.
                    print_lines(printable_lines(views.house_lines(house)))
                problems += found
                continue
            unsaid = not_a_house_file_said(document, file)
            if unsaid is not None:
                problems.append(unsaid)
                continue
            ruleset = load_ruleset_file(Path(file), file, the_spec)
        except SpecProblemsError as exc:
            problems += exc.errors
            continue
        except SpecError as exc:
            problems.append(exc)
            continue
        problems += check_ruleset(ruleset, the_spec)
    for problem in problems:
        print(printable_message(str(problem)))
    count = len(files) - asking
    what = [f"{count} ruleset file{'s' if count != 1 else ''}"] if count else []
    what += [f"{asking} file{'s' if asking != 1 else ''} of players' questions"] if asking else []
    print(views.check_summary(problems, " and ".join(what)))
    return EXIT_PROBLEMS if problems else 0


def _check_question_file(path: Path, shown: str, the_spec: Spec) -> list[SpecError]:
    """A file of players' questions checked as those of spec/questions/ are, and against them
    (a question filed under another entry there)."""
    from napkit.spec.questions import Questions, check_questions, read_question_file

    found = read_question_file(path, shown, the_spec.dir)
    others = [q for q in the_spec.questions if q.file != shown]
    problems = check_questions(Questions((*others, *found)), the_spec.lawbook,
                               the_spec.register, the_spec.index)
    return [p for p in problems if p.file == shown]


def search(words: Sequence[str], limit: int = 5, as_json: bool = False) -> int:
    """``napkit rules search WORDS``: the rules, decisions and options about a question, best
    first, each with its id and each ruleset's value; one line on stderr (status 1) when none
    is found."""
    from napkit.handbook import search as rules_search

    the_spec = spec()
    question = " ".join(words)
    hits = rules_search.search(the_spec, question, limit)
    if as_json:
        print(json.dumps(rules_search.result_document(the_spec, question, hits),
                         ensure_ascii=False, indent=2))
        sys.stdout.flush()
    elif hits:
        print_lines(rules_search.result_lines(the_spec, question, hits))
    if not hits:
        print(f"napkit: nothing in the law book, the decisions or the options matches "
              f"{question!r}; try other words, or 'napkit rules list' and 'napkit rules show "
              f"RULESET' to read the rules", file=sys.stderr)
        return EXIT_PROBLEMS
    return 0


def new(parent_id: str, options: Sequence[str] = (), settings: Sequence[str] = (),
        house_id: str | None = None, title: str | None = None, output: str = "-") -> int:
    """``napkit rules new --from RULESET [--option NAME=CHOICE]... [--set PARAM=VALUE]... -o
    FILE``: a house ruleset file, checked as ``napkit rules check`` checks one before it is
    written; with any problem, each is printed (the file and the JSON path) and nothing is
    written."""
    from napkit.handbook.newhouse import house_document, parse_setting
    from napkit.output.files import STDOUT, write_text
    from napkit.spec import views
    from napkit.spec.house import house_from_document

    the_spec = spec()
    parent = the_spec.rulesets.get(parent_id)
    if parent is None:
        raise UsageError(f"--from {parent_id!r} is not a built-in ruleset"
                         f"{suggest(parent_id, list(the_spec.rulesets))}; the rulesets are "
                         f"{', '.join(sorted(the_spec.rulesets))}")
    choices = option_choices(list(options), "--option")
    document = house_document(parent, choices, [parse_setting(s) for s in settings],
                              house_id, title)
    shown = "(standard output)" if output == STDOUT else output
    house, problems = house_from_document(document, Path(output), shown, the_spec)
    if problems or house is None:
        for problem in problems:
            name = problem.path.removeprefix("$.options.").split(".")[0]
            given = (f" (--option {name}={choices[name]})"
                     if problem.path.startswith("$.options.") and name in choices else "")
            print(f"{problem}{given}", file=sys.stderr)
        print(f"napkit: {views.check_summary(problems, 'the house ruleset')} Nothing was "
              "written.", file=sys.stderr)
        return EXIT_PROBLEMS
    write_text(output, json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    report = sys.stderr if output == STDOUT else sys.stdout
    print("\n".join(views.house_lines(house)).replace(f"{shown}: a house game",
                                                      f"wrote {shown}: a house game", 1),
          file=report)
    return 0


def sheet(ruleset_id: str, options: Sequence[str] = (), output: str = "-",
          site: str = "") -> int:
    """``napkit rules sheet RULESET|FILE [--option NAME=CHOICE]... -o FILE``: the ruleset's
    rules on one printable page, HTML."""
    from napkit.handbook.sheet import sheet_html
    from napkit.output.files import STDOUT, refuse_clashes, write_text

    path = ruleset_file(ruleset_id)
    if output != STDOUT and path is not None:  # a house file, read: never the page's place
        refuse_clashes([("-o", output)], [("the ruleset file", path)])
    the_spec = spec()
    ruleset = ruleset_argument(the_spec, ruleset_id)
    choices = option_choices(list(options), "--option")
    ruleset.option_values(choices)  # an unknown option or choice is a usage error
    if site and not site.endswith("/"):
        site += "/"
    write_text(output, sheet_html(the_spec, ruleset, choices, site))
    if output != STDOUT:
        print(f"wrote {output}: the rules of {ruleset.id} on one page")
    return 0
