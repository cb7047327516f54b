"""The ``napkit`` command: the parser and the dispatch, and nothing else.

Each command is a module of this folder that registers itself one way, ``register(commands)``
(:data:`COMMANDS`, in the order ``napkit --help`` lists them), and whose body is a function of
plain arguments returning the exit status:

- :mod:`~napkit.cli.rules`: ``napkit rules ...``: read, compare and check the law book and the
  rulesets, write a house game, print a sheet, search the rules;
- :mod:`~napkit.cli.play`: ``napkit play``: play hands or a match in the terminal against the
  engine's players (the table: :mod:`~napkit.cli.table`);
- :mod:`~napkit.cli.record`: ``napkit record``: the record of hands or a match the engine's
  players play;
- :mod:`~napkit.cli.validate`: ``napkit validate``: check recorded hands and matches;
- :mod:`~napkit.cli.perft`: ``napkit perft``: count the legal action sequences from a position;
- :mod:`~napkit.cli.replay`, :mod:`~napkit.cli.explain`: ``napkit replay``, ``napkit
  explain``: a hand that was played, under other rulesets, and one position of it explained;
- :mod:`~napkit.cli.adapter`: ``napkit adapter``: the reference engine behind the adapter
  protocol;
- :mod:`~napkit.cli.conform`: ``napkit conform``: the conformance suite against a program;
  and ``napkit suite build``: the generated cases of a house game, written to a folder;
- :mod:`~napkit.cli.fuzz`: ``napkit fuzz``: random hands through a program and the engine;
- :mod:`~napkit.cli.report`: ``napkit report ...``: merge, compare, diff and draw reports.

What the commands share is :mod:`~napkit.cli.common` (exit statuses, one-line usage errors,
reading a ruleset from the command line); Ctrl-C that is never lost is
:mod:`~napkit.cli.interrupt`. Files are written and progress shown by :mod:`napkit.output`,
which the reports use too: nothing of the library imports this folder.

Bad input of any kind is reported on one line (``napkit: <file>: <path>: <message>``) with
exit status 2 for a usage error and 1 for an invalid spec, ruleset or record file; never a
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from napkit import __version__
from napkit.cli import interrupt
from napkit.cli.common import EXIT_PROBLEMS, EXIT_USAGE, Parser, silence_stdout
from napkit.errors import ChoiceError, SpecError, SpecProblemsError, UsageError

__all__ = ["EXIT_INTERRUPTED", "EXIT_PROBLEMS", "EXIT_USAGE", "main"]

#: The command modules, in the order ``napkit --help`` lists their commands.
COMMANDS = ("rules", "play", "record", "validate", "perft", "replay", "explain", "adapter",
            "conform", "suite", "fuzz", "report")
#: The commands registered by another command's module (``register_NAME`` there): ``napkit
#: suite`` writes the cases ``napkit conform`` runs, and is its module's.
HOMES = {"suite": "conform"}

EXIT_INTERRUPTED = 130  # the shell's status for a command ended by Ctrl-C (128 + SIGINT)
# (a command stopped by SIGTERM, which napkit handles as Ctrl-C, exits 143: 128 + SIGTERM)


def _parser(wanted: str | None = None, every: bool = True) -> argparse.ArgumentParser:
    """The parser of every command. With ``every`` false: the ``wanted`` command's alone (its
    module alone imported), if it is one of napkit's; else every command in outline
    (:class:`_Outline`: its name and line of help, which is all ``napkit --help`` shows)."""
    parser = Parser(prog="napkit", description="The reference rules kit for Nap.",
                    epilog="examples:\n  napkit rules show pagat\n"
                           "  napkit play pagat --players 4 --seat 0 --seed 1\n"
                           "  napkit conform -- node my-nap.js\n"
                           "  napkit fuzz --seconds 60 -- node my-nap.js\n\n"
                           "'napkit COMMAND --help' shows each command's options.",
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"napkit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    if not every and wanted in COMMANDS:
        _register(wanted)(commands)
        return parser
    for name in COMMANDS:
        _register(name)(commands if every else _Outline(commands))
    return parser


def _register(name: str) -> Callable[[Any], None]:
    """The function that registers the command ``name`` (its module imported)."""
    module = importlib.import_module(f"napkit.cli.{HOMES.get(name, name)}")
    register: Callable[[Any], None] = getattr(
        module, "register" if name not in HOMES else f"register_{name}")
    return register


class _Outline(Parser):
    """A command's parser in outline: the command is listed (its name and help), and the
    options its module adds are passed over. Building the parsers of all eleven commands in
    full, argparse asking gettext for each one's headings, cost ``napkit --help`` a third of a
    bare Python start (benchmarks/startup.py)."""

    def __init__(self, commands: Any) -> None:  # argparse's _SubParsersAction, or None
        # Not ArgumentParser.__init__: nothing is parsed with an outline.
        self.commands = commands

    def add_parser(self, name: str, **kwargs: Any) -> _Outline:
        if self.commands is not None:  # a command of napkit: listed as it is
            self.commands.add_parser(name, help=kwargs.get("help"), add_help=False)
        return _Outline(None)

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        return None

    def add_subparsers(self, **kwargs: Any) -> Any:
        return _Outline(None)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        return self

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        return self

    def set_defaults(self, **kwargs: Any) -> None:
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    interrupt.install()
    before = interrupt.count()
    try:
        status = _main(argv)
    except KeyboardInterrupt:  # Ctrl-C, at any moment: one line, no traceback (files are
        print("\nnapkit: interrupted", file=sys.stderr)  # never half-written)
        return interrupt.exit_status() if interrupt.count() > before else EXIT_INTERRUPTED
    if interrupt.count() > before and status == 0:  # Ctrl-C caught on the way and lost
        print("\nnapkit: interrupted", file=sys.stderr)
        return interrupt.exit_status()
    if status == EXIT_INTERRUPTED and interrupt.count() > before:  # 143 for SIGTERM
        return interrupt.exit_status()
    return status


def _main(argv: Sequence[str] | None) -> int:
    # Ctrl-C is main's: it may come while the parsers are built, as well as in a command.
    # Only the command named is built: argparse takes a command only by its whole name, as
    # the first word (napkit's own options take no value), and what it says of that
    # command's arguments never lists the others.
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(words[0] if words else None, every=False)
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
        _tell(f"napkit: {message}")
        return EXIT_USAGE
    except SpecProblemsError as exc:
        more = " ('napkit rules check' lists them all)" if len(exc.errors) > 1 else ""
        _tell(f"napkit: {exc}{more}")
        return EXIT_PROBLEMS
    except SpecError as exc:
        _tell(f"napkit: {exc}")
        return EXIT_PROBLEMS
    except BrokenPipeError:  # `napkit rules show x | head`: the reader has gone; not an error
        silence_stdout()
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        _tell(f"napkit: {where}{exc.strerror or exc}")
        return EXIT_PROBLEMS


def _tell(message: str) -> None:
    """An error on one line: it quotes what was typed or read (a file name, an id), made
    printable and with any run of a megabyte shortened."""
    from napkit.output.tables import printable_message

    print(printable_message(message), file=sys.stderr)
