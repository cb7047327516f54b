"""The engine's tables by suit mask (napkit.engine.cards.by_suit_mask), built one step a mask,
hold what looking at every bit of every mask gives: the cards of a mask lowest first, and
the very Play objects of those cards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from napkit.engine import cards
from napkit.engine.actions import PLAYS
from napkit.engine.cards import by_suit_mask, cards_of
from napkit.engine.phases import play


def _bit_by_bit(items: list[object]) -> list[tuple[object, ...]]:
    return [tuple(items[r] for r in range(13) if mask >> r & 1) for mask in range(1 << 13)]


def test_every_mask_holds_its_items_lowest_first() -> None:
    items: list[object] = [f"item {r}" for r in range(13)]
    table = by_suit_mask(items)
    assert len(table) == 1 << 13
    assert list(table) == _bit_by_bit(items)
    assert table[0] == () and table[0b1000000000101] == ("item 0", "item 2", "item 12")


def test_the_card_and_play_tables_are_the_bit_by_bit_ones() -> None:
    suits = cards._suit_cards()
    plays = play._suit_plays()
    for s in range(4):
        assert list(suits[s]) == _bit_by_bit([s * 13 + r for r in range(13)])
        expected = _bit_by_bit(list(PLAYS[s * 13:s * 13 + 13]))
        assert list(plays[s]) == expected
        # the engine's interned plays, not equal copies of them
        assert all(a is b for got, want in zip(plays[s], expected, strict=True)
                   for a, b in zip(got, want, strict=True))


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_cards_of_a_mask_are_its_bits_in_card_order(mask: int) -> None:
    assert cards_of(mask) == tuple(c for c in range(52) if mask >> c & 1)
