"""``napkit rules search``: questions asked in the sources' own words find the right rule (or
decision) first, and the command prints them for reading, as JSON, or one line when nothing
matches.

Each row of :data:`QUESTIONS` is a question a player might ask, written from a line of one of
the five sources (``/work/shared/sources/``, cited as ``FILE-PREFIX Lnn``), and the id that must
come first. The ranking's weights (``napkit.handbook.search.FIELD_WEIGHTS``) were chosen on this
table.
"""

from __future__ import annotations

import json

import pytest
from napkit import paths
from napkit.cli import main
from napkit.handbook.search import search, stem, terms
from napkit.spec.catalog import default_spec

# (question, the id expected first, the source line that inspired it)
QUESTIONS: list[tuple[str, str, str]] = [
    # 000: a rules page for classic Nap
    ("Can Wellington only be bid after a bid of nap has been made?", "NAP-5.2.5", "000 L29"),
    ("Is the deck only shuffled at the beginning and after a successful nap?", "NAP-10.2.1",
     "000 L18"),
    ("Which player cuts the gathered cards?", "NAP-10.2.2", "000 L18"),
    ("What happens if all players pass?", "NAP-5.3.2", "000 L31"),
    ("Does the suit of the first card played become trumps?", "NAP-7.1.1", "000 L36"),
    ("Must I follow suit?", "NAP-8.1.1", "000 L36"),
    ("What can I play if I cannot follow suit?", "NAP-8.1.2", "000 L36"),
    ("Who wins the trick, the highest trump or the highest card of the suit led?", "NAP-8.2.1",
     "000 L38"),
    ("How many stakes is a wellington worth when it is made?", "NAP-9.1.1", "000 L43"),
    ("Can we play with a 24-card deck, ace through nine?", "NAP-2.2.1", "000 L24"),
    ("Who is the dealer of the first hand, chosen at random?", "NAP-4.1.1", "000 L16"),
    # 001: Peep Nap
    ("Does each player ante one chip to the pot every round?", "NAP-10.3.1", "001 L16"),
    ("Can I pay one more chip to peep at the widow card before I bid?", "NAP-6.1.1", "001 L20"),
    ("May the highest bidder exchange one card with the widow?", "NAP-6.3.1", "001 L22"),
    ("Must I lead a trump?", "NAP-7.2.2", "001 L25"),
    ("Does a failed nap double the pot?", "NAP-9.2.3", "001 L37"),
    ("Is the last player remaining with chips the winner?", "NAP-10.4.3", "001 L40"),
    ("Who determines the trump suit?", "NAP-7.1.2", "001 L22"),
    ("How many chips does each player begin with?", "NAP-10.1.2", "001 L13"),
    # 002: the Napoleon article
    ("When the first card fixes trumps, which is Wellington's lowest trump?", "DEC-035",
     "002 L11"),
    ("Is the bidding like Skat, can players outbid each other?", "DEC-034", "002 L5"),
    ("Where does misery rank among the bids?", "DEC-033", "002 L16"),
    ("May the other players collude with each other?", "NAP-1.1.2", "002 L7"),
    # 003: Nap with a floating card
    ("If all hands are thrown in, are the stakes doubled for the next round?", "NAP-9.4.1",
     "003 L7"),
    ("Does the dealer get a free look at the floating card?", "NAP-6.1.2", "003 L11"),
    ("Can a player increase their bid when the bidding goes round the table again?",
     "NAP-5.4.1", "003 L11"),
    ("Who can win the kitty?", "NAP-9.1.2", "003 L15"),
    ("Is a bid with or without the floating card?", "NAP-5.2.4", "003 L7"),
    ("Must a player who bids with the floating card take it?", "DEC-054", "003 L13"),
    # 004: pagat.com
    ("In Purchase Nap, can I discard and draw replacement cards?", "NAP-6.2.1", "004 L60"),
    ("Are the cards dealt three then two, or two then three?", "NAP-4.2.2", "004 L17"),
    ("What does a failed Nap cost?", "NAP-9.2.1", "004 L48"),
    ("Does a lost bid pay into the kitty, times the number of players?", "NAP-9.2.2",
     "004 L85-92"),
    ("Wellington obliges me to lead a non-trump, but all my cards are of one suit: which "
     "trumps may I name?", "NAP-7.1.4", "004 L100"),
    ("Does the turn to deal pass to the left?", "NAP-4.1.2", "004 L19"),
    ("How do the cards rank within a suit?", "NAP-2.1.1", "004 L13"),
    ("Is it one player against a team of all the others?", "NAP-1.1.1", "004 L11"),
    ("What if the stock runs out of cards for a purchase?", "NAP-6.2.2", "004 L60"),
    ("Does each player get just one chance to speak in the bidding?", "NAP-5.1.2",
     "004 L23"),
    ("What does a bid of Mis undertake?", "NAP-5.2.3", "004 L55"),
]

# The issue's own examples, two words each: too short to single out one rule (a failed Nap is
# also NAP-8.3.2, "made or defeated"), so the rule must be among the first three.
TOPICS: list[tuple[str, str]] = [
    ("failed nap", "NAP-9.2.1"),
    ("lead trump", "NAP-7.2.2"),
    ("floater", "NAP-4.3.1"),
    ("throw in", "NAP-5.3.2"),
]


@pytest.mark.parametrize(("question", "expected", "line"), QUESTIONS,
                         ids=[f"{line} {expected}" for _, expected, line in QUESTIONS])
def test_the_right_rule_comes_first(question: str, expected: str, line: str) -> None:
    hits = search(default_spec(), question, limit=5)
    found = [hit.entry.id for hit in hits]
    assert found and found[0] == expected, f"{line}: {question!r} gave {found}"


@pytest.mark.parametrize(("topic", "expected"), TOPICS)
def test_a_topic_in_two_words_finds_its_rule(topic: str, expected: str) -> None:
    assert expected in [hit.entry.id for hit in search(default_spec(), topic, limit=3)]


def test_the_table_is_long_enough_and_cites_every_source() -> None:
    assert len(QUESTIONS) >= 25
    assert {line[:3] for _, _, line in QUESTIONS} == {"000", "001", "002", "003", "004"}


def test_stemming_and_synonyms_meet() -> None:
    assert stem("trumps") == stem("trump") == "trump"
    assert terms("napoleon") == terms("nap")
    assert terms("misère") == terms("mis") == terms("misery")
    assert terms("kitty") == terms("pot") == terms("pool")
    assert terms("floater") == terms("widow")
    assert terms("revoke")[0] in terms("follow suit")
    assert terms("cost") == terms("pay") == terms("payment")
    assert terms("stakes") == terms("chips")


def test_an_id_in_the_question_comes_first() -> None:
    assert search(default_spec(), "what does DEC-017 say", limit=1)[0].entry.id == "DEC-017"


def test_a_payment_rule_shows_each_rulesets_amounts() -> None:
    hit = search(default_spec(), "what does a failed Nap cost?", limit=1)[0]
    values = dict(hit.entry.values)
    classic = next(text for ids, text in values.items() if "classic" in ids.split(", "))
    assert "nap 5" in classic and "wellington 10" in classic


def test_the_command_prints_a_numbered_list_ids_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "search", "must", "I", "lead", "a", "trump?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(" 1. NAP-7.2.2  Lead obligations"), out
    assert " 2. " in out


def test_the_command_writes_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "search", "--json", "--limit", "3", "what does a failed nap cost"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["question"] == "what does a failed nap cost"
    assert [hit["rank"] for hit in found["results"]] == [1, 2, 3]
    first = found["results"][0]
    assert first["id"] == "NAP-9.2.1" and first["kind"] == "rule"
    assert any("classic" in value["rulesets"] for value in first["values"])


def test_no_result_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "search", "xyzzy plugh"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().split("\n")
    assert len(lines) == 1 and "napkit rules list" in lines[0], captured.err
    assert main(["rules", "search", "--json", "the of"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["results"] == []


def test_the_dispute_guide_shows_what_search_prints(capsys: pytest.CaptureFixture[str]) -> None:
    guide = (paths.REPO_ROOT / "docs" / "guides" / "settle-a-dispute.md").read_text(
        encoding="utf-8")
    assert 'napkit rules search "what does a failed Nap cost?" -n 1' in guide
    assert main(["rules", "search", "what does a failed Nap cost?", "-n", "1"]) == 0
    assert capsys.readouterr().out in guide
