"""The JSON Schemas of spec/schemas, loaded once into one registry so that they can refer to
each other by ``$id``, and a validator per schema that reports errors by JSON path."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from napkit import paths
from napkit.errors import json_path

RECORD_SCHEMAS = ("card", "action", "result", "hand-record", "match-record")


@lru_cache(maxsize=1)
def registry() -> Registry:
    """Every schema in the spec folder, by its ``$id``."""
    resources = []
    for path in sorted(Path(paths.spec_dir(), "schemas").glob("*.schema.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        resources.append((document["$id"], Resource.from_contents(document)))
    return Registry().with_resources(resources)


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of ``spec/schemas/NAME.schema.json``."""
    path = Path(paths.spec_dir(), "schemas", f"{name}.schema.json")
    schema = json.loads(path.read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=registry())


def schema_problems(name: str, document: object) -> list[tuple[str, str]]:
    """Each way ``document`` breaks schema ``name``: (JSON path, message), deepest first."""
    found = []
    for error in validator(name).iter_errors(document):
        best = error
        if error.context:  # a oneOf: report the branch that came closest
            best = max(error.context, key=lambda e: len(e.absolute_path))
        found.append((json_path(best.absolute_path), best.message))
    return sorted(set(found))
