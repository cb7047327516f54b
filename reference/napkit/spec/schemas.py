"""The JSON Schemas of spec/schemas, loaded once into one registry so that they can refer to
each other by ``$id``, and a validator per schema that reports errors by JSON path.

Two libraries check a document. jsonschema-rs (Rust) says only whether it is valid, 700 to 1,100
times as fast as jsonschema on a recorded hand (about 18 us against 15 to 21 ms: see
``benchmarks/validate_throughput.py`` and ``benchmarks/README.md``); jsonschema says where and
why it is not, and its messages and JSON paths are the ones napkit prints. So a document that
jsonschema-rs accepts takes that check only, and one that it rejects (or cannot take) is
checked again by jsonschema, whose errors are the answer. Where jsonschema-rs is not installed
(no wheel for the platform) jsonschema checks every document, as before.

The fast check is trusted only to say yes. Where the two differ the other way (jsonschema-rs
reads ``$`` in a pattern as ECMA-262 does, so ``"AS\\n"`` is no card to it, while Python's
``re`` lets ``$`` match before a final newline), jsonschema's verdict stands; the tests check
that they agree on the documents the engine writes and on broken copies of them. Documents are
JSON values as ``json.loads`` gives them: a Python tuple, which no JSON reader gives, is an array
to jsonschema-rs and not to jsonschema.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry, Resource

from napkit import paths
from napkit.errors import json_path

RECORD_SCHEMAS = ("card", "action", "result", "hand-record", "match-record", "state", "view",
                  "adapter", "case")


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


@cache
def fast_validator(name: str) -> Callable[[Any], bool] | None:
    """The yes/no check by jsonschema-rs of schema ``name`` (``hand-record``), or of one of its
    definitions (``adapter#/$defs/request``); None if jsonschema-rs is not installed."""
    try:
        import jsonschema_rs
    except ImportError:  # no wheel for this platform: jsonschema alone
        return None
    base, _, fragment = name.partition("#")
    uri = f"{BASE}{base}.schema.json" + (f"#{fragment}" if fragment else "")
    is_valid: Callable[[Any], bool] = jsonschema_rs.Draft202012Validator(
        {"$ref": uri}, registry=_rs_registry()).is_valid
    return is_valid


@lru_cache(maxsize=1)
def _rs_registry() -> Any:
    """Every schema of the spec folder, for jsonschema-rs (installed: see fast_validator)."""
    import jsonschema_rs

    documents = [json.loads(path.read_text(encoding="utf-8"))
                 for path in sorted(Path(paths.spec_dir(), "schemas").glob("*.schema.json"))]
    return jsonschema_rs.Registry([(document["$id"], document) for document in documents])


BASE = "https://napkit.dev/schemas/"


def schema_problems(name: str, document: object) -> list[tuple[str, str]]:
    """Each way ``document`` (a JSON value, as ``json.loads`` gives) breaks schema ``name``:
    (JSON path, message), deepest first. A valid document takes the fast check only."""
    fast = fast_validator(name)
    if fast is not None:
        try:
            if fast(document):
                return []
        except Exception:  # a value it cannot take (a tuple, a set): jsonschema judges it
            pass
    return jsonschema_problems(name, document)


def jsonschema_problems(name: str, document: object) -> list[tuple[str, str]]:
    """Each way ``document`` breaks schema ``name`` by jsonschema alone, deepest first."""
    found = []
    for error in validator(name).iter_errors(document):
        found.append(_explain(error))
    return sorted(set(found))


def _explain(error: ValidationError) -> tuple[str, str]:
    """The path and message of one error; inside a ``oneOf`` of typed objects (the actions),
    the error of the branch whose ``type`` matched, or the list of known types if none did."""
    if error.validator == "uniqueItems" and isinstance(error.instance, list):
        # Name the repeated item, not the whole list (a pack of 52 cards is no message).
        items = error.instance
        for i, item in enumerate(items):
            if item in items[:i]:
                return (json_path([*error.absolute_path, i]),
                        f"{item!r} is listed twice (first at index {items.index(item)})")
    if not error.context:
        return json_path(error.absolute_path), error.message
    branches: dict[int | str, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    wrong_type = {key for key, errs in branches.items() if any(_is_type_const(e) for e in errs)}
    matched = [e for key, errs in branches.items() if key not in wrong_type for e in errs]
    if matched:
        return _explain(max(matched, key=lambda e: len(e.absolute_path)))
    consts = sorted({str(e.validator_value) for errs in branches.values() for e in errs
                     if _is_type_const(e)})
    if consts and isinstance(error.instance, dict) and "type" in error.instance:
        return (json_path([*error.absolute_path, "type"]),
                f"unknown type {error.instance['type']!r} (one of {', '.join(consts)})")
    return _explain(max(error.context, key=lambda e: len(e.absolute_path)))


def _is_type_const(error: ValidationError) -> bool:
    return error.validator == "const" and list(error.relative_path)[-1:] == ["type"]
