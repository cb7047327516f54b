"""Cards, suits, ranks and packs, as small integers and bitmasks.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, where ``rank`` 0 is the two and 12 the
ace, and suits are numbered spades 0, hearts 1, diamonds 2, clubs 3. A set of cards (a hand, a
pack) is a bitmask with bit ``card`` set for every card in it, as python-chess keeps squares.
Within a suit a higher rank is a higher card, so comparing two cards of one suit is comparing
integers.

The text notation is rank then suit letter: ``AS``, ``KH``, ``10D`` (also read as ``TD``),
``2C``. It is parsed both ways by :func:`parse_card` and :func:`card_name`; a suit typed as its
symbol (``A♣``) is read too, and written by :func:`card_symbol` (spec/formats.md, "Cards: the
suit symbols").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from napkit.errors import IllegalActionError

Card = int
Suit = int

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUITS: tuple[Suit, ...] = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: The suits as symbols, by suit (``A♠``, ``10♥``): read wherever a card is typed, written on
#: the site and by ``--symbols`` (spec/formats.md, "Actions": the suits' spellings).
SUIT_SYMBOLS = "♠♥♦♣"
#: The symbols' outline forms (``♤♡♢♧``), which some fonts and keyboards give: read, never written.
SUIT_OUTLINES = "♤♡♢♧"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_WORDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")

#: The notation of every card, by card: ``CARD_NAMES[card]`` is ``card_name(card)`` for a card.
CARD_NAMES: tuple[str, ...] = tuple(RANK_NAMES[c % 13] + SUIT_LETTERS[c // 13] for c in range(52))

SUIT_MASK = 0x1FFF  # the thirteen bits of one suit
FULL_PACK = (1 << 52) - 1


def suit_of(card: Card) -> Suit:
    """The suit of a card (NAP-2.1.1). Ranks run two (0) to ace (12) in every suit, so within
    a suit the higher card is the higher integer; no suit outranks another."""
    return card // 13


def rank_of(card: Card) -> int:
    """The rank of a card within its suit, 0 (two) to 12 (ace) (NAP-2.1.1)."""
    return card % 13


def suit_bits(suit: Suit) -> int:
    """The mask of every card of a suit."""
    return SUIT_MASK << (13 * suit)


SUIT_BITS: tuple[int, ...] = tuple(SUIT_MASK << (13 * s) for s in SUITS)


def card_name(card: Card) -> str:
    """The notation of a card: ``AS``, ``10H``; a value that is no card says so.

    Cards are the integers 0 to 51, suit by suit (spades, hearts, diamonds, clubs), two to ace
    within each, so that a higher card of a suit is a higher number.

    >>> from napkit import card_name
    >>> card_name(0), card_name(21), card_name(51), card_name(52)
    ('2S', '10H', 'AC', '<not a card: 52>')
    """
    if type(card) is not int or not 0 <= card < 52:
        return f"<not a card: {card!r}>"
    return CARD_NAMES[card]


def card_words(card: Card) -> str:
    """A card in words, for messages: ``the 9 of hearts``; a value that is no card says so."""
    if type(card) is not int or not 0 <= card < 52:
        return f"something that is not a card ({card!r})"
    return f"the {RANK_WORDS[card % 13]} of {SUIT_NAMES[card // 13]}"


#: The ten's other spelling, ``T`` (``TH``): programs and notations that give every rank one
#: character write it so, and a report or a record written by another program may. It is read
#: (by :func:`parse_card` and by :data:`CARD_TEXT`) and never written: napkit writes ``10H``.
TEN_ALIAS = "T"

# Every spelling of a suit that is read: the letter, the symbol, its outline form, and each
# symbol followed by a variation selector (U+FE0F, U+FE0E: a phone's keyboard types "♠️").
_SUIT_SPELLINGS = {spelling: s for s in SUITS for symbol in (SUIT_SYMBOLS[s], SUIT_OUTLINES[s])
                   for spelling in (symbol, symbol + "\ufe0f", symbol + "\ufe0e")}
_SUIT_SPELLINGS.update({letter: s for s, letter in enumerate(SUIT_LETTERS)})
_PARSE = {rank + suit: s * 13 + (RANK_NAMES.index("10") if rank == TEN_ALIAS else
                                 RANK_NAMES.index(rank))
          for suit, s in _SUIT_SPELLINGS.items() for rank in (*RANK_NAMES, TEN_ALIAS)}

#: The ranks as a regular expression: every rank name, and the ten's alias (the longest first,
#: so that ``10`` is not read as a ``1``).
RANK_TEXT = "|".join(re.escape(r) for r in sorted((*RANK_NAMES, TEN_ALIAS), key=len,
                                                   reverse=True))
#: A card in the notation as a regular expression, upper case: the rank (group 1) then the suit
#: letter (group 2). It matches exactly the upper-case letter spellings :func:`parse_card`
#: reads (the symbols are for people, never in a record or a report), so that a reader of text
#: (the report pages, which draw the cards they find in a report) and the engine agree on what
#: is a card.
CARD_TEXT = f"({RANK_TEXT})([{SUIT_LETTERS}])"
#: A card named in text, as a word of its own (not part of an id such as 0004-9H or a file
#: name): what the report pages draw as a card and ``--symbols`` writes with its suit's symbol.
CARD_IN_TEXT = re.compile(rf"(?<![\w.\-/]){CARD_TEXT}(?![\w\-/]|\.\w)")


def parse_card(text: str) -> Card:
    """Read a card in the notation (case-insensitive), its suit a letter or a symbol (``A♣``);
    ``ValueError`` if it is not one, saying what is wrong (:func:`not_a_card`).

    >>> from napkit import parse_card
    >>> parse_card("AC"), parse_card("10h"), parse_card("TH"), parse_card("A♣")
    (51, 21, 21, 51)
    """
    card = _PARSE.get(text.strip().upper())
    if card is None:
        shown = text if len(text) <= 40 else text[:39] + "…"
        raise ValueError(f"{shown!r} is not a card: {not_a_card(text)}")
    return card


_WRITE = "write rank then suit, as AS, 10H or A♣"
_RANKS = "ranks are 2-10, J, Q, K, A"
# A rank typed that is no rank's name, with the rank likely meant: "1C" is a ten missing its 0
# (an 11 may be a jack or a mistyped ten: no guess is made).
_RANK_MEANT = {"1": "10"}
_SUIT_TYPED = re.compile(r"(.*?)([A-Z]|[♠♥♦♣♤♡♢♧][\ufe0e\ufe0f]?)", re.DOTALL)


def not_a_card(text: str) -> str:
    """Why ``text`` is not a card, for a message after it is quoted (``'1C' is not a card:
    ...``): the rank or the suit at fault, and the card meant where one is likely.

    >>> from napkit.engine.cards import not_a_card
    >>> not_a_card("1C"), not_a_card("AX"), not_a_card("SA")
    ('ranks are 2-10, J, Q, K, A (did you mean 10C?)', 'suits are S, H, D, C or ♠ ♥ ♦ ♣', \
'rank then suit (did you mean AS?)')
    """
    typed = text.strip().upper()
    if len(typed) > 1 and _PARSE.get(typed[1:] + typed[0]) is not None:
        return f"rank then suit (did you mean {typed[1:]}{typed[0]}?)"
    found = _SUIT_TYPED.fullmatch(typed)
    if found is None or not found.group(1):
        return _WRITE
    rank, suit = found.groups()
    if suit not in _SUIT_SPELLINGS:
        if rank in (*RANK_NAMES, TEN_ALIAS):
            return "suits are S, H, D, C or " + " ".join(SUIT_SYMBOLS)
        return _WRITE
    meant = _RANK_MEANT.get(rank)
    if meant is not None:
        return f"{_RANKS} (did you mean {meant}{suit}?)"
    return _RANKS if rank.isdigit() or len(rank) == 1 else _WRITE


def is_card_like(text: str) -> bool:
    """Whether ``text`` was meant as a card, whether or not it is one (``1C``, ``AX``, ``A♣``):
    a number or a rank then one letter or suit symbol, or the same the wrong way round; a
    reader of typed words tells a mistyped card from a word that is not an action with it.

    >>> from napkit.engine.cards import is_card_like
    >>> is_card_like("1C"), is_card_like("10♥"), is_card_like("nap"), is_card_like("as")
    (True, True, False, True)
    """
    return _CARD_LIKE.fullmatch(text.strip().upper()) is not None


_CARD_LIKE = re.compile(r"([0-9]{1,2}|[TJQKA])([A-Z]|[♠♥♦♣♤♡♢♧][\ufe0e\ufe0f]?)"
                        r"|[SHDC]([0-9]{1,2}|[TJQKA])")


def card_symbol(card: Card) -> str:
    """A card with its suit's symbol (``A♠``, ``10♥``), as the site and ``--symbols`` write it.

    >>> from napkit.engine.cards import card_symbol
    >>> card_symbol(0), card_symbol(21)
    ('2♠', '10♥')
    """
    return RANK_NAMES[card % 13] + SUIT_SYMBOLS[card // 13]


def with_symbols(text: str) -> str:
    """Text for people with every card it names as a word of its own (``AS``, ``play 10H``)
    written with its suit's symbol (``A♠``, ``play 10♥``): ``--symbols`` of the commands that
    print cards, applied to what they print, engine messages and all.

    >>> from napkit.engine.cards import with_symbols
    >>> with_symbols("seat 1: play 10H, KS; case pagat/illegal/0004-9H; NAP-8.1.1")
    'seat 1: play 10♥, K♠; case pagat/illegal/0004-9H; NAP-8.1.1'
    """
    return CARD_IN_TEXT.sub(lambda m: card_symbol(_PARSE[m.group()]), text)


def lowest_rank_index(name: str) -> int:
    """The index of a rank given by its name in a ruleset's pack table (``"9"`` -> 7)."""
    return RANK_NAMES.index(name)


def pack_mask(lowest_rank: int) -> int:
    """The pack of every card from the ace down to ``lowest_rank`` in all four suits (NAP-2.2.1)."""
    suit = SUIT_MASK & ~((1 << lowest_rank) - 1)
    return suit | suit << 13 | suit << 26 | suit << 39


# Every mask of one suit's 13 bits, mapped to its cards lowest first: the hot loops of the
# engine turn masks into cards through these tables instead of looping over bits. Built at the
# first use, not at import (a command that plays no card, `napkit --help`, never builds them).
# Safe to share between threads: two that build it at once each store an equal table in one
# step, and a reader loads it once.
SuitTable = tuple[tuple[tuple[Card, ...], ...], ...]
_SUIT_CARDS: SuitTable = ()


def _suit_cards() -> SuitTable:
    global _SUIT_CARDS  # noqa: PLW0603
    _SUIT_CARDS = tuple(by_suit_mask([s * 13 + r for r in range(13)]) for s in SUITS)
    return _SUIT_CARDS


_T = TypeVar("_T")


def by_suit_mask(items: Sequence[_T]) -> tuple[tuple[_T, ...], ...]:
    """For every 13-bit mask, the items of its bits (``items[r]`` for bit ``r``), lowest
    bit first. Each entry is its lowest item before the entry of the mask without that bit,
    one step a mask: about 6 ms a suit, where looking at every bit of every mask took 40 ms
    (the card table and the play table, built at the first play of every process, cost a
    fuzzer and its program 0.3 s each)."""
    table: list[tuple[_T, ...]] = [()] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = mask & -mask
        table[mask] = (items[low.bit_length() - 1],) + table[mask ^ low]
    return tuple(table)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in card order (spades low to high, then hearts, ...)."""
    t = _SUIT_CARDS or _suit_cards()
    # 0x1FFF is SUIT_MASK written out: a literal costs nothing, a global's lookup four times a
    # call does (every legal list and every view asks).
    return (
        t[0][mask & 0x1FFF]
        + t[1][mask >> 13 & 0x1FFF]
        + t[2][mask >> 26 & 0x1FFF]
        + t[3][mask >> 39 & 0x1FFF]
    )


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def count(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def lowest_cards(mask: int) -> int:
    """The cards of a mask that share its lowest rank, whatever their suit (NAP-7.2.3 ties)."""
    for rank in range(13):
        bits = mask & (0x0008004002001 << rank)  # that rank in all four suits
        if bits:
            return bits
    return 0


def lowest_in_suit(mask: int, suit: Suit) -> int:
    """The mask of the lowest card of one suit in a mask, or 0 if the suit is void."""
    bits = mask & SUIT_BITS[suit]
    return bits & -bits


def names(mask: int) -> str:
    """A mask as notation, space separated, for messages; bits off the pack are named."""
    if type(mask) is not int or mask < 0:
        return f"<not a set of cards: {mask!r}>"
    extra = mask >> 52
    shown = " ".join(card_name(c) for c in cards_of(mask))
    return shown + (f" <and bits off the pack: {extra << 52:#x}>" if extra else "")


def check_pack(pack: tuple[int, ...], expected: int, rule: str) -> None:
    """The cards given must be exactly the expected pack, each once."""
    if len(pack) == expected.bit_count() and frozenset(pack) == _pack_set(expected):
        return
    seen = 0
    for i, card in enumerate(pack):
        if not isinstance(card, int) or not 0 <= card < 52:
            raise IllegalActionError(rule, f"card {i} of the pack is not a card: {card!r}")
        bit = 1 << card
        if seen & bit:
            raise IllegalActionError(rule, f"{card_name(card)} is in the pack twice")
        if not expected & bit:
            raise IllegalActionError(rule, f"{card_name(card)} is not in this hand's pack")
        seen |= bit
    if seen != expected:
        missing = " ".join(card_name(c) for c in cards_of(expected & ~seen))
        raise IllegalActionError(rule, f"the pack lacks {missing}")


# Each pack's set of cards, by mask: a pure function of the key, filled once, so threads may
# fill and read it at once (a dict's get and set are atomic under the GIL), and clearing it
# meanwhile only makes a thread work a set out again.
_PACK_SETS: dict[int, frozenset[int]] = {}


def clear_pack_sets() -> None:
    """Forget the pack sets :func:`check_pack` has kept (see
    :func:`napkit.engine.game.clear_memos`)."""
    _PACK_SETS.clear()


def _pack_set(mask: int) -> frozenset[int]:
    found = _PACK_SETS.get(mask)
    if found is None:
        found = _PACK_SETS[mask] = frozenset(cards_of(mask))
    return found
