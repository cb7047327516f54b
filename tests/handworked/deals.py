"""Helpers for the hand-worked tests: packs built from the hands we want, and scripted play.

The deal order is the one every ruleset shares (brief, NAP-4.2.2, NAP-4.3.1): for each packet
size, that many cards to each seat clockwise from the dealer's left, the dealer last; then the
widow (floater) where it is dealt after the hands; the rest of the pack is the stock, top first.
The helpers know nothing of a ruleset's outcome: they only arrange cards and apply actions, and
every deal is checked against the hands asked for, so a wrong packet order cannot go unnoticed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from napkit.engine.actions import Action, Play
from napkit.engine.cards import mask_of, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.state import POOL, Payment

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

# The ladder layout most rulesets' tests share (see :func:`ladder`): the declarer's top spades
# and low hearts, the holder of the high hearts on the declarer's left, and two seats of cards
# that can win nothing.
TOP = ("AS", "KS", "QS", "JS", "10S")
LOW = ("2H", "3H", "4H", "5H", "6H")
HOLDER = ("AH", "KH", "QH", "JH", "10H")
THIRD = ("2D", "3D", "4D", "5D", "6D")
FOURTH = ("2C", "3C", "4C", "5C", "6C")


def cards(text: str) -> tuple[int, ...]:
    """Cards from names separated by spaces: ``cards("AS 10H 2D")``."""
    return tuple(parse_card(name) for name in text.split())


def pack_cards(lowest: str = "2") -> tuple[int, ...]:
    """Every card from the ace down to ``lowest`` in all four suits (NAP-2.2.1), in card order."""
    keep = RANKS[RANKS.index(lowest):]
    return tuple(parse_card(rank + suit) for suit in "SHDC" for rank in keep)


def build_pack(*, players: int, dealer: int, hands: Mapping[int, str], packets: Sequence[int],
               widow: str | None = None, stock: str = "", lowest: str = "2") -> tuple[int, ...]:
    """The pack, top first, that deals ``hands[seat]`` (five card names) to every seat.

    ``packets`` is the ruleset's packet list ([1, 1, 1, 1, 1] singly, [2, 3], ...); ``widow`` the
    card dealt after the hands, if any; ``stock`` cards to put on top of the stock; the rest of
    the pack follows in card order.
    """
    assert sorted(hands) == list(range(players)), "one hand for every seat"
    assert sum(packets) == 5
    held = {seat: list(cards(text)) for seat, text in hands.items()}
    for seat, hand in held.items():
        assert len(hand) == 5, f"seat {seat} must hold five cards, not {hand}"
    order = [(dealer + 1 + k) % players for k in range(players)]
    pack: list[int] = []
    for packet in packets:
        for seat in order:
            pack.extend(held[seat][:packet])
            del held[seat][:packet]
    if widow is not None:
        pack.append(parse_card(widow))
    pack.extend(cards(stock))
    assert len(set(pack)) == len(pack), "a card is dealt twice"
    everything = pack_cards(lowest)
    assert set(pack) <= set(everything), "a card is not in this pack"
    pack.extend(c for c in everything if c not in set(pack))
    return tuple(pack)


def dealt(game: Game, *, dealer: int, hands: Mapping[int, str], packets: Sequence[int],
          widow: str | None = None, lowest: str = "2", pool: int = 0,
          stakes: int = 1) -> HandState:
    """A hand dealt from :func:`build_pack`, checked: every seat holds exactly what was asked."""
    from napkit.engine.actions import Deal

    pack = build_pack(players=game.players, dealer=dealer, hands=hands, packets=packets,
                      widow=widow, lowest=lowest)
    state = game.new_hand(dealer=dealer, pool=pool, stakes=stakes).apply(Deal(pack))
    for seat, text in hands.items():
        assert state.hands[seat] == mask_of(cards(text)), f"seat {seat} was dealt otherwise"
    if widow is not None:
        assert state.widow == parse_card(widow)
    return state


def apply_all(state: HandState, actions: Iterable[Action]) -> HandState:
    for action in actions:
        state = state.apply(action)
    return state


def play_tricks(state: HandState, tricks: Sequence[str]) -> HandState:
    """Play each trick's cards, written in the order they are played (leader first)."""
    for trick in tricks:
        for card in cards(trick):
            state = state.apply(Play(card))
    return state


def ladder(top: Sequence[str], low: Sequence[str], holder_high: Sequence[str],
           holder_spare: Sequence[str], third: Sequence[str], fourth: Sequence[str]) -> list[str]:
    """The tricks of the 'ladder' layout used throughout these tests, at a table of four.

    The declarer holds ``top`` (cards nobody else can beat or follow once the first of them is
    led and fixes or is trumps) and ``low`` (low cards of a side suit). The player on the
    declarer's left (the holder) holds ``holder_high``, highest first, all of the side suit and
    all above the declarer's low cards, and ``holder_spare`` cards to throw away. The third and
    fourth seats (clockwise) hold ``third`` and ``fourth``, in the order they will play them;
    neither holds a card of the side suit nor a trump they could use.

    The declarer leads the top cards one by one and wins each (len(top) tricks; the holder
    throws spare cards, then its lowest high cards). Then the declarer leads a low card; the
    holder wins it with its highest and leads its high cards down, the declarer following with
    low cards: every remaining trick goes to the holder. So the declarer wins exactly
    ``len(top)`` tricks.
    """
    high, spare, t, f = list(holder_high), list(holder_spare), list(third), list(fourth)
    assert len(top) + len(low) == 5
    assert len(high) + len(spare) == 5 and len(high) >= len(low)
    tricks: list[str] = []
    for card in top:
        thrown = spare.pop(0) if spare else high.pop()
        tricks.append(f"{card} {thrown} {t.pop(0)} {f.pop(0)}")
    for i, card in enumerate(low):
        if i == 0:
            tricks.append(f"{card} {high.pop(0)} {t.pop(0)} {f.pop(0)}")
        else:
            tricks.append(f"{high.pop(0)} {t.pop(0)} {f.pop(0)} {card}")
    return tricks


def rotate(hands: Sequence[str], declarer: int) -> dict[int, str]:
    """Roles (declarer, left, across, right) placed so the declarer sits at ``declarer``."""
    return {(declarer + k) % 4: hand for k, hand in enumerate(hands)}


def payments(state: HandState) -> Counter[tuple[int, int, int, str]]:
    """The hand's payments as a multiset of (payer, payee, amount, rule); order is not asserted."""
    assert state.result is not None
    return Counter((p.payer, p.payee, p.amount, p.rule) for p in state.result.payments)


def owed(*items: tuple[int, int, int, str]) -> Counter[tuple[int, int, int, str]]:
    return Counter(items)


def each_pays(payers: Iterable[int], payee: int, amount: int, rule: str
              ) -> list[tuple[int, int, int, str]]:
    return [(p, payee, amount, rule) for p in payers]


def pays_each(payer: int, payees: Iterable[int], amount: int, rule: str
              ) -> list[tuple[int, int, int, str]]:
    return [(payer, p, amount, rule) for p in payees]


def check_kitty_settlement(state: HandState, *, declarer: int, amount: int, made: bool,
                           wins_kitty: bool, kitty: int) -> None:
    """The settlement of a four-player hand of a floater game with a kitty (004 L94), worked
    by hand: made, each opponent pays the declarer ``amount`` (NAP-9.1.1), and a contract that
    wins the kitty also takes the ``kitty`` it held (NAP-9.1.2); defeated, the declarer pays
    the kitty ``amount`` times the four players and nothing to the opponents (NAP-9.2.2)."""
    result = state.result
    assert result is not None
    opponents = [s for s in range(4) if s != declarer]
    if made:
        expected = each_pays(opponents, declarer, amount, "NAP-9.1.1")
        gain = 3 * amount
        if wins_kitty:
            expected.append((POOL, declarer, kitty, "NAP-9.1.2"))
            gain += kitty
        assert payments(state) == owed(*expected)
        assert result.pool == (0 if wins_kitty else kitty)
        assert result.net[declarer] == gain
        assert all(result.net[s] == -amount for s in opponents)
    else:
        assert payments(state) == owed((declarer, POOL, 4 * amount, "NAP-9.2.2"))
        assert result.pool == kitty + 4 * amount
        assert result.net[declarer] == -4 * amount
        assert all(result.net[s] == 0 for s in opponents)


__all__ = [
    "FOURTH",
    "HOLDER",
    "LOW",
    "POOL",
    "THIRD",
    "TOP",
    "Payment",
    "apply_all",
    "build_pack",
    "cards",
    "check_kitty_settlement",
    "dealt",
    "each_pays",
    "ladder",
    "owed",
    "pack_cards",
    "payments",
    "pays_each",
    "play_tricks",
    "rotate",
]
