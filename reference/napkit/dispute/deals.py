"""The same cards in the same seats under another ruleset: the pack that deals them.

A recorded hand keeps its pack (``deal``, top first), and which seat gets which card of it is
the ruleset's deal (NAP-4.2.1 to NAP-4.2.3: the packets, the widow's place). Two rulesets
that deal in other packets give the same pack to different seats, so a hand replayed under
another ruleset with its pack unchanged is another hand. Players arguing over a hand remember
the cards they held, not the order they came off the pack: :func:`pack_for` builds the pack
that deals each seat the cards it held under the other ruleset's deal.

Where the deal puts each card is read off the engine itself, by dealing the pack in card order
and seeing where each place of the pack lands; nothing here restates a ruleset's packets.

>>> from napkit import Game
>>> from napkit.engine.actions import Deal
>>> from napkit.engine.cards import cards_of
>>> classic, pagat = Game.create("classic", 3), Game.create("pagat", 3)
>>> pack = tuple(reversed(cards_of(classic.pack())))
>>> dealt = classic.new_hand(0).apply(Deal(pack))
>>> again = pagat.new_hand(0).apply(Deal(pack_for(pagat, dealt)))
>>> again.hands == dealt.hands
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from napkit.engine.actions import Deal
from napkit.engine.cards import card_name, card_words, cards_of, names
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.phases.deal import hand_pack
from napkit.engine.state import replace
from napkit.errors import SetupError
from napkit.formats.handtext import deal_layout


def places(game: Game, dealer: int, seats: tuple[int, ...]) -> tuple[
        dict[int, tuple[int, ...]], tuple[int, ...]]:
    """Where the deal of ``game`` puts the pack's places (0 is the top card): each seat's
    places, and the places left for the widow and the stock, in pack order (NAP-4.2); read
    off the engine by :func:`napkit.formats.handtext.deal_layout`, as the hand notation does."""
    held, widow, stock = deal_layout(game.new_hand(dealer, seats=seats))
    return held, tuple(sorted(([widow] if widow >= 0 else []) + list(stock)))


def rest_of(dealt: HandState, pack: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of ``pack`` that no seat was dealt (the widow, the stock), in pack order."""
    held = 0
    for seat in dealt.order:
        held |= dealt.hands[seat]
    return tuple(c for c in pack if not held >> c & 1)


def pack_for(game: Game, dealt: HandState, rest: tuple[int, ...] | None = None) -> tuple[
        int, ...]:
    """The pack that, dealt under ``game`` from the same dealer to the same seats, gives each
    seat the cards it holds in ``dealt`` (a hand just dealt, under any ruleset); the cards no
    seat holds (``rest``, by default those of ``dealt``'s widow and stock, widow first) fill
    the other places in their order. See :func:`pack_dealing`."""
    if rest is None:
        rest = ((dealt.widow,) if dealt.widow >= 0 else ()) + dealt.stock
    hands = {seat: cards_of(dealt.hands[seat]) for seat in dealt.order}
    return pack_dealing(game, dealt.dealer, tuple(sorted(dealt.order)), hands, rest)


def pack_dealing(game: Game, dealer: int, seats: tuple[int, ...],
                 hands: Mapping[int, Sequence[int]], rest: Sequence[int] = ()) -> tuple[
        int, ...]:
    """The pack that ``game``'s deal, from ``dealer`` to ``seats``, gives out as ``hands``
    (each seat's cards, in any order); ``rest`` (the cards for the widow and the stock, in
    that order) fill the other places, leaving out those the pack has not got, and the pack's
    cards named nowhere follow in card order.

    Raises :class:`~napkit.errors.SetupError` where the deal cannot give those hands: a card
    the pack does not have (NAP-2.2.1), a card twice (NAP-2.2.1), or a number of cards a seat
    that the deal does not give (NAP-4.2.1)."""
    held, others = places(game, dealer, seats)
    # The pack of the table, not of the seats dealt in (NAP-2.2.1), as the deal checks it.
    pack_mask = hand_pack(game.new_hand(dealer, seats=seats))
    pack = [-1] * (sum(len(p) for p in held.values()) + len(others))
    given: set[int] = set()
    for seat in sorted(held):
        cards = list(hands.get(seat, ()))
        foreign = [c for c in cards if not pack_mask >> c & 1]
        if foreign:
            raise SetupError("NAP-2.2.1", f"{game.id}'s pack has no {card_name(foreign[0])} "
                                          f"(seat {seat} held it)")
        twice = [c for c in cards if c in given]
        if twice or len(set(cards)) != len(cards):
            card = twice[0] if twice else next(c for c in cards if cards.count(c) > 1)
            raise SetupError("NAP-2.2.1", f"the {card_words(card)} is dealt twice")
        if len(cards) != len(held[seat]):
            raise SetupError("NAP-4.2.1", f"{game.id} deals {len(held[seat])} cards a seat; "
                                          f"seat {seat} held {len(cards)}")
        given.update(cards)
        for place, card in zip(held[seat], cards, strict=True):
            pack[place] = card
    kept = [c for c in dict.fromkeys(rest) if pack_mask >> c & 1 and c not in given]
    missing = [c for c in cards_of(pack_mask) if c not in given and c not in kept]
    for place, card in zip(others, kept + missing, strict=True):
        pack[place] = card
    return tuple(pack)


def dealt_anyway(state: HandState, dealt: HandState, rest: Sequence[int]) -> tuple[
        HandState, str]:
    """``state`` (a hand waiting for its deal) dealt so that each seat holds what it holds in
    ``dealt`` even where ``state``'s pack has not those cards (NAP-2.2.1 waived: ``napkit
    replay --deal-anyway``, a hand played with a fuller pack replayed under a short-pack
    ruleset), and the words that say so. The widow and the stock come from ``rest`` (the
    cards no seat held, in pack order), the pack's own cards first. The engine deals a pack of
    its own, whose hands are then replaced: a hand no deal of the ruleset gives, for replaying
    only (its history keeps the engine's pack)."""
    pack_mask = hand_pack(state)
    held = 0
    for seat in dealt.order:
        held |= dealt.hands[seat]
    after = state.apply(Deal(tuple(cards_of(pack_mask))))
    spare = [c for c in rest if pack_mask >> c & 1 and not held >> c & 1]
    spare += [c for c in rest if not pack_mask >> c & 1 and not held >> c & 1]
    widow = spare.pop(0) if after.widow >= 0 else -1
    stock = tuple(spare[:len(after.stock)])
    hands = tuple(dealt.hands[s] if s in dealt.order else 0 for s in range(len(after.hands)))
    foreign = held & ~pack_mask
    words = f"dealt anyway: {after.game.id}'s pack has not {names(foreign)}"
    if widow >= 0:
        named = after.game.rules.widow_name
        words += f"; the {named} {card_name(widow)}, from the cards no seat held"
    return replace(after, hands=hands, widow=widow, stock=stock), words
