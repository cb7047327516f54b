"""The versions a conformance report names, and rule ids renumbered by a later law book.

Every report of ``napkit conform`` names the suite's version (``suite.toml`` in the suite
folder), the law book's (``spec/version.toml``), napkit's own and the program's (from its
``hello``), so that two results are known to be comparable, or not (spec/conformance.md, 7).

A later law book may renumber a rule. ``spec/renumbered.toml`` maps each old id straight to
the current one; an old id is retired, never given to another rule. :func:`current_rule` reads
an id through it: the harness applies it to every rule id written by a person or a program
(``--rule``, ``--exclude-rule``, an expected-failures file's ``rules``, a refusal's ``rule``),
so that a program or a file written for an older law book is judged by the rule it meant.

>>> current_rule("NAP-8.1.1")
'NAP-8.1.1'
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from napkit import __version__, paths
from napkit.errors import SpecError
from napkit.reading import ReadError, loads_toml

SUITE_FILE = "suite.toml"  # in the suite folder, beside the rulesets' folders of cases
LAWBOOK_FILE = "version.toml"  # in the spec folder
RENUMBERED_FILE = "renumbered.toml"  # in the spec folder

__all__ = ["LAWBOOK_FILE", "RENUMBERED_FILE", "SUITE_FILE", "check_renumbered",
           "current_rule", "lawbook_version", "renumbered", "report_versions", "suite_version"]


def _toml(path: Path) -> dict[str, Any] | None:
    """The TOML file's table; None if there is no file; SpecError if it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(str(path), "$", f"cannot read: {exc}") from None
    try:
        return loads_toml(text, whole=False)  # strictly, with napkit's limits: see napkit.reading
    except ReadError as exc:
        raise SpecError(str(path), exc.where, exc.what("TOML")) from None


def _version(path: Path, key: str) -> str | None:
    table = _toml(path)
    if table is None:
        return None
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise SpecError(str(path), f"$.{key}", "the version is a string (\"1.0\")")
    return value


def suite_version(root: Path) -> str | None:
    """The version of the suite in folder ``root`` (its ``suite.toml``), or None where it
    has none (a folder of one's own cases)."""
    return _version(root / SUITE_FILE, "version")


def lawbook_version(spec_dir: Path | None = None) -> str | None:
    """The law book's version (``spec/version.toml``)."""
    return _version((spec_dir or paths.spec_dir()) / LAWBOOK_FILE, "lawbook")


@cache
def renumbered() -> dict[str, str]:
    """The renumbered rule ids of the spec, old to current (``spec/renumbered.toml``)."""
    path = paths.spec_dir() / RENUMBERED_FILE
    table = _toml(path) or {}
    rules = table.get("rules", {})
    if not isinstance(rules, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in rules.items()):
        raise SpecError(str(path), "$.rules", "a table of old rule ids and current ones")
    return dict(rules)


def check_renumbered(mapping: dict[str, str], rules: set[str]) -> list[str]:
    """What is wrong with a mapping of renumbered ids, given the law book's rule ids: an old
    id that is still a rule (it would be ambiguous), a new id that is not one."""
    problems = []
    for old, new in sorted(mapping.items()):
        if old in rules:
            problems.append(f"{old} is renumbered but is still a rule of the law book: an old "
                            "id is retired, never reused")
        if new not in rules:
            problems.append(f"{old} is renumbered to {new}, which is not a rule of the law book")
    return problems


def current_rule(rule: str) -> str:
    """``rule`` as the current law book numbers it (itself, unless it was renumbered)."""
    return renumbered().get(rule, rule)


def report_versions(suite: Path, program: str | None) -> dict[str, str | None]:
    """The versions a report names: the suite's, the law book's, napkit's (the harness) and
    the program's (its ``hello``'s ``version``, None if it gave none)."""
    return {"suite": suite_version(suite), "lawbook": lawbook_version(),
            "napkit": __version__, "program": program or None}
