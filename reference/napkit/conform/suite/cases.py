"""The conformance suite as files: loading the cases (napkit-case/1) and choosing among them.

A case is one JSON file, ``conformance/cases/RULESET/KIND/NAME.json``, its ``id`` the path
without ``.json`` (spec/conformance.md, part 1): :func:`case_path` and :func:`path_case_id`
are that layout, for the generator and the fuzzer that write cases (:func:`case_id` names
one) as for the loader that reads them. :func:`load_suite` reads every case under a
folder and checks each one: its schema (``case.schema.json``), that its id is its path, that
its id, start request and top-level fields agree, and that the game it names is one the spec
has (a known ruleset, every option written out with a choice the ruleset offers, a number of
players it allows). A file that fails any check is a :class:`Problem` (the file, a JSON path,
a sentence) and is left out; the other files still load.
"""

from __future__ import annotations

import contextlib
import fnmatch
import gc
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path, PurePath, PurePosixPath
from typing import Any, TypeVar

from napkit import paths
from napkit.errors import RuleError, SpecError
from napkit.reading import BOM, ReadError, loads, not_utf8

CASE_FORMAT = "napkit-case/1"
_T = TypeVar("_T")

#: Rulesets of one's own given on the command line (``--ruleset-file``: house rulesets,
#: spec/README.md), by id: a case of one of them is checked against it as a case of the spec's
#: rulesets is against the spec. Filled by :func:`add_rulesets`.
OWN_RULESETS: dict[str, Any] = {}


def add_rulesets(rulesets: Iterable[Any]) -> None:
    """Make these rulesets (``napkit.spec.rulesets.Ruleset``) known to the case checks."""
    for ruleset in rulesets:
        OWN_RULESETS[ruleset.id] = ruleset
KINDS = ("legal", "illegal", "outcome", "match")

JSONObject = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One conformance case, as read from its file (``path``)."""

    id: str
    kind: str
    ruleset: str
    options: Mapping[str, str]
    players: int
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    description: str
    start: JSONObject
    steps: tuple[JSONObject, ...]
    expect: JSONObject
    path: Path = field(compare=False)
    # What made a generated case ({"by": the command, "seed"}: a reproducer of napkit fuzz
    # names the run that found it), or None.
    generated: JSONObject | None = field(default=None, compare=False)

    @classmethod
    def from_document(cls, doc: JSONObject, path: Path) -> Case:
        """The case of a document already checked against case.schema.json."""
        return cls(id=doc["id"], kind=doc["kind"], ruleset=doc["ruleset"],
                   options=dict(doc["options"]), players=doc["players"],
                   rules=tuple(doc["rules"]), tags=tuple(doc["tags"]),
                   description=doc["description"], start=doc["start"],
                   steps=tuple(doc["steps"]), expect=doc["expect"], path=path,
                   generated=doc.get("generated"))


@dataclass(frozen=True)
class Problem:
    """Why one case file was left out: the file, where in it (a JSON path), and what."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {' '.join(self.message.split())}"


# --- the layout: where a case's file is -----------------------------------------------------------
def case_id(ruleset: str, kind: str, name: str) -> str:
    """The id of the case ``name`` among the cases of ``ruleset`` of ``kind``: its path.

    >>> case_id("pagat", "legal", "0001-hand")
    'pagat/legal/0001-hand'
    """
    return f"{ruleset}/{kind}/{name}"


def case_path(case_id: str) -> PurePosixPath:
    """Where the file of the case of this id is, under its suite folder: ``RULESET/KIND/NAME``
    and ``.json``. A case written on its own (``napkit fuzz``'s reproducer) takes its name.

    >>> case_path("pagat/legal/0001-hand")
    PurePosixPath('pagat/legal/0001-hand.json')
    """
    return PurePosixPath(f"{case_id}.json")


def path_case_id(relative: PurePath) -> str:
    """The id of the case whose file is at ``relative`` under its suite folder (which
    :func:`case_path` gives back).

    >>> path_case_id(PurePosixPath("pagat/legal/0001-hand.json"))
    'pagat/legal/0001-hand'
    """
    return relative.with_suffix("").as_posix()


def default_suite_dir() -> Path:
    """The suite: ``$NAPKIT_SUITE``, else the one napkit ships with
    (:func:`napkit.paths.suite_dir`)."""
    return paths.suite_dir()


def case_files(root: Path) -> dict[str, Path]:
    """Every case file under ``root`` by the id its path gives it (``pagat/legal/0001``),
    read from the folder alone: no file is opened. These are the files ``root.rglob("*.json")``
    finds (symbolic links to folders are not followed), in its sorted order."""
    return {case_id: root / relative for case_id, relative in _listed(root)}


def case_ids(root: Path) -> list[str]:
    """The ids of :func:`case_files`, in its order, without making a path for each."""
    return [case_id for case_id, _ in _listed(root)]


class SuiteIds(AbstractSet[str]):
    """The set of the ids of the cases under ``root`` (:func:`case_ids`), listed when first
    asked for more than whether there is one: ``napkit conform --case ID`` asks only that (its
    case found, or the suite found empty), and lists no folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._ids: set[str] | None = None

    def _all(self) -> set[str]:
        if self._ids is None:
            self._ids = set(case_ids(self.root))
        return self._ids

    def __bool__(self) -> bool:
        return bool(self._ids) if self._ids is not None else bool(_listed(self.root, True))

    def __contains__(self, case_id: object) -> bool:
        return case_id in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    @classmethod
    def _from_iterable(cls, items: Iterable[_T]) -> AbstractSet[_T]:  # what - and & give
        return set(items)


def _listed(root: Path, first: bool = False) -> list[tuple[str, str]]:
    """(id, the file's path under ``root``, with ``/``) of every case file (with ``first``,
    the first found alone), in rglob's sorted order. os.scandir and strings, not Path.rglob and
    Paths: a suite of 3,000 files is listed in a few milliseconds, not the tenth of a second
    ``napkit conform --case ID`` spent."""
    found: list[tuple[str, str]] = []

    def walk(folder: str, prefix: str) -> None:
        try:
            with os.scandir(folder) as listing:
                # Paths sort part by part: a folder's entries by name, each folder's files
                # where its name falls among them.
                entries = sorted(listing, key=lambda entry: entry.name)
        except PermissionError:  # as rglob: a folder that cannot be listed holds no case
            return
        for entry in entries:
            if first and found:
                return
            name = entry.name
            if entry.is_dir(follow_symlinks=False):
                walk(entry.path, f"{prefix}{name}/")
            if name.endswith(".json") and entry.is_file():
                # path_case_id's answer: the name loses ".json", unless it is all of it
                found.append((prefix + (name[:-5] if len(name) > 5 else name), prefix + name))

    walk(str(root), "")
    return found


def _named(root: Path, filters: Filters) -> list[tuple[str, str]] | None:
    """What :func:`_listed` would give for ids that the filters name whole (``--case
    pagat/legal/0001``, no wildcard), found without listing the suite; None if the filters
    name none that way (a glob, or no ``--case``)."""
    if not filters.cases or any(set(g) & set("*?[") for g in filters.cases):
        return None
    found: list[tuple[tuple[str, ...], str]] = []
    for case_id in set(filters.cases):
        parts = tuple(case_path(case_id).parts)
        if path_case_id(case_path(case_id)) != case_id or parts[-1] == ".json.json":
            return None  # a name the layout does not give back (".json"): list the suite
        if any(p in ("", ".", "..", "/") for p in parts) or "\0" in case_id:
            continue  # no file under the suite has such an id
        # Under a folder that rglob would not enter (a link to a folder), it is no case.
        folders = [root.joinpath(*parts[:i]) for i in range(1, len(parts))]
        if root.joinpath(*parts).is_file() and not any(f.is_symlink() or not f.is_dir()
                                                       for f in folders):
            found.append((parts, case_id))
    return [(case_id, "/".join(parts)) for parts, case_id in sorted(found)]  # _listed's order


def load_suite(root: Path, filters: Filters | None = None, jobs: int = 1
               ) -> tuple[list[Case], list[Problem]]:
    """Every case under ``root`` (sorted by id), and the problems of the files left out.

    With ``filters``, only the files whose path may hold a case they admit are read (a case's
    id is its path, and its ruleset and kind its first two folders, which :func:`check_document`
    holds it to): rerunning one case reads one file, and looks for no other. With ``jobs``
    above 1 (``napkit conform -j N``) the files are checked in as many processes.
    """
    if not root.is_dir():
        return [], [Problem(str(root), "$", "the suite folder does not exist")]
    cases: list[Case] = []
    problems: list[Problem] = []
    named = None if filters is None else _named(root, filters)
    # The documents read are plain JSON, which makes no reference cycles: the collector's
    # passes over them as they pile up (each full one walks every case read so far) were a
    # third of reading the suite. It is paused while they are read.
    collecting = gc.isenabled()
    gc.disable()
    try:
        paths = [root / relative
                 for case_id, relative in (_listed(root) if named is None else named)
                 if filters is None or filters.may_admit(case_id)]
        for case, found in _load_all(paths, root, jobs):
            problems.extend(found)
            if case is not None:
                cases.append(case)
    finally:
        if collecting:
            gc.enable()
    cases.sort(key=lambda c: c.id)
    return cases, problems


#: The files a checking process is handed at once (each hand-over is pickled both ways).
_CHUNK = 64


def _load_all(paths: list[Path], root: Path, jobs: int
              ) -> Iterator[tuple[Case | None, list[Problem]]]:
    """:func:`load_case` of each path, in order. With ``jobs`` above 1 and files enough, they
    are checked (read strictly, the schema, the game) in ``jobs`` processes forked from this
    one, which hand back each good file's text and each bad one's problems; a good text is
    then read here by the plain reader, which gives what the strict one did for any text it
    accepts. Checking the suite alone, before the first case, was most of what ``napkit
    conform -j 2`` did that ``-j 1`` does too (benchmarks/README.md)."""
    from napkit.conform.run.parallel import ProcessPool, can_fork

    if jobs < 2 or len(paths) < 4 * _CHUNK or not can_fork():
        yield from (load_case(path, root) for path in paths)
        return
    _ready()
    chunks = [paths[i:i + _CHUNK] for i in range(0, len(paths), _CHUNK)]
    with ProcessPool(jobs, lambda _k: None) as pool:
        for chunk, checked in zip(chunks, pool.map(lambda _w, part: [
                _checked(path, root) for path in part], chunks), strict=True):
            for path, (text, problems) in zip(chunk, checked, strict=True):
                if text is None:
                    yield None, problems
                else:  # checked there: the plain reader gives what the strict one gave
                    doc = json.loads(text.removeprefix(BOM))
                    yield Case.from_document(doc, path), []


def _checked(path: Path, root: Path) -> tuple[str | None, list[Problem]]:
    """A case file's text if it is a good case, else None and its problems."""
    text, _doc, problems = _read_case(path, root)
    return (None if problems else text), problems


def _ready() -> None:
    """What checking any case needs, made once before the checking processes fork (each
    would make its own): the case schema's check, the engine, the spec's rulesets (whose
    problem, if they have one, each case says)."""
    import napkit.engine.game  # noqa: F401 (imported for the processes that fork)
    from napkit.spec.catalog import default_rulesets
    from napkit.spec.schemas import fast_validator

    fast_validator("case")
    with contextlib.suppress(SpecError, RuleError):
        default_rulesets()


def load_case(path: Path, root: Path | None) -> tuple[Case | None, list[Problem]]:
    """One case file, checked; None and its problems if it is not a good case. Under a suite
    folder ``root`` its id must be its path there; a file given on its own (``root`` None,
    a reproducer of ``napkit fuzz``, say) is held to everything else."""
    _text, doc, problems = _read_case(path, root)
    return (None, problems) if doc is None else (Case.from_document(doc, path), [])


def _read_case(path: Path, root: Path | None) -> tuple[str, JSONObject | None, list[Problem]]:
    """:func:`load_case`'s reading and checking: the text, the document (None if the file is
    no good case) and the problems."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return "", None, [Problem(_shown(path), "$", not_utf8(exc))]
    except OSError as exc:
        return "", None, [Problem(_shown(path), "$", f"cannot read: {exc.strerror or exc}")]
    try:
        doc = loads(text)  # strictly: see napkit.reading
    except ReadError as exc:
        return text, None, [Problem(_shown(path), exc.where, exc.what())]
    found = check_document(doc, None if root is None else path.relative_to(root))
    if found:  # the file named as a person finds it: only for a problem (it costs a realpath)
        return text, None, [Problem(_shown(path), where, message) for where, message in found]
    return text, doc, []


def check_document(doc: object, relative: Path | None = None) -> list[tuple[str, str]]:
    """Every problem of a parsed case document, as (JSON path, message): its schema first;
    if the schema accepts it, that its id is ``relative`` (its path under the suite, when
    given), that its parts agree, and that the spec has its game."""
    from napkit.spec.schemas import is_valid, schema_problems  # not for the parsers of napkit

    if not is_valid("case", doc):
        found = schema_problems("case", doc)
        return found or [("$", "refused by case.schema.json")]
    assert isinstance(doc, dict)
    problems: list[tuple[str, str]] = []
    if relative is not None:
        expected = path_case_id(relative)
        if doc["id"] != expected:
            problems.append(("$.id", f"the id is {doc['id']!r} but the file is at "
                                     f"{relative.as_posix()!r}: the id must be {expected!r}"))
    ruleset, kind = doc["id"].split("/")[:2]
    if ruleset != doc["ruleset"]:
        problems.append(("$.id", f"the id names ruleset {ruleset!r}, the case "
                                 f"{doc['ruleset']!r}"))
    if kind != doc["kind"]:
        problems.append(("$.id", f"the id names kind {kind!r}, the case {doc['kind']!r}"))
    for name in ("ruleset", "options", "players"):
        if doc["start"][name] != doc[name]:
            problems.append((f"$.start.{name}", f"the start request's {name} "
                                                f"({doc['start'][name]!r}) is not the case's "
                                                f"({doc[name]!r})"))
    if not problems:
        problems.extend(_game_problems(doc))
    return problems


def _game_problems(doc: JSONObject) -> list[tuple[str, str]]:
    """The game a case names must be one the spec has, its options all written out."""
    from napkit.engine.game import Game
    from napkit.spec.catalog import default_rulesets

    try:
        rulesets = default_rulesets()  # the rulesets alone: a case needs no law book
    except (SpecError, RuleError) as exc:
        return [("$.ruleset", f"the spec cannot be loaded to check the case: {exc}")]
    ruleset = rulesets.get(doc["ruleset"]) or OWN_RULESETS.get(doc["ruleset"])
    if ruleset is None:
        return [("$.ruleset", f"no ruleset {doc['ruleset']!r} in the spec")]
    found = []
    options: dict[str, str] = doc["options"]
    for name in sorted(set(options) - set(ruleset.options)):
        found.append((f"$.options.{name}", f"{doc['ruleset']} has no option {name!r}"))
    for name in sorted(set(ruleset.options) - set(options)):
        found.append(("$.options", f"option {name!r} is not given (every option is written "
                                   f"out, defaults too: {ruleset.options[name].default!r})"))
    for name, choice in sorted(options.items()):
        option = ruleset.options.get(name)
        if option is not None and choice not in option.choices:
            found.append((f"$.options.{name}", f"{choice!r} is not a choice of {name} "
                                               f"(one of {', '.join(option.choices)})"))
    if found:
        return found
    try:
        if doc["ruleset"] in OWN_RULESETS:
            Game(ruleset, doc["players"], options)
        else:
            Game.create(doc["ruleset"], doc["players"], options)
    except RuleError as exc:
        return [("$.players", f"{exc.rule}: {exc.message}")]
    return []


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --- choosing cases ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Filters:
    """Which cases to run: within one filter any value may match; every filter given must.

    ``rules`` match a case's rule ids whole or by a leading part (``NAP-8`` is chapter 8,
    ``NAP-8.1`` its first section); ``cases`` are globs on the case id (``pagat/legal/*``).
    The ``exclude_`` filters then leave out every case that any of their values matches, the
    same way (``--exclude-rule``, ``--exclude-tag``, ``--exclude-case``).
    """

    rulesets: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    exclude_rules: tuple[str, ...] = ()
    exclude_tags: tuple[str, ...] = ()
    exclude_cases: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.rulesets or self.rules or self.tags or self.kinds or self.cases
                    or self.exclude_rules or self.exclude_tags or self.exclude_cases)

    def may_admit(self, case_id: str) -> bool:
        """Whether a case of this id (its path: ``RULESET/KIND/NAME``) can be admitted; the
        filters on its rules and tags wait for its contents."""
        ruleset, _, rest = case_id.partition("/")
        kind = rest.partition("/")[0]
        if self.rulesets and ruleset not in self.rulesets:
            return False
        if self.kinds and kind not in self.kinds:
            return False
        if any(fnmatch.fnmatchcase(case_id, g) for g in self.exclude_cases):
            return False
        return not self.cases or any(fnmatch.fnmatchcase(case_id, g) for g in self.cases)

    def admits(self, case: Case) -> bool:
        """Whether the filters choose this case: by its id (which names its ruleset and kind,
        as :func:`check_document` holds it to), then by its tags and rules."""
        if not self.may_admit(case.id):
            return False
        if self.tags and not set(self.tags) & set(case.tags):
            return False
        if set(self.exclude_tags) & set(case.tags) or any(
                rule_matches(r, unwanted) for r in case.rules for unwanted in self.exclude_rules):
            return False
        return not self.rules or any(rule_matches(r, wanted)
                                     for r in case.rules for wanted in self.rules)


def rule_matches(rule: str, wanted: str) -> bool:
    """Whether rule id ``rule`` is ``wanted`` or lies within it (``NAP-8.1.1`` in ``NAP-8``)."""
    return rule == wanted or rule.startswith(wanted + ".")


def select(cases: Iterable[Case], filters: Filters) -> list[Case]:
    return [c for c in cases if filters.admits(c)]


__all__ = ["CASE_FORMAT", "KINDS", "OWN_RULESETS", "Case", "Filters", "Problem", "SuiteIds",
           "add_rulesets", "case_files", "case_id", "case_ids", "case_path", "check_document",
           "default_suite_dir", "load_case", "load_suite", "path_case_id", "rule_matches",
           "select"]
