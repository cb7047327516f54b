"""Which rules of the law book a piece of play exercises, read off the engine as it runs.

The engine says where it implements a rule by a docstring that begins ``Implements:`` and
lists rule ids (``Implements: NAP-8.1.1, NAP-8.1.2``). :func:`citations` reads those docstrings
from the engine's source (no import tricks); :func:`exercised` and :func:`tracing` run play
under :func:`sys.setprofile` and collect the rule ids of every citing function that was called.

This is how the conformance cases are tagged with the rules they exercise, and how the tests
check that every citing function really runs (a citation on dead code enforces nothing).

The engine keeps a few small caches (a table's seating, the calls legal at a point of the
auction, a ruleset compiled for a table) that let it skip a citing function it has already
run for the same inputs. :func:`reset_engine_caches` empties them, and the tracer does so
before it starts, so that what a replay exercises does not depend on what ran before it.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import CodeType, FrameType, FunctionType
from typing import Any, TypeVar

# The engine is the package napkit.engine: the rules of play live there and nowhere else. The
# spec tooling (loading, checks, compare, render, the front ends) handles rule ids as data.
ENGINE = Path(__file__).resolve().parent.parent / "engine"
RULE_ID = re.compile(r"\bNAP-\d+\.\d+\.\d+\b")
# Its modules by their names under it, those of its sub-packages dotted ("phases.play").
ENGINE_MODULES = tuple(sorted(".".join(p.relative_to(ENGINE).with_suffix("").parts)
                              for p in ENGINE.rglob("*.py") if p.stem != "__init__"))

T = TypeVar("T")


@dataclass(frozen=True)
class Place:
    """A function (or class) of the engine whose docstring cites rules."""

    module: str  # "play"
    name: str  # qualified within the module: "playable", "BidRule.fulfilled"
    line: int
    rules: tuple[str, ...]


def _citing(tree: ast.AST, module: str) -> Iterator[Place]:
    def walk(node: ast.AST, prefix: str) -> Iterator[Place]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                doc = ast.get_docstring(child) or ""
                if doc.startswith("Implements:"):
                    head = doc.split("\n\n", 1)[0]
                    yield Place(module, name, child.lineno, tuple(RULE_ID.findall(head)))
                yield from walk(child, name + ".")

    yield from walk(tree, "")


@cache
def places() -> tuple[Place, ...]:
    """Every citing function or class of the engine, module by module, in source order."""
    found: list[Place] = []
    for module in ENGINE_MODULES:
        tree = ast.parse(ENGINE.joinpath(*module.split(".")).with_suffix(".py")
                         .read_text(encoding="utf-8"))
        found.extend(_citing(tree, module))
    return tuple(found)


@cache
def citations() -> dict[str, list[tuple[str, str, int]]]:
    """rule id -> [(module, qualified function name, line)] over the engine's modules."""
    found: dict[str, list[tuple[str, str, int]]] = {}
    for place in places():
        for rule in place.rules:
            found.setdefault(rule, []).append((place.module, place.name, place.line))
    return found


def _codes_of(value: object) -> Iterator[CodeType]:
    """The code objects of a function, method or class, and of everything defined in them."""
    seen: set[int] = set()

    def of_code(code: CodeType) -> Iterator[CodeType]:
        yield code
        for const in code.co_consts:
            if isinstance(const, CodeType):
                yield from of_code(const)

    def visit(obj: object) -> Iterator[CodeType]:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        obj = getattr(obj, "__wrapped__", obj)
        if isinstance(obj, staticmethod | classmethod):
            obj = obj.__func__
        if isinstance(obj, property):
            for part in (obj.fget, obj.fset, obj.fdel):
                if part is not None:
                    yield from visit(part)
            return
        if isinstance(obj, FunctionType):
            yield from of_code(obj.__code__)
        elif isinstance(obj, type):
            for member in vars(obj).values():
                yield from visit(member)

    yield from visit(value)


@cache
def _code_rules() -> dict[CodeType, tuple[str, ...]]:
    """The code object of every citing function -> the rules it cites."""
    wanted = {(p.module, p.name): p for p in places()}
    codes: dict[CodeType, tuple[str, ...]] = {}
    found: set[tuple[str, str]] = set()
    for module_name in ENGINE_MODULES:
        module = importlib.import_module(f"napkit.engine.{module_name}")
        for value in list(vars(module).values()):
            if getattr(value, "__module__", None) != module.__name__:
                continue  # imported from elsewhere: found in its own module
            for code in _codes_of(value):
                key = (module_name, code.co_qualname.replace("<locals>.", ""))
                place = wanted.get(key)
                if place is not None:
                    codes[code] = place.rules
                    found.add(key)
    missing = sorted(set(wanted) - found)
    if missing:
        raise LookupError(f"citing functions whose code was not found: {missing}")
    return codes


def reset_engine_caches() -> None:
    """Empty the engine's memo tables, so that play runs every citing function it needs."""
    from napkit.engine.game import clear_memos

    clear_memos()


@contextmanager
def tracing() -> Iterator[set[str]]:
    """Collect, in the set it yields, the rule ids of every citing function called inside the
    ``with`` block (the engine's caches are emptied first). Not reentrant; another profiler
    set with :func:`sys.setprofile` from Python is put back afterwards."""
    codes = _code_rules()
    lookup = codes.get
    rules: set[str] = set()
    update = rules.update

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            cited = lookup(frame.f_code)
            if cited is not None:
                update(cited)

    reset_engine_caches()
    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield rules
    finally:
        # A profiler set from C (cProfile) cannot be put back from Python: it is dropped.
        sys.setprofile(previous if callable(previous) else None)


def exercised(run: Callable[[], T]) -> tuple[T, frozenset[str]]:
    """Run ``run()`` under :func:`tracing`: its value and the rule ids it exercised."""
    with tracing() as rules:
        value = run()
    return value, frozenset(rules)


__all__ = ["ENGINE_MODULES", "RULE_ID", "Place", "citations", "exercised", "places",
           "reset_engine_caches", "tracing"]
