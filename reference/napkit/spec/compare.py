"""Where two rulesets differ, rule by rule in law-book order.

Each difference of resolved parameter values is attributed to the rule in force that reads
that parameter most specifically (``bids[*].win.each`` before ``bids[*].win``); rules in
force on one side only, and options offered differently, are differences too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from napkit.spec.lawbook import LawBook, Rule
from napkit.spec.loading import JSON, JSONObject
from napkit.spec.render import value_text
from napkit.spec.rulesets import Option, Ruleset

ABSENT = "not set"


@dataclass(frozen=True)
class Difference:
    """One difference, under the rule it concerns."""

    rule_id: str
    rule_title: str
    path: str  # "in force", "players", "bids[wellington].lead", "option doubling"
    a: str
    b: str
    cites_a: tuple[str, ...]
    cites_b: tuple[str, ...]


@dataclass(frozen=True)
class _Leaf:
    path: str  # shown: bids[nap].win.each
    generic: str  # as rules' params name it: bids[*].win.each
    a: str
    b: str


def compare(a: Ruleset, b: Ruleset, lawbook: LawBook,
            choices_a: Mapping[str, str] | None = None,
            choices_b: Mapping[str, str] | None = None) -> list[Difference]:
    """Every difference between ``a`` and ``b`` (resolved with the given or default options)."""
    found: list[tuple[str, Difference]] = []  # (rule id, difference), sorted below

    def add(rule_id: str, path: str, text_a: str, text_b: str) -> None:
        rule = lawbook.get(rule_id)
        title = rule.title if rule else "(no rule of the law book reads this)"
        found.append((rule_id, Difference(
            rule_id, title, path, text_a, text_b,
            tuple(c.text for c in a.rules.get(rule_id, ())),
            tuple(c.text for c in b.rules.get(rule_id, ())))))

    for rule in lawbook:
        in_a, in_b = rule.id in a.rules, rule.id in b.rules
        if in_a != in_b:
            add(rule.id, "in force", _in_force(in_a), _in_force(in_b))
    in_force = [rule for rule in lawbook if rule.id in a.rules or rule.id in b.rules]
    for leaf in _leaves(a.resolve(choices_a), b.resolve(choices_b)):
        for rule_id in _readers(leaf.generic, in_force, lawbook):
            add(rule_id, leaf.path, leaf.a, leaf.b)
    for name in [*a.options, *(n for n in b.options if n not in a.options)]:
        option_a, option_b = a.options.get(name), b.options.get(name)
        text_a, text_b = _option_text(option_a), _option_text(option_b)
        if text_a == text_b:
            continue
        rules = {o.rule for o in (option_a, option_b) if o is not None}
        for rule_id in sorted(rules, key=lawbook.order):
            add(rule_id, f"option {name}", text_a, text_b)
    # Stable sort: within a rule, "in force" first, then parameters, then options.
    found.sort(key=lambda item: lawbook.order(item[0]))
    return [difference for _, difference in found]


def _in_force(yes: bool) -> str:
    return "in force" if yes else "not in force"


def _option_text(option: Option | None) -> str:
    if option is None:
        return "not offered"
    choices = ", ".join(f"{c} (default)" if c == option.default else c for c in option.choices)
    source = f"; {option.decision}" if option.decision else ""
    return f"{choices}{source}"


def _same(x: JSON, y: JSON) -> bool:
    # json.dumps tells 1 from true, which == does not.
    return json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)


def _leaves(a: JSONObject, b: JSONObject) -> Iterator[_Leaf]:
    for key in [*a, *(k for k in b if k not in a)]:
        if key == "bids":
            yield from _bid_leaves(a.get(key), b.get(key))
        else:
            yield from _value_leaves(a.get(key, ABSENT), b.get(key, ABSENT), key, key)


def _value_leaves(x: JSON, y: JSON, path: str, generic: str) -> Iterator[_Leaf]:
    if _same(x, y):
        return
    if isinstance(x, dict) and isinstance(y, dict):
        for key in [*x, *(k for k in y if k not in x)]:
            yield from _value_leaves(x.get(key, ABSENT), y.get(key, ABSENT),
                                     f"{path}.{key}", f"{generic}.{key}")
        return
    yield _Leaf(path, generic, _text(generic, x), _text(generic, y))


def _text(generic: str, value: JSON) -> str:
    return ABSENT if value == ABSENT else value_text(generic, value)


def _by_id(bids: JSON) -> dict[str, JSONObject]:
    keyed: dict[str, JSONObject] = {}
    for bid in bids if isinstance(bids, list) else []:
        if isinstance(bid, dict):
            key = str(bid.get("id"))
            n = 2
            while key in keyed:  # a repeated id (the checks report it); keep both apart
                key = f"{bid.get('id')}#{n}"
                n += 1
            keyed[key] = bid
    return keyed


def _bid_leaves(x: JSON, y: JSON) -> Iterator[_Leaf]:
    bids_a, bids_b = _by_id(x), _by_id(y)
    for bid_id in [*bids_a, *(k for k in bids_b if k not in bids_a)]:
        bid_a, bid_b = bids_a.get(bid_id), bids_b.get(bid_id)
        if bid_a is None or bid_b is None:
            yield _Leaf(f"bids[{bid_id}]", "bids", _bid_text(bid_a), _bid_text(bid_b))
            continue
        for key in [*bid_a, *(k for k in bid_b if k not in bid_a)]:
            yield from _value_leaves(bid_a.get(key, ABSENT), bid_b.get(key, ABSENT),
                                     f"bids[{bid_id}].{key}", f"bids[*].{key}")


def _bid_text(bid: JSONObject | None) -> str:
    if bid is None:
        return "no such bid"
    return f"bid {bid.get('name', bid.get('id'))}"


# A bid's presence is what the rules that list the bids (or name them) read.
_BID_LIST_READERS = ("bids", "bids[*].id", "bids[*].name")


def _readers(generic: str, in_force: list[Rule], lawbook: LawBook) -> list[str]:
    """The rules that read ``generic`` most specifically: those in force, else any."""
    for rules in (in_force, list(lawbook)):
        best: list[str] = []
        best_score = -1
        for rule in rules:
            score = max((_specificity(entry, generic) for entry in rule.params), default=-1)
            if score > best_score:
                best, best_score = [rule.id], score
            elif score == best_score and score >= 0:
                best.append(rule.id)
        if best_score >= 0:
            return best
    return [""]


def _specificity(entry: str, generic: str) -> int:
    """How closely a params entry names ``generic``: -1 not at all, else longer is closer."""
    if generic == "bids":
        return len(entry) if entry in _BID_LIST_READERS else -1
    if entry == generic or generic.startswith(entry + "."):
        return len(entry)
    if entry.startswith(generic + "."):
        return 0  # the rule reads part of it
    return -1
