"""Players' questions written blind (issue 30, item 4): at least 35 of the 40 questions of
``tests/fixtures/questions/players.toml`` find their rule first with ``napkit rules search``.

The questions were written blind: their writer saw neither the search's code, its tests nor the
handbook it searches, and never ran it (see the file's header); each is tied to the source lines
it asks about and the rule that answers it. Measured before the search saw them: 20 of 40 before
issue 30's search work (players' questions in the law book, typo tolerance), and 27 of 40 after
it (29 counting a decision as the answer on its rule). The tuning that followed fixed general
causes of the misses (a negation lost at its apostrophe, "decide" read as trumps fixed, "Peep
Nap" read as a look, "call Blücher" read as naming trumps, ...), not the questions.

A first hit is right when it is the expected rule, one of ``also``, or a decision whose ``rule``
is one of those: a decision is the answer on its rule where the sources are silent or disagree
(DEC-107, what a revoke costs, is on NAP-8.1.1), so it answers a question about that rule.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from napkit.handbook.search import search, terms
from napkit.spec.catalog import default_spec

PLAYERS = Path(__file__).resolve().parent / "fixtures" / "questions" / "players.toml"
#: The least share of the 40 with a right answer first that issue 30 asks for (38 when this
#: test was written).
PLAYERS_SCORE = 35


def players_questions() -> list[dict[str, Any]]:
    with PLAYERS.open("rb") as handle:
        found = tomllib.load(handle)["question"]
    assert isinstance(found, list)
    return found


def right_first(question: dict[str, Any]) -> tuple[bool, str | None]:
    """Whether the first hit answers ``question`` (its rule, an ``also``, or a decision on one
    of them), and the first hit's id."""
    spec = default_spec()
    hits = search(spec, question["text"], limit=1)
    if not hits:
        return False, None
    first = hits[0].entry
    wanted = (question["rule"], *question.get("also", ()))
    decision = spec.register.get(first.id) if first.kind == "decision" else None
    return first.id in wanted or (decision is not None and decision.rule in wanted), first.id


def test_the_players_questions_are_forty_and_name_rules_that_exist() -> None:
    spec = default_spec()
    questions = players_questions()
    assert len(questions) == 40
    for q in questions:
        for wanted in (q["rule"], *q.get("also", ())):
            assert spec.lawbook.get(wanted), (q["text"], wanted)


def test_at_least_35_of_the_players_questions_find_their_rule_first() -> None:
    missed = []
    for q in players_questions():
        right, found = right_first(q)
        if not right:
            missed.append(f"{q['text']!r}: wanted {q['rule']}, got {found}")
    assert len(players_questions()) - len(missed) >= PLAYERS_SCORE, "\n".join(missed)


def test_a_decision_counts_as_the_answer_on_its_rule() -> None:
    right, found = right_first({"text": "what happens if someone revokes", "rule": "NAP-8.1.1",
                                "also": []})
    assert found == "DEC-107" and right
    right, found = right_first({"text": "what happens if someone revokes", "rule": "NAP-8.1.2",
                                "also": []})
    assert not right


# The general causes of the misses, each read the way the search reads a question.
def test_a_negation_keeps_its_meaning_across_the_apostrophe() -> None:
    # "can't" split at its apostrophe was "can t": two question words, the "cannot" lost;
    # "don't" was "don", met by "done".
    assert terms("I can't follow") == terms("I cannot follow") == terms("unable to follow")
    assert terms("why don't we") == [] and terms("is it done") == ["don"]


def test_a_phrase_does_not_count_a_term_its_own_word_gives() -> None:
    assert terms("follow suit").count(terms("revoke")[0]) == 1


def test_to_decide_is_to_choose_not_to_fix() -> None:
    assert terms("decide") == terms("choose") != terms("fixed")


def test_peep_nap_is_a_game_not_a_look() -> None:
    assert terms("peep")[0] not in terms("peep nap")
    assert terms("peep") == terms("look")


def test_calling_a_bid_is_bidding_and_calling_trumps_is_naming() -> None:
    assert terms("call Blücher") == terms("bid Blucher")
    assert terms("go nap") == terms("bid nap")
    assert terms("call trumps") == terms("name trumps")


def test_players_words_for_the_match_raising_and_equal_bids() -> None:
    assert terms("game end")[0] == terms("match")[0] and terms("stop") == terms("end")
    assert terms("who starts")[0] == terms("first")[0]
    assert terms("put my bid up")[0] == terms("raise")[0]
    assert terms("comes back round")[0] == terms("increase")[0]
    assert terms("the same as") == terms("equal")
    assert terms("yet") == terms("already") == terms("earlier")
