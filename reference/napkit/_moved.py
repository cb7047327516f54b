"""Module paths that moved: napkit 0.2's still work, with a warning, for one release;
napkit 0.1's are gone and say where their modules went.

napkit 0.3 gave the harness, the fuzzer, perft, the reports and the players folders of their
own, and put every command of the command line in :mod:`napkit.cli` (spec/CHANGELOG.md has
the table). A program that imports a module by its 0.2 path, say ``napkit.conform.runner``,
gets the module at its new path (the very same module object, so a change made through one
name is seen through the other) and a :class:`DeprecationWarning`; ``python -m
napkit.adapter`` still starts the reference adapter. Four 0.2 modules share their name with
the folder they went into (``napkit.conform.suite``, ``.report``, ``.fuzz``, ``.perft``):
their names are forwarded from the folder, by :func:`forward`. The 0.1 paths, which napkit 0.2
kept for one release (``napkit.cards``, ``napkit.state``...), raise ModuleNotFoundError naming
the new path.

The finder is the last on ``sys.meta_path`` (:func:`install`, called when napkit is imported):
it is asked only about names that no module file answers, so it costs nothing to any import
that succeeds.

>>> import importlib, warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     old = importlib.import_module("napkit.conform.runner")
>>> old is importlib.import_module("napkit.conform.run.runner")
True
>>> print(caught[0].message)
napkit.conform.runner is now napkit.conform.run.runner (napkit 0.3); the old path goes in napkit 0.4
>>> try:
...     importlib.import_module("napkit.cards")
... except ModuleNotFoundError as exc:
...     print(exc)
napkit.cards was removed in napkit 0.3: it is napkit.engine.cards (spec/CHANGELOG.md)
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import CodeType, ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.abc import Loader as _Loader
    from importlib.abc import MetaPathFinder as _MetaPathFinder
else:  # importlib.abc costs an import of importlib.resources (some 12 ms) to every napkit
    _Loader = _MetaPathFinder = object  # start; the protocols need no base class at run time

#: napkit 0.2's paths of the modules napkit 0.3 moved, and their new paths.
MOVED: dict[str, str] = {
    **{f"napkit.engine.{m}": f"napkit.engine.phases.{m}" for m in (
        "deal", "purchase", "auction", "widow", "trumps", "play", "settlement")},
    "napkit.engine.players": "napkit.players",
    **{f"napkit.spec.{m}": f"napkit.handbook.{m}" for m in ("search", "sheet", "newhouse")},
    "napkit.adapter": "napkit.protocol.adapter",
    "napkit.conform.process": "napkit.protocol.process",
    "napkit.conform.pyprogram": "napkit.protocol.pyprogram",
    "napkit.conform.pytest_plugin": "napkit.protocol.pytest_plugin",
    "napkit.conform.fastschema": "napkit.spec.schemas",
    "napkit.cli.files": "napkit.output.files",
    "napkit.cli.progress": "napkit.output.progress",
    "napkit.cli.output": "napkit.output.records",
    "napkit.conform.suite": "napkit.conform.suite.cases",
    "napkit.conform.support": "napkit.conform.suite.support",
    "napkit.conform.versions": "napkit.conform.suite.versions",
    "napkit.conform.xfail": "napkit.conform.suite.xfail",
    "napkit.conform.breaches": "napkit.conform.suite.breaches",
    "napkit.conform.starts": "napkit.conform.suite.starts",
    "napkit.conform.runner": "napkit.conform.run.runner",
    "napkit.conform.control": "napkit.conform.run.control",
    "napkit.conform.shards": "napkit.conform.run.shards",
    "napkit.conform.matrix": "napkit.conform.run.matrix",
    "napkit.conform.parallel": "napkit.conform.run.parallel",
    "napkit.conform.fuzz": "napkit.conform.fuzz.episodes",
    "napkit.conform.campaign": "napkit.conform.fuzz.campaign",
    "napkit.conform.shrink": "napkit.conform.fuzz.shrink",
    "napkit.conform.reproducer": "napkit.conform.fuzz.reproducer",
    "napkit.conform.fuzzjobs": "napkit.conform.fuzz.jobs",
    "napkit.conform.perft": "napkit.conform.perft.count",
    "napkit.conform.perftcheck": "napkit.conform.perft.check",
    "napkit.conform.report": "napkit.conform.report.text",
    "napkit.conform.htmlreport": "napkit.conform.report.html",
    "napkit.conform.reportsite": "napkit.conform.report.site",
    "napkit.conform.rundiff": "napkit.conform.report.diff",
    "napkit.conform.badge": "napkit.conform.report.badge",
    "napkit.conform.failure": "napkit.conform.report.failure",
    "napkit.conform.numbering": "napkit.conform.report.numbering",
    "napkit.conform.reportfile": "napkit.conform.report.saved",
    "napkit.conform.cli": "napkit.cli.conform",
    "napkit.conform.fuzzcli": "napkit.cli.fuzz",
    "napkit.conform.reportcli": "napkit.cli.report",
    "napkit.conform.sitecli": "napkit.cli.report",
}

#: napkit 0.1's paths, gone in 0.3, and where their modules are now.
REMOVED: dict[str, str] = {
    **{f"napkit.{m}": f"napkit.engine.{m}" for m in (
        "actions", "cards", "match", "observation")},
    **{f"napkit.{m}": f"napkit.engine.phases.{m}" for m in (
        "auction", "deal", "play", "purchase", "settlement", "trumps", "widow")},
    **{f"napkit.{m}": f"napkit.spec.{m}" for m in (
        "checks", "compare", "coverage", "decisions", "lawbook", "loading", "render", "rulesets",
        "schemas", "sources", "views")},
    **{f"napkit.{m}": f"napkit.formats.{m}" for m in (
        "notation", "records", "snapshots", "validate")},
    "napkit.state": "napkit.engine.state (the data) and napkit.engine.hand (HandState)",
    "napkit.game": "napkit.engine.game (Game) and napkit.engine.rules (Rules)",
}

#: The 0.2 modules whose name is now a folder's: what the folder forwards.
FOLDERS = {old: new for old, new in MOVED.items() if new.startswith(old + ".")}


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} is now {new} (napkit 0.3); the old path goes in napkit 0.4",
                  DeprecationWarning, stacklevel=3)


class _Alias(_Loader):
    """Loads an old path as the module at its new path; runs it for ``python -m``."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        _warn(spec.name, self.new)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new path's, already run."""

    def get_code(self, fullname: str) -> CodeType | None:
        # runpy (python -m OLD) runs the new module's code as __main__.
        import importlib.util

        spec = importlib.util.find_spec(self.new)
        loader = spec.loader if spec else None
        get_code = getattr(loader, "get_code", None)
        return get_code(self.new) if get_code else None


class _Finder(_MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname in REMOVED:
            raise ModuleNotFoundError(
                f"{fullname} was removed in napkit 0.3: it is {REMOVED[fullname]} "
                "(spec/CHANGELOG.md)", name=fullname)
        new = MOVED.get(fullname)
        if new is None or fullname in FOLDERS:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install() -> None:
    """Put the finder last on ``sys.meta_path``, once."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())


def forward(folder: str, name: str) -> Any:
    """A name of the 0.2 module that ``folder`` replaced, from its new module, with a warning
    (a folder's ``__getattr__``); AttributeError for any other name."""
    new = FOLDERS.get(folder)
    if new is None or name.startswith("__"):
        raise AttributeError(f"module {folder!r} has no attribute {name!r}")
    module = importlib.import_module(new)
    if not hasattr(module, name):
        raise AttributeError(f"module {folder!r} has no attribute {name!r}")
    _warn(f"{folder}.{name}", f"{new}.{name}")
    return getattr(module, name)
