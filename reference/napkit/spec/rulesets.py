"""Rulesets (spec/rulesets/ID.json): inheritance, options, and resolving parameters.

A :class:`RulesetFile` is a file as written; a :class:`Ruleset` is one after ``extends`` has
been applied, with its options linked to the decisions register. ``Ruleset.resolve`` turns
its parameters into the plain values the engine reads, for one choice of every option.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from napkit.engine.rules import KeptParams
from napkit.errors import ChoiceError, SpecError, json_path
from napkit.spec.decisions import Register
from napkit.spec.loading import JSON, JSONObject
from napkit.spec.sources import Citation

# Beyond this many combinations, option_combinations varies one option at a time instead.
COMBINATION_CAP = 4096


@dataclass(frozen=True)
class Option:
    """A choice the players make before they play: a variation or a decision option."""

    name: str
    title: str
    rule: str
    choices: Mapping[str, str]
    default: str
    cite: tuple[Citation, ...]
    decision: str | None
    file: str  # the ruleset file that declares it (a parent's, when inherited)


@dataclass(frozen=True)
class RulesetFile:
    """A ruleset file as written, before ``extends`` is applied."""

    id: str
    title: str
    source: str
    section: str
    extends: str | None
    summary: str
    rules: Mapping[str, tuple[str, ...] | None]
    options: Mapping[str, JSONObject | None]
    params: Mapping[str, JSON]
    file: str  # as shown in messages
    path: Path
    # what players call the game (napkit rules search); each file its own, not inherited
    called: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruleset:
    """A ruleset with its inheritance applied: what is in force, its options and parameters."""

    id: str
    title: str
    source: str
    section: str
    extends: str | None
    summary: str
    file: str
    rules: Mapping[str, tuple[Citation, ...]]
    options: Mapping[str, Option]
    params: Mapping[str, JSON]
    raw: RulesetFile
    parent: Ruleset | None = None
    # Which file gives each rule entry and each top-level parameter (a parent's, if inherited).
    rule_files: Mapping[str, str] = field(default_factory=dict)
    param_files: Mapping[str, str] = field(default_factory=dict)

    def option_values(self, choices: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every option's value: the given choices, the defaults for the rest."""
        values = {name: option.default for name, option in self.options.items()}
        for name, choice in (choices or {}).items():
            option = self.options.get(name)
            if option is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise ChoiceError(self.file, name,
                                  f"{self.id} has no option {name!r} (its options: {known})")
            if choice not in option.choices:
                raise ChoiceError(self.file, name,
                                  f"option {name} has no choice {choice!r} "
                                  f"(choices: {', '.join(option.choices)})")
            values[name] = choice
        return values

    def resolve(self, choices: Mapping[str, str] | None = None) -> JSONObject:
        """The parameters with every switch replaced by its case and absent bids dropped."""
        values = self.option_values(choices)
        return {key: self._resolve_key(key, values) for key in self.params}

    def resolve_kept(self, values: Mapping[str, str]) -> KeptParams:
        """:meth:`resolve` of every option's value (``values``, as :meth:`option_values`
        gives them), each parameter's value kept and shared with every game of the same
        choices of the options it reads: read it, never change it. A fuzzer builds a game of
        new options at nearly every episode, but each parameter reads few options."""
        plan = _PLANS.get(id(self))
        if plan is None or plan[0] is not self:
            plan = (self, tuple((key, tuple(sorted(_read_by(key, value))))
                                for key, value in self.params.items()))
            if len(_PLANS) >= RESOLVED_KEPT:
                _PLANS.clear()
            _PLANS[id(self)] = plan
        kept = _RESOLVED
        resolved = KeptParams()
        for key, reads in plan[1]:
            # The ruleset is in the key by its id and kept with the value, as in _PLANS.
            ident = (id(self), key, tuple([values.get(name) for name in reads]))
            known = kept.get(ident)
            if known is not None and known[0] is self:
                resolved[key] = known[1]
                continue
            value = resolved[key] = self._resolve_key(key, values)
            if len(kept) >= RESOLVED_KEPT:
                kept.clear()
            kept[ident] = (self, value)
        return resolved

    def _resolve_key(self, key: str, values: Mapping[str, str]) -> JSON:
        value = self.params[key]
        where: list[str | int] = ["params", key]
        file = self.param_files.get(key, self.file)
        if key == "bids" and isinstance(value, list):
            return [_resolve(_without_condition(bid), values, file, [*where, i])
                    for i, bid in enumerate(value) if bid_present(bid, values)]
        return _resolve(value, values, file, where)

    def resolve_param(self, key: str, choices: Mapping[str, str] | None = None) -> JSON:
        """One parameter (not ``bids``), as :meth:`resolve` gives it, without resolving the
        rest: a fuzzer asks a table size of a new choice of options at every episode."""
        if key == "bids":
            raise ValueError("the bids are resolved with resolve(): some depend on options")
        return _resolve(self.params.get(key), self.option_values(choices),
                        self.param_files.get(key, self.file), ["params", key])

    def relevant_options(self) -> list[str]:
        """The options that parameters switch on or bids depend on (others change no value)."""
        found: set[str] = set()
        _switches(dict(self.params), found)
        return [name for name in self.options if name in found]

    def option_combinations(self, only_relevant: bool = False) -> Iterator[dict[str, str]]:
        """Every combination of option values (or of the relevant options, the rest default).

        Past :data:`COMBINATION_CAP` combinations, yields the defaults and then each single
        option varied through its choices with the others at their defaults.
        """
        names = self.relevant_options() if only_relevant else list(self.options)
        defaults = {name: option.default for name, option in self.options.items()}
        choice_lists = [list(self.options[name].choices) or [defaults[name]] for name in names]
        count = 1
        for choice_list in choice_lists:
            count *= len(choice_list)
        if count <= COMBINATION_CAP:
            for combo in itertools.product(*choice_lists):
                yield {**defaults, **dict(zip(names, combo, strict=True))}
            return
        yield dict(defaults)
        for name, choice_list in zip(names, choice_lists, strict=True):
            for choice in choice_list:
                if choice != defaults[name]:
                    yield {**defaults, name: choice}

    def decision_ids(self) -> list[str]:
        """Every decision this ruleset relies on, in id order."""
        found = {c.decision for cites in self.rules.values() for c in cites if c.decision}
        for option in self.options.values():
            found.update(c.decision for c in option.cite if c.decision)
        return sorted(found)


#: How many parameter values resolve_kept keeps (and rulesets it knows the reads of): each
#: store is emptied when full, so that a campaign's memory stays flat.
RESOLVED_KEPT = 4096

# resolve_kept's memos. By ruleset id: the ruleset, and each parameter with the options it
# reads. By (ruleset id, parameter, those options' values): the ruleset and the value.
# Fill-once and pure: threads may fill one at once, each with an equal value.
_PLANS: dict[int, tuple[Ruleset, tuple[tuple[str, tuple[str, ...]], ...]]] = {}
_RESOLVED: dict[tuple[int, str, tuple[str | None, ...]], tuple[Ruleset, JSON]] = {}


def _read_by(key: str, value: JSON) -> set[str]:
    """The options whose values the resolution of parameter ``key`` (``value``) reads: its
    switches', and the conditions of its bids (bid_present's reading, whatever their type)."""
    found: set[str] = set()
    _switches(value, found)
    if key == "bids" and isinstance(value, list):
        for bid in value:
            condition = bid.get("only_when") if isinstance(bid, dict) else None
            if isinstance(condition, dict):
                found.add(str(condition.get("option")))
    return found


def is_switch(value: JSON) -> bool:
    """``{"by_option": NAME, "cases": {...}}``."""
    return isinstance(value, dict) and "by_option" in value and isinstance(value.get("cases"), dict)


def _switches(value: JSON, found: set[str]) -> None:
    if isinstance(value, dict):
        if is_switch(value):
            found.add(str(value["by_option"]))
        condition = value.get("only_when")
        if isinstance(condition, dict) and isinstance(condition.get("option"), str):
            found.add(str(condition["option"]))
        for item in value.values():
            _switches(item, found)
    elif isinstance(value, list):
        for item in value:
            _switches(item, found)


def bid_present(bid: JSON, values: Mapping[str, str]) -> bool:
    """Whether a bid exists under these option values (its only_when holds, or it has none)."""
    if not isinstance(bid, dict):
        return True
    condition = bid.get("only_when")
    if not isinstance(condition, dict):
        return True
    wanted = condition.get("choices")
    return isinstance(wanted, list) and values.get(str(condition.get("option"))) in wanted


def _without_condition(bid: JSON) -> JSON:
    # Once applied, the condition is not part of the bid the engine reads.
    if isinstance(bid, dict):
        return {k: v for k, v in bid.items() if k != "only_when"}
    return bid


def _resolve(value: JSON, values: Mapping[str, str], file: str, where: list[str | int]) -> JSON:
    """``value`` with every switch replaced by its case under ``values``. Walked first without
    keeping the path (a new ruleset is resolved at every episode of a fuzzing run); where a
    switch has no case, walked again to say where."""
    try:
        return _chosen(value, values)
    except LookupError:
        return _resolve_at(value, values, file, where)


def _chosen(value: JSON, values: Mapping[str, str]) -> JSON:
    if isinstance(value, dict):
        cases = value.get("cases")
        if "by_option" in value and isinstance(cases, dict):  # a switch (is_switch)
            return _chosen(cases[values[str(value["by_option"])]], values)
        return {k: _chosen(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_chosen(v, values) for v in value]
    return value


def _resolve_at(value: JSON, values: Mapping[str, str], file: str,
                where: list[str | int]) -> JSON:
    if isinstance(value, dict):
        if is_switch(value):
            name = str(value["by_option"])
            cases = value["cases"]
            assert isinstance(cases, dict)
            if name not in values:
                raise SpecError(file, json_path([*where, "by_option"]),
                                f"switches on option {name!r}, which the ruleset does not have")
            chosen = values[name]
            if chosen not in cases:
                raise SpecError(file, json_path([*where, "cases"]),
                                f"has no case for {name} = {chosen!r}")
            return _resolve_at(cases[chosen], values, file, [*where, "cases", chosen])
        return {k: _resolve_at(v, values, file, [*where, k]) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve_at(v, values, file, [*where, i]) for i, v in enumerate(value)]
    return value


def ruleset_file_from_document(document: JSONObject, path: Path, shown: str) -> RulesetFile:
    """Build a :class:`RulesetFile` from a schema-valid ruleset document."""
    rules = document["rules"]
    options = document.get("options", {})
    params = document.get("params", {})
    called = document.get("called", [])
    assert isinstance(called, list)
    assert isinstance(rules, dict)
    assert isinstance(options, dict)
    assert isinstance(params, dict)
    extends = document.get("extends")
    return RulesetFile(
        id=str(document["id"]),
        title=str(document["title"]),
        source=str(document["source"]),
        section=str(document["section"]),
        extends=str(extends) if isinstance(extends, str) else None,
        summary=str(document["summary"]),
        rules={k: tuple(str(c) for c in v) if isinstance(v, list) else None
               for k, v in rules.items()},
        options={k: v if isinstance(v, dict) else None for k, v in options.items()},
        params=params,
        file=shown,
        path=path,
        called=tuple(str(c) for c in called),
    )


def build_ruleset(raw: RulesetFile, files: Mapping[str, RulesetFile],
                  register: Register) -> Ruleset:
    """Apply ``extends`` (parents looked up in ``files``) and link decision options.

    Raises :class:`SpecError` for a parent that is missing, of another source, or a cycle.
    """
    chain = [raw]
    seen = {raw.id}
    child = raw
    while child.extends is not None:
        parent = files.get(child.extends)
        if parent is None:
            message = f"extends {child.extends!r}, which is not a ruleset of the spec"
            raise SpecError(raw.file, "$.extends", _through(raw, child, message))
        if parent.source != child.source:
            message = (f"extends {parent.id}, a ruleset of another source ({parent.source}); "
                       "a ruleset extends only rulesets of its own source")
            raise SpecError(raw.file, "$.extends", _through(raw, child, message))
        if parent.id in seen:
            names = " -> ".join([*(c.id for c in chain), parent.id])
            raise SpecError(raw.file, "$.extends", f"extends in a circle: {names}")
        seen.add(parent.id)
        chain.append(parent)
        child = parent
    ruleset: Ruleset | None = None
    for layer in reversed(chain):
        ruleset = _layer(ruleset, layer, register)
    assert ruleset is not None
    return ruleset


def _through(raw: RulesetFile, child: RulesetFile, message: str) -> str:
    return message if child is raw else f"through {child.id}, which {message}"


def _layer(parent: Ruleset | None, raw: RulesetFile, register: Register) -> Ruleset:
    rules = dict(parent.rules) if parent else {}
    rule_files = dict(parent.rule_files) if parent else {}
    for rule_id, cites in raw.rules.items():
        if cites is None:
            rules.pop(rule_id, None)
            rule_files.pop(rule_id, None)
        else:
            rules[rule_id] = tuple(Citation.parse(c) for c in cites)
            rule_files[rule_id] = raw.file
    options = dict(parent.options) if parent else {}
    for name, spec in raw.options.items():
        if spec is None:
            options.pop(name, None)
        else:
            options[name] = _option(name, spec, raw.file, register)
    params = dict(parent.params) if parent else {}
    param_files = dict(parent.param_files) if parent else {}
    for key, value in raw.params.items():
        params[key] = value
        param_files[key] = raw.file
    return Ruleset(
        id=raw.id, title=raw.title, source=raw.source, section=raw.section,
        extends=raw.extends, summary=raw.summary, file=raw.file,
        rules=rules, options=options, params=params, raw=raw, parent=parent,
        rule_files=rule_files, param_files=param_files,
    )


def _option(name: str, spec: JSONObject, file: str, register: Register) -> Option:
    decision_id = spec.get("decision")
    if isinstance(decision_id, str):
        decision = register.get(decision_id)
        if decision is None:
            # Kept, empty, so that the checks can say what is wrong where.
            return Option(name, f"(decision {decision_id} is not in the register)", "", {}, "",
                          (Citation.parse(decision_id),), decision_id, file)
        return Option(name, decision.title, decision.rule, dict(decision.alternatives),
                      decision.default, (Citation.parse(decision_id),), decision_id, file)
    choices = spec["choices"]
    cite = spec["cite"]
    assert isinstance(choices, dict)
    assert isinstance(cite, list)
    return Option(name, str(spec["title"]), str(spec["rule"]),
                  {str(k): str(v) for k, v in choices.items()}, str(spec["default"]),
                  tuple(Citation.parse(str(c)) for c in cite), None, file)


# --- what a ruleset can offer -----------------------------------------------------------------
NEED = re.compile(r"^(!?)([a-z_]+(?:\[\*\])?(?:\.[a-z_]+)*)(?:(=|!=)([a-z0-9-]+))?$")


def possible_values(value: JSON, path: list[str]) -> Iterator[JSON]:
    """Every value the parameter at ``path`` can take under some choice of options: each case
    of a switch, each bid for ``bids[*]``; None where it is absent."""
    if isinstance(value, dict) and is_switch(value):
        cases = value["cases"]
        assert isinstance(cases, dict)
        for case in cases.values():
            yield from possible_values(case, path)
        return
    if not path:
        yield value
        return
    head, rest = path[0], path[1:]
    if head.endswith("[*]"):
        items = value.get(head[:-3]) if isinstance(value, dict) else None
        if isinstance(items, list):
            for item in items:
                yield from possible_values(item, rest)
        return
    yield from possible_values(value.get(head) if isinstance(value, dict) else None, rest)


def _word(value: JSON) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def can_meet(params: Mapping[str, JSON], need: str) -> bool:
    """Whether some choice of options gives ``params`` what ``need`` asks (a refusal's needs in
    the law book): ``PATH`` given and not null (a list not empty), ``!PATH`` absent or null,
    ``PATH=VALUE``, ``PATH!=VALUE`` (given, and another value)."""
    match = NEED.match(need)
    if match is None:
        raise ValueError(f"not a condition on params: {need!r}")
    negated, path, op, wanted = match.groups()
    values = list(possible_values(dict(params), path.split(".")))
    given = [v for v in values if v is not None and v != []]
    if negated:
        return len(given) < len(values) or not values
    if op is None:
        return bool(given)
    if op == "=":
        return any(_word(v) == wanted for v in given)
    return any(_word(v) != wanted for v in given)
