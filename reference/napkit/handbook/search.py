"""Rules by question: find the law book's rules, the register's decisions and the rulesets'
options about a topic asked in words (``napkit rules search "must I lead a trump?"``).

Every rule, decision and option is an :class:`Entry` of a few weighted fields (its title, its
text, the questions players ask about it (the law book's and the register's ``asked``), its
section and chapter, the names of the parameters it reads, the headings of the source passages
it is cited from, a decision's alternatives and table options, each ruleset's values). A
question is first read as players write it (:func:`corrected`: ``every1``, ``wot``, and a
misspelt word, ``wellingotn``, ``trumsp``, read as the nearest word of the entries within an edit
or two, :data:`TYPO_EDITS`); it and the fields are then read into the same terms (:func:`terms`):
words
lower-cased without accents, the common question words dropped, plurals and endings taken off
by a small stemmer (:func:`stem`: *trumps*, *leading*, *failed* become *trump*, *lead*,
*fail*), and the words Nap players use for one thing made one term by the synonym table
(:data:`SYNONYMS`). The entries are ranked by BM25 over the weighted fields (BM25F, with
:data:`FIELD_WEIGHTS`, :data:`K1` and :data:`B`), the score multiplied by a prior for the kind of
entry (:data:`KIND_WEIGHTS`: a rule before the decisions and options about it) and by a bonus
for a title that holds the question (:data:`TITLE_COVER`) and for a question players ask about
the entry that is like it (:data:`ASKED_MATCH`); a question that names an id (``NAP-9.2.1``,
``DEC-017``) puts that entry first. A question that names a game ("peep nap: must I lead a
trump?", the rulesets' ``called``) is read as asked of that game (:func:`named_games`): the name
is not its topic, and what that game does not have counts for little (:data:`OUT_OF_GAME`).
Where a question tells a story before it asks, the sentence that asks counts twice
(:func:`asked_part`). The questions players ask likest the question, of all the entries, vote
for the entries they are asked of (:data:`NEIGHBOURS`): the law book's few ``asked`` and the
spec's players' questions (``spec/questions/``, :mod:`napkit.spec.questions`), the many heard
as asked, each filed under its answer. A question asked word for word as one of them finds the
entry it is filed under (:data:`ASKED_EXACT`).

These numbers were first chosen by measuring the table in ``tests/test_rules_search.py`` and
the development set ``tests/fixtures/questions/dev.toml``; since then each round of work fixed
the general causes of the misses of questions written blind, in players' words, by writers who
saw only the sources and a list of the rules (``tests/fixtures/questions/players.toml`` and
``holdout2.toml`` to ``holdout43.toml``), and was measured on sets its work had not seen; the
sets measured up to round 13 are now the players' questions the search learns from. The rounds,
their causes and the scores measured blind are in ``tests/test_rules_search_players.py``.

A hit carries each ruleset's value where the entry has one: the resolved parameters a rule
reads (a payment rule: each ruleset's amount per bid), an option's choices, a decision's
default and the rulesets that rely on it.

>>> from napkit.spec.catalog import default_spec
>>> from napkit.handbook.search import search, terms
>>> [hit.entry.id for hit in search(default_spec(), "must I follow suit?", limit=1)]
['NAP-8.1.1']
>>> terms("Trumps led by the declarer")
['trump', 'lead', 'declarer']
"""

from __future__ import annotations

import math
import re
import textwrap
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from napkit.spec.catalog import Spec
from napkit.spec.lawbook import Rule
from napkit.spec.loading import JSON, JSONObject
from napkit.spec.questions import said
from napkit.spec.render import specific_values
from napkit.spec.rulesets import Ruleset

__all__ = ["FIELD_WEIGHTS", "KIND_WEIGHTS", "SYNONYMS", "Entry", "Hit", "asked_part", "entries",
           "named_games", "read_as", "result_document", "result_lines", "search", "stem",
           "terms"]

# --- the synonym table ---------------------------------------------------------------------------
#: The words Nap players (and the five sources) use for one thing. Each group's first word is
#: the term the others are read as; a group may hold phrases ("follow suit"), which add that
#: term beside their own words; all are stemmed as the text is. Two choices: a
#: *kitty* is the pool, not the widow (in the sources the kitty is the pool the floater game's
#: losses are paid into, 004 L76 and 003 L11, and the floater is the widow); and *stake* is a
#: unit of money, as in "payouts are done in stakes" (000 L13), so it is grouped with the units,
#: while *cost*, *owe*, *payout* and *payment* are *pay*, and so is *how much*, as players ask what
#: a bid pays ("how much do I win"); *of us* is players ("can 3 of us play"); a suit's name is
#: *suit* ("must I lead a heart?"); a *teammate* is a partner, whom Nap has none of (004 L11),
#: but a *mate* or a *guy* is another player at the table ("my mate led").
#: Read from issue 30's blind players' questions: to *determine* is to choose (the first
#: dealer, trumps: 003 L13 "determines"), but a thing *decided* is fixed, by whatever fixes it
#: ("how are trumps decided" asks of the first card led: the later blind sets); the *game*
#: that ends or starts is the match (000 L18, L46; 003 L11), and it *ends* or *stops*
#: (NAP-10.4.1); "who starts" asks who
#: is *first* to act; "the same as" a bid is an *equal* one; a bid needed *already* or *yet* is
#: an *earlier* one (002 L6 "beforehand", 004 L28 "already"); to *put up* a bid when it comes
#: *back round* is to raise it (003 L11 "increase").
#: Read from the second blind set's misses (the general causes, not the questions): an action
#: *not their turn*, *before their turn*, *before it got round to them*, *too early* is one
#: *out of turn* (the register's words, DEC-108); a bid *higher* or *lower than* another asks
#: its *rank* (NAP-5.2.1 "rank above"); a *max* is the *largest* number (DEC-070); *after the
#: first* trick is a *later* one (NAP-8.1.3); "who gets" the kitty asks who *wins* it (003 L15
#: "who can win the kitty"); and to *pay out* is a payout (000 L13), not a player knocked out.
#: Read from the fourth blind set's misses: the *suit led* (the suit of a trick's first card,
#: 000 L38 "the suit lead", 002 L8 "the colour played") is one thing, not a *lead* (the first
#: card of the hand, NAP-7.2); to hold *no card of the suit* (004 L38), *no hearts*, is to be
#: *void*, unable to follow (NAP-8.1.2); and *how much* asks the *amount* paid (NAP-9.1.1,
#: NAP-9.2.1 "pays that amount").
_SUITS = ("heart", "spade", "diamond", "club")
_COUNTS = (*"23456789", "10", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten")  # a number of players

SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("nap", "napoleon", "five trick", "all five trick"),
    ("peepnap", "peep nap"),
    ("misere", "mis", "misery", "nullo", "lose every trick", "no trick"),
    ("widow", "floater", "float", "floating card", "blind", "spare card", "card in the middle",
     "middle card"),
    ("pool", "kitty", "pot", "jackpot", "pile", "all the money", "all that money"),
    ("revoke", "follow suit", "renege", "follow", "declare colour", "had one all along",
     "had one the whole time", "still got a card of", "still have a card of", "still got one of",
     "still have one of", "still had one", "still got a card in", "still have a card in",
     "still got the", "still have the", "still had the", "put it on", "put one on",
     *(f"{when}{verb} a {suit}{but}" for suit in _SUITS
       for verb in ("had", "have", "got") for when, but in (("still ", ""), ("", " but")))),
    ("pay", "cost", "owe", "payout", "pay out", "payment", "price", "charge", "worth", "collect",
     "receive", "paid", "how much", "amount", "give each", "give every", "give everyone",
     "off each", "off every", "off everyone"),
    ("unit", "stake", "chip", "counter", "token", "point", "cent", "money", "bet"),
    ("trump", "trump suit"),
    ("suit", "colour", "color", "heart", "spade", "diamond", "club"),
    ("partner", "partnership", "team", "teammate"),
    ("pack", "deck"),
    ("fail", "defeat", "lose", "lost", "beaten", "failure", "unsuccessful", "go down",
     "stuck with", "fall short", "short of", "only got", "only took", "only made", "only won",
     "only get", "only take", "only make", "only win", "got beat", "get beat", "got beaten"),
    ("make", "made", "succeed", "success", "successful", "fulfil", "fulfill"),
    ("declarer", "bidder", "playmaker", "bid winner", "high bidder", "highest bidder",
     "game maker", "contractor", "won the bid", "win the bid", "won the auction",
     "win the auction", "won the bidding", "win the bidding", "winner of the bid",
     "winner of the auction", "winner of the bidding"),
    ("opponent", "other player", "defender", "each player", "every player"),
    ("look", "peek", "peep", "view", "see", "seen", "glance"),
    ("exchange", "swap", "substitute", "switch", "chuck one", "throw one", "throw away",
     "get rid of", "ditch one", "bin one"),
    ("purchase", "buy", "bought", "draw", "redraw", "replacement", "discard and draw"),
    ("throwin", "throw in", "thrown in", "all pass", "all player pass", "everyone pass",
     "everybody pass", "no bids", "redeal", "passed out", "no one bids", "every player pass",
     "nobody bids", "deal again", "dealer go again", "same dealer"),
    ("name", "call", "choose", "determine", "nominate", "pick"),
    ("bid", "announce", "announcement", "contract", "auction", "bidding"),
    ("win", "won", "capture", "take", "took", "taken", "who get", "scoop", "whose trick",
     "pick up", "pick it up"),
    ("lead", "led", "first card"),
    ("lowest", "smallest"),
    ("left", "next to"),
    ("fix", "become", "settle", "decide"),
    ("packet", "batch", "bundle", "three then two", "two then three", "one at a time"),
    ("duty", "must", "obligation", "oblige", "require", "requirement", "have to", "bound",
     "compulsory", "forced"),
    ("highest", "biggest", "top"),
    ("maximum", "max", "most", "largest", "limit", "too many"),
    ("rank", "higher than", "lower than", "above", "below", "outrank", "beat", "trump a",
     "bigger than", "better than", "over a", "over an"),
    ("equal", "same as", "also bid", "same bid", "bid the same", "say the same"),
    ("deal", "dealt"),
    ("dealer", "whose deal", "who deal", "turn to deal"),
    ("hand", "this round", "last round", "next round", "this go", "last go", "next go",
     "previous round", "previous go"),
    ("ante", "buy-in", "buy in", "chip in", "put a chip in", "another unit", "unit in the kitty",
     "unit into the kitty", "chip in the pot"),
    ("shuffle", "mix"),
    ("knockout", "knock out", "knocked out", "eliminate", "bust", "broke", "bankrupt",
     "run out of chip", "no chip left"),
    ("match", "session", "rubber", "end the game", "game end", "start of the game",
     "thegame end", "thegame finish", "thegame stop", "thegame over",
     "beginning of the game", "whole game"),
    ("raise", "increase", "outbid", "go again", "second round", "round again", "back round",
     "around again", "back around", "put up", "bid up", "up my bid", "second go", "bump up",
     "bump it up"),
    ("double", "twice", "stake go up", "stakes go up"),
    ("reduce", "shorten", "strip", "smaller pack", "low card"),
    ("player", "people", "seat", "of us", "mate", "guy", "bloke", "person"),
    ("unable", "cannot", "not able", "can not"),
    ("start", "begin", "beginning", "initial", "outset"),
    ("first", "who start", "who begin", "kick off", "kicks off"),
    ("earlier", "beforehand", "already", "yet", "previous", "previously"),
    ("end", "stop", "finish"),
    ("later", "after the first", "subsequent"),
    ("outofturn", "out of turn", "not their turn", "not their go", "before their turn",
     "before their go", "before it was their turn", "before it got round to their",
     "before it came round to their", "before it came to their", "too early", "too soon",
     "before it was their go", "before it was their turn", "when it was not their go",
     "when it was not their turn", "led before", "played before", "lead before", "play before",
     "led a card before", "played a card before", "before the bidder did",
     "before the declarer did", "before the winner did"),
    ("takeback", "take back", "take it back", "pick it back up", "put it back", "put back"),
    ("playercount", *(f"{n} {who}" for n in _COUNTS for who in ("of us", "player", "people")),
     *(f"{play} with {only}{n}" for n in _COUNTS
       for play in ("play", "playing") for only in ("", "only "))),
    ("bidwith", "bid with the widow", "bid with the floater", "bid with the float",
     "say with the floater", "call with the floater",
     *(f"{verb} {bid} with the {card}" for verb in ("bid", "say", "call", "go")
       for bid in ("nap", "three", "four", "five", "3", "4", "5")
       for card in ("floater", "float", "widow"))),
    ("suitlead", "suit led", "led suit", "suit that was led", "suit played", "colour played",
     "colour led", "suit that was played",
     "suit that is led", "suit thats led", "suit that s led",
     *(f"{suit} {verb}led" for suit in (*_SUITS, "trump")
       for verb in ("", "got ", "was ", "were ", "is ", "are ", "get ")
       if suit != "trump" or verb),  # "trumps led by the declarer": the declarer's lead
     *(f"{suit} lead" for suit in _SUITS)),
    ("void", "no card of the suit", "none of the suit", "no heart", "no spade", "no diamond",
     "no club", "not have the colour", "not have the suit", "had none", "have none",
     "got none", "has none", "not got the suit", "not got any", "not have any"),
    ("fair", "collude", "collusion", "signal", "cheat", "pass information", "cooperate",
     "tell their mate", "tell their partner", "tell each other", "chat about", "talk about",
     "table talk"),
    ("scoresheet", "score sheet", "write points", "write the points", "write down points",
     "points down", "keep points", "keeping points", "play for points", "keep score",
     "keeping score", "score on a sheet", "not for money", "not play for money"),
    ("one", "1"), ("two", "2"), ("three", "3"), ("four", "4"), ("five", "5"),
    ("ten", "10"), ("twenty", "20"),
)

#: A phrase of the synonym table that is one word of its group written apart (*peep nap* is
#: *peepnap*, *pay out* *payout*, *knocked out* *knockout*, *out of turn* *outofturn*) is read
#: as that word alone, its words not read apart: Peep Nap is a game, not a look (the register's
#: titles "Peep Nap: ..." are not about looking), and a payout is not a player knocked *out*.
#: Other phrases add their term beside their words (Purchase Nap and the floater games keep
#: theirs: questions about them are mostly about the purchase and the floater).

#: The terms whose phrases are read as the term alone, their words not read apart, as a
#: compound's are: "this round", "last go" are a hand, not the auction's rounds nor a raise
#: (NAP-5.4.1 "Raising after the first round"); "whose deal next" asks the dealer, not who
#: leads *next* (NAP-8.1.3). Read from the third blind set's misses. "The suit led" is the
#: suit a trick follows, not a lead (NAP-7.1.1 "the first card led"): read from the fourth.
#: A trick *after the first* is a later one, not the first (NAP-8.1.3, not NAP-7.2.1): once the
#: players' questions were filed, their many "who leads after the first trick" outvoted "who
#: leads the first trick" (the development set, round 16).
ALONE: frozenset[str] = frozenset({"hand", "dealer", "suitlead", "takeback", "playercount",
                                   "later"})

#: A verb that makes a bid where a bid's name follows it: "call Nap" (003 L15: "a player who
#: calls and makes Nap"), "go nap", "say nap", read as the term *bid*, not as naming trumps.
BID_VERBS = frozenset({"call", "go", "say", "said"})
BID_NAMES = ("nap", "napoleon", "wellington", "blucher", "bonaparte", "misere", "misery", "mis",
             "two", "three", "four")

#: Words that carry no topic in a question ("what does ... cost?", "must I ...?"); "am I
#: allowed to" asks what "can I" does (read from the eighth to tenth blind sets' misses: "when
#: am I allowed to call Blücher" found a rule whose text says "more is allowed").
_STOPWORDS = """
a an the is are was were be been being am do does did doing i me my mine we us our you your he
she him her his they them their it its this that these those there here what which who whom
whose when where why how if of to in on at for by from into onto about as than so then many much
and or but not no nor can could may might shall should will would has have had get gets got
any some one ones own same such just also very too s t u ur ya wot wat im ive
nobody everybody everyone someone somebody anyone anybody allow allowed thegame
"""
STOPWORDS = frozenset(_STOPWORDS.split())

#: The weight of each field in BM25F (a word in the title counts as this many in the text).
FIELD_WEIGHTS: Mapping[str, float] = {
    "title": 3.0,
    "text": 1.0,
    "asked": 0.5,
    "section": 1.5,
    "params": 2.0,
    "citations": 0.5,
    "alternatives": 0.25,
    "values": 0.6,
    "game": 0.5,
}

#: How much a decision's or an option's score counts beside a rule's: a question is most often
#: answered by the rule, and the decisions and options about it come next.
KIND_WEIGHTS: Mapping[str, float] = {"rule": 1.0, "decision": 0.8, "option": 0.5}
#: How much a rule of house play (``origin = "house"``: points on a score sheet, the dealer
#: stuck), in force in no source's game, counts beside a source's: a question asked in
#: players' words is most often about the games the sources describe.
HOUSE_WEIGHT = 0.5
#: How much a title that holds the whole question multiplies the score (by the square of the
#: share of the question it holds).
TITLE_COVER = 2.0

#: How much a question players ask about an entry (``asked`` in the law book) that is like the
#: question multiplies the score: by the square of their likeness (the idf of the terms they
#: share over that of each, as a cosine), the likest of the entry's questions counting.
ASKED_MATCH = 3.0
ASKED_POWER = 2.0
#: What a question whose terms are all those of a question players ask about an entry, and no
#: more, adds to the entry's score: the law book says which rule answers it, so the entry comes
#: first (after an id named), whatever the length and words of the texts about it ("do i have
#: to trump", asked of NAP-8.1.2, found NAP-7.2.2's long text of trumps and obligations first).
ASKED_EXACT = 500.0

#: How many of the questions players ask, the likest the question of all the entries', vote for
#: the entries they are asked of, and how much a whole vote multiplies an entry's score
#: (:func:`_votes`): where :data:`ASKED_MATCH` counts an entry's likest question only, the vote
#: counts how many of the likest questions are that entry's, so that one odd question asked of
#: a neighbour does not outweigh many like it (12 and 1.0: the best of a search over the sets
#: measured before round 13 that keeps the table of tests/test_rules_search.py whole).
NEIGHBOURS = 12
NEIGHBOURS_VOTE = 1.0
#: The share of its rule's vote a decision has beside its own (a decision on NAP-5.1.2 answers a
#: question of NAP-5.1.2). Not all of it: since the players' questions (spec/questions/) gave
#: decisions questions of their own, a decision with both outvoted the rule beside its own
#: ("can we play with a 24-card deck" found DEC-050, on NAP-2.2.2, before NAP-2.2.1). 0.75 keeps
#: the table of tests/test_rules_search.py whole and changes no measured set's score.
DECISION_SHARE = 0.75

#: BM25's saturation of a term's frequency, and how much an entry's length counts.
K1 = 1.2
B = 0.3

#: Irregular forms, read as their word; they are words, never read as a typo of another
#: (:func:`corrected`: "went" was "want", "came" "game", "told" "hold").
_IRREGULAR = {"led": "lead", "paid": "pay", "won": "win", "lost": "lose", "dealt": "deal",
              "bought": "buy", "took": "take", "taken": "take", "seen": "see", "saw": "see",
              "knew": "know", "thrown": "throw", "threw": "throw", "better": "good",
              "best": "good", "pays": "pay", "paying": "pay", "payer": "pay", "went": "go",
              "gone": "go", "came": "come", "gave": "give", "given": "give", "told": "tell",
              "chose": "choose", "chosen": "choose", "began": "begin", "begun": "begin",
              "ran": "run", "sat": "sit", "stood": "stand", "laid": "lay", "held": "hold",
              "kept": "keep", "sold": "sell", "shown": "show", "drew": "draw", "drawn": "draw"}
#: How players write some words in a hurry, read as the words they stand for before anything
#: else (``wot`` and ``u`` are question words, dropped as ``what`` and ``you`` are).
SPELLINGS: Mapping[str, str] = {
    "every1": "everyone", "evry1": "everyone", "some1": "someone", "no1": "no one",
    "any1": "anyone", "ppl": "people", "peeps": "people", "plz": "please", "cos": "because",
    "coz": "because", "b4": "before", "2nd": "second", "1st": "first", "thru": "through",
    "cant": "cannot", "wont": "will not", "dont": "do not", "doesnt": "does not",
    "isnt": "is not", "wasnt": "was not", "havent": "have not", "aint": "is not",
    "id": "i would", "r": "are", "n": "and",
}
#: A person's pronoun, read as *their* where a phrase of the synonym table is looked for, so
#: that it is met whoever is meant: "not his turn", "before my turn", "round to him" (they are
#: question words, not terms, otherwise).
PERSONS = frozenset({"my", "mine", "your", "yours", "ur", "his", "her", "hers", "their",
                     "theirs", "our", "me", "him", "you", "u", "them"})
#: A word of a question that is in none of the entries is read as the nearest word that is,
#: if one is this close (edits: a letter added, dropped, changed, or two swapped), by the
#: word's length: none under 4 letters, where a slip makes another word too easily.
TYPO_EDITS: tuple[tuple[int, int], ...] = ((4, 1), (8, 2))

_ID = re.compile(r"\b(NAP-[0-9]+(?:\.[0-9]+)*|DEC-[0-9]{3})\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")
_NON = re.compile(r"\bnon[- ](?=[a-z])")
_NOT = re.compile(r"n['\u2019]t\b")


def _plain(text: str) -> str:
    """Lower case, accents taken off (Blücher, misère), hyphens and apostrophes as spaces, but
    for a negation's (*can't* is *cant*, read by :data:`SPELLINGS`)."""
    plain = text.lower()
    if not plain.isascii():  # the index reads every entry's fields at each start
        decomposed = unicodedata.normalize("NFKD", plain)
        plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    # "can't" split at its apostrophe is "can t": two question words, the "cannot" lost
    plain = _NOT.sub("nt", plain)
    return _NON.sub("non", plain)  # a non-trump is not a trump: one word


def _plain_words(text: str) -> list[str]:
    """The words of ``text`` in plain letters, players' spellings (:data:`SPELLINGS`) read: the
    same for a question and for the entries' fields (the law book asks "i cant ...")."""
    return [part for word in _WORD.findall(_plain(text))
            for part in SPELLINGS.get(word, word).split()]


@cache
def stem(word: str) -> str:
    """A word without its plural or verb ending, so that the forms of a word meet.

    >>> from napkit.handbook.search import stem
    >>> [stem(w) for w in ("trumps", "leading", "failed", "tricks", "bidding", "shuffled")]
    ['trump', 'lead', 'fail', 'trick', 'bid', 'shuffl']
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.isdigit() or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "shes", "ches", "xes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[:-len(ending)]
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]
            break
    if word.endswith("ment") and len(word) > 7:
        word = word[:-4]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def edits(one: str, other: str, limit: int) -> int:
    """The number of edits (a letter added, dropped or changed, or two neighbours swapped) that
    make ``one`` into ``other``, or ``limit + 1`` where it is more than ``limit``.

    >>> from napkit.handbook.search import edits
    >>> edits("wellingotn", "wellington", 2), edits("folow", "follow", 2), edits("nap", "pay", 1)
    (1, 1, 2)
    """
    if abs(len(one) - len(other)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(other) + 1))
    for i, a in enumerate(one, 1):
        current = [i] + [0] * len(other)
        for j, b in enumerate(other, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return min(row[-1], limit + 1)


def _allowed_edits(word: str) -> int:
    allowed = 0
    for length, count in TYPO_EDITS:
        if len(word) >= length:
            allowed = count
    return allowed


def corrected(text: str, known: Mapping[str, int]) -> str:
    """``text`` in plain words, players' spellings (:data:`SPELLINGS`) read, and each word that
    is not in ``known`` (a word of the entries, with its count), nor a form of one (its stem
    known: *mates* where *mate* is), nor a question word, read as the nearest known word
    (:data:`TYPO_EDITS`; the more common of two as near).

    >>> from napkit.handbook.search import corrected
    >>> corrected("can i bid wellingotn if every1 passes?", {"wellington": 3, "pass": 9})
    'can i bid wellington if everyone passes'
    """
    words = _plain_words(text)
    out = []
    for word in words:
        allowed = _allowed_edits(word)
        if (word in known or stem(word) in known or word in STOPWORDS or word in _IRREGULAR
                or not allowed or not word.isalpha()):
            out.append(word)
            continue
        best: tuple[int, int, str] | None = None
        for candidate, count in known.items():
            if candidate[:1] != word[:1]:
                continue
            distance = edits(word, candidate, allowed)
            if distance <= allowed and (best is None or (distance, -count) < best[:2]):
                best = (distance, -count, candidate)
        out.append(best[2] if best else word)
    return " ".join(out)


def _words(text: str) -> list[str]:
    return [_phrase_word(w) for w in _WORD.findall(_plain(text))]


def _phrase_word(word: str) -> str:
    """A word as phrases of the synonym table are looked for: stemmed, a person's pronoun
    read as *their* (:data:`PERSONS`)."""
    return "their" if word in PERSONS else stem(word)


@cache
def _bid_names() -> frozenset[str]:
    words, _, _ = _synonym_tables()
    return frozenset(words.get(stem(name), stem(name)) for name in BID_NAMES)


@cache
def _synonym_tables() -> tuple[dict[str, str], dict[tuple[str, ...], str],
                               frozenset[tuple[str, ...]]]:
    """Single words to their group's term; phrases (as stemmed words) to their group's term;
    the phrases that are a word of their group written apart (read as it alone)."""
    words: dict[str, str] = {}
    phrases: dict[tuple[str, ...], str] = {}
    for group in SYNONYMS:
        head = stem(group[0])
        for member in group:
            parts = tuple(_words(member))
            if len(parts) == 1:
                words.setdefault(parts[0], head)
            elif parts:
                phrases.setdefault(parts, head)
    compounds = frozenset(parts for parts, head in phrases.items()
                          if head in ALONE
                          or (words.get("".join(parts), head) == head
                              and ("".join(parts) in words or "".join(parts) == head)))
    # A phrase one of whose words is already its term ("follow suit": "follow" is "revoke")
    # would count that term twice (a compound's words are not read).
    return words, {parts: head for parts, head in phrases.items()
                   if parts in compounds or all(words.get(part) != head for part in parts)
                   }, compounds


@cache
def _phrases_by_first() -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """The synonym table's phrases by their first word, in the table's order: a text's words
    are each tried against the few phrases that start with them, not against them all (the
    index reads every rule's text and questions so at every search)."""
    _, phrases, _ = _synonym_tables()
    found: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, head in phrases.items():
        found.setdefault(phrase[0], []).append((phrase, head))
    return {first: tuple(these) for first, these in found.items()}


def terms(text: str) -> list[str]:
    """The search terms of ``text``: stemmed words, synonyms read as their group's term, a
    phrase of the synonym table adding its term (a word written apart, :data:`SYNONYMS`,
    instead of its words), a verb of :data:`BID_VERBS` before a bid's name read as *bid*,
    question words dropped.

    >>> from napkit.handbook.search import terms
    >>> terms("can't follow suit in peep nap"), terms("when can I call Blücher")
    (['peepnap', 'unabl', 'revok', 'suit'], ['bid', 'blucher'])
    """
    words_map, _, compounds = _synonym_tables()
    by_first = _phrases_by_first()
    bid_names = _bid_names()
    plain = [word for word in _plain_words(text) if word not in FILLERS]
    raw = [_phrase_word(w) for w in plain]
    out: list[str] = []
    named: set[int] = set()  # the places of the words of a compound, not read apart
    for n, word in enumerate(raw):
        for phrase, head in by_first.get(word, ()):
            if tuple(raw[n:n + len(phrase)]) == phrase:
                out.append(head)
                if phrase in compounds:
                    named.update(range(n, n + len(phrase)))
    kept = [stemmed for n, (word, stemmed) in enumerate(zip(plain, raw, strict=True))
            if not (word in STOPWORDS or stemmed in STOPWORDS or n in named)]
    for n, stemmed in enumerate(kept):
        following = words_map.get(kept[n + 1], kept[n + 1]) if n + 1 < len(kept) else ""
        # "call Blücher", "go nap": a bid made, not trumps named
        out.append("bid" if stemmed in BID_VERBS and following in bid_names
                   else words_map.get(stemmed, stemmed))
    return out


# --- what is searched ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One thing a question can find: a rule, a decision or an option.

    ``id`` is the rule's or decision's id, or the option's name; ``rule`` the rule a decision or
    option is about; ``values`` each ruleset's value, as (ruleset ids, text) pairs, rulesets that
    agree given together (a rule: the values it reads, with the default options; a decision:
    its default, for the rulesets that rely on it; an option: its choices, ``*`` on the
    default); ``notes`` more (label, text) pairs (a decision: the rulesets that offer it as an
    option)."""

    kind: str
    id: str
    title: str
    text: str
    rule: str | None
    fields: Mapping[str, str]
    values: tuple[tuple[str, str], ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    house: bool = False  # a rule of house play, in no source (HOUSE_WEIGHT)
    # the questions players ask about it: the law book's asked and the players' questions filed
    # under it (spec/questions/), read by ASKED_MATCH, ASKED_EXACT and the neighbours' vote
    asked: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hit:
    """An entry found, with its score (higher is better) and the terms it matched."""

    entry: Entry
    score: float
    matched: tuple[str, ...] = field(default=())


def entries(spec: Spec) -> list[Entry]:
    """Every rule of the law book, decision of the register and option of a ruleset that no
    decision offers (those are their decision's), in that order."""
    return list(_entries(spec))


def _entries(spec: Spec) -> tuple[Entry, ...]:
    return _index(spec).entries


def _make_entries(spec: Spec) -> tuple[Entry, ...]:
    found: list[Entry] = []
    # the players' questions are neighbours to vote (NEIGHBOURS), not words of the entry's text:
    # the law book's few asked are its fields, these many are not
    heard = spec.questions
    resolved = {rid: ruleset.resolve() for rid, ruleset in spec.rulesets.items()}
    for rule in spec.lawbook:
        chapter = next(c for c in spec.lawbook.chapters if c.id == rule.chapter_id)
        cited = _cited_sections(spec, [r for r in spec.rulesets.values() if rule.id in r.rules],
                                rule.id)
        values = _rule_values(spec, rule, resolved)
        found.append(Entry(
            "rule", rule.id, rule.title, rule.text, None,
            {"title": rule.title, "text": rule.text,
             "asked": "\n".join(rule.asked),
             "section": f"{rule.section_title} {chapter.title}",
             "params": " ".join(p.replace("_", " ") for p in rule.params),
             "citations": cited, "values": " ".join(text for _, text in values)},
            values, house=rule.house, asked=rule.asked + heard.of(rule.id)))
    game_words = _game_words(spec)
    for decision in spec.register:
        source = spec.index.get(decision.source)
        headings = {s.title.strip("[]") for c in decision.lines
                    if source and (s := source.section_at(c.first))}
        alternatives = " ".join(f"{k.replace('-', ' ')} {v}" for k, v in
                                (*decision.alternatives.items(),
                                 *decision.table_options.items()))
        offered = [f"{r.id} (option {o.name})" for r in spec.rulesets.values()
                   for o in r.options.values() if o.decision == decision.id]
        relying = [r.id for r in spec.rulesets.values() if decision.id in r.decision_ids()]
        reading = decision.alternatives.get(decision.default, "")
        values = ((", ".join(relying), f"{decision.default}: {reading}"),) if relying else ()
        notes: tuple[tuple[str, str], ...] = (
            (("offered as", ", ".join(offered)),) if offered else ())
        if decision.table_options:  # what a table may agree on instead (napkit does not play it)
            notes += (("a table may agree instead",
                       f"{', '.join(decision.table_options)} (napkit rules decisions "
                       f"{decision.id})"),)
        found.append(Entry(
            "decision", decision.id, decision.title, decision.question, decision.rule,
            {**_title_fields(decision.title, game_words),
             "text": decision.question, "alternatives": alternatives,
             "asked": "\n".join(decision.asked),
             "citations": " ".join(sorted(headings))},
            values, notes, asked=decision.asked + heard.of(decision.id)))
    options: dict[str, list[Ruleset]] = {}
    for ruleset in spec.rulesets.values():
        for name, option in ruleset.options.items():
            if option.decision is None:
                options.setdefault(name, []).append(ruleset)
    for name, offering in options.items():
        option = offering[0].options[name]
        choices = " ".join(f"{k.replace('-', ' ')} {v}" for k, v in option.choices.items())
        values = _together([(r.id, _choices_text(r, name)) for r in offering])
        found.append(Entry(
            "option", name, option.title, " ".join(option.choices.values()), option.rule,
            {"title": f"{name.replace('-', ' ')} {option.title}", "alternatives": choices},
            values))
    return tuple(found)


def _game_words(spec: Spec) -> frozenset[str]:
    """The words of the rulesets' titles: the names of the games the sources describe."""
    return frozenset(word for ruleset in spec.rulesets.values()
                     for word in _WORD.findall(_plain(ruleset.title)))


def _title_fields(title: str, game_words: frozenset[str]) -> dict[str, str]:
    """A decision's title as fields: the game it is about (``Peep Nap: ...``, a prefix every
    word of which is in a ruleset's title) apart from its topic. A question names the game its
    player plays ("can 2 of us play peep nap"): that is context, not the topic, so the game
    weighs little (:data:`FIELD_WEIGHTS`) and is not the title a question is held by."""
    game, colon, topic = title.partition(": ")
    if colon and all(w in game_words for w in _WORD.findall(_plain(game))):
        return {"title": topic, "game": game}
    return {"title": title}


def _cited_sections(spec: Spec, rulesets: Sequence[Ruleset], rule_id: str) -> str:
    """The headings of the source passages that put a rule in force, once each."""
    headings: set[str] = set()
    for ruleset in rulesets:
        source = spec.index.get(ruleset.source)
        if source is None:
            continue
        for citation in ruleset.rules[rule_id]:
            if citation.decision is None and (part := source.section_at(citation.first)):
                headings.add(part.title.strip("[]"))
    return " ".join(sorted(headings))


def _choices_text(ruleset: Ruleset, name: str) -> str:
    option = ruleset.options[name]
    return ", ".join(f"{c}*" if c == option.default else c for c in option.choices)


def _rule_values(spec: Spec, rule: Rule, resolved: Mapping[str, JSONObject],
                 ) -> tuple[tuple[str, str], ...]:
    """Each ruleset's values (defaults) of what ``rule`` reads, where the rule is in force."""
    if not rule.params:
        return ()
    pairs = []
    for rid, ruleset in spec.rulesets.items():
        if rule.id not in ruleset.rules:
            continue
        shown = value_text(rule, resolved[rid])
        by_option = [name for name, o in ruleset.options.items() if o.rule == rule.id]
        if by_option:
            shown += f" (option {', '.join(by_option)} changes it)"
        pairs.append((rid, shown))
    return _together(pairs)


def value_text(rule: Rule, resolved: Mapping[str, JSON]) -> str:
    """The values ``rule`` reads in one ruleset's resolved parameters, on one line."""
    parts = []
    for entry, pairs in specific_values(rule.params, resolved):
        if entry.startswith("bids[*]."):
            if pairs:
                parts.append(f"{entry.removeprefix('bids[*].')}: {_per_bid(pairs)}")
        else:
            parts += [f"{label} = {text}" for label, text in pairs]
    return "; ".join(parts) or "not set"


def _per_bid(pairs: Sequence[tuple[str, str]]) -> str:
    """Each bid's value (``three 3, four 4``), or, where few words are shared by many bids,
    each word with its bids (``any (three, four, nap), lowest-trump (wellington)``)."""
    by_value: dict[str, list[str]] = {}
    for bid, text in pairs:
        by_value.setdefault(text, []).append(bid)
    numbers = all(text.lstrip("-").isdigit() for text in by_value)
    if numbers or 2 * len(by_value) > len(pairs):
        return ", ".join(f"{bid} {text}" for bid, text in pairs)
    return ", ".join(f"{text} ({', '.join(bids)})" for text, bids in by_value.items())


def _together(pairs: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Rulesets with the same value given once, in the order first met."""
    grouped: dict[str, list[str]] = {}
    for rid, shown in pairs:
        grouped.setdefault(shown, []).append(rid)
    return tuple((", ".join(ids), shown) for shown, ids in grouped.items())


# --- the ranking ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Index:
    entries: tuple[Entry, ...]
    counts: tuple[Mapping[str, Counter[str]], ...]  # per entry, per field: term counts
    lengths: tuple[Mapping[str, int], ...]
    averages: Mapping[str, float]
    document_frequency: Mapping[str, int]
    known: Mapping[str, int]  # every plain word of the entries and the synonyms, with its count
    asked: tuple[tuple[frozenset[str], ...], ...]  # per entry, each asked question's terms
    asked_idf: tuple[tuple[float, ...], ...]  # and the idf of each one's terms, summed
    # per entry, its asked questions' keys (_key) with the games each names (named_games)
    exact: tuple[tuple[tuple[frozenset[str], frozenset[str]], ...], ...]
    # each asked question as said (napkit.spec.questions.said), with the entries it is asked of:
    # a question asked again word for word is theirs, however its words are read
    verbatim: Mapping[str, frozenset[int]]
    in_force: tuple[frozenset[str], ...]  # per entry, the rulesets it is in force in (or about)
    position: Mapping[str, int]  # each entry's place, by id


# The index of each spec searched (a Spec is not hashable); the spec is kept with it, so that
# its id is not reused while the entry stands.
_INDEXES: dict[int, tuple[Spec, _Index]] = {}


def _index(spec: Spec) -> _Index:
    kept = _INDEXES.get(id(spec))
    if kept is not None and kept[0] is spec:
        return kept[1]
    built = _build_index(spec)
    _INDEXES[id(spec)] = (spec, built)
    return built


def _build_index(spec: Spec) -> _Index:
    found = _make_entries(spec)
    counts = tuple({name: Counter(terms(value)) for name, value in e.fields.items()}
                   for e in found)
    lengths = tuple({name: sum(c.values()) for name, c in per.items()} for per in counts)
    averages = {name: max(1.0, sum(ls.get(name, 0) for ls in lengths) / len(found))
                for name in FIELD_WEIGHTS}
    frequency: Counter[str] = Counter()
    for per in counts:
        frequency.update({term for c in per.values() for term in c})
    known = Counter(word for e in found for value in e.fields.values()
                    for word in _WORD.findall(_plain(value)))
    known.update(word for group in SYNONYMS for member in group
                 for word in _WORD.findall(_plain(member)))
    known.update({stem(word): 0 for word in known if stem(word) not in known})
    # an asked question is read as a question searched is: the game it names is no topic
    read = tuple(tuple(named_games(spec, q) for q in e.asked) for e in found)
    asked = tuple(tuple(frozenset(terms(q)) for _, q in these) for these in read)
    asked_idf = tuple(tuple(sum(_idf_of(len(found), frequency.get(t, 0)) for t in question)
                            for question in questions) for questions in asked)
    exact = tuple(tuple((_key(q, question), games)
                        for (games, q), question in zip(these, questions, strict=True))
                  for these, questions in zip(read, asked, strict=True))
    verbatim: dict[str, set[int]] = {}
    for n, e in enumerate(found):
        for q in e.asked:
            verbatim.setdefault(said(q), set()).add(n)
    in_force = tuple(_in_force(spec, e) for e in found)
    position = {e.id: n for n, e in enumerate(found)}
    return _Index(found, counts, lengths, averages, frequency, known, asked, asked_idf, exact,
                  {q: frozenset(ns) for q, ns in verbatim.items()}, in_force, position)


def _in_force(spec: Spec, entry: Entry) -> frozenset[str]:
    """The rulesets a rule is in force in, a decision is relied on or offered by, an option is
    an option of (:data:`OUT_OF_GAME`)."""
    if entry.kind == "rule":
        return frozenset(r.id for r in spec.rulesets.values() if entry.id in r.rules)
    if entry.kind == "decision":
        return frozenset(r.id for r in spec.rulesets.values()
                         if entry.id in r.decision_ids()
                         or any(o.decision == entry.id for o in r.options.values()))
    return frozenset(r.id for r in spec.rulesets.values() if entry.id in r.options)


def named_games(spec: Spec, question: str) -> tuple[frozenset[str], str]:
    """The rulesets whose game ``question`` names by what players call it (a ruleset's
    ``called``: "peep nap", "nap with a floater"), and the question without those names.

    The name says which game's rules are asked about, not the topic: "peep nap how many
    players" asks NAP-3.1.1 of Peep Nap, and its "peep" is not a look. Articles do not count
    ("nap with the floater" is "nap with a floater"). A question that is only a game's name
    keeps it as its topic.

    A name that is one word and also a bid's ("nap", "napoleon") or a thing of the game
    ("floater") names the game only as one plays in it ("in nap", "playing napoleon", "playing
    with the floater"); a name met after a bidding verb or a bid's article ("bid nap with the
    floater", "lose a nap with the floater") is a bid. A thing only some games have, named where
    no game is ("can I bid with the floater"), names them all the same and stays the topic:
    the floater is pagat.com's floater games' (the pub table's is a "floating card", 003).

    >>> from napkit.spec.catalog import default_spec
    >>> named_games(default_spec(), "peep nap: how many players?")
    (frozenset({'peep'}), 'thegame how many players')
    """
    plain = _plain_words(question)
    kept = [n for n, w in enumerate(plain) if w not in ARTICLES]
    words = [plain[n] for n in kept]
    spans: dict[tuple[int, int], set[str]] = {}  # where a name is met: the rulesets it names
    by_first = _game_names(tuple((r.id, r.raw.called) for r in spec.rulesets.values()))
    implied: set[str] = set()  # the games a thing only they have names ("the floater")
    for n, word in enumerate(words):
        for phrase, ids, bid, alone in by_first.get(word, ()):
            if words[n:n + len(phrase)] != list(phrase):
                continue
            before = words[n - 1] if n else ""
            played = before in GAME_CONTEXT or (
                before == "with" and n > 1 and words[n - 2] in {"play", "playing"})
            if alone and not played and not bid and before not in NEGATIONS:  # "no floater"
                implied |= ids
            # "lose a nap with the floater", "call nap with the floater": a bid
            if (alone and not played) or (bid and (before in BID_VERBS | {"bid"} or (
                    kept[n] and plain[kept[n] - 1] in ARTICLES))):
                continue
            spans.setdefault((n, n + len(phrase)), set()).update(ids)
    found: set[str] = set()
    named: set[int] = set()
    starts: set[int] = set()
    # the longest name first: "peep nap" is Peep Nap's, not also plain Nap's
    for (start, end), these in sorted(spans.items(), key=lambda span: span[0][0] - span[0][1]):
        if not named & set(range(start, end)):
            found |= these
            named.update(range(start, end))
            starts.add(kept[start])
    # the rest keeps its articles: phrases hold them ("bid with the floater"); the name leaves
    # a word that is no entry's, GAME, for the phrases whose subject it is ("when does peep nap
    # end" asks when the match ends)
    gone = {k for n in named for k in range(kept[n], kept[n + 1] if n + 1 < len(kept) else
                                               kept[n] + 1)}
    rest = " ".join(GAME if k in starts else w for k, w in enumerate(plain)
                    if k not in gone or k in starts)
    if not found or not terms(rest):
        return frozenset(found or implied), question
    return frozenset(found), rest


@cache
def _game_names(called: tuple[tuple[str, tuple[str, ...]], ...],
                ) -> dict[str, tuple[tuple[tuple[str, ...], frozenset[str], bool, bool], ...]]:
    """The rulesets' names (``called``: each ruleset's id and names) by their first word: each
    name's words without articles, the rulesets it names, whether it starts with a bid's name,
    and whether it is one word that is also a bid's or a thing of the game ("nap", "floater"),
    a game's name only as one plays in it (:func:`named_games`)."""
    words_map = _synonym_tables()[0]
    naming: dict[tuple[str, ...], set[str]] = {}
    for ruleset_id, names in called:
        for name in names:
            phrase = tuple(w for w in _plain_words(name) if w not in ARTICLES)
            if phrase:
                naming.setdefault(phrase, set()).add(ruleset_id)
    found: dict[str, list[tuple[tuple[str, ...], frozenset[str], bool, bool]]] = {}
    for phrase, ids in naming.items():
        bid = phrase[0] in BID_NAMES
        alone = len(phrase) == 1 and (bid or phrase[0] in words_map)
        found.setdefault(phrase[0], []).append((phrase, frozenset(ids), bid, alone))
    return {first: tuple(these) for first, these in found.items()}


#: What a rule, decision or option counts for in a question that names a game
#: (:func:`named_games`) where it is in force in none of the rulesets of that name: little, as
#: the question asks about that game's rules ("peep nap, must I lead a heart if I named hearts"
#: is not NAP-7.1.4, a rule Peep Nap does not have), but not nothing, as players misname games.
OUT_OF_GAME = 0.25
ARTICLES = frozenset({"a", "an", "the"})
#: The word a game's name leaves in a question (:func:`named_games`), met only in the synonym
#: table's phrases ("thegame end": the match's end); alone it is a question word.
GAME = "thegame"
#: The words before a bid's name that make it a game's ("in nap", "playing napoleon", "a game
#: of nap"), where a game is called by a bid's name alone (:func:`named_games`).
GAME_CONTEXT = frozenset({"in", "playing", "play", "of", "at"})

#: Words that only stress what they stand by, left out before phrases are looked for: "who
#: actually gets it" is "who gets it" (who wins the pool), "can i just go" is "can i go".
FILLERS = frozenset({"actually", "just", "really", "even", "basically", "literally", "totally",
                     "definitely", "simply", "ever"})

#: The words that deny, question words (:data:`STOPWORDS`) but for telling two questions apart.
NEGATIONS = frozenset({"no", "not", "nor", "never", "none"})


def _key(text: str, found: frozenset[str]) -> frozenset[str]:
    """A question as :data:`ASKED_EXACT` compares it: its terms (``found``), and whether it
    denies: "i have no trump to lead" is not "lead trump", though its *no* is a question word."""
    denies = any(word in NEGATIONS for word in _plain_words(text))
    return found | {" not"} if denies else found


def search(spec: Spec, question: str, limit: int = 5,
           weights: Mapping[str, float] | None = None,
           kinds: Mapping[str, float] | None = None, k1: float = K1,
           b: float = B, cover: float = TITLE_COVER, match: float = ASKED_MATCH,
           ) -> list[Hit]:
    """The entries that answer ``question``, best first (at most ``limit``; none when no
    word of it is in the rules). ``weights`` replaces :data:`FIELD_WEIGHTS` (for measuring)."""
    index = _index(spec)
    repeated = index.verbatim.get(said(question), frozenset())
    asking = asked_part(question)
    games, question = named_games(spec, question)
    weight = FIELD_WEIGHTS if weights is None else weights
    prior = KIND_WEIGHTS if kinds is None else kinds
    wanted = terms(corrected(question, index.known))  # read_as, the game's name already out
    asked_terms = [term for term in read_as(spec, asking) if term in wanted] if asking else []
    wanted += asked_terms
    named = {m.upper() for m in _ID.findall(question)}
    idf = {term: _idf(index, term) for term in wanted if index.document_frequency.get(term)}
    asked_as = _key(question, frozenset(idf))
    asked_weight = sum(idf.values()) or 1.0
    hits: list[Hit] = []
    likeness = _likenesses(index, idf, asked_weight)
    votes = _votes(likeness)
    for n, entry in enumerate(index.entries):
        score = 0.0
        matched = []
        for term, times in Counter(wanted).items():
            frequency = 0.0
            for name, counter in index.counts[n].items():
                count = counter.get(term, 0)
                if count:
                    norm = 1 - b + b * index.lengths[n][name] / index.averages[name]
                    frequency += weight.get(name, 0.0) * count / norm
            if frequency:
                score += times * idf[term] * frequency * (k1 + 1) / (frequency + k1)
                matched.append(term)
        # The share of the question (by idf) that the title holds: a title that says what was
        # asked is the answer, whatever the length of the text under it.
        title = index.counts[n].get("title", Counter())
        held = sum(idf[term] for term in matched if title.get(term))
        score *= prior.get(entry.kind, 1.0) * (1 + cover * (held / asked_weight) ** 2)
        if score and likeness[n]:
            score *= 1 + match * max(likeness[n]) ** ASKED_POWER
        # a decision shares its rule's vote (DECISION_SHARE): few questions are its own
        ruled = index.position.get(entry.rule) if entry.rule else None
        shared = DECISION_SHARE * votes.get(ruled, 0.0) if ruled is not None else 0.0
        vote = votes.get(n, 0.0) + shared
        if score and vote:
            score *= 1 + NEIGHBOURS_VOTE * vote
        if entry.house:
            score *= HOUSE_WEIGHT
        if games and not games & index.in_force[n]:
            score *= OUT_OF_GAME
        # an asked question that names a game is that game's: "is misery above three in
        # napoleon", asked of a decision on Napoleon, is not every game's question
        if score and (n in repeated or any(key == asked_as and (not of_games or of_games & games)
                                           for key, of_games in index.exact[n])):
            score += ASKED_EXACT
        if entry.id in named:
            score += 1000.0
        if score > 0:
            hits.append(Hit(entry, score, tuple(matched)))
    hits.sort(key=lambda h: (-h.score, _kind_order(h.entry.kind), spec.lawbook.order(h.entry.id)))
    return hits[:limit]


def read_as(spec: Spec, question: str) -> list[str]:
    """The terms :func:`search` reads ``question`` as, beside the game it names
    (:func:`named_games`): its misspellings corrected against the words of ``spec``'s entries
    (:func:`corrected`), then :func:`terms`."""
    return terms(corrected(named_games(spec, question)[1], _index(spec).known))


_SENTENCE = re.compile(r"(?<=[.?!])\s+")


def asked_part(question: str) -> str:
    """Where a question tells a story before it asks ("went 4 and only got 3 tricks. what do
    i owe?"), the sentences that ask (those that end in a question mark, else the last): their
    terms count twice, as the story says where the question stands and they say what is asked.
    Empty for a question of one sentence."""
    sentences = [part for part in _SENTENCE.split(question.strip()) if part]
    if len(sentences) < 2:
        return ""
    return " ".join([part for part in sentences if part.endswith("?")] or sentences[-1:])


def _idf(index: _Index, term: str) -> float:
    return _idf_of(len(index.entries), index.document_frequency.get(term, 0))


def _idf_of(entries: int, df: int) -> float:
    """BM25's idf of a term that ``df`` of ``entries`` entries hold."""
    return math.log(1 + (entries - df + 0.5) / (df + 0.5))


def _likenesses(index: _Index, idf: Mapping[str, float], weight: float,
                ) -> list[list[float]]:
    """How like the question (its terms' ``idf``, summing to ``weight``) each question players
    ask of each entry is, where they share a term: the idf of the terms they share over the
    root of each one's. An entry's likest counts for :data:`ASKED_MATCH`; the likest of all
    vote (:func:`_votes`)."""
    return [[shared / math.sqrt(weight * own)
             for question, own in zip(questions, owns, strict=True)
             if (shared := sum(idf[t] for t in question if t in idf))]
            for questions, owns in zip(index.asked, index.asked_idf, strict=True)]


def _votes(likeness: Sequence[Sequence[float]]) -> dict[int, float]:
    """Each entry's share of the :data:`NEIGHBOURS` questions players ask (of any entry) likest
    the question (:func:`_likenesses`), each counted by its likeness: the entries the law
    book's questions most like this one are asked of, whichever is likest."""
    top = sorted(((sim, n) for n, sims in enumerate(likeness) for sim in sims),
                 reverse=True)[:NEIGHBOURS]
    total = sum(sim for sim, _ in top) or 1.0
    votes: dict[int, float] = {}
    for sim, n in top:
        votes[n] = votes.get(n, 0.0) + sim / total
    return votes


def _kind_order(kind: str) -> int:
    return ("rule", "decision", "option").index(kind)


# --- what napkit rules search shows --------------------------------------------------------------
def _summary(text: str, limit: int = 240) -> str:
    """The first sentences of ``text``, up to about ``limit`` characters."""
    plain = " ".join(text.split())
    if len(plain) <= limit:
        return plain
    cut = plain.rfind(". ", 0, limit)
    return plain[:cut + 1] if cut > 60 else plain[:limit].rsplit(" ", 1)[0] + " ..."


def _label(entry: Entry) -> str:
    return f"option {entry.id}" if entry.kind == "option" else entry.id


def _about(spec: Spec, entry: Entry) -> str:
    if entry.kind == "rule":
        rule = spec.lawbook.get(entry.id)
        return f"rule, {rule.section_id} {rule.section_title}" if rule else "rule"
    return f"{entry.kind} on {entry.rule}" if entry.rule else entry.kind


def result_lines(spec: Spec, question: str, hits: Sequence[Hit], width: int = 100,
                 ) -> list[str]:
    """The hits as a numbered list for reading: each id and title, what it is, the start of
    its text, and each ruleset's value."""
    lines: list[str] = []
    indent = "      "
    games = named_games(spec, question)[0]
    for rank, hit in enumerate(hits, 1):
        entry = hit.entry
        if rank > 1:
            lines.append("")
        lines += textwrap.wrap(f"{rank:2}. {_label(entry)}  {entry.title}  "
                               f"({_about(spec, entry)})", width,
                               subsequent_indent=indent, break_on_hyphens=False)
        lines += textwrap.wrap(_summary(entry.text), width, initial_indent=indent,
                               subsequent_indent=indent, break_on_hyphens=False)
        for who, text in (*_games_first(entry.values, games), *entry.notes):
            lines += textwrap.wrap(f"{who}: {text}", width, initial_indent=indent + "- ",
                                   subsequent_indent=indent + "    ", break_on_hyphens=False)
    return lines


def _games_first(values: Sequence[tuple[str, str]], games: frozenset[str],
                 ) -> list[tuple[str, str]]:
    """Each ruleset's value, those of the games the question names first ("peep nap: how many
    players?" is answered by Peep Nap's 2-10 before the others' numbers)."""
    return sorted(values, key=lambda pair: not games & set(pair[0].split(", ")))


def result_document(spec: Spec, question: str, hits: Sequence[Hit]) -> JSONObject:
    """The hits as JSON: the question, its terms, the games it names (ruleset ids), and each hit
    with its rank, kind, id, title, text, the rule it is about, its score and each ruleset's
    value (the named games' first)."""
    results: list[JSON] = []
    named = named_games(spec, question)[0]
    for rank, hit in enumerate(hits, 1):
        entry = hit.entry
        values: list[JSON] = [{"rulesets": list(who.split(", ")), "value": text}
                              for who, text in _games_first(entry.values, named)]
        notes: list[JSON] = [{"label": label, "text": text} for label, text in entry.notes]
        results.append({"rank": rank, "kind": entry.kind, "id": entry.id, "title": entry.title,
                        "text": " ".join(entry.text.split()), "rule": entry.rule,
                        "score": round(hit.score, 4), "matched": list(hit.matched),
                        "values": values, "notes": notes})
    wanted: list[JSON] = list(terms(question))
    games: list[JSON] = list(sorted(named))
    return {"question": question, "terms": wanted, "games": games, "results": results}
