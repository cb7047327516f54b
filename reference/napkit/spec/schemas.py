"""The JSON Schemas of spec/schemas, loaded once into one registry so that they can refer to
each other by ``$id``; napkit's one place for checking a document against them, fast, and for
saying where and why a document breaks one, by JSON path.

Two libraries check a document. jsonschema-rs (Rust) says only whether it is valid, 700 to 1,100
times as fast as jsonschema on a recorded hand (about 18 us against 15 to 21 ms: see
``benchmarks/validate_throughput.py`` and ``benchmarks/README.md``); jsonschema says where and
why it is not, and its messages and JSON paths are the ones napkit prints. So a document that
jsonschema-rs accepts takes that check only, and one that it rejects (or cannot take) is
checked again by jsonschema, whose verdict (:func:`is_valid`) or errors
(:func:`schema_problems`) are the answer. Where jsonschema-rs is not installed (no wheel for the
platform) jsonschema checks every document, as before.

A schema is named as ``hand-record`` (``spec/schemas/hand-record.schema.json``), or one of its
definitions as ``adapter#/$defs/request``; ``hand-record.schema.json`` and
``adapter.schema.json#/$defs/request`` name the same. Each is compiled once, by each library,
when first asked for. A schema file of another spec folder (one being loaded, or a copy under
test) is checked by :func:`file_fast_validator`, compiled once per file.

- :func:`is_valid`: whether a document is valid (the hot path: every case of the suite, every
  answer of a program under test);
- :func:`action_valid`: the same for an action, each distinct action checked once;
- :func:`schema_problems`: each way a document breaks a schema, as (JSON path, message);
- :func:`fast_validator`: jsonschema-rs's yes/no check itself, None where it is not installed;
  :func:`validator`: jsonschema's.

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
from typing import TYPE_CHECKING, Any

from napkit import paths
from napkit.errors import json_path
from napkit.reading import loads

if TYPE_CHECKING:  # jsonschema is imported when it first checks: a valid document never needs it
    from jsonschema import Draft202012Validator, ValidationError
    from referencing import Registry

RECORD_SCHEMAS = ("card", "action", "result", "hand-record", "match-record", "state", "view",
                  "adapter", "case")
BASE = "https://napkit.dev/schemas/"

Check = Callable[[Any], bool]


def _canonical(name: str) -> str:
    """``adapter#/$defs/request`` for ``adapter.schema.json#/$defs/request`` or itself."""
    base, hash_, fragment = name.partition("#")
    return base.removesuffix(".schema.json") + hash_ + fragment


def _documents() -> list[dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(Path(paths.spec_dir(), "schemas").glob("*.schema.json"))]


@lru_cache(maxsize=1)
def registry() -> Registry:
    """Every schema in the spec folder, by its ``$id`` (for jsonschema)."""
    from referencing import Registry, Resource

    return Registry().with_resources(
        (document["$id"], Resource.from_contents(document)) for document in _documents())


@cache
def validator(name: str) -> Draft202012Validator:
    """jsonschema's validator of schema ``name`` (``hand-record``) or of one of its definitions
    (``adapter#/$defs/request``): the one that explains."""
    from jsonschema import Draft202012Validator

    canonical = _canonical(name)
    if canonical != name:
        return validator(canonical)
    base, _, fragment = name.partition("#")
    if fragment:
        return Draft202012Validator({"$ref": f"{BASE}{base}.schema.json#{fragment}"},
                                    registry=registry())
    path = Path(paths.spec_dir(), "schemas", f"{name}.schema.json")
    schema = json.loads(path.read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=registry())


def rust() -> Any:
    """jsonschema-rs (once imported, Python keeps it); None where it is not installed (no
    wheel for the platform: jsonschema alone). It is imported through a function of its own,
    ``rust_import``: the module, written in Rust, imports ``decimal`` as it starts, so a Ctrl-C
    whose handler runs then would raise its KeyboardInterrupt inside Rust, as in a check
    (:func:`in_rust`; seen in CI, interrupting ``napkit conform`` as it loaded the spec).
    napkit's handler (napkit.cli.interrupt) knows this frame too."""
    def rust_import() -> Any:
        try:
            import jsonschema_rs
        except ImportError:
            return None
        return jsonschema_rs
    return rust_import()


@cache
def fast_validator(name: str) -> Check | None:
    """jsonschema-rs's yes/no check of schema ``name`` (``hand-record``), or of one of its
    definitions (``adapter#/$defs/request``); None if jsonschema-rs is not installed. It raises
    ValueError on a value no JSON reader gives (a set)."""
    if rust() is None:
        return None
    return _compiled(_canonical(name))


@cache
def _compiled(name: str) -> Check:
    jsonschema_rs = rust()
    base, _, fragment = name.partition("#")
    uri = f"{BASE}{base}.schema.json" + (f"#{fragment}" if fragment else "")
    return in_rust(jsonschema_rs.Draft202012Validator({"$ref": uri},
                                                      registry=_rs_registry()).is_valid)


def in_rust(check: Check) -> Check:
    """``check`` (jsonschema-rs's, written in Rust) called through a Python function of its own,
    ``rust_check``: a Ctrl-C whose handler runs while Rust checks for signals would raise its
    KeyboardInterrupt into Rust, which panics and prints a Rust backtrace and a Python traceback
    (seen once in CI, interrupting ``napkit record``). napkit's handler
    (napkit.cli.interrupt) knows this frame and has the signal raised again a moment later, back
    in Python."""
    def rust_check(document: object) -> bool:
        return check(document)
    return rust_check


@lru_cache(maxsize=1)
def _rs_registry() -> Any:
    """Every schema of the spec folder, for jsonschema-rs (installed: see fast_validator)."""
    return rust().Registry([(document["$id"], document) for document in _documents()])


@cache
def file_fast_validator(schema_file: Path) -> Check | None:
    """jsonschema-rs's yes/no check of the schema in ``schema_file``, on its own (no other
    schema by ``$id``), compiled once; None where jsonschema-rs is not installed or cannot read
    or compile the schema (jsonschema then checks, and says what is wrong with the schema).
    Loading the spec folder checks 22 files: jsonschema alone takes about a third of a second
    to say they are all valid, jsonschema-rs a few ms (benchmarks/README.md)."""
    jsonschema_rs = rust()
    if jsonschema_rs is None:
        return None
    try:
        schema = loads(Path(schema_file).read_text(encoding="utf-8"))  # strictly, as the spec
        check: Check = jsonschema_rs.Draft202012Validator(schema).is_valid
    except Exception:  # a schema it cannot read or compile: jsonschema alone, which reports it
        return None
    return in_rust(check)


def is_valid(name: str, document: object) -> bool:
    """Whether schema ``name`` (or a definition: see the module's docstring) accepts
    ``document``: jsonschema-rs's yes where it says yes, else jsonschema's verdict."""
    check = fast_validator(name)
    if check is not None:
        try:
            if check(document):
                return True
        except Exception:  # a value it cannot take (a tuple, a set): jsonschema judges it
            pass
    return validator(name).is_valid(document)


_ACTIONS: dict[object, bool] = {}


def _action_key(action: object) -> object:
    """What an action is remembered by: for an object of plain values (all but a buy and a
    chance action's pack) its items in the order written, and each value's type (1 and true
    are not the same), which is quicker to make than its JSON (the same action written with
    its keys in another order is remembered twice, each with the same verdict); else its
    JSON with sorted keys."""
    if type(action) is dict:
        key = (tuple(action.items()), tuple(map(type, action.values())))
        try:
            hash(key)
        except TypeError:  # a list in it
            pass
        else:
            return key
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def action_valid(action: object) -> bool:
    """Whether ``action`` is valid under action.schema.json: :func:`is_valid`, remembered for
    each distinct action (a suite and a program's answers repeat the same few hundred, a play
    of the ace of spades, a pass, over and over)."""
    key = _action_key(action)
    known = _ACTIONS.get(key)
    if known is None:
        known = is_valid("action", action)
        if len(_ACTIONS) < 200_000:
            _ACTIONS[key] = known
    return known


def schema_problems(name: str, document: object) -> list[tuple[str, str]]:
    """Each way ``document`` (a JSON value, as ``json.loads`` gives) breaks schema ``name`` (or
    a definition: see the module's docstring): (JSON path, message), deepest first. A valid
    document takes the fast check only."""
    check = fast_validator(name)
    if check is not None:
        try:
            if check(document):
                return []
        except Exception:  # a value it cannot take (a tuple, a set): jsonschema judges it
            pass
    return jsonschema_problems(name, document)


#: napkit 0.2's name (``napkit.conform.fastschema.definition_problems``) of
#: :func:`schema_problems` for a definition (``adapter.schema.json#/$defs/request``).
definition_problems = schema_problems


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
