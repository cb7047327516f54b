"""Where the sources disagree (issue 16, part 6): the points found from the spec, and their
worked hands. The expected answers are read from the sources by hand (cited)."""

from __future__ import annotations

import pytest
from napkit import load_spec
from napkit.dispute.disagreements import (
    MATCH_CHAPTERS,
    NOT_IN_A_HAND,
    Point,
    every_point,
    points,
    shows,
    source_games,
)

SPEC = load_spec()


@pytest.fixture(scope="module")
def found() -> list[Point]:
    return every_point(SPEC)


def test_one_game_a_source() -> None:
    games = source_games(SPEC)
    assert [g.id for g in games] == ["classic", "peep", "napoleon", "pub-floater", "pagat"]
    assert len({g.source for g in games}) == len(games) == 5


def test_a_made_three_is_a_point_of_disagreement() -> None:
    # classic (000_...txt L43): three stakes for a bid of 3; napoleon (002_...txt L15-20): the
    # single bet from each player: the two answer NAP-9.1.1 differently, and pagat
    # (004_...txt L42-47: Three, 3 units) answers it as classic does.
    point = next(p for p in points(SPEC) if p.rule.id == "NAP-9.1.1")
    answer_of = {r.id: a.value for a in point.answers for r in a.rulesets}
    assert answer_of["classic"] != answer_of["napoleon"]
    assert answer_of["classic"] == answer_of["pagat"]
    assert "three: each: 3" in answer_of["classic"] and "three: each: 1" in answer_of["napoleon"]


def test_a_rule_all_sources_answer_alike_is_not_a_point() -> None:
    # Following suit (NAP-8.1.1): every source says a player who can follow must
    # (000_...txt L36, 001 L24, 002 L7, 003 L13, 004 L37).
    assert "NAP-8.1.1" not in {p.rule.id for p in points(SPEC)}


def test_every_point_has_two_answers_at_least(found: list[Point]) -> None:
    for point in found:
        assert len(point.answers) >= 2, point.rule.id
        games = [r.id for a in point.answers for r in a.rulesets]
        assert sorted(games) == sorted(g.id for g in source_games(SPEC)), point.rule.id


def test_each_worked_hand_plays_out_differently(found: list[Point]) -> None:
    worked = [p for p in found if p.hand is not None]
    assert len(worked) >= 10  # the search's reach: fewer means it has become blind
    for point in worked:
        assert point.hand is not None
        home = next(v for v in point.verdicts if v.target.ruleset.id == point.hand["ruleset"])
        assert home.finished, point.rule.id
        outcomes = {(v.legal, v.rule, v.state.result.net if v.legal and v.state is not None
                     and v.state.result is not None else None) for v in point.verdicts}
        assert len(outcomes) >= 2, point.rule.id
        # ... and because of the point's rule, as the page says (the search's own test).
        assert any(shows(point.rule.id, point.hand, home, v) for v in point.verdicts
                   if v is not home), point.rule.id


def test_rules_of_the_table_or_the_match_have_no_worked_hand(found: list[Point]) -> None:
    for point in found:
        if point.rule.chapter_id in MATCH_CHAPTERS or point.rule.id in NOT_IN_A_HAND:
            assert point.hand is None, point.rule.id
