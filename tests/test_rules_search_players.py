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

A second set, ``tests/fixtures/questions/holdout2.toml``, was also written blind (by another
writer, from the sources and a plain list of the rules' ids, titles and texts), counted the same
way: 18 of 40 before issue 30's search work, 29 of 40 after the first round of tuning, measured
before the second round saw it; that round fixed the general causes of its misses (an irregular
verb read as a typo, "went" as "want"; a compound's words read apart, "knocked out" as *out*;
"not his turn" not read as out of turn; "higher than" not read as a rank; ...), and its score
is held here.

A third set, ``tests/fixtures/questions/holdout3.toml``, was written blind the same way: 16 of 40
before issue 30's search work, 26 of 40 after the first round of tuning, 29 of 40 after the
second, measured before the third round saw it. That round fixed the general causes of its
misses (a game's name read as the topic, "Peep Nap" pulling the register's "Peep Nap: ..."
decisions; "this round", "last go" read as the auction's rounds; "beat" not read as a rank;
"whose deal" not read as the dealer; "chuck one" not read as an exchange) and added players'
questions to the law book's rules, none copied from the sets; its score is held here.

A fourth set, ``tests/fixtures/questions/holdout4.toml``, written blind the same way while the
third round was tuned and measured once after it, before anything was tuned on it: 23 of 40
before issue 30's search work, 29 of 40 after the first round, 35 of 40 after the third. It is
the measure of the issue's bound on questions the tuning has not seen (35 of 40). 35 of 40
measured blind; 34 after law book 1.2's clearer texts moved a near-tie; 37 after round 4 saw it
(a question the law book asks found first; the suit led not a lead; no card of a suit a void;
a lost misère's payment asked in the law book).

A fifth set, ``tests/fixtures/questions/holdout5.toml``, written blind the same way while the
fourth round was tuned, and measured once after it, before anything was tuned on it: 22 of 40
before issue 30's search work, 29 of 40 after round 4. Blind sets measured after the work
before them: 29 (holdout3), 35 (holdout4), 29 (holdout5): the issue's bound of 35 on unseen
questions is not yet held. Its score is held here as measured, a floor, not the goal.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from napkit.handbook.search import entries, search, terms
from napkit.spec.catalog import default_spec

PLAYERS = Path(__file__).resolve().parent / "fixtures" / "questions" / "players.toml"
HOLDOUT2 = PLAYERS.with_name("holdout2.toml")
HOLDOUT3 = PLAYERS.with_name("holdout3.toml")
HOLDOUT4 = PLAYERS.with_name("holdout4.toml")
HOLDOUT5 = PLAYERS.with_name("holdout5.toml")
#: The least share of the 40 with a right answer first that issue 30 asks for (38 when this
#: test was written).
PLAYERS_SCORE = 35
#: The second blind set's score after the second round of tuning (29 before it).
HOLDOUT2_SCORE = 37
#: The third blind set's score after the third round of tuning (29 before it).
HOLDOUT3_SCORE = 34
#: The fourth blind set's score after the fourth round of tuning (35 measured blind, 34 after
#: law book 1.2).
HOLDOUT4_SCORE = 37
#: The fifth blind set's score, measured before any tuning saw it (issue 30 asks 35).
HOLDOUT5_SCORE = 29


def players_questions(path: Path = PLAYERS) -> list[dict[str, Any]]:
    with path.open("rb") as handle:
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


@pytest.mark.parametrize(("path", "score"), [(HOLDOUT2, HOLDOUT2_SCORE),
                                            (HOLDOUT3, HOLDOUT3_SCORE),
                                            (HOLDOUT4, HOLDOUT4_SCORE),
                                            (HOLDOUT5, HOLDOUT5_SCORE)])
def test_the_later_blind_sets_keep_their_scores(path: Path, score: int) -> None:
    spec = default_spec()
    questions = players_questions(path)
    assert len(questions) == 40
    missed = []
    for q in questions:
        for wanted in (q["rule"], *q.get("also", ())):
            assert spec.lawbook.get(wanted) or spec.register.get(wanted), (q["text"], wanted)
        right, found = right_first(q)
        if not right:
            missed.append(f"{q['text']!r}: wanted {q['rule']}, got {found}")
    assert len(questions) - len(missed) >= score, "\n".join(missed)


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


# The general causes of the second blind set's misses.
def test_an_irregular_verb_is_a_word_not_a_typo() -> None:
    # "went" was read as "want", "came" as "game": words in none of the entries, near another
    assert terms("nap went down") == terms("nap go down")
    assert "game" not in terms("who came first")


def test_a_word_written_apart_is_read_as_that_word_alone() -> None:
    # "Knocked out" was *knockout* and *out*: "how much does a nap pay out" found the knockout
    assert terms("knocked out") == terms("knockout")
    assert terms("pay out") == terms("payout") == terms("pay")
    assert terms("peep nap") == terms("peepnap")


def test_a_mate_is_another_player_not_a_partner() -> None:
    assert terms("my mate") == terms("a guy") == terms("a player")
    assert terms("teammate") == terms("partner") != terms("mate")


def test_not_their_turn_is_out_of_turn_whoever_it_is() -> None:
    out = terms("out of turn")
    assert out[0] in terms("it wasn't his turn") and out[0] in terms("not my go")
    assert out[0] in terms("bid before it got round to her") and out[0] in terms("too early")


def test_higher_than_asks_a_rank_a_max_the_largest_after_the_first_later() -> None:
    assert terms("rank")[0] in terms("is misery higher than four")
    assert terms("max")[0] == terms("largest")[0]
    assert terms("later")[0] in terms("after the first trick")
    assert terms("who gets the pot") == terms("who wins the pot")


# The general causes of the third blind set's misses.
def test_a_games_name_is_context_not_the_topic() -> None:
    # "Peep Nap" in a question matched the register's titles "Peep Nap: ...": the question
    # about the number of players found a Peep Nap decision on another topic first
    spec = default_spec()
    decision = next(e for e in entries(spec) if e.id == "DEC-023")
    assert "peepnap" not in terms(decision.fields["title"])
    assert terms(decision.fields["game"]) == ["peepnap"]
    assert search(spec, "can 3 of us play peep nap", limit=1)[0].entry.id == "NAP-3.1.1"
    # a title that is no game's keeps its words
    revoke = next(e for e in entries(spec) if e.id == "DEC-107")
    assert "game" not in revoke.fields


def test_this_round_and_last_go_are_a_hand_not_a_raise() -> None:
    assert terms("last go") == terms("this round") == terms("hand")
    assert terms("raise")[0] not in terms("double stakes this round")


def test_beat_is_rank_whose_deal_the_dealer_chuck_one_an_exchange() -> None:
    assert terms("rank")[0] in terms("does misery beat nap")
    assert terms("whose deal is it") == terms("dealer")
    assert terms("exchange")[0] in terms("take the floater and chuck one")


# The general causes of the fourth blind set's misses.
def test_a_question_the_law_book_asks_finds_the_entry_it_is_asked_of() -> None:
    # "do i have to trump", asked of NAP-8.1.2, found NAP-7.2.2 (a long text of trumps and
    # obligations) first: 25 of the law book's and register's questions found another entry.
    # A question whose terms two entries both ask is theirs to share, and is left out.
    spec = default_spec()
    asking: dict[frozenset[str], set[str]] = {}
    for entry in entries(spec):
        for question in entry.asked:
            asking.setdefault(frozenset(terms(question)), set()).add(entry.id)
    missed = [(entry.id, question) for entry in entries(spec) for question in entry.asked
              if len(asking[frozenset(terms(question))]) == 1
              and search(spec, question, limit=1)[0].entry.id != entry.id]
    assert not missed, missed
    assert search(spec, "must i trump", limit=1)[0].entry.id == "NAP-8.1.2"


def test_the_suit_led_is_the_suit_a_trick_follows_not_a_lead() -> None:
    # "the suit led" was *suit* and *lead*, and found the rules of the first lead (NAP-7.1.1)
    assert terms("the suit led") == terms("the led suit") == terms("the colour played")
    assert terms("lead")[0] not in terms("the suit that was led")
    assert search(default_spec(), "who takes the trick, a low trump or a high card of the suit "
                  "led", limit=1)[0].entry.id == "NAP-8.2.1"


def test_no_card_of_a_suit_is_a_void_unable_to_follow() -> None:
    void = terms("no card of the suit")[0]
    assert void in terms("no spades") and void in terms("i have none of the suit")
    assert void not in terms("no trumps") and void not in terms("spades")
    assert search(default_spec(), "i have no spades, am i forced to trump",
                  limit=1)[0].entry.id == "NAP-8.1.2"


def test_how_much_asks_the_amount_and_a_lost_misere_has_its_payment() -> None:
    assert terms("how much") == terms("amount") == terms("pay")
    # the made contract's payment asked "how much does misery win"; the defeated one's asked
    # nothing of a misère, so a misère that took a trick found the made contract's payment
    assert search(default_spec(), "my misere took a trick, so what do i pay everyone",
                  limit=1)[0].entry.id == "NAP-9.2.1"
