"""A new house ruleset, written from a built-in one and a few changes (``napkit rules new``).

:func:`house_document` makes the document of a house file (the format
:mod:`napkit.spec.house` reads; spec/README.md, "House rulesets") from the ruleset it extends,
option choices (``mis=on``: the option's new default) and parameter settings (``PARAM=VALUE``,
:func:`parse_setting`). It checks nothing: the caller reads the document back with
:func:`napkit.spec.house.house_from_document`, which checks it as any house file is checked,
before it is written.

>>> from napkit.spec.catalog import default_spec
>>> from napkit.handbook.newhouse import house_document, parse_setting
>>> pagat = default_spec().rulesets["pagat"]
>>> document = house_document(pagat, {"mis": "on"}, [parse_setting("bids[nap].win.each=6")])
>>> document["options"], [bid["win"] for bid in document["params"]["bids"] if bid["id"] == "nap"]
({'mis': {'default': 'on'}}, [{'each': 6}])
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from napkit.errors import UsageError
from napkit.output.tables import cut, printable
from napkit.reading import ReadError, loads
from napkit.spec.loading import JSON, JSONObject
from napkit.spec.rulesets import Ruleset

__all__ = ["Setting", "house_document", "parse_setting"]

_STEP = re.compile(r"^([a-z_]+)(?:\[([a-z0-9-]+)\])?$")


@dataclass(frozen=True)
class Setting:
    """``--set PARAM=VALUE``: the path of a parameter (``throw_in.stakes``,
    ``bids[nap].win.each``: a bid named by its id) and its new value."""

    text: str
    path: tuple[str, ...]
    bid: str | None  # the bid's id, for a path into bids[ID]
    value: JSON


def parse_setting(text: str) -> Setting:
    """``PARAM=VALUE``: VALUE is read as JSON (``10``, ``true``, ``null``, ``[3, 2]``) or else
    taken as a string (``double-next``). A malformed one is a :class:`UsageError`, and so is
    JSON that no house file may hold (read by :func:`napkit.reading.loads`, as a house file
    is read: nested too deep, a number beyond 2^53 - 1 or with a point, a key twice), naming
    where in the parameter.

    >>> from napkit.handbook.newhouse import parse_setting
    >>> parse_setting("throw_in.stakes=double-next").value
    'double-next'
    >>> parse_setting("packets=[2, 3]").value
    [2, 3]
    """
    name, equals, raw = text.partition("=")
    if not equals or not name or not raw:
        raise UsageError(f"--set takes PARAM=VALUE (throw_in.stakes=double-next, "
                         f"bids[nap].win.each=10), not {_shown(text)}")
    steps = name.strip().split(".")
    bid: str | None = None
    path: list[str] = []
    for n, step in enumerate(steps):
        found = _STEP.match(step)
        if found is None or (found[2] is not None and (n != 0 or found[1] != "bids")):
            raise UsageError(f"--set {_shown(text)}: {_shown(name)} is not a parameter path "
                             "(words joined by dots; a bid is bids[ID], as in "
                             "bids[nap].win.each)")
        path.append(found[1])
        if found[2] is not None:
            bid = found[2]
    if path == ["bids"] and bid is None:
        raise UsageError(f"--set {_shown(text)}: set a field of one bid (bids[ID].FIELD=VALUE); "
                         "the whole list of bids is written in the file itself")
    try:
        value: JSON = loads(raw)  # the reader of every house file, with its limits
    except ReadError as exc:
        if exc.kind != "syntax":  # JSON, but JSON no house file may hold
            where = f"$.params.{cut(name.strip(), 60)}{exc.where.removeprefix('$')}"
            raise UsageError(f"--set {_shown(text)}: {where}: {exc.message}") from None
        value = raw  # not JSON: a word
    return Setting(text, tuple(path), bid, value)


def _shown(text: str) -> str:
    """What was typed, quoted for a message: escaped, and shortened (saying its length)."""
    shown = cut(printable(text), 60)
    return f"'{shown}'" + (f" ({len(text):,} characters)" if shown != printable(text) else "")


def house_document(parent: Ruleset, choices: Mapping[str, str],
                   settings: Sequence[Setting] = (), house_id: str | None = None,
                   title: str | None = None, description: str | None = None) -> JSONObject:
    """The document of a house file extending ``parent``: each chosen option's default set to
    the choice, each setting written under ``params`` (a setting inside a bid copies the
    parent's whole list of bids, since a house file's list replaces its parent's). A bid that
    ``parent`` does not have is a :class:`UsageError`."""
    params: JSONObject = {}
    for setting in settings:
        if setting.bid is not None:
            bids = params.get("bids")
            if not isinstance(bids, list):
                inherited = parent.params.get("bids")
                bids = copy.deepcopy(inherited) if isinstance(inherited, list) else []
                params["bids"] = bids
            target = next((b for b in bids if isinstance(b, dict) and b.get("id") == setting.bid),
                          None)
            if target is None:
                known = ", ".join(str(b.get("id")) for b in bids if isinstance(b, dict))
                raise UsageError(f"--set {_shown(setting.text)}: {parent.id} has no bid "
                                 f"{setting.bid!r} (its bids: {known})")
            _put(target, setting.path[1:], setting.value)
        else:
            _put(params, setting.path, setting.value)
    document: JSONObject = {
        "$schema": "https://napkit.dev/schemas/house-ruleset.schema.json",
        "house": True,
        "id": house_id or f"house-{parent.id}",
        "title": title or f"{parent.title}: house rules",
        "extends": parent.id,
        "description": description or _description(parent, choices, settings),
    }
    if choices:
        document["options"] = {name: {"default": choice} for name, choice in choices.items()}
    if params:
        document["params"] = params
    return document


def _put(target: JSONObject, path: Sequence[str], value: JSON) -> None:
    """Set ``value`` at ``path`` in ``target``, making the objects on the way (an object that
    was a by-option switch, or not an object, is replaced)."""
    node = target
    for step in path[:-1]:
        inner = node.get(step)
        if not isinstance(inner, dict) or "by_option" in inner:
            inner = {}
            node[step] = inner
        node = inner
    node[path[-1]] = value


def _description(parent: Ruleset, choices: Mapping[str, str],
                 settings: Sequence[Setting]) -> str:
    changes = [f"{name}={choice}" for name, choice in choices.items()]
    changes += [setting.text for setting in settings]
    what = f", with {', '.join(changes)}" if changes else ", unchanged"
    return f"{parent.title} ({parent.id}) as this table plays it{what}."
