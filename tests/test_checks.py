"""Each check of spec/README.md "Checks", on the fixture spec broken in exactly one way."""

from __future__ import annotations

from pathlib import Path

import pytest
from napkit.cli import main
from napkit.cli.common import EXIT_PROBLEMS
from napkit.spec.loading import JSON

from .conftest import edit_json, edit_text, one_with, problems

LITTLE = "spec/rulesets/little.json"
OTHER = "spec/rulesets/other.json"
WIDOW = "spec/rulesets/little-widow.json"
BIDDING = "spec/lawbook/02-bidding.toml"
DECISIONS = "spec/decisions.toml"


def _rules(data: dict[str, JSON]) -> dict[str, JSON]:
    rules = data["rules"]
    assert isinstance(rules, dict)
    return rules


def _params(data: dict[str, JSON]) -> dict[str, JSON]:
    params = data["params"]
    assert isinstance(params, dict)
    return params


def _bids(data: dict[str, JSON]) -> list[dict[str, JSON]]:
    bids = _params(data)["bids"]
    assert isinstance(bids, list)
    return [b for b in bids if isinstance(b, dict)]


def test_the_fixture_spec_has_no_problems(spec_dir: Path) -> None:
    assert problems(spec_dir) == []


# --- the law book ---------------------------------------------------------------------------


def test_duplicate_rule_id(spec_dir: Path) -> None:
    edit_text(spec_dir / "lawbook/02-bidding.toml", 'id = "NAP-2.1.4"', 'id = "NAP-2.1.3"')
    found = problems(spec_dir)
    one_with(found, f"{BIDDING}: $.sections[0].rules[3].id: NAP-2.1.3 is already used")


def test_rule_that_no_ruleset_puts_in_force(spec_dir: Path) -> None:
    with (spec_dir / "lawbook/02-bidding.toml").open("a") as chapter:
        chapter.write('\n[[sections.rules]]\nid = "NAP-2.2.2"\ntitle = "Orphan"\n'
                      'kind = "informative"\ntext = """Nobody cites this."""\n')
    found = problems(spec_dir)
    assert found == [f"{BIDDING}: $.sections[1].rules[1]: NAP-2.2.2 (Orphan) is in force in no "
                     "ruleset, so nothing cites a source for it"]


def test_rule_numbered_in_the_wrong_section(spec_dir: Path) -> None:
    edit_text(spec_dir / "lawbook/02-bidding.toml", 'id = "NAP-2.2.1"', 'id = "NAP-2.1.9"')
    one_with(problems(spec_dir), BIDDING, "$.sections[1].rules[0].id",
             "rule NAP-2.1.9 is not numbered in section NAP-2.2")


def test_chapter_id_must_match_file_number(spec_dir: Path) -> None:
    (spec_dir / "lawbook/02-bidding.toml").rename(spec_dir / "lawbook/03-bidding.toml")
    one_with(problems(spec_dir), "spec/lawbook/03-bidding.toml: $.id: chapter NAP-2 is in a "
                                 "file numbered 03")


def test_see_names_an_unknown_id(spec_dir: Path) -> None:
    edit_text(spec_dir / "lawbook/01-basics.toml", 'see = ["NAP-1.1.1"]', 'see = ["NAP-7.1.1"]')
    one_with(problems(spec_dir), "spec/lawbook/01-basics.toml: $.sections[0].rules[1].see[0]: "
                                 "rule NAP-1.1.2 refers to NAP-7.1.1")


# --- rulesets: rules and citations ----------------------------------------------------------


def test_ruleset_names_a_rule_the_law_book_lacks(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little.json", lambda d: _rules(d).update({"NAP-9.9.9": ["L2"]}))
    assert problems(spec_dir) == [f'{LITTLE}: $.rules["NAP-9.9.9"]: little puts in force '
                                  "NAP-9.9.9, which the law book does not have"]


def test_citation_past_the_end_of_the_source(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/other.json", lambda d: _rules(d).update({"NAP-2.1.4": ["L7"]}))
    assert problems(spec_dir) == [f'{OTHER}: $.rules["NAP-2.1.4"][0]: NAP-2.1.4 in other cites '
                                  "L7 is past the end of 101_bbbbbbbbbbbbbbbb.txt (6 lines)"]


def test_citation_running_backwards(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/other.json", lambda d: _rules(d).update({"NAP-2.1.4": ["L5-3"]}))
    one_with(problems(spec_dir), OTHER, '$.rules["NAP-2.1.4"][0]', "L5-3 runs backwards")


def test_decision_of_another_source(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/other.json",
              lambda d: _rules(d).update({"NAP-1.1.1": ["L2", "DEC-001"]}))
    assert problems(spec_dir) == [
        f'{OTHER}: $.rules["NAP-1.1.1"][1]: NAP-1.1.1 in other cites DEC-001, a decision on '
        "100_aaaaaaaaaaaaaaaa.txt; a ruleset cites only its own source (101_bbbbbbbbbbbbbbbb.txt)"]


def test_unknown_decision(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/other.json",
              lambda d: _rules(d).update({"NAP-1.1.1": ["L2", "DEC-999"]}))
    one_with(problems(spec_dir), OTHER, '$.rules["NAP-1.1.1"][1]', "DEC-999, which is not in "
                                                                   "the register")


def test_null_that_removes_nothing(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little-widow.json",
              lambda d: _rules(d).update({"NAP-1.1.3": None, "NAP-2.2.1": None}))
    found = problems(spec_dir)
    one_with(found, WIDOW, '$.rules["NAP-1.1.3"]', "NAP-1.1.3 is not inherited from little")


# --- options and switches -------------------------------------------------------------------


def test_switch_with_a_missing_case(spec_dir: Path) -> None:
    def change(data: dict[str, JSON]) -> None:
        packets = _params(data)["packets"]
        assert isinstance(packets, dict)
        cases = packets["cases"]
        assert isinstance(cases, dict)
        cases["3-3"] = cases.pop("2-3")

    edit_json(spec_dir / "rulesets/little.json", change)
    found = problems(spec_dir)
    one_with(found, f"{LITTLE}: $.params.packets.cases: has no case for choice '2-3' of option "
                    "packets")
    one_with(found, f"{LITTLE}: $.params.packets.cases: has a case for choice '3-3', which "
                    "option packets does not offer")


def test_switch_on_an_option_the_ruleset_lacks(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/little.json", '"packets": {"by_option": "packets"',
              '"packets": {"by_option": "dealing"')
    one_with(problems(spec_dir), f"{LITTLE}: $.params.packets.by_option: switches on option "
                                 "'dealing', which little does not have")


def test_inherited_switch_on_a_removed_option(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little-widow.json",
              lambda d: d.update({"options": {"packets": None}}))
    found = problems(spec_dir)
    one_with(found, WIDOW, "$.params.packets.by_option", "'packets'",
             "(inherited from spec/rulesets/little.json)")


def test_bid_depends_on_an_unknown_option(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/little.json", '"only_when": {"option": "mis"',
              '"only_when": {"option": "misere"')
    one_with(problems(spec_dir), LITTLE, "$.params.bids[2].only_when.option",
             "bid mis depends on option 'misere'")


def test_bid_depends_on_an_unknown_choice(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/little.json", '"choices": ["on"]', '"choices": ["yes"]')
    one_with(problems(spec_dir), LITTLE, "$.params.bids[2].only_when.choices",
             "choice 'yes', which option mis does not offer")


def test_option_default_not_a_choice(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/little.json", '"default": "off"', '"default": "maybe"')
    one_with(problems(spec_dir), f"{LITTLE}: $.options.mis.default: option mis: the default "
                                 "'maybe' is not one of its choices (off, on)")


def test_option_about_an_unknown_rule(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/little.json", '"rule": "NAP-2.1.1"', '"rule": "NAP-2.1.9"')
    one_with(problems(spec_dir), f"{LITTLE}: $.options.mis.rule: option mis is about NAP-2.1.9")


def test_single_alternative_decision_offered_as_option(spec_dir: Path) -> None:
    def change(data: dict[str, JSON]) -> None:
        options = data["options"]
        assert isinstance(options, dict)
        options["unit"] = {"decision": "DEC-002"}

    edit_json(spec_dir / "rulesets/little.json", change)
    one_with(problems(spec_dir), f"{LITTLE}: $.options.unit.decision: option unit offers "
                                 "DEC-002, which has a single alternative")


def test_decision_with_alternatives_that_no_ruleset_offers(spec_dir: Path) -> None:
    def change(data: dict[str, JSON]) -> None:
        options = data["options"]
        assert isinstance(options, dict)
        del options["players"]
        _params(data)["players"] = [3, 4, 5]

    edit_json(spec_dir / "rulesets/little.json", change)
    one_with(problems(spec_dir), f"{DECISIONS}: $.decisions[0]: DEC-001 has 2 alternatives but "
                                 "no ruleset offers it as an option")


def test_decision_cited_by_no_ruleset(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/other.json",
              lambda d: _rules(d).update({"NAP-2.1.2": ["L3"]}))
    assert problems(spec_dir) == [f"{DECISIONS}: $.decisions[2]: DEC-003 (Other Nap: fie tricks) "
                                  "is cited by no ruleset"]


def test_decision_default_and_erratum(spec_dir: Path) -> None:
    edit_text(spec_dir / "decisions.toml", 'default = "three-to-five"', 'default = "seven"')
    edit_text(spec_dir / "decisions.toml", 'alternatives = { five = "Five tricks." }',
              'alternatives = { five = "Five tricks.", fie = "Fie." }')
    found = problems(spec_dir)
    one_with(found, f"{DECISIONS}: $.decisions[0].default: DEC-001: the default 'seven'")
    one_with(found, f"{DECISIONS}: $.decisions[2].alternatives: DEC-003: an erratum has exactly "
                    "one alternative")


def test_decision_lines_and_rule(spec_dir: Path) -> None:
    edit_text(spec_dir / "decisions.toml", 'lines = ["L3"]', 'lines = ["L30"]')
    edit_text(spec_dir / "decisions.toml", 'rule = "NAP-2.2.1"', 'rule = "NAP-2.2.7"')
    found = problems(spec_dir)
    one_with(found, f"{DECISIONS}: $.decisions[2].lines[0]: DEC-003: L30 is past the end")
    one_with(found, f"{DECISIONS}: $.decisions[1].rule: DEC-002: the law book has no rule "
                    "NAP-2.2.7")


# --- parameters, bids and packs -------------------------------------------------------------


def test_param_that_no_rule_reads(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/other.json",
              lambda d: _params(d).update({"first_dealer": "random"}))
    assert problems(spec_dir) == [f"{OTHER}: $.params.first_dealer: no rule in force in other "
                                  "reads first_dealer (a rule's params must list it)"]


def test_bid_field_that_no_rule_in_force_reads(spec_dir: Path) -> None:
    # little-widow does without NAP-2.1.3, the rule that reads bids[*].requires.
    edit_json(spec_dir / "rulesets/little-widow.json",
              lambda d: _bids(d)[2].update({"requires": [["four"]]}))
    assert problems(spec_dir) == [f"{WIDOW}: $.params.bids[2].requires: no rule in force in "
                                  "little-widow reads bids[*].requires (a rule's params must "
                                  "list it)"]


def test_requires_names_a_later_bid(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little.json",
              lambda d: _bids(d)[1].update({"requires": [["nap"]]}))
    assert problems(spec_dir) == [f"{LITTLE}: $.params.bids[1].requires[0][0]: bid four "
                                  "requires nap, which comes later in the bids (requires names "
                                  "earlier bids) (with the default options)"]


def test_requires_names_an_unknown_bid(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little.json",
              lambda d: _bids(d)[4].update({"requires": [["blucher"]]}))
    one_with(problems(spec_dir), LITTLE, "$.params.bids[4].requires[0][0]",
             "bid wellington requires blucher, which is not a bid of little")


def test_requires_a_bid_absent_under_an_option(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little.json",
              lambda d: _bids(d)[4].update({"requires": [["mis"]]}))
    assert problems(spec_dir) == [f"{LITTLE}: $.params.bids[4].requires[0]: bid wellington "
                                  "requires one of mis, but none of them is a bid of this game "
                                  "(with the default options)"]


def test_bid_id_twice_when_both_conditions_hold(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little.json", lambda d: _bids(d)[2].update({"id": "four"}))
    found = problems(spec_dir)
    assert found == [f"{LITTLE}: $.params.bids[2].id: bid four appears twice in little's bids "
                     "(with mis=on)"]


def test_pack_too_small(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/other.json", '"lowest_rank": "7"', '"lowest_rank": "Q"')
    found = problems(spec_dir)
    assert found == [
        f"{OTHER}: $.params.pack[0].lowest_rank: a 12-card pack (Q to A) cannot deal 3 players "
        "5 cards each (15 cards) in other (with the default options)",
        f"{OTHER}: $.params.pack[0].lowest_rank: a 12-card pack (Q to A) cannot deal 4 players "
        "5 cards each (20 cards) in other (with the default options)",
    ]


def test_pack_too_small_only_under_an_option_and_with_the_widow(spec_dir: Path) -> None:
    # 6 players and a widow need 31 cards: 7-A has 32, 8-A only 28.
    edit_text(spec_dir / "rulesets/little.json", '"lowest_rank": "7"', '"lowest_rank": "8"')
    found = problems(spec_dir)
    one_with(found, f"{LITTLE}: $.params.pack[2].lowest_rank: a 28-card pack (8 to A) cannot "
                    "deal 6 players 5 cards each (30 cards) in little (with "
                    "players=three-to-six)")
    one_with(found, f"{WIDOW}: $.params.pack[2].lowest_rank", "5 cards each and the widow "
                                                               "(31 cards)")


def test_players_without_a_pack_entry(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/other.json", '"players": [2, 3, 4],\n    "pack"',
              '"players": [2, 3, 4, 5],\n    "pack"')
    assert problems(spec_dir) == [f"{OTHER}: $.params.pack: no pack entry for 5 players in other "
                                  "(each allowed number needs exactly one) (with the default "
                                  "options)"]


def test_pack_entry_for_players_never_allowed(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/other.json", '"pack": [{"players": [2, 3, 4]',
              '"pack": [{"players": [2, 3, 4, 9]')
    assert problems(spec_dir) == [f"{OTHER}: $.params.pack[0].players: the pack lists 9 players, "
                                  "which other never allows (players: 2-4) (with the default "
                                  "options)"]


# --- loading: extends, file names, sources ---------------------------------------------------


def test_extends_a_ruleset_of_another_source(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/other.json", lambda d: d.update({"extends": "little"}))
    assert problems(spec_dir) == [f"{OTHER}: $.extends: extends little, a ruleset of another "
                                  "source (100_aaaaaaaaaaaaaaaa.txt); a ruleset extends only "
                                  "rulesets of its own source"]


def test_extends_in_a_circle(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little.json", lambda d: d.update({"extends": "little-widow"}))
    found = problems(spec_dir)
    one_with(found, f"{LITTLE}: $.extends: extends in a circle: little -> little-widow -> little")


def test_extends_an_unknown_ruleset(spec_dir: Path) -> None:
    edit_json(spec_dir / "rulesets/little-widow.json", lambda d: d.update({"extends": "big"}))
    assert problems(spec_dir) == [f"{WIDOW}: $.extends: extends 'big', which is not a ruleset of "
                                  "the spec"]


def test_file_name_must_be_the_id(spec_dir: Path) -> None:
    (spec_dir / "rulesets/other.json").rename(spec_dir / "rulesets/another.json")
    one_with(problems(spec_dir), "spec/rulesets/another.json: $.id: ruleset other must be in a "
                                 "file named other.json")


def test_schema_error_is_reported_with_its_path(spec_dir: Path) -> None:
    edit_text(spec_dir / "rulesets/other.json", '"lowest_rank": "7"', '"lowest_rank": "1"')
    one_with(problems(spec_dir), f"{OTHER}: $.params.pack[0].lowest_rank: \"1\" is not one of")


def test_changed_source_file(spec_dir: Path) -> None:
    with (spec_dir.parent / "sources/101_bbbbbbbbbbbbbbbb.txt").open("a") as source:
        source.write("An extra line.\n")
    found = problems(spec_dir)
    one_with(found, "spec/sources.toml: $.sources[1].lines: 101_bbbbbbbbbbbbbbbb.txt has 7 "
                    "lines, the index says 6")
    one_with(found, "spec/sources.toml: $.sources[1].sha256: 101_bbbbbbbbbbbbbbbb.txt has changed")


def test_section_past_the_end_of_its_source(spec_dir: Path) -> None:
    edit_text(spec_dir / "sources.toml", "first = 1, last = 6", "first = 1, last = 8")
    one_with(problems(spec_dir), "spec/sources.toml: $.sources[1].sections[0]: section "
                                 '"OTHER NAP" ends past line 6')


# --- the players' questions -----------------------------------------------------------------
QUESTIONS = "spec/questions/little.json"


def test_a_question_filed_under_an_entry_that_does_not_exist(spec_dir: Path) -> None:
    edit_text(spec_dir / "questions/little.json", '"rule": "NAP-1.1.1"', '"rule": "NAP-1.1.9"')
    edit_text(spec_dir / "questions/little.json", '"also": []', '"also": ["DEC-099"]')
    found = problems(spec_dir)
    assert one_with(found, f"{QUESTIONS}: $.question[0].rule: the law book has no rule NAP-1.1.9")
    assert one_with(found, f"{QUESTIONS}: $.question[1].also[0]: the register has no decision "
                           "DEC-099")


def test_a_question_cites_a_line_past_the_end_of_its_source(spec_dir: Path) -> None:
    edit_text(spec_dir / "questions/little.json", '"lines": [3]', '"lines": [3, 13]')
    assert problems(spec_dir) == [f"{QUESTIONS}: $.question[1].lines[1]: line 13 is past the end "
                                  "of 100_aaaaaaaaaaaaaaaa.txt (12 lines)"]


def test_the_same_question_filed_under_two_entries(spec_dir: Path) -> None:
    # two writers may hear the same question (filed twice under one entry, it counts twice);
    # under two entries, the search could not tell which answers it
    edit_text(spec_dir / "questions/little.json", "do we take the small cards out when theres "
              "only 3 of us", "How many of us  can sit in")
    assert problems(spec_dir) == [f"{QUESTIONS}: $.question[1].rule: the same question is filed "
                                  f"under NAP-1.1.1 in {QUESTIONS} $.question[0]"]


def test_a_question_file_that_breaks_its_schema_is_named_with_its_path(spec_dir: Path) -> None:
    edit_text(spec_dir / "questions/little.json", '"lines": [2]', '"lines": ["L2"]')
    one_with(problems(spec_dir), f"{QUESTIONS}: $.question[0].lines[0]: ")


def test_a_question_filed_under_one_entry_and_asked_under_another(spec_dir: Path) -> None:
    edit_text(spec_dir / "lawbook/01-basics.toml", 'params = ["pack"]',
              'params = ["pack"]\nasked = ["how many of us can sit in"]')
    assert problems(spec_dir) == [f"{QUESTIONS}: $.question[0].rule: the question is asked under "
                                  "NAP-1.1.2 in the spec, not NAP-1.1.1"]


def test_a_file_of_players_questions_of_ones_own_is_checked_against_the_spec(
        spec_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # napkit rules check FILE: a writer's new questions, checked as spec/questions/'s are and
    # against them, before they are filed
    mine = tmp_path / "mine.toml"
    mine.write_text('[[question]]\ntext = "How many of us can sit in?"\nrule = "NAP-1.1.2"\n'
                    'source = "100_aaaaaaaaaaaaaaaa.txt"\nlines = [2, 30]\n', encoding="utf-8")
    assert main(["rules", "check", str(mine)]) == EXIT_PROBLEMS
    assert capsys.readouterr().out.splitlines() == [
        f"{mine}: $.question[0].lines[1]: line 30 is past the end of 100_aaaaaaaaaaaaaaaa.txt "
        "(12 lines)",
        f"{mine}: $.question[0].rule: the same question is filed under NAP-1.1.1 in {QUESTIONS} "
        "$.question[0]",
        "2 problems in 1 file of players' questions."]
    mine.write_text(mine.read_text(encoding="utf-8").replace("2, 30", "2").replace(
        "NAP-1.1.2", "NAP-1.1.1"), encoding="utf-8")
    assert main(["rules", "check", str(mine)]) == 0
    assert capsys.readouterr().out == "1 file of players' questions: no problems.\n"


def test_a_search_over_a_broken_file_of_questions_names_it_and_stops(
        spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the search reads the questions when first asked: a broken file is said, not a traceback
    edit_text(spec_dir / "questions/little.json", '"lines": [2]', '"lines": ["L2"]')
    assert main(["rules", "search", "how many can play"]) == EXIT_PROBLEMS
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f'napkit: {QUESTIONS}: $.question[0].lines[0]: "L2" is not of type "integer"\n'
