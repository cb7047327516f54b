"""Read a TOML or JSON file and validate it against one of the spec's JSON Schemas.

Every failure, from a missing file to a schema violation deep in a ruleset, becomes a
:class:`~napkit.errors.SpecError` naming the file and where in it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from napkit.errors import SpecError, SpecProblemsError, json_path
from napkit.reading import ReadError, loads, loads_toml, not_utf8
from napkit.spec.schemas import file_fast_validator

if TYPE_CHECKING:  # jsonschema is imported when a file needs it (see schema_errors)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
JSONObject: TypeAlias = dict[str, JSON]

def read_document(path: Path, shown: str) -> JSONObject:
    """Parse ``path`` (TOML if it ends in .toml, else JSON) into a JSON object."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SpecError(shown, "$", "file not found") from None
    except IsADirectoryError:
        raise SpecError(shown, "$", "is a directory, not a file") from None
    except OSError as exc:
        raise SpecError(shown, "$", f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(shown, "$", not_utf8(exc)) from None
    if path.suffix == ".toml":
        return _parse_toml(text, shown)
    return _parse_json(text, shown)


def _parse_toml(text: str, shown: str) -> JSONObject:
    try:
        return loads_toml(text)  # strictly: see napkit.reading
    except ReadError as exc:
        raise SpecError(shown, exc.where, exc.what("TOML")) from None


def _parse_json(text: str, shown: str) -> JSONObject:
    try:
        data = loads(text)  # strictly: see napkit.reading
    except ReadError as exc:
        raise SpecError(shown, exc.where, exc.what()) from None
    if not isinstance(data, dict):
        raise SpecError(shown, "$", f"expected a JSON object, found {_kind(data)}")
    return data


def _kind(value: object) -> str:
    match value:
        case None:
            return "null"
        case bool():
            return "a boolean"
        case int() | float():
            return "a number"
        case str():
            return "a string"
        case list():
            return "an array"
        case _:
            return "an object"


@cache
def validator(schema_file: Path) -> Draft202012Validator:
    """The compiled validator for one schema file (cached: a spec check validates ~25 files)."""
    from jsonschema import Draft202012Validator

    shown = f"{schema_file.parent.name}/{schema_file.name}"
    schema = read_document(schema_file, shown)
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as exc:  # jsonschema raises SchemaError; any failure means a broken schema
        raise SpecError(shown, "$", f"not a valid JSON Schema: {exc}") from None
    return Draft202012Validator(schema)


def schema_errors(document: JSONObject, schema_file: Path, shown: str) -> list[SpecError]:
    """Every schema violation in ``document``, each as a precise one-line error."""
    fast = file_fast_validator(schema_file)  # jsonschema-rs's yes/no, where installed
    try:
        if fast is not None and fast(document):
            return []
    except ValueError:  # a value no JSON reader gives (a TOML date): jsonschema judges it
        pass
    from jsonschema.exceptions import best_match  # only here: most files are valid

    errors = []
    for error in validator(schema_file).iter_errors(document):
        # A oneOf/anyOf failure is reported as the sub-error that says most precisely what is
        # wrong (the deepest one), not as "is not valid under any of the given schemas".
        best = best_match([error])
        errors.append(SpecError(shown, json_path(best.absolute_path), _message(best)))
    errors.sort(key=lambda e: e.path)
    return errors


def load_document(path: Path, schema_file: Path, shown: str) -> JSONObject:
    """Read and validate a document, raising :class:`SpecProblemsError` with every problem found."""
    try:
        document = read_document(path, shown)
    except SpecError as exc:
        raise SpecProblemsError([exc]) from None
    errors = schema_errors(document, schema_file, shown)
    if errors:
        raise SpecProblemsError(errors)
    return document


def _short(value: object, limit: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _message(error: ValidationError) -> str:
    """A short message: jsonschema's own, but with long instances abbreviated."""
    instance = error.instance
    validator_name = error.validator
    expected = error.validator_value
    if validator_name == "type":
        return f"{_short(instance)} is not of type {_short(expected)}"
    if validator_name == "enum":
        return f"{_short(instance)} is not one of {_short(expected, 120)}"
    if validator_name == "const":
        return f"{_short(instance)} is not {_short(expected)}"
    if validator_name == "pattern":
        return f"{_short(instance)} does not match {expected}"
    if validator_name in {"oneOf", "anyOf"}:
        return f"{_short(instance)} is not a valid value here"
    if validator_name == "uniqueItems":
        return f"{_short(instance)} has repeated items"
    message = error.message
    return message if len(message) <= 200 else message[:199] + "…"
