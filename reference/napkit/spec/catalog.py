"""Load the whole spec folder: source index, law book, decisions register and rulesets (and,
when first asked for, the players' questions).

:func:`default_spec` is the folder napkit ships with, loaded once; :func:`default_rulesets`
its rulesets alone (the decisions register and the ruleset files, read and checked as
:func:`read_spec` reads them), which is all that playing a game needs: ``napkit conform
--case ID`` and the reference adapter start without the law book and the source index.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from napkit import paths
from napkit.errors import SpecError, SpecProblemsError, raise_if_any
from napkit.spec.decisions import Register, register_from_document
from napkit.spec.loading import JSONObject, load_document
from napkit.spec.rulesets import Ruleset, RulesetFile, build_ruleset, ruleset_file_from_document

if TYPE_CHECKING:  # the law book and the source index are read by read_spec, not for playing
    from napkit.spec.lawbook import LawBook
    from napkit.spec.questions import Questions
    from napkit.spec.sources import SourceIndex


@dataclass(frozen=True)
class Spec:
    """Everything in the spec folder, loaded and linked."""

    dir: Path
    index: SourceIndex
    index_entries: tuple[JSONObject, ...]
    lawbook: LawBook
    register: Register
    rulesets: Mapping[str, Ruleset]
    files: Mapping[str, RulesetFile]

    def schema(self, name: str) -> Path:
        return schema_path(self.dir, name)

    @cached_property
    def questions(self) -> Questions:
        """The players' questions (spec/questions/), read when first asked for: only the
        search and the checks read them. :class:`SpecProblemsError` if a file fails."""
        from napkit.spec.questions import read_questions

        found, problems = read_questions(self.dir)
        raise_if_any(problems)
        return found


def schema_path(spec_dir: Path, name: str) -> Path:
    return spec_dir / "schemas" / f"{name}.schema.json"


def read_spec(spec_dir: Path | None = None) -> tuple[Spec, list[SpecError]]:
    """Load what can be loaded, with every problem met on the way (files that fail are left out).

    The problems are those of reading, parsing, schema validation, file naming and
    ``extends``; the cross-reference checks are :func:`napkit.spec.checks.check_spec`'s.
    """
    return _read_spec(spec_dir, None)


#: The register, the ruleset files by id and the rulesets by id: what playing needs.
_Rulesets: TypeAlias = "tuple[Register, dict[str, RulesetFile], dict[str, Ruleset]]"


def _folder(spec_dir: Path | None) -> Path:
    directory = spec_dir if spec_dir is not None else paths.spec_dir()
    if not directory.is_dir():
        raise SpecError(str(directory), "$", "the spec folder does not exist")
    return directory


def _loader(directory: Path, problems: list[SpecError]
            ) -> Callable[[Path, str], JSONObject | None]:
    """Read and check one file of the folder against its schema; None (its problems added to
    ``problems``) if it fails."""
    def load(path: Path, schema: str) -> JSONObject | None:
        try:
            return load_document(path, schema_path(directory, schema),
                                 paths.display(directory, path))
        except SpecProblemsError as exc:
            problems.extend(exc.errors)
            return None

    return load


def _read_spec(spec_dir: Path | None, read: _Rulesets | None
               ) -> tuple[Spec, list[SpecError]]:
    """:func:`read_spec`, with the rulesets part already ``read`` (without problems) if given."""
    from napkit.spec.lawbook import Chapter, LawBook, chapter_from_document
    from napkit.spec.sources import index_from_document

    directory = _folder(spec_dir)
    problems: list[SpecError] = []
    load = _loader(directory, problems)

    index_doc = load(directory / "sources.toml", "sources")
    index_entries = _entries(index_doc, "sources")
    index = index_from_document(index_doc or {"sources": []}, paths.display(
        directory, directory / "sources.toml"))

    chapters: list[Chapter] = []
    lawbook_dir = directory / "lawbook"
    chapter_paths = sorted(lawbook_dir.glob("*.toml")) if lawbook_dir.is_dir() else []
    if not chapter_paths:
        problems.append(SpecError(paths.display(directory, lawbook_dir), "$",
                                  "no law-book chapters (lawbook/NN-slug.toml)"))
    for path in chapter_paths:
        document = load(path, "lawbook")
        if document is not None:
            chapters.append(chapter_from_document(document, path,
                                                  paths.display(directory, path)))
    lawbook = LawBook(tuple(chapters))

    register, files, rulesets = (read if read is not None
                                 else _read_rulesets(directory, problems, load))
    spec = Spec(directory, index, tuple(index_entries), lawbook, register, rulesets, files)
    return spec, problems


def _read_rulesets(directory: Path, problems: list[SpecError],
                   load: Callable[[Path, str], JSONObject | None]
                   ) -> tuple[Register, dict[str, RulesetFile], dict[str, Ruleset]]:
    """The decisions register, the ruleset files and the rulesets built from them, as
    :func:`read_spec` reads them (each problem added to ``problems``)."""
    decisions_path = directory / "decisions.toml"
    register_doc = load(decisions_path, "decisions")
    register = register_from_document(register_doc or {"decisions": []},
                                      paths.display(directory, decisions_path))

    files: dict[str, RulesetFile] = {}
    rulesets_dir = directory / "rulesets"
    ruleset_paths = sorted(rulesets_dir.glob("*.json")) if rulesets_dir.is_dir() else []
    if not ruleset_paths:
        problems.append(SpecError(paths.display(directory, rulesets_dir), "$",
                                  "no rulesets (rulesets/ID.json)"))
    for path in ruleset_paths:
        document = load(path, "ruleset")
        if document is None:
            continue
        raw = ruleset_file_from_document(document, path, paths.display(directory, path))
        if path.name != f"{raw.id}.json":
            problems.append(SpecError(raw.file, "$.id",
                                      f"ruleset {raw.id} must be in a file named {raw.id}.json"))
            continue
        files[raw.id] = raw

    rulesets: dict[str, Ruleset] = {}
    for raw in sorted(files.values(), key=lambda f: f.id):
        try:
            rulesets[raw.id] = build_ruleset(raw, files, register)
        except SpecError as exc:
            problems.append(exc)
    return register, files, rulesets


def _entries(document: JSONObject | None, key: str) -> list[JSONObject]:
    if document is None:
        return []
    entries = document.get(key)
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def load_spec(spec_dir: Path | None = None) -> Spec:
    """Load the spec, raising :class:`SpecProblemsError` if any file fails to load.

    ``spec_dir`` is the spec folder (by default the one napkit ships with, or ``$NAPKIT_SPEC``).

    >>> from napkit import load_spec
    >>> spec = load_spec()
    >>> "pagat-floater" in spec.rulesets, spec.lawbook.rules["NAP-8.1.1"].title
    (True, 'Following suit')
    """
    spec, problems = read_spec(spec_dir)
    raise_if_any(problems)
    return spec


def load_ruleset_file(path: Path, shown: str, spec: Spec) -> Ruleset:
    """A ruleset from any file (a player's own); ``extends`` names a ruleset of the spec."""
    document = load_document(path, spec.schema("ruleset"), shown)
    raw = ruleset_file_from_document(document, path, shown)
    files = dict(spec.files)
    files[raw.id] = raw  # its own id names itself, even if the spec has one of that id
    return build_ruleset(raw, files, spec.register)


@lru_cache(maxsize=1)
def default_spec() -> Spec:
    """The spec folder napkit ships with (or ``$NAPKIT_SPEC``), loaded once; its rulesets are
    :func:`default_rulesets`'s if those were loaded first (the same objects)."""
    read = _default_rulesets() if _default_rulesets.cache_info().currsize else None
    spec, problems = _read_spec(None, read)
    raise_if_any(problems)
    return spec


def default_rulesets() -> Mapping[str, Ruleset]:
    """The rulesets of the spec napkit ships with (or ``$NAPKIT_SPEC``): ``default_spec()
    .rulesets``, the very same objects, but reading only the decisions register and the
    ruleset files while the whole spec is not needed (checked as :func:`load_spec` checks
    them: :class:`SpecProblemsError` for any problem of theirs). The rulesets of the game
    that Game.create finds (NAP-10.1.1), of the cases' checks and of the reference adapter.
    """
    if default_spec.cache_info().currsize:
        return default_spec().rulesets
    return _default_rulesets()[2]


@lru_cache(maxsize=1)
def _default_rulesets() -> _Rulesets:
    directory = _folder(None)
    problems: list[SpecError] = []
    read = _read_rulesets(directory, problems, _loader(directory, problems))
    raise_if_any(problems)
    return read
