"""Actions: everything a player, or chance, does to a hand or a match.

Actions are small frozen values. A player's actions are :class:`Pass`, :class:`Bid`,
:class:`Peek`, :class:`Buy`, :class:`TakeWidow`, :class:`LeaveWidow`, :class:`Discard`,
:class:`NameTrumps`, :class:`Play`, and, before a hand of a match with sitting out,
:class:`Ante` and :class:`SitOut`. Chance's actions are :class:`Deal` (the order of the pack a
hand is dealt from), :class:`Reshuffle` (a new stock from discards), and in a match
:class:`ChooseDealer`, :class:`Shuffle` and :class:`Cut`. Chance actions are drawn from a seeded
random source or supplied, so that a recorded hand replays exactly.

``Play`` and the other one-card actions are interned: ``Play(c) is Play(c)`` for the engine's
own instances, which keeps the legal-action lists cheap to build.
"""

from __future__ import annotations

from dataclasses import dataclass

from napkit.engine.cards import Card, Suit, card_name, names


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the auction (NAP-5.2.1)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bid:
    """Make a bid, by the bid's id in the ruleset (NAP-5.2.1, NAP-5.2.2)."""

    bid: str

    def __str__(self) -> str:
        return f"bid {self.bid}"


@dataclass(frozen=True, slots=True)
class Peek:
    """Pay to look at the widow at one's turn in the auction (NAP-6.1.1)."""

    def __str__(self) -> str:
        return "peek"


@dataclass(frozen=True, slots=True)
class Buy:
    """Discard these cards (a mask), be dealt as many from the stock; 0 buys nothing (NAP-6.2.1)."""

    cards: int

    def __str__(self) -> str:
        return f"buy {names(self.cards)}" if self.cards else "buy nothing"


@dataclass(frozen=True, slots=True)
class TakeWidow:
    """The declarer takes the widow into hand (NAP-6.3.1)."""

    def __str__(self) -> str:
        return "take the widow"


@dataclass(frozen=True, slots=True)
class LeaveWidow:
    """The declarer declines an optional exchange (NAP-6.3.1)."""

    def __str__(self) -> str:
        return "leave the widow"


@dataclass(frozen=True, slots=True)
class Discard:
    """The declarer discards one card after taking the widow (NAP-6.3.1)."""

    card: Card

    def __str__(self) -> str:
        return f"discard {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class NameTrumps:
    """The declarer names the trump suit (NAP-7.1.2)."""

    suit: Suit

    def __str__(self) -> str:
        suit = self.suit
        letter = "SHDC"[suit] if type(suit) is int and 0 <= suit < 4 else f"<not a suit: {suit!r}>"
        return f"name {letter} trumps"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick (NAP-8.1.1)."""

    card: Card

    def __str__(self) -> str:
        return f"play {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Ante:
    """Pay the ante and be dealt in (NAP-10.3.1)."""

    def __str__(self) -> str:
        return "ante"


@dataclass(frozen=True, slots=True)
class SitOut:
    """Decline the ante and sit this hand out, where the ruleset allows it (NAP-10.3.1)."""

    def __str__(self) -> str:
        return "sit out"


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the pack, top card first, that the hand is dealt from (NAP-4.2.2)."""

    pack: tuple[Card, ...]

    def __str__(self) -> str:
        return "deal " + " ".join(card_name(c) for c in self.pack)


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the order, top first, of a new stock made from discards (NAP-6.2.2)."""

    stock: tuple[Card, ...]

    def __str__(self) -> str:
        return "reshuffle " + " ".join(card_name(c) for c in self.stock)


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """Chance: the seat of the first dealer of a match (NAP-4.1.1)."""

    seat: int

    def __str__(self) -> str:
        return f"first dealer {self.seat}"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the order, top first, of a shuffled pack (NAP-10.2.1)."""

    pack: tuple[Card, ...]

    def __str__(self) -> str:
        return "shuffle " + " ".join(card_name(c) for c in self.pack)


@dataclass(frozen=True, slots=True)
class Cut:
    """Chance: cut a gathered pack below its top ``at`` cards (NAP-10.2.2)."""

    at: int

    def __str__(self) -> str:
        return f"cut {self.at}"


Action = (Pass | Bid | Peek | Buy | TakeWidow | LeaveWidow | Discard | NameTrumps | Play | Ante
          | SitOut | Deal | Reshuffle | ChooseDealer | Shuffle | Cut)
ChanceAction = Deal | Reshuffle | ChooseDealer | Shuffle | Cut
CHANCE_TYPES = (Deal, Reshuffle, ChooseDealer, Shuffle, Cut)

PASS = Pass()
PEEK = Peek()
TAKE_WIDOW = TakeWidow()
LEAVE_WIDOW = LeaveWidow()
ANTE = Ante()
SIT_OUT = SitOut()
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(52))
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in range(52))
NAMES: tuple[NameTrumps, ...] = tuple(NameTrumps(s) for s in range(4))
