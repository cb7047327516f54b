"""Hand-worked hands of Nap with a floating card, from a pub games table
(003_d6a87a9680a6447b.txt, ruleset ``pub-floater``).

Every expectation below is worked out by hand from the source, the law book and the decisions
register, not read from the engine. The table is four players, dealer seat 3. For two to five
players only the nines to aces are used (003 L5): a pack of 24, of which 20 are dealt, one is
the floating card and three are left over. Cards go one at a time, the floating card after the
hands (DEC-055). The dealer looks at the floating card free (L11, NAP-6.1.2); anyone else may
pay one unit into the kitty to look (L11, NAP-6.1.1).

Six bids, lowest first (L7, NAP-5.2.4): three with the floating card, three without, four
with, four without, Nap with, Nap without. A declarer who bid 'with' takes the floating card and
rejects one of the five dealt (L11, L13; DEC-054 default ``must-take``); 'without', the
floating card is not used. After the dealer the bidding goes round once more so that those who
bid may raise (L11, DEC-053 default ``bidders``; NAP-5.4.1). The first card led fixes trumps
(L13, NAP-7.1.1); there is no lead obligation.

Stakes follow the order of the bids (L7): by DEC-051's default scale ``rank`` they are 1, 2, 3,
4, 5 and 6 units from each opponent when made, to each opponent when defeated (L13, NAP-9.1.1,
NAP-9.2.1); only a made Nap, with or without, wins the kitty (L15, NAP-9.1.2). If nobody bids
the stakes double for the next round (L7, NAP-9.4.1).

The 'ladder' layout in the 24-card pack: the declarer holds k top spades and 5-k low hearts
from the 9 up; the left-hand player the hearts above them (AH downwards) and, where it needs
more cards, low spades (9S, 10S) that it must play to the declarer's first spade leads; the
next player AD KD QD JD 10D, the last AC KC QC JC 10C. The declarer leads its spades (trumps
by L13) and wins k tricks; the low hearts then lose to the left-hand player's higher hearts.
For a bid 'with', the declarer is dealt the 9D in place of its lowest top spade and that spade
is the floating card: it must take it and reject the 9D, which leaves the ladder hand. For a
bid 'without', the floating card is the 9D and stays out of play.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from napkit.engine.actions import (
    Action,
    Bid,
    ChooseDealer,
    Discard,
    LeaveWidow,
    Pass,
    Peek,
    Play,
    Shuffle,
    TakeWidow,
)
from napkit.engine.cards import mask_of, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match, stakes
from napkit.engine.state import POOL
from napkit.errors import IllegalActionError, SetupError

from tests.handworked.deals import (
    TOP,
    apply_all,
    build_pack,
    cards,
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
SINGLY = (1, 1, 1, 1, 1)  # DEC-055
LOWEST = "9"  # 003 L5: two to five players use the nines to aces
KITTY = 3  # what the kitty holds before the hand (looks bought in earlier hands)
THIRD = ("AD", "KD", "QD", "JD", "10D")
FOURTH = ("AC", "KC", "QC", "JC", "10C")
EXTRA = "9D"  # the card a 'with' declarer is dealt and rejects; else the floating card

# k -> (declarer's low hearts, the left-hand player's hearts highest first, its low spades)
LADDER = {
    5: ((), ("AH", "KH", "QH", "JH", "10H"), ()),
    4: (("9H",), ("AH", "KH", "QH", "JH", "10H"), ()),
    3: (("9H", "10H"), ("AH", "KH", "QH", "JH"), ("9S",)),
    2: (("9H", "10H", "JH"), ("AH", "KH", "QH"), ("9S", "10S")),
}

# Stakes by DEC-051: 'rank' (default), each bid worth its place in L7's order; 'tricks'.
RANK = {"three-with": 1, "three-without": 2, "four-with": 3, "four-without": 4,
        "nap-with": 5, "nap-without": 6}
TRICKS = {"three-with": 3, "three-without": 3, "four-with": 4, "four-without": 4,
          "nap-with": 5, "nap-without": 5}


def game(**options: str) -> Game:
    return Game.create("pub-floater", 4, options)


def ladder_roles(k: int, with_floater: bool) -> tuple[tuple[str, str, str, str], str]:
    """The four hands (declarer, left, across, right) as dealt, and the floating card."""
    low, high, spare = LADDER[k]
    top = TOP[:k]
    if with_floater:
        declarer, floater = top[:-1] + low + (EXTRA,), top[-1]
    else:
        declarer, floater = top + low, EXTRA
    return (" ".join(declarer), " ".join(high + spare), " ".join(THIRD),
            " ".join(FOURTH)), floater


def ladder_deal(declarer: int, k: int, with_floater: bool, g: Game | None = None,
                dealer: int = DEALER, kitty: int = KITTY) -> HandState:
    hands, floater = ladder_roles(k, with_floater)
    return dealt(g or game(), dealer=dealer, hands=rotate(hands, declarer), packets=SINGLY,
                 widow=floater, lowest=LOWEST, pool=kitty)


def ladder_tricks(k: int) -> list[str]:
    low, high, spare = LADDER[k]
    return ladder(TOP[:k], low, high, spare, THIRD, FOURTH)


def play_out(state: HandState, bid: str, k: int) -> HandState:
    """After the auction: a 'with' declarer rejects the 9D (must-take); then the ladder."""
    if bid.endswith("-with"):
        state = state.apply(Discard(parse_card(EXTRA)))
    return play_tricks(state, ladder_tricks(k))


# (bid, auction incl. the raising round, declarer, k, made)
CASES = [
    # L7 bid 1, three with: k=3 made. Seat 0 bids, the others pass; in the raising round only
    # seat 0 bid, so only it speaks again (DEC-053) and passes.
    ("three-with", [Bid("three-with"), Pass(), Pass(), Pass(), Pass()], 0, 3, True),
    ("three-with", [Bid("three-with"), Pass(), Pass(), Pass(), Pass()], 0, 2, False),
    # Without the floating card ranks just above with (NAP-5.2.4): seat 1 outbids seat 0;
    # both bid, so both speak in the raising round, and both pass.
    ("three-without", [Bid("three-with"), Bid("three-without"), Pass(), Pass(), Pass(),
                       Pass()], 1, 3, True),
    # More tricks than bid are allowed (L13 'make or exceed') and earn no more.
    ("three-without", [Pass(), Bid("three-without"), Pass(), Pass(), Pass()], 1, 4, True),
    ("three-without", [Pass(), Bid("three-without"), Pass(), Pass(), Pass()], 1, 2, False),
    ("four-with", [Pass(), Pass(), Bid("four-with"), Pass(), Pass()], 2, 4, True),
    ("four-with", [Pass(), Pass(), Bid("four-with"), Pass(), Pass()], 2, 3, False),
    # The dealer bids last (L11).
    ("four-without", [Pass(), Pass(), Pass(), Bid("four-without"), Pass()], 3, 4, True),
    ("four-without", [Pass(), Pass(), Pass(), Bid("four-without"), Pass()], 3, 3, False),
    # Nap with: all five; a made Nap also takes the kitty (L15).
    ("nap-with", [Bid("nap-with"), Pass(), Pass(), Pass(), Pass()], 0, 5, True),
    # A lost Nap pays the scale only; the kitty is untouched (L13, L15).
    ("nap-with", [Bid("nap-with"), Pass(), Pass(), Pass(), Pass()], 0, 4, False),
    # Nap without, the highest bid (L7): seat 0 bids four with, seat 2 Nap without; seat 0
    # cannot outbid it in the raising round and passes, as does seat 2.
    ("nap-without", [Bid("four-with"), Pass(), Bid("nap-without"), Pass(), Pass(), Pass()],
     2, 5, True),
    ("nap-without", [Pass(), Bid("nap-without"), Pass(), Pass(), Pass()], 1, 4, False),
]


@pytest.mark.parametrize(("bid", "auction", "declarer", "k", "made"), CASES)
def test_contract(bid: str, auction: list[Action], declarer: int, k: int, made: bool) -> None:
    with_floater = bid.endswith("-with")
    state = apply_all(ladder_deal(declarer, k, with_floater), auction)
    assert state.declarer == declarer  # NAP-5.3.1
    if not with_floater:
        assert state.widow == parse_card(EXTRA)  # 'without': the floating card is not used
    state = play_out(state, bid, k)
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.contract == bid
    assert result.tricks == k
    assert result.made is made
    left = (declarer + 1) % 4
    assert result.trick_winners == (declarer,) * k + (left,) * (5 - k)
    stake = RANK[bid]
    opponents = [s for s in range(4) if s != declarer]
    nap = bid.startswith("nap")
    if made:
        expected = each_pays(opponents, declarer, stake, "NAP-9.1.1")
        if nap:
            expected.append((POOL, declarer, KITTY, "NAP-9.1.2"))
    else:
        expected = pays_each(declarer, opponents, stake, "NAP-9.2.1")
    assert payments(state) == owed(*expected)
    sign = 1 if made else -1
    assert result.net[declarer] == sign * 3 * stake + (KITTY if nap and made else 0)
    assert result.pool == (0 if nap and made else KITTY)


@pytest.mark.parametrize(("scale", "bid", "k", "stake"), [
    # DEC-051: by rank, three with is worth 1 and three without 2; by tricks both are 3.
    ("rank", "three-with", 3, 1),
    ("tricks", "three-with", 3, 3),
    ("rank", "three-without", 2, 2),
    ("tricks", "three-without", 2, 3),
    # Nap without: 6 by rank, 5 by tricks; made, it also takes the kitty (L15).
    ("rank", "nap-without", 5, 6),
    ("tricks", "nap-without", 5, 5),
])
def test_scale(scale: str, bid: str, k: int, stake: int) -> None:
    state = ladder_deal(0, k, bid.endswith("-with"), game(scale=scale))
    state = apply_all(state, [Bid(bid), Pass(), Pass(), Pass(), Pass()])
    state = play_out(state, bid, k)
    result = state.result
    assert result is not None and result.made is (k >= 3)
    if result.made:
        expected = each_pays([1, 2, 3], 0, stake, "NAP-9.1.1")
        if bid.startswith("nap"):
            expected.append((POOL, 0, KITTY, "NAP-9.1.2"))
    else:
        expected = pays_each(0, [1, 2, 3], stake, "NAP-9.2.1")
    assert payments(state) == owed(*expected)


def test_dealer_looks_free_others_pay_into_the_kitty() -> None:
    """L11: the dealer looks at the floating card before the bidding without paying
    (NAP-6.1.2); each other player may pay one unit into the kitty to look (NAP-6.1.1), and
    after looking may still pass or bid with or without it (NAP-5.2.4).

    Seat 0 looks (kitty 3 -> 4) and bids Nap without; seats 1 and 2 pass without looking; the
    dealer may not buy a look it already had, and passes; seat 0 passes in the raising round.
    Nap without made: 6 from each (rank scale) and the kitty of 4 (L15): net +22."""
    state = ladder_deal(0, 5, False)
    assert state.seen == 1 << DEALER  # the dealer's free look (NAP-6.1.2)
    state = state.apply(Peek())
    assert state.pool == KITTY + 1 and state.turn == 0
    assert Bid("three-with") in state.legal_actions()  # looking commits to nothing
    state = apply_all(state, [Bid("nap-without"), Pass(), Pass()])
    assert state.turn == DEALER and Peek() not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Peek())
    assert err.value.rule == "NAP-6.1.1"
    state = apply_all(state, [Pass(), Pass()])
    state = play_tricks(state, ladder_tricks(5))
    result = state.result
    assert result is not None and result.made
    assert payments(state) == owed((0, POOL, 1, "NAP-6.1.1"),
                                   *each_pays([1, 2, 3], 0, 6, "NAP-9.1.1"),
                                   (POOL, 0, KITTY + 1, "NAP-9.1.2"))
    assert result.net[0] == 18 - 1 + KITTY + 1
    assert result.pool == 0


def test_a_look_in_the_raising_round() -> None:
    """DEC-056: a player who has not looked may pay to look at any turn, the raising round
    included. Seat 0 bids three with unseen; in the raising round it looks (kitty +1) and
    raises to four with."""
    state = ladder_deal(0, 4, True)
    state = apply_all(state, [Bid("three-with"), Pass(), Pass(), Pass()])
    assert state.turn == 0 and Peek() in state.legal_actions()
    state = apply_all(state, [Peek(), Bid("four-with")])
    assert state.declarer == 0 and state.contract_bid is not None
    assert state.contract_bid.id == "four-with"
    state = play_out(state, "four-with", 4)
    assert state.result is not None and state.result.made
    assert payments(state) == owed((0, POOL, 1, "NAP-6.1.1"),
                                   *each_pays([1, 2, 3], 0, 3, "NAP-9.1.1"))
    assert state.result.pool == KITTY + 1


def test_with_declarer_must_take_and_reject_a_dealt_card() -> None:
    """DEC-054 default 'must-take': a 'with' declarer takes the floating card and rejects one
    of the five dealt (NAP-6.3.1); the floating card itself may not be rejected. The rejected
    card is out of the hand (L13: returned undisclosed to the pack)."""
    state = ladder_deal(0, 3, True)  # dealt AS KS 9H 10H 9D, floating QS
    state = apply_all(state, [Bid("three-with"), Pass(), Pass(), Pass(), Pass()])
    assert state.hands[0] == mask_of(cards("AS KS QS 9H 10H 9D"))
    assert set(state.legal_actions()) == {Discard(c) for c in cards("AS KS 9H 10H 9D")}
    with pytest.raises(IllegalActionError) as err:
        state.apply(Discard(parse_card("QS")))
    assert err.value.rule == "NAP-6.3.1"
    state = state.apply(Discard(parse_card("9D")))
    assert state.hands[0] == mask_of(cards("AS KS QS 9H 10H"))
    assert state.discards == (parse_card("9D"),)
    # L13: the first card played fixes trumps; no lead obligation: any of the five.
    assert set(state.legal_actions()) == {Play(c) for c in cards("AS KS QS 9H 10H")}


def test_with_declarer_may_leave_or_reject_the_floater() -> None:
    """DEC-054 alternative 'may': the 'with' declarer may leave the floating card, or take it
    and reject the floating card itself (NAP-6.3.1)."""
    g = game(**{"floating-exchange": "may"})
    state = apply_all(ladder_deal(0, 3, True, g),
                      [Bid("three-with"), Pass(), Pass(), Pass(), Pass()])
    assert set(state.legal_actions()) == {TakeWidow(), LeaveWidow()}
    left = state.apply(LeaveWidow())
    assert left.hands[0] == mask_of(cards("AS KS 9H 10H 9D"))
    taken = state.apply(TakeWidow())
    assert Discard(parse_card("QS")) in taken.legal_actions()
    back = taken.apply(Discard(parse_card("QS")))
    assert back.hands[0] == mask_of(cards("AS KS 9H 10H 9D"))


def test_without_declarer_gets_no_exchange() -> None:
    """NAP-5.2.4: a bid without the floating card gives no exchange: play begins at once with
    the five dealt cards, even for a declarer who looked."""
    state = ladder_deal(0, 3, False)
    state = apply_all(state, [Peek(), Bid("three-without"), Pass(), Pass(), Pass(), Pass()])
    assert state.phase_name == "play" and state.turn == 0
    assert state.hands[0] == mask_of(cards("AS KS QS 9H 10H"))
    assert state.widow == parse_card(EXTRA)


def test_without_ranks_above_with() -> None:
    """L7, NAP-5.2.4: three without ranks above three with, so after it three with is too low
    (NAP-5.2.1); four with ranks above both."""
    state = ladder_deal(0, 3, False).apply(Bid("three-without"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("three-with"))
    assert err.value.rule == "NAP-5.2.1"
    assert [a.bid for a in state.legal_actions() if isinstance(a, Bid)] == [
        "four-with", "four-without", "nap-with", "nap-without"]


def test_raising_round_bidders() -> None:
    """L11, DEC-053 default: after the dealer, only those who bid speak again, once, from the
    dealer's left; the highest bidder may raise its own bid (NAP-5.4.1). Seat 0 three with,
    seat 2 four with; seats 1 and 3 pass. Raising round: seat 0, then seat 2 (seat 1 skipped).
    Seat 0 passes, seat 2 raises itself to four without and declares it."""
    state = ladder_deal(2, 4, False)
    state = apply_all(state, [Bid("three-with"), Pass(), Bid("four-with"), Pass()])
    assert state.turn == 0 and state.auction.round == 2
    state = state.apply(Pass())
    assert state.turn == 2
    state = state.apply(Bid("four-without"))
    assert state.declarer == 2 and state.contract_bid is not None
    assert state.contract_bid.id == "four-without"
    state = play_out(state, "four-without", 4)
    result = state.result
    assert result is not None and result.made and result.trick_winners == (2, 2, 2, 2, 3)
    assert payments(state) == owed(*each_pays([3, 0, 1], 2, 4, "NAP-9.1.1"))


def test_raising_round_everyone() -> None:
    """DEC-053 alternative 'everyone': a player who passed may bid in the raising round. Seat 0
    three with, all pass; round two: seat 0 passes, seat 1 bids four with, seats 2 and 3 pass:
    seat 1 declares."""
    g = game(raising="everyone")
    state = apply_all(ladder_deal(1, 4, True, g), [Bid("three-with"), Pass(), Pass(), Pass()])
    state = apply_all(state, [Pass(), Bid("four-with"), Pass(), Pass()])
    assert state.declarer == 1 and state.contract_bid is not None
    assert state.contract_bid.id == "four-with"
    # Under the default, seat 1 would not have spoken: the auction ends after seat 0.
    default = apply_all(ladder_deal(1, 4, True), [Bid("three-with"), Pass(), Pass(), Pass(),
                                                  Pass()])
    assert default.declarer == 0


def test_no_bid_no_raising_round() -> None:
    """NAP-5.4.1: with nobody bidding in the first round there is nothing to raise; the hand
    is thrown in (L7) and the kitty keeps its looks."""
    state = apply_all(ladder_deal(0, 3, False), [Peek(), Pass(), Pass(), Pass(), Pass()])
    result = state.result
    assert state.is_over() and result is not None and result.thrown_in
    assert payments(state) == owed((0, POOL, 1, "NAP-6.1.1"))
    assert result.pool == KITTY + 1


# --- a match: throw-ins double the stakes; the kitty carried and left at the end ------------

def apply_match(match: MatchState, actions: Sequence[Action]) -> MatchState:
    for action in actions:
        match = match.apply(action)
    return match


@pytest.mark.parametrize(("stakes_option", "kitty_option", "balances", "left"), [
    # DEC-052 default: two throw-ins in a row double twice: stake 2 x 4 = 8 from each.
    # Seat 2: -2 (two looks) + 24 = 22; seats 0 and 3: -1 - 8 = -9; seat 1: -2 - 8 = -10.
    # DEC-057 default: the kitty of 6 is nobody's at the end.
    ("double-cumulative", "unclaimed", (-9, -10, 22, -9), 6),
    # DEC-052 alternative: never more than doubled: 2 x 2 = 4 from each.
    ("double-next", "unclaimed", (-5, -6, 10, -5), 6),
    # DEC-057 alternative: 6 shared by four: 1 each, 2 left unclaimed.
    ("double-cumulative", "split-equally", (-8, -9, 23, -8), 2),
])
def test_match_throw_ins_double_the_stakes(stakes_option: str, kitty_option: str,
                                           balances: tuple[int, ...], left: int) -> None:
    """L7: if every hand is thrown in without a bid, the stakes double for the next round
    (NAP-9.4.1); looks are never raised. A match of three hands, first dealer seat 3 (L11:
    the deal passes clockwise).

    Hand 1 (dealer 3): seats 0, 1 and 2 each pay 1 to look and pass; the dealer passes: thrown
    in, kitty 3. Hand 2 (dealer 0): seats 1, 2 and 3 look and pass, the dealer passes: kitty 6.
    Hand 3 (dealer 1): seat 2 bids three without, the others pass, seat 2 passes in the
    raising round and takes three tricks (ladder): made at the raised stake. No Nap: the kitty
    stays (L15)."""
    g = game(**{"throw-in-stakes": stakes_option, "kitty-at-end": kitty_option})

    def pack(dealer: int, declarer: int) -> tuple[int, ...]:
        hands, floater = ladder_roles(3, False)
        return build_pack(players=4, dealer=dealer, hands=rotate(hands, declarer),
                          packets=SINGLY, widow=floater, lowest=LOWEST)

    match = new_match(g, hands=3).apply(ChooseDealer(3)).apply(Shuffle(pack(3, 0)))
    match = apply_match(match, [Peek(), Pass(), Peek(), Pass(), Peek(), Pass(), Pass()])
    assert match.pool == 3 and match.dealer == 0 and stakes(match) == 2
    match = apply_match(match, [Shuffle(pack(0, 0)), Peek(), Pass(), Peek(), Pass(), Peek(),
                                Pass(), Pass()])
    assert match.pool == 6 and match.dealer == 1
    assert stakes(match) == (4 if stakes_option == "double-cumulative" else 2)
    match = apply_match(match, [Shuffle(pack(1, 2)), Bid("three-without"), Pass(), Pass(),
                                Pass(), Pass()])
    assert match.hand is not None and match.hand.declarer == 2
    for trick in ladder_tricks(3):
        for card in cards(trick):
            match = match.apply(Play(card))
    assert match.is_over() and match.result is not None
    last = match.hands[-1].result
    assert last is not None and last.made and last.trick_winners == (2, 2, 2, 3, 3)
    assert match.result.balances == balances
    assert match.result.pool == left
    assert match.result.winners == (2,)
    assert stakes(match) == 1  # a hand was played: the stakes are back to normal


@pytest.mark.parametrize(("option", "allowed", "pack_size"), [
    # DEC-050 default: five players use the sixes-to-aces pack of six or seven (36 cards).
    ("larger-pack", True, 36),
    # DEC-050 alternative: the game is not played by five.
    ("not-allowed", False, 0),
])
def test_five_players(option: str, allowed: bool, pack_size: int) -> None:
    """L3, L5: the 24-card pack cannot deal five players and a floating card (NAP-2.2.2)."""
    if allowed:
        g = Game.create("pub-floater", 5, {"five-players": option})
        assert g.pack().bit_count() == pack_size
    else:
        with pytest.raises(SetupError) as err:
            Game.create("pub-floater", 5, {"five-players": option})
        assert err.value.rule == "NAP-3.1.1"
    assert game().pack().bit_count() == 24  # four players: nines to aces (L5)
