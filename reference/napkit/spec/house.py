"""House rulesets: a game of one's own, written as its differences from a built-in ruleset.

A house file (spec/README.md, "House rulesets"; ``spec/schemas/house-ruleset.schema.json``)
says ``"house": true``, names the built-in ruleset it ``extends``, and states only what
differs: parameters (its bids, stakes, auction, pack, players...) and the defaults or choices of
inherited options. It cites no source: its rules in force are its parent's, with their
citations, and the law book's rules for any parameter the parent's rules do not read.

:func:`load_house_ruleset` reads one into a :class:`HouseRuleset`, a
:class:`~napkit.spec.rulesets.Ruleset` that :class:`napkit.engine.game.Game` plays; every
problem is a :class:`~napkit.errors.SpecError` naming the file and the JSON path.
:func:`read_house_ruleset` returns every problem at once, as ``napkit rules check`` prints them.

>>> from napkit import paths
>>> from napkit.engine.game import Game
>>> from napkit.spec.house import load_house_ruleset
>>> house = load_house_ruleset(paths.spec_dir() / "examples" / "house-two-no-wellington.json")
>>> house.id, house.extends, [bid.id for bid in Game(house, 4).rules.bids]
('two-no-wellington', 'classic', ['two', 'three', 'four', 'nap'])
"""

from __future__ import annotations

import difflib
import json
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import cast

from napkit.engine.game import Game, compile_rules
from napkit.engine.match import new_match
from napkit.errors import RuleError, SpecError, SpecProblemsError, json_path
from napkit.players.playout import play_out
from napkit.spec.catalog import Spec, default_spec, load_ruleset_file
from napkit.spec.checks import check_ruleset, param_paths, reads
from napkit.spec.loading import JSON, JSONObject, read_document, schema_errors
from napkit.spec.rulesets import (
    Option,
    Ruleset,
    RulesetFile,
    bid_present,
    can_meet,
    is_switch,
)

__all__ = [
    "HOUSE_SCHEMA",
    "HouseRuleset",
    "is_house_document",
    "load_house_ruleset",
    "load_ruleset_path",
    "merge_params",
    "not_a_house_file_said",
    "read_house_ruleset",
]

#: The schema of house files: ``spec/schemas/house-ruleset.schema.json``.
HOUSE_SCHEMA = "house-ruleset"

# The seeds of the hands played to see that the engine plays the game (one hand per seed, for
# each number of players its default options allow, and a short match).
_TRIAL_SEEDS = (1, 2)

#: The most bids a house file may list (spec/formats.md, "House files: limits"): no game of
#: Nap has more than a dozen, and each bid is checked and played under the options.
MAX_BIDS = 100
#: The most entries a house file's ``options`` and ``params`` may have: each must be one of
#: its parent's (a ruleset has a handful), and each other is a problem with its suggestion.
MAX_ENTRIES = 100
#: The longest ``title`` and ``description`` a house file may have, in characters: they are
#: printed on the terminal and the rules sheet, where a name of pages is no name.
MAX_TITLE = 200
MAX_DESCRIPTION = 10_000


@dataclass(frozen=True)
class HouseRuleset(Ruleset):
    """A ruleset read from a house file: its parent's, with the file's changes applied.

    ``source`` is the parent's (the inherited rules keep their citations); ``description`` is
    the file's own words; ``changes`` says in words what the file changes, one line each.
    """

    description: str = ""
    changes: tuple[str, ...] = ()

    @property
    def house(self) -> bool:
        return True


def is_house_document(document: Mapping[str, object]) -> bool:
    """Whether a ruleset document is a house file (it has the key ``house``)."""
    return "house" in document


def load_house_ruleset(path: Path, shown: str | None = None,
                       spec: Spec | None = None, *, checked: bool = False) -> HouseRuleset:
    """The house ruleset in the file ``path``, ready for :class:`~napkit.engine.game.Game`.

    The file's bids, deal and stakes must be ones the law book's rules can be played by
    (:func:`playability_problems`: NAP-5.2.2 to NAP-5.2.5, NAP-4.2.1, NAP-2.2.2 and the rest).
    ``shown`` is how messages name the file (``path`` by default); ``spec`` the spec whose
    built-in rulesets a house file may extend (the one napkit ships with by default). Any
    problem raises :class:`~napkit.errors.SpecError` with a one-line message naming the file
    and the JSON path: the first problem, and how many more ``napkit rules check`` lists.
    """
    ruleset, problems = read_house_ruleset(path, shown, spec, checked=checked)
    if problems:
        raise _first(problems)
    assert ruleset is not None
    return ruleset


def read_house_ruleset(path: Path, shown: str | None = None, spec: Spec | None = None,
                       *, checked: bool = False,
                       ) -> tuple[HouseRuleset | None, list[SpecError]]:
    """The house ruleset in ``path`` (None if it could not be built) and every problem found:
    reading, the schema, the parent, the options, the merged parameters, the spec's checks of a
    ruleset (spec/README.md, "Checks"), and whether the engine can play it."""
    file = str(path) if shown is None else shown
    the_spec = default_spec() if spec is None else spec
    try:
        document = read_document(path, file)
    except SpecError as exc:
        return None, [exc]
    return house_from_document(document, path, file, the_spec, checked=checked)


def load_ruleset_path(path: Path, shown: str | None = None, spec: Spec | None = None,
                      *, checked: bool = False) -> Ruleset:
    """A ruleset file of one's own, either kind: a house file (:func:`load_house_ruleset`) or a
    ruleset in the form of the spec's own (:func:`napkit.spec.catalog.load_ruleset_file`,
    which reads it as the schema and ``extends`` allow; its id may be a built-in's). Any
    problem raises :class:`~napkit.errors.SpecError`, with a one-line message. ``checked``: the
    same bytes passed every check under this spec before (napkit.conform.suite.games keeps a
    suite only for such a file), so the checks of a ruleset and the trial games are not run
    again; the reading, the schema and the merge still are."""
    file = str(path) if shown is None else shown
    the_spec = default_spec() if spec is None else spec
    document = read_document(path, file)
    if is_house_document(document):
        return load_house_ruleset(path, file, the_spec, checked=checked)
    unsaid = not_a_house_file_said(document, file)
    if unsaid is not None:
        raise unsaid
    try:
        return load_ruleset_file(path, file, the_spec)
    except SpecProblemsError as exc:
        raise _first(list(exc.errors)) from None


def _first(problems: list[SpecError]) -> SpecError:
    """The first problem, saying how many more there are."""
    first, more = problems[0], len(problems) - 1
    tail = (f" (and {more} more problem{'s' if more != 1 else ''}: 'napkit rules check "
            f"{first.file}' lists them)") if more else ""
    return SpecError(first.file, first.path, first.message + tail)


# --- reading a house file ----------------------------------------------------------------------


def house_from_document(document: JSONObject, path: Path, file: str, spec: Spec,
                        *, checked: bool = False,
                        ) -> tuple[HouseRuleset | None, list[SpecError]]:
    """:func:`read_house_ruleset` for a document already parsed (``checked``: without the
    checks of a ruleset and the trial games, which the same bytes passed before)."""
    if not is_house_document(document):
        return None, [SpecError(file, "$.house", _not_house(document))]
    problems = _beyond_limits(document, file)
    if problems:
        return None, problems
    problems = _unknown_keys(document, file, spec)
    if problems:  # each said once, with what was meant, not again by the schema
        known = _house_keys(spec)
        document = {k: v for k, v in document.items() if k in known}
    problems += _unknown_params(document, file, spec)
    if problems and isinstance(document.get("params"), dict):
        params = document.get("params")
        assert isinstance(params, dict)
        document = {**document, "params": {k: v for k, v in params.items()
                                           if k in _param_names(spec)}}
    problems += schema_errors(document, spec.schema(HOUSE_SCHEMA), file)
    if problems:
        return None, problems
    house_id, parent_id = str(document["id"]), str(document["extends"])
    parent = spec.rulesets.get(parent_id)
    if house_id in spec.rulesets:
        problems.append(SpecError(file, "$.id", f"{house_id!r} is the id of a built-in "
                                                "ruleset; a house game needs an id of its own"))
    if parent is None:
        problems.append(SpecError(file, "$.extends", f"{parent_id!r} is not a built-in ruleset"
                                  f"{_suggest(parent_id, spec.rulesets)}; the built-in rulesets "
                                  f"are {', '.join(sorted(spec.rulesets))}"))
        return None, problems
    raw_options = document.get("options", {})
    assert isinstance(raw_options, dict)
    options, option_problems = _house_options(parent, raw_options, file)
    problems += option_problems
    raw_params = document.get("params", {})
    assert isinstance(raw_params, dict)
    params = {**parent.params}
    for key, value in raw_params.items():
        params[key] = merge_params(parent.params[key], value) if key in parent.params else value
    problems += _merged_errors(document, parent, params, spec, file)
    if problems:
        return None, problems
    changed = {name for name in raw_options}
    params = {key: _prune(value, options, changed) for key, value in params.items()}
    description = document.get("description")
    ruleset = _house_ruleset(document, path, file, parent, options, params, raw_params, spec,
                             description if isinstance(description, str) else "")
    if checked:
        return ruleset, []
    problems = [_inherited(problem, raw_params, parent) for problem in
                check_ruleset(ruleset, spec) + playability_problems(ruleset)]
    if not problems:
        problems = trial_problems(ruleset)
    return ruleset, problems


def _beyond_limits(document: JSONObject, file: str) -> list[SpecError]:
    """A house file longer than any game needs: refused before it is checked, whose time
    grows with its bids and the problems of its entries (spec/formats.md, "House files:
    limits")."""
    problems = []
    params = document.get("params")
    bids = params.get("bids") if isinstance(params, dict) else None
    if isinstance(bids, list) and len(bids) > MAX_BIDS:
        problems.append(SpecError(file, "$.params.bids", f"{len(bids):,} bids: a house game has "
                                                         f"at most {MAX_BIDS}"))
    for key, what in (("options", "options changed"), ("params", "parameters")):
        entries = document.get(key)
        if isinstance(entries, dict) and len(entries) > MAX_ENTRIES:
            problems.append(SpecError(file, f"$.{key}", f"{len(entries):,} {what}: a house "
                                                        f"file has at most {MAX_ENTRIES}"))
    for key, most in (("title", MAX_TITLE), ("description", MAX_DESCRIPTION)):
        text = document.get(key)
        if isinstance(text, str) and len(text) > most:
            problems.append(SpecError(file, f"$.{key}", f"{len(text):,} characters: a house "
                                                        f"game's {key} has at most {most:,}"))
    return problems


_PATH_PART = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]')


def _inherited(problem: SpecError, written: JSONObject, parent: Ruleset) -> SpecError:
    """A problem at a value the house file does not write says so: it is the parent's, and
    the file changes it under params or through the option that chooses it."""
    parts = [m.group(1) or m.group(3) or int(m.group(2))
             for m in _PATH_PART.finditer(problem.path)]
    if problem.path.startswith("$.params.") and "inherited" not in problem.message:
        node: JSON = written
        for part in parts[1:]:
            if isinstance(node, list):
                break  # a list is the house file's whole
            if not isinstance(node, dict) or not isinstance(part, str) or part not in node:
                return SpecError(problem.file, problem.path,
                                 f"{problem.message}; the value is {parent.id}'s, which the "
                                 "house file changes under params or by an option")
            node = node[part]
    return problem


def _not_house(document: JSONObject) -> str:
    if "source" in document or "rules" in document:
        return ('has no "house": true; this is a ruleset of a source (it has a source and '
                "rules), which napkit rules check reads as such")
    return ('has no "house": true; a house ruleset says it is one (spec/README.md, '
            '"House rulesets")')


@cache
def _param_names_at(schema_file: Path) -> tuple[str, ...]:
    schema = read_document(schema_file, schema_file.name)
    properties = schema["properties"]
    assert isinstance(properties, dict)
    params = properties["params"]
    assert isinstance(params, dict)
    names = params["propertyNames"]
    assert isinstance(names, dict)
    enum = names["enum"]
    assert isinstance(enum, list)
    return tuple(str(name) for name in enum)


def _param_names(spec: Spec) -> tuple[str, ...]:
    """The names of the parameters (the house schema lists those of ruleset.schema.json)."""
    return _param_names_at(spec.schema(HOUSE_SCHEMA))


def _unknown_params(document: JSONObject, file: str, spec: Spec) -> list[SpecError]:
    params = document.get("params")
    if not isinstance(params, dict):
        return []
    names = _param_names(spec)
    return [SpecError(file, json_path(["params", key]),
                      f"there is no parameter {key!r}{_suggest(key, names)}; the parameters "
                      f"are {', '.join(names)}")
            for key in params if key not in names]


#: Words a house file's writer may use for its keys, and the key each means (what
#: difflib's closeness does not find).
_MEANT = {"summary": "description", "about": "description", "notes": "description",
          "name": "title", "base": "extends", "parent": "extends", "from": "extends",
          "inherits": "extends", "parameters": "params", "settings": "params"}


def _house_keys(spec: Spec) -> tuple[str, ...]:
    return _house_keys_at(spec.schema(HOUSE_SCHEMA))


@cache
def _house_keys_at(schema_file: Path) -> tuple[str, ...]:
    properties = read_document(schema_file, schema_file.name)["properties"]
    assert isinstance(properties, dict)
    return tuple(properties)


def _unknown_keys(document: JSONObject, file: str, spec: Spec) -> list[SpecError]:
    """A key a house file may not have, each with the key it probably meant (was: one
    schema error naming them all, with no suggestion)."""
    known = _house_keys(spec)
    problems = []
    for key in document:
        if key in known:
            continue
        meant = _MEANT.get(key.lower())
        hint = f" (did you mean {meant}?)" if meant in known else _suggest(key, known)
        problems.append(SpecError(file, json_path([key]),
                                  f"a house file has no key {key!r}{hint}; its keys are "
                                  f"{', '.join(known)}"))
    return problems


def not_a_house_file_said(document: JSONObject, file: str) -> SpecError | None:
    """Where a ruleset file has no ``house`` key and none of a source's ruleset either
    (``source``, ``section``, ``rules``): it is most likely a house game that does not say so,
    and one problem says that, in place of the schema's three about a source."""
    if "house" in document or any(key in document for key in ("source", "section", "rules")):
        return None
    return SpecError(file, "$", 'no "source", "section" or "rules": a ruleset of a source '
                               "cites them; a game of your own is a house file, which says "
                               '"house": true (spec/README.md, "House rulesets")')


def _suggest(wrong: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(wrong, list(known), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


# --- options -----------------------------------------------------------------------------------


def _house_options(parent: Ruleset, changes: JSONObject, file: str,
                   ) -> tuple[dict[str, Option], list[SpecError]]:
    """The parent's options with the file's changes: a default, fewer choices, or both."""
    options = dict(parent.options)
    problems: list[SpecError] = []
    for name, change in changes.items():
        where: list[str | int] = ["options", name]
        option = options.get(name)
        if option is None:
            known = ", ".join(parent.options) or "none"
            problems.append(SpecError(file, json_path(where),
                                      f"{parent.id} has no option {name!r}"
                                      f"{_suggest(name, parent.options)} (its options: {known})"))
            continue
        assert isinstance(change, dict)
        offered = ", ".join(option.choices)
        wanted = change.get("choices")
        kept = list(option.choices)
        if isinstance(wanted, list):
            unknown = [(i, str(c)) for i, c in enumerate(wanted) if c not in option.choices]
            for i, choice in unknown:
                problems.append(SpecError(file, json_path([*where, "choices", i]),
                                          f"option {name} has no choice {choice!r} "
                                          f"(choices: {offered})"))
            if unknown:
                continue
            kept = [c for c in option.choices if c in wanted]
        default = change.get("default")
        if isinstance(default, str) and default not in kept:
            among = "of the choices kept" if isinstance(wanted, list) else "a choice"
            problems.append(SpecError(file, json_path([*where, "default"]),
                                      f"option {name}: the default {default!r} is not {among} "
                                      f"({', '.join(kept)})"))
            continue
        if not isinstance(default, str):
            default = option.default if option.default in kept else kept[0]
        options[name] = replace(option, choices={c: option.choices[c] for c in kept},
                                default=default, file=file)
    return options, problems


def _prune(value: JSON, options: Mapping[str, Option], changed: set[str]) -> JSON:
    """``value`` without the cases of switches, and the conditions of bids, for choices that
    the house file no longer offers (a bid whose every choice is gone never exists)."""
    if isinstance(value, list):
        return [_prune(item, options, changed) for item in value]
    if not isinstance(value, dict):
        return value
    if is_switch(value) and str(value["by_option"]) in changed:
        cases = value["cases"]
        assert isinstance(cases, dict)
        offered = options[str(value["by_option"])].choices
        return {"by_option": value["by_option"],
                "cases": {c: _prune(v, options, changed) for c, v in cases.items()
                          if c in offered}}
    out = {k: _prune(v, options, changed) for k, v in value.items()}
    condition = value.get("only_when")
    if isinstance(condition, dict) and str(condition.get("option")) in changed:
        wanted = condition.get("choices")
        offered = options[str(condition["option"])].choices
        out["only_when"] = {**condition, "choices": [c for c in wanted if c in offered]
                            if isinstance(wanted, list) else []}
    return out


# --- parameters --------------------------------------------------------------------------------


def merge_params(parent: JSON, house: JSON) -> JSON:
    """A house file's value of a parameter merged into its parent's.

    Two objects merge key by key, at every depth; anything else (a list such as the bids, a
    number, a string, null, or a by-option switch on either side) is the house file's value.

    >>> from napkit.spec.house import merge_params
    >>> merge_params({"usual": "shuffle", "after_throw_in": "shuffle"}, {"usual": "gather-and-cut"})
    {'usual': 'gather-and-cut', 'after_throw_in': 'shuffle'}
    >>> merge_params([{"id": "three"}, {"id": "nap"}], [{"id": "nap"}])
    [{'id': 'nap'}]
    """
    if (isinstance(parent, dict) and isinstance(house, dict)
            and not is_switch(parent) and not is_switch(house)):
        merged = dict(parent)
        for key, value in house.items():
            merged[key] = merge_params(parent[key], value) if key in parent else value
        return merged
    return house


def _merged_errors(document: JSONObject, parent: Ruleset, params: JSONObject, spec: Spec,
                   file: str) -> list[SpecError]:
    """The merged parameters checked by ruleset.schema.json, as a ruleset of the parent's
    source would be; each problem at its path in the house file."""
    whole: JSONObject = {"id": document["id"], "title": document["title"],
                         "source": parent.source, "section": "house", "summary": "house",
                         "rules": {}, "params": params}
    return [error for error in schema_errors(whole, spec.schema("ruleset"), file)
            if error.path.startswith("$.params")]


def _house_ruleset(document: JSONObject, path: Path, file: str, parent: Ruleset,
                   options: dict[str, Option], params: JSONObject, raw_params: JSONObject,
                   spec: Spec, description: str) -> HouseRuleset:
    house_id, title = str(document["id"]), str(document["title"])
    # An inherited rule whose needs no choice of the options meets is not in force here (the
    # chip settlement, NAP-9.1 and 9.2, on a score sheet in points: NAP-9.6.1).
    rules = {rule_id: cited for rule_id, cited in parent.rules.items()
             if _may_be_in_force(spec, rule_id, params)}
    rule_files = {rule_id: f for rule_id, f in parent.rule_files.items() if rule_id in rules}
    for rule_id in _rules_for_new_params(parent, params, spec):
        rules[rule_id] = ()
        rule_files[rule_id] = file
    param_files = dict(parent.param_files)
    param_files.update({key: file for key in raw_params})
    raw_options = document.get("options", {})
    assert isinstance(raw_options, dict)
    summary = description or f"A house game: {parent.title} ({parent.id}), changed as it says."
    raw = RulesetFile(id=house_id, title=title, source=parent.source, section="a house game",
                      extends=parent.id, summary=summary, rules={}, options={},
                      params={key: params[key] for key in raw_params}, file=file, path=path)
    return HouseRuleset(
        id=house_id, title=title, source=parent.source, section="a house game",
        extends=parent.id, summary=summary, file=file, rules=rules, options=options,
        params=params, raw=raw, parent=parent, rule_files=rule_files, param_files=param_files,
        description=description,
        changes=tuple(describe_changes(parent, raw_params, raw_options)))


def _may_be_in_force(spec: Spec, rule_id: str, params: JSONObject) -> bool:
    """Whether some choice of the options meets every need of the rule (its ``needs`` in the
    law book); a rule the law book does not hold is kept as it is."""
    rule = spec.lawbook.get(rule_id)
    return rule is None or all(can_meet(params, need) for need in rule.needs)


def _rules_for_new_params(parent: Ruleset, params: JSONObject, spec: Spec) -> list[str]:
    """The law-book rules that read a parameter the parent's rules do not read (the rules of a
    widow, say, that a house game adds to a game without one): in force in the house game.

    A rule that names a whole family (NAP-5.1.2's ``auction``) reads the fields the parent
    gives it, but not a field new to the parent that another rule names for itself (NAP-5.3.3's
    ``auction.dealer_must_bid``): that rule comes into force."""
    entries = [entry for rule_id in parent.rules
               if (rule := spec.lawbook.get(rule_id)) is not None for entry in rule.params]
    own = {entry for rule in spec.lawbook for entry in rule.params}
    given = param_paths(parent.params)

    def read(entry: str, path: str) -> bool:
        if path in given or path not in own:
            return reads(entry, path)
        return entry == path or entry.startswith(path + ".")

    unread = [p for p in param_paths(params) if not any(read(e, p) for e in entries)]
    return [rule.id for rule in spec.lawbook if rule.id not in parent.rules
            and any(reads(entry, p) for entry in rule.params for p in unread)]


# --- what a house file changes, in words -------------------------------------------------------


def describe_changes(parent: Ruleset, params: JSONObject, options: JSONObject) -> list[str]:
    """One line per change the house file makes to its parent: each bid added, dropped or
    changed, each other parameter's new value, each option's new choices or default."""
    lines: list[str] = []
    for key, value in params.items():
        if key == "bids" and isinstance(value, list):
            lines += _bid_changes(parent.params.get("bids"), value)
        elif key not in parent.params:  # a parameter the parent leaves out (scoring): not "null"
            lines += _value_changes(key, {}, value) if isinstance(value, dict) and not is_switch(
                value) else [f"{key}: {_text(value)} (was not given)"]
        else:
            lines += _value_changes(key, parent.params.get(key), value)
    for name, change in options.items():
        option = parent.options.get(name)
        if option is None or not isinstance(change, dict):
            continue
        parts = []
        wanted = change.get("choices")
        if isinstance(wanted, list):
            kept = [c for c in option.choices if c in wanted]
            dropped = [c for c in option.choices if c not in wanted]
            if dropped:
                parts.append(f"offers only {', '.join(kept)} (drops {', '.join(dropped)})")
        default = change.get("default")
        if isinstance(default, str) and default != option.default:
            parts.append(f"default {default} (was {option.default})")
        elif isinstance(wanted, list) and option.default not in wanted:
            first = next(c for c in option.choices if c in wanted)
            parts.append(f"default {first} (was {option.default})")
        lines.append(f"option {name}: {'; '.join(parts) or 'as in ' + parent.id}")
    return lines


def _bid_changes(before: JSON, after: list[JSON]) -> list[str]:
    old = {str(b.get("id")): b for b in before if isinstance(b, dict)} if isinstance(
        before, list) else {}
    new = {str(b.get("id")): b for b in after if isinstance(b, dict)}
    lines = []
    for bid_id, bid in new.items():
        if bid_id not in old:
            lines.append(f"bids: adds {bid_id} ({_bid_words(bid)})")
        elif old[bid_id] != bid:
            fields = [f for f in dict.fromkeys([*old[bid_id], *bid])
                      if old[bid_id].get(f) != bid.get(f)]
            lines.append(f"bids: changes {bid_id} ({', '.join(fields)})")
    lines += [f"bids: drops {bid_id}" for bid_id in old if bid_id not in new]
    if [i for i in old if i in new] != [i for i in new if i in old]:
        lines.append(f"bids: ranks them {', '.join(new)}")
    return lines


def _bid_words(bid: JSONObject) -> str:
    what = "misère" if bid.get("misere") is True else f"{bid.get('tricks')} tricks"
    win, lose = bid.get("win"), bid.get("lose")
    wins = win.get("each") if isinstance(win, dict) else None
    pays = lose.get("each") if isinstance(lose, dict) else None
    money = ", ".join(part for part in (f"wins {_text(wins)}" if wins is not None else "",
                                        f"pays {_text(pays)}" if pays is not None else "")
                      if part)
    return f"{what}, {money} a player" if money else what


def _value_changes(path: str, before: JSON, after: JSON) -> list[str]:
    if (isinstance(before, dict) and isinstance(after, dict)
            and not is_switch(before) and not is_switch(after)):
        lines = []
        for key, value in after.items():
            if key not in before:  # a field the parent leaves to its default: not "null"
                lines.append(f"{path}.{key}: {_text(value)} (was not given)")
                continue
            lines += _value_changes(f"{path}.{key}", before[key], value)
        return lines
    if before == after:
        return []
    return [f"{path}: {_text(after)} (was {_text(before)})"]


def _text(value: JSON) -> str:
    if is_switch(value):
        assert isinstance(value, dict)
        return f"by option {value['by_option']}"
    if isinstance(value, str):
        return value
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 60 else text[:59] + "…"


# --- can the engine play it? -------------------------------------------------------------------


def playability_problems(ruleset: Ruleset) -> list[SpecError]:
    """What the schema and the spec's checks let through but no hand can be played by, under
    every combination of the options that change a value, each refused with the rule it
    breaks: a bid of no tricks that is no misère, or a misère that names tricks (NAP-5.2.3); a
    bid with or without the widow in a game without one (NAP-5.2.4); a look at or an exchange
    with a widow the game does not have (NAP-6.1.1, NAP-6.3.1); a bid that wins or pays into a
    pool the game does not have (NAP-9.1.2, NAP-9.2.2); packets that do not deal five cards
    (NAP-4.2.1); a match stock of no chips (NAP-10.1.2); and anything the engine cannot compile.

    (The engine enforces these rules in play; this says, before play, that a house file would
    break them. The spec's own rulesets pass it: tests/test_house_rulesets.py.)
    """
    found: dict[tuple[str, str], str] = {}
    defaults = {name: option.default for name, option in ruleset.options.items()}
    raw_bids = ruleset.params.get("bids")
    bid_list = raw_bids if isinstance(raw_bids, list) else []
    # Each value is checked once, not under each of up to hundreds of combinations (which made
    # a house file of thousands of bids take minutes): resolve_kept shares a value between the
    # combinations of options it does not read, so the same object is the same check. The
    # bids (with the widow and pool they are checked against) by identity; and a combination
    # is compiled only if it holds a parameter's value not yet compiled without fault, each
    # field of the engine's rules being compiled from one parameter alone (compile_rules).
    # The values are kept here, so that no other takes their ids.
    positions_of: dict[int, tuple[JSON, list[int]]] = {}
    checked: dict[tuple[int, int, int], tuple[JSON, JSON, JSON]] = {}
    compiled: dict[tuple[str, int], JSON] = {}
    for values in ruleset.option_combinations(only_relevant=True):
        try:
            # resolve's JSON, shared: read here, never changed.
            resolved = cast(JSONObject, ruleset.resolve_kept(values))
        except SpecError:
            continue  # a switch without its case: the spec's checks report it
        bids, widow, pool = resolved.get("bids"), resolved.get("widow"), resolved.get("pool")
        if id(bids) not in positions_of:  # the bids present: those of these very bids
            positions_of[id(bids)] = (bids, [i for i, bid in enumerate(bid_list)
                                             if bid_present(bid, values)])
        positions = positions_of[id(bids)][1]
        problems = []
        if (id(bids), id(widow), id(pool)) not in checked:
            checked[id(bids), id(widow), id(pool)] = (bids, widow, pool)
            problems += _bid_problems(resolved, positions)
        problems += _deal_problems(resolved)
        pieces = {(key, id(value)): value for key, value in resolved.items()}
        if not pieces.keys() <= compiled.keys():
            try:
                compile_rules(resolved, ruleset.file)
            except SpecError as exc:
                problems.append((_params_path(exc.path, positions), exc.message))
            else:
                compiled.update(pieces)
        combination = _combination(values, defaults)
        for problem in problems:
            found.setdefault(problem, combination)
    return [SpecError(ruleset.file, path, f"{message} {combination}")
            for (path, message), combination in found.items()]


def _bid_problems(resolved: JSONObject, positions: list[int]) -> list[tuple[str, str]]:
    bids = resolved.get("bids")
    problems: list[tuple[str, str]] = []
    for n, bid in enumerate(bids if isinstance(bids, list) else []):
        if not isinstance(bid, dict):
            continue
        here: list[str | int] = ["params", "bids", positions[n]]
        name, tricks = bid.get("id"), bid.get("tricks")
        if bid.get("misere") is True and tricks != 0:
            problems.append((json_path([*here, "tricks"]),
                             f"bid {name} is a misère, which undertakes to win no trick: its "
                             f"tricks must be 0, not {tricks} (NAP-5.2.3)"))
        elif bid.get("misere") is not True and tricks == 0:
            problems.append((json_path([*here, "tricks"]),
                             f"bid {name} undertakes no trick and is not a misère: a bid names "
                             'one to five tricks, or says "misere": true (NAP-5.2.3)'))
        if "widow" in bid and resolved.get("widow") is None:
            problems.append((json_path([*here, "widow"]),
                             f"bid {name} is made {bid['widow']} the widow, but the game has no "
                             "widow (params.widow is null) (NAP-5.2.4)"))
        if resolved.get("pool") is None:
            win, lose = bid.get("win"), bid.get("lose")
            uses = [f"win.{k}" for k in ("pool",) if isinstance(win, dict) and win.get(k)]
            uses += [f"lose.{k}" for k in ("pool_per_player", "double_pool")
                     if isinstance(lose, dict) and lose.get(k)]
            if uses:
                problems.append((json_path([*here, *uses[0].split(".")]),
                                 f"bid {name} takes from or pays into the pool ({uses[0]}), but "
                                 "the game has no pool (params.pool is null) (NAP-9.1.2, "
                                 "NAP-9.2.2)"))
    return problems


def _deal_problems(resolved: JSONObject) -> list[tuple[str, str]]:
    problems = []
    packets = resolved.get("packets")
    if isinstance(packets, list) and all(isinstance(p, int) for p in packets):
        dealt = sum(p for p in packets if isinstance(p, int))
        if dealt != 5:
            problems.append(("$.params.packets", f"the packets deal {dealt} cards to each "
                                                 "player; they must deal five (NAP-4.2.1)"))
    if resolved.get("widow") is None:
        for key, rule in (("peek", "NAP-6.1.1"), ("exchange", "NAP-6.3.1")):
            if resolved.get(key) is not None:
                what = "looks at" if key == "peek" else "exchanges with"
                problems.append((f"$.params.{key}", f"the game {what} the widow, but has no "
                                                    f"widow (params.widow is null) ({rule})"))
    match = resolved.get("match")
    bankroll = match.get("bankroll") if isinstance(match, dict) else None
    start = bankroll.get("start") if isinstance(bankroll, dict) else None
    if isinstance(start, int) and start < 1:
        problems.append(("$.params.match.bankroll.start",
                         "every player must start with at least one chip, not "
                         f"{start} (NAP-10.1.2)"))
    return problems


def _params_path(path: str, positions: list[int]) -> str:
    """A path of the engine's reader (``$.bids[1].win``, in the resolved bids) as a path of
    the ruleset file (``$.params.bids[3].win``)."""
    rest = path.removeprefix("$")
    if rest.startswith(".bids[") and "]" in rest:
        index, _, tail = rest.removeprefix(".bids[").partition("]")
        if index.isdigit() and int(index) < len(positions):
            rest = f".bids[{positions[int(index)]}]{tail}"
    return f"$.params{rest}"


def _combination(values: Mapping[str, str], defaults: Mapping[str, str]) -> str:
    changed = [f"{k}={v}" for k, v in values.items() if defaults.get(k) != v]
    return "(with the default options)" if not changed else f"(with {', '.join(changed)})"


def trial_problems(ruleset: Ruleset) -> list[SpecError]:
    """Hands (and a short match) played by random players, with the default options, at every
    table size they allow: whatever stops the engine is a problem of the file, in one line."""
    try:
        players = compile_rules(ruleset.resolve(), ruleset.file).players
    except (SpecError, RuleError) as exc:
        return [SpecError(ruleset.file, "$.params", f"the engine cannot read it: {exc}")]
    for n in players:
        for seed in _TRIAL_SEEDS:
            try:
                game = Game(ruleset, n)
                hand = play_out(game.new_hand(dealer=0), random.Random(seed))
                match = play_out(new_match(game, hands=2), random.Random(seed))
            except (RuleError, SpecError) as exc:
                return [SpecError(ruleset.file, "$.params",
                                  f"the engine cannot play it with {n} players: {exc}")]
            except Exception as exc:  # an engine failure: one line, never a traceback
                return [SpecError(ruleset.file, "$.params",
                                  f"the engine failed playing it with {n} players "
                                  f"({type(exc).__name__}: {exc}); please report this")]
            if not hand.is_over() or not match.is_over():
                return [SpecError(ruleset.file, "$.params",
                                  f"a hand with {n} players did not come to an end")]
    return []
