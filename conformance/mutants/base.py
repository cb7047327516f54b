"""A mutant: a named, deliberate bug in the reference engine, and the registry of them all."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from conformance.mutants.patching import Patcher

# The phases of play a mutant may break, in the order a match goes through them.
PHASES = ("deal", "auction", "looks", "purchase", "exchange", "trumps", "lead", "play",
          "settlement", "match")
# Where the bug shows: in a single hand (its legal actions, refusals or outcome), or only over
# a match (dealers, packs, antes, pools and balances carried from hand to hand).
SCOPES = ("hand", "match")

Install = Callable[[Patcher], None]


@dataclass(frozen=True)
class Mutant:
    """One wrong implementation: the reference engine with one small change.

    ``rule`` is the law book's rule id the change breaks; ``rulesets`` the rulesets whose play
    it changes (under their default options, or under ``options[ruleset]`` where given: the
    choices under which the bug shows); ``install`` makes the change through a
    :class:`~conformance.mutants.patching.Patcher`. The description is the install function's
    docstring.
    """

    name: str
    rule: str
    rulesets: tuple[str, ...]
    phase: str
    scope: str
    install: Install = field(repr=False, compare=False)
    options: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def description(self) -> str:
        return " ".join((inspect.getdoc(self.install) or "").split())

    def apply(self) -> Patcher:
        """Make the change to the running engine (for the life of the process, or until the
        returned patcher's ``undo``)."""
        patcher = Patcher()
        try:
            self.install(patcher)
        except BaseException:
            patcher.undo()
            raise
        return patcher

    @contextmanager
    def applied(self) -> Iterator[None]:
        """The engine with this mutant, inside the ``with`` block only."""
        patcher = self.apply()
        try:
            yield
        finally:
            patcher.undo()


REGISTRY: dict[str, Mutant] = {}


def mutant(name: str, *, rule: str, rulesets: tuple[str, ...], phase: str,
           scope: str = "hand", options: Mapping[str, Mapping[str, str]] | None = None,
           ) -> Callable[[Install], Install]:
    """Register the decorated install function as the mutant ``name``."""
    if phase not in PHASES:
        raise ValueError(f"mutant {name}: unknown phase {phase!r}")
    if scope not in SCOPES:
        raise ValueError(f"mutant {name}: unknown scope {scope!r}")

    def register(install: Install) -> Install:
        if name in REGISTRY:
            raise ValueError(f"mutant {name} is registered twice")
        if not inspect.getdoc(install):
            raise ValueError(f"mutant {name} has no description (its docstring)")
        REGISTRY[name] = Mutant(name, rule, tuple(rulesets), phase, scope, install,
                                dict(options or {}))
        return install

    return register
