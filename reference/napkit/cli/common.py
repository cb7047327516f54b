"""What every command of ``napkit`` shares: the exit statuses, the one-line usage errors, the
output of lines, and the reading of a ruleset and of option choices from the command line."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from napkit.errors import UsageError

if TYPE_CHECKING:  # the spec is loaded by the commands that read it, not to build the parsers
    from napkit.spec.catalog import Spec
    from napkit.spec.rulesets import Ruleset

EXIT_PROBLEMS = 1
EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        from napkit.output.tables import printable_message  # it quotes what was typed

        print(printable_message(f"napkit: {message} (see '{self.prog} --help')"),
              file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def print_lines(lines: list[str]) -> None:
    """Print ``lines`` for a person, each escaped for the terminal (:func:`printable`): the
    last guard for a string from outside (a house file's title, a program's reason) that a
    command put in its lines as it was."""
    from napkit.output.tables import printable

    print("\n".join(printable(part) for line in lines for part in line.split("\n")))
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
    from napkit.spec.catalog import load_spec

    return load_spec()


def ruleset_file(argument: str) -> str | None:
    """The path of the ruleset file a RULESET argument names, or None for a ruleset id."""
    is_path = argument.endswith(".json") or "/" in argument or "\\" in argument
    return argument if is_path else None


def ruleset_argument(spec: Spec, argument: str) -> Ruleset:
    """A ruleset id of the spec, or the path of a ruleset file (a house file, or a source's)."""
    if ruleset_file(argument) is not None:
        from napkit.spec.house import load_ruleset_path

        return load_ruleset_path(Path(argument), argument, spec)
    ruleset = spec.rulesets.get(argument)
    if ruleset is None:
        raise UsageError(f"no ruleset {argument!r}{suggest(argument, spec.rulesets)}; "
                         f"the rulesets are {', '.join(sorted(spec.rulesets))}")
    return ruleset


def suggest(wrong: str, known: Sequence[str] | object) -> str:
    import difflib  # here: only a mistake needs it (napkit starts without it)

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


#: The largest whole number an option takes, and the largest seed: 2^53 - 1, as every number
#: of napkit's formats (Python's random module would take any integer, and takes -S as S).
#: It is :data:`napkit.reading.WHOLE` (a test holds them equal), not imported: building the
#: parsers reads no JSON, and 'napkit --help' must start fast.
WHOLE = MAX_SEED = 2**53 - 1
#: The most seconds a time option takes (about 115 days): more is a slip of the keyboard, and
#: from about 2^33 the clock's arithmetic and select() overflow with a traceback.
MAX_SECONDS = 10_000_000
#: The most jobs ``-j`` takes: each is a process (two, with a program under test), and a slip
#: of the keyboard must not start thousands.
MAX_JOBS = 256

# Every number option is read by the parsers below, so that each says the same thing of the
# same mistake. ASCII digits only: int() and float() also take "1_000", other scripts' digits,
# "inf" and "nan".
_WHOLE_TEXT = re.compile(r"[0-9]{1,20}")
_SECONDS_TEXT = re.compile(
    r"(?:[0-9]{1,20}(?:\.[0-9]{0,20})?|\.[0-9]{1,20})(?:[eE][+-]?[0-9]{1,3})?")


def _given(text: str) -> str:
    """The value typed, quoted for a message: escaped, and shortened (saying its length)."""
    from napkit.output.tables import cut, printable

    shown = cut(printable(text), 40)
    return f"'{shown}'" + (f" ({len(text):,} characters)" if shown != printable(text) else "")


def _bound(value: int) -> str:
    return f"{value} (2^53 - 1)" if value == WHOLE else str(value)


def _whole_or_none(text: str, minimum: int, maximum: int) -> int | None:
    text = text.strip()
    if _WHOLE_TEXT.fullmatch(text) is None:
        return None
    value = int(text)
    return value if minimum <= value <= maximum else None


def whole_value(noun: str, minimum: int = 0, maximum: int = WHOLE) -> Callable[[str], int]:
    """The ``type=`` of an option that takes a whole number from ``minimum`` to ``maximum``
    (digits only); anything else is a usage error that says the range, the same for a number
    below it (``-1``) as for one just under it (``0``), and for one above it.

    >>> repeat = whole_value("a number of runs", 1)
    >>> repeat("3"), repeat(str(2**53 - 1))
    (3, 9007199254740991)
    >>> for text in ("0", "-1", "1.5"):
    ...     try:
    ...         repeat(text)
    ...     except argparse.ArgumentTypeError as exc:
    ...         print(exc)
    a number of runs is a whole number from 1 to 9007199254740991 (2^53 - 1), not '0'
    a number of runs is a whole number from 1 to 9007199254740991 (2^53 - 1), not '-1'
    a number of runs is a whole number from 1 to 9007199254740991 (2^53 - 1), not '1.5'
    """

    def parse(text: str) -> int:
        value = _whole_or_none(text, minimum, maximum)
        if value is None:
            raise argparse.ArgumentTypeError(f"{noun} is a whole number from {minimum} to "
                                             f"{_bound(maximum)}, not {_given(text)}")
        return value

    return parse


#: ``--seed S``: a whole number from 0 to :data:`MAX_SEED`.
seed_value = whole_value("a seed", 0, MAX_SEED)


def seconds_value(text: str) -> float:
    """``--timeout S`` and every other option that takes seconds: a finite number above 0 and
    at most :data:`MAX_SECONDS` (digits, a point, an exponent), else a usage error saying so
    (the same for ``0``, ``-1``, ``inf`` and ``nan``).

    >>> seconds_value("2.5"), seconds_value("1e3")
    (2.5, 1000.0)
    >>> try:
    ...     seconds_value("inf")
    ... except argparse.ArgumentTypeError as exc:
    ...     print(exc)
    a time is a finite number of seconds above 0 and at most 10000000 (0.5, 30), not 'inf'
    """
    stripped = text.strip()
    value = float(stripped) if _SECONDS_TEXT.fullmatch(stripped) else 0.0
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"a time is a finite number of seconds above 0 and at most {MAX_SECONDS} "
            f"(0.5, 30), not {_given(text)}")
    return value


def jobs_value(text: str) -> int:
    """``-j N``: a whole number of jobs from 1 to :data:`MAX_JOBS`, or ``0`` or ``auto`` for
    one per core (:func:`napkit.conform.run.parallel.cores`)."""
    value = 0 if text.strip() == "auto" else _whole_or_none(text, 0, MAX_JOBS)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"a number of jobs is a whole number from 0 to {MAX_JOBS}, or 'auto' (0 and auto: "
            f"one per core), not {_given(text)}")
    if value:
        return value
    from napkit.conform.run.parallel import cores  # here: most commands never need it

    return cores()


def shard_value(text: str) -> tuple[int, int]:
    """``--shard K/N``: the K-th of N slices, 1 <= K <= N <= 2^53 - 1, as (K, N).

    >>> shard_value("2/4"), shard_value(" 1/1 ")
    ((2, 4), (1, 1))
    """
    k, slash, n = text.partition("/")
    index, count = _whole_or_none(k, 1, WHOLE), _whole_or_none(n, 1, WHOLE)
    if not slash or index is None or count is None or index > count:
        raise argparse.ArgumentTypeError(
            f"a shard is K/N, the K-th of N slices with 1 <= K <= N (1/4, 2/4...), not "
            f"{_given(text)}")
    return index, count


#: What a command module registers itself with: ``register(commands)`` adds its command.
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"

HAND_HELP = "a hand: the hand notation (.nap) or napkit-hand/1 JSON"


def read_hand(path: str) -> dict[str, Any]:
    """A recorded hand from a file, in the hand notation (``*.nap``) or as JSON
    (``napkit-hand/1``), finished or stopped anywhere; :class:`~napkit.errors.UsageError`
    naming the line and column, or the JSON path, otherwise. The recorded outcome is not
    checked (it may be what the table is arguing about), nor are its cards checked against
    the rules of play: a revoke, a card out of turn, a wrong first lead are read as the table
    played them (what each ruleset makes of them is the replay's to say); the deal must be
    one the record's own ruleset deals, and every other step one it allows."""
    from napkit.dispute.replay import RecordError, dealt
    from napkit.formats.handtext import HandFileError, read_hand_file

    try:
        record = read_hand_file(path, check=False, irregular=True)
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
    import shutil  # here, not above: most commands never ask

    return max(60, min(120, shutil.get_terminal_size((100, 24)).columns))
