"""A score sheet in points (issue 28, item 2): a house game may settle a contract in points
written on a sheet, nobody paying anybody (NAP-9.6), and end its match at a target score
(NAP-10.4.4, NAP-10.4.5). These rules are of house play and programs, in no source.

The hands below are worked out by hand from the law book, on classic Nap's 'ladder' layout
(tests/handworked/deals.py): four players, dealer seat 3, seat 0 declares and takes exactly k
tricks. Classic's Three is worth 3 (its win.each, NAP-9.6.4) unless the file gives it points.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from napkit import paths
from napkit.cli import main
from napkit.conform.run.runner import PASSED, DisagreementError, _check_outcome, run_case
from napkit.conform.suite.cases import OWN_RULESETS, add_rulesets, load_suite
from napkit.conform.suite.generate import write_suite
from napkit.engine import finder
from napkit.engine.actions import Bid, Pass
from napkit.engine.game import Game, set_ruleset_finder
from napkit.engine.match import new_match
from napkit.errors import SpecError
from napkit.formats.records import (
    check_hand_record,
    check_match_record,
    hand_outcome,
    hand_record,
    hand_record_line,
    match_outcome,
    match_record,
)
from napkit.players.playout import play_out
from napkit.protocol.process import Session, in_process_opener
from napkit.spec import checks
from napkit.spec.catalog import default_spec
from napkit.spec.house import load_house_ruleset
from napkit.spec.rulesets import Ruleset
from napkit.spec.schemas import schema_problems
from napkit.spec.sources import Citation

from tests.handworked.deals import FOURTH, HOLDER, LOW, THIRD, TOP, apply_all, dealt, ladder
from tests.handworked.deals import play_tricks as played

EXAMPLE = paths.spec_dir() / "examples" / "house-points-stick.json"
DEALER = 3
SINGLY = (1, 1, 1, 1, 1)  # classic's packets by default (DEC-001)
Capture = pytest.CaptureFixture[str]


def example() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return document


def points_house(tmp_path: Path, name: str = "points.json", *, stuck: bool = True,
                 **scoring: Any) -> Path:
    """The example, its scoring changed as given; ``stuck``
    False: without its dealer stuck (the auction as classic's), so that a hand may be thrown
    in."""
    document = example()
    if not stuck:
        document["params"].pop("auction", None)
    document["params"]["scoring"] = {**document["params"]["scoring"], **scoring}
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def three_by_seat_0(ruleset: Ruleset, k: int, stakes: int = 1) -> Any:
    """Seat 0 declares Three and takes exactly k tricks (the ladder layout); the others pass."""
    hands = {0: " ".join(TOP[:k] + LOW[:5 - k]), 1: " ".join(HOLDER), 2: " ".join(THIRD),
             3: " ".join(FOURTH)}
    state = dealt(Game(ruleset, 4), dealer=DEALER, hands=hands, packets=SINGLY, stakes=stakes)
    state = apply_all(state, [Bid("three"), Pass(), Pass(), Pass()])
    return played(state, ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH))


# --- the engine: who scores ---------------------------------------------------------------------
# (defeated, tricks taken, each seat's points): Three is worth 3 points.
SCORES = [
    ("each-opponent", 3, (3, 0, 0, 0)),  # NAP-9.6.2: made, the declarer alone scores
    ("each-opponent", 4, (3, 0, 0, 0)),  # more tricks earn nothing more (NAP-9.6.4)
    ("each-opponent", 2, (0, 3, 3, 3)),  # NAP-9.6.3: each opponent scores in full
    ("off-declarer", 2, (-3, 0, 0, 0)),  # off the declarer, below nothing
    ("nobody", 2, (0, 0, 0, 0)),  # nobody scores
    ("off-declarer", 3, (3, 0, 0, 0)),  # made: the same whatever a defeat would score
]


@pytest.mark.parametrize(("defeated", "k", "score"), SCORES)
def test_each_defeated_choice_scores_as_the_law_book_says(
        tmp_path: Path, defeated: str, k: int, score: tuple[int, ...]) -> None:
    house = load_house_ruleset(points_house(tmp_path, defeated=defeated))
    state = three_by_seat_0(house, k)
    result = state.result
    assert result is not None and result.contract == "three" and result.made == (k >= 3)
    assert result.score == score
    # NAP-9.6.1: nobody pays anybody on the contract, so no chips move and the pool is still.
    assert result.payments == () and result.net == (0, 0, 0, 0) and result.pool == 0
    outcome = hand_outcome(state)
    assert outcome["score"] == list(score) and outcome["payments"] == []
    assert schema_problems("result", {k: v for k, v in outcome.items()}) == []


def test_a_bids_points_and_the_stakes_multiply(tmp_path: Path) -> None:
    """NAP-9.6.4: a bid's own points replace its win.each, times the hand's stakes."""
    document = json.loads(points_house(tmp_path).read_text(encoding="utf-8"))
    classic = default_spec().rulesets["classic"].resolve()
    bids = copy.deepcopy(classic["bids"])
    assert isinstance(bids, list)
    for bid in bids:
        assert isinstance(bid, dict)
        if bid["id"] == "three":
            bid["points"] = 7
    document["params"]["bids"] = bids
    path = tmp_path / "sevens.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    house = load_house_ruleset(path)
    assert "NAP-9.6.4" in house.rules
    assert three_by_seat_0(house, 3).result.score == (7, 0, 0, 0)
    assert three_by_seat_0(house, 2, stakes=2).result.score == (0, 14, 14, 14)
    # The example's Three has no points of its own: its win.each, 3, at stakes 4.
    assert three_by_seat_0(load_house_ruleset(EXAMPLE), 3, stakes=4).result.score == (
        12, 0, 0, 0)


def test_a_thrown_in_hand_scores_nobody(tmp_path: Path) -> None:
    game = Game(load_house_ruleset(points_house(tmp_path, stuck=False)), 4)
    hand = game.new_hand(dealer=DEALER)
    hand = hand.apply(hand.sample_chance(random.Random(5)))
    hand = apply_all(hand, [Pass()] * 4)
    assert hand.result is not None and hand.result.thrown_in
    assert hand.result.score == (0, 0, 0, 0)


def test_a_chips_ruleset_has_no_score_anywhere() -> None:
    """Without scoring (or with sheet chips) nothing changes: no score, no scores."""
    game = Game.create("classic", 4)
    assert game.rules.scoring is None
    match = play_out(new_match(game, hands=2), random.Random(1))
    assert match.result is not None and match.result.scores is None and match.scores is None
    assert all(hand.result is not None and hand.result.score is None for hand in match.hands)
    assert all("score" not in hand_outcome(hand) for hand in match.hands)
    assert "scores" not in match_outcome(match, out=True)
    chips = copy.deepcopy(dict(default_spec().rulesets["classic"].resolve()))
    chips["scoring"] = {"sheet": "chips"}
    from napkit.engine.game import compile_rules
    assert compile_rules(chips).scoring is None


# --- the match: totals, the target, the winners ---------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_the_match_ends_at_the_target_and_the_highest_score_wins(seed: int) -> None:
    """NAP-10.4.4, NAP-10.4.5: the totals are the hands' points added up; the match ends after
    the first hand at whose end a score is 15 or more, though 200 hands were agreed."""
    game = Game(load_house_ruleset(EXAMPLE), 4)
    match = play_out(new_match(game, hands=200), random.Random(seed))
    result = match.result
    assert result is not None and result.scores is not None
    totals = [0] * 4
    for i, hand in enumerate(match.hands):
        assert hand.result is not None and hand.result.score is not None
        assert max(totals) < 15, f"the match went on after hand {i} reached the target"
        totals = [t + p for t, p in zip(totals, hand.result.score, strict=True)]
    assert tuple(totals) == result.scores and max(totals) >= 15
    assert result.hands == len(match.hands) < 200
    best = max(totals)
    assert result.winners == tuple(s for s in range(4) if totals[s] == best)
    outcome = match_outcome(match, out=True)
    assert outcome["scores"] == totals
    assert schema_problems("adapter#/$defs/match-outcome", outcome) == []


def test_with_no_target_the_agreed_hands_end_it(tmp_path: Path) -> None:
    game = Game(load_house_ruleset(points_house(tmp_path, target=None)), 4)
    assert game.rules.scoring is not None and game.rules.scoring.target is None
    match = play_out(new_match(game, hands=12), random.Random(2))
    assert match.result is not None and match.result.hands == 12
    assert match.result.scores is not None and max(match.result.scores) >= 15  # no stop at 15


def test_the_winners_are_by_score_not_by_chips(tmp_path: Path) -> None:
    """Antes stay chips (NAP-9.6.1): a points game with an ante still names winners by score."""
    document = example()
    document["params"]["ante"] = {"amount": 1, "on_redeal": True}
    document["params"]["pool"] = {"name": "pool", "at_match_end": "unclaimed"}
    path = tmp_path / "ante.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    house = load_house_ruleset(path)
    match = play_out(new_match(Game(house, 3), hands=3), random.Random(4))
    result = match.result
    assert result is not None and result.scores is not None
    assert any(b != 0 for b in result.balances)  # the antes were paid in chips
    best = max(result.scores)
    assert result.winners == tuple(s for s in range(3) if result.scores[s] == best)


# --- records -----------------------------------------------------------------------------------
def test_a_record_carries_the_score_and_a_wrong_one_is_caught() -> None:
    game = Game(load_house_ruleset(EXAMPLE), 4)
    before = finder.ruleset_finder()
    assert before is not None

    def find(ruleset_id: str) -> Any:  # a record of the house game is replayed by its id
        return game.ruleset if ruleset_id == game.ruleset.id else before(ruleset_id)

    set_ruleset_finder(find)
    try:
        match = play_out(new_match(game, hands=3), random.Random(3))
        hand = match.hands[-1]
        record = hand_record(hand)
        assert hand_record_line(hand) == json.dumps(record)  # the fast writer agrees
        assert "score" in record["outcome"]
        assert schema_problems("hand-record", record) == []
        assert check_hand_record(record) == []
        wrong = copy.deepcopy(record)
        wrong["outcome"]["score"][0] += 1
        problems = check_hand_record(wrong)
        assert [p.path for p in problems] == ["$.outcome.score[0]"]
        lost = copy.deepcopy(record)
        del lost["outcome"]["score"]
        assert any("lacks 'score'" in p.message for p in check_hand_record(lost))
        whole = match_record(match)
        assert schema_problems("match-record", whole) == []
        assert check_match_record(whole) == []
        whole["outcome"]["scores"][1] += 5
        assert [(p.path, p.rule) for p in check_match_record(whole)] == [
            ("$.outcome.scores[1]", "NAP-10.4.4")]
    finally:
        set_ruleset_finder(before)


# --- the protocol's outcome comparison ------------------------------------------------------------
def test_a_program_whose_score_differs_is_failed_naming_the_field_and_the_rule(
        tmp_path: Path) -> None:
    house = load_house_ruleset(EXAMPLE)
    defeated = hand_outcome(three_by_seat_0(house, 2))
    made = hand_outcome(three_by_seat_0(house, 3))
    _check_outcome({"type": "outcome", "outcome": defeated}, "outcome", defeated)
    # A program that scores a defeat off the declarer, as some do, in an each-opponent game.
    theirs = {**defeated, "score": [-3, 0, 0, 0]}
    with pytest.raises(DisagreementError) as caught:
        _check_outcome({"type": "outcome", "outcome": theirs}, "outcome", defeated)
    assert caught.value.where == "outcome.score"
    assert "NAP-9.6.3" in caught.value.message and "[-3, 0, 0, 0]" in caught.value.message
    # A planted slip of arithmetic on a made contract names the made rule.
    with pytest.raises(DisagreementError) as caught:
        _check_outcome({"type": "outcome", "outcome": {**made, "score": [4, 0, 0, 0]}},
                       "outcome", made)
    assert caught.value.where == "outcome.score" and "NAP-9.6.2" in caught.value.message
    # A program that keeps no score sheet: told so.
    chips_only = {k: v for k, v in made.items() if k != "score"}
    with pytest.raises(DisagreementError) as caught:
        _check_outcome({"type": "outcome", "outcome": chips_only}, "outcome", made)
    assert caught.value.where == "outcome.score" and "gave none" in caught.value.message
    # A chips case is not judged on a score a program adds.
    classic = hand_outcome(three_by_seat_0(default_spec().rulesets["classic"], 2))
    _check_outcome({"type": "outcome", "outcome": {**classic, "score": [9, 9, 9, 9]}},
                   "outcome", classic)


def test_a_match_whose_totals_differ_is_failed_naming_scores() -> None:
    game = Game(load_house_ruleset(EXAMPLE), 4)
    match = play_out(new_match(game, hands=50), random.Random(1))
    expected = match_outcome(match, out=True)
    _check_outcome({"type": "outcome", "outcome": expected}, "match", expected)
    theirs = {**expected, "scores": [s + 1 for s in expected["scores"]]}
    with pytest.raises(DisagreementError) as caught:
        _check_outcome({"type": "outcome", "outcome": theirs}, "match", expected)
    assert caught.value.where == "outcome.scores" and "NAP-10.4.4" in caught.value.message


# --- the spec: the rules, the schema, the house file ----------------------------------------------
def test_the_house_rules_are_in_force_in_no_built_in_ruleset_and_in_the_example() -> None:
    spec = default_spec()
    house_rules = [rule.id for rule in spec.lawbook if rule.house]
    assert {"NAP-9.6.1", "NAP-9.6.2", "NAP-9.6.3", "NAP-9.6.4", "NAP-10.4.4",
            "NAP-10.4.5"} <= set(house_rules)
    assert not any(rule in r.rules for r in spec.rulesets.values() for rule in house_rules)
    assert checks.check_sources_of_rules(spec) == []
    assert set(house_rules) <= set(load_house_ruleset(EXAMPLE).rules)


def test_a_house_rule_put_in_force_by_a_source_is_a_problem() -> None:
    spec = default_spec()
    classic = spec.rulesets["classic"]
    rules = dict(classic.rules)
    rules["NAP-9.6.1"] = (Citation.parse("L43"),)
    from dataclasses import replace
    changed = copy.copy(spec)
    object.__setattr__(changed, "rulesets", {**spec.rulesets,
                                             "classic": replace(classic, rules=rules)})
    problems = checks.check_sources_of_rules(changed)
    assert [p.path.endswith(".origin") for p in problems] == [True]
    assert "NAP-9.6.1" in problems[0].message and "classic" in problems[0].message


BAD = [
    ({"sheet": "points", "made": "declarer", "target": 15}, "$.params.scoring", "defeated"),
    ({"sheet": "points", "made": "declarer", "defeated": "everyone", "target": 15},
     "$.params.scoring.defeated", "everyone"),
    ({"sheet": "points", "made": "declarer", "defeated": "nobody", "target": 0},
     "$.params.scoring.target", "0"),
    ({"sheet": "score", "made": "declarer", "defeated": "nobody", "target": None},
     "$.params.scoring.sheet", "score"),
]


@pytest.mark.parametrize(("scoring", "path", "word"), BAD)
def test_a_bad_score_sheet_is_one_line_naming_its_json_path(
        tmp_path: Path, capsys: Capture, scoring: dict[str, Any], path: str, word: str) -> None:
    document = example()
    document["params"]["scoring"] = scoring
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_house_ruleset(file)
    assert caught.value.path.startswith(path) and word in str(caught.value)
    assert main(["rules", "show", str(file)]) != 0
    err = capsys.readouterr().err
    assert err.startswith("napkit: ") and path in err and "Traceback" not in err


def test_rules_show_and_rule_say_where_a_house_rule_comes_from(capsys: Capture) -> None:
    assert main(["rules", "rule", "NAP-9.6.3"]) == 0
    out = capsys.readouterr().out
    assert "origin:   house: found in programs and house play, in no source" in out
    assert main(["rules", "show", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    section = out[out.index("NAP-9.6.3  "):out.index("NAP-9.6.4  ")]
    assert "found in programs and house play, in no source" in section
    assert "scoring.defeated = each-opponent" in section
    assert main(["rules", "rule", "NAP-9.1.1"]) == 0
    assert "origin:" not in capsys.readouterr().out


def test_the_comparison_says_how_each_ruleset_scores() -> None:
    from napkit.site.data import scoring_rows
    rows = {rid: words for rid, _, words in scoring_rows(default_spec())}
    assert set(default_spec().rulesets) < set(rows)
    assert all(rows[rid].startswith("chips") for rid in default_spec().rulesets)
    assert rows["points-stick"].startswith("points")
    assert "each opponent scores them" in rows["points-stick"]
    assert "15 points" in rows["points-stick"]


# --- the generated suite of a points game ---------------------------------------------------------
def test_the_generated_suite_of_a_points_game_scores_and_the_reference_passes(
        tmp_path: Path) -> None:
    house = load_house_ruleset(EXAMPLE)
    saved = dict(OWN_RULESETS)
    add_rulesets([house])
    try:
        counts = write_suite(tmp_path, [house])
        cases, problems = load_suite(tmp_path)
        assert problems == []
        assert sum(counts.values()) >= 300, counts
        outcomes = [c for c in cases if c.kind == "outcome"]
        matches = [c for c in cases if c.kind == "match"]
        assert outcomes and all("score" in c.expect["outcome"] for c in outcomes)
        assert matches and all("scores" in c.expect["outcome"] for c in matches)
        # Some match is ended by the target, some hand defeated, some made.
        assert any(max(c.expect["outcome"]["scores"]) >= 15 for c in matches)
        tagged = {rule for c in cases for rule in c.rules}
        assert {"NAP-9.6.1", "NAP-9.6.2", "NAP-9.6.3", "NAP-9.6.4", "NAP-10.4.4",
                "NAP-10.4.5"} <= tagged
        session = Session(in_process_opener([house]), 10.0)
        session.open()
        failed = []
        for case in outcomes + matches:
            result = run_case(case, session)
            if result.status != PASSED:
                failed.append(f"{case.id}: {result.message}")
        session.kill()
        assert not failed, failed[:5]
    finally:
        OWN_RULESETS.clear()
        OWN_RULESETS.update(saved)


def test_the_rules_sheet_of_a_points_game_scores_and_pays_nothing(tmp_path: Path,
                                                                  capsys: Capture) -> None:
    """The printed sheet said a points game's opponents pay the declarer (NAP-9.1.1)."""
    out = tmp_path / "sheet.html"
    assert main(["rules", "sheet", str(EXAMPLE), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "3 points to the declarer" in page and "3 points to each opponent" in page
    assert "from each opponent" not in page and "the match ends when a score reaches 15" in page
    classic = tmp_path / "classic.html"
    assert main(["rules", "sheet", "classic", "-o", str(classic)]) == 0
    assert "from each opponent" in classic.read_text(encoding="utf-8")
