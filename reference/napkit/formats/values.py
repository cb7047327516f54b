"""The JSON forms of cards, actions, payments, tricks and results, both ways.

These are the canonical forms that pass between napkit and other programs (the schemas in
``spec/schemas`` describe them): a card is its notation (``"AS"``, ``"10H"``); an action is an
object with a ``type`` (``{"type": "play", "card": "10H"}``); a payment names the pool as
``"pool"``. Reading is strict: anything malformed raises :class:`FormatError` with the JSON
path of the offending value.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

from napkit.engine.actions import (
    ANTE,
    LEAVE_WIDOW,
    PASS,
    PEEK,
    SIT_OUT,
    TAKE_WIDOW,
    Action,
    Ante,
    Bid,
    Buy,
    ChooseDealer,
    Cut,
    Deal,
    Discard,
    LeaveWidow,
    NameTrumps,
    Pass,
    Peek,
    Play,
    Reshuffle,
    Shuffle,
    SitOut,
    TakeWidow,
)
from napkit.engine.cards import CARD_NAMES, SUIT_NAMES, card_name, cards_of, mask_of, parse_card
from napkit.engine.state import POOL, Payment, Result, Trick
from napkit.errors import json_path

JSONValue = Any  # what json.loads returns


class FormatError(ValueError):
    """A value that is not in the form its schema gives: where (a JSON path) and what; and,
    where a document is well formed but describes play the rules forbid, the rule id."""

    def __init__(self, path: list[str | int], message: str, rule: str | None = None) -> None:
        super().__init__(path, message)
        self.path = json_path(path)
        self.message = message
        self.rule = rule

    @classmethod
    def at(cls, path: str, message: str, rule: str | None = None) -> FormatError:
        """The error at a JSON path already written out (``$.actions[3].action``)."""
        error = cls([], message, rule)
        error.path = path
        return error

    def __str__(self) -> str:
        rule = f"{self.rule}: " if self.rule else ""
        return f"{self.path}: {rule}{self.message}"


# --- cards ------------------------------------------------------------------------------------
def card_to_json(card: int) -> str:
    return card_name(card)


_NAME_OF = dict(enumerate(CARD_NAMES))


def cards_to_json(cards: Sequence[int]) -> list[str]:
    """The notations of some cards, in their order (a record writes a pack of them per hand, so
    each is looked up rather than spelt out; a value that is no card is named as such)."""
    names = list(map(_NAME_OF.get, cards))
    if all(names):  # no None: every value was a card
        return cast(list[str], names)
    return [card_name(c) for c in cards]


#: Each card's JSON text as UTF-8 bytes (its notation, as :func:`card_to_json` writes it, in
#: quotes: ``b'"10H"'``) to the card that :func:`card_from_json` reads from it: for a reader
#: that takes a pack written as napkit writes one without reading its JSON (see
#: napkit.protocol.adapter); any other text of a card is not here.
CARD_TEXTS: dict[bytes, int] = {b'"%b"' % name.encode(): parse_card(name) for name in CARD_NAMES}
_TEXT_OF = {card: text for text, card in CARD_TEXTS.items()}.__getitem__  # its inverse


def buy_text(cards: int) -> bytes:
    """The JSON text of ``Buy(cards)`` as napkit writes it (compact, as
    :func:`napkit.formats.jsontext.dumps` writes ``action_to_json``'s object: its cards in
    card order, each as :data:`CARD_TEXTS` has it), put together from the cards' texts at
    under a third of the cost: a purchase is any set of cards, seldom met twice, and a hand
    lists tens of them (tests/test_adapter_speed.py compares the two)."""
    return b'{"type":"buy","cards":[%b]}' % b",".join(map(_TEXT_OF, cards_of(cards)))


def card_from_json(value: JSONValue, path: list[str | int]) -> int:
    if not isinstance(value, str):
        raise FormatError(path, f"a card is a string such as \"AS\" or \"10H\", not {value!r}")
    if not value.isascii():  # the suit symbols (A♣) are for people: JSON writes the letters
        raise FormatError(path, f"{value!r} is not a card (rank then suit letter: AS, 10H, 2C)")
    try:
        return parse_card(value)
    except ValueError:
        raise FormatError(path, f"{value!r} is not a card (rank then suit: AS, 10H, 2C)") from None


def cards_from_json(value: JSONValue, path: list[str | int]) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise FormatError(path, "expected a list of cards")
    return tuple(card_from_json(v, [*path, i]) for i, v in enumerate(value))


def _seat(value: JSONValue, path: list[str | int]) -> int:
    if type(value) is not int or value < 0:
        raise FormatError(path, f"a seat is a whole number from 0, not {value!r}")
    return value


def _int(value: JSONValue, path: list[str | int], minimum: int = 0) -> int:
    if type(value) is not int or value < minimum:
        raise FormatError(path, f"expected a whole number of at least {minimum}, not {value!r}")
    return value


# --- actions ----------------------------------------------------------------------------------
def action_to_json(action: Action) -> dict[str, JSONValue]:
    """The JSON object of an action."""
    match action:  # the commonest first: each case is one isinstance test
        case Play(card=card):
            return {"type": "play", "card": card_name(card)}
        case Pass():
            return {"type": "pass"}
        case Bid(bid=bid):
            return {"type": "bid", "bid": bid}
        case Peek():
            return {"type": "peek"}
        case Buy(cards=cards):
            return {"type": "buy", "cards": cards_to_json(cards_of(cards))}
        case TakeWidow():
            return {"type": "take-widow"}
        case LeaveWidow():
            return {"type": "leave-widow"}
        case Discard(card=card):
            return {"type": "discard", "card": card_name(card)}
        case NameTrumps(suit=suit):
            return {"type": "name-trumps", "suit": SUIT_NAMES[suit]}
        case Ante():
            return {"type": "ante"}
        case SitOut():
            return {"type": "sit-out"}
        case Deal(pack=pack):
            return {"type": "deal", "pack": cards_to_json(pack)}
        case Reshuffle(stock=stock):
            return {"type": "reshuffle", "stock": cards_to_json(stock)}
        case ChooseDealer(seat=seat):
            return {"type": "choose-dealer", "seat": seat}
        case Shuffle(pack=pack):
            return {"type": "shuffle", "pack": cards_to_json(pack)}
        case Cut(at=at):
            return {"type": "cut", "at": at}
    raise TypeError(f"not an action: {action!r}")


def _fields(value: dict[str, JSONValue], path: list[str | int], *names: str) -> None:
    extra = sorted(set(value) - {"type", *names})
    if extra:
        raise FormatError([*path, extra[0]], f"unexpected field {extra[0]!r}")
    for name in names:
        if name not in value:
            raise FormatError(path, f"missing field {name!r}")


def _simple(action: Action) -> Callable[[dict[str, JSONValue], list[str | int]], Action]:
    def read(value: dict[str, JSONValue], path: list[str | int]) -> Action:
        _fields(value, path)
        return action
    return read


def _bid(value: dict[str, JSONValue], path: list[str | int]) -> Action:
    _fields(value, path, "bid")
    if not isinstance(value["bid"], str):
        raise FormatError([*path, "bid"], "a bid is the bid's id, a string")
    return Bid(value["bid"])


def _buy(value: dict[str, JSONValue], path: list[str | int]) -> Action:
    _fields(value, path, "cards")
    cards = cards_from_json(value["cards"], [*path, "cards"])
    if len(set(cards)) != len(cards):
        raise FormatError([*path, "cards"], "a card is listed twice")
    return Buy(mask_of(cards))


def _card_action(kind: Callable[[int], Action]) -> Callable[
        [dict[str, JSONValue], list[str | int]], Action]:
    def read(value: dict[str, JSONValue], path: list[str | int]) -> Action:
        _fields(value, path, "card")
        return kind(card_from_json(value["card"], [*path, "card"]))
    return read


def _name(value: dict[str, JSONValue], path: list[str | int]) -> Action:
    _fields(value, path, "suit")
    suit = value["suit"]
    if suit not in SUIT_NAMES:
        raise FormatError([*path, "suit"], f"a suit is one of {', '.join(SUIT_NAMES)}")
    return NameTrumps(SUIT_NAMES.index(suit))


def _pack(kind: Callable[[tuple[int, ...]], Action], field: str) -> Callable[
        [dict[str, JSONValue], list[str | int]], Action]:
    def read(value: dict[str, JSONValue], path: list[str | int]) -> Action:
        _fields(value, path, field)
        return kind(cards_from_json(value[field], [*path, field]))
    return read


def _dealer(value: dict[str, JSONValue], path: list[str | int]) -> Action:
    _fields(value, path, "seat")
    return ChooseDealer(_seat(value["seat"], [*path, "seat"]))


def _cut(value: dict[str, JSONValue], path: list[str | int]) -> Action:
    _fields(value, path, "at")
    return Cut(_int(value["at"], [*path, "at"], 1))


_READERS: dict[str, Callable[[dict[str, JSONValue], list[str | int]], Action]] = {
    "pass": _simple(PASS), "bid": _bid, "peek": _simple(PEEK), "buy": _buy,
    "take-widow": _simple(TAKE_WIDOW), "leave-widow": _simple(LEAVE_WIDOW),
    "discard": _card_action(Discard), "name-trumps": _name, "play": _card_action(Play),
    "ante": _simple(ANTE), "sit-out": _simple(SIT_OUT), "deal": _pack(Deal, "pack"),
    "reshuffle": _pack(Reshuffle, "stock"), "choose-dealer": _dealer,
    "shuffle": _pack(Shuffle, "pack"), "cut": _cut,
}
ACTION_TYPES = tuple(_READERS)


def action_from_json(value: JSONValue, path: list[str | int] | None = None) -> Action:
    """The action of a JSON object; :class:`FormatError` naming the path if it is not one."""
    where = path or []
    if not isinstance(value, dict):
        raise FormatError(where, "an action is an object with a \"type\"")
    kind = value.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise FormatError([*where, "type"], f"unknown action type {kind!r} (one of "
                                            f"{', '.join(ACTION_TYPES)})")
    return reader(cast(dict[str, JSONValue], value), where)


# --- payments, tricks, results ------------------------------------------------------------------
def party_to_json(seat: int) -> int | str:
    return "pool" if seat == POOL else seat


def payment_to_json(p: Payment) -> dict[str, JSONValue]:
    return {"payer": party_to_json(p.payer), "payee": party_to_json(p.payee),
            "amount": p.amount, "rule": p.rule}


def trick_to_json(t: Trick) -> dict[str, JSONValue]:
    return {"leader": t.leader, "winner": t.winner, "cards": cards_to_json(t.cards)}


def result_to_json(r: Result) -> dict[str, JSONValue]:
    """A hand's outcome: contract, tricks, made or not, every payment, the pool, each net, and
    on a score sheet in points each seat's points (``score``, left out for chips: NAP-9.6)."""
    out: dict[str, JSONValue] = {
        "thrown_in": r.thrown_in,
        "declarer": r.declarer if r.declarer >= 0 else None,
        "contract": r.contract,
        "declarer_tricks": r.tricks,
        "made": r.made,
        "trick_winners": list(r.trick_winners),
        "payments": [payment_to_json(p) for p in r.payments],
        "pool": r.pool,
        "net": list(r.net),
    }
    if r.score is not None:
        out["score"] = list(r.score)
    return out


def action_key(action: object) -> str:
    """An action's identity for comparing sets of legal actions: its JSON with sorted keys,
    the cards of a buy taken as a set (formats.md fixes no order for them)."""
    if isinstance(action, dict) and action.get("type") == "buy" and isinstance(
            action.get("cards"), list):
        action = {**action, "cards": sorted(map(str, action["cards"]))}
    return json.dumps(action, sort_keys=True, separators=(",", ":"))
