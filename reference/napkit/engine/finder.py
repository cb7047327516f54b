"""Where :meth:`Game.create <napkit.engine.game.Game.create>` finds a ruleset by its id.

The engine reads no files and knows no ruleset by name: whoever does registers a finder here
(importing :mod:`napkit` registers the spec folder's, NAP-10.1.1). It is a module of its own,
apart from :mod:`napkit.engine.game`, so that registering a finder imports nothing of the
engine: ``import napkit`` and ``napkit --help`` stay quick (benchmarks/startup.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

__all__ = ["Finder", "RulesetLike", "ruleset_finder", "set_ruleset_finder"]


class RulesetLike(Protocol):
    """A ruleset as a game reads it: its id, and its parameters resolved for a choice of
    options (:class:`napkit.spec.rulesets.Ruleset` is one)."""

    @property
    def id(self) -> str: ...

    def option_values(self, choices: Mapping[str, str] | None = None) -> dict[str, str]: ...

    def resolve(self, values: Mapping[str, str]) -> Mapping[str, object]: ...


#: A finder: the ruleset of an id, or :class:`~napkit.errors.SetupError` (NAP-10.1.1).
Finder = Callable[[str], RulesetLike]

_finder: Finder | None = None


def set_ruleset_finder(find: Finder) -> None:
    """Make :meth:`Game.create` find rulesets by id with ``find`` (games made with an earlier
    finder are not reused: :func:`napkit.engine.game.set_ruleset_finder` says so too)."""
    global _finder  # noqa: PLW0603
    _finder = find


def ruleset_finder() -> Finder | None:
    """The finder :meth:`Game.create` uses now; None if none has been registered."""
    return _finder
