"""Hand-worked hands of Ken Short's Dorset version of Nap with a floater (ruleset ``pagat-dorset``).

The source is 004_d686e73063261d6b.txt (below "004"). The Dorset version is given in one line,
004 L102: the bids are three with, three without, four with, four without and Nap, the highest;
no Bonaparte, no Wellington. Everything else is the floater game of 004 L62-100 (DEC-100):

* four players use 24 cards, ace down to nine (004 L69; NAP-2.2.1), dealt three then two (004 L17,
  option ``packets`` default 3-2; NAP-4.2.2) from the dealer's left, then the floater face down
  (004 L76; NAP-4.3.1); the last three cards are the stock;
* every player antes 1 to the kitty before each deal (004 L76, L98; NAP-10.3.1). A hand built
  here starts with the kitty at 4, the four antes the match takes before the deal; the ante
  itself is tested on a match below;
* at their turn, before speaking, a player may pay 1 to the kitty to see the floater (004 L76,
  L80; NAP-6.1.1); the dealer pays like anyone (no free look, NAP-6.1.2);
* one round of bidding from the dealer's left (004 L76; NAP-5.1.1, NAP-5.1.2); a bid without the
  floater ranks just above the same bid with it (004 L78; NAP-5.2.4);
* a declarer who bid 'with' may take up the floater and discard a card, possibly the floater
  itself (004 L78; NAP-6.3.1), before naming trumps (DEC-092; NAP-6.3.2); the declarer names
  trumps and leads (004 L96; NAP-7.1.2, NAP-7.2.1); Dorset bids carry no lead obligation
  (004 L96, L102);
* made: each opponent pays the bid's amount (004 L84-88; NAP-9.1.1), and Nap also wins the
  kitty (004 L87-88, L94; NAP-9.1.2). Defeated: the declarer pays the amount times the number of
  players into the kitty and nothing to anyone (004 L84-88, L94; NAP-9.2.2). Four pays 2, Nap 5
  (004 L85-88); three, which the table does not price, pays 1 (DEC-102 default ``one-unit``) or
  2 (``as-four``). Nap is one bid without the floater by default (DEC-101 ``single-without``),
  or one bid with it (``single-with``), or two bids like the others (``with-and-without``).

The ladder layouts (:data:`LADDER`). The table is four, dealer seat 3, so seat 0 speaks and
receives cards first. The declarer D holds the k top spades (AS KS QS JS 10S) and 5-k low
hearts; the player on D's left (L) holds AH AD KD QD JD, the next (A) the five clubs AC-10C,
and the last (R) 10D 9D 9C KH 9S. D names spades and leads them: nobody else holds a spade but R's
9S, which must follow to the first one and is beaten, so D wins k tricks. Then D leads 9H; L must
play AH and wins (R follows with KH, nobody else has a heart, and no trump is left: D had the
only ones). L leads diamonds down from the top; D and A hold none and R only the 10D and 9D,
so L wins every remaining trick. D wins exactly k tricks, and the trick winners are D k times,
then L. Which cards the others throw on each trick is written in the scripts; each one obeys
following suit (NAP-8.1.1), which the engine checks as the tricks are played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from napkit.engine.actions import (
    Action,
    Bid,
    ChooseDealer,
    Cut,
    Discard,
    LeaveWidow,
    NameTrumps,
    Pass,
    Peek,
    Play,
    Shuffle,
    TakeWidow,
)
from napkit.engine.cards import CLUBS, SPADES, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match, stop
from napkit.errors import IllegalActionError

from tests.handworked.deals import (
    POOL,
    apply_all,
    build_pack,
    cards,
    check_kitty_settlement,
    dealt,
    each_pays,
    owed,
    payments,
    play_tricks,
    rotate,
)

RULESET = "pagat-dorset"
DEALER = 3
PACKETS = (3, 2)  # 004 L17, option packets default 3-2
LOWEST = "9"  # 004 L69: four players use A-K-Q-J-10-9
ANTES = 4  # 004 L76: one unit from each of the four players before the deal

L_HAND = "AH AD KD QD JD"
A_HAND = "AC KC QC JC 10C"
R_HAND = "10D 9D 9C KH 9S"

# k -> (the declarer's hand, the floater, the five tricks, each written leader first).
# The floater is one of the four cards nobody holds; the other three are the stock.
LADDER: dict[int, tuple[str, str, list[str]]] = {
    # D leads all five spades; the others are void (R's 9S follows the first and loses).
    5: ("AS KS QS JS 10S", "9H",
        ["AS JD 10C 9S", "KS QD JC 9C", "QS KD QC 9D", "JS AD KC 10D", "10S AH AC KH"]),
    # Four spades win; then 9H: L's AH beats it (R follows KH), so L takes the fifth.
    4: ("AS KS QS JS 9H", "10S",
        ["AS JD 10C 9S", "KS QD JC 9C", "QS KD QC 9D", "JS AD KC 10D", "9H AH AC KH"]),
    # Three spades win; 9H loses to AH; L leads AD, R must follow 10D, D throws 10H.
    3: ("AS KS QS 9H 10H", "JS",
        ["AS JD 10C 9S", "KS QD JC 9C", "QS KD QC 9D", "9H AH KC KH", "AD AC 10D 10H"]),
    # Two spades win; 9H loses to AH; L's KD and AD win (R follows 9D, 10D).
    2: ("AS KS 9H 10H JH", "QS",
        ["AS JD 10C 9S", "KS QD JC 9C", "9H AH QC KH", "KD KC 9D 10H", "AD AC 10D JH"]),
    # One spade wins; 9H loses to AH; L's QD, KD, AD win (R follows 9D, 10D, then throws 9C).
    1: ("AS 9H 10H JH QH", "KS",
        ["AS JD 10C 9S", "9H AH JC KH", "QD QC 9D 10H", "KD KC 10D JH", "AD AC 9C QH"]),
}


def game(options: dict[str, str] | None = None, players: int = 4) -> Game:
    return Game.create(RULESET, players, options)


def ladder_deal(g: Game, declarer: int, k: int, pool: int = ANTES) -> HandState:
    """The ladder layout for k tricks, the declarer at ``declarer``, dealt by seat 3."""
    hand, floater, _ = LADDER[k]
    roles = (hand, L_HAND, A_HAND, R_HAND)
    return dealt(g, dealer=DEALER, hands=rotate(roles, declarer), packets=PACKETS,
                 widow=floater, lowest=LOWEST, pool=pool)


def auction_for(declarer: int, bid: str) -> list[Action]:
    """Seats 0 to 3 speak in turn (004 L76): the declarer bids, everyone else passes."""
    return [Bid(bid) if seat == declarer else Pass() for seat in range(4)]


def settle_floater(state: HandState, with_floater: bool) -> HandState:
    """After the auction: a 'with' declarer is offered the floater and leaves it (004 L78,
    NAP-6.3.1); a 'without' declarer is not (NAP-5.2.4) and goes straight to naming trumps.
    Then spades are named (004 L96, NAP-7.1.2)."""
    if with_floater:
        assert state.phase_name == "exchange"
        assert set(state.legal_actions()) == {TakeWidow(), LeaveWidow()}
        state = state.apply(LeaveWidow())
    assert state.phase_name == "naming" and state.turn == state.declarer
    state = state.apply(NameTrumps(SPADES))
    assert state.trumps == SPADES
    return state


@dataclass(frozen=True)
class Case:
    """One contract on a ladder layout, with what the hand should pay, worked out by hand."""

    bid: str
    with_floater: bool  # whether the bid was made with the floater (NAP-5.2.4)
    declarer: int
    k: int  # the ladder: the declarer wins exactly k tricks
    made: bool
    amount: int  # won from each opponent if made; paid per player into the kitty if defeated
    kitty: bool = False  # whether a made contract also wins the kitty (NAP-9.1.2)
    options: dict[str, str] = field(default_factory=dict)


CASES = [
    # --- default options: dorset-three one-unit, dorset-nap single-without ---
    # Three with the floater (004 L102): 3 tricks of 3, made; DEC-102 one-unit: 1 from each of
    # the three opponents (NAP-9.1.1) -> +3; the kitty stays at 4 (only Nap wins it, L87-88).
    Case("three-with", True, 0, 3, True, 1),
    # More than three is allowed and earns nothing more (NAP-5.2.3): 4 tricks still win 1 each.
    Case("three-with", True, 1, 4, True, 1),
    # 2 tricks < 3: defeated; pays 1 x 4 players = 4 into the kitty (NAP-9.2.2) -> kitty 8.
    Case("three-with", True, 2, 2, False, 1),
    # Three without the floater: the same tricks and money (DEC-102), no exchange offered.
    Case("three-without", False, 3, 3, True, 1),
    Case("three-without", False, 0, 2, False, 1),
    # Four with (004 L85): 4 tricks made, 2 from each -> +6; 3 tricks defeated, 2 x 4 = 8 into
    # the kitty -> kitty 12.
    Case("four-with", True, 1, 4, True, 2),
    Case("four-with", True, 2, 3, False, 2),
    # Four without (004 L86): the same amounts.
    Case("four-without", False, 2, 4, True, 2),
    Case("four-without", False, 3, 3, False, 2),
    # Nap (004 L102, single bid without the floater, DEC-101): all five tricks; 5 from each and
    # the kitty (004 L87-88): +15 +4 = +19, kitty 0. Four tricks: defeated, 5 x 4 = 20 into
    # the kitty -> 24.
    Case("nap", False, 3, 5, True, 5, kitty=True),
    Case("nap", False, 0, 4, False, 5, kitty=True),
    # --- dorset-three as-four: three pays like four, 2 each or 2 x 4 into the kitty ---
    Case("three-with", True, 0, 3, True, 2, options={"dorset-three": "as-four"}),
    Case("three-without", False, 1, 2, False, 2, options={"dorset-three": "as-four"}),
    # --- dorset-nap single-with: one Nap bid, and its declarer is offered the floater ---
    Case("nap", True, 1, 5, True, 5, kitty=True, options={"dorset-nap": "single-with"}),
    Case("nap", True, 2, 4, False, 5, kitty=True, options={"dorset-nap": "single-with"}),
    # --- dorset-nap with-and-without: Nap with and Nap without, priced like Nap ---
    Case("nap-with", True, 0, 5, True, 5, kitty=True, options={"dorset-nap": "with-and-without"}),
    Case("nap-with", True, 3, 4, False, 5, kitty=True,
         options={"dorset-nap": "with-and-without"}),
    Case("nap-without", False, 2, 5, True, 5, kitty=True,
         options={"dorset-nap": "with-and-without"}),
    Case("nap-without", False, 1, 4, False, 5, kitty=True,
         options={"dorset-nap": "with-and-without"}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.bid}-k{c.k}-{c.options}")
def test_contract(case: Case) -> None:
    state = ladder_deal(game(case.options), case.declarer, case.k)
    state = apply_all(state, auction_for(case.declarer, case.bid))
    assert state.declarer == case.declarer  # NAP-5.3.1: the only bidder
    state = settle_floater(state, case.with_floater)
    state = play_tricks(state, LADDER[case.k][2])
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.contract == case.bid
    assert result.tricks == case.k
    assert result.made is case.made
    left = (case.declarer + 1) % 4
    assert result.trick_winners == (case.declarer,) * case.k + (left,) * (5 - case.k)
    # 004 L94: a made bid is paid by each opponent; a lost one pays the kitty only.
    check_kitty_settlement(state, declarer=case.declarer, amount=case.amount, made=case.made,
                           wins_kitty=case.kitty, kitty=ANTES)


# Five players (004 L70: 28 cards, ace to eight), dealer seat 4, declarer seat 0. The declarer
# holds the five top spades (k=5) or four and the 8H (k=4); the others hold no spade but seat 4's
# 8S in the defeated hand, which must follow the first lead and loses.
FIVE_MADE = {0: "AS KS QS JS 10S", 1: "AH KH QH JH 10H", 2: "AD KD QD JD 10D",
             3: "AC KC QC JC 10C", 4: "9H 9D 9C 8H 8D"}
FIVE_MADE_TRICKS = ["AS 10H 10D 10C 8D", "KS JH JD JC 8H", "QS QH QD QC 9C",
                    "JS KH KD KC 9D", "10S AH AD AC 9H"]
FIVE_LOST = {0: "AS KS QS JS 8H", 1: "AH KH QH JH 10H", 2: "AD KD QD JD 10D",
             3: "AC KC QC JC 10C", 4: "9D 9C 8D 8C 8S"}
FIVE_LOST_TRICKS = ["AS 10H 10D 10C 8S", "KS JH JD JC 8C", "QS QH QD QC 8D",
                    "JS KH KD KC 9C", "8H AH AD AC 9D"]


@pytest.mark.parametrize("made", [True, False])
def test_nap_at_five_players_is_the_sources_example(made: bool) -> None:
    """004 L94's own example: five players, Nap. Won: the kitty and 5 from each of the four
    others (+20, NAP-9.1.1, NAP-9.1.2). Lost: 5 x 5 players = 25 into the kitty and nothing
    to the other players (NAP-9.2.2). The kitty holds the five antes (004 L76) before."""
    hands, tricks = (FIVE_MADE, FIVE_MADE_TRICKS) if made else (FIVE_LOST, FIVE_LOST_TRICKS)
    state = dealt(game(players=5), dealer=4, hands=hands, packets=PACKETS,
                  widow="9S" if made else "10S", lowest="8", pool=5)
    state = apply_all(state, [Bid("nap"), Pass(), Pass(), Pass(), Pass()])
    state = play_tricks(settle_floater(state, with_floater=False), tricks)
    result = state.result
    assert result is not None and result.made is made
    if made:
        assert result.trick_winners == (0, 0, 0, 0, 0)
        assert payments(state) == owed(*each_pays([1, 2, 3, 4], 0, 5, "NAP-9.1.1"),
                                       (POOL, 0, 5, "NAP-9.1.2"))
        assert result.net == (25, -5, -5, -5, -5) and result.pool == 0
    else:
        assert result.trick_winners == (0, 0, 0, 0, 1) and result.tricks == 4
        assert payments(state) == owed((0, POOL, 25, "NAP-9.2.2"))
        assert result.net == (-25, 0, 0, 0, 0) and result.pool == 30


def test_paid_looks_go_to_the_kitty_which_nap_then_wins() -> None:
    """004 L76, L80: immediately before bidding a player may pay one unit to the kitty to see the
    floater, and may then bid either way or pass (NAP-6.1.1). The dealer pays too: the floater
    game gives the dealer no free look (NAP-6.1.2, peek.dealer 'pays').

    Seat 0 looks (kitty 4 -> 5), may not look twice, and bids Nap; seat 1 looks (6) and passes;
    seat 2 passes; the dealer looks (7) and passes. Seat 0 makes Nap on the k=5 ladder: 5 from
    each (NAP-9.1.1) and the whole kitty, 7, looks included (004 L87-88, NAP-9.1.2).
    Net: seat 0 -1 +15 +7 = +21; seats 1 and 3 -1 -5 = -6; seat 2 -5. Kitty 0.
    """
    state = ladder_deal(game(), 0, 5)
    assert Peek() in state.legal_actions()
    state = state.apply(Peek())
    assert state.turn == 0 and state.pool == ANTES + 1  # still seat 0's turn to speak
    assert Peek() not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Peek())
    assert err.value.rule == "NAP-6.1.1"
    state = apply_all(state, [Bid("nap"), Peek(), Pass(), Pass()])
    assert state.turn == 3 and Peek() in state.legal_actions()  # the dealer must pay to look
    state = apply_all(state, [Peek(), Pass()])
    assert state.pool == ANTES + 3
    state = play_tricks(settle_floater(state, with_floater=False), LADDER[5][2])
    result = state.result
    assert result is not None and result.made is True
    looks = [(s, POOL, 1, "NAP-6.1.1") for s in (0, 1, 3)]
    assert payments(state) == owed(*looks, *each_pays([1, 2, 3], 0, 5, "NAP-9.1.1"),
                                   (POOL, 0, 7, "NAP-9.1.2"))
    assert result.net == (21, -6, -5, -6)
    assert result.pool == 0


def test_taking_the_floater_makes_four_with() -> None:
    """004 L78: with a bid 'with the floater' the declarer may pick it up and discard one card
    (NAP-6.3.1); a bid without it gives no such right (NAP-5.2.4).

    The k=3 ladder, floater JS. Seat 0 bids four with, takes the JS and discards the 10H: the
    hand is AS KS QS JS 9H, the k=4 ladder's, and four tricks are made (2 from each, 004 L85).
    The exchange comes before trumps are named (DEC-092, NAP-6.3.2). With the same cards, four
    without (next test) is defeated."""
    state = ladder_deal(game(), 0, 3)
    state = apply_all(state, auction_for(0, "four-with"))
    state = state.apply(TakeWidow())
    assert state.phase_name == "discard" and state.widow == -1
    # 'may' (004 L78 'possibly the same one'): any of the six cards may go, the floater too.
    assert {a.card for a in state.legal_actions() if isinstance(a, Discard)} == set(
        cards("AS KS QS JS 9H 10H"))
    state = state.apply(Discard(parse_card("10H")))
    assert state.hands[0] == sum(1 << c for c in cards("AS KS QS JS 9H"))
    assert state.phase_name == "naming"
    state = play_tricks(state.apply(NameTrumps(SPADES)), LADDER[4][2])
    result = state.result
    assert result is not None
    assert result.tricks == 4 and result.made is True
    assert result.trick_winners == (0, 0, 0, 0, 1)
    assert payments(state) == owed(*each_pays([1, 2, 3], 0, 2, "NAP-9.1.1"))
    assert result.pool == ANTES


def test_without_the_floater_the_same_cards_fail_four() -> None:
    """Four without (004 L86) on the k=3 ladder: no exchange is offered (NAP-5.2.4), three
    tricks, defeated: 2 x 4 = 8 into the kitty (NAP-9.2.2)."""
    state = ladder_deal(game(), 0, 3)
    state = apply_all(state, auction_for(0, "four-without"))
    assert state.phase_name == "naming"
    with pytest.raises(IllegalActionError):
        state.apply(TakeWidow())
    state = play_tricks(state.apply(NameTrumps(SPADES)), LADDER[3][2])
    result = state.result
    assert result is not None and result.tricks == 3 and result.made is False
    assert payments(state) == owed((0, POOL, 8, "NAP-9.2.2"))
    assert result.pool == ANTES + 8


def test_declarer_may_discard_the_floater_itself() -> None:
    """004 L78 'possibly the same one': taking the floater and discarding it leaves the hand as
    dealt; three with is then made on the k=3 ladder (1 from each, DEC-102)."""
    state = ladder_deal(game(), 0, 3)
    state = apply_all(state, auction_for(0, "three-with") + [TakeWidow()])
    state = state.apply(Discard(parse_card("JS")))
    assert state.hands[0] == sum(1 << c for c in cards(LADDER[3][0]))
    state = play_tricks(state.apply(NameTrumps(SPADES)), LADDER[3][2])
    assert state.result is not None and state.result.made is True
    assert payments(state) == owed(*each_pays([1, 2, 3], 0, 1, "NAP-9.1.1"))


def test_any_suit_may_be_named_and_any_card_led() -> None:
    """004 L96: the highest bidder chooses trumps and leads. Any suit may be named, one the
    declarer does not hold included (naming.void_suit 'allowed', NAP-7.1.2; 004 L100 has a
    declarer name a suit they lack). Dorset bids bind no first lead (004 L102 has no Bonaparte
    or Wellington, whose leads are bound): every card may be led (NAP-7.2.2 'any')."""
    state = ladder_deal(game(), 0, 5)  # seat 0 holds only spades
    state = apply_all(state, auction_for(0, "nap"))
    assert set(state.legal_actions()) == {NameTrumps(s) for s in range(4)}
    state = state.apply(NameTrumps(CLUBS))  # a suit seat 0 lacks
    assert state.trumps == CLUBS
    assert set(state.legal_actions()) == {Play(c) for c in cards(LADDER[5][0])}


def test_clubs_trumps_defeat_the_same_spades() -> None:
    """Naming matters: the k=5 ladder with clubs named instead of spades. Seat 0 leads AS; seat
    2, void in spades, may trump (NAP-8.1.2) with the 10C and wins (NAP-8.2.1; seat 3 must
    follow with the 9S). Seat 2 then leads its clubs, the trumps, from the JC up: seat 3 follows
    with the 9C once, and nobody else holds a club, so seat 2 wins every trick. Nap takes no
    trick: defeated, 5 x 4 = 20 into the kitty (NAP-9.2.2)."""
    state = ladder_deal(game(), 0, 5)
    state = apply_all(state, auction_for(0, "nap") + [NameTrumps(CLUBS)])
    state = play_tricks(state, ["AS JD 10C 9S", "JC 9C KS QD", "QC 9D QS KD", "KC 10D JS AD",
                                "AC KH 10S AH"])
    result = state.result
    assert result is not None
    assert result.trick_winners == (2, 2, 2, 2, 2) and result.tricks == 0
    assert result.made is False
    assert payments(state) == owed((0, POOL, 20, "NAP-9.2.2"))


def test_bids_rank_and_nap_is_the_highest() -> None:
    """004 L78: without ranks just above with (NAP-5.2.4); 004 L102: the bids run three with,
    three without, four with, four without, Nap, the highest, and there is no Bonaparte or
    Wellington (NAP-5.2.2); each bid must beat the last (004 L23, NAP-5.2.1)."""
    state = ladder_deal(game(), 0, 5)
    assert [a.bid for a in state.legal_actions() if isinstance(a, Bid)] == [
        "three-with", "three-without", "four-with", "four-without", "nap"]
    state = state.apply(Bid("three-without"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("three-with"))  # with ranks below without
    assert err.value.rule == "NAP-5.2.1"
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("bonaparte-with"))
    assert err.value.rule == "NAP-5.2.2"
    state = apply_all(state, [Bid("four-with"), Bid("nap")])
    # After Nap nothing is left to bid: the dealer may only look or pass.
    assert set(state.legal_actions()) == {Peek(), Pass()}
    state = state.apply(Pass())
    assert state.declarer == 2 and state.contract_bid is not None
    assert state.contract_bid.id == "nap"


def test_everyone_passes_and_the_kitty_stays() -> None:
    """004 L98: if nobody bids, the cards are redealt by the next player; nothing is settled
    (NAP-5.3.2). A look already bought stays in the kitty: kitty 4 + 1 = 5."""
    state = ladder_deal(game(), 0, 5)
    state = apply_all(state, [Pass(), Pass(), Peek(), Pass(), Pass()])
    result = state.result
    assert state.is_over() and result is not None and result.thrown_in
    assert result.contract is None and result.declarer == -1
    assert payments(state) == owed((2, POOL, 1, "NAP-6.1.1"))
    assert result.pool == ANTES + 1
    assert result.net == (0, 0, -1, 0)


def _pack(declarer: int, k: int) -> tuple[int, ...]:
    hand, floater, _ = LADDER[k]
    return build_pack(players=4, dealer=DEALER, hands=rotate((hand, L_HAND, A_HAND, R_HAND),
                                                               declarer),
                      packets=PACKETS, widow=floater, lowest=LOWEST)


def test_match_antes_every_deal_and_cuts_after_a_throw_in() -> None:
    """004 L76: one unit each into the kitty before each deal (NAP-10.3.1): 4. 004 L98: all pass,
    and before the redeal each pays 1 again: 8. 004 L74: cards are shuffled only at the start and
    after a Nap is won, so after the throw-in the pack is gathered and cut (DEC-093
    gather-and-cut, NAP-10.2.3): a shuffle is refused (NAP-10.2.2). The deal passes to seat 0
    (NAP-4.1.2)."""
    match = new_match(game())
    match = match.apply(ChooseDealer(DEALER)).apply(Shuffle(_pack(0, 5)))
    assert match.phase_name == "hand" and match.pool == ANTES
    assert match.hand is not None and match.hand.pool == ANTES
    assert sorted(match.ledger) == sorted(
        (s, POOL, 1, "NAP-10.3.1") for s in range(4))
    match = apply_all_match(match, [Pass(), Pass(), Pass(), Pass()])
    assert match.phase_name == "prepare" and match.dealer == 0
    with pytest.raises(IllegalActionError) as err:
        match.apply(Shuffle(_pack(0, 5)))
    assert err.value.rule == "NAP-10.2.2"
    match = match.apply(Cut(7))
    assert match.pool == 2 * ANTES
    assert match.balances == (-2, -2, -2, -2)


def test_match_shuffles_after_a_nap_is_won_but_not_after_four() -> None:
    """004 L74: shuffled after a bid of Nap or above has been won (NAP-10.2.1); after any other
    hand the pack is gathered and cut. Nap made by seat 0 on the k=5 ladder in the first hand:
    seat 0 antes 1 and wins 5 x 3 + the kitty 4 = +18 net; the others -1 -5 = -6; then the next
    deal needs a shuffle (a cut is refused, NAP-10.2.1). Four with made instead: a cut."""
    for bid, k, shuffled in (("nap", 5, True), ("four-with", 4, False)):
        match = new_match(game())
        match = match.apply(ChooseDealer(DEALER)).apply(Shuffle(_pack(0, k)))
        actions: list[Action] = [Bid(bid), Pass(), Pass(), Pass()]
        if bid == "four-with":
            actions.append(LeaveWidow())
        actions.append(NameTrumps(SPADES))
        actions += [Play(c) for trick in LADDER[k][2] for c in cards(trick)]
        match = apply_all_match(match, actions)
        assert match.phase_name == "prepare"
        if shuffled:
            assert match.balances == (18, -6, -6, -6) and match.pool == 0
            with pytest.raises(IllegalActionError) as err:
                match.apply(Cut(7))
            assert err.value.rule == "NAP-10.2.1"
            match = match.apply(Shuffle(_pack(0, 5)))
        else:
            # Four wins 2 from each (004 L85) and leaves the kitty: +6 -1 = +5; -2 -1 = -3.
            assert match.balances == (5, -3, -3, -3) and match.pool == ANTES
            with pytest.raises(IllegalActionError) as err:
                match.apply(Shuffle(_pack(0, 5)))
            assert err.value.rule == "NAP-10.2.2"
            match = match.apply(Cut(7))
        assert match.phase_name == "hand"
        assert match.pool == (ANTES if shuffled else 2 * ANTES)


def apply_all_match(match: MatchState, actions: list[Action]) -> MatchState:
    for action in actions:
        match = match.apply(action)
    return match


def test_throw_in_pack_option_shuffle() -> None:
    """DEC-093 shuffle: after everyone passes the next dealer shuffles, as in pagat's standard
    game (004 L30), instead of gathering and cutting (NAP-10.2.3): a cut is refused."""
    match = new_match(game({"throw-in-pack": "shuffle"}))
    match = match.apply(ChooseDealer(DEALER)).apply(Shuffle(_pack(0, 5)))
    match = apply_all_match(match, [Pass(), Pass(), Pass(), Pass()])
    with pytest.raises(IllegalActionError) as err:
        match.apply(Cut(7))
    assert err.value.rule == "NAP-10.2.1"
    match = match.apply(Shuffle(_pack(0, 5)))
    assert match.phase_name == "hand" and match.pool == 2 * ANTES


@pytest.mark.parametrize("at_end", ["unclaimed", "split-equally"])
def test_kitty_when_the_match_stops(at_end: str) -> None:
    """DEC-083 (NAP-9.3.2): the page never pays the kitty out but to a Nap. One hand, thrown in
    after seat 2 paid to look: the kitty holds 4 antes + 1 = 5, balances -1, -1, -2, -1. The
    players stop. Unclaimed (default): the 5 stay in the kitty, nobody's. Split equally: 5 // 4
    = 1 to each of the four, and 1 is left unclaimed."""
    match = new_match(game({"kitty-at-end": at_end}))
    match = match.apply(ChooseDealer(DEALER)).apply(Shuffle(_pack(0, 5)))
    match = apply_all_match(match, [Pass(), Pass(), Peek(), Pass(), Pass()])
    assert match.pool == 5 and match.balances == (-1, -1, -2, -1)
    result = stop(match).result
    assert result is not None
    if at_end == "unclaimed":
        assert result.pool == 5 and result.balances == (-1, -1, -2, -1)
    else:
        assert result.pool == 1 and result.balances == (0, 0, -1, 0)
        assert [p for p in stop(match).ledger if p.rule == "NAP-9.3.2"] == [
            (POOL, s, 1, "NAP-9.3.2") for s in range(4)]
    assert result.winners == (0, 1, 3)  # the highest balance wins; a tie shares (NAP-10.4.3)
