"""The deal: five cards each in the ruleset's packets, the widow, the stock (NAP-4.2, NAP-4.3)."""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast

from napkit import purchase, widow
from napkit.actions import Action, Deal
from napkit.cards import cards_of, check_pack
from napkit.errors import IllegalActionError, SetupError
from napkit.state import CHANCE, F_HANDS, F_LOG, F_STOCK, F_WIDOW, HandState, new_state

if TYPE_CHECKING:
    from napkit.game import Game

# (id(game), players) -> (game, the pack's cards in card order, its mask): asked every deal.
_PACKS: dict[tuple[int, int], tuple[Game, tuple[int, ...], int]] = {}


def _pack(state: HandState) -> tuple[tuple[int, ...], int]:
    game = state.game
    key = (id(game), len(state.order))
    found = _PACKS.get(key)
    if found is None or found[0] is not game:
        mask = game.pack(key[1])
        if len(_PACKS) >= 256:
            _PACKS.clear()
        found = _PACKS[key] = (game, cards_of(mask), mask)
    return found[1], found[2]


def hand_pack(state: HandState) -> int:
    """The pack (a mask) that a hand with this many players is dealt from (NAP-2.2.1)."""
    return _pack(state)[1]


def sample_deal(state: HandState, rng: random.Random) -> Deal:
    """A shuffled pack for the deal.

    The cards are sorted by a random key each (``rng.random()``): a uniform shuffle, as
    ``rng.shuffle`` is, in half the time.
    """
    global _SAMPLED  # noqa: PLW0603
    cards, mask = _pack(state)
    key = rng.random
    pack = tuple(sorted(cards, key=lambda _: key()))
    _SAMPLED = (pack, mask)
    return Deal(pack)


# The last pack sample_deal drew, with the mask of its cards: apply_deal need not check that
# very tuple again (tuples are immutable) when it is dealt for a hand with the same pack.
_SAMPLED: tuple[tuple[int, ...], int] = ((), 0)


_BITS: tuple[int, ...] = tuple(1 << c for c in range(52))
Five = tuple[int, int, int, int, int]  # a hand's cards as dealt


def _layout(state: HandState) -> tuple[tuple[Callable[[tuple[int, ...]], Five], ...], int, int]:
    """Where the deal puts each card of the pack, read off the ruleset's packets (NAP-4.2.1 to
    4.2.3): for each seat clockwise from the dealer's left, a getter of its cards from the pack;
    the widow's place in the pack (-1: no widow); and where the stock begins."""
    game = state.game
    n = len(state.order)
    key = (id(game), n)
    found = _LAYOUTS.get(key)
    if found is not None and found[0] is game:
        return found[1]
    rules = game.rules
    places: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    widow_place = -1
    if rules.widow and rules.widow_first:
        widow_place, pos = 0, 1
    for packet in rules.packets:
        for seat_places in places:
            seat_places.extend(range(pos, pos + packet))
            pos += packet
    if rules.widow and not rules.widow_first:
        widow_place, pos = pos, pos + 1
    # Five cards a hand (NAP-4.2.1), so itemgetter always returns a tuple.
    if any(len(p) != 5 for p in places):
        raise SetupError("NAP-4.2.1", f"the packets of {game.id} do not deal five cards a hand")
    getters = tuple(cast(Callable[[tuple[int, ...]], Five], itemgetter(*p)) for p in places)
    layout = (getters, widow_place, pos)
    if len(_LAYOUTS) >= 256:
        _LAYOUTS.clear()
    _LAYOUTS[key] = (game, layout)
    return layout


_LAYOUTS: dict[tuple[int, int], tuple[Game, tuple[
    tuple[Callable[[tuple[int, ...]], Five], ...], int, int]]] = {}


def apply_deal(state: HandState, action: Action) -> HandState:
    """Implements: NAP-4.2.1, NAP-4.2.2, NAP-4.2.3, NAP-4.3.1.

    Deal from the top of the given pack: the widow first where the ruleset deals it before the
    hands; then, for each entry of the packets list, that many cards to each player clockwise
    from the dealer's left, so that each player gets five; then the widow where it is dealt
    after the hands. What is left is the stock, face down.
    """
    if not isinstance(action, Deal):
        raise IllegalActionError("NAP-4.2.2", f"the cards must be dealt first, not {action}")
    pack = action.pack
    mask = _pack(state)[1]
    sampled = _SAMPLED
    if sampled[0] is not pack or sampled[1] != mask:
        check_pack(pack, mask, "NAP-2.2.1")
    places, card_place, stock_from = _layout(state)
    hands = list(state.hands)
    bits = _BITS
    for i, seat in enumerate(state.order):
        a, b, c, d, e = places[i](pack)  # five cards a hand (NAP-4.2.1)
        hands[seat] = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
    card = pack[card_place] if card_place >= 0 else -1
    pos = stock_from
    f: list[Any] = list(state)
    f[F_HANDS] = tuple(hands)
    f[F_WIDOW] = card
    f[F_STOCK] = pack[pos:]
    f[F_LOG] = (state.log, (CHANCE, action))
    dealt = widow.dealer_look(new_state(f))
    return purchase.start(dealt)
