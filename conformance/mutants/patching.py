"""How a mutant changes the reference engine: by replacing its functions and rules data while
the program runs, never by editing its files.

A :class:`Patcher` records every replacement it makes so that :meth:`Patcher.undo` puts the
engine back (the in-process tests apply a mutant, compare, and undo it; the mutant adapter
applies one for the life of its process).

The engine binds some functions in more than one place: a module that imports a function by
name holds its own reference, a phase's state class may hold the phase functions as its
methods, and the conductor (:mod:`napkit.engine.hand`) keeps them in its dispatch tables.
:meth:`Patcher.function`
therefore replaces the function object wherever the engine holds it (module globals, the
dictionaries of the engine's classes, and module-level lists), which keeps a mutant working
whatever the engine's internal wiring. The engine's memo tables are emptied after every
change, so that nothing computed by the unmutated engine is reused.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from napkit.engine import game as game_module
from napkit.engine.rules import Rules
from napkit.spec.coverage import ENGINE_MODULES, reset_engine_caches

# Every module of the engine whose functions a mutant may replace, and which may hold a
# reference to one; imported up front so that none binds an original after the patch.
MODULES = tuple(f"napkit.engine.{name}" for name in ENGINE_MODULES) + (
    "napkit.formats.records", "napkit.formats.values")


def engine_modules() -> list[ModuleType]:
    for name in MODULES:
        importlib.import_module(name)
    return [m for name, m in sorted(sys.modules.items())
            if (name == "napkit" or name.startswith("napkit.")) and m is not None]


Undo = Callable[[], None]


class Patcher:
    """Replacements made to the engine, each undoable."""

    def __init__(self) -> None:
        self._undo: list[Undo] = []

    # --- the primitives -------------------------------------------------------------------
    def setattr(self, target: object, name: str, value: object) -> None:
        """``setattr(target, name, value)``, undone by restoring the old value."""
        old = getattr(target, name)
        setattr(target, name, value)
        self._undo.append(lambda: setattr(target, name, old))

    def function(self, module: ModuleType, name: str, new: Callable[..., Any], *,
                 only: tuple[ModuleType, ...] | None = None) -> Callable[..., Any]:
        """Replace the function ``module.name`` by ``new`` everywhere the engine holds it (or
        only in the modules ``only``, and their classes); returns the original, which ``new``
        may call."""
        original: Callable[..., Any] = getattr(module, name)
        replaced = 0
        for mod in (list(only) if only is not None else engine_modules()):
            replaced += self._replace_in(vars(mod), original, new, mod)
        if replaced == 0:
            raise LookupError(f"{module.__name__}.{name} is referenced nowhere in the engine")
        _fresh()
        return original

    def _replace_in(self, namespace: dict[str, Any], original: object, new: object,
                    owner: object) -> int:
        replaced = 0
        for key, value in list(namespace.items()):
            if value is original:
                self.setattr(owner, key, new)
                replaced += 1
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if item is original:
                        value[i] = new
                        self._undo.append(_restore_item(value, i, original))
                        replaced += 1
            elif (isinstance(value, type) and isinstance(owner, ModuleType)
                  and value.__module__ == owner.__name__):
                replaced += self._replace_in(dict(vars(value)), original, new, value)
        return replaced

    def rules(self, change: Callable[[Rules], Rules]) -> None:
        """Change the rules every game is compiled with (ruleset data as the engine reads it):
        ``change`` takes the compiled :class:`~napkit.engine.game.Rules` and returns the
        mutant's."""
        original = game_module.compile_rules

        def compile_rules(params: Any, *args: Any) -> Rules:
            return change(original(params, *args))

        self.setattr(game_module, "compile_rules", compile_rules)
        _fresh()

    def bids(self, change: Callable[[Any], dict[str, Any]]) -> None:
        """Change each bid of every game: ``change(bid)`` gives the fields to replace."""
        def each(rules: Rules) -> Rules:
            return dataclasses.replace(
                rules, bids=tuple(dataclasses.replace(b, **change(b)) for b in rules.bids))

        self.rules(each)

    # --- undoing ----------------------------------------------------------------------------
    def undo(self) -> None:
        """Put back everything replaced, newest first, and empty the engine's caches."""
        while self._undo:
            self._undo.pop()()
        _fresh()


def _restore_item(values: list[Any], index: int, original: object) -> Undo:
    def restore() -> None:
        values[index] = original

    return restore


def _fresh() -> None:
    """Empty everything the engine remembers (napkit.engine.game.clear_memos): nothing the
    unmutated engine computed may lend its answer to the mutant's, or the other way round."""
    reset_engine_caches()
