"""Hand-worked hands of Napoleon, the English article from a German site (002_33e5c6bd2923b07f.txt,
ruleset ``napoleon``).

Every expectation below is worked out by hand from the source, the law book and the decisions
register, not read from the engine. The table is four players (DEC-030 default: three to ten),
dealer seat 3: the forehand on the dealer's left speaks first, then clockwise, each player once
(002 L4-5, DEC-034 default ``single``; NAP-5.1.1). Cards go one at a time from the full pack
(DEC-031 default ``singly``; L9). No widow, no pool: only the bid is paid (L15-20).

The declarer's first card fixes trumps (L7, NAP-7.1.1), but for the lead obligations:
Wellington leads the lowest trump (L11, L18): by DEC-035 the lowest card of the suit led, which
that lead makes trumps; Blücher names trumps (DEC-036 default ``named``) and leads the lowest
non-trump (L12, L20). Misery (no trick, L16) ranks above the trick bids and below Napoleon
(DEC-033); the trick bids are 1 to 4 (DEC-032 default).

Stakes are asymmetric (NAP-9.1.1, NAP-9.2.1), per opponent, in units of the stake:

* one, two, three, four: won 1, lost 1 (L15);
* misery: won 1, lost 3 (L16);
* napoleon: won 2, lost 1 (L17);
* wellington: won 4, lost 2 (L19);
* blücher: won 6, lost 3 (L20).

The 'ladder' layout (tests/handworked/deals.py): the declarer holds k top spades and 5-k low
hearts; the player on their left AH KH QH JH 10H, the next 2D-6D, the last 2C-6C. The declarer
leads spades (trumps, L7), which nobody else holds, and wins k tricks; on the low hearts the
left-hand player's higher hearts win (L8). With k = 0 the declarer leads the 2H, hearts are
trumps and every trick goes to the left-hand player.
"""

from __future__ import annotations

import pytest
from napkit.engine.actions import Action, Bid, NameTrumps, Pass, Play
from napkit.engine.cards import DIAMONDS, HEARTS, SPADES, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.state import NO_TRUMPS
from napkit.errors import IllegalActionError, SetupError

from tests.handworked.deals import (
    FOURTH,
    HOLDER,
    LOW,
    THIRD,
    TOP,
    apply_all,
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
SINGLY = (1, 1, 1, 1, 1)  # DEC-031 default


def game(**options: str) -> Game:
    return Game.create("napoleon", 4, options)


def deal(hands: tuple[str, str, str, str], declarer: int, g: Game | None = None) -> HandState:
    """Hands given as (declarer, left, across, right), placed round the declarer."""
    return dealt(g or game(), dealer=DEALER, hands=rotate(hands, declarer), packets=SINGLY)


def ladder_deal(declarer: int, k: int, g: Game | None = None) -> HandState:
    return deal((" ".join(TOP[:k] + LOW[:5 - k]), " ".join(HOLDER), " ".join(THIRD),
                 " ".join(FOURTH)), declarer, g)


def ladder_tricks(k: int) -> list[str]:
    return ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH)


def wellington_tricks(k: int) -> list[str]:
    """The ladder for k = 4 or 5, the declarer's first lead its lowest spade (L18, DEC-035):
    with AS KS QS JS 10S the 10S, with AS KS QS JS 2H the JS; the other spades follow from
    the top. Nobody else holds a spade, so the declarer still wins k tricks."""
    spades = list(TOP[:k])
    first = spades.pop()  # the lowest spade held
    order = [first, *spades]
    return ladder(order, LOW[:5 - k], HOLDER, (), THIRD, FOURTH)


# Blücher hands (DEC-036 'named'): the declarer names spades and must lead its lowest card
# outside spades (L12, L20).
# Made: AS KS QS JS AH against KH QH JH 10H 9H: the AH, its only non-trump, wins trick 1 (the
# left-hand player must follow with a lower heart, L8; the others hold neither hearts nor
# spades), then the four spades win: five tricks.
BLUCHER_MADE = ("AS KS QS JS AH", "KH QH JH 10H 9H", " ".join(THIRD), " ".join(FOURTH))
BLUCHER_MADE_TRICKS = ["AH KH 2D 2C", "AS QH 3D 3C", "KS JH 4D 4C", "QS 10H 5D 5C",
                       "JS 9H 6D 6C"]
# Defeated: AS KS QS JS 2H must lead the 2H; the AH wins it. The left-hand player leads the
# KH; the declarer, now void in hearts, trumps with the JS and wins the rest: four tricks.
BLUCHER_LOST = ("AS KS QS JS 2H", " ".join(HOLDER), " ".join(THIRD), " ".join(FOURTH))
BLUCHER_LOST_TRICKS = ["2H AH 2D 2C", "KH 3D 3C JS", "AS QH 4D 4C", "KS JH 5D 5C",
                       "QS 10H 6D 6C"]


# (bid, auction from seat 0 to the dealer, declarer, k, made, won, lost)
CASES = [
    # L4, L10: bid the tricks you expect; made on that many or more (NAP-5.2.3). Every trick
    # bid pays the single stake each way (L15).
    ("one", [Bid("one"), Pass(), Pass(), Pass()], 0, 1, True, 1, 1),
    ("one", [Bid("one"), Pass(), Pass(), Pass()], 0, 0, False, 1, 1),
    ("two", [Pass(), Bid("two"), Pass(), Pass()], 1, 2, True, 1, 1),
    ("two", [Bid("one"), Bid("two"), Pass(), Pass()], 1, 1, False, 1, 1),
    # Three with four tricks: more is allowed (L10) and earns no more (L15).
    ("three", [Bid("three"), Pass(), Pass(), Pass()], 0, 4, True, 1, 1),
    ("three", [Bid("three"), Pass(), Pass(), Pass()], 0, 2, False, 1, 1),
    ("four", [Pass(), Pass(), Bid("four"), Pass()], 2, 4, True, 1, 1),
    ("four", [Pass(), Pass(), Pass(), Bid("four")], 3, 3, False, 1, 1),
    # Misery (L16): no trick at all. k=0: the 2H is led and every trick goes to the left-hand
    # player: made, 1 from each. k=1: the AS wins a trick: lost, 3 to each.
    ("misery", [Bid("four"), Bid("misery"), Pass(), Pass()], 1, 0, True, 1, 3),
    ("misery", [Pass(), Pass(), Bid("misery"), Pass()], 2, 1, False, 1, 3),
    # Napoleon (L17): all five; won 2 from each, lost only 1 to each.
    ("napoleon", [Bid("misery"), Pass(), Pass(), Bid("napoleon")], 3, 5, True, 2, 1),
    ("napoleon", [Bid("napoleon"), Pass(), Pass(), Pass()], 0, 4, False, 2, 1),
]


def check(state: HandState, bid: str, declarer: int, tricks: int, made: bool, won: int,
          lost: int, winners: tuple[int, ...]) -> None:
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.declarer == declarer
    assert result.contract == bid
    assert result.tricks == tricks
    assert result.made is made
    assert result.trick_winners == winners
    opponents = [s for s in range(4) if s != declarer]
    if made:
        assert payments(state) == owed(*each_pays(opponents, declarer, won, "NAP-9.1.1"))
        assert result.net[declarer] == 3 * won
    else:
        assert payments(state) == owed(*pays_each(declarer, opponents, lost, "NAP-9.2.1"))
        assert result.net[declarer] == -3 * lost
    assert result.pool == 0  # no pool in this game


@pytest.mark.parametrize(("bid", "auction", "declarer", "k", "made", "won", "lost"), CASES)
def test_contract(bid: str, auction: list[Action], declarer: int, k: int, made: bool,
                  won: int, lost: int) -> None:
    state = apply_all(ladder_deal(declarer, k), auction)
    assert state.declarer == declarer  # NAP-5.3.1
    state = play_tricks(state, ladder_tricks(k))
    left = (declarer + 1) % 4
    check(state, bid, declarer, k, made, won, lost, (declarer,) * k + (left,) * (5 - k))


@pytest.mark.parametrize(("k", "made"), [(5, True), (4, False)])
def test_wellington(k: int, made: bool) -> None:
    """L6, L18: Wellington only after a Napoleon; the declarer leads the lowest trump. Seat 0
    bids Napoleon, seat 1 Wellington. k=5: the 10S led, then the other spades: all five, 4
    from each (L19). k=4: the JS led, the spades win four, the 2H loses: lost, 2 to each."""
    state = apply_all(ladder_deal(1, k), [Bid("napoleon"), Bid("wellington"), Pass(), Pass()])
    assert state.declarer == 1
    state = play_tricks(state, wellington_tricks(k))
    check(state, "wellington", 1, k, made, 4, 2, (1,) * k + (2,) * (5 - k))


@pytest.mark.parametrize(("hands", "tricks", "made", "winners"), [
    (BLUCHER_MADE, BLUCHER_MADE_TRICKS, True, (2, 2, 2, 2, 2)),
    (BLUCHER_LOST, BLUCHER_LOST_TRICKS, False, (3, 2, 2, 2, 2)),
])
def test_blucher(hands: tuple[str, str, str, str], tricks: list[str], made: bool,
                 winners: tuple[int, ...]) -> None:
    """L20: Blücher after a Napoleon and a Wellington; won 6 from each, lost 3 to each. Seat 0
    Napoleon, seat 1 Wellington, seat 2 Blücher; seat 2 names spades (DEC-036)."""
    state = apply_all(deal(hands, 2), [Bid("napoleon"), Bid("wellington"), Bid("blucher"),
                                       Pass()])
    assert state.declarer == 2
    state = state.apply(NameTrumps(SPADES))
    state = play_tricks(state, tricks)
    check(state, "blucher", 2, 5 if made else 4, made, 6, 3, winners)


def test_wellington_needs_an_earlier_napoleon() -> None:
    """L6, L18 (NAP-5.2.5): no Wellington unless a Napoleon was bid before it."""
    state = ladder_deal(0, 5).apply(Bid("misery"))
    assert Bid("wellington") not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("wellington"))
    assert err.value.rule == "NAP-5.2.5"


def test_blucher_needs_a_napoleon_and_a_wellington() -> None:
    """L6, L20: a Blücher only after a Napoleon AND a Wellington. The ruleset writes
    ``requires: [["napoleon"], ["wellington"]]``, which the ruleset schema defines as 'every
    inner list must have at least one of its bids made earlier': both (NAP-5.2.5: two groups
    of one need both). After a Napoleon alone, Blücher is not a legal bid."""
    state = ladder_deal(0, 5).apply(Bid("napoleon"))
    assert Bid("blucher") not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("blucher"))
    assert err.value.rule == "NAP-5.2.5"


def test_blucher_after_wellington_is_legal() -> None:
    state = apply_all(ladder_deal(0, 5), [Bid("napoleon"), Bid("wellington")])
    assert Bid("blucher") in state.legal_actions()


def test_wellington_lead_is_the_lowest_of_the_suit_led() -> None:
    """DEC-035 default: the first card chooses trumps and must be the lowest the declarer holds
    in that suit (NAP-7.2.2). Holding AS KS QS JS 2H, the JS or the 2H may be led; the AS may
    not."""
    state = apply_all(ladder_deal(1, 4), [Bid("napoleon"), Bid("wellington"), Pass(), Pass()])
    assert set(state.legal_actions()) == {Play(parse_card("JS")), Play(parse_card("2H"))}
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("AS")))
    assert err.value.rule == "NAP-7.2.2"


def test_wellington_named_then_lowest_trump() -> None:
    """DEC-035 alternative: the Wellington declarer names trumps, then leads the lowest of
    them: spades named -> only the JS. A void suit may be named here (naming 'allowed'); then
    no card is a trump and the obligation lapses (NAP-7.2.4)."""
    g = game(**{"wellington-lead": "named-then-lowest-trump"})
    state = apply_all(ladder_deal(1, 4, g), [Bid("napoleon"), Bid("wellington"), Pass(),
                                             Pass()])
    assert len(state.legal_actions()) == 4  # any suit may be named
    spades = state.apply(NameTrumps(SPADES))
    assert spades.legal_actions() == (Play(parse_card("JS")),)
    with pytest.raises(IllegalActionError) as err:
        spades.apply(Play(parse_card("2H")))
    assert err.value.rule == "NAP-7.2.2"
    void = state.apply(NameTrumps(DIAMONDS))
    assert set(void.legal_actions()) == {Play(c) for c in cards("AS KS QS JS 2H")}


def blucher_declared(hand: str, g: Game | None = None) -> HandState:
    """Seat 2 declares Blücher holding ``hand`` (the others: hearts, diamonds, clubs)."""
    hands = (hand, " ".join(HOLDER), " ".join(THIRD), " ".join(FOURTH))
    return apply_all(deal(hands, 2, g), [Bid("napoleon"), Bid("wellington"), Bid("blucher"),
                                         Pass()])


def test_blucher_must_lead_lowest_non_trump() -> None:
    """L12, L20: spades named, AS KS QS JS 2H must lead the 2H (NAP-7.2.2)."""
    hand = "AS KS QS JS 2H"
    state = blucher_declared(hand).apply(NameTrumps(SPADES))
    assert state.legal_actions() == (Play(parse_card("2H")),)
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("AS")))
    assert err.value.rule == "NAP-7.2.2"


def test_blucher_ties_and_lapse() -> None:
    """DEC-038: two cards of different suits tied for lowest non-trump may either be led
    (NAP-7.2.3). A declarer whose five cards are spades: under DEC-041 binds (the default) they
    may not name spades (NAP-7.1.4) and must name another suit, so that every card is a
    non-trump; under lapses they may, and with every card a trump the obligation lapses
    (NAP-7.2.4)."""
    g = game()
    hands = ("AS KS 7H 7D 8H", "AH KH QH JH 10H", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 6C")
    state = apply_all(deal(hands, 2, g), [Bid("napoleon"), Bid("wellington"), Bid("blucher"),
                                          Pass()]).apply(NameTrumps(SPADES))
    assert set(state.legal_actions()) == {Play(parse_card("7H")), Play(parse_card("7D"))}
    one_suit = blucher_declared(" ".join(TOP))
    assert SPADES not in {a.suit for a in one_suit.legal_actions() if isinstance(a, NameTrumps)}
    with pytest.raises(IllegalActionError) as err:
        one_suit.apply(NameTrumps(SPADES))
    assert err.value.rule == "NAP-7.1.4"
    lowest = min(cards(" ".join(TOP)), key=lambda c: c % 13)  # the lowest spade, now a non-trump
    assert one_suit.apply(NameTrumps(HEARTS)).legal_actions() == (Play(lowest),)
    all_trumps = blucher_declared(" ".join(TOP), game(**{"blucher-one-suit": "lapses"})).apply(
        NameTrumps(SPADES))
    assert set(all_trumps.legal_actions()) == {Play(c) for c in cards(" ".join(TOP))}


@pytest.mark.parametrize("choice", ["lowest-card-fixes-trumps", "no-trumps"])
def test_blucher_trumps_alternatives(choice: str) -> None:
    """DEC-036 alternatives: no naming; the declarer leads the lowest card of the hand. With
    AS KS QS JS 2H that is the 2H. 'lowest-card-fixes-trumps': hearts become trumps (L7);
    'no-trumps': no suit is trumps (NAP-7.1.3)."""
    state = blucher_declared("AS KS QS JS 2H", game(**{"blucher-trumps": choice}))
    assert state.legal_actions() == (Play(parse_card("2H")),)
    state = state.apply(Play(parse_card("2H")))
    assert state.trumps == (1 if choice == "lowest-card-fixes-trumps" else NO_TRUMPS)


# A misery hand in which the declarer's second heart would win a trick only if hearts were
# trumps. Seat 0 (declarer) 2H 3H 2C 3C 4C; seat 1 AH AD KD AC KC; seat 2 2D 3D 4D QC JC;
# seat 3 5D 6D 7D 10C 9C. Trick 1: 2H led, seat 1's AH wins. Trick 2: seat 1 leads the AD;
# seats 2 and 3 follow with diamonds, seat 0 (no diamonds) throws the 3H.
MISERY_HANDS = ("2H 3H 2C 3C 4C", "AH AD KD AC KC", "2D 3D 4D QC JC", "5D 6D 7D 10C 9C")


@pytest.mark.parametrize(("choice", "tricks", "winners"), [
    # DEC-037 default: the 2H led made hearts trumps (L7), so the 3H wins trick 2; seat 0
    # leads the 2C, seat 1's AC wins, and seat 1 takes the rest. One trick: misery lost, 3 to
    # each (L16).
    ("first-card-led", ["2H AH 2D 5D", "AD 3D 6D 3H", "2C AC QC 10C", "KD 4D 7D 3C",
                        "KC JC 9C 4C"], (1, 0, 1, 1, 1)),
    # DEC-037 alternative: no trumps; the 3H is just a discard, the AD wins trick 2, and seat
    # 1 wins every trick with its diamonds and clubs (seat 0 discarding, then following
    # clubs low). No trick: misery made, 1 from each (L16).
    ("none", ["2H AH 2D 5D", "AD 3D 6D 3H", "KD 4D 7D 2C", "AC QC 10C 3C", "KC JC 9C 4C"],
     (1, 1, 1, 1, 1)),
])
def test_misery_trumps(choice: str, tricks: list[str], winners: tuple[int, ...]) -> None:
    g = game(**{"misery-trumps": choice})
    state = apply_all(deal(MISERY_HANDS, 0, g), [Bid("misery"), Pass(), Pass(), Pass()])
    state = play_tricks(state, tricks)
    made = choice == "none"
    check(state, "misery", 0, 0 if made else 1, made, 1, 3, winners)


def bids_open(g: Game) -> list[str]:
    return [a.bid for a in ladder_deal(0, 5, g).legal_actions() if isinstance(a, Bid)]


def test_misery_rank_below_napoleon() -> None:
    """DEC-033 default: misery ranks above Four and below Napoleon (NAP-5.2.1)."""
    assert bids_open(game()) == ["one", "two", "three", "four", "misery", "napoleon"]
    state = ladder_deal(0, 5).apply(Bid("misery"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("four"))
    assert err.value.rule == "NAP-5.2.1"
    assert Bid("napoleon") in state.legal_actions()


def test_misery_rank_lowest() -> None:
    """DEC-033 alternative: misery is the lowest bid, so a bid of one outranks it."""
    g = game(**{"misery-rank": "lowest"})
    assert bids_open(g) == ["misery", "one", "two", "three", "four", "napoleon"]
    state = ladder_deal(0, 5, g).apply(Bid("one"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("misery"))
    assert err.value.rule == "NAP-5.2.1"


@pytest.mark.parametrize(("choice", "lowest"), [
    ("one-to-four", "one"), ("two-to-four", "two"), ("three-to-four", "three"),
])
def test_trick_bids(choice: str, lowest: str) -> None:
    """DEC-032: the trick bids start at one (default), two or three; a bid below the floor
    is no bid of the game (NAP-5.2.2)."""
    g = game(**{"trick-bids": choice})
    assert bids_open(g)[0] == lowest
    if lowest != "one":
        with pytest.raises(IllegalActionError) as err:
            ladder_deal(0, 5, g).apply(Bid("one"))
        assert err.value.rule == "NAP-5.2.2"


def test_players() -> None:
    """DEC-030: three to ten by default (the others play together against the declarer, L7);
    two with the option."""
    with pytest.raises(SetupError) as err:
        Game.create("napoleon", 2)
    assert err.value.rule == "NAP-3.1.1"
    assert Game.create("napoleon", 2, {"players": "two-to-ten"}).players == 2


@pytest.mark.parametrize("packets", [(3, 2), (2, 3)])
def test_dealing_in_packets(packets: tuple[int, int]) -> None:
    """DEC-031 alternatives: three then two, or two then three (``dealt`` checks every hand)."""
    g = game(dealing=f"{packets[0]}-{packets[1]}")
    hands = rotate((" ".join(TOP), " ".join(HOLDER), " ".join(THIRD), " ".join(FOURTH)), 0)
    state = dealt(g, dealer=DEALER, hands=hands, packets=packets)
    assert state.turn == 0


def test_auction_until_passes() -> None:
    """DEC-034 alternative: bidding goes round until all but the highest bidder have passed
    (NAP-5.1.2): seat 0 three, seat 1 four, seats 2 and 3 pass, seat 0 Napoleon, seat 1 passes:
    seat 0 declares Napoleon."""
    state = ladder_deal(0, 5, game(auction="until-passes"))
    state = apply_all(state, [Bid("three"), Bid("four"), Pass(), Pass(), Bid("napoleon"),
                              Pass()])
    assert state.declarer == 0 and state.contract_bid is not None
    assert state.contract_bid.id == "napoleon"


def test_all_pass_throws_the_hand_in() -> None:
    """DEC-039: if everyone passes the hand is thrown in, unplayed and unpaid (NAP-5.3.2)."""
    state = apply_all(ladder_deal(0, 5), [Pass(), Pass(), Pass(), Pass()])
    result = state.result
    assert state.is_over() and result is not None and result.thrown_in
    assert result.payments == () and result.net == (0, 0, 0, 0)
