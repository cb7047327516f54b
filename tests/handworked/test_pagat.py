"""Hand-worked hands of pagat's standard Nap (004_d686e73063261d6b.txt, ruleset ``pagat``).

Every expectation below is worked out by hand from the source (cited as ``004 L..``), the law
book and the decisions register, not read from the engine. The table is four players, dealer
seat 3: the deal and the auction begin with seat 0 and end with the dealer (004 L19, L23 with
DEC-072's reading 'ends with the dealer'; NAP-4.2.2, NAP-5.1.1). Cards are dealt three then two
(004 L17, option ``packets`` default ``3-2``) from the full pack (004 L13, ``pack`` default).

The 'ladder' layout (tests/handworked/deals.py): the declarer holds k top spades and 5-k low
hearts (2H upwards); the player on their left holds AH KH QH JH 10H, the next 2D-6D, the last
2C-6C. Nobody else holds a spade, so the declarer's first lead, a spade, makes spades trumps
(004 L34, NAP-7.1.1) and wins k tricks; on the low hearts the left-hand player's higher hearts
win (004 L36, NAP-8.2.1). So the declarer takes exactly k tricks.

Payments (004 L42-48; NAP-9.1.1, NAP-9.2.1): a made bid wins its units from each other player,
a failed one pays each the same: Two 2 (L54), Three 3 (L44), Mis 3 (L55), Four 4 (L45), Nap 5
(L46), Wellington 10 (L47), Blücher 20 (L56). Option ``doubling`` (L58) doubles Nap, Wellington
and Blücher when won, or when won and lost. The standard game has no pool.
"""

from __future__ import annotations

import pytest
from napkit.engine.actions import Action, Bid, ChooseDealer, Cut, Deal, Pass, Play, Shuffle
from napkit.engine.cards import cards_of, mask_of, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import NO_TRUMPS
from napkit.errors import IllegalActionError

from tests.handworked.deals import (
    FOURTH,
    HOLDER,
    LOW,
    THIRD,
    TOP,
    apply_all,
    build_pack,
    cards,
    dealt,
    each_pays,
    ladder,
    owed,
    pack_cards,
    payments,
    pays_each,
    play_tricks,
    rotate,
)

DEALER = 3
THREE_TWO = (3, 2)  # 004 L17, option packets default "3-2"
ALL_BIDS = {"two": "on", "mis": "on", "blucher": "on"}


def game(options: dict[str, str] | None = None) -> Game:
    return Game.create("pagat", 4, options or {})


def ladder_hand(g: Game, declarer: int, k: int) -> tuple[HandState, list[str]]:
    """The ladder layout with the declarer at ``declarer`` holding k top spades."""
    roles = (" ".join(TOP[:k] + LOW[:5 - k]), " ".join(HOLDER), " ".join(THIRD),
             " ".join(FOURTH))
    state = dealt(g, dealer=DEALER, hands=rotate(roles, declarer), packets=THREE_TWO)
    return state, ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH)


def check_settled(state: HandState, *, bid: str, declarer: int, tricks: int, made: bool,
                  winners: tuple[int, ...], amount: int) -> None:
    """The result of a hand with no pool: the declarer gets ``amount`` from each opponent if
    made (NAP-9.1.1), pays each ``amount`` if not (NAP-9.2.1); nothing else changes hands."""
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.declarer == declarer
    assert result.contract == bid
    assert result.tricks == tricks
    assert result.made is made
    assert result.trick_winners == winners
    opponents = [s for s in range(4) if s != declarer]
    if made:
        expected = owed(*each_pays(opponents, declarer, amount, "NAP-9.1.1"))
    else:
        expected = owed(*pays_each(declarer, opponents, amount, "NAP-9.2.1"))
    assert payments(state) == expected
    sign = 1 if made else -1
    assert result.net[declarer] == sign * 3 * amount
    assert all(result.net[s] == -sign * amount for s in opponents)
    assert result.pool == 0  # 004 has no pool in the standard game


# (options, bid, the auction from seat 0 to the dealer, declarer, k, made, amount)
CASES = [
    # Two (option, 004 L54): two tricks, 2 units. k=2 -> made, 2 from each of three.
    ({"two": "on"}, "two", [Bid("two"), Pass(), Pass(), Pass()], 0, 2, True, 2),
    # k=1 -> one trick < 2: failed, 2 to each (L48 'the same amount').
    ({"two": "on"}, "two", [Pass(), Bid("two"), Pass(), Pass()], 1, 1, False, 2),
    # Three (L25, L44): k=3 made, 3 each; k=4 still pays 3 (L42 pays by the bid, NAP-9.1.1).
    ({}, "three", [Bid("three"), Pass(), Pass(), Pass()], 0, 3, True, 3),
    ({}, "three", [Bid("three"), Pass(), Pass(), Pass()], 0, 4, True, 3),
    # Two then Three: Three outranks Two (L54 'ranking below Three'); k=2 < 3 fails, 3 each.
    ({"two": "on"}, "three", [Bid("two"), Bid("three"), Pass(), Pass()], 1, 2, False, 3),
    # Four (L26, L45): 4 tricks made, 4 each; over a Mis, which ranks below Four (L55).
    ({"mis": "on"}, "four", [Bid("mis"), Pass(), Bid("four"), Pass()], 2, 4, True, 4),
    ({}, "four", [Pass(), Pass(), Pass(), Bid("four")], 3, 3, False, 4),
    # Nap (L27, L46): all five, 5 each; four tricks fail it, 5 each (doubling none).
    ({}, "nap", [Bid("four"), Bid("nap"), Pass(), Pass()], 1, 5, True, 5),
    ({}, "nap", [Bid("nap"), Pass(), Pass(), Pass()], 0, 4, False, 5),
    # Wellington (L28, L47) after another player's Nap: all five, 10 each.
    ({}, "wellington", [Bid("nap"), Pass(), Bid("wellington"), Pass()], 2, 5, True, 10),
    ({}, "wellington", [Pass(), Bid("nap"), Pass(), Bid("wellington")], 3, 4, False, 10),
    # Blücher (option, L56) after a Wellington: all five, 20 each.
    ({"blucher": "on"}, "blucher",
     [Bid("nap"), Bid("wellington"), Bid("blucher"), Pass()], 2, 5, True, 20),
    ({"blucher": "on"}, "blucher",
     [Pass(), Bid("nap"), Bid("wellington"), Bid("blucher")], 3, 3, False, 20),
]


@pytest.mark.parametrize(("options", "bid", "auction", "declarer", "k", "made", "amount"), CASES)
def test_contract(options: dict[str, str], bid: str, auction: list[Action], declarer: int,
                  k: int, made: bool, amount: int) -> None:
    state, tricks = ladder_hand(game(options), declarer, k)
    state = apply_all(state, auction)
    assert state.declarer == declarer  # NAP-5.3.1: the highest bidder (004 L34)
    assert state.turn == declarer  # 004 L34: the high bidder leads (NAP-7.2.1)
    state = play_tricks(state, tricks)
    assert state.trumps == 0  # the first card led, a spade, fixed spades (L34)
    left = (declarer + 1) % 4
    check_settled(state, bid=bid, declarer=declarer, tricks=k, made=made,
                  winners=(declarer,) * k + (left,) * (5 - k), amount=amount)


# Doubling (004 L58, option doubling): (choice, bid, made, amount). L46-47 and L56 give 5, 10
# and 20; 'won' doubles them only when won (10, 20, 40 won; 5, 10, 20 lost); 'won-and-lost'
# doubles them both ways (L58 'paying 10 for Nap, 20 for Wellington and 40 for Blücher').
DOUBLING = [
    ("none", "nap", True, 5), ("none", "nap", False, 5),
    ("won", "nap", True, 10), ("won", "nap", False, 5),
    ("won-and-lost", "nap", True, 10), ("won-and-lost", "nap", False, 10),
    ("none", "wellington", True, 10), ("none", "wellington", False, 10),
    ("won", "wellington", True, 20), ("won", "wellington", False, 10),
    ("won-and-lost", "wellington", True, 20), ("won-and-lost", "wellington", False, 20),
    ("none", "blucher", True, 20), ("none", "blucher", False, 20),
    ("won", "blucher", True, 40), ("won", "blucher", False, 20),
    ("won-and-lost", "blucher", True, 40), ("won-and-lost", "blucher", False, 40),
]
# The auctions that reach each bid: Wellington needs a Nap before it (L28), Blücher a
# Wellington (L56). The last bidder is the declarer.
REACH: dict[str, list[Action]] = {
    "nap": [Bid("nap"), Pass(), Pass(), Pass()],
    "wellington": [Bid("nap"), Bid("wellington"), Pass(), Pass()],
    "blucher": [Bid("nap"), Bid("wellington"), Bid("blucher"), Pass()],
}
DECLARER = {"nap": 0, "wellington": 1, "blucher": 2}


@pytest.mark.parametrize(("doubling", "bid", "made", "amount"), DOUBLING)
def test_doubling(doubling: str, bid: str, made: bool, amount: int) -> None:
    """004 L58: each doubling choice, made (all five tricks) and failed (four tricks)."""
    declarer = DECLARER[bid]
    k = 5 if made else 4
    state, tricks = ladder_hand(game({"blucher": "on", "doubling": doubling}), declarer, k)
    state = play_tricks(apply_all(state, REACH[bid]), tricks)
    left = (declarer + 1) % 4
    check_settled(state, bid=bid, declarer=declarer, tricks=k, made=made,
                  winners=(declarer,) * k + (left,) * (5 - k), amount=amount)


@pytest.mark.parametrize("doubling", ["won", "won-and-lost"])
def test_doubling_leaves_three_and_four_alone(doubling: str) -> None:
    """004 L58 doubles Nap, Wellington and Blücher only: a made Four still wins 4 each (L45)
    and a failed Three still pays 3 each (L44, L48)."""
    state, tricks = ladder_hand(game({"doubling": doubling}), 0, 4)
    state = play_tricks(apply_all(state, [Bid("four"), Pass(), Pass(), Pass()]), tricks)
    check_settled(state, bid="four", declarer=0, tricks=4, made=True,
                  winners=(0, 0, 0, 0, 1), amount=4)
    state, tricks = ladder_hand(game({"doubling": doubling}), 2, 2)
    state = play_tricks(apply_all(state, [Pass(), Pass(), Bid("three"), Pass()]), tricks)
    check_settled(state, bid="three", declarer=2, tricks=2, made=False,
                  winners=(2, 2, 3, 3, 3), amount=3)


# --- Misère ------------------------------------------------------------------------------

def test_mis_made() -> None:
    """Mis (option, 004 L55): lose every trick, 3 units, ranking between Three and Four.

    Seat 1 bids Mis over seat 0's Three (Mis ranks above Three). Ladder with k=0, the declarer
    at seat 1 holding 2H-6H: it leads 2H (hearts trumps, DEC-074 default first-card-led) and
    seat 2's AH wins; seat 2 leads KH, QH, JH, 10H and the declarer must follow each with a
    lower heart (L38). No trick for the declarer: made (NAP-8.3.2), 3 from each (L42, L55).
    """
    state, tricks = ladder_hand(game({"mis": "on"}), 1, 0)
    state = apply_all(state, [Bid("three"), Bid("mis"), Pass(), Pass()])
    assert state.declarer == 1
    state = play_tricks(state, tricks)
    assert state.trumps == 1
    check_settled(state, bid="mis", declarer=1, tricks=0, made=True, winners=(2,) * 5,
                  amount=3)


def test_mis_defeated() -> None:
    """Ladder k=1: the Mis declarer (seat 0) holds AS and leads it; nobody else has a spade, so
    it wins a trick (L36). One trick is enough to defeat Mis (L55 'fails if ... win a trick',
    NAP-8.3.2): 3 to each opponent (L48)."""
    state, tricks = ladder_hand(game({"mis": "on"}), 0, 1)
    state = play_tricks(apply_all(state, [Bid("mis"), Pass(), Pass(), Pass()]), tricks)
    check_settled(state, bid="mis", declarer=0, tricks=1, made=False,
                  winners=(0, 1, 1, 1, 1), amount=3)


# Seat 0 (the Mis declarer) holds only clubs; seat 1 the AC and four spades; seats 2 and 3
# diamonds and hearts. Seat 0 leads 2C and seat 1 wins it with AC, then leads spades, of which
# the declarer has none: it must throw a club.
MIS_HANDS = {0: "2C 3C 4C 5C 6C", 1: "AC AS KS QS JS", 2: "2D 3D 4D 5D 6D",
             3: "2H 3H 4H 5H 6H"}


def test_mis_with_first_card_trumps() -> None:
    """DEC-074 default: in Mis too the first card led fixes trumps (004 L34 'for the hand').

    2C led: clubs are trumps; AC wins trick 1 for seat 1. Seat 1 leads AS; seat 0, void in
    spades, throws 3C, the only trump in the trick, and wins it (L36). It then leads 4C, 5C,
    6C; seat 1 has no club left and nobody else has one: seat 0 wins tricks 2-5. Four tricks:
    Mis defeated, 3 to each (L48, L55)."""
    state = dealt(game({"mis": "on"}), dealer=DEALER, hands=MIS_HANDS, packets=THREE_TWO)
    state = apply_all(state, [Bid("mis"), Pass(), Pass(), Pass()])
    state = play_tricks(state, ["2C AC 2D 2H", "AS 3D 3H 3C", "4C KS 4D 4H", "5C QS 5D 5H",
                                "6C JS 6D 6H"])
    assert state.trumps == 3
    check_settled(state, bid="mis", declarer=0, tricks=4, made=False,
                  winners=(1, 0, 0, 0, 0), amount=3)


def test_mis_without_trumps() -> None:
    """DEC-074 alternative ``none``: Mis has no trumps (NAP-7.1.3), so the 3C thrown to seat
    1's AS is just a card of another suit and never wins (NAP-8.2.1). The same cards as above:
    seat 1 wins every trick with AC, AS, KS, QS, JS; the declarer wins none and makes Mis, 3
    from each (L42, L55)."""
    state = dealt(game({"mis": "on", "mis-trumps": "none"}), dealer=DEALER, hands=MIS_HANDS,
                  packets=THREE_TWO)
    state = apply_all(state, [Bid("mis"), Pass(), Pass(), Pass()])
    state = play_tricks(state, ["2C AC 2D 2H", "AS 3D 3H 3C", "KS 4D 4H 4C", "QS 5D 5H 5C",
                                "JS 6D 6H 6C"])
    assert state.trumps == NO_TRUMPS
    check_settled(state, bid="mis", declarer=0, tricks=0, made=True, winners=(1,) * 5,
                  amount=3)


def test_other_bids_keep_first_card_trumps_with_mis_trumps_none() -> None:
    """DEC-074 is about Mis only: under mis-trumps ``none`` a Four is still played with the
    first card's suit as trumps (004 L34). Ladder k=4, AS led: spades trumps."""
    state, tricks = ladder_hand(game({"mis": "on", "mis-trumps": "none"}), 0, 4)
    state = apply_all(state, [Bid("four"), Pass(), Pass(), Pass()])
    state = state.apply(Play(parse_card(tricks[0].split()[0])))
    assert state.trumps == 0


# --- The auction -------------------------------------------------------------------------

def test_bids_in_order_with_every_option() -> None:
    """004 L23-28, L54-56: with Two, Mis and Blücher allowed, the first speaker may pass or bid
    Two, Three, Mis, Four or Nap; Wellington needs a Nap before it (L28) and Blücher a
    Wellington (L56), so neither can open."""
    state, _ = ladder_hand(game(ALL_BIDS), 0, 5)
    assert set(state.legal_actions()) == {Pass(), Bid("two"), Bid("three"), Bid("mis"),
                                          Bid("four"), Bid("nap")}
    # After Mis, only higher bids (L23): Four and Nap (Three and Two rank below it, L54-55).
    state = state.apply(Bid("mis"))
    assert set(state.legal_actions()) == {Pass(), Bid("four"), Bid("nap")}
    # After Nap: Wellington now, but still not Blücher, which needs a Wellington.
    state = apply_all(state, [Bid("nap")])
    assert set(state.legal_actions()) == {Pass(), Bid("wellington")}
    state = state.apply(Bid("wellington"))
    assert set(state.legal_actions()) == {Pass(), Bid("blucher")}


@pytest.mark.parametrize(("options", "first", "second", "rule"), [
    # L54: Two ranks below Three, so it cannot follow a Three.
    ({"two": "on"}, "three", "two", "NAP-5.2.1"),
    # L55: Mis ranks between Three and Four: not after a Four ...
    ({"mis": "on"}, "four", "mis", "NAP-5.2.1"),
    # ... and Three not after a Mis.
    ({"mis": "on"}, "mis", "three", "NAP-5.2.1"),
    # L23: a bid must be more than the highest so far: no equal bid.
    ({}, "four", "four", "NAP-5.2.1"),
    # L28: Wellington only after a Nap; a Four is not enough.
    ({}, "four", "wellington", "NAP-5.2.5"),
    # L56: Blücher only after a Wellington; a Nap is not enough.
    ({"blucher": "on"}, "nap", "blucher", "NAP-5.2.5"),
])
def test_illegal_bid(options: dict[str, str], first: str, second: str, rule: str) -> None:
    state, _ = ladder_hand(game(options), 0, 5)
    state = state.apply(Bid(first))
    assert Bid(second) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid(second))
    assert err.value.rule == rule


@pytest.mark.parametrize("bid", ["two", "mis", "blucher"])
def test_optional_bids_absent_by_default(bid: str) -> None:
    """L52 'allowed by some groups': without their option (default off) Two, Mis and Blücher
    are not bids of the game (NAP-5.2.2); Blücher is refused for that reason even after a
    Wellington."""
    state, _ = ladder_hand(game(), 0, 5)
    if bid == "blucher":
        state = apply_all(state, [Bid("nap"), Bid("wellington")])
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid(bid))
    assert err.value.rule == "NAP-5.2.2"


def test_one_chance_to_speak() -> None:
    """004 L23: one round; each player speaks once, the dealer last (DEC-072). Seat 0 bids
    Three, seat 1 Four, seats 2 and 3 pass: the auction is over although seat 0 might have
    wanted to raise. Seat 1 declares Four and leads (L34)."""
    state, _ = ladder_hand(game(), 1, 4)
    state = apply_all(state, [Bid("three"), Bid("four"), Pass(), Pass()])
    assert state.declarer == 1 and state.turn == 1
    assert state.contract_bid is not None and state.contract_bid.id == "four"
    assert all(isinstance(a, Play) for a in state.legal_actions())


def test_all_pass_throws_the_hand_in() -> None:
    """004 L30: if all pass the hand is not played; nobody pays (NAP-5.3.2)."""
    state, _ = ladder_hand(game(ALL_BIDS), 0, 5)
    state = apply_all(state, [Pass(), Pass(), Pass(), Pass()])
    result = state.result
    assert state.is_over() and result is not None
    assert result.thrown_in and result.declarer == -1 and result.contract is None
    assert result.payments == () and result.net == (0, 0, 0, 0) and result.pool == 0


# --- Play --------------------------------------------------------------------------------

def test_any_opening_lead_fixes_trumps() -> None:
    """004 L34: the high bidder leads any card (every pagat bid has lead 'any', NAP-7.2.2) and
    its suit is trumps. Seat 0 (AS KS QS JS 2H) bids Four and leads 2H: hearts are trumps and
    seat 1's AH wins. Seat 1 leads KH, QH, JH, 10H; seat 0, void in hearts, throws spades,
    which are not trumps and cannot win (L36). Seat 0 wins nothing: Four fails, 4 to each
    (L45, L48), though the same cards led from the spades would have made it."""
    state, _ = ladder_hand(game(), 0, 4)
    state = apply_all(state, [Bid("four"), Pass(), Pass(), Pass()])
    assert set(state.legal_actions()) == {Play(c) for c in cards("AS KS QS JS 2H")}
    state = play_tricks(state, ["2H AH 2D 2C", "KH 3D 3C AS", "QH 4D 4C KS", "JH 5D 5C QS",
                                "10H 6D 6C JS"])
    assert state.trumps == 1
    check_settled(state, bid="four", declarer=0, tricks=0, made=False, winners=(1,) * 5,
                  amount=4)


def test_must_follow_suit() -> None:
    """004 L38: a player who holds the suit led must follow (NAP-8.1.1); one who has none may
    play anything, trump or not (NAP-8.1.2)."""
    state, _ = ladder_hand(game(), 0, 3)  # seat 0: AS KS QS 2H 3H
    state = apply_all(state, [Bid("three"), Pass(), Pass(), Pass()])
    state = play_tricks(state, ["2H AH 6D 6C"])  # hearts trumps; seat 1 wins with AH
    state = play_tricks(state, ["KH 5D 5C"])  # seats 2 and 3 have no heart: free to discard
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("AS")))  # seat 0 still holds 3H
    assert err.value.rule == "NAP-8.1.1"
    assert state.legal_actions() == (Play(parse_card("3H")),)


# --- Deal and pack -----------------------------------------------------------------------

# The pack in card order, 2S first: 2S..AS, 2H..AH, 2D..AD, 2C..AC.
# 3-2 (L17): three each from seat 0 (dealer 3's left) round to the dealer, then two each.
#   seat 0: 2S 3S 4S + AS 2H     seat 1: 5S 6S 7S + 3H 4H
#   seat 2: 8S 9S 10S + 5H 6H    seat 3: JS QS KS + 7H 8H
# 2-3: two each, then three each.
#   seat 0: 2S 3S + 10S JS QS    seat 1: 4S 5S + KS AS 2H
#   seat 2: 6S 7S + 3H 4H 5H     seat 3: 8S 9S + 6H 7H 8H
@pytest.mark.parametrize(("packets", "expected"), [
    ("3-2", {0: "2S 3S 4S AS 2H", 1: "5S 6S 7S 3H 4H", 2: "8S 9S 10S 5H 6H",
             3: "JS QS KS 7H 8H"}),
    ("2-3", {0: "2S 3S 10S JS QS", 1: "4S 5S KS AS 2H", 2: "6S 7S 3H 4H 5H",
             3: "8S 9S 6H 7H 8H"}),
])
def test_deal_in_packets(packets: str, expected: dict[int, str]) -> None:
    state = game({"packets": packets}).new_hand(dealer=DEALER).apply(Deal(pack_cards()))
    for seat, text in expected.items():
        assert state.hands[seat] == mask_of(cards(text))
    # The other 32 cards stay as the stock, in order: the next card of the pack is 9H.
    assert state.stock[0] == parse_card("9H") and len(state.stock) == 32


@pytest.mark.parametrize(("players", "reduced", "lowest"), [
    # 004 L13: reduced packs of 24 for three, 28 for four, 32 for five.
    (3, "extend", "9"), (4, "extend", "8"), (5, "extend", "7"),
    # DEC-071 extend: one more rank for each further player: six play A-6 (36 cards), ten the
    # full pack.
    (6, "extend", "6"), (10, "extend", "2"),
    # DEC-071 alternative: six or more use the full pack.
    (6, "full-pack", "2"), (7, "full-pack", "2"),
])
def test_reduced_pack(players: int, reduced: str, lowest: str) -> None:
    g = Game.create("pagat", players, {"pack": "reduced", "reduced-beyond-five": reduced})
    assert g.pack() == mask_of(pack_cards(lowest))


def test_full_pack_by_default() -> None:
    """004 L13: 'formerly ... the full pack': the default is all 52 cards."""
    assert game().pack().bit_count() == 52


def test_four_made_with_the_reduced_pack() -> None:
    """A hand from the 28-card pack (A-8, 004 L13). Seat 0 holds AS KS QS JS 8H and bids Four;
    seat 1 holds AH KH QH JH 10H, seat 2 8D-QD, seat 3 8C-QC. The four spades win (nobody
    else has one); on 8H seat 1's AH wins. Four tricks: made, 4 from each (L45)."""
    g = game({"pack": "reduced"})
    hands = {0: "AS KS QS JS 8H", 1: "AH KH QH JH 10H", 2: "8D 9D 10D JD QD",
             3: "8C 9C 10C JC QC"}
    state = dealt(g, dealer=DEALER, hands=hands, packets=THREE_TWO, lowest="8")
    assert len(state.stock) == 8  # 28 - 20
    state = apply_all(state, [Bid("four"), Pass(), Pass(), Pass()])
    state = play_tricks(state, ["AS 10H 8D 8C", "KS JH 9D 9C", "QS QH 10D 10C",
                                "JS KH JD JC", "8H AH QD QC"])
    check_settled(state, bid="four", declarer=0, tricks=4, made=True,
                  winners=(0, 0, 0, 0, 1), amount=4)


# --- Between hands: shuffle only after a made Nap or above --------------------------------

def ladder_match(k: int, bid: str) -> MatchState:
    """A three-hand match of pagat, first dealer seat 3, the first pack shuffled into the ladder
    deal with seat 0 holding k spades; seat 0 bids ``bid`` (all pass if "pass") and the
    ladder is played. Returns the match between hands."""
    roles = (" ".join(TOP[:k] + LOW[:5 - k]), " ".join(HOLDER), " ".join(THIRD),
             " ".join(FOURTH))
    pack = build_pack(players=4, dealer=DEALER, hands=rotate(roles, 0), packets=THREE_TWO)
    match = new_match(game(), hands=3).apply(ChooseDealer(DEALER)).apply(Shuffle(pack))
    actions: list[Action] = [Bid(bid) if bid != "pass" else Pass(), Pass(), Pass(), Pass()]
    if bid != "pass":
        for trick in ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH):
            actions += [Play(c) for c in cards(trick)]
    for action in actions:
        match = match.apply(action)
    assert match.phase_name == "prepare"
    return match


@pytest.mark.parametrize(("k", "bid", "shuffle"), [
    # 004 L17: shuffled after a successful Nap (or above) ...
    (5, "nap", True),
    # ... otherwise gathered and cut: after a made Four, and after a failed Nap ('successful').
    (4, "four", False),
    (4, "nap", False),
    # L30: after a throw-in 'the next dealer shuffles'.
    (5, "pass", True),
])
def test_next_pack_shuffled_or_cut(k: int, bid: str, shuffle: bool) -> None:
    match = ladder_match(k, bid)
    assert match.dealer == 0  # L19: the deal passes to the left (NAP-4.1.2)
    assert match.shuffle_next is shuffle
    wrong: Action = Cut(20) if shuffle else Shuffle(pack_cards())
    with pytest.raises(IllegalActionError) as err:
        match.apply(wrong)
    assert err.value.rule == ("NAP-10.2.1" if shuffle else "NAP-10.2.2")


def test_gathered_pack_is_cut_and_dealt() -> None:
    """After a made Four the cards are gathered and cut (004 L17, DEC-075, NAP-10.2.2): the
    five tricks in the order played (20 cards), then the stock, the 32 cards the ladder deal
    left, in card order: 2S-10S, 3H-9H, 7D-AD, 7C-AC. A cut below the top 20 cards puts the
    stock on top. Seat 0 now deals (L19), three then two from seat 1 round to seat 0:
    seat 1 2S 3S 4S, seat 2 5S 6S 7S, seat 3 8S 9S 10S, seat 0 3H 4H 5H; then seat 1 6H 7H,
    seat 2 8H 9H, seat 3 7D 8D, seat 0 9D 10D. The first hand's balances stand: +12 for seat 0,
    -4 for the others (L45)."""
    match = ladder_match(4, "four")
    assert match.balances == (12, -4, -4, -4)
    match = match.apply(Cut(20))
    hand = match.hand
    assert hand is not None and hand.dealer == 0
    expected = {1: "2S 3S 4S 6H 7H", 2: "5S 6S 7S 8H 9H", 3: "8S 9S 10S 7D 8D",
                0: "3H 4H 5H 9D 10D"}
    for seat, text in expected.items():
        assert hand.hands[seat] == mask_of(cards(text)), cards_of(hand.hands[seat])
