"""The examples in napkit's docstrings run, and every name of the public API has one.

Every ``>>>`` example in the modules of the engine, the spec readers, the record formats, the
errors and the package's face is run as a doctest (python-chess and pokerkit do the same), so
that an example cannot go stale. ``napkit/__init__.py`` lists the public API; each of its
names must open with an example a reader can paste.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import napkit
import pytest
from napkit import _moved

OLD_PATHS = {*_moved.MOVED, "napkit.state", "napkit.game"}


def documented_modules() -> list[str]:
    names = ["napkit", "napkit.errors", "napkit.reading", "napkit.strategies"]
    for package in ("napkit.engine", "napkit.spec", "napkit.formats"):
        module = importlib.import_module(package)
        names.append(package)
        names += [f"{package}.{info.name}" for info in pkgutil.iter_modules(module.__path__)]
    return sorted(n for n in names if n not in OLD_PATHS)


FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", documented_modules())
def test_the_examples_of_a_module_run(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in finder.find(module, name, globs={}):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def examples_of(obj: object) -> list[doctest.Example]:
    doc = getattr(obj, "__doc__", None) or ""
    return doctest.DocTestParser().get_examples(doc)


@pytest.mark.parametrize("name", napkit.__all__)
def test_every_public_name_has_an_example(name: str) -> None:
    value = getattr(napkit, name)
    assert examples_of(value), f"napkit.{name} has no >>> example in its docstring"


def test_the_doctests_are_really_run() -> None:
    # A planted wrong example fails: the runner above would catch a stale one.
    module = ModuleType("planted")
    module.__doc__ = ">>> 1 + 1\n3\n"
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(module, "planted", globs={}):
        runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1


def test_the_public_api_is_what_the_package_says() -> None:
    assert napkit.__all__ == sorted(napkit.__all__)
    for name in napkit.__all__:
        assert name in (napkit.__doc__ or ""), f"napkit's docstring does not present {name}"
        assert getattr(napkit, name).__module__.startswith("napkit.")
