"""Hand-worked hands of Peep Nap (001_311e7c0f07a8af84.txt, ruleset ``peep``).

Every expectation below is worked out by hand from the source, the law book and the decisions
register, not read from the engine. The table is four players, dealer seat 3, so the auction
and the deal begin with seat 0 and end with the dealer (DEC-011 default ``single``: one round
from the dealer's left; NAP-5.1.1). Cards go two, then three (001 L16, DEC-013 default
``2-3``), from the full pack (L5), and one face-down widow is dealt after the hands (L16).

Each player antes one chip to the pot before the deal (L16); the antes are taken by the match,
so a single hand here starts with the pot holding the four antes (``pool=4``).

Peep Nap's differences from the classic game, each tested below:

* a player may pay one chip into the pot to look at the widow before bidding (L20,
  NAP-6.1.1); the dealer too pays (no free look);
* the high bidder may exchange one card with the widow, whatever the bid (L22, NAP-6.3.1,
  ``may``), before naming trumps (DEC-016, NAP-6.3.2);
* the declarer names trumps (L22, NAP-7.1.2), a suit they hold (DEC-015 default
  ``held-suit``), and must lead a trump to the first trick (L25, NAP-7.2.2 ``trump``);
* every bid is paid by or to each player at its number of tricks (L33, L35); a made Nap also
  takes the pot, a failed one pays everyone and doubles the pot (L37, NAP-9.1.2, NAP-9.2.3).

The 'ladder' layout (tests/handworked/deals.py): the declarer holds k top spades and 5-k low
hearts (2H upwards); the player on their left holds AH KH QH JH 10H, the next 2D-6D, the last
2C-6C; the widow is the 7C, which nobody holds. The declarer leaves the widow, names spades
and leads them: nobody else has a spade, so each wins (NAP-8.2.1); on the low hearts the
left-hand player's higher hearts win. So the declarer takes exactly k tricks. With k = 0 the
declarer holds only hearts, names hearts and leads the 2H, and the left-hand player's higher
hearts (trumps now) take every trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from napkit.engine.actions import (
    Action,
    Bid,
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
PACKETS = (2, 3)  # 001 L16, DEC-013 default 2-3
ANTES = 4  # one chip from each of the four players (001 L16)
WIDOW = "7C"
PASS4 = [Pass(), Pass(), Pass(), Pass()]


def game(**options: str) -> Game:
    return Game.create("peep", 4, options)


def roles(declarer: int, k: int) -> dict[int, str]:
    """The ladder's hands, the declarer at ``declarer`` holding k top spades."""
    return rotate((" ".join(TOP[:k] + LOW[:5 - k]), " ".join(HOLDER), " ".join(THIRD),
                   " ".join(FOURTH)), declarer)


def ladder_hand(declarer: int, k: int, g: Game | None = None,
                pool: int = ANTES) -> tuple[HandState, list[str]]:
    state = dealt(g or game(), dealer=DEALER, hands=roles(declarer, k), packets=PACKETS,
                  widow=WIDOW, pool=pool)
    return state, ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH)


def with_funds(g: Game, hands: Mapping[int, str], funds: tuple[int, ...],
               pool: int = ANTES) -> HandState:
    """A hand dealt to players holding ``funds`` chips (a match with a fixed stock, L1)."""
    from napkit.engine.actions import Deal

    pack = build_pack(players=4, dealer=DEALER, hands=hands, packets=PACKETS, widow=WIDOW)
    state = g.new_hand(dealer=DEALER, pool=pool, funds=funds).apply(Deal(pack))
    assert state.hands[0] == mask_of(cards(hands[0]))
    return state


def after_auction(state: HandState, auction: list[Action], trumps: int) -> HandState:
    """The auction, the declarer leaving the widow (L22 'may'), and trumps named (L22)."""
    state = apply_all(state, auction)
    return apply_all(state, [LeaveWidow(), NameTrumps(trumps)])


def contract(bid: str, declarer: int, k: int, made: bool, stake: int
             ) -> list[tuple[int, int, int, str]]:
    """The payments of the ladder hand on ``bid`` with a pot of ANTES (L33, L35, L37)."""
    opponents = [s for s in range(4) if s != declarer]
    if made:
        out = each_pays(opponents, declarer, stake, "NAP-9.1.1")
        if bid == "nap":  # L37: a made Nap collects the pot as well (NAP-9.1.2)
            out.append((POOL, declarer, ANTES, "NAP-9.1.2"))
        return out
    out = pays_each(declarer, opponents, stake, "NAP-9.2.1")
    if bid == "nap":  # L37, DEC-017 default: the declarer pays in as much as the pot holds
        out.append((declarer, POOL, ANTES, "NAP-9.2.3"))
    return out


# (bid, the auction from seat 0 to the dealer, declarer, k, made, stake)
CASES = [
    # DEC-010 default 'one': bids of 1 to 5. L33: the bid is paid by each player, so a made
    # One wins 1 chip from each of three; k=1 -> 1 trick.
    ("one", [Bid("one"), Pass(), Pass(), Pass()], 0, 1, True, 1),
    # k=0: the declarer takes no trick, below one -> L35: pays 1 to each player.
    ("one", [Bid("one"), Pass(), Pass(), Pass()], 0, 0, False, 1),
    # Two: k=2 made (+2 from each); k=1 < 2 lost (2 to each).
    ("two", [Pass(), Bid("two"), Pass(), Pass()], 1, 2, True, 2),
    ("two", [Pass(), Bid("two"), Pass(), Pass()], 1, 1, False, 2),
    # Three: L33's own example: bid 3, take 4, paid only 3 from each player.
    ("three", [Bid("three"), Pass(), Pass(), Pass()], 0, 3, True, 3),
    ("three", [Bid("three"), Pass(), Pass(), Pass()], 0, 4, True, 3),
    # L35's own example: bid 3, take 2, pay 3 to each player.
    ("three", [Bid("two"), Bid("three"), Pass(), Pass()], 1, 2, False, 3),
    # Four: k=4 made, 4 from each; k=3 lost, 4 to each.
    ("four", [Pass(), Pass(), Bid("four"), Pass()], 2, 4, True, 4),
    ("four", [Bid("three"), Pass(), Pass(), Bid("four")], 3, 3, False, 4),
    # Nap (L20: a bid of five): all five tricks; paid 5 by each (L33) and the pot of 4 (L37)
    # -> the pot is empty after the hand.
    ("nap", [Bid("four"), Bid("nap"), Pass(), Pass()], 1, 5, True, 5),
    # k=4: Nap fails; 5 to each (L35, L37) and the pot doubled by the declarer (DEC-017): the
    # declarer pays 4 in, the pot holds 8.
    ("nap", [Bid("nap"), Pass(), Pass(), Pass()], 0, 4, False, 5),
]


@pytest.mark.parametrize(("bid", "auction", "declarer", "k", "made", "stake"), CASES)
def test_contract(bid: str, auction: list[Action], declarer: int, k: int, made: bool,
                  stake: int) -> None:
    state, tricks = ladder_hand(declarer, k)
    state = apply_all(state, auction)
    assert state.declarer == declarer  # NAP-5.3.1: the highest bidder
    state = apply_all(state, [LeaveWidow(), NameTrumps(SPADES if k else HEARTS)])
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.contract == bid
    assert result.tricks == k
    assert result.made is made
    left = (declarer + 1) % 4
    assert result.trick_winners == (declarer,) * k + (left,) * (5 - k)
    assert payments(state) == owed(*contract(bid, declarer, k, made, stake))
    sign = 1 if made else -1
    pot_share = ANTES if bid == "nap" else 0
    assert result.net[declarer] == sign * (3 * stake + pot_share)
    assert all(result.net[s] == -sign * stake for s in range(4) if s != declarer)
    if bid != "nap":
        assert result.pool == ANTES  # only a Nap touches the pot (L37)
    else:
        assert result.pool == (0 if made else 2 * ANTES)


@pytest.mark.parametrize("made", [True, False])
def test_failed_nap_players_re_ante(made: bool) -> None:
    """DEC-017 alternative ``players-re-ante``: the pot is doubled by every player paying the
    ante (1, L16) again, the declarer included (NAP-9.2.3). A pot of the four antes becomes 8;
    the declarer's loss is 5 to each (L37) plus its own chip: -16; each opponent +5 - 1 = +4.
    A made Nap is unchanged by the option: +15 and the pot of 4."""
    g = game(**{"pot-doubling": "players-re-ante"})
    state, tricks = ladder_hand(0, 5 if made else 4, g)
    state = after_auction(state, [Bid("nap"), Pass(), Pass(), Pass()], SPADES)
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and result.made is made
    if made:
        assert payments(state) == owed(*contract("nap", 0, 5, True, 5))
        assert result.pool == 0 and result.net[0] == 19
    else:
        assert payments(state) == owed(*pays_each(0, [1, 2, 3], 5, "NAP-9.2.1"),
                                       *each_pays([1, 2, 3, 0], POOL, 1, "NAP-9.2.3"))
        assert result.pool == 8
        assert result.net == (-16, 4, 4, 4)


def test_peeks_are_paid_into_the_pot_and_a_made_nap_takes_them() -> None:
    """L20: before bidding a player may pay one more chip into the pot and look at the widow
    (NAP-6.1.1); the dealer has no free look here and pays like anyone (peek.dealer 'pays').

    Seat 0 peeks (pot 4 -> 5) and, still at its turn, bids Nap; seat 1 peeks and passes
    (pot 6), seat 2 passes without looking, the dealer peeks (pot 7) and passes. Seat 0 takes
    all five: 5 from each (L33), and the pot of 7 (L37). Net: seat 0 +15 + 7 - 1 = +21; seats 1
    and 3 -5 - 1 = -6; seat 2 -5."""
    state, tricks = ladder_hand(0, 5)
    state = state.apply(Peek())
    assert state.turn == 0 and state.pool == ANTES + 1
    assert Peek() not in state.legal_actions()  # one look a hand: seat 0 has seen the widow
    state = apply_all(state, [Bid("nap"), Peek(), Pass(), Pass()])
    assert Peek() in state.legal_actions()  # the dealer may buy a look too (no free look)
    state = apply_all(state, [Peek(), Pass(), LeaveWidow(), NameTrumps(SPADES)])
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and result.made
    looks = [(0, POOL, 1, "NAP-6.1.1"), (1, POOL, 1, "NAP-6.1.1"), (3, POOL, 1, "NAP-6.1.1")]
    assert payments(state) == owed(*looks, *each_pays([1, 2, 3], 0, 5, "NAP-9.1.1"),
                                   (POOL, 0, 7, "NAP-9.1.2"))
    assert result.net == (21, -6, -5, -6)
    assert result.pool == 0


def test_failed_nap_doubles_the_pot_as_it_stands_with_the_looks() -> None:
    """NAP-9.2.3: the pot is made twice as large as it was when the hand was settled. One look
    by seat 1 makes it 4 + 1 = 5; seat 0 fails Nap (k=4): 5 to each (L37) and 5 into the pot
    (DEC-017), which ends with 10."""
    state, tricks = ladder_hand(0, 4)
    state = apply_all(state, [Bid("nap"), Peek(), Pass(), Pass(), Pass()])
    state = apply_all(state, [LeaveWidow(), NameTrumps(SPADES)])
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and result.made is False and result.tricks == 4
    assert payments(state) == owed((1, POOL, 1, "NAP-6.1.1"),
                                   *pays_each(0, [1, 2, 3], 5, "NAP-9.2.1"),
                                   (0, POOL, 5, "NAP-9.2.3"))
    assert result.pool == 10
    assert result.net == (-20, 4, 5, 5)


def test_a_look_only_once_and_only_with_a_chip() -> None:
    """NAP-6.1.1: a player looks at most once a hand; one who has no chip to pay cannot look
    (DEC-019: a look a player cannot afford may not be bought)."""
    state, _ = ladder_hand(0, 3)
    state = state.apply(Peek())
    with pytest.raises(IllegalActionError) as err:
        state.apply(Peek())
    assert err.value.rule == "NAP-6.1.1"
    broke = with_funds(game(), roles(0, 3), funds=(0, 5, 5, 5))
    assert Peek() not in broke.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        broke.apply(Peek())
    assert err.value.rule == "NAP-6.1.1"
    # Looking commits to nothing: seat 1, after a look, may still pass (NAP-6.1.1).
    state = apply_all(state, [Pass(), Peek()])
    assert Pass() in state.legal_actions()


def test_exchange_improves_the_hand_before_trumps_are_named() -> None:
    """L22: the high bidder may exchange one card with the widow (NAP-6.3.1, whatever the bid:
    exchange 'any-contract'); DEC-016: the exchange comes first, then trumps are named
    (NAP-6.3.2).

    Seat 0 holds AS KS QS 2H 3H and bids four; the widow is the JS. Taking it and discarding
    the 2H gives AS KS QS JS 3H: spades named and led, four tricks, the 3H lost to seat 1's
    hearts. Four made: 4 from each of three (L33). The discard leaves the game (NAP-6.3.1)."""
    hands = rotate(("AS KS QS 2H 3H", " ".join(HOLDER), " ".join(THIRD), " ".join(FOURTH)), 0)
    state = dealt(game(), dealer=DEALER, hands=hands, packets=PACKETS, widow="JS", pool=ANTES)
    state = apply_all(state, [Bid("four"), Pass(), Pass(), Pass()])
    assert set(state.legal_actions()) == {TakeWidow(), LeaveWidow()}
    state = state.apply(TakeWidow())
    assert state.hands[0] == mask_of(cards("AS KS QS JS 2H 3H"))
    state = state.apply(Discard(parse_card("2H")))
    assert state.discards == (parse_card("2H"),)
    state = state.apply(NameTrumps(SPADES))
    state = play_tricks(state, ladder(TOP[:4], ("3H",), HOLDER, (), THIRD, FOURTH))
    result = state.result
    assert result is not None and result.made and result.tricks == 4
    assert result.trick_winners == (0, 0, 0, 0, 1)
    assert payments(state) == owed(*each_pays([1, 2, 3], 0, 4, "NAP-9.1.1"))
    assert result.pool == ANTES


def test_exchange_may_give_back_the_widow_itself() -> None:
    """NAP-6.3.1 'may': the card discarded after taking the widow may be the widow itself, so
    the declarer ends with the five cards dealt."""
    state, _ = ladder_hand(0, 3)
    state = apply_all(state, [Bid("three"), Pass(), Pass(), Pass(), TakeWidow()])
    assert Discard(parse_card(WIDOW)) in state.legal_actions()
    state = state.apply(Discard(parse_card(WIDOW)))
    assert state.hands[0] == mask_of(cards("AS KS QS 2H 3H"))


def test_exchange_then_name_a_suit_only_the_widow_gave() -> None:
    """DEC-016 (exchange, then name) with DEC-015 (name a held suit): seat 0, void in clubs,
    takes the widow 7C and discards the 2H; clubs are now held, so clubs may be named, and
    then the 7C, the only club, is the only card that meets L25's trump lead."""
    state, _ = ladder_hand(0, 3)  # AS KS QS 2H 3H
    state = apply_all(state, [Bid("three"), Pass(), Pass(), Pass()])
    before = state.apply(LeaveWidow())
    assert NameTrumps(CLUBS) not in before.legal_actions()
    state = apply_all(state, [TakeWidow(), Discard(parse_card("2H"))])
    assert set(state.legal_actions()) == {NameTrumps(SPADES), NameTrumps(HEARTS),
                                          NameTrumps(CLUBS)}
    state = state.apply(NameTrumps(CLUBS))
    assert state.legal_actions() == (Play(parse_card("7C")),)


def test_named_suit_must_be_held_and_a_trump_led() -> None:
    """DEC-015 default 'held-suit': trumps must be a suit the declarer holds (NAP-7.1.2); L25:
    the first lead must be a trump (NAP-7.2.2)."""
    state, _ = ladder_hand(0, 3)  # AS KS QS 2H 3H
    state = apply_all(state, [Bid("three"), Pass(), Pass(), Pass(), LeaveWidow()])
    assert set(state.legal_actions()) == {NameTrumps(SPADES), NameTrumps(HEARTS)}
    with pytest.raises(IllegalActionError) as err:
        state.apply(NameTrumps(DIAMONDS))
    assert err.value.rule == "NAP-7.1.2"
    hearts = state.apply(NameTrumps(HEARTS))
    assert set(hearts.legal_actions()) == {Play(parse_card("2H")), Play(parse_card("3H"))}
    with pytest.raises(IllegalActionError) as err:
        hearts.apply(Play(parse_card("AS")))
    assert err.value.rule == "NAP-7.2.2"
    # The obligation binds the first lead only: seat 1's AH wins the first trick and it may
    # lead any card it holds (L27, NAP-8.1.3).
    after = play_tricks(hearts, ["2H AH 2D 2C"])
    assert after.turn == 1
    assert set(after.legal_actions()) == {Play(c) for c in cards("KH QH JH 10H")}


def test_a_void_suit_named_lifts_the_lead_obligation() -> None:
    """DEC-015 alternative 'any-suit': any suit may be named; holding none of it, the
    declarer's obligation to lead a trump lapses (NAP-7.2.4) and any card may be led."""
    state, _ = ladder_hand(0, 3, game(naming="any-suit"))
    state = apply_all(state, [Bid("three"), Pass(), Pass(), Pass(), LeaveWidow()])
    assert len(state.legal_actions()) == 4
    state = state.apply(NameTrumps(DIAMONDS))
    assert set(state.legal_actions()) == {Play(c) for c in cards("AS KS QS 2H 3H")}


@pytest.mark.parametrize(("choice", "bids"), [
    # DEC-010: the lowest bid is one (default), two or three; Nap is always five (L20).
    ("one", ["one", "two", "three", "four", "nap"]),
    ("two", ["two", "three", "four", "nap"]),
    ("three", ["three", "four", "nap"]),
])
def test_lowest_bid(choice: str, bids: list[str]) -> None:
    state, _ = ladder_hand(0, 3, game(**{"lowest-bid": choice}))
    assert [a.bid for a in state.legal_actions() if isinstance(a, Bid)] == bids
    if choice != "one":
        with pytest.raises(IllegalActionError) as err:
            state.apply(Bid("one"))
        assert err.value.rule == "NAP-5.2.2"


def test_single_round_auction() -> None:
    """DEC-011 default 'single': one round from the dealer's left, each bid above the last
    (NAP-5.2.1); after the dealer speaks the auction is over."""
    state, _ = ladder_hand(0, 3)
    state = apply_all(state, [Bid("two"), Bid("three")])
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("three"))
    assert err.value.rule == "NAP-5.2.1"
    state = apply_all(state, [Pass(), Pass()])
    # Seat 0, outbid, does not speak again: seat 1 is the declarer on three.
    assert state.declarer == 1 and state.contract_bid is not None
    assert state.contract_bid.id == "three"


def test_auction_until_passes() -> None:
    """DEC-011 alternative 'until-passes': round and round until all but the highest bidder
    have passed (NAP-5.1.2). Seat 0 two, seat 1 three, seats 2 and 3 pass; seat 0 speaks again
    and bids four; seat 1 passes: only seat 0 has not passed, so it declares four."""
    state, _ = ladder_hand(0, 4, game(auction="until-passes"))
    state = apply_all(state, [Bid("two"), Bid("three"), Pass(), Pass()])
    assert state.turn == 0
    state = apply_all(state, [Bid("four"), Pass()])
    assert state.declarer == 0 and state.contract_bid is not None
    assert state.contract_bid.id == "four"


def test_all_pass_throws_the_hand_in() -> None:
    """DEC-018: if everyone passes, the hand is thrown in and the pot stays (NAP-5.3.2); only
    looks already bought have been paid."""
    state, _ = ladder_hand(0, 3)
    state = apply_all(state, [Pass(), Peek(), Pass(), Pass(), Pass()])
    result = state.result
    assert state.is_over() and result is not None and result.thrown_in
    assert result.declarer == -1 and result.contract is None
    assert payments(state) == owed((1, POOL, 1, "NAP-6.1.1"))
    assert result.pool == ANTES + 1


@pytest.mark.parametrize(("choice", "funds_after", "paid"), [
    # DEC-019 default: seat 0 (5 chips) owes 3 to each of three (L35) = 9; it pays what it has,
    # one chip at a time clockwise from its left: seats 1, 2, 3, 1, 2 -> 2, 2, 1.
    ("pay-what-you-have", (0, 22, 22, 21), (2, 2, 1)),
    # DEC-019 alternative: the full 9 is paid and seat 0 owes 4.
    ("debt", (-4, 23, 23, 23), (3, 3, 3)),
])
def test_short_payment(choice: str, funds_after: tuple[int, ...],
                       paid: tuple[int, int, int]) -> None:
    g = game(**{"short-payment": choice})
    state = with_funds(g, roles(0, 2), funds=(5, 20, 20, 20))
    state = after_auction(state, [Bid("three"), Pass(), Pass(), Pass()], SPADES)
    state = play_tricks(state, ladder(TOP[:2], LOW[:3], HOLDER, (), THIRD, FOURTH))
    result = state.result
    assert result is not None and result.made is False and result.tricks == 2
    assert payments(state) == owed(*[(0, s, a, "NAP-9.2.1") for s, a in zip((1, 2, 3), paid,
                                                                             strict=True)])
    assert state.funds == funds_after
    assert result.pool == ANTES


# --- whole matches: antes, throw-ins and the pot carried between hands --------------------

def start_match(g: Game, hands: int, pack: tuple[int, ...]) -> MatchState:
    """A match whose first dealer is seat 3 and whose first pack is ``pack``."""
    from napkit.engine.actions import ChooseDealer

    return new_match(g, hands=hands).apply(ChooseDealer(DEALER)).apply(Shuffle(pack))


@pytest.mark.parametrize(("choice", "pot", "stock"), [
    # DEC-018 default: the thrown-in hand's pot (4) stays and every player antes again for the
    # redeal: pot 8, each player 20 - 2 = 18 chips.
    ("redeal-with-ante", 8, 18),
    # DEC-018 alternative: no fresh ante: pot 4, each player 19.
    ("redeal-without-ante", 4, 19),
])
def test_throw_in_then_a_made_nap_takes_the_growing_pot(choice: str, pot: int,
                                                        stock: int) -> None:
    """L13: the pot grows each round until someone bids and takes five tricks. Each player
    starts with 20 chips (the ruleset's stock) and antes 1 (L16): pot 4. Hand 1: all pass. The
    deal passes left (DEC-014): seat 0 deals hand 2; seat 1, on its left, bids Nap and takes all
    five: 5 from each (L33) and the pot (L37)."""
    g = game(**{"throw-in": choice})
    first = build_pack(players=4, dealer=3, hands=roles(0, 3), packets=PACKETS, widow=WIDOW)
    match = start_match(g, 2, first)
    assert match.pool == ANTES and match.balances == (19, 19, 19, 19)
    match = apply_all_match(match, PASS4)
    assert match.hands[-1].result is not None and match.hands[-1].result.thrown_in
    assert match.dealer == 0
    second = build_pack(players=4, dealer=0, hands=roles(1, 5), packets=PACKETS, widow=WIDOW)
    match = match.apply(Shuffle(second))
    assert match.pool == pot and match.balances == (stock,) * 4
    # The antes are the match's payments (NAP-10.3.1): one chip from each seat per ante taken.
    antes = [(p.payer, p.payee, p.amount) for p in match.ledger if p.rule == "NAP-10.3.1"]
    assert sorted(antes) == sorted([(s, POOL, 1) for s in range(4)] * (pot // ANTES))
    match = apply_all_match(match, [Bid("nap"), Pass(), Pass(), Pass(), LeaveWidow(),
                                    NameTrumps(SPADES)])
    for trick in ladder(TOP, (), HOLDER, (), THIRD, FOURTH):
        for card in cards(trick):
            match = match.apply(Play(card))
    assert match.is_over() and match.result is not None
    assert match.result.balances == (stock - 5, stock + 15 + pot, stock - 5, stock - 5)
    assert match.result.pool == 0
    assert match.result.winners == (1,)


@pytest.mark.parametrize(("choice", "balances", "left"), [
    # DEC-021 default: the pot (4) left after a made three is nobody's: seat 0 19 + 9 = 28,
    # the others 19 - 3 = 16.
    ("unclaimed", (28, 16, 16, 16), 4),
    # DEC-021 alternative: the 4 chips are shared by the four players, 1 each.
    ("split-equally", (29, 17, 17, 17), 0),
])
def test_pot_at_the_end_of_an_agreed_match(choice: str, balances: tuple[int, ...],
                                           left: int) -> None:
    """L40: an agreed number of rounds (here one); the most chips wins (seat 0)."""
    g = game(**{"pot-at-end": choice})
    match = start_match(g, 1, build_pack(players=4, dealer=3, hands=roles(0, 3),
                                         packets=PACKETS, widow=WIDOW))
    match = apply_all_match(match, [Bid("three"), Pass(), Pass(), Pass(), LeaveWidow(),
                                    NameTrumps(SPADES)])
    for trick in ladder(TOP[:3], LOW[:2], HOLDER, (), THIRD, FOURTH):
        for card in cards(trick):
            match = match.apply(Play(card))
    assert match.result is not None
    assert match.result.balances == balances
    assert match.result.pool == left
    assert match.result.winners == (0,)


def apply_all_match(match: MatchState, actions: Sequence[Action]) -> MatchState:
    for action in actions:
        match = match.apply(action)
    return match
