"""Schema checks fast enough for thousands of cases and hundreds of thousands of messages.

``jsonschema`` spends most of its time on actions: every action is tried against the sixteen
branches of ``action.schema.json``'s ``oneOf``, each behind a ``$ref``. A suite repeats the
same few hundred actions (a play of the ace of spades, a pass, a bid of Nap) over and over,
so here every reference to the action schema is replaced by a keyword of our own,
``napkitAction``, that validates the action once with the real schema and remembers the
verdict by the action's JSON. The rest of the schema is checked as written. Nothing is
dropped: a document is valid here exactly when it is valid under the original schema (the
action references sit in no ``oneOf``, ``anyOf`` or ``not``, so the check splits in two), and
:func:`check_split` asserts that for the schemas it is given.

A verdict is all this gives. The messages for a document found invalid come from
:func:`napkit.schemas.schema_problems` (or :func:`definition_problems`), against the original.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from napkit.errors import json_path
from napkit.schemas import _explain, registry

ACTION = "https://napkit.dev/schemas/action.schema.json"
_BASE = "https://napkit.dev/schemas/"
_FAST = "urn:napkit:fast:"


@cache
def _action_validator() -> Draft202012Validator:
    return Draft202012Validator({"$ref": ACTION}, registry=registry())


_ACTIONS: dict[str, bool] = {}


def action_valid(action: object) -> bool:
    """Whether ``action`` is valid under action.schema.json (remembered by its JSON)."""
    key = json.dumps(action, sort_keys=True, separators=(",", ":"))
    known = _ACTIONS.get(key)
    if known is None:
        known = _action_validator().is_valid(action)
        if len(_ACTIONS) < 200_000:
            _ACTIONS[key] = known
    return known


def _napkit_action(_validator: Validator, _value: Any, instance: Any,
                   _schema: Any) -> Iterator[ValidationError]:
    if not action_valid(instance):
        yield ValidationError("not a valid action (action.schema.json)")


_Fast = extend(Draft202012Validator, {"napkitAction": _napkit_action})  # type: ignore[no-untyped-call]


def _split(node: Any) -> Any:
    """The schema with every reference to the action schema replaced by ``napkitAction``, and
    references to the other schemas sent to their split copies."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref == ACTION:
            if len(node) != 1:
                raise ValueError("an action $ref with sibling keywords cannot be split")
            return {"napkitAction": True}
        # No "$schema": jsonschema picks the validator class of a referenced schema by its
        # "$schema", which would be the plain draft's, without napkitAction.
        out = {k: _split(v) for k, v in node.items() if k != "$schema"}
        if isinstance(ref, str) and ref.startswith(_BASE):
            out["$ref"] = _FAST + ref[len(_BASE):]
        if isinstance(out.get("$id"), str) and out["$id"].startswith(_BASE):
            out["$id"] = _FAST + out["$id"][len(_BASE):]
        return out
    if isinstance(node, list):
        return [_split(v) for v in node]
    return node


def check_split(node: Any, inside: bool = False) -> None:
    """Raise ValueError if an action reference sits under a combinator that a split would
    change the meaning of (``oneOf``, ``anyOf``, ``not``, ``if``)."""
    if isinstance(node, dict):
        if node.get("$ref") == ACTION and inside:
            raise ValueError("an action $ref under oneOf/anyOf/not/if cannot be split")
        for key, value in node.items():
            check_split(value, inside or key in ("oneOf", "anyOf", "not", "if"))
    elif isinstance(node, list):
        for value in node:
            check_split(value, inside)


@cache
def _fast_registry() -> Registry:
    reg = registry()
    resources = []
    for uri in ("case.schema.json", "adapter.schema.json", "result.schema.json",
                "card.schema.json"):
        contents = reg.contents(_BASE + uri)
        check_split(contents)
        resources.append((_FAST + uri, DRAFT202012.create_resource(_split(contents))))
    return reg.with_resources(resources)


@cache
def fast_validator(uri: str) -> Draft202012Validator:
    """A fast validator of ``uri`` (``case.schema.json`` or ``adapter.schema.json#/$defs/X``,
    relative to the schemas' base)."""
    validator: Draft202012Validator = _Fast({"$ref": _FAST + uri}, registry=_fast_registry())
    return validator


@cache
def _definition_validator(uri: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": _BASE + uri}, registry=registry())


def definition_problems(uri: str, document: object) -> list[tuple[str, str]]:
    """Each way ``document`` breaks the (original) schema at ``uri``, as (JSON path, message),
    sorted; ``uri`` as for :func:`fast_validator`."""
    found = {_explain(e) for e in _definition_validator(uri).iter_errors(document)}
    return sorted(found)


__all__ = ["action_valid", "definition_problems", "fast_validator", "json_path"]
