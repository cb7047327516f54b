"""The suite of any game: a house game's cases, or a built-in ruleset's with options fixed,
generated and kept (spec/conformance.md 1.3).

The built-in suite holds the cases of the spec's ten rulesets. A program that plays a game of
its own (a house file, ``napkit rules new``) or one choice of a ruleset's options
(``pagat:doubling=won``) gets that game's own cases here: drawn by the same generator
(:func:`napkit.conform.suite.generate.generate_cases`), with the same coverage (legal play,
every refusal the game can reach, outcomes, matches), the same for the same game every time.

:func:`read_game` reads how a game is given on the command line; :func:`cached_suite` gives
the folder of its cases, generated the first time and kept under napkit's cache
(:func:`napkit.paths.cache_dir`) by a digest of everything its cases depend on (the game's
file, the law book, the built-in rulesets it extends, napkit's version and its code), so
that a second run starts at once; :func:`build_suite` writes them into a
folder a project commits (``napkit suite build``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import pickle
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from napkit import __version__, paths
from napkit.conform.suite.cases import case_id, case_path
from napkit.conform.suite.versions import SUITE_FILE
from napkit.errors import SpecError, UsageError
from napkit.spec.rulesets import Ruleset

#: The most generated suites the cache keeps; the least recently used go first.
CACHE_KEPT = 20
#: The file of a generated suite folder that says what games it holds (its suite.toml).
GAME_FILE = SUITE_FILE
#: Where a kept suite of one game of a file keeps the ruleset its file made (a pickle, read
#: back by :func:`read_game` for the same bytes under the same spec and napkit).
RULESET_FILE = "ruleset.pickle"

_GIVEN = re.compile(r"^(?P<base>.+?):(?P<choices>[a-z0-9_-]+=[a-z0-9_.-]+"
                    r"(,[a-z0-9_-]+=[a-z0-9_.-]+)*)$")


@dataclass(frozen=True)
class Game:
    """A game whose cases are generated: ``ruleset`` (a house file's, or a built-in one with
    ``fixed`` options), as it was given (``said``), the files its cases depend on, and the
    ruleset before its options were fixed (``base``: the one a case's options are checked
    against)."""

    ruleset: Ruleset
    said: str
    fixed: Mapping[str, str]
    files: tuple[Path, ...]
    base: Ruleset

    @property
    def prefix(self) -> str:
        """What its cases' names start with: the options fixed (``doubling-won-``), so that
        they are told apart from the built-in suite's cases of the same ruleset."""
        return "".join(f"{name}-{choice}-".replace("_", "-")
                       for name, choice in sorted(self.fixed.items()))

    def describe(self) -> str:
        """How the game is named to people: ``two-no-wellington (house.json)``,
        ``pagat with doubling=won``."""
        if self.fixed:
            choices = ", ".join(f"{k}={v}" for k, v in sorted(self.fixed.items()))
            return f"{self.ruleset.id} with {choices}"
        return f"{self.ruleset.id} ({self.said})"


def read_game(given: str) -> Game:
    """The game ``given`` names: a ruleset file (a house file, or a ruleset in the spec's
    form), or ``RULESET:OPTION=CHOICE[,OPTION=CHOICE...]``, a built-in ruleset or a file with
    those options fixed. :class:`~napkit.errors.SpecError` for a file that is no good ruleset,
    :class:`~napkit.errors.UsageError` for a name that is neither a file nor a ruleset, or an
    option or choice the ruleset does not have."""
    from napkit.spec.catalog import default_rulesets

    path = Path(given)
    if path.is_file():
        ruleset = _read(path, {})
        return Game(ruleset, given, {}, (path,), ruleset)
    match = _GIVEN.match(given)
    if match is None:
        if path.exists():
            raise UsageError(f"{given}: not a file")
        raise UsageError(f"{given}: no such file (a game is a ruleset file, or "
                         "RULESET:OPTION=CHOICE with options of a ruleset fixed, as "
                         "pagat:doubling=won)")
    base = match["base"]
    rulesets = default_rulesets()
    fixed = dict(pair.split("=", 1) for pair in match["choices"].split(","))
    if Path(base).is_file():
        ruleset = _read(Path(base), fixed)
    elif base in rulesets:
        ruleset = rulesets[base]
    else:
        raise UsageError(f"{given}: {base!r} is neither a ruleset file nor a ruleset of the "
                         f"spec (its rulesets: {', '.join(sorted(rulesets))})")
    ruleset.option_values(fixed)  # ChoiceError for an option or a choice it does not have
    files = (Path(base),) if Path(base).is_file() else ()
    return Game(narrowed(ruleset, fixed), given, fixed, files, ruleset)


def narrowed(ruleset: Ruleset, fixed: Mapping[str, str]) -> Ruleset:
    """``ruleset`` with each option of ``fixed`` offering that one choice, its default: the
    game played with those options so set, and every other as the ruleset has it."""
    options = {name: dataclasses.replace(option, default=fixed[name],
                                         choices={fixed[name]: option.choices[fixed[name]]})
               if name in fixed else option for name, option in ruleset.options.items()}
    return dataclasses.replace(ruleset, options=options)


def _read(path: Path, fixed: Mapping[str, str]) -> Ruleset:
    """The ruleset of the file ``path``. Where the cache holds the suite of its game (with
    ``fixed`` options), the same bytes passed every check of a ruleset file under this spec
    when it was made, and the ruleset they made is kept beside it (:data:`RULESET_FILE`): it
    is read back, not read and checked again (spec/conformance.md 1.3: a cached rerun starts
    as fast as a built-in ruleset's); else the file is read and checked. Read back, it is a
    plain :class:`~napkit.spec.rulesets.Ruleset` (what the engine and the cases' checks read),
    so that the reader of house files is not imported."""
    from napkit.spec.house import load_ruleset_path

    kept = paths.cache_dir() / "suites" / _digest([(None, fixed, (path,))])
    if not (kept / GAME_FILE).is_file():
        return load_ruleset_path(path)
    with contextlib.suppress(OSError, pickle.UnpicklingError, EOFError, AttributeError,
                             ImportError, TypeError):
        ruleset = pickle.loads((kept / RULESET_FILE).read_bytes())
        if isinstance(ruleset, Ruleset):
            return ruleset
    ruleset = load_ruleset_path(path, checked=True)
    _keep_ruleset(kept, ruleset)  # for the next run (a suite kept by an older napkit)
    return ruleset


def _keep_ruleset(folder: Path, ruleset: Ruleset) -> None:
    """Write ``ruleset`` into the kept suite ``folder`` (:data:`RULESET_FILE`), whole or not
    at all; a cache that cannot be written is left as it is."""
    plain = Ruleset(**{f.name: getattr(ruleset, f.name) for f in dataclasses.fields(Ruleset)})
    with contextlib.suppress(OSError):
        fd, temporary = tempfile.mkstemp(prefix=".ruleset-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(pickle.dumps(plain))
            os.replace(temporary, folder / RULESET_FILE)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


# --- the digest and the cache ---------------------------------------------------------------
def digest(games: Sequence[Game]) -> str:
    """What the cases of ``games`` depend on, as one SHA-256: each game's file (its bytes), or
    the spec's ruleset it is, and its options fixed; the law book, the decisions and every
    ruleset of the spec (which a house file extends); napkit's version and its code as it
    stands (:func:`_code_stamp`).
    The same games give the same cases, so a suite kept under this digest is theirs."""
    return _digest([(None if game.files else game.base.id, game.fixed, game.files)
                    for game in games])


def _digest(games: Sequence[tuple[str | None, Mapping[str, str], Sequence[Path]]]) -> str:
    """:func:`digest` of games as (the spec's ruleset's id, or None for a file; the options
    fixed; the files): what is known of a game before its file is read, so that a kept suite
    is found before the file is checked."""
    h = hashlib.sha256()
    for builtin, fixed, files in games:
        h.update(f"game\0{builtin}\0{sorted(fixed.items())}\0{len(files)}\0".encode())
        for file in files:
            h.update(_bytes(file))
    h.update(_shared_stamp(paths.spec_dir()))
    return h.hexdigest()


@functools.cache
def _shared_stamp(spec: Path) -> bytes:
    """What every game's cases depend on, read once a process (a rerun works out the digest
    of its game's kept ruleset, then of its suite): napkit's version, the law book, the
    spec's rulesets, decisions and version, and napkit's code (:func:`_code_stamp`)."""
    shared = sorted([*spec.glob("lawbook/*.toml"), *spec.glob("rulesets/*.json"),
                     spec / "version.toml", spec / "decisions.toml"])
    parts = [f"napkit {__version__}\0".encode()]
    parts += [file.name.encode() + b"\0" + _bytes(file) for file in shared]
    return hashlib.sha256(b"".join([*parts, _code_stamp()])).digest()


def _code_stamp() -> bytes:
    """napkit's own code as it stands: each module's path, size and time of change (a stat
    each, no read). The engine and the generator make the cases: a checkout whose code is
    changed gets new ones, as a new version of napkit does; an installed napkit's code does not
    change."""
    package = Path(__file__).resolve().parents[2]
    stamp = []
    for folder, inner, names in os.walk(package):
        inner[:] = sorted(d for d in inner if d not in ("__pycache__", "_data"))
        for name in sorted(n for n in names if n.endswith(".py")):
            with contextlib.suppress(OSError):
                status = os.stat(os.path.join(folder, name))
                stamp.append(f"{os.path.relpath(folder, package)}/{name} {status.st_size} "
                             f"{status.st_mtime_ns}")
    return "\n".join(stamp).encode()


def _bytes(path: Path) -> bytes:
    try:
        return path.read_bytes() + b"\0"
    except OSError:
        return b"(unreadable)\0"


@dataclass
class Built:
    """A generated suite: its folder, the count of its cases by game and kind, whether it was
    generated now (False: found in the cache) and how long that took."""

    root: Path
    counts: dict[str, dict[str, int]]
    fresh: bool
    seconds: float


def cached_suite(games: Sequence[Game], say: Callable[[str], None] = lambda _: None
                 ) -> Built:
    """The folder of the generated cases of ``games``: from the cache where it holds them
    (:func:`digest`), else generated into a folder beside and then renamed into place, so
    that a run stopped half-way, or two runs at once, never leave a half-written suite in the
    cache. ``say`` is told what is being done (a line for people). Where the cache cannot be
    written, the suite is generated into a temporary folder that is not kept."""
    _unique(games)
    key = digest(games)
    cache = paths.cache_dir() / "suites"
    root = cache / key
    if (root / GAME_FILE).is_file():
        with contextlib.suppress(OSError):  # a read-only cache is still read
            os.utime(root)  # most recently used: kept longest
        return Built(root, _counted(root, games), False, 0.0)
    began = time.perf_counter()
    say(f"generating the cases of {_names(games)} (once: kept for the next run)")
    try:
        cache.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{key[:12]}-", dir=cache))
    except OSError as exc:
        say(f"the cache {cache} cannot be written ({exc.strerror or exc}): the cases are "
            "generated for this run only")
        work = Path(tempfile.mkdtemp(prefix="napkit-suite-"))
        counts = build_suite(games, work)
        return Built(work, counts, True, time.perf_counter() - began)
    try:
        counts = build_suite(games, work)
        if len(games) == 1 and games[0].files:
            _keep_ruleset(work, games[0].base)
        try:
            work.rename(root)
        except OSError:  # another run put it there meanwhile: theirs is the same
            shutil.rmtree(work, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    _prune(cache, keep=root)
    return Built(root, counts, True, time.perf_counter() - began)


def _prune(cache: Path, keep: Path) -> None:
    """Delete the least recently used suites beyond :data:`CACHE_KEPT`, and any folder a
    stopped run left half-written over an hour ago."""
    with contextlib.suppress(OSError):
        now = time.time()
        found = [p for p in cache.iterdir() if p.is_dir()]
        for p in found:
            if p.name.startswith(".") and now - p.stat().st_mtime > 3600:
                shutil.rmtree(p, ignore_errors=True)
        done = sorted((p for p in found if not p.name.startswith(".") and p != keep),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for p in done[CACHE_KEPT - 1:]:
            shutil.rmtree(p, ignore_errors=True)


def _unique(games: Sequence[Game]) -> None:
    """UsageError for two games whose cases would have the same ids."""
    seen: dict[tuple[str, str], str] = {}
    for game in games:
        key = (game.ruleset.id, game.prefix)
        if key in seen:
            raise UsageError(f"{seen[key]} and {game.said} are the same game "
                             f"({game.ruleset.id}): give it once")
        seen[key] = game.said


def counts_words(kinds: Mapping[str, int], noun: str = "cases") -> str:
    """A game's count of cases by kind, in the kinds' order: ``316 cases (30 legal, 165
    illegal, 90 outcome, 31 match)``; ``noun`` in place of cases."""
    from napkit.conform.suite.cases import KINDS

    listed = ", ".join(f"{kinds[k]} {k}" for k in KINDS if kinds.get(k))
    return f"{sum(kinds.values())} {noun} ({listed or 'none'})"


def _names(games: Iterable[Game]) -> str:
    return ", ".join(game.describe() for game in games)


# --- writing a suite -------------------------------------------------------------------------
def build_suite(games: Sequence[Game], out: Path) -> dict[str, dict[str, int]]:
    """Write the generated cases of ``games`` under the folder ``out`` (made if need be), and
    its ``suite.toml`` naming the games and the digest; the count of cases by game and kind.
    The generated cases of these games already there are replaced; any other file is left,
    and so is a ``suite.toml`` of another kind (the folder is a copy of napkit's suite)."""
    from napkit.conform.suite.generate import dumps, generate_cases, is_generated
    from napkit.output.files import write_text

    _unique(games)
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, dict[str, int]] = {}
    for game in games:
        old = out / game.ruleset.id
        for path in sorted(old.glob(f"*/{game.prefix}*.json")) if old.is_dir() else []:
            if is_generated(path):
                path.unlink()
        by = f"napkit {__version__} for {game.describe()}"
        mine = counts.setdefault(game.describe(), {})
        for _, case in generate_cases(game.ruleset, by=by):
            _renamed(case, game.prefix)
            path = out.joinpath(case_path(case["id"]))
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(os.fspath(path), dumps(case))
            mine[case["kind"]] = mine.get(case["kind"], 0) + 1
    if _ours(out / GAME_FILE):  # a suite's own suite.toml (a copy of napkit's) is kept
        write_text(os.fspath(out / GAME_FILE), _suite_toml(games, counts))
    return counts


def _ours(path: Path) -> bool:
    """Whether ``path`` is absent or a suite.toml this module wrote (it lists games)."""
    from napkit.conform.suite.versions import _toml

    try:
        table = _toml(path)
    except SpecError:
        return False
    return table is None or "games" in table


def _renamed(case: dict[str, Any], prefix: str) -> None:
    if prefix:
        ruleset, kind, name = case["id"].split("/", 2)
        case["id"] = case_id(ruleset, kind, prefix + name)


def _suite_toml(games: Sequence[Game], counts: Mapping[str, Mapping[str, int]]) -> str:
    from napkit.conform.suite.versions import lawbook_version

    lines = ["# The generated cases of games of one's own (spec/conformance.md 1.3), written by",
             f"# napkit {__version__}; 'napkit suite build' writes them again.",
             f'version = "generated-{digest(games)[:12]}"',
             f'lawbook = "{lawbook_version() or "unknown"}"',
             ""]
    for game in games:
        mine = counts.get(game.describe(), {})
        lines += ["[[games]]", f"ruleset = {_toml_string(game.ruleset.id)}",
                  f"given = {_toml_string(game.said)}",
                  f"name = {_toml_string(game.describe())}",
                  f"cases = {sum(mine.values())}",
                  "kinds = { " + ", ".join(f"{k} = {v}" for k, v in sorted(mine.items()))
                  + " }", ""]
    return "\n".join(lines)


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\u{ord(m[0]):04x}", escaped)
    return f'"{escaped}"'


def _counted(root: Path, games: Sequence[Game]) -> dict[str, dict[str, int]]:
    """The counts :func:`build_suite` wrote into a suite's ``suite.toml``, each game's by its
    place there (the same games in the same order: the digest says so), named as ``games``
    name them now."""
    from napkit.conform.suite.versions import _toml

    try:
        table = _toml(root / GAME_FILE) or {}
    except SpecError:
        return {}
    out: dict[str, dict[str, int]] = {}
    written = table.get("games", [])
    for game, entry in zip(games, written if isinstance(written, list) else [], strict=False):
        kinds = entry.get("kinds") if isinstance(entry, dict) else None
        if isinstance(kinds, dict):
            out[game.describe()] = {str(k): v for k, v in kinds.items() if isinstance(v, int)}
    return out


__all__ = ["CACHE_KEPT", "Built", "Game", "build_suite", "cached_suite", "counts_words",
           "digest", "narrowed", "read_game"]
