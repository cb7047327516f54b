"""Hand-worked hands of classic Nap (000_b90223f4596c033b.txt, ruleset ``classic``).

Every expectation below is worked out by hand from the source and the law book, not read from
the engine. The table is four players, dealer seat 3, so the auction and the deal begin with
seat 0 and end with the dealer (000 L16, L27; NAP-4.2.2, NAP-5.1.1). Cards go one at a time
(DEC-001 default ``singly``), from the full pack (000 L5, option ``pack`` default 52).

The 'ladder' layout (tests/handworked/deals.py): the declarer holds k top spades and 5-k low
hearts (2H upwards); the player on their left holds AH KH QH JH 10H, the next 2D-6D, the last
2C-6C. Nobody else holds a spade, so the declarer's first lead, a spade, makes spades trumps
(000 L36, NAP-7.1.1) and wins k tricks; on the low hearts the left-hand player's higher hearts
win (000 L38, NAP-8.2.1). So the declarer takes exactly k tricks.

Payouts (000 L41, L43; NAP-9.1.1, NAP-9.2.1): 3 for three, 4 for four, 5 for Nap, 10 for
Wellington, from each opponent when made (DEC-006 ``from-each``), to each opponent when lost.
Classic Nap has no pool.
"""

from __future__ import annotations

import pytest
from napkit.engine.actions import Action, Bid, Pass, Play
from napkit.engine.cards import parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.errors import IllegalActionError

from tests.handworked.deals import (
    FOURTH,
    HOLDER,
    LOW,
    THIRD,
    TOP,
    apply_all,
    dealt,
    each_pays,
    ladder,
    owed,
    payments,
    pays_each,
    play_tricks,
    rotate,
)

DEALER = 3
SINGLY = (1, 1, 1, 1, 1)  # DEC-001 default


def game() -> Game:
    return Game.create("classic", 4)


def ladder_hand(declarer: int, k: int) -> tuple[HandState, list[str]]:
    """The ladder layout with the declarer at ``declarer`` holding k top spades."""
    roles = (" ".join(TOP[:k] + LOW[:5 - k]), " ".join(HOLDER), " ".join(THIRD),
             " ".join(FOURTH))
    state = dealt(game(), dealer=DEALER, hands=rotate(roles, declarer), packets=SINGLY)
    return state, ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH)


# (bid, the auction from seat 0 to the dealer, declarer, k, made, stake)
CASES = [
    # 000 L29: a bid of 3 needs three or more tricks; k=3 -> 3 tricks, made; 3 stakes each
    # (L43) from the 3 opponents -> +9.
    ("three", [Bid("three"), Pass(), Pass(), Pass()], 0, 3, True, 3),
    # 000 L29 "3 ... or more"; L43 pays the bid, not the tricks (NAP-9.1.1): 4 tricks on a bid
    # of three still win 3 a player.
    ("three", [Bid("three"), Pass(), Pass(), Pass()], 0, 4, True, 3),
    # k=2 -> 2 tricks < 3: lost; L41 the bidder pays each other player 3 -> -9.
    ("three", [Bid("three"), Pass(), Pass(), Pass()], 0, 2, False, 3),
    # Bid 4 (L29, L43): k=4 made, +4 from each; k=3 lost, 4 to each.
    ("four", [Bid("four"), Pass(), Pass(), Pass()], 0, 4, True, 4),
    ("four", [Pass(), Bid("four"), Pass(), Pass()], 1, 3, False, 4),
    # Nap needs all 5 tricks (L29), pays 5 (L43): k=5 made; k=4 lost.
    ("nap", [Pass(), Pass(), Bid("nap"), Pass()], 2, 5, True, 5),
    ("nap", [Bid("three"), Pass(), Pass(), Bid("nap")], 3, 4, False, 5),
    # Wellington only after a Nap (L29, NAP-5.2.5): seat 0 bids Nap, seat 1 Wellington and
    # becomes the declarer; all 5 tricks, 10 stakes (L43).
    ("wellington", [Bid("nap"), Bid("wellington"), Pass(), Pass()], 1, 5, True, 10),
    ("wellington", [Bid("nap"), Bid("wellington"), Pass(), Pass()], 1, 4, False, 10),
]


@pytest.mark.parametrize(("bid", "auction", "declarer", "k", "made", "stake"), CASES)
def test_contract(bid: str, auction: list[Action], declarer: int, k: int, made: bool,
                  stake: int) -> None:
    state, tricks = ladder_hand(declarer, k)
    state = apply_all(state, auction)
    assert state.declarer == declarer  # NAP-5.3.1: the highest bidder
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.contract == bid
    assert result.tricks == k
    assert result.made is made
    left = (declarer + 1) % 4
    assert result.trick_winners == (declarer,) * k + (left,) * (5 - k)
    opponents = [s for s in range(4) if s != declarer]
    if made:
        expected = owed(*each_pays(opponents, declarer, stake, "NAP-9.1.1"))
    else:
        expected = owed(*pays_each(declarer, opponents, stake, "NAP-9.2.1"))
    assert payments(state) == expected
    sign = 1 if made else -1
    assert result.net[declarer] == sign * 3 * stake
    assert all(result.net[s] == -sign * stake for s in opponents)
    assert result.pool == 0  # no pool in this game


def test_first_card_led_fixes_trumps() -> None:
    """000 L36: the suit of the bidder's first card is trumps for the round (NAP-7.1.1).

    Seat 0 holds 2C AS KS QS JS and bids four, then leads the 2C: clubs are trumps, not the
    spades. Seat 1 overtakes with 3C (a higher trump, L38) and leads hearts; seat 0, void in
    hearts and clubs, can only throw spades, which are no longer trumps and never win a heart
    trick (NAP-8.2.1). Seat 0 takes no trick: four is lost, 4 stakes to each of three (L41, L43)
    -> -12. Had spades been trumps the same cards would have made four.
    """
    hands = {0: "2C AS KS QS JS", 1: "3C AH KH QH JH", 2: "2D 3D 4D 5D 6D",
             3: "2H 3H 4H 5H 6H"}
    state = dealt(game(), dealer=DEALER, hands=hands, packets=SINGLY)
    state = apply_all(state, [Bid("four"), Pass(), Pass(), Pass()])
    state = play_tricks(state, ["2C 3C 2D 2H", "AH 3D 3H AS", "KH 4D 4H KS", "QH 5D 5H QS",
                                "JH 6D 6H JS"])
    assert state.trumps == parse_card("2C") // 13
    result = state.result
    assert result is not None
    assert result.trick_winners == (1, 1, 1, 1, 1)
    assert result.tricks == 0 and result.made is False
    assert payments(state) == owed(*pays_each(0, [1, 2, 3], 4, "NAP-9.2.1"))


def test_any_opening_lead_and_following_suit() -> None:
    """000 L36: the bidder may lead any card (no lead obligation in this game, NAP-7.2.2 'any');
    the others must follow suit if able (NAP-8.1.1)."""
    state, _ = ladder_hand(0, 3)  # seat 0: AS KS QS 2H 3H
    state = apply_all(state, [Bid("three"), Pass(), Pass(), Pass()])
    assert set(state.legal_actions()) == {Play(parse_card(c)) for c in
                                                  ("AS", "KS", "QS", "2H", "3H")}
    state = state.apply(Play(parse_card("2H")))  # hearts led: hearts are trumps
    # Seat 1 holds only hearts; seat 2's turn comes after. Seat 1 must play a heart: all it has.
    state = state.apply(Play(parse_card("AH")))
    # Seat 2 has no heart: any card is allowed (NAP-8.1.2).
    state = state.apply(Play(parse_card("6D")))
    state = state.apply(Play(parse_card("6C")))
    # Seat 1 won with the ace and leads KH; seat 2 and 3 are void; seat 0 holds 3H and must
    # follow with it, not a spade.
    state = apply_all(state, [Play(parse_card("KH")), Play(parse_card("5D")),
                              Play(parse_card("5C"))])
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("AS")))
    assert err.value.rule == "NAP-8.1.1"


def test_wellington_needs_an_earlier_nap() -> None:
    """000 L29: Wellington can only be bid after a bid of Nap (NAP-5.2.5)."""
    state, _ = ladder_hand(0, 5)
    state = state.apply(Bid("four"))
    assert Bid("wellington") not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("wellington"))
    assert err.value.rule == "NAP-5.2.5"


def test_bids_must_rise_and_speak_once() -> None:
    """000 L27: one round from the dealer's left, each bid higher than the highest so far."""
    state, _ = ladder_hand(0, 5)
    state = state.apply(Bid("four"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("three"))
    assert err.value.rule == "NAP-5.2.1"
    with pytest.raises(IllegalActionError):
        state.apply(Bid("four"))
    state = apply_all(state, [Pass(), Pass(), Pass()])
    # The dealer was last to speak: the auction is over, seat 0 declares four.
    assert state.declarer == 0 and state.turn == 0
    assert state.game.rules.bids[state.contract].id == "four"


def test_all_pass_throws_the_hand_in() -> None:
    """000 L31: if all pass, the hand is not played; nobody pays (NAP-5.3.2)."""
    state, _ = ladder_hand(0, 5)
    state = apply_all(state, [Pass(), Pass(), Pass(), Pass()])
    result = state.result
    assert state.is_over() and result is not None
    assert result.thrown_in and result.declarer == -1 and result.contract is None
    assert result.payments == () and result.net == (0, 0, 0, 0)
