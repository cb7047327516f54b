"""A player's actions as text, as a person types them at the table.

``pass``, ``bid nap`` (a bid by its id in the ruleset), ``peek``, ``buy AS KD`` or
``buy nothing``, ``take``, ``leave``, ``discard 10H``, ``name hearts`` (or ``name H``),
``play 10H`` or just ``10H``, ``ante``, ``sit out``. Case and extra spaces do not matter. The
``str()`` of every player's action (``take the widow``, ``name H trumps``...) is read back as
that action. Cards are read by :func:`napkit.engine.cards.parse_card`.

Parsing checks only the form: whether the action is legal is for the engine to say, with its
rule id (a bid that the ruleset does not have is refused by the auction, NAP-5.2.2).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

from napkit.engine.actions import (
    ANTE,
    DISCARDS,
    LEAVE_WIDOW,
    NAMES,
    PASS,
    PEEK,
    PLAYS,
    SIT_OUT,
    TAKE_WIDOW,
    Action,
    Bid,
    Buy,
)
from napkit.engine.cards import (
    SUIT_LETTERS,
    SUIT_NAMES,
    card_name,
    is_card_like,
    not_a_card,
    parse_card,
)
from napkit.output.tables import cut, printable

FORMS = ("pass", "bid BID", "peek", "buy CARDS", "buy nothing", "take", "leave", "discard CARD",
         "name SUIT", "play CARD", "CARD", "ante", "sit out")
"""What may be typed, for messages."""


class NotationError(ValueError):
    """Text that is not an action; ``str()`` is one line saying what may be typed."""


def quoted(text: str, limit: int = 40) -> str:
    """Typed text quoted in a message: escaped for the terminal and, past ``limit`` columns,
    cut, with its length said (a message stays one short line whatever was typed).

    >>> from napkit.formats.notation import quoted
    >>> print(quoted("fold"), quoted("x" * 5000, 8))
    'fold' 'xxxxxxx…' (5,000 characters)
    """
    shown = printable(text)
    kept = cut(shown, limit)
    return f"'{kept}'" if kept == shown else f"'{kept}' ({len(text):,} characters)"


def parse_action(text: str, bids: Iterable[str] = ()) -> Action:
    """The player's action that ``text`` writes; :class:`NotationError` if it writes none,
    naming the fault and the fix: a mistyped card is not a card (``1C``: did you mean 10C?), a
    bid of ``bids`` (the ruleset's bid ids, where the caller knows them) typed without its
    ``bid`` is meant as one (``nap``: did you mean 'bid nap'?).

    >>> from napkit import parse_action
    >>> parse_action("bid nap"), parse_action("10H")
    (Bid(bid='nap'), Play(card=21))
    >>> [str(parse_action(text)) for text in ("Bid Nap", "10h", "buy as, kd", "pass")]
    ['bid nap', 'play 10H', 'buy AS KD', 'pass']
    >>> from napkit.formats.notation import NotationError
    >>> try:
    ...     parse_action("1C")
    ... except NotationError as exc:
    ...     print(exc)
    cannot read '1C': '1C' is not a card: ranks are 2-10, J, Q, K, A (did you mean 10C?)
    """
    words = text.replace(",", " ").lower().split()
    if not words:
        raise _error(text, "nothing was typed")
    head, rest = words[0], words[1:]
    reader = _READERS.get(head)
    if reader is not None:
        return reader(text, rest)
    if words in (["sit", "out"], ["sitout"], ["sit-out"]):
        return SIT_OUT
    if is_card_like(head):  # a card, or meant as one: played bare, one at a time
        card = _card(text, head)
        if rest:
            raise _error(text, f"a card is played on its own, one at a time, as "
                               f"'{card_name(card)}'", forms=False)
        return PLAYS[card]
    bid = "-".join(words)
    if bid in bids:
        raise _error(text, f"{quoted(words[0])} is not an action: did you mean "
                           f"{quoted('bid ' + bid)}?", forms=False)
    close = difflib.get_close_matches(head, _WORDS, n=1, cutoff=0.75)
    if close:
        raise _error(text, f"{quoted(words[0])} is not an action: did you mean "
                           f"{quoted(close[0])}?")
    raise _error(text, f"{quoted(words[0])} is not an action")


def _error(text: str, why: str, forms: bool = True) -> NotationError:
    """The one line of a text that is no action: what is wrong and, unless ``why`` says the
    fix, every form that may be typed."""
    listed = "; type one of: " + ", ".join(FORMS) if forms else ""
    return NotationError(f"cannot read {quoted(text.strip())}: {why}{listed}")


def _bare(action: Action, *allowed: tuple[str, ...]) -> Callable[[str, list[str]], Action]:
    def read(text: str, rest: list[str]) -> Action:
        if not rest or tuple(rest) in allowed:
            return action
        raise _error(text, f"{action} takes nothing more")
    return read


def _bid(text: str, rest: list[str]) -> Action:
    if not rest:
        raise _error(text, "say which bid, as 'bid nap'")
    return Bid("-".join(rest))  # 'bid nap without' is the bid nap-without


def _card(text: str, word: str) -> int:
    try:
        return parse_card(word)
    except ValueError:  # upper case, so that a message quotes 11H, not 11h
        raise _error(text, f"{quoted(word.upper())} is not a card: {not_a_card(word)}",
                     forms=False) from None


def _one_card(kinds: tuple[Action, ...], verb: str) -> Callable[[str, list[str]], Action]:
    def read(text: str, rest: list[str]) -> Action:
        if len(rest) != 1:
            raise _error(text, f"{verb} takes one card, as '{verb} 10H'")
        return kinds[_card(text, rest[0])]
    return read


def _buy(text: str, rest: list[str]) -> Action:
    if rest == ["nothing"]:
        return Buy(0)
    if not rest:
        raise _error(text, "say which cards to discard, as 'buy AS KD', or 'buy nothing'")
    mask = 0
    for word in rest:
        bit = 1 << _card(text, word)
        if mask & bit:
            raise _error(text, f"{word.upper()} is listed twice")
        mask |= bit
    return Buy(mask)


_SUITS = {**{name: s for s, name in enumerate(SUIT_NAMES)},
          **{name[:-1]: s for s, name in enumerate(SUIT_NAMES)},
          **{letter.lower(): s for s, letter in enumerate(SUIT_LETTERS)}}


def _name(text: str, rest: list[str]) -> Action:
    if rest[-1:] == ["trumps"]:
        rest = rest[:-1]
    if len(rest) != 1 or rest[0] not in _SUITS:
        raise _error(text, "name a suit: spades, hearts, diamonds, clubs (or S, H, D, C)")
    return NAMES[_SUITS[rest[0]]]


def _sit(text: str, rest: list[str]) -> Action:
    if rest == ["out"]:
        return SIT_OUT
    raise _error(text, "did you mean 'sit out'?")


# What the rulesets call the widow, with or without "the": "take the floater" is "take".
_WIDOW_WORDS = tuple(words for name in ("widow", "floater", "floating card", "kitty")
                     for words in (tuple(name.split()), ("the", *name.split())))

_READERS: dict[str, Callable[[str, list[str]], Action]] = {
    "pass": _bare(PASS), "bid": _bid, "peek": _bare(PEEK), "buy": _buy,
    "take": _bare(TAKE_WIDOW, *_WIDOW_WORDS),
    "leave": _bare(LEAVE_WIDOW, *_WIDOW_WORDS),
    "discard": _one_card(DISCARDS, "discard"), "name": _name,
    "play": _one_card(PLAYS, "play"), "ante": _bare(ANTE), "sit": _sit,
}
# The words an action starts with, for a "did you mean" on a word that is none of them.
_WORDS = (*_READERS, "sit out")
