"""Comparing rulesets rule by rule."""

from __future__ import annotations

from napkit.spec.catalog import Spec
from napkit.spec.compare import compare

from .test_rulesets import fixture_spec


def _spec() -> Spec:
    return fixture_spec()


def test_a_ruleset_compared_with_itself_has_no_differences() -> None:
    spec = _spec()
    for ruleset in spec.rulesets.values():
        assert compare(ruleset, ruleset, spec.lawbook) == []


def test_same_ruleset_with_other_options() -> None:
    spec = _spec()
    little = spec.rulesets["little"]
    found = compare(little, little, spec.lawbook, choices_b={"mis": "on", "packets": "2-3"})
    assert [(d.rule_id, d.path, d.a, d.b) for d in found] == [
        ("NAP-1.2.1", "packets", "[3, 2]", "[2, 3]"),
        ("NAP-2.1.1", "bids[mis]", "no such bid", "bid Misère"),
    ]


def test_parent_and_child() -> None:
    spec = _spec()
    found = compare(spec.rulesets["little"], spec.rulesets["little-widow"], spec.lawbook)
    summary = [(d.rule_id, d.path, d.a, d.b) for d in found]
    assert summary == [
        ("NAP-1.1.3", "in force", "not in force", "in force"),
        ("NAP-1.1.3", "widow", "not set", "name: widow, dealt: after-hands"),
        ("NAP-2.1.1", "bids[wellington]", "bid Wellington", "no such bid"),
        ("NAP-2.1.1", "option mis", "off (default), on", "not offered"),
        ("NAP-2.1.2", "bids[nap].lead", "any", "lowest-trump"),
        ("NAP-2.1.3", "in force", "in force", "not in force"),
    ]
    widow = found[1]
    assert widow.rule_title == "The widow"
    assert widow.cites_a == ()
    assert widow.cites_b == ("L11",)


def test_two_sources_differ_with_nested_paths_and_player_ranges() -> None:
    spec = _spec()
    found = compare(spec.rulesets["little"], spec.rulesets["other"], spec.lawbook)
    by_path = {d.path: d for d in found}
    assert (by_path["players"].a, by_path["players"].b) == ("3-5", "2-4")
    assert by_path["players"].rule_id == "NAP-1.1.1"
    assert by_path["pack"].b == "2-4: 7-A"
    assert by_path["bids[three].win.each"].rule_id == "NAP-2.1.4"
    assert by_path["bids[three].win.each"].cites_a == ("L9-10",)
    assert by_path["bids[three].win.each"].cites_b == ("L5",)
    # Rule order follows the law book.
    order = [d.rule_id for d in found]
    assert order == sorted(order, key=spec.lawbook.order)
