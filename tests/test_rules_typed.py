"""The compiled rules are typed: every switch is a Literal with exactly the values of its enum
in ``spec/schemas/ruleset.schema.json``, and an unknown switch value stops the game from
being built (a SpecError naming the JSON path) instead of silently taking an else branch."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any, get_args

import pytest
from napkit import paths
from napkit.engine.game import Game
from napkit.engine.rules import SWITCHES, Rules, compile_rules
from napkit.errors import SetupError, SpecError
from napkit.spec.catalog import default_spec

SCHEMA = json.loads((paths.spec_dir() / "schemas" / "ruleset.schema.json").read_text())


def enums(node: Any, path: str = "") -> Iterator[tuple[str, frozenset[str]]]:
    """Every enum of string values in the schema, with where it is."""
    if isinstance(node, dict):
        if "enum" in node and all(isinstance(v, str) for v in node["enum"]):
            yield path, frozenset(node["enum"])
        for key, value in node.items():
            yield from enums(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from enums(value, f"{path}[{i}]")


def schema_enums(switch: str) -> set[frozenset[str]]:
    """The enum values the schema gives for one entry of SWITCHES: a definition under $defs,
    or a parameter path (params/widow/name), every variant of which (a plain value, or one
    chosen per case of an option) must list the same values."""
    defs = SCHEMA["$defs"]
    if "/" not in switch:
        return {frozenset(defs[switch]["enum"])}
    head, *rest = switch.split("/")
    node: Any = defs[head]
    for part in rest:
        node = node["properties"][part] if "properties" in node else next(
            v["properties"][part] for v in node["oneOf"] if "properties" in v)
    return {values for _, values in enums(node)}


def test_every_switch_of_the_schema_has_a_literal_type() -> None:
    # Where the schema has enums of words (the ranks aside), the rules module knows them.
    covered = {values for switch in SWITCHES for values in schema_enums(switch)}
    found = {values for path, values in enums(SCHEMA["$defs"]) if not path.startswith("/rank")}
    assert found <= covered, sorted(map(sorted, found - covered))


@pytest.mark.parametrize("switch", sorted(SWITCHES))
def test_each_literal_has_exactly_the_schema_values(switch: str) -> None:
    literal = frozenset(get_args(SWITCHES[switch]))
    assert schema_enums(switch) == {literal}


def pagat_params() -> dict[str, Any]:
    ruleset = default_spec().rulesets["pagat-floater"]
    return copy.deepcopy(dict(ruleset.resolve(ruleset.option_values())))


# (where in the resolved parameters, a misspelt value, the JSON path the error must name)
PLANTED = [
    (("auction", "rounds"), "until-pases", "$.auction.rounds"),
    (("auction", "raising"), "biders", "$.auction.raising"),
    (("throw_in", "stakes"), "double", "$.throw_in.stakes"),
    (("preparation", "usual"), "shufle", "$.preparation.usual"),
    (("match", "end"), "never", "$.match.end"),
    (("first_dealer",), "eldest", "$.first_dealer"),
    (("widow", "name"), "kitty", "$.widow.name"),
    (("exchange", "when"), "always", "$.exchange.when"),
    (("bids", 0, "lead"), "highest", "$.bids[0].lead"),
    (("bids", 1, "trumps"), "no-trumps", "$.bids[1].trumps"),
]


@pytest.mark.parametrize(("where", "value", "path"), PLANTED)
def test_an_unknown_switch_value_is_refused_with_its_path(
        where: tuple[str | int, ...], value: str, path: str) -> None:
    params = pagat_params()
    node: Any = params
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(SpecError) as caught:
        compile_rules(params, "pagat-floater")
    assert caught.value.path == path
    assert repr(value) in caught.value.message


def test_the_untouched_parameters_compile() -> None:
    rules = compile_rules(pagat_params(), "pagat-floater")
    assert isinstance(rules, Rules)
    assert rules.widow is not None and rules.widow.name == "floater"
    assert rules.auction.rounds == "single"


class Planted:
    """A ruleset whose resolved parameters carry a planted value (anything a Game accepts)."""

    id = "planted"

    def option_values(self, choices: Any = None) -> dict[str, str]:
        return {}

    def resolve(self, values: Any) -> dict[str, Any]:
        params = pagat_params()
        params["auction"]["rounds"] = "until-pases"
        return params


def test_a_game_of_a_planted_value_cannot_be_built() -> None:
    with pytest.raises(SpecError, match=r"\$\.auction\.rounds"):
        Game(Planted(), 4)


def test_an_unknown_ruleset_id_is_a_setup_error() -> None:
    with pytest.raises(SetupError, match=r"NAP-10\.1\.1"):
        Game.create("no-such-ruleset", 4)
