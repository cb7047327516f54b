"""Where the spec and the rule sources are: environment first, else beside this checkout."""

from __future__ import annotations

import os
from pathlib import Path

from napkit.errors import SpecError

# reference/napkit/paths.py -> the repository root is two folders up from this package.
REPO_ROOT = Path(__file__).resolve().parent.parent.parent


def spec_dir() -> Path:
    """The spec folder: ``$NAPKIT_SPEC``, else ``<repo>/spec``; a missing folder is an error."""
    env = os.environ.get("NAPKIT_SPEC")
    path = Path(env) if env else REPO_ROOT / "spec"
    if not path.is_dir():
        hint = "NAPKIT_SPEC names" if env else "the spec folder is"
        raise SpecError(str(path), "$", f"{hint} not a directory (set NAPKIT_SPEC to the spec)")
    return path


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
