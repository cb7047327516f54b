"""Hand-worked hands of Ken Short's Aylesbury version of Nap with a floater (004 L102,
ruleset ``pagat-aylesbury``).

004 L102 gives only how the version's bids differ: there is no Wellington, and Bonaparte is
called Napoleon (distinct from Nap). Everything else is the floater game of 004 L62-100
(DEC-100, 'as-floater-game'): four players use 24 cards, nine to ace (L69), dealt three then
two (L17) and a floater (L76); each player antes 1 to the kitty before each deal (L76); a look
at the floater costs 1 more (L76); the declarer names trumps (L96) and may exchange with the
floater after a 'with' bid (L78). The bids, lowest first, and what they pay (L84-90):

    bid                 made: from each player   made: kitty   defeated: into the kitty
    Four  (with/out)    2                        no            2 x players
    Nap   (with/out)    5                        yes           5 x players
    Napoleon (with/out) 10                       yes           10 x players

Napoleon keeps Bonaparte's handicap: the first lead is the declarer's lowest trump (L89-90).
At four players a lost Four puts 8 in the kitty, Nap 20, Napoleon 40.

The table is four players, dealer seat 3, the hands the ladder layouts of
tests/handworked/test_pagat_floater.py (k top spades and 5-k low hearts for the declarer,
spades named, the 9D floater that helps nobody); as there, a hand is given the kitty as it
stands after the antes, and every expectation is worked out by hand, not read from the engine.
"""

from __future__ import annotations

import pytest
from napkit.engine.actions import Action, Bid, Cut, Discard, NameTrumps, Pass, Peek, Play, Shuffle
from napkit.engine.cards import CLUBS, HEARTS, SPADES, parse_card
from napkit.errors import IllegalActionError

from tests.handworked.deals import (
    POOL,
    apply_all,
    cards,
    dealt,
    each_pays,
    owed,
    pack_cards,
    payments,
    play_tricks,
    rotate,
)
from tests.handworked.test_pagat_floater import (
    DEALER,
    FLOATER,
    LEAVE,
    NINE,
    PACKETS,
    TAKE,
    THROW_FLOATER,
    Case,
    Layout,
    bids,
    check_case,
    game,
    ladder_layout,
    opening,
    play_case,
    play_match_hand,
    plays,
    start_match,
)

RULESET = "pagat-aylesbury"
AFTER_NAP = (("floater-prerequisites", "after-nap"),)


def lowest_first(k: int) -> Layout:
    """The ladder with the spades led lowest first, as Napoleon's first lead must be."""
    return ladder_layout(k, lowest_trump_first=True)


CASES = [
    # Four with the floater, made with four tricks after taking and discarding the floater:
    # 2 from each of three -> +6; a Four does not win the kitty (L85), which stays 4.
    pytest.param(Case("four-with", bids(None, "four-with", None, None), 1, ladder_layout(4),
                      THROW_FLOATER, True, 2, False, 4, 6, 4), id="four-with-made"),
    # Three tricks: 2 x 4 = 8 into the kitty (L85), nothing to the others -> kitty 12.
    pytest.param(Case("four-with", bids("four-with", None, None, None), 0, ladder_layout(3),
                      (LEAVE,), False, 2, False, 4, -8, 12), id="four-with-defeated"),
    # The dealer, last to speak (L76), bids Four without over Four with (L78); made, +6.
    pytest.param(Case("four-without", bids("four-with", None, None, "four-without"), 3,
                      ladder_layout(4), (), True, 2, False, 4, 6, 4), id="four-without-made"),
    pytest.param(Case("four-without", bids(None, None, "four-without", None), 2,
                      ladder_layout(3), (), False, 2, False, 4, -8, 12),
                 id="four-without-defeated"),
    # Nap with the floater, made, the kitty holding 9 (this hand's 4 antes and 5 carried): 5
    # from each of three and the kitty (L87) -> 15 + 9 = +24, kitty 0.
    pytest.param(Case("nap-with", bids("nap-with", None, None, None), 0, ladder_layout(5),
                      (LEAVE,), True, 5, True, 9, 24, 0), id="nap-with-made"),
    # Four tricks: 5 x 4 = 20 into the kitty -> 24.
    pytest.param(Case("nap-with", bids(None, "four-without", None, "nap-with"), 3,
                      ladder_layout(4), THROW_FLOATER, False, 5, False, 4, -20, 24),
                 id="nap-with-defeated"),
    # Nap without over Nap with (L78); made: 15 + 4 = +19.
    pytest.param(Case("nap-without", bids("nap-with", "nap-without", None, None), 1,
                      ladder_layout(5), (), True, 5, True, 4, 19, 0), id="nap-without-made"),
    pytest.param(Case("nap-without", bids(None, None, "nap-without", None), 2,
                      ladder_layout(4), (), False, 5, False, 4, -20, 24),
                 id="nap-without-defeated"),
    # Napoleon (Bonaparte's row, L89-90, renamed by L102), above both Naps: lowest trump led
    # first (10S, then up); made, 10 from each and the kitty -> 30 + 4 = +34.
    pytest.param(Case("napoleon-with", bids("nap-without", None, "napoleon-with", None), 2,
                      lowest_first(5), (LEAVE,), True, 10, True, 4, 34, 0),
                 id="napoleon-with-made"),
    # JS led first, four spade tricks, the 9H lost: 10 x 4 = 40 -> kitty 44.
    pytest.param(Case("napoleon-with", bids("napoleon-with", None, None, None), 0,
                      lowest_first(4), THROW_FLOATER, False, 10, False, 4,
                      -40, 44), id="napoleon-with-defeated"),
    pytest.param(Case("napoleon-without",
                      bids(None, "napoleon-with", None, "napoleon-without"), 3,
                      lowest_first(5), (), True, 10, True, 4, 34, 0),
                 id="napoleon-without-made"),
    pytest.param(Case("napoleon-without", bids(None, "napoleon-without", None, None), 1,
                      lowest_first(4), (), False, 10, False, 4, -40, 44),
                 id="napoleon-without-defeated"),
    # Option floater-prerequisites = after-nap (DEC-090, which the version inherits with the
    # rest of the floater game, DEC-100): Napoleon only after a Nap with or without. Same
    # hands and payments.
    pytest.param(Case("napoleon-with", bids("nap-with", "napoleon-with", None, None), 1,
                      lowest_first(5), (LEAVE,), True, 10, True, 4, 34, 0,
                      AFTER_NAP), id="after-nap-napoleon-with-made"),
    pytest.param(Case("napoleon-with", bids(None, "nap-without", None, "napoleon-with"), 3,
                      lowest_first(4), THROW_FLOATER, False, 10, False, 4,
                      -40, 44, AFTER_NAP), id="after-nap-napoleon-with-defeated"),
    pytest.param(Case("napoleon-without", bids(None, "nap-with", "napoleon-without", None), 2,
                      lowest_first(5), (), True, 10, True, 4, 34, 0,
                      AFTER_NAP), id="after-nap-napoleon-without-made"),
    pytest.param(Case("napoleon-without",
                      bids("nap-without", None, None, "napoleon-without"), 3,
                      lowest_first(4), (), False, 10, False, 4, -40, 44,
                      AFTER_NAP), id="after-nap-napoleon-without-defeated"),
]


@pytest.mark.parametrize("case", CASES)
def test_contract(case: Case) -> None:
    check_case(play_case(RULESET, case), case)


def test_bids_and_their_order() -> None:
    """004 L102: no Wellington, and Bonaparte is Napoleon; the rest of the order is L84-90
    (each 'without' just above its 'with', L78). So six bids, Napoleon without the highest:
    once it is bid nobody may bid again (NAP-5.2.1)."""
    state = dealt(game(RULESET), dealer=DEALER, hands=rotate(ladder_layout(5).roles, 0),
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    order = ["four-with", "four-without", "nap-with", "nap-without", "napoleon-with",
             "napoleon-without"]
    assert state.legal_actions() == (Peek(), Pass(), *(Bid(b) for b in order))
    for absent in ("wellington-with", "wellington-without", "bonaparte-with", "three"):
        with pytest.raises(IllegalActionError) as err:
            state.apply(Bid(absent))
        assert err.value.rule == "NAP-5.2.2"
    state = state.apply(Bid("napoleon-without"))
    assert state.legal_actions() == (Peek(), Pass())
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("napoleon-with"))
    assert err.value.rule == "NAP-5.2.1"


@pytest.mark.parametrize("bid", ["napoleon-with", "napoleon-without"])
def test_after_nap_napoleon_needs_a_nap(bid: str) -> None:
    """DEC-090: by default Napoleon may be bid at once; with after-nap only once someone has
    bid Nap, with or without (NAP-5.2.5). A Four is not enough."""
    hands = rotate(ladder_layout(5).roles, 0)
    free = dealt(game(RULESET), dealer=DEALER, hands=hands, packets=PACKETS, widow=FLOATER,
                 lowest=NINE, pool=4)
    assert Bid(bid) in free.legal_actions()
    state = dealt(game(RULESET, options=dict(AFTER_NAP)), dealer=DEALER, hands=hands,
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid(bid))
    assert err.value.rule == "NAP-5.2.5"
    state = state.apply(Bid("four-without"))
    assert Bid(bid) not in state.legal_actions()
    for nap in ("nap-with", "nap-without"):
        assert Bid(bid) in state.apply(Bid(nap)).legal_actions()


# (bid, declarer's cards, trumps named, the legal first leads); the left-hand player holds
# AH-10H, the others 10-A of diamonds and of clubs.
LEADS = [
    # Four and Nap bind no lead (L85-88).
    ("four-without", "AS KS QS JS 9H", SPADES, "AS KS QS JS 9H"),
    ("nap-with", "AS KS QS JS 9H", SPADES, "AS KS QS JS 9H"),
    # Napoleon leads the lowest trump (L89-90 via L102): the JS.
    ("napoleon-without", "AS KS QS JS 9H", SPADES, "JS"),
    # Hearts named: the 9H is the only trump and so the lowest.
    ("napoleon-with", "AS KS QS JS 9H", HEARTS, "9H"),
    # Clubs named though void (allowed, NAP-7.1.2): no trump to lead, the obligation lapses
    # (NAP-7.2.4, DEC-091).
    ("napoleon-without", "AS KS QS JS 9H", CLUBS, "AS KS QS JS 9H"),
]


@pytest.mark.parametrize(("bid", "mine", "named", "allowed"), LEADS)
def test_first_lead(bid: str, mine: str, named: int, allowed: str) -> None:
    state = opening(bid, mine, "AH KH QH JH 10H", named, ruleset=RULESET)
    assert state.turn == 0
    assert set(state.legal_actions()) == plays(allowed)
    for card in cards(mine):
        if Play(card) not in plays(allowed):
            with pytest.raises(IllegalActionError) as err:
                state.apply(Play(card))
            assert err.value.rule == "NAP-7.2.2"


def test_napoleon_with_the_floater_leads_it() -> None:
    """Napoleon with the floater, the floater the 10S: seat 0 (AS KS QS JS 9H) takes it and
    discards the 9H (L78), so the 10S, the card just taken, is now the lowest trump and must be
    led (L89-90). Then the k=5 ladder led lowest first: all five tricks; 10 from each of three
    and the kitty of 4 -> +34, kitty 0."""
    hands = rotate(("AS KS QS JS 9H", "AH KH QH JH 10H", "10D JD QD KD AD",
                    "10C JC QC KC AC"), 0)
    state = dealt(game(RULESET), dealer=DEALER, hands=hands, packets=PACKETS, widow="10S",
                  lowest=NINE, pool=4)
    state = apply_all(state, bids("napoleon-with", None, None, None))
    assert set(state.legal_actions()) == {TAKE, LEAVE}  # may take (L78)
    state = apply_all(state, [TAKE, Discard(parse_card("9H")), NameTrumps(SPADES)])
    assert state.legal_actions() == (Play(parse_card("10S")),)
    state = play_tricks(state, lowest_first(5).tricks)
    result = state.result
    assert result is not None and result.trick_winners == (0, 0, 0, 0, 0)
    assert payments(state) == owed(*each_pays([1, 2, 3], 0, 10, "NAP-9.1.1"),
                                   (POOL, 0, 4, "NAP-9.1.2"))
    assert result.net[0] == 34 and result.pool == 0


def test_napoleon_without_has_no_exchange() -> None:
    """A bid without the floater gives no exchange (L78, NAP-5.2.4): straight to trumps."""
    state = opening("napoleon-without", "AS KS QS JS 9H", "AH KH QH JH 10H", SPADES,
                    ruleset=RULESET)
    assert state.widow == parse_card("9C")  # opening()'s floater, still face down
    assert state.hands[0] == sum(1 << c for c in cards("AS KS QS JS 9H"))


def test_looks_are_paid_into_the_kitty_and_won_by_napoleon() -> None:
    """L76: a look costs 1 into the kitty, the dealer's too (no free look). Seats 1 and 2 look;
    seat 2 bids Napoleon without and makes it (k=5 ladder, lowest trump first). Kitty 4 + 2 =
    6, won with 10 from each (L89-90). Seat 2: -1 + 30 + 6 = +35; seat 0 -10; seat 1 -1 - 10 =
    -11; seat 3 -10."""
    layout = lowest_first(5)
    state = dealt(game(RULESET), dealer=DEALER, hands=rotate(layout.roles, 2),
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    assert state.seen == 0
    state = apply_all(state, [Pass(), Peek(), Pass(), Peek(), Bid("napoleon-without")])
    assert state.turn == DEALER and Peek() in state.legal_actions()
    state = apply_all(state, [Pass(), NameTrumps(SPADES)])
    state = play_tricks(state, layout.tricks)
    result = state.result
    assert result is not None and result.made is True
    assert payments(state) == owed((1, POOL, 1, "NAP-6.1.1"), (2, POOL, 1, "NAP-6.1.1"),
                                   *each_pays([0, 1, 3], 2, 10, "NAP-9.1.1"),
                                   (POOL, 2, 6, "NAP-9.1.2"))
    assert result.net == (-10, -11, 35, -10) and result.pool == 0


def test_everyone_passes() -> None:
    """L98: nobody bids: the hand is thrown in, nothing settled (NAP-5.3.2); a look bought by
    the dealer stays in the kitty: 4 + 1 = 5."""
    state = dealt(game(RULESET), dealer=DEALER, hands=rotate(ladder_layout(5).roles, 0),
                  packets=PACKETS, widow=FLOATER, lowest=NINE, pool=4)
    state = apply_all(state, [Pass(), Pass(), Pass(), Peek(), Pass()])
    result = state.result
    assert result is not None and result.thrown_in and result.contract is None
    assert payments(state) == owed((3, POOL, 1, "NAP-6.1.1"))
    assert result.pool == 5 and result.net == (0, 0, 0, -1)


# --- over a match ---------------------------------------------------------------------------

@pytest.mark.parametrize(("choice", "gathered"), [("gather-and-cut", True), ("shuffle", False)])
def test_redeal_after_everyone_passes(choice: str, gathered: bool) -> None:
    """L76, L98: antes before each deal, again before the redeal by the player on the dealer's
    left; option throw-in-pack (DEC-093): gathered and cut, or shuffled. Kitty 4, then 8."""
    match = start_match(game(RULESET, options={"throw-in-pack": choice}),
                        rotate(ladder_layout(5).roles, 0))
    assert match.pool == 4
    match = play_match_hand(match, bids(None, None, None, None), [])
    assert match.dealer == 0 and match.pool == 4
    assert match.shuffle_next is not gathered
    ready: Action = Cut(7) if gathered else Shuffle(pack_cards(NINE))
    match = match.apply(ready)
    assert match.hand is not None and match.hand.dealer == 0
    assert match.pool == 8 and match.balances == (-2, -2, -2, -2)


@pytest.mark.parametrize(("bid", "k", "shuffled"), [
    # L74: shuffled after a bid of Nap or above has been won: Napoleon is above Nap ...
    ("napoleon-without", 5, True),
    # ... but not after it is lost.
    ("napoleon-without", 4, False),
])
def test_pack_shuffled_after_a_won_napoleon(bid: str, k: int, shuffled: bool) -> None:
    layout = lowest_first(k)
    match = start_match(game(RULESET), rotate(layout.roles, 0))
    match = play_match_hand(match, [*bids(bid, None, None, None), NameTrumps(SPADES)],
                            layout.tricks)
    assert match.shuffle_next is shuffled
    # Kitty: won (0), or 4 antes + 40.
    assert match.pool == (0 if shuffled else 44)


@pytest.mark.parametrize(("choice", "left", "balances"), [
    # DEC-083 'unclaimed': the 24 in the kitty belong to nobody.
    ("unclaimed", 24, (-21, -1, -1, -1)),
    # 'split-equally': 24 // 4 = 6 to each, nothing left over.
    ("split-equally", 0, (-15, 5, 5, 5)),
])
def test_kitty_when_the_match_ends(choice: str, left: int, balances: tuple[int, ...]) -> None:
    """Option kitty-at-end (DEC-083). A one-hand match: 4 antes, then seat 0 loses Nap without
    with four tricks: 5 x 4 = 20 (L88) -> kitty 24. Seat 0 has paid 1 + 20."""
    layout = ladder_layout(4)
    match = start_match(game(RULESET, options={"kitty-at-end": choice}),
                        rotate(layout.roles, 0), limit=1)
    match = play_match_hand(match, [*bids("nap-without", None, None, None),
                                    NameTrumps(SPADES)], layout.tricks)
    assert match.result is not None
    assert match.result.pool == left and match.result.balances == balances
