"""A game's parameters resolved once per choice of the options they read, and its rules
compiled once per value (Ruleset.resolve_kept, KeptParams): the same parameters and rules as
resolve and compile_rules give afresh, in bounded memory, and nothing kept of a value that
fails or of parameters a caller may change."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
from typing import Any

import pytest
from napkit.engine import rules as rules_module
from napkit.engine.game import Game, clear_memos
from napkit.engine.rules import KeptParams, Rules, compile_rules
from napkit.errors import SpecError
from napkit.spec import rulesets as rulesets_module
from napkit.spec.catalog import default_spec


def combinations(ruleset_id: str, most: int = 150) -> list[dict[str, str]]:
    """Choices of the ruleset's options: all of them, or ``most`` drawn (seeded)."""
    ruleset = default_spec().rulesets[ruleset_id]
    names = list(ruleset.options)
    every = [dict(zip(names, combo, strict=True)) for combo in
             itertools.product(*(list(ruleset.options[n].choices) for n in names))]
    return every if len(every) <= most else random.Random(ruleset_id).sample(every, most)


def test_every_field_of_the_rules_has_its_parameter() -> None:
    sources = [name for name, _ in rules_module._SOURCES]
    assert sorted(sources) == sorted(f.name for f in dataclasses.fields(Rules))


@pytest.mark.parametrize("ruleset_id", sorted(default_spec().rulesets))
def test_kept_parameters_and_rules_are_those_resolved_and_compiled_afresh(
        ruleset_id: str) -> None:
    # Over many choices, so that most fields come from what other choices compiled: a field
    # that read another parameter than its own would come out wrong here.
    ruleset = default_spec().rulesets[ruleset_id]
    for choices in combinations(ruleset_id):
        values = ruleset.option_values(choices)
        fresh = ruleset.resolve(values)
        kept = ruleset.resolve_kept(values)
        assert type(kept) is KeptParams
        assert kept == fresh and list(kept) == list(fresh)
        assert compile_rules(kept, ruleset.id) == compile_rules(fresh, ruleset.id)
        assert Game(ruleset, min(compile_rules(fresh).players), choices).params == fresh


def test_a_value_is_shared_by_the_choices_that_do_not_read_it() -> None:
    ruleset = default_spec().rulesets["pagat"]
    one = ruleset.resolve_kept(ruleset.option_values({"mis": "on"}))
    other = ruleset.resolve_kept(ruleset.option_values({"mis": "off"}))
    assert one["packets"] is other["packets"]  # read by "packets" alone
    assert one["bids"] != other["bids"]
    # resolve itself still gives values of the caller's own, to change as it likes.
    assert ruleset.resolve()["packets"] is not ruleset.resolve()["packets"]


def planted() -> KeptParams:
    ruleset = default_spec().rulesets["pagat-floater"]
    params: dict[str, Any] = copy.deepcopy(dict(ruleset.resolve(ruleset.option_values())))
    params["auction"]["rounds"] = "until-pases"
    return KeptParams(params)


def test_a_value_that_fails_is_refused_every_time() -> None:
    params = planted()
    for _ in range(2):
        with pytest.raises(SpecError, match=r"\$\.auction\.rounds"):
            compile_rules(params, "pagat-floater")


def test_plain_parameters_are_compiled_afresh_every_time() -> None:
    # A caller's own parameters may be changed between two compiles: nothing is kept of them.
    ruleset = default_spec().rulesets["pagat-floater"]
    params: dict[str, Any] = copy.deepcopy(dict(ruleset.resolve(ruleset.option_values())))
    compile_rules(params, "pagat-floater")
    params["auction"]["rounds"] = "until-pases"
    with pytest.raises(SpecError, match=r"\$\.auction\.rounds"):
        compile_rules(params, "pagat-floater")


def test_the_stores_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_module, "PIECES_KEPT", 40)
    monkeypatch.setattr(rulesets_module, "RESOLVED_KEPT", 30)
    # Empty stores of their own, so that each draw below fills them.
    monkeypatch.setattr(rules_module, "_PIECES", {})
    monkeypatch.setattr(rulesets_module, "_RESOLVED", {})
    # (and of the plans too: a whole suite's run leaves one for every ruleset object it met,
    # more than this test's bound, and none would be added here to empty the store)
    monkeypatch.setattr(rulesets_module, "_PLANS", {})
    for ruleset_id in ("pagat-purchase", "napoleon"):
        ruleset = default_spec().rulesets[ruleset_id]
        for choices in combinations(ruleset_id, 60):
            compile_rules(ruleset.resolve_kept(ruleset.option_values(choices)))
            assert len(rules_module._PIECES) <= 40 + len(rules_module._SOURCES)
            assert len(rulesets_module._RESOLVED) <= 30
            assert len(rulesets_module._PLANS) <= 30


def test_clear_memos_forgets_the_compiled_fields() -> None:
    ruleset = default_spec().rulesets["classic"]
    compile_rules(ruleset.resolve_kept(ruleset.option_values()))
    assert rules_module._PIECES
    clear_memos()
    assert not rules_module._PIECES
