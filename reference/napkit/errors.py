"""Typed errors: every problem with the spec or with a user's file is a :class:`SpecError`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def json_path(parts: Iterable[str | int]) -> str:
    """Render path parts as a JSON path: ``$.params.bids[2].win``, ``$.rules["NAP-4.2.1"]``."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.match(part):
            out += f".{part}"
        else:
            out += '["' + part.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    return out


class SpecError(Exception):
    """One problem in one file: where (a JSON path, or a line and column) and what.

    >>> from napkit import SpecError
    >>> print(SpecError("house.json", "$.params.players", "expected a list"))
    house.json: $.params.players: expected a list
    """

    def __init__(self, file: str, path: str, message: str) -> None:
        super().__init__(file, path, message)
        self.file = file
        self.path = path
        self.message = message

    def __str__(self) -> str:
        # One line, always: a message with a newline in it would break "one problem a line".
        return f"{self.file}: {self.path}: {' '.join(self.message.split())}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SpecError):
            return NotImplemented
        return (self.file, self.path, self.message) == (other.file, other.path, other.message)

    def __hash__(self) -> int:
        return hash((self.file, self.path, self.message))


class SpecProblemsError(Exception):
    """Several problems found together (all the schema errors of the spec's files, say)."""

    def __init__(self, errors: Sequence[SpecError]) -> None:
        if not errors:
            raise ValueError("SpecProblemsError needs at least one error")
        super().__init__(*errors)
        self.errors: tuple[SpecError, ...] = tuple(errors)

    def __str__(self) -> str:
        first = str(self.errors[0])
        more = len(self.errors) - 1
        return first if more == 0 else f"{first} (and {more} more {_problems(more)})"


class ChoiceError(SpecError):
    """An option name or choice that the ruleset does not have (a bad ``--option``)."""

    def __init__(self, file: str, option: str, message: str) -> None:
        super().__init__(file, f"option {option}", message)
        self.option = option


def _problems(n: int) -> str:
    return "problem" if n == 1 else "problems"


def raise_if_any(errors: Sequence[SpecError]) -> None:
    """Raise the errors as :class:`SpecProblemsError` if there are any."""
    if errors:
        raise SpecProblemsError(errors)


class UsageError(Exception):
    """Bad command-line input: an unknown ruleset or rule id, a malformed ``--option``."""


class RuleError(Exception):
    """A game, hand or action that breaks a rule of the law book; carries the rule's id.

    ``str(error)`` is ``"NAP-8.1.1: must follow hearts; holds the 9 of hearts"``: the rule id,
    then why, in words.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(rule, message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class IllegalActionError(RuleError):
    """An action that the rules do not allow in this state (out of turn, a revoke, a low bid).

    >>> import random
    >>> from napkit import Game, IllegalActionError, parse_action
    >>> hand = Game.create("classic", 4).new_hand(dealer=3)
    >>> hand = hand.apply(hand.sample_chance(random.Random(2)))
    >>> hand = hand.apply(parse_action("bid four"))
    >>> try:
    ...     hand.apply(parse_action("bid three"))
    ... except IllegalActionError as error:
    ...     print(error.rule, "|", error.message)
    NAP-5.2.1 | 3 does not rank above the highest bid so far, 4
    """


class SetupError(RuleError):
    """A game or hand that cannot be set up: a number of players or a pack the ruleset forbids.

    >>> from napkit import Game, SetupError
    >>> try:
    ...     Game.create("pagat", 4).new_hand(dealer=7)
    ... except SetupError as error:
    ...     print(error)
    NAP-4.1.1: no seat 7 at a table of 4
    """
