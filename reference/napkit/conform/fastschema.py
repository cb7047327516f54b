"""Schema checks fast enough for thousands of cases and hundreds of thousands of messages.

``jsonschema`` spends most of its time on actions: every action is tried against the sixteen
branches of ``action.schema.json``'s ``oneOf``, each behind a ``$ref``. A suite repeats the
same few hundred actions (a play of the ace of spades, a pass, a bid of Nap) over and over,
so here every reference to the action schema is replaced by a keyword of our own,
``napkitAction``, that validates the action once with the real schema and remembers the
verdict by the action's JSON; and every other reference is replaced by the schema it refers
to (:func:`inlined`), since looking references up is most of the rest of the time. Nothing
is dropped: a document is valid here exactly when it is valid under the original schema (the
action references sit in no ``oneOf``, ``anyOf`` or ``not``, so the check splits in two;
:func:`inlined` refuses a schema where they would).

A verdict is all this gives. The messages for a document found invalid come from
:func:`napkit.spec.schemas.schema_problems` (or :func:`definition_problems`), against the original.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend
from referencing._core import Resolver

from napkit.spec import schemas
from napkit.spec.schemas import _explain, registry

ACTION = "https://napkit.dev/schemas/action.schema.json"
_BASE = "https://napkit.dev/schemas/"


@cache
def _action_validator() -> Draft202012Validator:
    resolved = registry().resolver().lookup(ACTION)
    return Draft202012Validator(inlined(resolved.contents, resolved.resolver))


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
    """Whether ``action`` is valid under action.schema.json (remembered, see _action_key)."""
    key = _action_key(action)
    known = _ACTIONS.get(key)
    if known is None:
        rs = _rs_validator("action.schema.json")
        known = (rs is not None and rs(action)) or _action_validator().is_valid(action)
        if len(_ACTIONS) < 200_000:
            _ACTIONS[key] = known
    return known


def _napkit_action(_validator: Validator, _value: Any, instance: Any,
                   _schema: Any) -> Iterator[ValidationError]:
    if not action_valid(instance):
        yield ValidationError("not a valid action (action.schema.json)")


_Fast = extend(Draft202012Validator, {"napkitAction": _napkit_action})  # type: ignore[no-untyped-call]


_DROPPED = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description"})
_NAMED = frozenset({"properties", "patternProperties", "dependentSchemas"})  # name -> schema
_VALUES = frozenset({"const", "enum", "default", "examples", "required"})  # data, not schemas
_COMBINATORS = frozenset({"oneOf", "anyOf", "not", "if", "then", "else"})


def inlined(node: Any, resolver: Resolver[Any], inside: bool = False, depth: int = 0) -> Any:
    """The schema ``node`` with every ``$ref`` replaced by what it refers to (a ``$ref`` with
    other keywords beside it becoming an ``allOf``), references to the action schema by
    ``napkitAction``, and the keywords that validate nothing dropped.

    Resolving references is what jsonschema spends its time on for small documents; a
    schema without them is checked several times as fast. The action schema is the one part
    left apart: its ``oneOf`` of sixteen branches is checked once per distinct action.
    ValueError if an action reference sits under a combinator (where splitting it off would
    change the meaning) or the references nest too deep (a recursive schema).
    """
    if depth > 40:
        raise ValueError("schema references nest too deep to inline")
    if isinstance(node, list):
        return [inlined(v, resolver, inside, depth) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED or key == "$ref":
            continue
        within = inside or key in _COMBINATORS
        if key in _VALUES:
            out[key] = value
        elif key in _NAMED and isinstance(value, dict):
            out[key] = {name: inlined(v, resolver, within, depth) for name, v in value.items()}
        else:
            out[key] = inlined(value, resolver, within, depth)
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return out
    if ref == ACTION:
        if inside or out:
            raise ValueError("an action $ref under a combinator, or with keywords beside it, "
                             "cannot be split off")
        return {"napkitAction": True}
    resolved = resolver.lookup(ref)
    target = inlined(resolved.contents, resolved.resolver, inside, depth + 1)
    if not out:
        return target
    return {**out, "allOf": [*out.get("allOf", []), target]}


@cache
def fast_validator(uri: str) -> Draft202012Validator:
    """A fast validator of ``uri`` (``case.schema.json`` or ``adapter.schema.json#/$defs/X``,
    relative to the schemas' base): the same verdicts as the schema, sooner."""
    schema = inlined({"$ref": _BASE + uri}, registry().resolver())
    validator: Draft202012Validator = _Fast(schema)
    return validator


def _rs_validator(uri: str) -> Callable[[Any], bool] | None:
    """jsonschema-rs's yes/no check of ``uri`` (napkit.spec.schemas builds it), where installed."""
    base, _, fragment = uri.partition("#")
    return schemas.fast_validator(base.removesuffix(".schema.json")
                                  + (f"#{fragment}" if fragment else ""))


def is_valid(uri: str, document: object) -> bool:
    """Whether the schema at ``uri`` accepts ``document``: jsonschema-rs's yes where it is
    installed and says yes (it is trusted only to say yes: where it differs from jsonschema it
    is the stricter, as napkit.spec.schemas explains), else the fast validator's verdict."""
    rs = _rs_validator(uri)
    if rs is not None:
        try:
            if rs(document):
                return True
        except Exception:  # a value it cannot take: the other check judges it
            pass
    return fast_validator(uri).is_valid(document)


@cache
def _definition_validator(uri: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": _BASE + uri}, registry=registry())


def definition_problems(uri: str, document: object) -> list[tuple[str, str]]:
    """Each way ``document`` breaks the (original) schema at ``uri``, as (JSON path, message),
    sorted; ``uri`` as for :func:`fast_validator`."""
    found = {_explain(e) for e in _definition_validator(uri).iter_errors(document)}
    return sorted(found)


__all__ = ["action_valid", "definition_problems", "fast_validator", "inlined", "is_valid"]
