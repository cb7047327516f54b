"""The shape of the package: layers, no import circle, the engine on its own, folders of a
readable size, no web page held in a string, moved paths kept or pointed to.

The layers, lowest first (docs/architecture.md draws them): the shared basics
(``napkit.errors``, ``napkit.paths``, ``napkit.reading``, ``napkit.longrun`` and
``napkit.output``, how napkit writes for people and files); the engine (``napkit.engine``),
which imports nothing from the others but the errors; the engine's players
(``napkit.players``); the spec readers and views (``napkit.spec``); the record formats
(``napkit.formats``); the library (the adapter protocol, the conformance harness, the dispute
tools, the rules site, the package's face); and the command line (``napkit.cli``, which
alone parses arguments and nothing of the library imports). A module may import from its own
layer and the layers below it, never above, and no set of modules may import one another in a
circle. Every import counts, those under ``if TYPE_CHECKING:`` and inside functions too: a
circle that only the type checker walks is still a circle to a reader.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from napkit import _moved

PACKAGE = Path(__file__).resolve().parent.parent / "reference" / "napkit"

LAYERS = ("basics", "engine", "players", "spec", "formats", "library", "cli")
BASICS = ("napkit.errors", "napkit.paths", "napkit.reading", "napkit.longrun", "napkit._moved",
          "napkit._lazy")


def layer(module: str) -> str:
    parts = module.split(".")
    if module in BASICS or (len(parts) > 1 and parts[1] == "output"):
        return "basics"
    if len(parts) > 1 and parts[1] in ("engine", "players", "spec", "formats", "cli"):
        return parts[1]
    if module == "napkit.__main__":
        return "cli"
    return "library"


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path, known: set[str]) -> set[str]:
    """The napkit modules that the file imports, anywhere in it."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("napkit"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("napkit"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in known else node.module)
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
    assert "napkit.engine.hand" in engine and "napkit.engine.phases.play" in engine
    for module in engine:
        outside = {m for m in edges[module]
                   if not m.startswith("napkit.engine") and m != "napkit.errors"}
        assert not outside, f"{module} imports {sorted(outside)}"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    edges = graph()
    wrong = [(m, i) for m, targets in edges.items() for i in targets
             if i in edges and LAYERS.index(layer(i)) > LAYERS.index(layer(m))]
    assert wrong == []


def test_the_library_never_imports_the_command_line() -> None:
    edges = graph()
    wrong = sorted((m, i) for m, targets in edges.items() for i in targets
                   if layer(i) == "cli" and layer(m) != "cli")
    assert wrong == []


def test_the_layer_test_sees_a_planted_climb() -> None:
    assert layer("napkit.conform.run.runner") == "library"
    assert layer("napkit.cli.conform") == "cli" and layer("napkit.output.files") == "basics"
    assert LAYERS.index(layer("napkit.cli.fuzz")) > LAYERS.index(layer("napkit.conform.fuzz"))


def folders() -> dict[Path, list[str]]:
    """Every folder of the package and the modules directly in it (``__init__`` counts)."""
    return {d: sorted(p.name for p in d.glob("*.py"))
            for d in [PACKAGE, *sorted(p for p in PACKAGE.rglob("*") if p.is_dir())]
            if any(d.glob("*.py"))}


def test_no_folder_holds_more_than_fifteen_modules() -> None:
    found = folders()
    assert len(found) >= 15  # every folder was seen
    crowded = {str(d.relative_to(PACKAGE)): len(names) for d, names in found.items()
               if len(names) > 15}
    assert crowded == {}


def test_the_package_root_holds_the_basics_only() -> None:
    root = folders()[PACKAGE]
    assert len(root) <= 12, root


def test_every_folder_names_its_modules_in_its_docstring() -> None:
    missing = {}
    for folder, names in folders().items():
        if folder == PACKAGE or "__init__.py" not in names:
            continue
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8"))) or ""
        subs = [n[:-3] for n in names if n != "__init__.py"]
        subs += [d.name for d in folder.iterdir() if (d / "__init__.py").exists()]
        unnamed = [n for n in subs if not re.search(rf"\b{n}\b", doc)]
        if unnamed:
            missing[str(folder.relative_to(PACKAGE))] = unnamed
    assert missing == {}


PAGE = re.compile(r"<(?:!doctype|html|head|body|style|script)\b", re.IGNORECASE)


def test_no_module_holds_a_web_page_as_a_string() -> None:
    # Pages are Jinja2 templates with autoescaping on (napkit/output/templates): markup
    # written in Python strings is escaped by hand, and one missed field is a script injection.
    holding = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                     if _page_strings(ast.parse(path.read_text("utf-8"))))
    assert holding == []


def test_the_page_finder_sees_a_page_but_not_a_docstring() -> None:
    assert _page_strings(ast.parse('PAGE = "<html><body>x</body></html>"'))
    assert _page_strings(ast.parse('def f():\n    return f"<style>{x}</style>"'))
    assert not _page_strings(ast.parse('"""Writes <html> pages."""\ndef f():\n'
                                       '    """A <script> in a docstring."""'))


def _page_strings(tree: ast.Module) -> list[str]:
    """The string constants of a module that hold a piece of a web page, docstrings aside."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and PAGE.search(node.value) and id(node) not in docs]


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_a_0_2_path_is_the_new_module_and_warns(old: str) -> None:
    # A fresh interpreter: the warning is given once, at the first import.
    new = _moved.MOVED[old]
    if old in _moved.FOLDERS:  # the folder forwards the old module's names
        code = (f"import warnings, importlib; warnings.simplefilter('error', DeprecationWarning)\n"
                f"import {new} as b\n"
                f"name = sorted(n for n in vars(b) if not n.startswith('_'))[0]\n"
                f"try:\n    getattr(importlib.import_module({old!r}), name)\n"
                f"except DeprecationWarning as w:\n    print('warned:', w)\n"
                f"warnings.simplefilter('ignore')\n"
                f"print(getattr(importlib.import_module({old!r}), name) is getattr(b, name))")
        warned = f"warned: {old}."
    else:
        code = (f"import warnings, importlib; warnings.simplefilter('error', DeprecationWarning)\n"
                f"try:\n    importlib.import_module({old!r})\n"
                f"except DeprecationWarning as w:\n    print('warned:', w)\n"
                f"warnings.simplefilter('ignore')\n"
                f"import {old} as a, {new} as b\nprint(a is b)")
        warned = f"warned: {old} is now {new}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert warned in out
    assert out.strip().endswith("True")


@pytest.mark.parametrize("old", sorted(_moved.REMOVED))
def test_a_0_1_path_is_gone_and_says_where_its_module_went(old: str) -> None:
    code = f"import {old}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ModuleNotFoundError: {old} was removed in napkit 0.3: it is napkit.")
    new = _moved.REMOVED[old].split()[0]
    assert subprocess.run([sys.executable, "-c", f"import {new}"], check=False).returncode == 0


def test_python_m_at_the_old_adapter_path_still_starts_the_adapter() -> None:
    done = subprocess.run([sys.executable, "-W", "ignore", "-m", "napkit.adapter"],
                          input='{"id": 0, "type": "hello", "protocol": "napkit-adapter/1"}\n',
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert '"protocol"' in done.stdout


def test_no_module_of_napkit_uses_a_moved_path() -> None:
    edges = graph()
    old = set(_moved.MOVED) - set(_moved.FOLDERS)
    used = {(m, i) for m, targets in edges.items() for i in targets if i in old}
    assert used == set()
