"""Questions in players' words (issue 30, item 4): the law book's ``asked`` questions, the
development set they were tuned on (``tests/fixtures/questions/dev.toml``), typo tolerance, and
irregular play answered by the decisions that say the sources are silent.

The development set is the tuning table, not the held-out measure: its score is held here at
what the tuning reached, so that a change to the ranking that loses a question shows up.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
from napkit.handbook.search import corrected, edits, search, terms
from napkit.spec.catalog import default_spec
from napkit.spec.decisions import check_register
from napkit.spec.lawbook import LawBook, check_lawbook
from napkit.spec.sources import Citation, citation_problem

DEV = Path(__file__).resolve().parent / "fixtures" / "questions" / "dev.toml"
#: The share of the development set with a right answer first, as tuned (38 of 47; 17 of 47
#: before the law book had players' questions and the search typo tolerance; 40 after the
#: synonyms were widened on the blind players' questions, test_rules_search_players.py; 42
#: after the second blind set's general causes were fixed; 46 after the third round: a game's
#: name as context, more players' questions in the law book).
DEV_SCORE = 46


def dev_questions() -> list[dict[str, Any]]:
    with DEV.open("rb") as handle:
        found = tomllib.load(handle)["questions"]
    assert isinstance(found, list)
    return found


def right_first(question: dict[str, Any]) -> bool:
    hits = search(default_spec(), question["text"], limit=1)
    return bool(hits) and hits[0].entry.id in (question["rule"], *question["also"])


def test_the_dev_set_is_well_formed_and_tied_to_source_lines() -> None:
    spec = default_spec()
    questions = dev_questions()
    assert len(questions) >= 40
    for q in questions:
        assert set(q) == {"text", "rule", "also", "source", "lines", "note"}, q
        for wanted in (q["rule"], *q["also"]):
            assert spec.lawbook.get(wanted) or spec.register.get(wanted), wanted
        source = spec.index.get(q["source"])
        assert source is not None, q["source"]
        for line in q["lines"]:
            assert citation_problem(Citation.parse(line), source) is None, q
    assert {q["source"][:3] for q in questions} == {"000", "001", "002", "003", "004"}


def test_the_dev_set_keeps_its_score() -> None:
    missed = [q["text"] for q in dev_questions() if not right_first(q)]
    assert len(dev_questions()) - len(missed) >= DEV_SCORE, missed


def test_the_law_book_asks_players_questions_of_the_rules_players_ask_about() -> None:
    book = default_spec().lawbook
    assert sum(len(rule.asked) for rule in book) >= 150
    for rule_id in ("NAP-3.1.1", "NAP-4.2.1", "NAP-2.2.1", "NAP-4.1.1", "NAP-5.1.1",
                    "NAP-5.2.2", "NAP-9.1.1", "NAP-5.2.5", "NAP-7.2.1", "NAP-8.1.1",
                    "NAP-8.1.2", "NAP-8.2.1", "NAP-7.1.1", "NAP-5.3.2", "NAP-6.1.1",
                    "NAP-6.2.1", "NAP-5.2.3", "NAP-9.3.1", "NAP-9.2.3", "NAP-10.4.1"):
        rule = book.get(rule_id)
        assert rule is not None and rule.asked, rule_id


def test_a_question_asked_under_two_rules_is_reported() -> None:
    book = default_spec().lawbook
    assert not check_lawbook(book)
    twice = "How many CARDS each"  # NAP-4.2.1 asks it; said again, in other case, under 4.2.2
    chapters = []
    for chapter in book.chapters:
        sections = tuple(dataclasses.replace(section, rules=tuple(
            dataclasses.replace(rule, asked=(*rule.asked, twice)) if rule.id == "NAP-4.2.2"
            else rule for rule in section.rules)) for section in chapter.sections)
        chapters.append(dataclasses.replace(chapter, sections=sections))
    errors = check_lawbook(LawBook(tuple(chapters)))
    assert len(errors) == 1
    assert "already asked under NAP-4.2.1" in str(errors[0]), errors
    assert ".asked[" in str(errors[0])


@pytest.mark.parametrize(("typed", "meant"), [
    ("wellingotn", "wellington"), ("misere", "misery"), ("trumsp", "trumps"),
    ("folow suit", "follow suit"), ("widdow", "widow"), ("kity", "kitty"),
])
def test_a_misspelt_word_is_read_as_the_word_meant(typed: str, meant: str) -> None:
    spec = default_spec()
    assert [h.entry.id for h in search(spec, typed, limit=3)] == \
        [h.entry.id for h in search(spec, meant, limit=3)]


def test_the_edit_distance_counts_a_swap_as_one_edit_and_stops_at_its_limit() -> None:
    assert edits("trumsp", "trumps", 1) == 1
    assert edits("folow", "follow", 1) == 1
    assert edits("nap", "pay", 1) == 2  # more than the limit: limit + 1
    assert edits("kitty", "kitty", 0) == 0


def test_short_words_and_known_words_are_never_corrected() -> None:
    known = {"pay": 5, "nap": 5, "wellington": 2}
    assert corrected("nap pa", known) == "nap pa"  # under four letters: left alone
    assert corrected("what would u pay", known) == "what would u pay"
    assert terms(corrected("wot happens if every1 passes", known)) == terms(
        "what happens if everyone passes")


@pytest.mark.parametrize(("question", "decision"), [
    ("what happens if someone revokes", "DEC-107"),
    ("i played out of turn", "DEC-108"),
    ("i dropped a card face up", "DEC-109"),
])
def test_irregular_play_finds_the_decision_that_says_the_sources_are_silent(
        question: str, decision: str) -> None:
    spec = default_spec()
    assert search(spec, question, limit=1)[0].entry.id == decision
    found = spec.register.get(decision)
    assert found is not None and found.table_options and "None of the five sources" in \
        " ".join(found.question.split())


def test_the_issue_s_questions_find_their_rules() -> None:
    spec = default_spec()
    for question, rule in (("can I bid wellington if nobody bid nap", "NAP-5.2.5"),
                           ("how many players can play", "NAP-3.1.1"),
                           ("how much does a nap win", "NAP-9.1.1")):
        assert search(spec, question, limit=1)[0].entry.id == rule, question


def test_a_decision_asking_a_rule_s_question_or_naming_an_alternative_as_a_table_option(
        ) -> None:
    spec = default_spec()
    revoke = spec.register.get("DEC-107")
    assert revoke is not None and not check_register(spec.register, spec.index, spec.lawbook)
    bad = dataclasses.replace(revoke, asked=("MUST I  follow suit",),
                              table_options={**revoke.table_options, "refused": "again"})
    register = dataclasses.replace(spec.register, decisions=tuple(
        bad if d.id == "DEC-107" else d for d in spec.register))
    found = [str(e) for e in check_register(register, spec.index, spec.lawbook)]
    assert len(found) == 2, found
    assert any("asked[0]" in e and "already asked under NAP-8.1.1" in e for e in found), found
    assert any("table_options" in e and "'refused' is already an alternative" in e
               for e in found), found
