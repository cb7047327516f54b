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

Rounds 5 to 12 (the second session of item 4) went on the same way, with two fresh blind sets
(four after round 12) each round, written by writers who saw only the sources and the list of
rules, measured once, then tuned on. Each round fixed general causes, each with a test below:
435 more players' questions in the law book (835 in all, written from the sources by a writer
who saw no question set); a question's game is context and restricts the rules in force
(:func:`named_games`, the rulesets' ``called``); a misspelt word keeps its first letter; the
sentence that asks counts more than the story before it (:func:`asked_part`); a misdeal is
answered (DEC-110); and the players' words the sets used for the suit led, a void, a failed
bid, the pool, the score sheet, a count of players, a bid with the floater, a card played out
of turn. Scores measured blind (of 40), and with napkit as it was before round 5:

======  ===========================  ========================  =================
round   sets                          measured blind            before round 5
======  ===========================  ========================  =================
5       holdout6, holdout7           33, 29                    29, 25
6       holdout8, holdout9           32, 30                    27, 27
7       holdout10, holdout11         29, 26                    24, 25
8       holdout12, holdout13         36, 31                    30, 27
9       holdout14, holdout15         35, 31                    30, 29
10      holdout16, holdout17         34, 32                    29, 26
11      holdout18, holdout19         36, 31                    27, 24
12      holdout20 to holdout23       31, 34, 29, 35            25, 27, 23, 27
13      holdout24 to holdout27       33, 33, 34, 31            26, 26, 25, 24
14      holdout28 to holdout31       33, 34, 33, 33            30, 27, 30, 25
14      holdout32 to holdout35       32, 33, 32, 35            23, 26, 27, 26
======  ===========================  ========================  =================

Round 13 added the neighbours' vote (:data:`napkit.handbook.search.NEIGHBOURS`); round 14 read a
game's name as the subject of a question ("when does peep nap end") and a few more players'
words. So the search finds the right rule first for about 83% of unseen questions (33.1 of 40
over the eight sets measured after round 14, from 26.8 before round 5), and within its first
three hits for about 94%; the issue's bound of 35 of 40 first is met by 6 of the 34 sets
measured blind, and is not held. (A round 15 that added 277 story-like questions to the law
book, written by a writer who saw no question set, measured 32, 31, 35, 37 on holdout32 to
holdout35: 3 of 160 more, within the noise, and it turned a plain question of the card that
wins, asserted below, to its neighbour; it was withdrawn.) The misses left are mostly between
two neighbouring rules that both answer in some game (how trumps are fixed or named; whether a
pass is final or the pub game's raising round; the pool or the purchase that feeds it), and a
story that outweighs its question.

Round 16 (the third session of item 4) changed what the search learns from, more than how it
reads:
the 26 blind sets measured up to round 13 (holdout2 to holdout27, 1,040 questions, each tied to
a source line and its answer) became the players' questions of the spec (``spec/questions/``),
their labels reviewed first by a reviewer who saw neither the search nor a later set (one label
moved, to DEC-110; seven gained an ``also``). They are neighbours in the vote, not text of the
rules; a question asked word for word as one of them finds the entry it is filed under. A
decision now shares three quarters of its rule's vote, not all of it: with questions of its
own, a decision on NAP-2.2.2 no longer outvoted NAP-2.2.1 on the pack asked of plainly
(:data:`napkit.handbook.search.DECISION_SHARE`; the hand-written table of
``tests/test_rules_search.py`` holds it). holdout28 to holdout35, measured blind after round
14, stayed out of the spec and measured the change while its settings were chosen (the vote's
weight, tried at 0.5 to 4, kept at 1.0): 35.75 of 40 (33.1 before). Then eight fresh sets,
holdout36 to holdout43, written blind after round 16 was fixed and measured once:

======  ===========================  ===========================  =============  =============
round   sets                          measured blind               before 16      before 5
======  ===========================  ===========================  =============  =============
16      holdout36 to holdout43       37, 39, 37, 38, 38, 35,      35, 35, 34,    29, 29, 28,
                                     37, 38                       36, 34, 32,    31, 31, 29,
                                                                  36, 37         28, 31
======  ===========================  ===========================  =============  =============

37.4 of 40 first (93%), every set at least 35: the issue's bound, met on questions no tuning
saw, by every set; within the first three hits for 314 of 320 (98%). Blind writers ask the
commonest questions alike: 29 of the players' questions are word-for-word twins of one of these
sets' (punctuation and case aside). Without them the sets score 37, 39, 38, 38, 38, 35, 38, 38:
the twins did not make the score. Two causes fixed after the measurement (a question asked word
for word finds its entry; "after the first" trick, read from the development set) changed none
of these eight scores. The misses left are a
misdeal noticed once the bidding had begun (five of 320), whether a trump led must be followed
with a trump, and whether a player may bid again after another outbid them (the pub game's
raising round or one turn each). :data:`BOUND_SETS` holds every one of those sets at 35 or
more.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from napkit.handbook.search import (
    asked_part,
    corrected,
    entries,
    named_games,
    read_as,
    search,
    terms,
)
from napkit.spec.catalog import Spec, default_spec
from napkit.spec.questions import Question, Questions, said

PLAYERS = Path(__file__).resolve().parent / "fixtures" / "questions" / "players.toml"
#: The least share of the 40 with a right answer first that issue 30 asks for (40 now).
PLAYERS_SCORE = 35
#: Each later blind set that is a measure still: the score measured once before any tuning saw
#: it, and the score held now (a floor: the score it has at this commit). holdout28 to holdout35
#: were measured after round 14, holdout36 to holdout43 after round 16 (the file headers say
#: which). holdout2 to holdout27 are no measure now: they are the spec's players' questions
#: (spec/questions/set-NN.json), which the search learns from.
BLIND_SETS: dict[str, tuple[int, int]] = {
    "holdout28": (33, 36), "holdout29": (34, 38), "holdout30": (33, 37), "holdout31": (33, 36),
    "holdout32": (32, 34), "holdout33": (33, 33), "holdout34": (32, 36), "holdout35": (35, 37),
    "holdout36": (37, 37), "holdout37": (39, 39), "holdout38": (37, 37), "holdout39": (38, 38),
    "holdout40": (38, 38), "holdout41": (35, 35), "holdout42": (37, 37), "holdout43": (38, 38),
}
#: The sets written blind after the search was last changed in what it learns from (round 16),
#: each measured once: every one must find the right entry first for at least BOUND of its 40
#: (issue 30's bound), and does.
BOUND_SETS = tuple(f"holdout{n}" for n in range(36, 44))
BOUND = 35


def players_questions(path: Path = PLAYERS) -> list[dict[str, Any]]:
    with path.open("rb") as handle:
        found = tomllib.load(handle)["question"]
    assert isinstance(found, list)
    return found


def right_first(question: dict[str, Any], spec: Spec | None = None) -> tuple[bool, str | None]:
    """Whether the first hit answers ``question`` (its rule, an ``also``, or a decision on one
    of them) in ``spec`` (napkit's own by default), and the first hit's id."""
    spec = default_spec() if spec is None else spec
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


@pytest.mark.parametrize(("name", "scores"), BLIND_SETS.items())
def test_the_later_blind_sets_keep_their_scores(name: str, scores: tuple[int, int]) -> None:
    score = scores[1]
    spec = default_spec()
    questions = players_questions(PLAYERS.with_name(f"{name}.toml"))
    assert len(questions) == 40
    missed = []
    for q in questions:
        for wanted in (q["rule"], *q.get("also", ())):
            assert spec.lawbook.get(wanted) or spec.register.get(wanted), (q["text"], wanted)
        right, found = right_first(q)
        if not right:
            missed.append(f"{q['text']!r}: wanted {q['rule']}, got {found}")
    assert len(questions) - len(missed) >= score, "\n".join(missed)


def test_the_sets_written_after_round_16_each_meet_the_bound() -> None:
    # each measured once, blind, as its header says; the floor above holds it there
    for name in BOUND_SETS:
        blind, held = BLIND_SETS[name]
        assert blind >= BOUND and held >= BOUND, name


def with_players_questions(spec: Spec, keep: Callable[[Question], bool]) -> Spec:
    """``spec`` with only those of its players' questions (spec/questions/) that ``keep``
    keeps, for measuring what they do: a new Spec object, so the search builds its own index."""
    changed = dataclasses.replace(spec)
    # a cached_property's slot, filled as if it had been read
    changed.__dict__["questions"] = Questions(tuple(q for q in spec.questions if keep(q)))
    return changed


def test_the_bound_holds_without_the_twins_of_the_measuring_questions() -> None:
    # Blind writers ask the commonest questions word for word alike ("who starts the bidding,
    # the dealer?" is in three sets): some of the players' questions are twins of a question of
    # the sets that measure the bound. Taken out of what the search learns from, every one of
    # those sets still meets it.
    spec = default_spec()
    measuring = {said(q["text"]) for name in BOUND_SETS
                 for q in players_questions(PLAYERS.with_name(f"{name}.toml"))}
    twin_free = with_players_questions(spec, lambda q: said(q.text) not in measuring)
    assert 0 < len(twin_free.questions) < len(spec.questions)
    for name in BOUND_SETS:
        questions = players_questions(PLAYERS.with_name(f"{name}.toml"))
        right = sum(right_first(q, twin_free)[0] for q in questions)
        assert right >= BOUND, name


def test_a_players_question_asked_word_for_word_finds_its_entry() -> None:
    # however its words are read (a typo corrected, a game's name taken out): before round 16,
    # 9 of the 1,040 did not. A question whose words, read, are a question the law book asks of
    # another entry is a near-tie of the two, left to the vote ("who picks trumsp").
    spec = default_spec()
    book = {frozenset(terms(q)): r.id for r in spec.lawbook for q in r.asked}
    missed = [(q.rule, q.text) for q in spec.questions
              if not right_first({"text": q.text, "rule": q.rule, "also": q.also}, spec)[0]
              and book.get(frozenset(read_as(spec, q.text)), q.rule) == q.rule]
    assert not missed, missed


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


def test_to_decide_is_to_fix_not_to_name() -> None:
    # First read as "choose" (round 1); the later blind sets asked "how are trumps decided"
    # of the first card led (NAP-7.1.1) in nearly every set, and found the naming first: a
    # thing decided is fixed, by whatever fixes it; "who determines" still asks who names.
    assert terms("decide") == terms("fixed") != terms("choose")
    assert terms("determine") == terms("choose")


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
    book = [*((r.id, r.asked) for r in spec.lawbook), *((d.id, d.asked) for d in spec.register)]
    asking: dict[frozenset[str], set[str]] = {}
    for entry, questions in book:
        for question in questions:
            asking.setdefault(frozenset(terms(question)), set()).add(entry)
    missed = [(entry, question) for entry, questions in book for question in questions
              if len(asking[frozenset(terms(question))]) == 1
              and search(spec, question, limit=1)[0].entry.id != entry]
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


# The general causes of the fifth blind set's misses.
def test_a_game_named_is_the_game_asked_about_and_its_rules_come_first() -> None:
    spec = default_spec()
    # the name is no topic: "peep nap how many players" found the widow's deal first (its
    # "Peep Nap") and not the number of players
    assert named_games(spec, "peep nap how many players") == (frozenset({"peep"}),
                                                               "thegame how many players")
    assert search(spec, "peep nap how many players", limit=1)[0].entry.id == "NAP-3.1.1"
    # a name that several games answer to names them all (pagat.com's four floater games;
    # the pub table's game says "floating card", never "floater"); articles do not count
    floaters = {"pagat-floater", "pagat-aylesbury", "pagat-dorset", "pagat-teesside"}
    assert {r.id for r in spec.rulesets.values() if "floater nap" in r.raw.called} == floaters
    assert named_games(spec, "in nap with the floater who names trumps")[0] == floaters
    # a bid of Nap with the floater is a bid, not the game's name, and stays in the question;
    # the floater it names is the floater games' all the same
    assert named_games(spec, "if u lose a nap with the floater where does the money go") == (
        frozenset(floaters), "if u lose a nap with the floater where does the money go")
    assert named_games(spec, "whats the floater in peep nap")[0] == {"peep"}
    # a rule the named game does not have counts for little: Peep Nap has no duty to lead
    # a non-trump (NAP-7.1.4), so its lead obligation (NAP-7.2.2) answers
    hits = search(spec, "peep nap, i called hearts, do i have to lead a heart first", limit=3)
    assert hits[0].entry.id == "NAP-7.2.2"
    assert "NAP-7.1.4" not in [hit.entry.id for hit in hits]


def test_a_misspelt_word_keeps_its_first_letter() -> None:
    # "rather", in no rule, was read as "gather" (one edit): a word whose first letter differs
    # is another word, not a typo of it
    known = {"gather": 3, "trump": 9, "wellington": 2}
    assert corrected("id rather stick a trump on", known) == "i would rather stick a trump on"
    assert corrected("trumsp or wellingotn", known) == "trump or wellington"


def test_a_suit_named_then_led_is_the_suit_led_and_none_of_it_a_void() -> None:
    assert terms("diamonds led") == terms("hearts got led") == terms("the suit led")
    assert terms("void")[0] in terms("hearts got led and i had none")


def test_stuck_with_a_trick_fails_and_before_it_was_his_go_is_out_of_turn() -> None:
    assert terms("fail")[0] in terms("my misery got stuck with a trick")
    assert terms("out of turn")[0] in terms("he slapped his card down before it was his go")


def test_plain_nap_is_the_standard_game_only_as_one_plays_in_it() -> None:
    spec = default_spec()
    # "in nap" is the game of the classic page and pagat.com's standard game, whose trumps
    # are the first card led (NAP-7.1.1), not named (NAP-7.1.2, a rule neither has)
    assert named_games(spec, "in nap who decides trumps")[0] == {"classic", "pagat"}
    assert search(spec, "how do trumps work in nap, does the bidder say a suit",
                  limit=1)[0].entry.id == "NAP-7.1.1"
    # a bid's name alone is a bid ("how much does nap pay"), and the longer name wins
    assert named_games(spec, "how much does nap pay")[0] == frozenset()
    assert named_games(spec, "can i bid wellington without napoleon")[0] == frozenset()
    assert named_games(spec, "playing napoleon can i bid blucher")[0] == {"napoleon"}
    assert named_games(spec, "in peep nap who names trumps")[0] == {"peep"}


def test_fillers_do_not_break_a_phrase_and_players_words_for_a_result() -> None:
    assert terms("who actually gets the pool") == terms("who gets the pool")
    assert terms("declarer")[0] in terms("does the person who won the bid lead")
    assert terms("win")[0] in terms("whose trick is it")
    assert terms("fail")[0] in terms("went 4 and only got 3 tricks")
    assert terms("pay")[0] in terms("do i give each person 5")
    assert terms("take it back") == terms("do we pick it back up") == ["takeback"]
    # picking a card up is taking it (the floater into one's hand)
    assert terms("take")[0] in terms("do i pick it up")


# The general causes of the seventh and eighth blind sets' misses.
def test_the_sentence_that_asks_counts_more_than_the_story_before_it() -> None:
    # "went 4 and only got 3 tricks. what do i owe and who to?": the story's terms (a bid, its
    # tricks) outweighed the one term asked, and the rule of made or defeated came first
    assert asked_part("went 4 and only got 3 tricks. what do i owe and who to?") == (
        "what do i owe and who to?")
    assert asked_part("the kitty is big. who gets it? do i need nap?") == (
        "who gets it? do i need nap?")
    assert asked_part("story without a question mark. then the question") == "then the question"
    assert asked_part("one sentence, what now?") == ""
    assert search(default_spec(), "went 4 and only got 3 tricks. what do i owe and who to?",
                  limit=1)[0].entry.id == "NAP-9.2.1"


def test_a_number_of_us_is_a_count_of_players_not_a_bid() -> None:
    assert terms("can 2 of us play")[0] == "playercount"
    assert "two" not in terms("can 2 of us play")
    assert terms("playercount")[0] in terms("from three to seven players")
    # "8 of us" was a player and the number 8, and found that a pack must be large enough
    assert search(default_spec(), "there are 8 of us, can we all play peep nap or is that too "
                  "many", limit=1)[0].entry.id == "NAP-3.1.1"


def test_still_holding_the_suit_is_following_and_normal_nap_is_the_standard_game() -> None:
    assert terms("revoke")[0] in terms("can i trump when ive still got a card of the suit led")
    assert terms("revoke")[0] in terms("so he had one all along")
    assert named_games(default_spec(), "who decides trumps in normal nap")[0] == {
        "classic", "pagat"}
    assert terms("pile") == terms("pool")


# The general causes of the ninth to the fourteenth blind sets' misses.
def test_a_thing_only_some_games_have_names_them_unless_denied() -> None:
    spec = default_spec()
    floaters = {"pagat-floater", "pagat-aylesbury", "pagat-dorset", "pagat-teesside"}
    # a bid with the floater is a floater game's: a loss is paid to the kitty (NAP-9.2.2)
    assert named_games(spec, "5 of us, i bid nap with the floater and lost")[0] == floaters
    assert named_games(spec, "playing floater who deals")[0] == floaters
    # "no floater" denies it; "a 4 bid, normal nap" names the standard game, not a bid
    assert named_games(spec, "went down on a 4 bid, normal nap no floater. what do i pay?")[
        0] == {"classic", "pagat"}


def test_a_bid_with_the_floater_is_one_thing_and_allowed_asks_as_can_does() -> None:
    with_bid = terms("bid with the floater")[0]
    assert with_bid in terms("can i bid nap with the floater if i never paid to look")
    assert with_bid not in terms("if u lose a nap with the floater where does the money go")
    assert terms("am i allowed to bid blucher") == terms("can i bid blucher")


def test_players_words_for_the_pool_the_left_a_redeal_and_out_of_turn() -> None:
    assert terms("pool")[0] in terms("who gets all the money")
    assert terms("left")[0] in terms("the one next to him")
    assert terms("redeal")[0] in terms("everyone passed, same dealer go again")
    assert terms("double")[0] in terms("do the stakes go up")
    out_of_turn = terms("out of turn")[0]
    assert out_of_turn in terms("he led a card before the bidder did")
    assert "playercount" in terms("can you play with only two")


# The general causes of the fifteenth to the eighteenth blind sets' misses.
def test_players_words_for_the_score_sheet_table_talk_the_ante_and_a_void() -> None:
    sheet = terms("score sheet")[0]
    assert sheet in terms("can we just write points down")
    assert sheet in terms("we dont play for money, can we keep score")
    assert terms("signal")[0] in terms("can i tell my mate to lead a club")
    assert terms("ante")[0] in terms("do we stick another unit in the kitty")
    assert terms("void")[0] in terms("if i havent got the suit thats led")
    assert terms("revoke")[0] in terms("ive still got the 7 of clubs but id rather trump")
    assert search(default_spec(), "we dont want to play for money, can we just write points "
                  "down?", limit=1)[0].entry.id == "NAP-9.6.1"


def test_each_blind_sets_header_records_the_score_it_had_blind() -> None:
    # the record of what was measured blind is the file's own header, written when measured
    for name, (blind, _) in BLIND_SETS.items():
        header = PLAYERS.with_name(f"{name}.toml").read_text(encoding="utf-8").split("\n\n")[0]
        if "Measured once" in header:
            assert f"{blind} of 40" in header, name


# Round 13: the likest questions players ask vote for the entries they are asked of.
def test_many_like_questions_outvote_one_odd_question_of_a_neighbour(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import napkit.handbook.search as searching

    # the law book's questions alone, as in round 13 (the players' questions vote the same way)
    spec = with_players_questions(default_spec(), lambda _: False)
    question = "i've got no clubs and clubs were led. do I have to trump it?"
    assert search(spec, question, limit=1)[0].entry.id == "NAP-8.1.2"
    # without the vote, the likest single question (of the lead obligations) won
    monkeypatch.setattr(searching, "NEIGHBOURS_VOTE", 0.0)
    assert search(spec, question, limit=1)[0].entry.id != "NAP-8.1.2"


# Round 14: the causes of holdout24 to holdout27's misses.
def test_a_games_name_as_the_subject_asks_of_the_match() -> None:
    # "when does peep nap end": the name was taken out, and "end" alone found the auction's end
    spec = default_spec()
    assert terms(named_games(spec, "when does peep nap end")[1]) == terms("match ends")
    assert search(spec, "how does peep nap finish, we've been going three hours",
                  limit=1)[0].entry.id == "NAP-10.4.1"
    assert terms("thegame") == []


def test_got_beat_fails_also_bidding_three_is_an_equal_bid_and_put_it_on_follows() -> None:
    assert terms("fail")[0] in terms("i went nap and got beat")
    assert terms("equal")[0] in terms("can i also bid 3")
    assert terms("revoke")[0] in terms("do i have to put it on")


def test_the_named_games_values_are_listed_first(capsys: pytest.CaptureFixture[str]) -> None:
    from napkit.cli import main

    assert main(["rules", "search", "peep nap: how many players?", "-n", "1"]) == 0
    values = [line.strip() for line in capsys.readouterr().out.splitlines()
              if line.strip().startswith("- ")]
    assert values[0] == "- peep: players = 2-10" and len(values) > 1
    assert main(["rules", "search", "peep nap: how many players?", "-n", "1", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["games"] == ["peep"]
    assert document["results"][0]["values"][0]["rulesets"] == ["peep"]
