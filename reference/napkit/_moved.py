"""The import paths of napkit 0.1, kept for one release.

napkit 0.2 grouped its modules by layer (:mod:`napkit.engine`, :mod:`napkit.spec`,
:mod:`napkit.formats`). Each old module path, such as ``napkit.state``, is a small file that
hands over the module at its new path (the very same module object, so a change made through
one name is seen through the other) and warns once with a :class:`DeprecationWarning`. They
go in napkit 0.3.
"""

from __future__ import annotations

import importlib
import sys
import warnings

#: Every old module path, and the module it now is. (``napkit.state`` and ``napkit.game`` are
#: modules of their own, since what they held is now in two places each.)
MOVED: dict[str, str] = {
    **{f"napkit.{m}": f"napkit.engine.{m}" for m in (
        "actions", "auction", "cards", "deal", "match", "observation", "play", "players",
        "purchase", "settlement", "trumps", "widow")},
    **{f"napkit.{m}": f"napkit.spec.{m}" for m in (
        "checks", "compare", "coverage", "decisions", "lawbook", "loading", "render", "rulesets",
        "schemas", "sources", "views")},
    **{f"napkit.{m}": f"napkit.formats.{m}" for m in (
        "notation", "records", "snapshots", "validate")},
}


def moved(old: str, new: str) -> None:
    """Make the module ``old`` (being imported) the module ``new``, with a warning."""
    warnings.warn(f"{old} is now {new}; the old name goes in napkit 0.3",
                  DeprecationWarning, stacklevel=3)
    sys.modules[old] = importlib.import_module(new)
