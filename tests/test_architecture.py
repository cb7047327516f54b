"""The shape of the package: layers, no import circle, the engine on its own, old paths kept.

The layers, lowest first (docs/architecture.md draws them): the shared basics
(``napkit.errors``, ``napkit.paths``); the engine (``napkit.engine``), which imports nothing
from the others but the errors; the spec readers and views (``napkit.spec``); the record
formats (``napkit.formats``); the front ends (the command line, the adapter, the conformance
harness, the rules site, and the package's face, ``napkit/__init__.py``). A module may import
from its own layer and the layers below it, never above, and no set of modules may import one
another in a circle. Every import counts, those under ``if TYPE_CHECKING:`` and inside
functions too: a circle that only the type checker walks is still a circle to a reader.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from napkit import _moved

PACKAGE = Path(__file__).resolve().parent.parent / "reference" / "napkit"

# The modules kept at napkit 0.1's paths for one release: none of napkit's own code uses them.
OLD_PATHS = {*_moved.MOVED, "napkit.state", "napkit.game"}

LAYERS = ("basics", "engine", "spec", "formats", "front")


def layer(module: str) -> str:
    parts = module.split(".")
    if module in ("napkit.errors", "napkit.paths", "napkit.reading", "napkit._moved"):
        return "basics"
    if len(parts) > 1 and parts[1] in ("engine", "spec", "formats"):
        return parts[1]
    return "front"


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    return {name: path for name, path in found.items() if name not in OLD_PATHS}


def imports(path: Path, known: set[str]) -> set[str]:
    """The napkit modules that the file imports, anywhere in it."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("napkit"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("napkit"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in known or sub in OLD_PATHS else node.module)
    return out


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(path, known) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of two or more modules (or one that imports itself), by
    Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_circle_finder_finds_a_planted_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"a"}}) == [["a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_anywhere_in_the_package() -> None:
    edges = graph()
    assert len(edges) > 50  # the whole package was read
    assert circles(edges) == []


def test_the_engine_imports_nothing_from_the_other_layers() -> None:
    edges = graph()
    engine = sorted(m for m in edges if m.startswith("napkit.engine"))
    assert "napkit.engine.hand" in engine and "napkit.engine.play" in engine
    for module in engine:
        outside = {m for m in edges[module]
                   if not m.startswith("napkit.engine") and m != "napkit.errors"}
        assert not outside, f"{module} imports {sorted(outside)}"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    edges = graph()
    wrong = [(m, i) for m, targets in edges.items() for i in targets
             if i in edges and LAYERS.index(layer(i)) > LAYERS.index(layer(m))]
    assert wrong == []


def test_no_module_of_napkit_uses_an_old_path() -> None:
    edges = graph()
    used = {(m, i) for m, targets in edges.items() for i in targets if i in OLD_PATHS}
    assert used == set()


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_path_is_the_new_module_and_warns(old: str) -> None:
    # A fresh interpreter: the warning is given once, at the first import.
    new = _moved.MOVED[old]
    code = (f"import warnings, importlib; warnings.simplefilter('error', DeprecationWarning)\n"
            f"try:\n    importlib.import_module({old!r})\n"
            f"except DeprecationWarning as w:\n    print('warned:', w)\n"
            f"warnings.simplefilter('ignore')\n"
            f"import {old} as a, {new} as b\nprint(a is b)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert f"warned: {old} is now {new}" in out
    assert out.strip().endswith("True")


def test_the_old_state_and_game_paths_keep_their_names() -> None:
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "from napkit.state import HandState, PLAY, POOL, Payment\n"
            "from napkit.game import Game, BidRule, Rules, compile_rules, default_spec\n"
            "import napkit.engine.hand as h; print(HandState is h.HandState)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "True"
