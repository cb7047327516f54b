"""The hand notation: a recorded hand (``napkit-hand/1``) as short text a person can type.

What PBN is to bridge: a few ``key: value`` lines, the game and the table first, then the
deal (each seat's cards as dealt, the widow, the stock), then the steps of the hand by section
(``purchase:``, ``auction:``, ``exchange:``, ``trumps:``, ``play:``), each step a seat and an
action as ``napkit play`` reads it (:func:`napkit.formats.notation.parse_action`), steps
parted by commas or lines. ``#`` starts a comment. A hand may stop anywhere after the deal (a
dispute is often about a hand still in play); such a hand's record has a null ``outcome``.
spec/formats.md ("The hand notation") gives the grammar; files are named ``*.nap``.

The reader replays every step through the engine, so each error names the line and column,
what is wrong and, where a rule is broken, its id: a card dealt twice breaks the pack rule
(NAP-2.2.1), a hand of four cards NAP-4.2.1, a revoke the engine's NAP-8.1.1. The writer is
canonical: what it writes reads back to the same record, and writing that record again gives
the same text.

>>> from napkit.formats.handtext import HandTextError, dumps, loads
>>> [record] = loads('''
... ruleset: pagat
... players: 3
... dealer: 0
... seat 0: 5S 8D KD 7S 4H
... seat 1: JD AS 9S 3C AH
... seat 2: 9C JC 6C 9H 7C
... auction: 1 pass, 2 bid four, 0 bid nap
... play: 0 5S, 1 AS, 2 JC
... ''')
>>> record["deal"][:6], record["outcome"]
(['JD', 'AS', '9S', '9C', 'JC', '6C'], None)
>>> print(dumps([record]).splitlines()[-2])
  0 5S, 1 AS, 2 JC  # seat 1 wins
>>> try:
...     loads("ruleset: pagat\\nplayers: 3\\ndealer: 0\\nseat 0: 5S 8D KD 7S 5S")
... except HandTextError as exc:
...     print(exc)
<text>: line 4, column 21: NAP-2.2.1: 5S is dealt twice (first at line 4, column 9)
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from napkit.engine.acting import turn_refusal
from napkit.engine.actions import (
    Action,
    Bid,
    Deal,
    LeaveWidow,
    NameTrumps,
    Pass,
    Play,
    Reshuffle,
    TakeWidow,
)
from napkit.engine.cards import (
    SUIT_NAMES,
    card_name,
    card_symbol,
    cards_of,
    is_card_like,
    not_a_card,
    parse_card,
    with_symbols,
)
from napkit.engine.game import Game
from napkit.engine.hand import HandState, as_bid, as_played, new_hand
from napkit.engine.phases.deal import at_table, hand_pack
from napkit.engine.state import (
    AUCTION,
    CHANCE,
    DISCARD,
    EXCHANGE,
    NAMING,
    PLAY,
    POOL,
    PURCHASE,
    RESHUFFLE,
    Phase,
)
from napkit.errors import RuleError, SetupError
from napkit.formats.notation import NotationError, parse_action, quoted
from napkit.formats.records import (
    HAND_FORMAT,
    check_hand_record,
    hand_outcome,
    replay_hand,
    start_funds,
    start_pool,
    step_to_json,
    table_json,
)
from napkit.formats.values import cards_to_json
from napkit.reading import WHOLE, ReadError, not_utf8
from napkit.reading import loads as read_json
from napkit.spec.schemas import schema_problems

__all__ = ["LIMITS", "MAX_HAND", "MAX_LINE", "SECTIONS", "SUFFIX", "HandFileError", "HandTextError",
           "TypedHand", "action_text", "dealt_start", "dumps", "end_comment", "hand_items",
           "hand_start", "hand_text", "is_notation", "loads", "read_hand_file", "read_hand_text",
           "state_record", "table_lines", "typed_hands", "write_hand"]

SUFFIX = ".nap"
"""The file name suffix of the hand notation (``hand.nap``)."""

SECTIONS: dict[str, tuple[Phase, ...]] = {
    "purchase": (PURCHASE, RESHUFFLE), "auction": (AUCTION,), "exchange": (EXCHANGE, DISCARD),
    "trumps": (NAMING,), "play": (PLAY,)}
"""The sections of a hand's steps, in the order of a hand, and the phases each holds."""

LIMITS = 'spec/formats.md, "The hand notation: limits"'
"""Where the limits of the notation are stated, as messages cite it."""

MAX_LINE = 10_000
"""The most characters a line of a hand file may hold (:data:`LIMITS`); the writer's lines
are under 100. A longer line is refused, and never held whole."""

MAX_HAND = 1_000_000
"""The most characters one hand may take, from its ``ruleset:`` line to the next hand's, its
comments and blank lines counted (:data:`LIMITS`): a hand as the writer writes it
takes about a thousand. A file read as one hand (:func:`read_hand_file`) is held to it too, in
either notation, and refused before it is read whole."""

_HEADER = ("ruleset", "options", "players", "dealer", "seats", "pool", "funds", "stakes")
_WIDOW_KEYS = ("widow", "floater", "floating card", "kitty")
_KEYS = (*_HEADER, "seat N", "widow", "stock", *SECTIONS)
_SEAT_KEY = re.compile(r"seat\s+(\S+)")
# Every key as it may be typed, for a "did you mean" on one that is not.
_SPELLINGS = (*_HEADER, "seat N", *_WIDOW_KEYS, "stock", *SECTIONS)
_WORD = re.compile(r"[^\s,]+")  # a value's words: parted by spaces or commas
_TOKEN = re.compile(r"\S+")  # a step's words: its commas part the steps
_BLOCK = 1 << 16  # characters read at a time from a file in the notation


class HandFileError(ValueError):
    """A hand file (either notation) that cannot be read as a hand: the file, where in it (a
    line and column, or a JSON path), the rule id where a rule is broken, and what is wrong."""

    def __init__(self, source: str, where: str, message: str, rule: str | None = None) -> None:
        super().__init__(source, where, message, rule)
        self.source = source
        self.where = where
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        rule = f"{self.rule}: " if self.rule else ""
        return f"{self.source}: {self.where}: {rule}{self.message}"


class HandTextError(HandFileError):
    """Hand notation that is not a hand, or a hand the rules refuse, at ``line`` and
    ``column`` (both counted from 1)."""

    def __init__(self, source: str, line: int, column: int, message: str,
                 rule: str | None = None) -> None:
        super().__init__(source, f"line {line}, column {column}", message, rule)
        self.line = line
        self.column = column


# --- reading: lines, entries, words -----------------------------------------------------------
@dataclass(frozen=True)
class _Word:
    text: str
    line: int
    column: int


@dataclass
class _Entry:
    """A ``key: value`` line and the lines that continue it (lines with no colon)."""

    key: str
    line: int
    column: int
    value_column: int
    pieces: list[_Word] = field(default_factory=list)  # the value's text, one piece a line

    def words(self) -> Iterator[_Word]:
        """The value's words, one at a time: a reader that stops at a bad word never makes
        the others (a line of a million words was once a million objects held at once)."""
        for piece in self.pieces:
            yield from _split(piece, _WORD)

    def steps(self, source: str) -> Iterator[_Word]:
        """The text of each step, one at a time: parted by commas and by lines (a comma may
        end a line)."""
        for piece in self.pieces:
            text, start = piece.text, 0
            while True:
                comma = text.find(",", start)
                part = text[start:] if comma < 0 else text[start:comma]
                if part.strip():
                    yield _Word(part, piece.line, piece.column + start)
                elif comma >= 0:
                    raise HandTextError(source, piece.line, piece.column + comma,
                                        "a comma with no step before it")
                if comma < 0:
                    break
                start = comma + 1


def _known(key: str) -> bool:
    return key in _SPELLINGS or _SEAT_KEY.fullmatch(key) is not None


def _split(word: _Word, pattern: re.Pattern[str]) -> Iterator[_Word]:
    return (_Word(m.group(), word.line, word.column + m.start())
            for m in pattern.finditer(word.text))


def _lines(blocks: Iterable[str]) -> Iterator[tuple[str, int, int]]:
    """The lines of a text given a block at a time, parted as ``str.splitlines`` parts them:
    each line, its length, and the characters of the text it takes (its break counted). A
    line over :data:`MAX_LINE` is given as its first ``MAX_LINE + 1`` characters, the rest
    read and counted but not kept, so that no line is ever held whole past the limit."""
    head, length, taken = "", 0, 0
    # A line whose break is a "\r" ending its block, given once the next block says whether a
    # "\n" follows: "\r\n" parted by the blocks is one break, and the line's.
    pending: tuple[str, int, int] | None = None
    for block in blocks:
        if not block:
            continue
        text = block
        if pending is not None:
            line, size, used = pending
            if block.startswith("\n"):
                text, used = block[1:], used + 1
            yield line, size, used
            pending = None
        pieces = text.splitlines(keepends=True)
        for n, piece in enumerate(pieces, 1):
            body = piece.splitlines()[0]
            if len(head) <= MAX_LINE:
                head += body[:MAX_LINE + 1 - len(head)]
            length += len(body)
            taken += len(piece)
            if len(body) < len(piece):  # the piece ends its line
                if n == len(pieces) and piece.endswith("\r"):
                    pending = head, length, taken
                else:
                    yield head, length, taken
                head, length, taken = "", 0, 0
    if pending is not None:
        yield pending
    if head or length:  # the last line, with no break after it
        yield head, length, taken


def _blocks(text: str) -> Iterator[str]:
    return (text[i:i + _BLOCK] for i in range(0, len(text), _BLOCK))


def _line(text: str, number: int, source: str) -> _Entry | _Word | None:
    """One line read: a ``key: value`` entry, the text of a line carrying on the value
    before it, or None (blank, or a comment)."""
    line = text.split("#", 1)[0]
    if not line.strip():
        return None
    colon = line.find(":")
    if colon < 0:
        return _Word(line, number, 1)
    key = line[:colon]
    if not key.strip():
        raise HandTextError(source, number, colon + 1, "a colon with no key before it")
    entry = _Entry(" ".join(key.lower().split()), number, len(key) - len(key.lstrip()) + 1,
                   colon + 2)
    entry.pieces.append(_Word(line[colon + 1:], number, colon + 2))
    return entry


def _before_a_hand(item: _Entry | _Word | HandTextError | None, number: int, length: int,
                   source: str) -> HandTextError:
    """Why a text whose first line that counts does not start a hand is not the notation."""
    if length > MAX_LINE or item is None:
        return _too_long(source, number, length)
    if isinstance(item, HandTextError):
        return item
    if isinstance(item, _Word):
        missing = _missing_colon(item, False, source)
        if missing is not None:
            return missing
        start = len(item.text) - len(item.text.lstrip()) + 1
        return HandTextError(source, number, start,
                             "expected 'KEY: VALUE' (a hand starts with 'ruleset: ID')")
    return HandTextError(source, item.line, item.column,
                         f"a hand starts with 'ruleset: ID', not {quoted(item.key + ':')}")


# A line that starts with a key and no colon after it: ``seat 0 4H 5S ...``, ``dealer 0``.
_KEY_WITHOUT_COLON = re.compile(
    r"\s*(seat\s+[0-9]+|" + "|".join(k.replace(" ", r"\s+") for k in _SPELLINGS
                                      if k != "seat N") + r")(?=\s|$)", re.IGNORECASE)


def _missing_colon(word: _Word, in_steps: bool, source: str) -> HandTextError | None:
    """Why a line without a colon, which would carry on the value before it, is not that: it
    starts with a key (``seat 0 4H 5S...``), its colon left out. In the steps, ``play 5S`` is
    an action, so ``play`` there is a key only before several cards (``play 5S AS JC``)."""
    found = _KEY_WITHOUT_COLON.match(word.text)
    if found is None:
        return None
    key, rest = " ".join(found.group(1).split()), word.text[found.end():].strip()
    if in_steps and key.lower() == "play" and len(rest.split()) < 2:
        return None
    return HandTextError(source, word.line, word.column + found.end(),
                         f"a colon is missing after {quoted(key)}: write "
                         f"{quoted(f'{key}: {rest}'.strip())}")


def _too_long(source: str, number: int, length: int) -> HandTextError:
    return HandTextError(source, number, MAX_LINE + 1,
                         f"the line is {length:,} characters long: a line of a hand file is "
                         f"at most {MAX_LINE:,} ({LIMITS})")


@dataclass(frozen=True)
class TypedHand:
    """One hand of a text in the hand notation, its lines read but not yet replayed: where
    it is (``where``: the source, or ``SOURCE:LINE`` of its ``ruleset:`` line in a text of
    several hands; ``line`` and ``column``: that line's), and :meth:`record`."""

    where: str
    line: int
    column: int
    entries: tuple[_Entry, ...]
    source: str
    end: tuple[int, int]  # where the hand ends: the next hand's start, or the text's end
    problem: HandTextError | None = None  # why its lines cannot be read, if they cannot

    def record(self, irregular: bool = False) -> dict[str, Any]:
        """The hand's ``napkit-hand/1`` record, its steps replayed through the engine;
        :class:`HandTextError` at its first problem. With ``irregular``, a card its own
        ruleset refuses (a revoke, a card out of turn, a wrong first lead) is read as the
        table played it, and the hand goes on (for ``napkit replay`` and ``explain``, which
        say what each ruleset makes of it; ``napkit validate`` refuses it)."""
        if self.problem is not None:
            raise self.problem
        return _Reader(list(self.entries), self.source, self.end, irregular).read()


def typed_hands(text: str | Iterable[str], source: str) -> Iterator[TypedHand | HandTextError]:
    """The hands of a text in the notation (a hand starts at its ``ruleset:`` line), one at a
    time: ``text`` is the whole text, or its blocks in order (a file read a block at a time);
    only the hand being read is held. A hand whose lines cannot be read (a line over
    :data:`MAX_LINE`, a hand over :data:`MAX_HAND`, a colon with no key) carries its
    problem, its other lines skipped; a text that does not start as a hand is one
    :class:`HandTextError`, and nothing more is read of it."""
    lines = _lines(_blocks(text) if isinstance(text, str) else text)
    start: _Entry | None = None  # the ruleset: entry of the hand being read
    entries: list[_Entry] = []
    problem: HandTextError | None = None
    size = hands = number = length = 0
    for number, (line, length, taken) in enumerate(lines, 1):
        item: _Entry | _Word | HandTextError | None
        try:
            item = _line(line.removeprefix("\ufeff") if number == 1 else line, number, source)
        except HandTextError as exc:
            item = exc
        if isinstance(item, _Entry) and item.key == "ruleset":
            if start is not None:
                hands += 1
                yield TypedHand(f"{source}:{start.line}", start.line, start.column,
                                tuple(entries), source, (item.line, item.column), problem)
            start, entries, problem, size = item, [], None, 0
        elif start is None:
            if item is None and length <= MAX_LINE:
                continue
            yield _before_a_hand(item, number, length, source)
            return
        size += taken
        if problem is not None:
            continue  # a hand refused: the rest of it is read to find the next, not kept
        if length > MAX_LINE:
            problem = _too_long(source, number, length)
        elif size > MAX_HAND:
            problem = HandTextError(source, number, 1, f"the hand is over {MAX_HAND:,} "
                                    f"characters long (from line {start.line}): a hand is at "
                                    f"most that ({LIMITS})")
        elif isinstance(item, HandTextError):
            problem = item
        elif isinstance(item, _Entry):
            entries.append(item)
        elif isinstance(item, _Word):
            continued = entries[-1] if entries else start
            problem = _missing_colon(item, continued.key in SECTIONS, source)
            if problem is None:
                continued.pieces.append(item)
    end = (max(number, 1), length + 1)
    if start is None:
        yield HandTextError(source, *end, "no hand: a hand starts with 'ruleset: ID'")
        return
    where = f"{source}:{start.line}" if hands else source
    yield TypedHand(where, start.line, start.column, tuple(entries), source, end, problem)


# --- reading: one hand -------------------------------------------------------------------------
class _Reader:
    """Reads the entries of one hand into its record, replaying each step."""

    def __init__(self, entries: list[_Entry], source: str, end: tuple[int, int],
                 irregular: bool = False) -> None:
        self.entries = entries
        self.source = source
        self.end = end  # where the text ends (for what is missing at the end)
        self.irregular = irregular  # cards the rules refuse are read as played (TypedHand)
        self.played_on = False  # a card was read as played: so is every card after it

    def error(self, at: _Word | _Entry | tuple[int, int], message: str,
              rule: str | None = None) -> HandTextError:
        if isinstance(at, tuple):
            line, column = at
        else:
            line, column = at.line, at.column
        return HandTextError(self.source, line, column, message, rule)

    def one(self, entry: _Entry) -> _Word:
        words = list(itertools.islice(entry.words(), 2))
        if len(words) != 1:
            at = words[1] if words else (entry.line, entry.value_column)
            count = sum(1 for _ in entry.words())
            raise self.error(at, f"'{entry.key}:' takes one value, not {count:,}")
        return words[0]

    def number(self, word: _Word, what: str, signed: bool = False) -> int:
        # Every whole number of napkit's formats, as the JSON reader takes them (2^53 - 1 has
        # 16 digits: a pattern of 15 refused the largest, and called them not whole).
        if re.fullmatch(r"-?[0-9]+" if signed else r"[0-9]+", word.text) is None:
            kind = "a whole number" if signed else "a whole number (0 or more)"
            raise self.error(word, f"{what} is {kind}, not {word.text[:40]!r}")
        if len(word.text.lstrip("-0")) > 16 or abs(int(word.text)) > WHOLE:
            raise self.error(word, f"{what} is beyond the largest whole number napkit reads "
                                   f"(2^53 - 1 either way), not {word.text[:40]!r}")
        return int(word.text)

    def numbers(self, entry: _Entry, signed: bool = False) -> list[int]:
        return [self.number(w, f"each value of '{entry.key}:'", signed)
                for w in entry.words()]

    def read(self) -> dict[str, Any]:
        header: dict[str, _Entry] = {}
        rest = list(self.entries)
        while rest and rest[0].key in _HEADER:
            entry = rest.pop(0)
            if entry.key in header:
                first = header[entry.key]
                raise self.error(entry, f"'{entry.key}:' is given twice (first at line "
                                        f"{first.line})")
            header[entry.key] = entry
        game, state = self.table(header, rest[0] if rest else None)
        state, pack, rest = self.deal(game, state, rest)
        steps: list[dict[str, Any]] = []
        seen: dict[str, _Entry] = {}
        for entry in rest:
            if entry.key not in SECTIONS:
                raise self.misplaced(entry)
            if entry.key in seen:
                raise self.error(entry, f"'{entry.key}:' is given twice (first at line "
                                        f"{seen[entry.key].line}): write the {entry.key} in "
                                        "one place")
            seen[entry.key] = entry
            for part in entry.steps(self.source):
                for one in self.plays(part):
                    state = self.step(state, entry.key, one, steps)
        return {
            "format": HAND_FORMAT, **table_json(state), "deal": cards_to_json(pack),
            "actions": steps, "outcome": hand_outcome(state) if state.is_over() else None}

    def misplaced(self, entry: _Entry) -> HandTextError:
        key = entry.key
        if key in _HEADER:
            return self.error(entry, f"'{key}:' belongs before the deal, with 'ruleset:'")
        if key in ("widow", "stock", *_WIDOW_KEYS) or _SEAT_KEY.fullmatch(key):
            return self.error(entry, f"{quoted(key + ':')} belongs to the deal, before the "
                                     "steps")
        return self.unknown(entry)

    def unknown(self, entry: _Entry) -> HandTextError:
        """A key the notation does not have, with the known keys nearest its spelling."""
        close = difflib.get_close_matches(entry.key, _SPELLINGS, n=2, cutoff=0.6)
        hint = f": did you mean {' or '.join(quoted(k + ':') for k in close)}?" if close else ""
        return self.error(entry, f"unknown key {quoted(entry.key + ':')}{hint} (the keys: "
                                 f"{', '.join(_KEYS)})")

    # --- the game and the table ---------------------------------------------------------------
    def table(self, header: dict[str, _Entry], first: _Entry | None) -> tuple[Game, HandState]:
        ruleset = self.one(header["ruleset"])
        for key in ("players", "dealer"):
            if key not in header and first is not None and not _known(first.key):
                raise self.unknown(first)  # a misspelt key, more likely than a missing one
            later = next((e for e in self.entries if e.key == key), None)
            if later is not None and key not in header:
                raise self.misplaced(later)
            if key not in header:
                at = (first.line, first.column) if first else self.end
                raise self.error(at, f"'{key}:' is missing: the table comes before the deal "
                                     "('players: N', 'dealer: SEAT')")
        players = self.number(self.one(header["players"]), "players")
        options: dict[str, str] = {}
        for word in header["options"].words() if "options" in header else []:
            name, equals, choice = word.text.partition("=")
            if not equals or not name or not choice:
                raise self.error(word, f"an option is NAME=CHOICE, not {quoted(word.text)}")
            if name in options:
                raise self.error(word, f"option {quoted(name)} is given twice")
            options[name] = choice
        try:
            game = Game.create(ruleset.text, players, options)
        except SetupError as exc:
            where: _Word | _Entry = ruleset
            if exc.rule != "NAP-10.1.1":
                where = self.one(header["players"])
            elif "no ruleset" not in exc.message and "options" in header:
                words = header["options"].words()
                where = next((w for w in words if re.search(
                    rf"option '?{re.escape(w.text.partition('=')[0])}\b", exc.message)),
                    header["options"])
            raise self.error(where, exc.message, exc.rule) from None
        dealer = self.number(self.one(header["dealer"]), "the dealer")
        seats = self.seats(header["seats"]) if "seats" in header else None
        pool = self.number(self.one(header["pool"]), "the pool") if "pool" in header else 0
        # A seat's chips may be below 0 where a match lets debts run (short-payment=debt).
        funds = tuple(self.numbers(header["funds"], signed=True)) if "funds" in header else None
        stakes = self.number(self.one(header["stakes"]), "the stakes") \
            if "stakes" in header else 1
        if stakes < 1:
            raise self.error(self.one(header["stakes"]), "the stakes are at least 1")
        try:
            state = game.new_hand(dealer, seats=seats, pool=pool, funds=funds, stakes=stakes)
            # The pack the seats dealt in are dealt from: the engine lets a table of fewer
            # seats than players through (a match's knock-outs), and finds out at the deal
            # that its ruleset has no pack for that many (NAP-2.2.1), as the JSON reader does.
            deal_layout(state)
        except RuleError as exc:
            key = {"NAP-4.1.1": "dealer", "NAP-10.1.2": "funds"}.get(exc.rule, "seats")
            blamed = header.get(key, header["dealer"])
            raise self.error(next(blamed.words(), None) or blamed, exc.message,
                             exc.rule) from None
        return game, state

    def seats(self, entry: _Entry) -> tuple[int, ...]:
        """The seats dealt in, each once (as the JSON record's schema holds them)."""
        found: dict[int, _Word] = {}
        for word in entry.words():
            seat = self.number(word, "each value of 'seats:'")
            if seat in found:
                first = found[seat]
                raise self.error(word, f"seat {seat} is listed twice (first at line "
                                       f"{first.line}, column {first.column})")
            found[seat] = word
        return tuple(found)

    # --- the deal ------------------------------------------------------------------------------
    def deal(self, game: Game, state: HandState, rest: list[_Entry]) -> tuple[
            HandState, tuple[int, ...], list[_Entry]]:
        """Implements: NAP-2.2.1, NAP-4.2.1, NAP-4.3.1 (as the reader checks a typed deal).

        Each seat's five cards, the widow, the stock, each card of the hand's pack once; the
        pack is rebuilt by inverting the engine's own deal (:func:`deal_layout`)."""
        places, widow_place, stock_places = deal_layout(state)
        pack_cards = set(cards_of(hand_pack(state)))
        size = len(pack_cards)
        pack: list[int | None] = [None] * size
        placed: dict[int, _Word] = {}
        seen_keys: dict[str, _Entry] = {}
        named = game.rules.widow.name if game.rules.widow else "widow"

        while rest and (_SEAT_KEY.fullmatch(rest[0].key) or rest[0].key in (
                "stock", *_WIDOW_KEYS)):
            entry = rest.pop(0)
            seat_key = _SEAT_KEY.fullmatch(entry.key)
            key = "seat " + seat_key.group(1) if seat_key else (
                "widow" if entry.key in _WIDOW_KEYS else entry.key)
            if key in seen_keys:
                raise self.error(entry, f"{quoted(entry.key + ':')} is given twice (first at "
                                        f"line {seen_keys[key].line})")
            seen_keys[key] = entry
            if seat_key:
                seat = self.number(_Word(seat_key.group(1), entry.line, entry.column + 5),
                                   "a seat")
                if seat not in places:
                    raise self.error(entry, f"seat {seat} is not dealt in (the hand's seats: "
                                            f"{' '.join(map(str, sorted(places)))})")
                dealt = self.cards(entry, game, state, pack_cards, placed)
                if len(dealt) != 5:
                    raise self.error(entry, f"seat {seat} is dealt {len(dealt)} cards: every "
                                            "player is dealt five", "NAP-4.2.1")
                for place, (card, _) in zip(places[seat], dealt, strict=True):
                    pack[place] = card
            elif key == "widow":
                if widow_place < 0:
                    raise self.error(entry, f"{game.id} deals no widow", "NAP-4.3.1")
                dealt = self.cards(entry, game, state, pack_cards, placed)
                if len(dealt) != 1:
                    raise self.error(entry, f"the {named} is one card, not {len(dealt)}",
                                     "NAP-4.3.1")
                pack[widow_place] = dealt[0][0]
            else:
                dealt = self.cards(entry, game, state, pack_cards, placed)
                if len(dealt) != len(stock_places):
                    raise self.error(entry, f"the stock is {len(stock_places)} cards, not "
                                            f"{len(dealt)}", "NAP-2.2.1")
                for place, (card, _) in zip(stock_places, dealt, strict=True):
                    pack[place] = card
        if rest and rest[0].key not in SECTIONS:  # neither the deal nor a step: say what it is
            raise self.misplaced(rest[0])
        at = (rest[0].line, rest[0].column) if rest else self.end
        missing = [seat for seat in sorted(places) if f"seat {seat}" not in seen_keys]
        if missing:
            raise self.error(at, f"seat {missing[0]}'s cards are not given ('seat "
                                 f"{missing[0]}: five cards'): every player is dealt five",
                             "NAP-4.2.1")
        if widow_place >= 0 and "widow" not in seen_keys:
            raise self.error(at, f"the {named} is not given ('{named}: CARD'): {game.id} "
                                 "deals one card face down", "NAP-4.3.1")
        # The stock may be left out: the cards no one was dealt, in card order.
        left = iter(sorted(pack_cards - set(placed)))
        full = tuple(next(left) if card is None else card for card in pack)
        try:
            return state.apply(Deal(full)), full, rest
        except RuleError as exc:  # not expected: the checks above are the deal's
            raise self.error(at, exc.message, exc.rule) from None

    def cards(self, entry: _Entry, game: Game, state: HandState, pack_cards: set[int],
              placed: dict[int, _Word]) -> list[tuple[int, _Word]]:
        """The cards of a line of the deal, each in the pack and not dealt before."""
        found = []
        for word in entry.words():
            card = self.card(word)
            if card in placed:
                first = placed[card]
                raise self.error(word, f"{card_name(card)} is dealt twice (first at line "
                                       f"{first.line}, column {first.column})", "NAP-2.2.1")
            if card not in pack_cards:
                raise self.error(word, f"{card_name(card)} is not in this hand's pack "
                                       f"({game.id} for {at_table(state)} players)",
                                 "NAP-2.2.1")
            placed[card] = word
            found.append((card, word))
        return found

    def card(self, word: _Word) -> int:
        try:
            return parse_card(word.text)
        except ValueError:
            raise self.error(word, f"{quoted(word.text)} is not a card: "
                                   f"{not_a_card(word.text)}") from None

    def plays(self, part: _Word) -> Iterator[list[_Word]]:
        """The words of each step a step's text makes: a step of two or more cards and nothing
        else (``5S AS JC``) is as many plays, each made before the next word is looked at.
        Each word of such a run is a card; a seat goes before one action, not before a run
        (``2 AC 3C``: the run's cards are not all that seat's)."""
        words = _split(part, _TOKEN)
        first = list(itertools.islice(words, 3))
        seat = first[:1] if first and first[0].text.isdigit() else []
        run = first[len(seat):len(seat) + 2]
        if len(run) < 2 or not _is_card(run[0].text):
            yield [*first, *words]
            return
        if seat:  # the fix, shown with the first few of the words typed
            cards = [w.text for w in (*run, *itertools.islice(words, 4))]
            more = next(words, None) is not None
            commas = f"{seat[0].text} {', '.join(cards)}{', ...' if more else ''}"
            alone = f"{' '.join(cards)}{' ...' if more else ''}"
            raise self.error(seat[0], f"{quoted(part.text.strip())}: a seat goes before one "
                                      "action, not several cards: part the steps with commas "
                                      f"({quoted(commas)}) or leave the seat out "
                                      f"({quoted(alone)})")
        for word in itertools.chain(first, words):
            if not _is_card(word.text):
                why = not_a_card(word.text) if is_card_like(word.text) else (
                    "a step of cards alone ('5S AS JC') holds cards only: part the other "
                    "steps from it with commas")
                raise self.error(word, f"{quoted(word.text)} is not a card: {why}")
            yield [word]

    # --- the steps -----------------------------------------------------------------------------
    @staticmethod
    def unfinished(state: HandState, section: str) -> str | None:
        """Why a step of ``section`` cannot be taken yet, where the hand is still in an earlier
        section (a play typed while the auction waits for a bid): that section is not
        finished, and who is still to act in it; None where it is not so."""
        names = list(SECTIONS)
        now = next((name for name, phases in SECTIONS.items() if state.phase in phases), None)
        if now is None or names.index(now) >= names.index(section):
            return None
        widow = state.game.rules.widow
        to_do = {PURCHASE: "buy ('buy CARDS', or 'buy nothing')",
                 RESHUFFLE: "make a new stock of the discards ('reshuffle CARDS')",
                 AUCTION: "bid or pass", DISCARD: "discard ('discard CARD')",
                 EXCHANGE: f"take or leave the {widow.name if widow else 'widow'}",
                 NAMING: "name trumps ('name SUIT')"}[state.phase]
        who = "chance" if state.turn == CHANCE else f"seat {state.turn}"
        return (f"the {now} is not finished: {who} is still to {to_do} (write it after "
                f"'{now}:', before '{section}:')")

    def played(self, state: HandState, seat: int | None, action: Action) -> HandState:
        """The hand after ``seat``'s ``action``; the :class:`~napkit.errors.RuleError` it
        breaks if it breaks one. Read ``irregular``, a card the rules refuse (a revoke, a
        card out of turn, a wrong first lead) is taken as the table played it
        (:func:`napkit.engine.hand.as_played`), and so is every card after it: a trick it
        is in is not the rules' round. So is a bid or pass the auction refuses (a bid that
        does not outrank the last or lacks the bid it needs, a call out of turn:
        :func:`napkit.engine.hand.as_bid`); the calls after it are the rules' again."""
        if self.irregular and isinstance(action, Play) and seat is not None and (
                state.phase == PLAY):
            if self.played_on:
                return as_played(state, seat, action.card)
            refused = turn_refusal(state.turn, seat) or state.refusal(action)
            if refused is not None:
                self.played_on = True
                return as_played(state, seat, action.card)
        if self.irregular and isinstance(action, Bid | Pass) and seat is not None and (
                state.phase == AUCTION) and (
                turn_refusal(state.turn, seat) or state.refusal(action)) is not None:
            return as_bid(state, seat, action)
        refused = turn_refusal(state.turn, seat)
        if refused is not None:
            raise refused
        return state.apply(action)

    def step(self, state: HandState, section: str, words: list[_Word],
             steps: list[dict[str, Any]]) -> HandState:
        start = words[0]
        seat: int | None = None
        action: Action
        if words[0].text.lower() == "reshuffle":
            stock = []
            for word in words[1:]:
                stock.append(self.card(word))
            action = Reshuffle(tuple(stock))
        else:
            if words[0].text.isdigit():
                seat = self.number(words[0], "a seat")
                words = words[1:]
                if not words:
                    raise self.error(start, f"seat {seat} does what? write the action after "
                                            "the seat, as '1 pass'")
            try:
                action = parse_action(" ".join(w.text for w in words),
                                      bids=[bid.id for bid in state.game.rules.bids])
            except NotationError as exc:
                raise self.error(words[0], str(exc)) from None
            if seat is None and state.turn == CHANCE:
                raise self.error(start, "it is chance's turn, not a player's: the stock is "
                                        "made again of the discards ('reshuffle CARDS')",
                                 "NAP-1.3.1")
            if seat is None:
                seat = state.turn
        unfinished = self.unfinished(state, section)
        if unfinished:
            raise self.error(start, unfinished)
        if state.is_over():
            raise self.error(start, "the hand is over: this step is one too many", "NAP-1.3.3")
        phase = state.phase
        try:
            after = self.played(state, seat, action)
        except RuleError as exc:
            raise self.error(start, exc.message, exc.rule) from None
        if phase not in SECTIONS[section]:
            belongs = next(name for name, phases in SECTIONS.items() if phase in phases)
            raise self.error(start, f"'{action_text(action)}' is a step of the {belongs}, "
                                    f"not of the {section}: write it after '{belongs}:'")
        steps.append(step_to_json(CHANCE if seat is None else seat, action))
        return after


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def deal_layout(state: HandState) -> tuple[dict[int, tuple[int, ...]], int, tuple[int, ...]]:
    """Where the deal puts each place of the pack, found by dealing the pack in card order
    through the engine's own deal: each seat's places in the order dealt, the widow's place
    (-1: none), and the stock's places, top first."""
    key = ("formats.handtext", "layout", state.dealer, state.order)
    memo = state.game.memo
    found: tuple[dict[int, tuple[int, ...]], int, tuple[int, ...]] | None = memo.get(key)
    if found is None:
        cards = cards_of(hand_pack(state))
        place = {card: i for i, card in enumerate(cards)}
        dealt = state.apply(Deal(cards))
        found = memo[key] = (
            {seat: tuple(place[c] for c in dealt.hand(seat)) for seat in state.order},
            place[dealt.widow] if dealt.widow >= 0 else -1,
            tuple(place[c] for c in dealt.stock))
    return found


def loads(text: str, source: str = "<text>") -> list[dict[str, Any]]:
    """The ``napkit-hand/1`` records of the hands a text writes in the hand notation, in
    order (a text may hold several hands, each starting at its ``ruleset:`` line).

    Raises :class:`HandTextError` at the first problem: where (line, column), the rule broken
    where there is one, and what is wrong.
    """
    records = []
    for _, item in hand_items(text, source):
        if isinstance(item, HandTextError):
            raise item
        records.append(item)
    return records


def read_hand_text(text: str, source: str = "<text>", *,
                   irregular: bool = False) -> dict[str, Any]:
    """The record of the one hand a text writes (:func:`loads`; more than one is an error);
    ``irregular``: cards the rules refuse read as played (:meth:`TypedHand.record`)."""
    record: dict[str, Any] | None = None
    for hand in typed_hands(text, source):
        if isinstance(hand, HandTextError):
            raise hand
        if record is not None:  # the second is not read: one is expected
            raise HandTextError(source, hand.line, hand.column,
                                "a second hand: one hand is expected here")
        record = hand.record(irregular)
    assert record is not None  # typed_hands gives a hand or an error
    return record


# --- writing -------------------------------------------------------------------------------------
def action_text(action: Action, symbols: bool = False) -> str:
    """An action as the notation writes it: the shortest form :func:`parse_action` reads, its
    cards with their suits' symbols (``A♣``) where ``symbols`` is set."""
    match action:
        case Play(card=card):
            text = card_name(card)
        case TakeWidow():
            text = "take"
        case LeaveWidow():
            text = "leave"
        case NameTrumps(suit=suit):
            text = f"name {SUIT_NAMES[suit]}"
        case _:
            text = str(action)
    return with_symbols(text) if symbols else text


def _wrapped(key: str, items: list[str], width: int = 96) -> list[str]:
    """``key: item, item...``, carried on to lines of their own past ``width``."""
    lines = [f"{key}:"]
    for i, item in enumerate(items):
        piece = f" {item}" + ("," if i < len(items) - 1 else "")
        if len(lines[-1]) + len(piece) > width and lines[-1] != f"{key}:":
            lines.append(" ")
        lines[-1] += piece
    return lines


def _words_wrapped(key: str, items: list[str], width: int = 96) -> list[str]:
    lines = [f"{key}:"]
    for item in items:
        if len(lines[-1]) + 1 + len(item) > width and lines[-1] != f"{key}:":
            lines.append(" ")
        lines[-1] += f" {item}"
    return lines


def _party(party: int) -> str:
    return "the pool" if party == POOL else f"seat {party}"


def hand_text(state: HandState, symbols: bool = False) -> str:
    """The hand notation of a hand as far as it has gone (dealt at least), canonical; with
    ``symbols``, each card's suit written as its symbol (``A♣``), which reads back the same.

    >>> from napkit import Game
    >>> from napkit.formats.handtext import hand_text
    >>> from napkit.formats.recording import play_table
    >>> [hand] = play_table(Game.create("pagat", 3), seed=1)
    >>> print(hand_text(hand).splitlines()[0])
    ruleset: pagat
    """
    table, deal = table_lines(state, symbols)
    lines = [*table, *deal, *_steps_text(dealt_start(state), state.history[1:], symbols)]
    lines += end_comment(state)
    return "\n".join(lines) + "\n"


def hand_start(state: HandState) -> HandState:
    """The hand as it was before its deal: the same game, dealer, seats, pool, chips and
    stakes, waiting for the deal."""
    return new_hand(state.game, state.dealer, state.order, start_pool(state),
                    start_funds(state), state.stakes)


def dealt_start(state: HandState) -> HandState:
    """The hand just after its deal (a hand dealt at least)."""
    history = state.history
    if not history:
        raise ValueError("a hand is written once it is dealt")
    return hand_start(state).apply(history[0][1])


def table_lines(state: HandState, symbols: bool = False) -> tuple[list[str], list[str]]:
    """The notation's lines of a dealt hand's game and table (``ruleset:`` to ``stakes:``),
    and of its deal (each seat's cards as dealt, the widow, the stock; with ``symbols``, their
    suits as symbols)."""
    name = card_symbol if symbols else card_name
    history = state.history
    if not history:
        raise ValueError("a hand is written once it is dealt")
    deal = history[0][1]
    assert isinstance(deal, Deal)
    game = state.game
    table = table_json(state)
    lines = [f"ruleset: {game.id}"]
    lines += _words_wrapped("options", [f"{k}={v}" for k, v in table["options"].items()])
    lines += [f"players: {game.players}", f"dealer: {state.dealer}"]
    if table["seats"] != list(range(game.players)):
        lines.append("seats: " + " ".join(map(str, table["seats"])))
    if table["pool"]:
        lines.append(f"pool: {table['pool']}")
    if table["funds"] is not None:
        lines.append("funds: " + " ".join(map(str, table["funds"])))
    if table["stakes"] != 1:
        lines.append(f"stakes: {table['stakes']}")
    places, widow_place, stock_places = deal_layout(hand_start(state))
    pack = deal.pack
    dealt = [f"seat {seat}: " + " ".join(name(pack[p]) for p in places[seat])
             for seat in sorted(places)]
    if widow_place >= 0:
        named = game.rules.widow.name if game.rules.widow else "widow"
        dealt.append(f"{'floater' if named == 'floating card' else named}: "
                     f"{name(pack[widow_place])}")
    if stock_places:
        dealt += _words_wrapped("stock", [name(pack[p]) for p in stock_places])
    return lines, dealt


def _steps_text(state: HandState, steps: Iterable[tuple[int, Action]],
                symbols: bool = False) -> list[str]:
    sections: dict[str, list[str]] = {}
    tricks: list[str] = []
    trick: list[str] = []
    for actor, action in steps:
        section = next(name for name, phases in SECTIONS.items() if state.phase in phases)
        text = action_text(action, symbols)
        text = text if actor == CHANCE else f"{actor} {text}"
        before = len(state.tricks)
        state = state.apply(action)
        if section != "play":
            sections.setdefault(section, []).append(text)
            continue
        trick.append(text)
        if len(state.tricks) > before:
            tricks.append(", ".join(trick) + f"  # seat {state.tricks[-1].winner} wins")
            trick = []
    lines = []
    for name in SECTIONS:
        if name in sections:
            lines += _wrapped(name, sections[name])
    if trick:
        tricks.append(", ".join(trick))
    if tricks:
        lines.append("play:")
        lines += [f"  {line}" for line in tricks]
    return lines


def end_comment(state: HandState) -> list[str]:
    """Comments on how the hand ends (the reader works it out again; they are for people)."""
    result = state.result
    if result is None:
        who = "chance" if state.turn == CHANCE else f"seat {state.turn}"
        return [f"# the hand stops in the {state.phase_name}: {who} to act"]
    if result.thrown_in:
        words = ["thrown", "in"]
    else:
        made = "made" if result.made else "lost"
        words = f"seat {result.declarer}'s {result.contract}: {result.tricks} tricks, {made}"\
            .split()
    for p in result.payments:
        words[-1] += ";"
        words += f"{_party(p.payer)} pays {_party(p.payee)} {p.amount} ({p.rule})".split()
    lines = _words_wrapped("# outcome", words)
    return [lines[0], *(f"#  {line.strip()}" for line in lines[1:])]


def state_record(state: HandState) -> dict[str, Any]:
    """The ``napkit-hand/1`` record of a hand as far as it has gone (dealt at least): the
    outcome is null until the hand is over."""
    history = state.history
    if not history:
        raise ValueError("a hand is recorded once it is dealt")
    deal = history[0][1]
    assert isinstance(deal, Deal)
    return {"format": HAND_FORMAT, **table_json(state), "deal": cards_to_json(deal.pack),
            "actions": [step_to_json(a, x) for a, x in history[1:]],
            "outcome": hand_outcome(state) if state.is_over() else None}


def write_hand(record: Mapping[str, Any], source: str = "<record>",
               symbols: bool = False) -> str:
    """The hand notation of a ``napkit-hand/1`` record, canonical (its suits as symbols with
    ``symbols``); :class:`HandFileError` (by JSON path) if the record is not a valid hand: the
    notation holds only what the rules allow, and works its outcome out again."""
    problems = schema_problems("hand-record", record)
    if problems:
        raise HandFileError(source, *problems[0])
    found = check_hand_record(record)
    if found:
        raise HandFileError(source, found[0].path, found[0].message, found[0].rule)
    replayed = replay_hand(record, [], finished=False)
    assert replayed is not None
    return hand_text(replayed, symbols)


def dumps(records: Iterable[Mapping[str, Any]], symbols: bool = False) -> str:
    """The hand notation of one or more records (:func:`write_hand`), a blank line between
    hands."""
    return "\n".join(write_hand(record, symbols=symbols) for record in records)


# --- files of either notation ------------------------------------------------------------------
def is_notation(name: str, text: str) -> bool:
    """Whether a file is in the hand notation rather than JSON: by its suffix (``.nap``;
    ``.json`` and ``.jsonl`` are JSON), else by its first line that is not blank, which in the
    notation is a comment or a key (``ruleset: ...``) and in JSON never is.

    >>> from napkit.formats.handtext import is_notation
    >>> is_notation("-", "# a hand\\nruleset: pagat"), is_notation("-", '{"format": ...}')
    (True, False)
    """
    suffix = Path(name).suffix.lower()
    if suffix == SUFFIX:
        return True
    if suffix in (".json", ".jsonl"):
        return False
    first = next((line.strip() for line in text.removeprefix("\ufeff").splitlines()
                  if line.strip()), "")
    return bool(re.match(r"#|[A-Za-z][A-Za-z ]*[0-9]*\s*:", first))


def hand_items(text: str | Iterable[str], source: str) -> Iterator[
        tuple[str, dict[str, Any] | HandTextError]]:
    """Each hand of a text in the notation, read on its own (:func:`typed_hands`): (where,
    its record or why it is not a hand); ``where`` is ``source``, or ``source:LINE`` of the
    hand's ``ruleset:`` line in a text of several hands. One bad hand does not stop the others
    from being read."""
    for hand in typed_hands(text, source):
        if isinstance(hand, HandTextError):
            yield source, hand
            continue
        try:
            record = hand.record()
        except HandTextError as exc:
            yield hand.where, exc
            continue
        yield hand.where, record


def read_hand_file(path: str | Path, *, check: bool = True,
                   irregular: bool = False) -> dict[str, Any]:
    """The ``napkit-hand/1`` record of the one hand a file holds, in the hand notation or as
    JSON (:func:`is_notation` tells which); ``-`` is not read here.

    Raises :class:`HandFileError`: a file that cannot be read, JSON that is not a hand record
    (by JSON path), or notation that is not a hand (:class:`HandTextError`, by line and
    column). A JSON record is checked against its schema and, with ``check``, replayed by the
    rules (notation always is: its outcome is worked out by replay; with ``irregular``, cards
    the rules refuse are read as played, :meth:`TypedHand.record`).
    """
    source = str(path)
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(MAX_HAND + 1)  # no more: a file of any size is not held whole
    except UnicodeDecodeError as exc:
        raise HandFileError(source, "$", not_utf8(exc)) from None
    except OSError as exc:
        raise HandFileError(source, "$", f"cannot read: {exc.strerror or exc}") from None
    if len(text) > MAX_HAND:
        raise HandFileError(source, "$", f"the file is over {MAX_HAND:,} characters long: a "
                                         f"file of one hand is at most that ({LIMITS})")
    if is_notation(source, text):
        return read_hand_text(text, source, irregular=irregular)
    try:
        record = read_json(text)
    except ReadError as exc:
        raise HandFileError(source, exc.where, exc.what()) from None
    if not isinstance(record, dict) or record.get("format") != HAND_FORMAT:
        raise HandFileError(source, "$.format", f"expected a hand record ({HAND_FORMAT})")
    problems = schema_problems("hand-record", record)
    if problems:
        raise HandFileError(source, *problems[0])
    if check:
        found = check_hand_record(record)
        if found:
            raise HandFileError(source, found[0].path, found[0].message, found[0].rule)
    return record
