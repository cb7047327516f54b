"""Every ruleset parameter and every protocol field has its meaning written down.

**Ruleset parameters.** :func:`param_paths` lists the parameters of a ruleset's ``params`` as
``spec/schemas/ruleset.schema.json`` defines them, by walking the schema: an object's
properties (``peek.cost``), the fields of every bid (``bids[*].lead``), through ``$ref`` to
``$defs`` and through ``anyOf``/``oneOf``/``allOf``; a by-option switch (``{"by_option": ...,
"cases": ...}``) is a way of writing a value, not a parameter, so its branch is skipped. The
paths are written as the law book's ``params`` entries write them. The conventions:

* A **leaf** (a value that is not an object with properties: a number, a switch word, a
  list) is a parameter, and must be explained.
* An **object** is a parameter too when its presence alone means something: when the schema
  lets it be ``null`` (``peek``: null, there are no paid looks) or leave it out (a bid's
  ``only_when``: absent, the bid is always there). An object its parent always has (a bid's
  ``win``) only groups its fields, and needs no explaining of its own.
* A **list of objects** is walked item by item (``NAME[*].FIELD``) only for ``bids``: the
  law book's ``params`` names fields of list items for the bids alone (spec/README.md), and
  the tools that show a rule's values read ``[*]`` for the bids alone. Any other list of
  objects (the ``pack`` table) is one parameter, explained as a whole, its items' fields
  included, by the rule that lists it.

A parameter is explained when some law-book rule lists exactly its path in ``params`` (a
rule that lists ``bids`` does not explain ``bids[*].lead``), and that rule's ``text`` says
what it means. The second half cannot be checked by a program, but one part of it can: each
word a switch may take (``auction.rounds``: ``single``, ``single-then-raise``,
``until-passes``) must open a parenthesis, ``(single-then-raise)`` or ``(bidders, also
where ...)``, in the text of a rule that lists the switch, after the words that say what it
means.

**Protocol fields.** :func:`message_fields` lists every field of every message of
``spec/schemas/adapter.schema.json``: each request's and response's properties, nested ones
(``supports.rulesets.*.players``, ``payments[*].payer``), and the fields of the objects a
message refers to inside that schema (the hand outcome, the match outcome). A value that is
another napkit format (an action, the cards of the tricks) is one field here: that format's
own fields are spec/formats.md's. A field is explained when the tables of
spec/conformance.md section 2.4 give it a row: the message in the first cell (``hello``
request, hand outcome, or ``every request and response``; a blank cell repeats the one
above) and the field, in backticks, in the second.

The checks are pure functions of the schemas and texts they are given, so the tests at the
end run them on copies with a planted gap and see it reported.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, NamedTuple

from napkit.paths import REPO_ROOT
from napkit.spec.catalog import load_spec
from napkit.spec.lawbook import LawBook

SPEC = REPO_ROOT / "spec"

#: The lists of objects whose items' fields are parameters one by one (``bids[*].lead``).
ITEM_LISTS = frozenset({"bids"})

#: The first cell of a protocol table row that explains a field of every request and response.
EVERY_MESSAGE = "every request and response"


# --- reading JSON Schema ------------------------------------------------------------------------

def _resolve(node: Any, defs: Mapping[str, Any]) -> Any:
    """``node`` with any local ``$ref`` (``#/$defs/NAME``) replaced by what it names (the
    node's own keys, a description say, kept beside it); an external ``$ref`` is left as is."""
    seen: set[str] = set()
    while isinstance(node, dict) and str(node.get("$ref", "")).startswith("#/$defs/"):
        name = str(node["$ref"]).removeprefix("#/$defs/")
        if name in seen:
            raise ValueError(f"$ref cycle through {name}")
        seen.add(name)
        node = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _is_switch(node: Any, defs: Mapping[str, Any]) -> bool:
    """Whether ``node`` is a by-option switch (a ``$ref`` to ``byOption``, or an ``allOf``
    with one): a way of writing a value, not a value of its own."""
    if not isinstance(node, dict):
        return False
    if node.get("$ref") == "#/$defs/byOption":
        return True
    return any(_is_switch(part, defs) for part in node.get("allOf", []))


def _alternatives(node: Any, defs: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The shapes a value may take: ``anyOf``/``oneOf`` branches flattened, ``allOf`` parts
    merged, ``$ref`` followed, by-option switches left out."""
    node = _resolve(node, defs)
    if not isinstance(node, dict):
        return []
    branches = [b for key in ("anyOf", "oneOf") for b in node.get(key, [])]
    if branches:
        return [shape for branch in branches if not _is_switch(branch, defs)
                for shape in _alternatives(branch, defs)]
    if "allOf" in node:
        merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
        for part in node["allOf"]:
            for shape in _alternatives(part, defs):
                merged.setdefault("properties", {}).update(shape.get("properties", {}))
                merged["required"] = [*merged.get("required", []), *shape.get("required", [])]
                merged.update({k: v for k, v in shape.items()
                               if k not in ("properties", "required")})
        return [merged]
    return [node]


def _nullable(shape: Mapping[str, Any]) -> bool:
    kind = shape.get("type")
    return kind == "null" or (isinstance(kind, list) and "null" in kind)


def _words(shapes: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The words a switch may take: every string of an ``enum`` or ``const``."""
    found: list[str] = []
    for shape in shapes:
        values = shape.get("enum", [shape["const"]] if "const" in shape else [])
        found += [v for v in values if isinstance(v, str) and v not in found]
    return tuple(found)


# --- ruleset parameters -------------------------------------------------------------------------

class Param(NamedTuple):
    """One path of a ruleset's params: whether it must be explained (a grouping object need
    not), and the words it may take where it is a switch."""

    path: str
    explain: bool
    words: tuple[str, ...] = ()


def param_paths(schema: Mapping[str, Any]) -> list[Param]:
    """Every path of a ruleset's ``params`` under ``schema`` (ruleset.schema.json), in schema
    order, as the module docstring says."""
    defs: Mapping[str, Any] = schema.get("$defs", {})
    found: list[Param] = []

    def walk(node: Any, path: str, optional: bool) -> None:
        shapes = _alternatives(node, defs)
        objects = [s for s in shapes if isinstance(s.get("properties"), dict)]
        if objects:
            if path:
                found.append(Param(path, optional or any(_nullable(s) for s in shapes)))
            for shape in objects:
                required = set(shape.get("required", []))
                for name, sub in shape["properties"].items():
                    walk(sub, f"{path}.{name}" if path else name, name not in required)
            return
        if path in ITEM_LISTS:
            found.append(Param(path, True))
            for shape in shapes:
                if "items" in shape:
                    walk(shape["items"], f"{path}[*]", False)
            return
        found.append(Param(path, True, _words(shapes)))

    walk(defs["params"], "", False)
    unique: dict[str, Param] = {}
    for param in found:
        unique.setdefault(param.path, param)
    return list(unique.values())


def unexplained_params(params: Iterable[Param], entries: Iterable[str]) -> list[str]:
    """The parameters that must be explained and that no law-book ``params`` entry lists."""
    listed = set(entries)
    return [p.path for p in params if p.explain and p.path not in listed]


def unknown_entries(params: Iterable[Param], entries: Iterable[str]) -> list[str]:
    """The law-book ``params`` entries that name no path of the schema (a misspelling, or a
    parameter since renamed)."""
    paths = {p.path for p in params}
    return sorted({e for e in entries if e not in paths})


def unnamed_words(params: Iterable[Param], texts: Mapping[str, Iterable[str]]) -> list[str]:
    """``PATH=WORD`` for each word a switch may take that opens a parenthesis (``(WORD)``,
    ``(WORD, ...``, ``(WORD; ...``) in no text of a rule listing the switch; ``texts`` maps
    each path to the texts of the rules that list it."""
    missing = []
    for param in params:
        written = " ".join(" ".join(texts.get(param.path, ())).split())
        missing += [f"{param.path}={word}" for word in param.words
                    if not re.search(rf"\({re.escape(word)}[),;]", written)]
    return missing


def lawbook_texts(lawbook: LawBook) -> dict[str, list[str]]:
    """Each ``params`` entry of the law book, with the texts of the rules that list it."""
    texts: dict[str, list[str]] = {}
    for rule in lawbook:
        for entry in rule.params:
            texts.setdefault(entry, []).append(rule.text)
    return texts


# --- protocol fields ----------------------------------------------------------------------------

def unit_name(unit: str) -> str:
    """How a message (or an object of one) is named in the first cell of the protocol tables:
    ``request-hello`` is the ``hello`` request, ``hand-outcome`` the hand outcome."""
    for kind in ("request", "response"):
        if unit.startswith(kind + "-"):
            return f"{unit.removeprefix(kind + '-')} {kind}"
    return unit.replace("-", " ")


def message_fields(schema: Mapping[str, Any]) -> list[str]:
    """``UNIT.FIELD`` for every field of every message of ``schema`` (adapter.schema.json),
    a unit being a ``request-*`` or ``response-*`` definition or an object one of them refers
    to (``hand-outcome``), as the module docstring says."""
    defs: Mapping[str, Any] = schema.get("$defs", {})
    units = [name for name in defs if name.startswith(("request-", "response-"))]
    found: list[str] = []

    def walk(node: Any, unit: str, path: str) -> None:
        if not isinstance(node, dict):
            return
        if str(node.get("$ref", "")).startswith("#/$defs/"):
            target = str(node["$ref"]).removeprefix("#/$defs/")
            if isinstance(defs[target].get("properties"), dict):
                if target not in units:
                    units.append(target)  # an object of its own: its fields under its name
                return
            node = _resolve(node, defs)
        for key in ("anyOf", "oneOf", "allOf"):
            for branch in node.get(key, []):
                walk(branch, unit, path)
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name, sub in properties.items():
                field = f"{path}.{name}" if path else name
                found.append(f"{unit}.{field}")
                walk(sub, unit, field)
        if path and isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], unit, f"{path}.*")
        if path and isinstance(node.get("items"), dict):
            walk(node["items"], unit, f"{path}[*]")

    for unit in units:  # grows as messages refer to other units
        walk(defs[unit], unit, "")
    return list(dict.fromkeys(found))


def protocol_rows(text: str) -> set[tuple[str, str]]:
    """``(message, field)`` for every field that a Markdown table row of ``text`` names in
    backticks in its second cell; the message is the first cell, without backticks and in
    lower case, or the last one above it where the cell is blank."""
    rows: set[tuple[str, str]] = set()
    message = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line.startswith("|"):
            message = ""
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 2 or set(cells[0] + cells[1]) <= set("-: "):
            continue  # not a row of two cells, or the row under the header
        if cells[0]:
            message = " ".join(cells[0].replace("`", "").lower().split())
        for field in re.findall(r"`([^`]+)`", cells[1]):
            rows.add((message, field))
    return rows


def unexplained_fields(fields: Iterable[str], text: str) -> list[str]:
    """The fields (``UNIT.FIELD``) that no table row of ``text`` explains."""
    rows = protocol_rows(text)
    missing = []
    for qualified in fields:
        unit, field = qualified.split(".", 1)
        names = {unit_name(unit)}
        if unit.startswith(("request-", "response-")):
            names.add(EVERY_MESSAGE)
        if not any((name, field) in rows for name in names):
            missing.append(qualified)
    return missing


def section(markdown: str, heading: str) -> str:
    """The text under the heading that starts with ``heading`` (``### 2.4``), up to the next
    heading of the same level or above; empty if there is none."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(heading + " "):
            end = next((j for j in range(i + 1, len(lines))
                        if re.match(rf"#{{1,{level}}} ", lines[j])), len(lines))
            return "\n".join(lines[i + 1:end])
    return ""


# --- the real spec ------------------------------------------------------------------------------

@cache
def _schema(name: str) -> Any:
    return json.loads((SPEC / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))


@cache
def _lawbook() -> LawBook:
    return load_spec(SPEC).lawbook


def _protocol_text() -> str:
    return section((SPEC / "conformance.md").read_text(encoding="utf-8"), "### 2.4")


def _entries(lawbook: LawBook) -> list[str]:
    return [entry for rule in lawbook for entry in rule.params]


def test_every_parameter_is_explained_by_a_rule() -> None:
    missing = unexplained_params(param_paths(_schema("ruleset")), _entries(_lawbook()))
    assert missing == [], (
        "no law-book rule lists these ruleset parameters in its params (add each to the rule "
        "that governs it, and say in its text what every value means): " + ", ".join(missing))


def test_every_law_book_entry_names_a_parameter() -> None:
    unknown = unknown_entries(param_paths(_schema("ruleset")), _entries(_lawbook()))
    assert unknown == [], "law-book params entries that name no parameter: " + ", ".join(unknown)


def test_every_switch_word_is_written_where_it_is_explained() -> None:
    missing = unnamed_words(param_paths(_schema("ruleset")), lawbook_texts(_lawbook()))
    assert missing == [], (
        "no rule that lists the parameter opens a parenthesis with these words, after the "
        "words that say what they mean: " + ", ".join(missing))


def test_every_protocol_field_is_explained() -> None:
    missing = unexplained_fields(message_fields(_schema("adapter")), _protocol_text())
    assert missing == [], (
        "spec/conformance.md 2.4 has no table row for these fields of the adapter protocol "
        "(message in the first cell, the field in backticks in the second): "
        + ", ".join(missing))


# --- the walks find what they should ------------------------------------------------------------

def test_the_parameter_walk_finds_leaves_objects_and_bid_fields() -> None:
    params = {p.path: p for p in param_paths(_schema("ruleset"))}
    assert {"players", "pack", "peek.cost", "bids[*].lead", "bids[*].win.each",
            "bids[*].only_when.choices", "match.bankroll.short_payment"} <= set(params)
    assert params["peek"].explain  # null: no paid looks
    assert params["bids[*].only_when"].explain  # absent: the bid is always there
    assert not params["bids[*].win"].explain  # every bid has one: it only groups
    assert params["auction.rounds"].words == ("single", "single-then-raise", "until-passes",
                                              "reopening")
    assert not any("by_option" in path or "cases" in path for path in params)
    assert not any(path.startswith("pack[") for path in params)  # the pack is one table


def test_the_field_walk_finds_messages_and_what_they_refer_to() -> None:
    fields = message_fields(_schema("adapter"))
    assert {"request-start-hand.funds", "response-hello.supports.rulesets.*.players",
            "response-outcome.outcome", "hand-outcome.payments[*].rule",
            "match-outcome.out", "response-error.message"} <= set(fields)
    assert not any(f.startswith(("request.", "response.", "supports.")) for f in fields)


def test_table_rows_are_read_with_blank_cells_repeating_the_message() -> None:
    text = """
| message | field | meaning |
| --- | --- | --- |
| `hello` request | `protocol` | the name |
| | `id`, `type` | both |
| hand outcome | `payments[*].payer` | who pays |
"""
    assert protocol_rows(text) == {("hello request", "protocol"), ("hello request", "id"),
                                   ("hello request", "type"),
                                   ("hand outcome", "payments[*].payer")}


# --- planted gaps: the checks report exactly them -----------------------------------------------

def _peek_object(schema: dict[str, Any]) -> dict[str, Any]:
    branch: dict[str, Any] = schema["$defs"]["params"]["properties"]["peek"]["oneOf"][1]
    return branch


def test_a_planted_parameter_is_reported() -> None:
    schema = copy.deepcopy(_schema("ruleset"))
    _peek_object(schema)["properties"]["colour"] = {"enum": ["red", "black"]}
    params = param_paths(schema)
    assert unexplained_params(params, _entries(_lawbook())) == ["peek.colour"]
    assert unnamed_words(params, lawbook_texts(_lawbook())) == [
        "peek.colour=red", "peek.colour=black"]


def test_a_planted_bid_field_and_optional_object_are_reported() -> None:
    schema = copy.deepcopy(_schema("ruleset"))
    schema["$defs"]["bid"]["properties"]["bonus"] = {
        "type": "object", "properties": {"each": {"$ref": "#/$defs/amount"}}}
    missing = unexplained_params(param_paths(schema), _entries(_lawbook()))
    assert missing == ["bids[*].bonus", "bids[*].bonus.each"]


def test_a_parameter_the_law_book_stops_listing_is_reported() -> None:
    entries = [e for e in _entries(_lawbook()) if e != "ante.on_redeal"]
    assert unexplained_params(param_paths(_schema("ruleset")), entries) == ["ante.on_redeal"]


def test_a_planted_switch_word_is_reported() -> None:
    schema = copy.deepcopy(_schema("ruleset"))
    schema["$defs"]["auctionRounds"]["enum"].append("twice-round")
    params = param_paths(schema)
    assert unnamed_words(params, lawbook_texts(_lawbook())) == ["auction.rounds=twice-round"]


def test_a_misspelt_law_book_entry_is_reported() -> None:
    entries = [*_entries(_lawbook()), "peek.colour"]
    assert unknown_entries(param_paths(_schema("ruleset")), entries) == ["peek.colour"]


def test_planted_protocol_fields_are_reported() -> None:
    schema = copy.deepcopy(_schema("adapter"))
    schema["$defs"]["request-legal"]["properties"]["verbosity"] = {"type": "integer"}
    payment = schema["$defs"]["hand-outcome"]["properties"]["payments"]["items"]
    payment["properties"]["colour"] = {"type": "string"}
    fields = message_fields(schema)
    assert unexplained_fields(fields, _protocol_text()) == [
        "request-legal.verbosity", "hand-outcome.payments[*].colour"]


def test_a_field_whose_row_is_missing_is_reported() -> None:
    fields = message_fields(_schema("adapter"))
    text = "\n".join(line for line in _protocol_text().splitlines()
                     if not re.match(r"\|\s*\|\s*`made`", line)
                     and not re.match(r"\|[^|]*\|\s*`made`", line))
    assert unexplained_fields(fields, text) == ["hand-outcome.made"]

