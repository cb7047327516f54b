"""Inheritance, options and resolving parameters, on the fixture rulesets."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st
from napkit.errors import ChoiceError
from napkit.spec import rulesets
from napkit.spec.catalog import Spec, load_spec
from napkit.spec.loading import JSON
from napkit.spec.sources import Citation

from .conftest import FIXTURE_SPEC


@cache
def fixture_spec() -> Spec:
    """The fixture spec, read-only, loaded once (Hypothesis runs many examples)."""
    return load_spec(FIXTURE_SPEC)


def test_extends_merges_rules_options_and_params() -> None:
    spec = fixture_spec()
    parent, child = spec.rulesets["little"], spec.rulesets["little-widow"]
    assert child.parent == parent
    assert "NAP-1.1.3" in child.rules and "NAP-1.1.3" not in parent.rules
    assert "NAP-2.1.3" not in child.rules  # removed with null
    assert child.rules["NAP-1.1.1"] == (Citation.parse("L2"), Citation.parse("DEC-001"))
    assert set(child.options) == {"players", "packets"}  # mis removed with null
    assert child.params["players"] == parent.params["players"]  # inherited whole
    assert child.params["bids"] != parent.params["bids"]  # replaced whole
    assert child.param_files["players"] == "spec/rulesets/little.json"
    assert child.param_files["widow"] == "spec/rulesets/little-widow.json"


def test_decision_option_takes_everything_from_the_register() -> None:
    option = fixture_spec().rulesets["little"].options["players"]
    assert option.decision == "DEC-001"
    assert option.rule == "NAP-1.1.1"
    assert option.default == "three-to-five"
    assert list(option.choices) == ["three-to-five", "three-to-six"]
    assert option.title == "Little Nap: six players?"


def test_resolve_with_the_defaults() -> None:
    resolved = fixture_spec().rulesets["little"].resolve()
    assert resolved["players"] == [3, 4, 5]
    assert resolved["packets"] == [3, 2]
    bids = resolved["bids"]
    assert isinstance(bids, list)
    assert [b["id"] for b in bids if isinstance(b, dict)] == ["three", "four", "nap",
                                                              "wellington"]


def test_resolve_with_choices_and_a_nested_switch() -> None:
    resolved = fixture_spec().rulesets["little"].resolve(
        {"players": "three-to-six", "packets": "2-3", "mis": "on"})
    assert resolved["players"] == [3, 4, 5, 6]
    assert resolved["packets"] == [2, 3]
    bids = resolved["bids"]
    assert isinstance(bids, list)
    misere = bids[2]
    assert isinstance(misere, dict)
    assert misere["id"] == "mis"
    assert misere["win"] == {"each": 5}
    assert "only_when" not in misere


@pytest.mark.parametrize(("choices", "message"), [
    ({"doubling": "on"}, "little has no option 'doubling' (its options: mis, packets, players)"),
    ({"mis": "yes"}, "option mis has no choice 'yes' (choices: off, on)"),
])
def test_unknown_option_or_choice(choices: dict[str, str], message: str) -> None:
    with pytest.raises(ChoiceError) as caught:
        fixture_spec().rulesets["little"].resolve(choices)
    assert caught.value.message == message
    assert caught.value.option == next(iter(choices))


def test_option_combinations() -> None:
    little = fixture_spec().rulesets["little"]
    combos = list(little.option_combinations())
    assert len(combos) == 8
    assert len({tuple(sorted(c.items())) for c in combos}) == 8
    widow = fixture_spec().rulesets["little-widow"]
    assert len(list(widow.option_combinations())) == 4


def test_option_combinations_past_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulesets, "COMBINATION_CAP", 4)
    combos = list(fixture_spec().rulesets["little"].option_combinations())
    # The defaults, then each option through its other choices (one each here).
    assert combos[0] == {"players": "three-to-five", "packets": "3-2", "mis": "off"}
    assert len(combos) == 4
    assert {"players": "three-to-five", "packets": "3-2", "mis": "on"} in combos


def _all_choices() -> st.SearchStrategy[tuple[str, dict[str, str]]]:
    spec = fixture_spec()

    def for_ruleset(ruleset_id: str) -> st.SearchStrategy[tuple[str, dict[str, str]]]:
        options = spec.rulesets[ruleset_id].options
        return st.tuples(st.just(ruleset_id), st.fixed_dictionaries(
            {}, optional={name: st.sampled_from(list(o.choices)) for name, o in options.items()}))

    return st.sampled_from(sorted(spec.rulesets)).flatmap(for_ruleset)


def _walk(value: JSON) -> Iterator[JSON]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


@given(_all_choices())
def test_resolved_params_have_no_switch_and_only_present_bids(
        case: tuple[str, dict[str, str]]) -> None:
    ruleset_id, choices = case
    ruleset = fixture_spec().rulesets[ruleset_id]
    resolved = ruleset.resolve(choices)
    for value in _walk(resolved):
        assert not (isinstance(value, dict) and ("by_option" in value or "only_when" in value))
    values = ruleset.option_values(choices)
    bids = resolved.get("bids")
    assert isinstance(bids, list)
    resolved_ids = [b["id"] for b in bids if isinstance(b, dict)]
    raw_bids = ruleset.params["bids"]
    assert isinstance(raw_bids, list)
    expected = [b["id"] for b in raw_bids
                if isinstance(b, dict) and rulesets.bid_present(b, values)]
    assert resolved_ids == expected
    assert ("mis" in resolved_ids) == (values.get("mis") == "on")
