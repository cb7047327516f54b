"""The deal: five cards each in the ruleset's packets, the widow, the stock (NAP-4.2, NAP-4.3)."""

from __future__ import annotations

import random

from napkit import purchase, widow
from napkit.actions import Action, Deal
from napkit.cards import cards_of, check_pack
from napkit.errors import IllegalActionError
from napkit.state import CHANCE, HandState


def hand_pack(state: HandState) -> int:
    """The pack (a mask) that a hand with this many players is dealt from (NAP-2.2.1)."""
    return state.game.pack(len(state.order))


def sample_deal(state: HandState, rng: random.Random) -> Deal:
    """A shuffled pack for the deal."""
    pack = list(cards_of(hand_pack(state)))
    rng.shuffle(pack)
    return Deal(tuple(pack))


def apply_deal(state: HandState, action: Action) -> HandState:
    """Implements: NAP-4.2.1, NAP-4.2.2, NAP-4.2.3, NAP-4.3.1.

    Deal from the top of the given pack: the widow first where the ruleset deals it before the
    hands; then, for each entry of the packets list, that many cards to each player clockwise
    from the dealer's left, so that each player gets five; then the widow where it is dealt
    after the hands. What is left is the stock, face down.
    """
    if not isinstance(action, Deal):
        raise IllegalActionError("NAP-4.2.2", f"the cards must be dealt first, not {action}")
    rules = state.game.rules
    check_pack(action.pack, hand_pack(state), "NAP-2.2.1")
    pack = action.pack
    pos = 0
    card = -1
    if rules.widow and rules.widow_first:
        card, pos = pack[0], 1
    hands = list(state.hands)
    for packet in rules.packets:
        for seat in state.order:
            for card in pack[pos:pos + packet]:
                hands[seat] |= 1 << card
            pos += packet
    if rules.widow and not rules.widow_first:
        card, pos = pack[pos], pos + 1
    dealt = state._replace(hands=tuple(hands), widow=card, stock=pack[pos:],
                           history=state.history + ((CHANCE, action),))
    dealt = widow.dealer_look(dealt)
    return purchase.start(dealt)
