"""What every command of ``napkit`` shares: the exit statuses, the one-line usage errors, the
output of lines, and the reading of a ruleset and of option choices from the command line."""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

from napkit.errors import UsageError
from napkit.spec.catalog import Spec, load_spec
from napkit.spec.house import load_ruleset_path
from napkit.spec.rulesets import Ruleset

EXIT_PROBLEMS = 1
EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        print(f"napkit: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def print_lines(lines: list[str]) -> None:
    print("\n".join(lines))
    sys.stdout.flush()  # a closed pipe shows up here, inside main, not at interpreter exit


def silence_stdout() -> None:
    # The reader of our output has gone: point stdout at /dev/null so that Python's final
    # flush does not fail again (the recipe of the signal module's documentation).
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def spec() -> Spec:
    return load_spec()


def ruleset_file(argument: str) -> str | None:
    """The path of the ruleset file a RULESET argument names, or None for a ruleset id."""
    is_path = argument.endswith(".json") or "/" in argument or "\\" in argument
    return argument if is_path else None


def ruleset_argument(spec: Spec, argument: str) -> Ruleset:
    """A ruleset id of the spec, or the path of a ruleset file (a house file, or a source's)."""
    if ruleset_file(argument) is not None:
        return load_ruleset_path(Path(argument), argument, spec)
    ruleset = spec.rulesets.get(argument)
    if ruleset is None:
        raise UsageError(f"no ruleset {argument!r}{suggest(argument, spec.rulesets)}; "
                         f"the rulesets are {', '.join(sorted(spec.rulesets))}")
    return ruleset


def suggest(wrong: str, known: Sequence[str] | object) -> str:
    names = list(known) if isinstance(known, Sequence | dict) else []
    close = difflib.get_close_matches(wrong, names, n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def option_choices(values: list[str], flag: str) -> dict[str, str]:
    choices: dict[str, str] = {}
    for value in values:
        name, equals, choice = value.partition("=")
        if not equals or not name or not choice:
            raise UsageError(f"{flag} takes NAME=CHOICE, not {value!r}")
        if name in choices and choices[name] != choice:
            raise UsageError(f"{flag} {name} is given twice ({choices[name]}, {choice})")
        choices[name] = choice
    return choices


#: The largest seed: seeds are whole numbers from 0 to 2^53 - 1, as every number of napkit's
#: formats is (Python's random module would take any integer, and takes -S as S).
MAX_SEED = 2**53 - 1


def seed_value(text: str) -> int:
    """``--seed S``: a whole number from 0 to :data:`MAX_SEED`, else a usage error.

    >>> seed_value("7"), seed_value("9007199254740991")
    (7, 9007199254740991)
    """
    try:
        value = int(text, 10)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED or not text.strip().isdigit():
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to {MAX_SEED} (2^53 - 1), not {text[:40]!r}")
    return value


def seconds_value(text: str) -> float:
    """``--timeout S`` and the like: a number of seconds above 0 (and finite), else a usage
    error.

    >>> seconds_value("2.5")
    2.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"the time limit must be above 0, not {text}")
    return value


#: What a command module registers itself with: ``register(commands)`` adds its command.
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"

HAND_HELP = "a hand: the hand notation (.nap) or napkit-hand/1 JSON"


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


def width() -> int:
    """The width to lay text out in: the terminal's, kept between 60 and 120."""
    return max(60, min(120, shutil.get_terminal_size((100, 24)).columns))
