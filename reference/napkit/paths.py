"""Where the spec, the conformance suite and the rule sources are.

An installed napkit carries the spec and the suite inside its package (``napkit/_data/``, put
there when the wheel is built: pyproject.toml); a checkout (an editable install) has them at
the top of the repository. An environment variable overrides either.
"""

from __future__ import annotations

import os
from pathlib import Path

from napkit.errors import SpecError

# reference/napkit/paths.py -> the repository root is two folders up from this package.
REPO_ROOT = Path(__file__).resolve().parent.parent.parent
# What a wheel ships inside the package (absent from a checkout).
DATA = Path(__file__).resolve().parent / "_data"


def _shipped(inside: str, beside: Path) -> Path:
    """The folder the wheel put in the package, else the checkout's."""
    path = DATA / inside
    return path if path.is_dir() else beside


def spec_dir() -> Path:
    """The spec folder: ``$NAPKIT_SPEC``, else the one napkit ships with (inside the installed
    package, or ``<repo>/spec`` in a checkout); a missing folder is an error."""
    env = os.environ.get("NAPKIT_SPEC")
    path = Path(env) if env else _shipped("spec", REPO_ROOT / "spec")
    if not path.is_dir():
        hint = "NAPKIT_SPEC names" if env else "the spec folder is"
        raise SpecError(str(path), "$", f"{hint} not a directory (set NAPKIT_SPEC to the spec)")
    return path


def suite_dir() -> Path:
    """The conformance suite: ``$NAPKIT_SUITE``, else the one napkit ships with (inside the
    installed package, or ``<repo>/conformance/cases`` in a checkout)."""
    env = os.environ.get("NAPKIT_SUITE")
    return Path(env) if env else _shipped("cases", REPO_ROOT / "conformance" / "cases")


def perft_dir() -> Path:
    """The published perft files (``RULESET.json``, spec/conformance.md part 5):
    ``$NAPKIT_PERFT``, else the ones napkit ships with (inside the installed package, or
    ``<repo>/conformance/perft`` in a checkout)."""
    env = os.environ.get("NAPKIT_PERFT")
    return Path(env) if env else _shipped("perft", REPO_ROOT / "conformance" / "perft")


def cache_dir() -> Path:
    """Where napkit keeps what it can make again (the generated suites of house games):
    ``$NAPKIT_CACHE``, else ``$XDG_CACHE_HOME/napkit``, else ``~/.cache/napkit``. It may not
    exist yet, and may not be writable."""
    env = os.environ.get("NAPKIT_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "napkit"


def sources_dir() -> Path:
    """The rule sources: ``$NAPKIT_SOURCES``, else ``<repo>/../shared/sources`` (may not exist)."""
    env = os.environ.get("NAPKIT_SOURCES")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "sources"


def display(spec: Path, path: Path) -> str:
    """A spec file as messages name it: relative to the spec folder's parent (``spec/x.json``)."""
    try:
        return str(path.relative_to(spec.parent))
    except ValueError:
        return str(path)
