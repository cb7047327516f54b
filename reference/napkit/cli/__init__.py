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

from napkit import __version__
from napkit.cli import interrupt
from napkit.cli.common import EXIT_PROBLEMS, EXIT_USAGE, Parser, silence_stdout
from napkit.errors import ChoiceError, SpecError, SpecProblemsError, UsageError

__all__ = ["EXIT_INTERRUPTED", "EXIT_PROBLEMS", "EXIT_USAGE", "main"]

#: The command modules, in the order ``napkit --help`` lists their commands.
COMMANDS = ("rules", "play", "record", "validate", "perft", "replay", "explain", "adapter",
            "conform", "fuzz", "report")

EXIT_INTERRUPTED = 130  # the shell's status for a command ended by Ctrl-C (128 + SIGINT)


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog="napkit", description="The reference rules kit for Nap.",
                    epilog="examples:\n  napkit rules show pagat\n"
                           "  napkit play pagat --players 4 --seat 0 --seed 1\n"
                           "  napkit conform -- node my-nap.js\n"
                           "  napkit fuzz --seconds 60 -- node my-nap.js\n\n"
                           "'napkit COMMAND --help' shows each command's options.",
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"napkit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS:
        importlib.import_module(f"napkit.cli.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    interrupt.install()
    before = interrupt.count()
    try:
        status = _main(argv)
    except KeyboardInterrupt:  # Ctrl-C, at any moment: one line, no traceback (files are
        print("\nnapkit: interrupted", file=sys.stderr)  # never half-written)
        return EXIT_INTERRUPTED
    if interrupt.count() > before and status == 0:  # Ctrl-C caught on the way and lost
        print("\nnapkit: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return status


def _main(argv: Sequence[str] | None) -> int:
    # Ctrl-C is main's: it may come while the parsers are built, as well as in a command.
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
        silence_stdout()
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"napkit: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_PROBLEMS
