"""The deal: five cards each in the ruleset's packets, the widow, the stock (NAP-4.2, NAP-4.3)."""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import itemgetter
from typing import cast

from napkit.engine.actions import Action, Deal
from napkit.engine.cards import cards_of, check_pack
from napkit.engine.rules import GameLike
from napkit.engine.state import CHANCE, NOBODY, H, HandData, replace
from napkit.errors import IllegalActionError, SetupError

Five = tuple[int, int, int, int, int]  # a hand's cards as dealt
Layout = tuple[tuple[Callable[[tuple[int, ...]], Five], ...], int, int]


def _pack(game: GameLike, players: int) -> tuple[tuple[int, ...], int]:
    """The pack's cards in card order, and its mask, for a hand of this many players
    (NAP-2.2.1); kept in the game's memo, since every deal asks."""
    key = ("pack", players)
    found: tuple[tuple[int, ...], int] | None = game.memo.get(key)
    if found is None:
        mask = game.pack(players)
        found = game.memo[key] = (cards_of(mask), mask)
    return found


def at_table(state: HandData) -> int:
    """The number of players at the table, whose pack the hand is dealt from (NAP-2.2.1;
    ``pack_rank`` gives the pack for them): the players still in the match, whether dealt in
    or sitting this hand out (NAP-10.3.1). Only a fixed stock of chips that players pay from
    puts anyone out of a match (NAP-10.4.2), so where the hand has no ``funds`` every seat is at
    the table, and where it has them, a seat not dealt in is still in exactly while it holds
    chips (a seat dealt in counts even with none left after its ante).
    """
    funds = state.funds
    if funds is None:
        return state.game.players
    ring = state.ring  # -1 for a seat not dealt in
    return sum(1 for s, chips in enumerate(funds) if ring[s] >= 0 or chips > 0)


def hand_pack(state: HandData) -> int:
    """The pack (a mask) that a hand is dealt from: the one for the players at the table
    (NAP-2.2.1, :func:`at_table`), which is more cards than its deal uses when some sit out."""
    return _pack(state.game, at_table(state))[1]


def sample_deal(state: HandData, rng: random.Random) -> Deal:
    """A shuffled pack for the deal.

    The cards are sorted by a random key each (``rng.random()``, drawn in card order): a
    uniform shuffle, as ``rng.shuffle`` is, in half the time. An rng with a ``randoms(n)``
    method (the fuzzer's :class:`napkit.conform.fuzz.shrink.Choices`) draws the keys in one call,
    the same numbers as a call of ``random()`` each.
    """
    global _SAMPLED  # noqa: PLW0603
    cards, mask = _pack(state.game, at_table(state))
    randoms: Callable[[int], list[float]] | None = getattr(rng, "randoms", None)
    keys = randoms(len(cards)) if randoms is not None else [rng.random() for _ in cards]
    # A stable sort, as sorted(cards, key=...) is: equal keys keep card order. The getter of
    # the cards in that order makes the tuple (a pack deals five cards to two players or more,
    # NAP-4.2.1: a getter of ten items or more gives a tuple).
    order = sorted(range(len(cards)), key=keys.__getitem__)
    pack: tuple[int, ...] = itemgetter(*order)(cards)
    _SAMPLED = (pack, mask)
    return Deal(pack)


# The last pack sample_deal drew, with the mask of its cards: apply_deal need not check that
# very tuple again (tuples are immutable) when it is dealt for a hand with the same pack. One
# tuple, stored in one step and read once: read twice, another thread's draw between the two
# reads paired this pack with that draw's mask, and a pack of the wrong size was dealt.
_SAMPLED: tuple[tuple[int, ...], int] = ((), 0)


def forget() -> None:
    """Forget the last drawn pack and the layouts kept (see
    :func:`napkit.engine.game.clear_memos`)."""
    global _SAMPLED  # noqa: PLW0603
    _SAMPLED = ((), 0)
    _LAYOUTS.clear()


_BITS: tuple[int, ...] = tuple(1 << c for c in range(52))


#: How many layouts _layout keeps for every game: emptied when full.
LAYOUTS_KEPT = 1024

# Each layout by what it is read from (the packets, where the widow is dealt, the players),
# shared by every game: a fuzzer plays a new game nearly every episode, and each game's memo
# starts empty, but few games differ in these. A pure function of its key, filled once:
# threads may fill it at once.
_LAYOUTS: dict[tuple[tuple[int, ...], str | None, int], Layout] = {}


def _layout(game: GameLike, n: int) -> Layout:
    """Where the deal puts each card of the pack, read off the ruleset's packets (NAP-4.2.1 to
    4.2.3): for each seat clockwise from the dealer's left, a getter of its cards from the pack;
    the widow's place in the pack (-1: no widow); and where the stock begins."""
    key = ("layout", n)
    found: Layout | None = game.memo.get(key)
    if found is not None:
        return found
    rules = game.rules
    dealt = rules.widow.dealt if rules.widow is not None else None
    shared = (rules.packets, dealt, n)
    found = _LAYOUTS.get(shared)
    if found is None:
        places: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        widow_place = -1
        if dealt == "before-hands":
            widow_place, pos = 0, 1
        for packet in rules.packets:
            for seat_places in places:
                seat_places.extend(range(pos, pos + packet))
                pos += packet
        if dealt == "after-hands":
            widow_place, pos = pos, pos + 1
        # Five cards a hand (NAP-4.2.1), so itemgetter always returns a tuple.
        if any(len(p) != 5 for p in places):
            raise SetupError("NAP-4.2.1",
                             f"the packets of {game.id} do not deal five cards a hand")
        getters = tuple(cast(Callable[[tuple[int, ...]], Five], itemgetter(*p)) for p in places)
        found = (getters, widow_place, pos)
        if len(_LAYOUTS) >= LAYOUTS_KEPT:
            _LAYOUTS.clear()
        _LAYOUTS[shared] = found
    layout = game.memo[key] = found
    return layout


def dealt_hands(state: HandData, pack: tuple[int, ...]) -> list[int]:
    """The mask of each hand that :func:`apply_deal` deals from this pack (NAP-4.2.1 to
    4.2.3), for the seats of ``state.order`` in turn: its ``hands[seat]``, without the new
    state. A strong deal (napkit.conform.suite.starts) weighs the hands of thirty packs to keep one.
    The pack is not checked: it must be a shuffle of the hand's pack (:func:`sample_deal`)."""
    places = _layout(state.game, len(state.order))[0]
    bits = _BITS
    hands = []
    for place in places:
        a, b, c, d, e = place(pack)  # five cards a hand (NAP-4.2.1)
        hands.append(bits[a] | bits[b] | bits[c] | bits[d] | bits[e])
    return hands


def apply_deal(state: H, action: Action) -> H:
    """Implements: NAP-4.2.1, NAP-4.2.2, NAP-4.2.3, NAP-4.3.1.

    Deal from the top of the given pack: the widow first where the ruleset deals it before the
    hands; then, for each entry of the packets list, that many cards to each player clockwise
    from the dealer's left, so that each player gets five; then the widow where it is dealt
    after the hands. What is left is the stock, face down.
    """
    if not isinstance(action, Deal):
        raise IllegalActionError("NAP-4.2.2", f"the cards must be dealt first, not {action}")
    pack = action.pack
    mask = _pack(state.game, at_table(state))[1]
    drawn, drawn_mask = _SAMPLED  # one read: the pair as one thread stored it
    if drawn is not pack or drawn_mask != mask:
        check_pack(pack, mask, "NAP-2.2.1")
    places, card_place, stock_from = _layout(state.game, len(state.order))
    hands = list(state.hands)
    bits = _BITS
    for i, seat in enumerate(state.order):
        a, b, c, d, e = places[i](pack)  # five cards a hand (NAP-4.2.1)
        hands[seat] = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
    return replace(
        state, hands=tuple(hands), widow=pack[card_place] if card_place >= 0 else -1,
        stock=pack[stock_from:], log=(state.log, (CHANCE, action)), turn=NOBODY)
