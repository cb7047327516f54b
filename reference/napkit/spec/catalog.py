"""Load the whole spec folder: source index, law book, decisions register and rulesets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from napkit import paths
from napkit.errors import SpecError, SpecProblemsError, raise_if_any
from napkit.spec.decisions import Register, register_from_document
from napkit.spec.lawbook import Chapter, LawBook, chapter_from_document
from napkit.spec.loading import JSONObject, load_document
from napkit.spec.rulesets import Ruleset, RulesetFile, build_ruleset, ruleset_file_from_document
from napkit.spec.sources import SourceIndex, index_from_document


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


def schema_path(spec_dir: Path, name: str) -> Path:
    return spec_dir / "schemas" / f"{name}.schema.json"


def read_spec(spec_dir: Path | None = None) -> tuple[Spec, list[SpecError]]:
    """Load what can be loaded, with every problem met on the way (files that fail are left out).

    The problems are those of reading, parsing, schema validation, file naming and
    ``extends``; the cross-reference checks are :func:`napkit.spec.checks.check_spec`'s.
    """
    directory = spec_dir if spec_dir is not None else paths.spec_dir()
    if not directory.is_dir():
        raise SpecError(str(directory), "$", "the spec folder does not exist")
    problems: list[SpecError] = []

    def load(path: Path, schema: str) -> JSONObject | None:
        try:
            return load_document(path, schema_path(directory, schema),
                                 paths.display(directory, path))
        except SpecProblemsError as exc:
            problems.extend(exc.errors)
            return None

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
    spec = Spec(directory, index, tuple(index_entries), lawbook, register, rulesets, files)
    return spec, problems


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
    """The spec folder napkit ships with (or ``$NAPKIT_SPEC``), loaded once."""
    return load_spec()
