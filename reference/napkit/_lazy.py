"""A package's names imported when first used (PEP 562's module ``__getattr__``), so that
importing the package loads none of its modules: ``import napkit`` and ``napkit --help`` stay
quick (benchmarks/startup.py), and a module of a folder loads no other."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, where: Mapping[str, str]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (its ``__name__``), whose names are
    each in the module ``where`` gives: a name is imported on first use and kept in the
    package, so that the next use is an ordinary lookup."""
    namespace = sys.modules[package].__dict__

    def lookup(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def listing() -> list[str]:
        return sorted({*namespace, *where})

    return lookup, listing
