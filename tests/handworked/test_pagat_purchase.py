"""Hand-worked hands of Purchase Nap (004_d686e73063261d6b.txt L60, ruleset ``pagat-purchase``).

Every expectation below is worked out by hand from the source (cited as ``004 L..``), the law
book and the decisions register, not read from the engine. Purchase Nap is pagat's standard
game (see test_pagat.py: one round of bidding from the dealer's left, the first card led fixes
trumps, Three 3, Four 4, Nap 5, Wellington 10 units from or to each opponent, Two, Mis and
Blücher as options, doubling of Nap and above as an option; 004 L17-58) with two additions
from 004 L60:

* Before the bidding each player may pay a fixed stake, 1 unit, into a pool, discard any number
  of cards and be given as many replacements from the undealt stock (NAP-6.2.1). DEC-080: in
  turn from the dealer's left, the dealer last, once each; discards are out of the hand.
* The pool is won by a player who bids Nap, Wellington or Blücher and wins five tricks
  (NAP-9.1.2). DEC-082: it is carried from hand to hand until then, and starts again from
  nothing. Nothing else is paid into or out of it: lost contracts are paid to the opponents
  (004 L48), as in the standard game.

The table is four players, dealer seat 3: purchases and the auction begin with seat 0 and end
with the dealer. Cards are dealt three then two (004 L17) from the full pack, so the stock
holds 52 - 20 = 32 cards. The 'ladder' layout is the one of test_pagat.py: the declarer holds k
top spades and 5-k low hearts, the player on their left AH-10H, the next 2D-6D, the last 2C-6C,
and the declarer wins exactly k tricks.
"""

from __future__ import annotations

import pytest
from napkit.engine.actions import (
    Action,
    Bid,
    Buy,
    ChooseDealer,
    Deal,
    Pass,
    Play,
    Reshuffle,
    Shuffle,
)
from napkit.engine.cards import mask_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import POOL
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
    each_pays,
    ladder,
    owed,
    payments,
    pays_each,
    play_tricks,
    rotate,
)

DEALER = 3
THREE_TWO = (3, 2)  # 004 L17, option packets default "3-2"
NO_PURCHASES: list[Action] = [Buy(0)] * 4  # every seat declines to buy and pays nothing
CARRIED = 6  # what the pool holds from earlier hands (DEC-082) in the contract tests


def game(options: dict[str, str] | None = None) -> Game:
    return Game.create("pagat-purchase", 4, options or {})


def buy(text: str) -> Buy:
    """Discard these cards and buy as many (NAP-6.2.1)."""
    return Buy(mask_of(cards(text)))


def deal(g: Game, hands: dict[int, str], *, stock: str = "", pool: int = 0,
         lowest: str = "2") -> HandState:
    """A hand dealt by seat 3 with ``stock`` on top of the undealt cards, checked."""
    pack = build_pack(players=4, dealer=DEALER, hands=hands, packets=THREE_TWO, stock=stock,
                      lowest=lowest)
    state = g.new_hand(dealer=DEALER, pool=pool).apply(Deal(pack))
    for seat, text in hands.items():
        assert state.hands[seat] == mask_of(cards(text)), f"seat {seat} was dealt otherwise"
    return state


def ladder_roles(k: int) -> tuple[str, str, str, str]:
    return (" ".join(TOP[:k] + LOW[:5 - k]), " ".join(HOLDER), " ".join(THIRD),
            " ".join(FOURTH))


def ladder_hand(g: Game, declarer: int, k: int, pool: int) -> tuple[HandState, list[str]]:
    state = deal(g, rotate(ladder_roles(k), declarer), pool=pool)
    return state, ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH)


# (options, bid, auction from seat 0 to the dealer, declarer, k, made, amount, wins pool)
CASES = [
    # Two (option, 004 L54): 2 units; made with 2 tricks, failed with 1. Not a pool bid (L60).
    ({"two": "on"}, "two", [Bid("two"), Pass(), Pass(), Pass()], 0, 2, True, 2, False),
    ({"two": "on"}, "two", [Pass(), Bid("two"), Pass(), Pass()], 1, 1, False, 2, False),
    # Three (L44): a made Three wins 3 each but not the pool, which L60 gives to Nap or above.
    ({}, "three", [Bid("three"), Pass(), Pass(), Pass()], 0, 3, True, 3, False),
    ({}, "three", [Pass(), Pass(), Bid("three"), Pass()], 2, 2, False, 3, False),
    # Mis (option, L55): 3 units; made with no trick (ladder k=0), failed with one (k=1).
    ({"mis": "on"}, "mis", [Bid("three"), Bid("mis"), Pass(), Pass()], 1, 0, True, 3, False),
    ({"mis": "on"}, "mis", [Bid("mis"), Pass(), Pass(), Pass()], 0, 1, False, 3, False),
    # Four (L45): 4 tricks made, 3 failed; not a pool bid.
    ({}, "four", [Pass(), Pass(), Pass(), Bid("four")], 3, 4, True, 4, False),
    ({}, "four", [Bid("four"), Pass(), Pass(), Pass()], 0, 3, False, 4, False),
    # Nap (L46, L60): five tricks win 5 each and the pool; four tricks pay 5 each and leave
    # the pool where it is (L48 pays the opponents, nothing goes into or out of the pool).
    ({}, "nap", [Bid("nap"), Pass(), Pass(), Pass()], 0, 5, True, 5, True),
    ({}, "nap", [Bid("four"), Bid("nap"), Pass(), Pass()], 1, 4, False, 5, False),
    # Wellington (L47, L28: after a Nap; L60 names it): 10 each and the pool.
    ({}, "wellington", [Bid("nap"), Bid("wellington"), Pass(), Pass()], 1, 5, True, 10, True),
    ({}, "wellington", [Pass(), Pass(), Bid("nap"), Bid("wellington")], 3, 4, False, 10,
     False),
    # Blücher (option, L56, after a Wellington; L60 names it): 20 each and the pool.
    ({"blucher": "on"}, "blucher", [Bid("nap"), Bid("wellington"), Bid("blucher"), Pass()],
     2, 5, True, 20, True),
    ({"blucher": "on"}, "blucher", [Pass(), Bid("nap"), Bid("wellington"), Bid("blucher")],
     3, 0, False, 20, False),
]


def expected_payments(declarer: int, made: bool, amount: int,
                      pool_won: int) -> list[tuple[int, int, int, str]]:
    opponents = [s for s in range(4) if s != declarer]
    if made:
        out = each_pays(opponents, declarer, amount, "NAP-9.1.1")
    else:
        out = pays_each(declarer, opponents, amount, "NAP-9.2.1")
    if pool_won:
        out.append((POOL, declarer, pool_won, "NAP-9.1.2"))
    return out


@pytest.mark.parametrize(
    ("options", "bid", "auction", "declarer", "k", "made", "amount", "wins_pool"), CASES)
def test_contract(options: dict[str, str], bid: str, auction: list[Action], declarer: int,
                  k: int, made: bool, amount: int, wins_pool: bool) -> None:
    """Nobody buys; the pool holds 6 from earlier hands. The declarer's k tricks decide the
    contract (NAP-8.3.2); the pool goes to a made Nap, Wellington or Blücher (L60) and is
    then empty (NAP-9.1.2), else it still holds 6 after the hand (DEC-082)."""
    state, tricks = ladder_hand(game(options), declarer, k, CARRIED)
    state = apply_all(state, NO_PURCHASES)
    assert state.pool == CARRIED  # buying nothing pays nothing (NAP-6.2.1)
    state = apply_all(state, auction)
    assert state.declarer == declarer and state.turn == declarer  # L34
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.contract == bid
    assert result.tricks == k
    assert result.made is made
    left = (declarer + 1) % 4
    assert result.trick_winners == (declarer,) * k + (left,) * (5 - k)
    pool_won = CARRIED if wins_pool else 0
    assert payments(state) == owed(*expected_payments(declarer, made, amount, pool_won))
    assert result.pool == CARRIED - pool_won
    sign = 1 if made else -1
    assert result.net[declarer] == sign * 3 * amount + pool_won
    assert all(result.net[s] == -sign * amount for s in range(4) if s != declarer)


@pytest.mark.parametrize(("doubling", "made", "amount"), [
    # 004 L58 for Nap: none 5 both ways; won 10 won, 5 lost; won-and-lost 10 both ways. The
    # pool goes to the made Nap whatever the doubling (L60).
    ("none", True, 5), ("none", False, 5),
    ("won", True, 10), ("won", False, 5),
    ("won-and-lost", True, 10), ("won-and-lost", False, 10),
])
def test_nap_doubling(doubling: str, made: bool, amount: int) -> None:
    k = 5 if made else 4
    state, tricks = ladder_hand(game({"doubling": doubling}), 0, k, CARRIED)
    state = apply_all(state, NO_PURCHASES + [Bid("nap"), Pass(), Pass(), Pass()])
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and result.made is made and result.tricks == k
    pool_won = CARRIED if made else 0
    assert payments(state) == owed(*expected_payments(0, made, amount, pool_won))
    assert result.pool == CARRIED - pool_won


# --- Purchases ---------------------------------------------------------------------------

# Seat 0 holds four top spades and 2H; the stock's top cards are 10S, 7D, 8D, 3H.
BUYING = {0: "AS KS QS JS 2H", 1: "AH KH QH JH 10H", 2: "2D 3D 4D 5D 6D",
          3: "2C 3C 4C 5C 6C"}


def test_purchase_makes_nap_and_wins_the_pool() -> None:
    """004 L60 with DEC-080. The pool starts empty. In turn from the dealer's left:
    seat 0 pays 1 and discards 2H, getting the stock's top card, 10S: five spades.
    Seat 1 buys nothing (pays nothing). Seat 2 pays 1, discards 2D 3D and gets the next two,
    7D 8D: the same 1 unit for two cards as for one (NAP-6.2.1 'the same whatever the number').
    Seat 3 buys nothing. The pool holds 2.
    Seat 0 bids Nap and leads its spades, which nobody can follow or beat: five tricks. Each
    opponent pays 5 (L46) and seat 0 takes the pool, 2 (L60, NAP-9.1.2), which is then empty.
    Net: seat 0 -1 + 15 + 2 = +16; seat 2 -1 - 5 = -6; seats 1 and 3 -5."""
    state = deal(game(), BUYING, stock="10S 7D 8D 3H")
    assert state.phase_name == "purchase" and state.turn == 0
    # Any number of the five cards may be discarded, none included: 2**5 choices.
    assert len(state.legal_actions()) == 32
    state = state.apply(buy("2H"))
    assert state.hands[0] == mask_of(cards("AS KS QS JS 10S"))
    assert state.turn == 1 and state.pool == 1
    state = apply_all(state, [Buy(0), buy("2D 3D")])
    assert state.hands[2] == mask_of(cards("4D 5D 6D 7D 8D"))
    assert state.pool == 2
    state = state.apply(Buy(0))
    # The dealer was the last to buy; the auction begins on the dealer's left.
    assert state.phase_name == "auction" and state.turn == 0
    assert set(state.discards) == set(cards("2H 2D 3D"))  # out of play (DEC-080)
    state = apply_all(state, [Bid("nap"), Pass(), Pass(), Pass()])
    state = play_tricks(state, ["AS 10H 4D 2C", "KS JH 5D 3C", "QS QH 6D 4C", "JS KH 7D 5C",
                                "10S AH 8D 6C"])
    result = state.result
    assert result is not None and result.made is True and result.tricks == 5
    assert result.trick_winners == (0,) * 5
    assert payments(state) == owed(
        (0, POOL, 1, "NAP-6.2.1"), (2, POOL, 1, "NAP-6.2.1"),
        *each_pays([1, 2, 3], 0, 5, "NAP-9.1.1"), (POOL, 0, 2, "NAP-9.1.2"))
    assert result.net == (16, -5, -6, -5)
    assert result.pool == 0


def test_purchase_fails_and_the_pool_is_carried() -> None:
    """The same seats, but the stock's top card is 3H: seat 0 discards 2H and gets 3H, still a
    losing heart. The pool held 3 from earlier hands; seat 0's purchase makes it 4 (L60).
    Seat 0 bids Nap anyway: four spades win, then on 3H seat 1's AH wins (L36). Four tricks:
    Nap fails and seat 0 pays 5 to each (L46, L48). The pool is not won and is carried
    (DEC-082): 4 after the hand. Net: seat 0 -1 - 15 = -16, the others +5."""
    state = deal(game(), BUYING, stock="3H", pool=3)
    state = apply_all(state, [buy("2H"), Buy(0), Buy(0), Buy(0)])
    assert state.hands[0] == mask_of(cards("AS KS QS JS 3H"))
    state = apply_all(state, [Bid("nap"), Pass(), Pass(), Pass()])
    state = play_tricks(state, ["AS 10H 2D 2C", "KS JH 3D 3C", "QS QH 4D 4C", "JS KH 5D 5C",
                                "3H AH 6D 6C"])
    result = state.result
    assert result is not None and result.made is False and result.tricks == 4
    assert result.trick_winners == (0, 0, 0, 0, 1)
    assert payments(state) == owed((0, POOL, 1, "NAP-6.2.1"),
                                   *pays_each(0, [1, 2, 3], 5, "NAP-9.2.1"))
    assert result.net == (-16, 5, 5, 5)
    assert result.pool == 4


@pytest.mark.parametrize(("action", "rule"), [
    # DEC-080: purchases come before the bidding; seat 0 may not bid yet.
    (Bid("three"), "NAP-6.2.1"),
    (Pass(), "NAP-6.2.1"),
    # One may discard only cards one holds (NAP-1.3.2): seat 0 has no AH (seat 1 has).
    (Buy(mask_of(cards("AH"))), "NAP-1.3.2"),
])
def test_illegal_purchase(action: Action, rule: str) -> None:
    state = deal(game(), BUYING)
    with pytest.raises(IllegalActionError) as err:
        state.apply(action)
    assert err.value.rule == rule


def test_each_player_buys_once_in_turn() -> None:
    """DEC-080: in turn from the dealer's left, once each. After seat 0 buys, the turn is seat
    1's, and after the dealer's turn the purchases are over: nobody buys a second time."""
    state = deal(game(), BUYING, stock="10S")
    state = state.apply(buy("2H"))
    assert state.turn == 1
    state = apply_all(state, [Buy(0), Buy(0), Buy(0)])
    assert state.phase_name == "auction"
    assert not any(isinstance(a, Buy) for a in state.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        state.apply(buy("AS"))
    assert err.value.rule == "NAP-5.2.1"  # the auction's turn: pass or bid


# --- Short stock (DEC-081) ----------------------------------------------------------------

# The 28-card pack for four (A-8, 004 L13): 20 cards dealt, 8 left in the stock, in card order:
# 8S 9S 8H 9H 8D 9D 8C 9C. Seat 0 buys five (AS-10S for 8S 9S 8H 9H 8D), seat 1 two (AH KH
# for 9D 8C): one card, 9C, is left when seat 2 wants three.
SHORT = {0: "AS KS QS JS 10S", 1: "AH KH QH JH 10H", 2: "AD KD QD JD 10D",
         3: "AC KC QC JC 10C"}


def short_stock(option: str) -> HandState:
    state = deal(game({"pack": "reduced", "short-stock": option}), SHORT, lowest="8")
    assert state.stock == cards("8S 9S 8H 9H 8D 9D 8C 9C")
    state = apply_all(state, [buy("AS KS QS JS 10S"), buy("AH KH")])
    assert state.hands[0] == mask_of(cards("8S 9S 8H 9H 8D"))
    assert state.hands[1] == mask_of(cards("QH JH 10H 9D 8C"))
    assert state.stock == cards("9C")
    return state


def test_short_stock_limit() -> None:
    """DEC-081 default ``limit``: a player may discard no more cards than the stock holds.
    With one card left, seat 2 may buy nothing or discard one of its five (6 choices); three
    are refused by NAP-6.2.2. It buys one, AD for 9C; the stock is empty, so seat 3 may only
    buy nothing. Three purchases: the pool holds 3."""
    state = short_stock("limit")
    assert set(state.legal_actions()) == {Buy(0)} | {buy(c) for c in SHORT[2].split()}
    with pytest.raises(IllegalActionError) as err:
        state.apply(buy("AD KD QD"))
    assert err.value.rule == "NAP-6.2.2"
    state = state.apply(buy("AD"))
    assert state.hands[2] == mask_of(cards("KD QD JD 10D 9C"))
    assert state.legal_actions() == (Buy(0),)
    state = state.apply(Buy(0))
    assert state.phase_name == "auction" and state.pool == 3


def test_short_stock_reshuffle_discards() -> None:
    """DEC-081 ``reshuffle-discards``: when the stock runs out, the cards discarded so far are
    shuffled into a new stock. Seat 2 discards AD KD QD and gets 9C, the last card; the seven
    cards discarded before this purchase (AS KS QS JS 10S AH KH, not seat 2's own three,
    NAP-6.2.2 'before this purchase') are shuffled; say they come KH AS 10S KS QS JS AH. Seat
    2 gets the first two, KH AS. The new stock is 10S KS QS JS AH, and the discards are now
    seat 2's three. Seat 3 discards 10C and gets 10S. Four purchases: the pool holds 4.
    Nobody bids: the hand is thrown in (L30), the purchases stay paid and the pool is carried
    (DEC-082)."""
    state = short_stock("reshuffle-discards")
    state = state.apply(buy("AD KD QD"))
    assert state.is_chance()
    # Seat 2's own discards are not among the cards to reshuffle.
    with pytest.raises(IllegalActionError) as err:
        state.apply(Reshuffle(cards("KH AS 10S KS QS JS AD")))
    assert err.value.rule == "NAP-6.2.2"
    state = state.apply(Reshuffle(cards("KH AS 10S KS QS JS AH")))
    assert state.hands[2] == mask_of(cards("JD 10D 9C KH AS"))
    assert state.stock == cards("10S KS QS JS AH")
    assert set(state.discards) == set(cards("AD KD QD"))
    assert state.turn == 3
    state = state.apply(buy("10C"))
    assert state.hands[3] == mask_of(cards("AC KC QC JC 10S"))
    state = apply_all(state, [Pass(), Pass(), Pass(), Pass()])
    result = state.result
    assert result is not None and result.thrown_in
    assert payments(state) == owed(*[(s, POOL, 1, "NAP-6.2.1") for s in range(4)])
    assert result.net == (-1, -1, -1, -1) and result.pool == 4


# --- The pool across a match --------------------------------------------------------------

def run(match: MatchState, actions: list[Action]) -> MatchState:
    for action in actions:
        match = match.apply(action)
    return match


def first_hand(g: Game, hands: int, buyers: int) -> MatchState:
    """A match of ``hands`` hands, dealer seat 3, the first pack shuffled into the ladder deal
    (k=5 for seat 0). The first ``buyers`` seats from the dealer's left each buy one card,
    paying 1 into the pool; then everyone passes and the hand is thrown in (L30)."""
    pack = build_pack(players=4, dealer=DEALER, hands=rotate(ladder_roles(5), 0),
                      packets=THREE_TWO)
    match = run(new_match(g, hands=hands), [ChooseDealer(DEALER), Shuffle(pack)])
    first = ("10S", "10H", "6D", "6C")  # one card of each seat's hand: seat 0 to seat 3
    purchases: list[Action] = [buy(first[s]) if s < buyers else Buy(0) for s in range(4)]
    return run(match, purchases + [Pass()] * 4)


def test_pool_carried_to_the_next_hand_and_won() -> None:
    """DEC-082: the pool is carried until a Nap or above is made (L60).
    Hand 1: all four buy (4 into the pool) and all pass: thrown in, the pool keeps 4.
    Hand 2 (seat 0 deals, L19; shuffled after a throw-in, L30): seat 1 holds the five top
    spades, nobody buys, seat 1 bids Nap and takes all five tricks: 5 from each (L46) and the
    pool's 4 (NAP-9.1.2). Balances: -1 each after hand 1; then seat 1 +15 + 4 = +18, the others
    -6. The units add up to zero and the pool is empty (NAP-9.3.1: it belongs to no one)."""
    match = first_hand(game(), 2, 4)
    assert match.pool == 4 and match.balances == (-1, -1, -1, -1)
    assert match.dealer == 0 and match.shuffle_next
    pack = build_pack(players=4, dealer=0, hands=rotate(ladder_roles(5), 1), packets=THREE_TWO)
    match = match.apply(Shuffle(pack))
    hand = match.hand
    assert hand is not None and hand.pool == 4
    tricks = ladder(TOP, (), HOLDER, (), THIRD, FOURTH)
    auction: list[Action] = [Bid("nap"), Pass(), Pass(), Pass()]
    plays: list[Action] = [Play(c) for trick in tricks for c in cards(trick)]
    match = run(match, NO_PURCHASES + auction + plays)
    result = match.result
    assert match.is_over() and result is not None
    last = match.hands[-1].result
    assert last is not None and last.made is True and last.declarer == 1
    assert result.balances == (-6, 18, -6, -6)
    assert result.pool == 0 and sum(result.balances) == 0
    assert result.winners == (1,)


@pytest.mark.parametrize(("option", "buyers", "balances", "left"), [
    # DEC-083 default: what is in the pool when play stops belongs to nobody; 4 bought, each
    # is -1 and 4 stay in the pool; all four tie for the highest balance (NAP-10.4.3).
    ("unclaimed", 4, (-1, -1, -1, -1), 4),
    # split-equally: 4 units among 4 players, 1 each; nothing left.
    ("split-equally", 4, (0, 0, 0, 0), 0),
    # 3 units among 4: a share of 0; the remainder, all 3, stays unclaimed (NAP-9.3.2).
    ("split-equally", 3, (-1, -1, -1, 0), 3),
])
def test_pool_at_match_end(option: str, buyers: int, balances: tuple[int, ...],
                           left: int) -> None:
    match = first_hand(game({"pool-at-end": option}), 1, buyers)
    result = match.result
    assert match.is_over() and result is not None
    assert result.balances == balances
    assert result.pool == left
    best = max(balances)
    assert result.winners == tuple(s for s in range(4) if balances[s] == best)
