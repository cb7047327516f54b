"""The shortcuts napkit fuzz's illegal tries take give the answers the long way gives.

- which breaches a game allows (breaches.possible_breaches), kept by the identity of the
  values its needs read: the answer can_meet gives each need afresh, for many choices of the
  options of every ruleset; parameters a caller may change are read afresh; the stores stay
  bounded.
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any, cast

import pytest
from napkit.conform import breaches
from napkit.conform.breaches import Breach, possible_breaches
from napkit.engine.game import Game
from napkit.engine.rules import compile_rules
from napkit.spec.catalog import default_spec
from napkit.spec.loading import JSONObject
from napkit.spec.rulesets import Ruleset, can_meet


def combinations(ruleset: Ruleset, most: int) -> list[dict[str, str]]:
    """Choices of the ruleset's options: all of them, or ``most`` drawn (seeded)."""
    names = list(ruleset.options)
    every = [dict(zip(names, combo, strict=True)) for combo in
             itertools.product(*(list(ruleset.options[n].choices) for n in names))]
    return every if len(every) <= most else random.Random(ruleset.id).sample(every, most)


def read_afresh(ruleset: Ruleset, params: JSONObject) -> tuple[Breach, ...]:
    """The long way: each breach whose rule is in force, each of its needs asked of params."""
    table = breaches._spec_tables()[0]
    return tuple(b for b, rule, needs in table if rule in ruleset.rules
                 and all(can_meet(params, need) for need in needs))


@pytest.fixture
def empty_stores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(breaches, "_KEPT", {})
    monkeypatch.setattr(breaches, "_MET", {})


@pytest.mark.usefixtures("empty_stores")
@pytest.mark.parametrize("ruleset_id", sorted(default_spec().rulesets))
def test_the_breaches_kept_are_those_read_afresh(ruleset_id: str) -> None:
    # Games one after another, as a fuzzer makes them: most find their answer kept from
    # another choice of options, or the answers of their needs.
    ruleset = default_spec().rulesets[ruleset_id]
    for choices in combinations(ruleset, 120):
        fresh = ruleset.resolve(ruleset.option_values(choices))
        game = Game(ruleset, min(compile_rules(fresh).players), choices)
        assert possible_breaches(game) == read_afresh(ruleset, fresh), choices
    assert breaches._KEPT and breaches._MET


@pytest.mark.usefixtures("empty_stores")
def test_parameters_a_caller_may_change_are_read_afresh() -> None:
    ruleset = default_spec().rulesets["peep"]
    params: dict[str, Any] = copy.deepcopy(dict(ruleset.resolve(ruleset.option_values())))
    assert "look" in [b.name for b in breaches._possible(ruleset, params)]
    params["peek"] = None
    assert "look" not in [b.name for b in breaches._possible(ruleset, params)]
    assert not breaches._KEPT and not breaches._MET


@pytest.mark.usefixtures("empty_stores")
def test_the_stores_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(breaches, "POSSIBLE_KEPT", 3)
    ruleset = default_spec().rulesets["pagat-purchase"]
    for choices in combinations(ruleset, 40):
        values = ruleset.option_values(choices)
        params = cast(JSONObject, ruleset.resolve_kept(values))
        assert breaches._possible(ruleset, params) == read_afresh(ruleset, params)
        assert len(breaches._KEPT) <= 3 and len(breaches._MET) <= 3
