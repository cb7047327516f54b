"""Hand-worked hands of pagat's Nap with a floater (004_d686e73063261d6b.txt, ``pagat-floater``).

Every expectation below is worked out by hand from the source and the law book, not read from
the engine. Unless a test says otherwise the table is four players, dealer seat 3, so the deal
and the single round of bids go from seat 0 to the dealer (004 L76; NAP-5.1.1, NAP-5.1.2).
Four players use 24 cards, nine to ace (004 L69, NAP-2.2.1); the cards go three then two
(004 L17, pagat's default ``packets`` 3-2, which the floater game inherits), then one floater
face down (004 L76, NAP-4.3.1); the last three cards are the stock.

The kitty: every player antes 1 before each deal (004 L76, NAP-10.3.1). The ante is the
match's business (napkit.engine.match), so a single hand is given the kitty as it stands once the
antes are in: 4 for the first hand at a table of four, more when earlier hands left units in
it. What the floater table says (004 L84-92, NAP-9.1.1, NAP-9.1.2, NAP-9.2.2):

    bid                 made: from each player   made: kitty   defeated: into the kitty
    Four  (with/out)    2                        no            2 x players
    Nap   (with/out)    5                        yes           5 x players
    Bonaparte           10                       yes           10 x players
    Wellington          20                       yes           20 x players

and a defeated declarer pays nothing directly to the others (004 L94). At four players a lost
Four puts 8 in the kitty, Nap 20, Bonaparte 40, Wellington 80.

The 'ladder' layouts (see tests/handworked/deals.py): the declarer holds k top spades and 5-k
low hearts and names spades (004 L96, NAP-7.1.2). The player on their left holds the high
hearts; the others hold 10-A of diamonds and of clubs, so nobody else has a spade. The
declarer wins the k spade tricks; the low hearts lose to the left-hand player's higher
hearts (NAP-8.2.1). The floater is the 9D, lower than every diamond in play, so it helps
nobody: a 'with' declarer either leaves it or takes it and throws it out again (004 L78,
"possibly the same one").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
from napkit.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, mask_of, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.errors import IllegalActionError

from tests.handworked.deals import (
    POOL,
    apply_all,
    build_pack,
    cards,
    dealt,
    each_pays,
    ladder,
    owed,
    pack_cards,
    payments,
    play_tricks,
    rotate,
)

RULESET = "pagat-floater"
DEALER = 3
PACKETS = (3, 2)  # pagat's default, 004 L17
NINE = "9"  # the lowest rank for four players, 004 L69
FLOATER = "9D"  # in the ladder layouts: a card that helps nobody
THIRD = "10D JD QD KD AD"
FOURTH = "10C JC QC KC AC"
TAKE, LEAVE = TakeWidow(), LeaveWidow()
THROW_FLOATER: tuple[Action, ...] = (TAKE, Discard(parse_card(FLOATER)))


def game(ruleset: str = RULESET, players: int = 4, options: dict[str, str] | None = None
         ) -> Game:
    return Game.create(ruleset, players, options)


@dataclass(frozen=True)
class Layout:
    """Four hands by role (declarer, left, across, right) and the tricks they play, each
    written leader first, with the winner of each trick as a role (0 declarer, 1 left)."""

    roles: tuple[str, str, str, str]
    tricks: tuple[str, ...]
    winners: tuple[int, ...]


def ladder_layout(k: int, *, lowest_trump_first: bool = False) -> Layout:
    """The declarer holds the top k spades and 5-k low hearts (k = 3, 4 or 5).

    For k = 3 the declarer's low hearts are 9H 10H, so the left-hand player holds AH KH QH JH
    and a spare 9C; otherwise the left-hand player holds AH-10H. With ``lowest_trump_first``
    the spades are led lowest first, as Bonaparte's first lead must be (004 L89-90).
    """
    assert k in (3, 4, 5)
    top = ("AS", "KS", "QS", "JS", "10S")[:k]
    low = ("9H", "10H")[:5 - k]
    high: tuple[str, ...] = ("AH", "KH", "QH", "JH", "10H")
    spare: tuple[str, ...] = ()
    if k == 3:
        high, spare = high[:4], ("9C",)
    led = tuple(reversed(top)) if lowest_trump_first else top
    tricks = ladder(led, low, high, spare, THIRD.split(), FOURTH.split())
    return Layout((" ".join(top + low), " ".join(high + spare), THIRD, FOURTH), tuple(tricks),
                  (0,) * k + (1,) * (5 - k))


# Wellington made: the declarer's only non-trump is the AH, which must be led first (004
# L91-92). The left-hand player follows with a heart, the others have neither hearts nor
# spades, so the ace wins; the four spades win the rest.
WELLINGTON_MADE = Layout(
    ("AH AS KS QS JS", "KH QH JH 10H 9H", THIRD, FOURTH),
    ("AH 9H 10D 10C", "AS 10H JD JC", "KS JH QD QC", "QS QH KD KC", "JS KH AD AC"),
    (0, 0, 0, 0, 0))
# Wellington defeated: the declarer must lead the 9H, their lowest non-trump (004 L91-92); the
# AH takes it. The left-hand player leads the KH; the declarer, void in hearts, trumps it with
# the JS (NAP-8.1.2) and wins the last three with spades: four tricks, one short.
WELLINGTON_LOST = Layout(
    ("AS KS QS JS 9H", "AH KH QH JH 10H", THIRD, FOURTH),
    ("9H AH 10D 10C", "KH JD JC JS", "QS 10H QD QC", "KS JH KD KC", "AS QH AD AC"),
    (1, 0, 0, 0, 0))


@dataclass(frozen=True)
class Case:
    """One contract played out. ``auction`` runs from seat 0 to the dealer; ``amount`` is the
    bid's figure in the table of 004 L84-92; ``kitty`` what the kitty holds when the hand is
    dealt; ``net`` (the declarer's gain) and ``after`` (the kitty after the hand) are worked
    out by hand in each case's comment."""

    bid: str
    auction: tuple[Action, ...]
    declarer: int
    layout: Layout
    exchange: tuple[Action, ...]
    made: bool
    amount: int
    wins_kitty: bool
    kitty: int
    net: int
    after: int
    options: tuple[tuple[str, str], ...] = ()


def bids(*calls: str | None) -> tuple[Action, ...]:
    """An auction from seat 0: a bid id, or None for a pass."""
    return tuple(Pass() if c is None else Bid(c) for c in calls)


def play_case(ruleset: str, case: Case) -> HandState:
    hands = rotate(case.layout.roles, case.declarer)
    state = dealt(game(ruleset, options=dict(case.options)), dealer=DEALER, hands=hands,
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=case.kitty)
    state = apply_all(state, case.auction)
    assert state.declarer == case.declarer  # NAP-5.3.1: the highest bidder
    state = apply_all(state, case.exchange)
    state = state.apply(NameTrumps(SPADES))  # 004 L96: the declarer chooses trumps
    assert state.trumps == SPADES
    return play_tricks(state, case.layout.tricks)


def check_case(state: HandState, case: Case, players: int = 4) -> None:
    result = state.result
    assert result is not None and not result.thrown_in
    declarer = case.declarer
    assert result.declarer == declarer
    assert result.contract == case.bid
    assert result.tricks == case.layout.winners.count(0)
    assert result.made is case.made
    assert result.trick_winners == tuple((declarer + r) % players for r in case.layout.winners)
    opponents = [s for s in range(players) if s != declarer]
    if case.made:
        expected = each_pays(opponents, declarer, case.amount, "NAP-9.1.1")
        if case.wins_kitty:
            expected.append((POOL, declarer, case.kitty, "NAP-9.1.2"))
    else:
        expected = [(declarer, POOL, case.amount * players, "NAP-9.2.2")]
    assert payments(state) == owed(*expected)
    assert result.pool == case.after
    assert result.net[declarer] == case.net
    # Opponents pay the figure when the bid is made, and nothing when it fails (004 L94).
    assert all(result.net[s] == (-case.amount if case.made else 0) for s in opponents)


W, WO = "with", "without"
CASES = [
    # Four with the floater, made: four spade tricks (k=4). 2 from each of three -> +6; Four
    # does not win the kitty (004 L85), which stays at 4. The floater is left (L78: "can").
    pytest.param(Case("four-with", bids("four-with", None, None, None), 0, ladder_layout(4),
                      (LEAVE,), True, 2, False, 4, 6, 4), id="four-with-made"),
    # Defeated with three tricks (k=3) after taking and discarding the floater: 2 x 4 players
    # = 8 into the kitty (L85), nothing to the others -> -8; kitty 4 + 8 = 12.
    pytest.param(Case("four-with", bids(None, "four-with", None, None), 1, ladder_layout(3),
                      THROW_FLOATER, False, 2, False, 4, -8, 12), id="four-with-defeated"),
    # Four without over four with (L78: without ranks just above with). Five tricks on a bid of
    # four earn no more (NAP-5.2.3, NAP-9.1.1) and no kitty (L86): +6, kitty stays 4.
    pytest.param(Case("four-without", bids("four-with", None, "four-without", None), 2,
                      ladder_layout(5), (), True, 2, False, 4, 6, 4), id="four-without-made"),
    # The dealer bids last (L76) and fails with three tricks: 8 into the kitty -> 12.
    pytest.param(Case("four-without", bids(None, None, None, "four-without"), 3,
                      ladder_layout(3), (), False, 2, False, 4, -8, 12),
                 id="four-without-defeated"),
    # Nap with the floater, made, with 12 in the kitty (say 8 from an earlier lost Four and
    # this hand's four antes): 5 from each of three plus the kitty (L87) -> 15 + 12 = +27;
    # the kitty is emptied (NAP-9.1.2).
    pytest.param(Case("nap-with", bids(None, None, "nap-with", None), 2, ladder_layout(5),
                      THROW_FLOATER, True, 5, True, 12, 27, 0), id="nap-with-made"),
    # Nap with over Four without (L84-88 order); four tricks: 5 x 4 = 20 into the kitty -> 24.
    pytest.param(Case("nap-with", bids("four-without", "nap-with", None, None), 1,
                      ladder_layout(4), (LEAVE,), False, 5, False, 4, -20, 24),
                 id="nap-with-defeated"),
    # Nap without over Nap with (L78); made: 15 + the kitty of 4 -> +19, kitty 0.
    pytest.param(Case("nap-without", bids(None, "nap-with", "nap-without", None), 2,
                      ladder_layout(5), (), True, 5, True, 4, 19, 0), id="nap-without-made"),
    pytest.param(Case("nap-without", bids("nap-without", None, None, None), 0,
                      ladder_layout(4), (), False, 5, False, 4, -20, 24),
                 id="nap-without-defeated"),
    # Bonaparte: all five, leading the lowest trump first (L89-90): the 10S, then up. 10 from
    # each of three plus the kitty -> 30 + 4 = +34. Bonaparte with ranks above Nap without.
    pytest.param(Case("bonaparte-with", bids("nap-without", "bonaparte-with", None, None), 1,
                      ladder_layout(5, lowest_trump_first=True), (LEAVE,), True, 10, True, 4,
                      34, 0), id="bonaparte-with-made"),
    # Lowest trump JS led first, four spade tricks, the 9H lost: 10 x 4 = 40 -> kitty 44.
    pytest.param(Case("bonaparte-with", bids(None, None, None, "bonaparte-with"), 3,
                      ladder_layout(4, lowest_trump_first=True), THROW_FLOATER, False, 10,
                      False, 4, -40, 44), id="bonaparte-with-defeated"),
    pytest.param(Case("bonaparte-without", bids("bonaparte-without", None, None, None), 0,
                      ladder_layout(5, lowest_trump_first=True), (), True, 10, True, 4, 34, 0),
                 id="bonaparte-without-made"),
    pytest.param(Case("bonaparte-without", bids(None, "bonaparte-with", "bonaparte-without",
                                                None), 2,
                      ladder_layout(4, lowest_trump_first=True), (), False, 10, False, 4, -40,
                      44), id="bonaparte-without-defeated"),
    # Wellington: all five, leading the lowest non-trump (L91-92). 20 from each of three plus
    # the kitty -> 60 + 4 = +64; defeated, 20 x 4 = 80 -> kitty 84.
    pytest.param(Case("wellington-with", bids(None, "wellington-with", None, None), 1,
                      WELLINGTON_MADE, (LEAVE,), True, 20, True, 4, 64, 0),
                 id="wellington-with-made"),
    pytest.param(Case("wellington-with", bids(None, None, "wellington-with", None), 2,
                      WELLINGTON_LOST, THROW_FLOATER, False, 20, False, 4, -80, 84),
                 id="wellington-with-defeated"),
    pytest.param(Case("wellington-without",
                      bids("bonaparte-without", None, None, "wellington-without"), 3,
                      WELLINGTON_MADE, (), True, 20, True, 4, 64, 0),
                 id="wellington-without-made"),
    pytest.param(Case("wellington-without", bids("wellington-without", None, None, None), 0,
                      WELLINGTON_LOST, (), False, 20, False, 4, -80, 84),
                 id="wellington-without-defeated"),
]

# Option floater-prerequisites = after-nap (DEC-090): Bonaparte and Wellington only after
# someone has bid Nap, with or without. The same hands and payments; in every auction a Nap
# comes first (so seat 0, who speaks first, can never bid them).
AFTER_NAP = (("floater-prerequisites", "after-nap"),)
CASES += [
    pytest.param(Case("bonaparte-with", bids("nap-with", "bonaparte-with", None, None), 1,
                      ladder_layout(5, lowest_trump_first=True), (LEAVE,), True, 10, True, 4,
                      34, 0, AFTER_NAP), id="after-nap-bonaparte-with-made"),
    pytest.param(Case("bonaparte-with", bids("nap-without", None, "bonaparte-with", None), 2,
                      ladder_layout(4, lowest_trump_first=True), THROW_FLOATER, False, 10,
                      False, 4, -40, 44, AFTER_NAP), id="after-nap-bonaparte-with-defeated"),
    pytest.param(Case("bonaparte-without", bids(None, "nap-with", None, "bonaparte-without"),
                      3, ladder_layout(5, lowest_trump_first=True), (), True, 10, True, 4, 34,
                      0, AFTER_NAP), id="after-nap-bonaparte-without-made"),
    pytest.param(Case("bonaparte-without", bids(None, "nap-without", "bonaparte-without",
                                                None), 2,
                      ladder_layout(4, lowest_trump_first=True), (), False, 10, False, 4, -40,
                      44, AFTER_NAP), id="after-nap-bonaparte-without-defeated"),
    pytest.param(Case("wellington-with", bids("nap-with", "wellington-with", None, None), 1,
                      WELLINGTON_MADE, (LEAVE,), True, 20, True, 4, 64, 0, AFTER_NAP),
                 id="after-nap-wellington-with-made"),
    pytest.param(Case("wellington-with", bids(None, "nap-with", None, "wellington-with"), 3,
                      WELLINGTON_LOST, THROW_FLOATER, False, 20, False, 4, -80, 84, AFTER_NAP),
                 id="after-nap-wellington-with-defeated"),
    pytest.param(Case("wellington-without", bids("nap-without", None, "wellington-without",
                                                 None), 2,
                      WELLINGTON_MADE, (), True, 20, True, 4, 64, 0, AFTER_NAP),
                 id="after-nap-wellington-without-made"),
    pytest.param(Case("wellington-without", bids(None, "nap-with", "wellington-without",
                                                 None), 2,
                      WELLINGTON_LOST, (), False, 20, False, 4, -80, 84, AFTER_NAP),
                 id="after-nap-wellington-without-defeated"),
]


@pytest.mark.parametrize("case", CASES)
def test_contract(case: Case) -> None:
    check_case(play_case(RULESET, case), case)


# --- the source's own example and other tables -------------------------------------------

def test_nap_at_five_players_as_the_source_counts_it() -> None:
    """004 L94: five players, a Nap won collects the kitty and 20 (5 from each of four); lost,
    25 goes into the kitty and nothing to the others.

    28 cards, eight to ace (L70). Seat 0 (dealer seat 4) holds AS KS QS JS and 8H; the seat on
    their left holds AH-10H. Seat 0 names spades and wins four spade tricks (nobody else has a
    spade); then the 8H loses to the AH: Nap without the floater fails, 5 x 5 = 25 into a kitty
    of 5 (the antes) -> 30. With the 10S instead of the 8H (the other hands the same) all five
    tricks are won: +20 and the kitty of 5 -> +25, kitty 0.
    """
    other = ("AH KH QH JH 10H", "AD KD QD JD 10D", "AC KC QC JC 10C")
    for last_card, made in (("8H", False), ("10S", True)):
        # The last seat keeps its 9H for the fifth trick, where it must follow hearts.
        fifth = "9H 9D 9C 8D 8C"
        hands = {0: "AS KS QS JS " + last_card, 1: other[0], 2: other[1], 3: other[2],
                 4: fifth}
        state = dealt(game(players=5), dealer=4, hands=hands, packets=PACKETS, widow="9S",
                      lowest="8", pool=5)
        state = apply_all(state, bids("nap-without", None, None, None, None))
        state = state.apply(NameTrumps(SPADES))
        tricks = ["AS 10H 10D 10C 9D", "KS JH JD JC 9C", "QS QH QD QC 8D", "JS KH KD KC 8C"]
        tricks.append("10S AH AD AC 9H" if made else "8H AH AD AC 9H")
        state = play_tricks(state, tricks)
        result = state.result
        assert result is not None and result.made is made
        if made:
            assert result.trick_winners == (0, 0, 0, 0, 0)
            assert payments(state) == owed(*each_pays([1, 2, 3, 4], 0, 5, "NAP-9.1.1"),
                                           (POOL, 0, 5, "NAP-9.1.2"))
            assert result.net[0] == 25 and result.pool == 0
        else:
            assert result.trick_winners == (0, 0, 0, 0, 1)
            assert payments(state) == owed((0, POOL, 25, "NAP-9.2.2"))
            assert result.net == (-25, 0, 0, 0, 0) and result.pool == 30


def test_four_lost_at_three_players_pays_six() -> None:
    """004 L85: a lost Four pays 2 x the number of players: 6 at a table of three.

    20 cards, ten to ace (L68); dealer seat 2, seat 0 speaks first. Seat 0 holds AS KS QS 10H
    JH, seat 1 AH KH QH AD KD, seat 2 the clubs. Spades named: three spade tricks; then the AH
    beats the 10H and seat 1's KH beats the JH: three tricks, Four without fails. Kitty 3 (the
    antes) + 6 = 9.
    """
    hands = {0: "AS KS QS 10H JH", 1: "AH KH QH AD KD", 2: "AC KC QC JC 10C"}
    state = dealt(game(players=3), dealer=2, hands=hands, packets=PACKETS, widow="10D",
                  lowest="10", pool=3)
    state = apply_all(state, bids("four-without", None, None))
    state = state.apply(NameTrumps(SPADES))
    state = play_tricks(state, ["AS KD 10C", "KS AD JC", "QS QH QC", "10H AH KC", "KH AC JH"])
    result = state.result
    assert result is not None
    assert result.trick_winners == (0, 0, 0, 1, 1) and result.made is False
    assert payments(state) == owed((0, POOL, 6, "NAP-9.2.2"))
    assert result.pool == 9 and result.net == (-6, 0, 0)


# --- looks at the floater ------------------------------------------------------------------

def test_looks_are_paid_into_the_kitty_and_won_with_it() -> None:
    """004 L76: immediately before bidding a player may pay 1 more to the kitty to see the
    floater (NAP-6.1.1); L80: looking commits to nothing. The dealer has no free look here and
    pays like anyone (peek.dealer 'pays', NAP-6.1.2).

    Seats 0, 1 and 3 (the dealer) look; seat 1 then bids Nap without and makes it (k=5). The
    kitty: 4 antes + 3 looks = 7, won by seat 1 with 5 from each (L87). Seat 1: -1 + 15 + 7 =
    +21; seat 0: -1 - 5 = -6; seat 2: -5; seat 3: -6.
    """
    layout = ladder_layout(5)
    state = dealt(game(), dealer=DEALER, hands=rotate(layout.roles, 1), packets=PACKETS,
                  widow=FLOATER, lowest=NINE, pool=4)
    assert state.seen == 0  # nobody has seen the floater, the dealer included
    state = apply_all(state, [Peek(), Pass(), Peek(), Bid("nap-without"), Pass(), Peek(),
                              Pass()])
    assert state.pool == 7
    state = play_tricks(state.apply(NameTrumps(SPADES)), layout.tricks)
    result = state.result
    assert result is not None and result.made is True
    looks = [(s, POOL, 1, "NAP-6.1.1") for s in (0, 1, 3)]
    assert payments(state) == owed(*looks, *each_pays([0, 2, 3], 1, 5, "NAP-9.1.1"),
                                   (POOL, 1, 7, "NAP-9.1.2"))
    assert result.net == (-6, 21, -5, -6)
    assert result.pool == 0


def test_a_look_stays_in_the_kitty_when_the_bid_fails() -> None:
    """Seat 0 looks (1 to the kitty) and then bids Four without the floater anyway (004 L80),
    winning three tricks (k=3): 8 more into the kitty (L86). Kitty 4 + 1 + 8 = 13; seat 0 -9."""
    layout = ladder_layout(3)
    state = dealt(game(), dealer=DEALER, hands=rotate(layout.roles, 0), packets=PACKETS,
                  widow=FLOATER, lowest=NINE, pool=4)
    state = apply_all(state, [Peek(), Bid("four-without"), Pass(), Pass(), Pass()])
    state = play_tricks(state.apply(NameTrumps(SPADES)), layout.tricks)
    result = state.result
    assert result is not None and result.made is False
    assert payments(state) == owed((0, POOL, 1, "NAP-6.1.1"), (0, POOL, 8, "NAP-9.2.2"))
    assert result.pool == 13 and result.net == (-9, 0, 0, 0)


def test_one_look_each_at_ones_own_turn() -> None:
    """NAP-6.1.1: a look is bought at one's turn, before passing or bidding, at most once; the
    dealer is offered one at their turn like anyone else (NAP-6.1.2, no free look here)."""
    state = dealt(game(), dealer=DEALER, hands=rotate(ladder_layout(5).roles, 0),
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    first = state.legal_actions()
    assert Peek() in first and Pass() in first
    state = state.apply(Peek())
    assert state.turn == 0  # still seat 0's turn to pass or bid
    assert Peek() not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Peek())
    assert err.value.rule == "NAP-6.1.1"
    state = apply_all(state, [Pass(), Pass(), Pass()])
    assert state.turn == DEALER and Peek() in state.legal_actions()


# --- the auction ---------------------------------------------------------------------------

def test_bids_and_their_order() -> None:
    """004 L82: the lowest bid is Four with the floater; L84-92 the order; L78 each bid without
    ranks immediately above the same bid with (NAP-5.2.4); NAP-5.2.1 each bid must beat the
    highest so far. There is no Three (NAP-5.2.2)."""
    state = dealt(game(), dealer=DEALER, hands=rotate(ladder_layout(5).roles, 0),
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    order = ["four-with", "four-without", "nap-with", "nap-without", "bonaparte-with",
             "bonaparte-without", "wellington-with", "wellington-without"]
    assert state.legal_actions() == (Peek(), Pass(), *(Bid(b) for b in order))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("three"))
    assert err.value.rule == "NAP-5.2.2"
    state = state.apply(Bid("four-without"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("four-with"))
    assert err.value.rule == "NAP-5.2.1"
    # Seat 1 may still go one step up: Nap with the floater.
    assert Bid("nap-with") in state.legal_actions()
    state = apply_all(state, [Bid("nap-with"), Bid("nap-without")])
    # Seat 3 (the dealer) bids Wellington without, the highest; the auction is over after
    # the dealer: one round only (L76).
    state = state.apply(Bid("wellington-without"))
    assert state.declarer == DEALER and state.contract_bid is not None
    assert state.contract_bid.id == "wellington-without"


@pytest.mark.parametrize("bid", ["bonaparte-with", "bonaparte-without", "wellington-with",
                                 "wellington-without"])
def test_after_nap_bonaparte_and_wellington_need_a_nap(bid: str) -> None:
    """DEC-090, option floater-prerequisites: by default ('none') these may be bid at once;
    with 'after-nap' only once someone has bid Nap with or without (NAP-5.2.5). A Four is not
    enough."""
    hands = rotate(ladder_layout(5).roles, 0)
    free = dealt(game(), dealer=DEALER, hands=hands, packets=PACKETS, widow=FLOATER,
                 lowest=NINE, pool=4)
    assert Bid(bid) in free.legal_actions()
    state = dealt(game(options={"floater-prerequisites": "after-nap"}), dealer=DEALER, hands=hands,
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    assert Bid(bid) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid(bid))
    assert err.value.rule == "NAP-5.2.5"
    state = state.apply(Bid("four-without"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid(bid))
    assert err.value.rule == "NAP-5.2.5"
    for nap in ("nap-with", "nap-without"):
        after = state.apply(Bid(nap))
        assert Bid(bid) in after.legal_actions()
        assert after.apply(Bid(bid)).auction.high_seat == 2


def test_everyone_passes() -> None:
    """004 L98: nobody bids Four: no contract; the hand is thrown in (NAP-5.3.2). A look
    bought before passing stays in the kitty; nothing else changes hands."""
    state = dealt(game(), dealer=DEALER, hands=rotate(ladder_layout(5).roles, 0),
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    state = apply_all(state, [Pass(), Peek(), Pass(), Pass(), Pass()])
    result = state.result
    assert state.is_over() and result is not None and result.thrown_in
    assert result.contract is None and result.declarer == -1
    assert payments(state) == owed((1, POOL, 1, "NAP-6.1.1"))
    assert result.pool == 5 and result.net == (0, -1, 0, 0)


# --- the exchange and naming trumps --------------------------------------------------------

def exchange_hand(bid: str, floater: str = FLOATER) -> HandState:
    """Seat 0 holds AS KS QS JS 9H and wins the auction with ``bid``."""
    layout = WELLINGTON_LOST
    hands = rotate(layout.roles, 0)
    state = dealt(game(), dealer=DEALER, hands=hands, packets=PACKETS, widow=floater,
                  lowest=NINE, pool=4)
    return apply_all(state, bids(bid, None, None, None))


def test_with_bid_may_take_the_floater_and_discard_any_card() -> None:
    """004 L78 (NAP-6.3.1 'may'): after a bid with the floater the declarer may pick it up and
    discard one card, possibly the floater itself; the exchange comes before trumps are named
    (DEC-092, NAP-6.3.2). Any suit may then be named, even a void one (NAP-7.1.2, naming
    void_suit allowed: the source sets no limit, L96, and L100 makes a player name a suit they
    do not hold)."""
    state = exchange_hand("nap-with")
    assert set(state.legal_actions()) == {TAKE, LEAVE}
    with pytest.raises(IllegalActionError) as err:
        state.apply(NameTrumps(SPADES))  # naming comes after the exchange: the rule of that
    assert err.value.rule == "NAP-6.3.2"  # order (DEC-092), not the exchange's own
    taken = state.apply(TAKE)
    six = "AS KS QS JS 9H " + FLOATER
    assert taken.hands[0] == mask_of(cards(six))
    assert set(taken.legal_actions()) == {Discard(c) for c in cards(six)}
    with pytest.raises(IllegalActionError) as err:
        taken.apply(Discard(parse_card("AH")))  # not the declarer's card: only one's own
    assert err.value.rule == "NAP-1.3.2"  # cards may be discarded
    done = taken.apply(Discard(parse_card("9H")))
    assert done.hands[0] == mask_of(cards("AS KS QS JS " + FLOATER))
    assert set(done.legal_actions()) == {NameTrumps(s) for s in range(4)}
    # Leaving the floater goes straight to naming, and the hand is unchanged.
    left = state.apply(LEAVE)
    assert left.hands[0] == mask_of(cards("AS KS QS JS 9H"))
    assert set(left.legal_actions()) == {NameTrumps(s) for s in range(4)}


def test_without_bid_has_no_exchange() -> None:
    """004 L78, L80: only a bid with the floater lets the declarer take it (NAP-5.2.4): after
    Nap without, the declarer goes straight to naming trumps."""
    state = exchange_hand("nap-without")
    assert set(state.legal_actions()) == {NameTrumps(s) for s in range(4)}
    with pytest.raises(IllegalActionError):
        state.apply(TAKE)
    assert state.widow == parse_card(FLOATER)


def test_the_floater_makes_the_nap() -> None:
    """Nap with the floater, the floater being the 10S: seat 0 takes it and discards the 9H
    (004 L78), so holds the five top spades; spades named, all five tricks (the ladder, k=5).
    Without the exchange this hand is the k=4 ladder and would fail. 5 each and the kitty of 4
    -> +19."""
    state = exchange_hand("nap-with", floater="10S")
    state = apply_all(state, [TAKE, Discard(parse_card("9H")), NameTrumps(SPADES)])
    assert state.discards == (parse_card("9H"),)
    state = play_tricks(state, ladder_layout(5).tricks)
    result = state.result
    assert result is not None and result.trick_winners == (0, 0, 0, 0, 0)
    assert payments(state) == owed(*each_pays([1, 2, 3], 0, 5, "NAP-9.1.1"),
                                   (POOL, 0, 4, "NAP-9.1.2"))
    assert result.net[0] == 19 and result.pool == 0


def test_wellington_leads_the_floater_it_took() -> None:
    """Wellington with the floater: seat 0 holds AS KS QS JS 9H, the floater is the AD. After
    taking it and discarding the 9H the only non-trump is the AD, which must be led (004
    L91-92); the others follow diamonds or throw hearts and clubs, and the AD wins; the spades
    win the rest. Made: 20 from each and the kitty of 4 -> +64 (L91)."""
    hands = rotate(("AS KS QS JS 9H", "AH KH QH JH 10H", "9D 10D JD QD KD", FOURTH), 0)
    state = dealt(game(), dealer=DEALER, hands=hands, packets=PACKETS, widow="AD",
                  lowest=NINE, pool=4)
    state = apply_all(state, bids("wellington-with", None, None, None))
    state = apply_all(state, [TAKE, Discard(parse_card("9H")), NameTrumps(SPADES)])
    assert state.legal_actions() == (Play(parse_card("AD")),)
    state = play_tricks(state, ["AD 10H 9D 10C", "AS JH 10D JC", "KS QH JD QC", "QS KH QD KC",
                                "JS AH KD AC"])
    result = state.result
    assert result is not None and result.trick_winners == (0, 0, 0, 0, 0)
    assert payments(state) == owed(*each_pays([1, 2, 3], 0, 20, "NAP-9.1.1"),
                                   (POOL, 0, 4, "NAP-9.1.2"))
    assert result.net[0] == 64 and result.pool == 0


# --- the opening lead ------------------------------------------------------------------------

def opening(bid: str, declarer_cards: str, left: str, named: int, floater: str = "9C",
            ruleset: str = RULESET) -> HandState:
    """Seat 0 holds ``declarer_cards`` and declares ``bid`` (without an exchange), naming
    ``named``; seats 2 and 3 hold 10-A of diamonds and of clubs."""
    hands = rotate((declarer_cards, left, THIRD, FOURTH), 0)
    state = dealt(game(ruleset), dealer=DEALER, hands=hands, packets=PACKETS, widow=floater,
                  lowest=NINE, pool=4)
    state = apply_all(state, bids(bid, None, None, None))
    if bid.endswith("-with"):
        state = state.apply(LEAVE)
    return state.apply(NameTrumps(named))


def plays(text: str) -> set[Play]:
    return {Play(c) for c in cards(text)}


# (bid, declarer's cards, left's cards, trumps named, the legal first leads)
LEADS = [
    # Four and Nap bind no lead (L85-88): any of the five.
    ("four-with", "AS KS QS JS 9H", "AH KH QH JH 10H", SPADES, "AS KS QS JS 9H"),
    ("nap-without", "AS KS QS JS 9H", "AH KH QH JH 10H", SPADES, "AS KS QS JS 9H"),
    # Bonaparte leads the lowest trump (L89-90): the JS of AS KS QS JS.
    ("bonaparte-without", "AS KS QS JS 9H", "AH KH QH JH 10H", SPADES, "JS"),
    # Hearts named: the declarer's only trump, the 9H, is the lowest.
    ("bonaparte-with", "AS KS QS JS 9H", "AH KH QH JH 10H", HEARTS, "9H"),
    # Clubs named, a suit the declarer does not hold (allowed, NAP-7.1.2): no trump to lead, so
    # the obligation lapses and any card may be led (DEC-091, NAP-7.2.4).
    ("bonaparte-without", "AS KS QS JS 9H", "AH KH QH JH 10H", CLUBS, "AS KS QS JS 9H"),
    # Wellington leads the lowest non-trump (L91-92): with spades trumps, the 9H.
    ("wellington-without", "AS KS QS JS 9H", "AH KH QH JH 10H", SPADES, "9H"),
    # The 9D and 10H outside trumps: the 9D is lower.
    ("wellington-with", "AS KS QS 9D 10H", "AH KH QH JH 9H", SPADES, "9D"),
    # The 9H and 9D tie for lowest non-trump: the declarer chooses (NAP-7.2.3, DEC-091).
    ("wellington-without", "AS KS QS 9H 9D", "AH KH QH JH 10H", SPADES, "9H 9D"),
    # Five spades with hearts named, the only naming 004 L100 leaves them (NAP-7.1.4): every
    # card is a non-trump; the lowest is the 10S.
    ("wellington-without", "AS KS QS JS 10S", "AH KH QH JH 10H", HEARTS, "10S"),
]


def test_wellington_of_one_suit_must_name_another() -> None:
    """004 L100: a Wellington declarer whose five cards are all spades has one legal choice of
    trumps, a suit other than spades (NAP-7.1.4, naming.non_trump_duty = binds). Naming spades
    is refused under NAP-7.1.4; hearts, diamonds and clubs (void suits, allowed by NAP-7.1.2)
    are the legal namings. A Bonaparte declarer with the same cards is under no such duty and
    may name spades."""
    hands = rotate(("AS KS QS JS 10S", "AH KH QH JH 10H", THIRD, FOURTH), 0)
    state = dealt(game(), dealer=DEALER, hands=hands, packets=PACKETS, widow="9C", lowest=NINE,
                  pool=4)
    naming = apply_all(state, bids("wellington-without", None, None, None))
    assert naming.phase_name == "naming"
    assert set(naming.legal_actions()) == {NameTrumps(s) for s in (HEARTS, DIAMONDS, CLUBS)}
    with pytest.raises(IllegalActionError) as err:
        naming.apply(NameTrumps(SPADES))
    assert err.value.rule == "NAP-7.1.4"
    bonaparte = apply_all(state, bids("bonaparte-without", None, None, None))
    assert NameTrumps(SPADES) in bonaparte.legal_actions()


@pytest.mark.parametrize(("bid", "mine", "left", "named", "allowed"), LEADS)
def test_first_lead(bid: str, mine: str, left: str, named: int, allowed: str) -> None:
    state = opening(bid, mine, left, named)
    assert state.turn == 0  # the declarer leads (004 L96, NAP-7.2.1)
    assert set(state.legal_actions()) == plays(allowed)
    for card in cards(mine):
        if Play(card) not in plays(allowed):
            with pytest.raises(IllegalActionError) as err:
                state.apply(Play(card))
            assert err.value.rule == "NAP-7.2.2"


def test_wellington_in_one_suit_is_lost_as_the_source_warns() -> None:
    """004 L100: a Wellington declarer holding five spades who names hearts must lead a spade,
    and 'will certainly lose' when it is trumped. Seat 0 leads the 10S (the lowest non-trump);
    the left-hand player, void in spades, trumps with the 10H and then draws: every trick goes
    to seat 1 (the declarer's spades never win a heart lead). Lost: 20 x 4 = 80 into the
    kitty of 4 -> 84."""
    state = opening("wellington-without", "AS KS QS JS 10S", "AH KH QH JH 10H", HEARTS)
    state = play_tricks(state, ["10S 10H 10D 10C", "AH JD JC JS", "KH QD QC QS", "QH KD KC KS",
                                "JH AD AC AS"])
    result = state.result
    assert result is not None
    assert result.trick_winners == (1, 1, 1, 1, 1) and result.tricks == 0
    assert payments(state) == owed((0, POOL, 80, "NAP-9.2.2"))
    assert result.pool == 84


def test_later_leads_are_free() -> None:
    """The obligation binds the first trick only (L89-92 'to the first trick'): in the
    Bonaparte ladder the declarer, having led the lowest trump JS and won, may lead any card."""
    state = opening("bonaparte-without", "AS KS QS JS 9H", "AH KH QH JH 10H", SPADES)
    state = play_tricks(state, ["JS 10H 10D 10C"])
    assert state.turn == 0
    assert set(state.legal_actions()) == plays("AS KS QS 9H")


def test_deal_two_then_three() -> None:
    """Option packets 2-3 (004 L17): two cards each, then three, then the floater (L76)."""
    layout = ladder_layout(4)
    hands = rotate(layout.roles, 1)
    state = dealt(game(options={"packets": "2-3"}), dealer=DEALER, hands=hands, packets=(2, 3),
                  widow=FLOATER, lowest=NINE)
    assert len(state.stock) == 24 - 21


# --- the kitty over a match --------------------------------------------------------------------

def start_match(g: Game, hands: dict[int, str], floater: str = FLOATER,
                limit: int | None = None) -> MatchState:
    """A match whose first dealer is seat 3 and whose first pack deals ``hands``."""
    match = new_match(g, hands=limit).apply(ChooseDealer(DEALER))
    pack = build_pack(players=g.players, dealer=DEALER, hands=hands, packets=PACKETS,
                      widow=floater, lowest=NINE)
    return match.apply(Shuffle(pack))


def play_match_hand(match: MatchState, actions: Sequence[Action],
                    tricks: Sequence[str]) -> MatchState:
    for action in actions:
        match = match.apply(action)
    for trick in tricks:
        for card in cards(trick):
            match = match.apply(Play(card))
    return match


@pytest.mark.parametrize(("choice", "wanted"), [("gather-and-cut", Cut), ("shuffle", Shuffle)])
def test_antes_and_the_redeal_after_everyone_passes(choice: str, wanted: type) -> None:
    """004 L76: each player pays 1 into the kitty before each deal (NAP-10.3.1). L98: if all
    pass, the player on the dealer's left deals again, each player paying 1 more. Option
    throw-in-pack (DEC-093): the pack is gathered and cut (default, as L74's 'only' implies) or
    shuffled. So the kitty holds 4, then 8 after the redeal's antes; the balances -1, then -2."""
    g = game(options={"throw-in-pack": choice})
    match = start_match(g, rotate(ladder_layout(5).roles, 0))
    assert match.pool == 4 and match.hand is not None and match.hand.pool == 4
    assert [(p.payer, p.payee, p.amount, p.rule) for p in match.ledger] == [
        (s, POOL, 1, "NAP-10.3.1") for s in (0, 1, 2, 3)]
    match = play_match_hand(match, bids(None, None, None, None), [])
    assert match.hands[-1].result is not None and match.hands[-1].result.thrown_in
    assert match.dealer == 0 and match.pool == 4
    other: Action = Shuffle(pack_cards(NINE)) if wanted is Cut else Cut(5)
    with pytest.raises(IllegalActionError) as err:
        match.apply(other)
    assert err.value.rule == ("NAP-10.2.2" if wanted is Cut else "NAP-10.2.1")
    ready: Action = Cut(5) if wanted is Cut else Shuffle(pack_cards(NINE))
    match = match.apply(ready)
    assert match.hand is not None and match.hand.dealer == 0
    assert match.pool == 8 and match.hand.pool == 8
    assert match.balances == (-2, -2, -2, -2)


@pytest.mark.parametrize(("bid", "k", "shuffled"), [
    # 004 L74: shuffled only after a bid of Nap or above has been won ...
    ("nap-without", 5, True),
    # ... not after a Nap lost ...
    ("nap-without", 4, False),
    # ... nor after a Four won: gathered and cut.
    ("four-without", 5, False),
])
def test_pack_shuffled_only_after_a_won_nap_or_above(bid: str, k: int, shuffled: bool) -> None:
    layout = ladder_layout(k)
    match = start_match(game(), rotate(layout.roles, 0))
    match = play_match_hand(match, [*bids(bid, None, None, None), NameTrumps(SPADES)],
                            layout.tricks)
    assert match.shuffle_next is shuffled
    wrong: Action = Cut(5) if shuffled else Shuffle(pack_cards(NINE))
    with pytest.raises(IllegalActionError):
        match.apply(wrong)


def test_a_won_nap_takes_the_antes_in_a_match() -> None:
    """Seat 0 bids Nap without and makes it in the first hand: the kitty of 4 antes and 5 from
    each (004 L87). Balances: seat 0 -1 + 4 + 15 = 18; the others -1 - 5 = -6; kitty 0."""
    layout = ladder_layout(5)
    match = start_match(game(), rotate(layout.roles, 0))
    match = play_match_hand(match, [*bids("nap-without", None, None, None),
                                    NameTrumps(SPADES)], layout.tricks)
    assert match.pool == 0 and match.balances == (18, -6, -6, -6)


@pytest.mark.parametrize(("choice", "left", "balances"), [
    # DEC-083 'unclaimed' (default): the 13 in the kitty belong to nobody.
    ("unclaimed", 13, (-10, -1, -1, -1)),
    # 'split-equally': 13 // 4 = 3 to each, 1 left unclaimed.
    ("split-equally", 1, (-7, 2, 2, 2)),
])
def test_kitty_when_the_match_ends(choice: str, left: int, balances: tuple[int, ...]) -> None:
    """Option kitty-at-end (DEC-083, NAP-9.3.2). A one-hand match: four antes (4), seat 0 looks
    (1) and loses Four with the floater with three tricks (2 x 4 = 8, 004 L85): kitty 13.
    Seat 0 has paid 1 + 1 + 8 = 10, the others their ante."""
    layout = ladder_layout(3)
    match = start_match(game(options={"kitty-at-end": choice}), rotate(layout.roles, 0), limit=1)
    match = play_match_hand(match, [Peek(), *bids("four-with", None, None, None), LEAVE,
                                    NameTrumps(SPADES)], layout.tricks)
    assert match.is_over() and match.result is not None
    assert match.result.pool == left
    assert match.result.balances == balances
    assert match.result.winners == (1, 2, 3)
