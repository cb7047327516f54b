"""Hand-worked hands of Michael Harris's Teesside floater game (ruleset ``pagat-teesside``).

The source is 004_d686e73063261d6b.txt (below "004"). 004 L64: on Teesside the floater game was
played with the full range of bids, from Two up and Misère, of the Variations section (004 L54-55).
Everything else is the floater game of 004 L62-100, as for the Dorset version (see the docstring
of tests/handworked/test_pagat_dorset.py, whose table, deal and ladder layouts this file reuses:
four players, 24 cards, dealer seat 3, packets 3-2, the floater after the hands, the kitty at 4
before the hand from the four antes of 004 L76).

The bids, lowest first (NAP-5.2.2): Two, Three, Misère (between Three and Four, 004 L55), then the
floater table of 004 L84-92: Four, Nap, Bonaparte, Wellington; each with the floater and,
just above it, without (004 L78, NAP-5.2.4). Two, Three and Misère have both forms by default
(DEC-103 ``with-and-without``) or are single bids without the floater (``without-only``).
What they pay the page does not say for this game: 1 unit each (DEC-104 ``one-unit``, default)
or the Variations section's 2, 3 and 3 (``standard-units``), won from each opponent (NAP-9.1.1)
or, lost, paid times the number of players into the kitty (NAP-9.2.2), as the floater table does.
Four pays 2, Nap 5, Bonaparte 10, Wellington 20 (004 L85-92); Nap and above also win the kitty
(004 L87-92, NAP-9.1.2). Bonaparte's declarer must lead their lowest trump to the first trick,
Wellington's their lowest non-trump (004 L89-92, NAP-7.2.2). The Misère declarer names trumps
(DEC-105 ``named``) or plays without (``none``); there is no Blücher (DEC-105).

Layouts (declarer D, then L on D's left, A across, R on D's right; D names spades):

* ``ladder-k``: the Dorset file's ladder: D wins exactly k tricks, then L the rest.
* ``bonaparte-5``/``bonaparte-4``: the ladder-5/ladder-4 deals, D leading the lowest spade first
  (10S, or JS): R's 9S must follow and is beaten; the other spades win; in bonaparte-4 the 9H
  loses to L's AH at the end.
* ``wellington-5``: D AS KS QS JS AH; L KH QH JH 10H 9H; A the diamonds AD-10D; R the clubs
  AC-10C. D must lead the AH, the only non-trump; L follows with a heart, A and R hold no
  spade: the AH wins, then the four spades. ``wellington-4``: D holds the 9H instead of the AH,
  L the AH instead of the 9H: the 9H must be led and loses to the AH; L leads the KH, D trumps
  with the AS and wins the rest.
* ``misere-0``: D 9H 10H 9D 10D 9C, the lowest cards, no spade; L AH KH QH JH AS; A AD KD QD JD
  KS; R AC KC QC JC QS. D leads the 9H, L wins with the JH and keeps the lead with hearts and
  the AS; D only ever follows or throws low cards: no trick, whether spades are trumps or not.
* ``misere-1``: D AC 9H 10H 9D 10D; L AH KH QH JH KC; A AD KD QD JD QC; R AS KS QS JS JC. D's
  AC wins the first trick: one trick, the Misère is lost. With spades trumps R, void in
  hearts, trumps the 9H and wins the rest; with no trumps (``misere-1-nt``) L's hearts win them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    TakeWidow,
)
from napkit.engine.cards import HEARTS, SPADES, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.state import NO_TRUMPS
from napkit.errors import IllegalActionError

from tests.handworked.deals import (
    POOL,
    apply_all,
    cards,
    check_kitty_settlement,
    dealt,
    each_pays,
    owed,
    payments,
    play_tricks,
    rotate,
)
from tests.handworked.test_pagat_dorset import (
    A_HAND,
    ANTES,
    DEALER,
    L_HAND,
    LADDER,
    LOWEST,
    PACKETS,
    R_HAND,
    auction_for,
)

RULESET = "pagat-teesside"


@dataclass(frozen=True)
class Layout:
    hands: tuple[str, str, str, str]  # D, L, A, R
    floater: str
    tricks: list[str]  # leader first
    winners: str  # the role that wins each trick: D, L, A or R


LAYOUTS: dict[str, Layout] = {
    **{f"ladder-{k}": Layout((hand, L_HAND, A_HAND, R_HAND), floater, tricks,
                             "D" * k + "L" * (5 - k))
       for k, (hand, floater, tricks) in LADDER.items()},
    "bonaparte-5": Layout(
        (LADDER[5][0], L_HAND, A_HAND, R_HAND), LADDER[5][1],
        ["10S JD 10C 9S", "AS QD JC 9C", "KS KD QC 9D", "QS AD KC 10D", "JS AH AC KH"], "DDDDD"),
    "bonaparte-4": Layout(
        (LADDER[4][0], L_HAND, A_HAND, R_HAND), LADDER[4][1],
        ["JS JD 10C 9S", "AS QD JC 9C", "KS KD QC 9D", "QS AD KC 10D", "9H AH AC KH"], "DDDDL"),
    "wellington-5": Layout(
        ("AS KS QS JS AH", "KH QH JH 10H 9H", "AD KD QD JD 10D", "AC KC QC JC 10C"), "10S",
        ["AH 9H 10D 10C", "AS 10H JD JC", "KS JH QD QC", "QS QH KD KC", "JS KH AD AC"], "DDDDD"),
    "wellington-4": Layout(
        ("AS KS QS JS 9H", "AH KH QH JH 10H", "AD KD QD JD 10D", "AC KC QC JC 10C"), "10S",
        ["9H AH 10D 10C", "KH JD JC AS", "KS QH QD QC", "QS JH KD KC", "JS 10H AD AC"], "LDDDD"),
    "misere-0": Layout(
        ("9H 10H 9D 10D 9C", "AH KH QH JH AS", "AD KD QD JD KS", "AC KC QC JC QS"), "10C",
        ["9H JH JD JC", "QH QD QC 10H", "AS KS QS 9D", "AH KD KC 10D", "KH AD AC 9C"], "LLLLL"),
    "misere-1": Layout(
        ("AC 9H 10H 9D 10D", "AH KH QH JH KC", "AD KD QD JD QC", "AS KS QS JS JC"), "10C",
        ["AC KC QC JC", "9H JH JD JS", "AS 10H QH QD", "KS 9D KH KD", "QS 10D AH AD"], "DRRRR"),
    "misere-1-nt": Layout(
        ("AC 9H 10H 9D 10D", "AH KH QH JH KC", "AD KD QD JD QC", "AS KS QS JS JC"), "10C",
        ["AC KC QC JC", "9H JH JD JS", "QH QD QS 10H", "KH KD KS 9D", "AH AD AS 10D"], "DLLLL"),
}


def game(options: dict[str, str] | None = None) -> Game:
    return Game.create(RULESET, 4, options)


def deal_layout(g: Game, name: str, declarer: int, pool: int = ANTES) -> HandState:
    layout = LAYOUTS[name]
    return dealt(g, dealer=DEALER, hands=rotate(layout.hands, declarer), packets=PACKETS,
                 widow=layout.floater, lowest=LOWEST, pool=pool)


def winners(name: str, declarer: int) -> tuple[int, ...]:
    offset = {"D": 0, "L": 1, "A": 2, "R": 3}
    return tuple((declarer + offset[role]) % 4 for role in LAYOUTS[name].winners)


@dataclass(frozen=True)
class Case:
    """One contract on a layout, with what the hand should pay, worked out by hand."""

    bid: str
    with_floater: bool  # bid with the floater: the exchange is offered (NAP-5.2.4)
    declarer: int
    layout: str
    made: bool
    amount: int  # won from each opponent if made; paid per player into the kitty if defeated
    kitty: bool = False  # a made contract also wins the kitty (NAP-9.1.2)
    options: dict[str, str] = field(default_factory=dict)
    named: bool = True  # trumps are named (spades); False: a Misère without trumps
    auction: tuple[Action, ...] = ()  # the whole auction, if not the declarer's bid alone


WITHOUT_ONLY = {"teesside-forms": "without-only"}
STANDARD = {"teesside-payments": "standard-units"}
NO_TRUMP_MIS = {"teesside-mis": "none"}

CASES = [
    # --- default options (DEC-103 with-and-without, DEC-104 one-unit, DEC-105 named) ---
    # Two with (004 L54, L64): 2 tricks made, 1 from each opponent -> +3, kitty stays 4;
    # 1 trick defeated, 1 x 4 players into the kitty -> 8.
    Case("two-with", True, 0, "ladder-2", True, 1),
    Case("two-with", True, 1, "ladder-1", False, 1),
    # Two without: 3 tricks are more than two, still 1 each (NAP-5.2.3); 1 trick lost, 4.
    Case("two-without", False, 2, "ladder-3", True, 1),
    Case("two-without", False, 3, "ladder-1", False, 1),
    # Three with / without (004 L64, L25): 3 tricks made, 1 each; 2 tricks lost, 4 in.
    Case("three-with", True, 3, "ladder-3", True, 1),
    Case("three-with", True, 0, "ladder-2", False, 1),
    Case("three-without", False, 1, "ladder-3", True, 1),
    Case("three-without", False, 2, "ladder-2", False, 1),
    # Misère with / without (004 L55, L64): no trick made, 1 each; one trick lost, 4 in.
    # Trumps are named (DEC-105): the declarer names spades, a suit they lack.
    Case("mis-with", True, 0, "misere-0", True, 1),
    Case("mis-with", True, 1, "misere-1", False, 1),
    Case("mis-without", False, 2, "misere-0", True, 1),
    Case("mis-without", False, 3, "misere-1", False, 1),
    # Four with / without (004 L85-86): 4 tricks (or 5) made, 2 each -> +6; 3 lost, 8 in.
    Case("four-with", True, 0, "ladder-4", True, 2),
    Case("four-with", True, 1, "ladder-3", False, 2),
    Case("four-without", False, 2, "ladder-5", True, 2),
    Case("four-without", False, 3, "ladder-3", False, 2),
    # Nap with / without (004 L87-88): 5 tricks, 5 each and the kitty (4) -> +19, kitty 0;
    # 4 tricks lost, 5 x 4 = 20 in -> 24.
    Case("nap-with", True, 1, "ladder-5", True, 5, kitty=True),
    Case("nap-with", True, 2, "ladder-4", False, 5, kitty=True),
    Case("nap-without", False, 3, "ladder-5", True, 5, kitty=True),
    Case("nap-without", False, 0, "ladder-4", False, 5, kitty=True),
    # Bonaparte (004 L89-90): lowest trump led first; 10 each and the kitty -> +34;
    # lost, 10 x 4 = 40 in -> 44.
    Case("bonaparte-with", True, 2, "bonaparte-5", True, 10, kitty=True),
    Case("bonaparte-with", True, 3, "bonaparte-4", False, 10, kitty=True),
    Case("bonaparte-without", False, 0, "bonaparte-5", True, 10, kitty=True),
    Case("bonaparte-without", False, 1, "bonaparte-4", False, 10, kitty=True),
    # Wellington (004 L91-92): lowest non-trump led first; 20 each and the kitty -> +64;
    # lost, 20 x 4 = 80 in -> 84.
    Case("wellington-with", True, 3, "wellington-5", True, 20, kitty=True),
    Case("wellington-with", True, 0, "wellington-4", False, 20, kitty=True),
    Case("wellington-without", False, 1, "wellington-5", True, 20, kitty=True),
    Case("wellington-without", False, 2, "wellington-4", False, 20, kitty=True),
    # --- DEC-103 without-only: Two, Three and Misère are single bids, no floater ---
    Case("two", False, 0, "ladder-2", True, 1, options=WITHOUT_ONLY),
    Case("two", False, 1, "ladder-1", False, 1, options=WITHOUT_ONLY),
    Case("three", False, 2, "ladder-4", True, 1, options=WITHOUT_ONLY),
    Case("three", False, 3, "ladder-2", False, 1, options=WITHOUT_ONLY),
    Case("mis", False, 0, "misere-0", True, 1, options=WITHOUT_ONLY),
    Case("mis", False, 1, "misere-1", False, 1, options=WITHOUT_ONLY),
    # --- DEC-104 standard-units: Two 2, Three 3, Misère 3 (004 L54-55, L44) ---
    Case("two-with", True, 2, "ladder-2", True, 2, options=STANDARD),  # +6
    Case("two-without", False, 3, "ladder-1", False, 2, options=STANDARD),  # 8 in
    Case("three-with", True, 0, "ladder-3", True, 3, options=STANDARD),  # +9
    Case("three-without", False, 1, "ladder-2", False, 3, options=STANDARD),  # 12 in
    Case("mis-with", True, 2, "misere-0", True, 3, options=STANDARD),  # +9
    Case("mis-without", False, 3, "misere-1", False, 3, options=STANDARD),  # 12 in
    Case("three", False, 0, "ladder-3", True, 3, options={**STANDARD, **WITHOUT_ONLY}),
    # --- DEC-105 none: Misère without trumps; nothing is named. In misere-1-nt R's spades no
    # longer win a heart trick, so L's hearts do; the Misère is lost all the same. ---
    Case("mis-with", True, 1, "misere-0", True, 1, options=NO_TRUMP_MIS, named=False),
    Case("mis-with", True, 2, "misere-1-nt", False, 1, options=NO_TRUMP_MIS, named=False),
    Case("mis-without", False, 3, "misere-0", True, 1, options=NO_TRUMP_MIS, named=False),
    Case("mis-without", False, 0, "misere-1-nt", False, 1, options=NO_TRUMP_MIS, named=False),
    Case("mis", False, 1, "misere-0", True, 1, options={**NO_TRUMP_MIS, **WITHOUT_ONLY},
         named=False),
]


AFTER_NAP = {"floater-prerequisites": "after-nap"}

AFTER_NAP_CASES = [
    # DEC-090 after-nap: Bonaparte and Wellington only after a Nap. Seat 0 bids Nap with, seat 1
    # Bonaparte without over it and makes it: 10 each and the kitty, +34.
    pytest.param(Case("bonaparte-without", False, 1, "bonaparte-5", True, 10, kitty=True,
                      options=AFTER_NAP,
                      auction=(Bid("nap-with"), Bid("bonaparte-without"), Pass(), Pass())),
                 id="bonaparte-without-after-nap-with"),
    # Seat 1 bids Nap without, seat 2 Wellington with over it and loses one trick: 80 in.
    pytest.param(Case("wellington-with", True, 2, "wellington-4", False, 20, kitty=True,
                      options=AFTER_NAP,
                      auction=(Pass(), Bid("nap-without"), Bid("wellington-with"), Pass())),
                 id="wellington-with-after-nap-without"),
]


def case_id(case: Case) -> str:
    options = ",".join(f"{k}={v}" for k, v in sorted(case.options.items()))
    return f"{case.bid}-{case.layout}-{options or 'defaults'}"


@pytest.mark.parametrize("case", [*(pytest.param(c, id=case_id(c)) for c in CASES),
                                  *AFTER_NAP_CASES])
def test_contract(case: Case) -> None:
    layout = LAYOUTS[case.layout]
    state = deal_layout(game(case.options), case.layout, case.declarer)
    state = apply_all(state, case.auction or auction_for(case.declarer, case.bid))
    assert state.declarer == case.declarer  # NAP-5.3.1: the highest bidder
    if case.with_floater:
        # 004 L78: a 'with' declarer may take up the floater; here they leave it.
        assert state.phase_name == "exchange"
        assert set(state.legal_actions()) == {TakeWidow(), LeaveWidow()}
        state = state.apply(LeaveWidow())
    if case.named:
        assert state.phase_name == "naming"  # 004 L96: the declarer names trumps
        state = state.apply(NameTrumps(SPADES))
        assert state.trumps == SPADES
    else:
        assert state.phase_name == "play" and state.trumps == NO_TRUMPS  # NAP-7.1.3
    state = play_tricks(state, layout.tricks)
    result = state.result
    assert result is not None and not result.thrown_in
    assert result.contract == case.bid
    expected_winners = winners(case.layout, case.declarer)
    assert result.trick_winners == expected_winners
    tricks = expected_winners.count(case.declarer)
    assert result.tricks == tricks
    assert result.made is case.made
    # 004 L94: a made bid is paid by each opponent; a lost one pays the kitty only.
    check_kitty_settlement(state, declarer=case.declarer, amount=case.amount, made=case.made,
                           wins_kitty=case.kitty, kitty=ANTES)


def test_the_bids_and_their_order() -> None:
    """004 L54-55, L64, L78, L82-92: Two, Three, Misère (between Three and Four), Four, Nap,
    Bonaparte, Wellington; each with the floater and, immediately above, without (NAP-5.2.2,
    NAP-5.2.4). No Blücher (DEC-105). Each bid beats the last (NAP-5.2.1)."""
    state = deal_layout(game(), "ladder-5", 0)
    assert [a.bid for a in state.legal_actions() if isinstance(a, Bid)] == [
        "two-with", "two-without", "three-with", "three-without", "mis-with", "mis-without",
        "four-with", "four-without", "nap-with", "nap-without", "bonaparte-with",
        "bonaparte-without", "wellington-with", "wellington-without"]
    state = state.apply(Bid("mis-without"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("three-without"))  # Misère ranks above Three
    assert err.value.rule == "NAP-5.2.1"
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("mis-with"))  # with ranks below without
    assert err.value.rule == "NAP-5.2.1"
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("blucher"))
    assert err.value.rule == "NAP-5.2.2"
    assert Bid("four-with") in state.legal_actions()


def test_without_only_has_single_lower_bids() -> None:
    """DEC-103 without-only: Two, Three and Misère are single bids that do not take the floater;
    Four and above keep both forms (004 L82-92)."""
    state = deal_layout(game(WITHOUT_ONLY), "ladder-5", 0)
    assert [a.bid for a in state.legal_actions() if isinstance(a, Bid)][:5] == [
        "two", "three", "mis", "four-with", "four-without"]
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("two-with"))
    assert err.value.rule == "NAP-5.2.2"


def test_bonaparte_and_wellington_need_a_nap_under_after_nap() -> None:
    """DEC-090: by default (none) Bonaparte and Wellington may be bid at once; with after-nap
    only once someone has bid Nap, with or without the floater (NAP-5.2.5)."""
    state = deal_layout(game(), "ladder-5", 0)
    assert Bid("wellington-without") in state.legal_actions()
    state = deal_layout(game(AFTER_NAP), "ladder-5", 0)
    assert Bid("bonaparte-with") not in state.legal_actions()
    for bid in ("bonaparte-with", "bonaparte-without", "wellington-with", "wellington-without"):
        with pytest.raises(IllegalActionError) as err:
            state.apply(Bid(bid))
        assert err.value.rule == "NAP-5.2.5"
    state = state.apply(Bid("four-without"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Bid("bonaparte-with"))  # a Four is not a Nap
    assert err.value.rule == "NAP-5.2.5"


@pytest.mark.parametrize("nap", ["nap-with", "nap-without"])
def test_one_nap_opens_bonaparte_and_wellington_under_after_nap(nap: str) -> None:
    """DEC-090 after-nap: a Nap, with or without the floater, is enough (NAP-5.2.5)."""
    state = apply_all(deal_layout(game(AFTER_NAP), "ladder-5", 0), [Bid(nap)])
    bids = {a for a in state.legal_actions() if isinstance(a, Bid)}
    assert {Bid("bonaparte-with"), Bid("bonaparte-without"), Bid("wellington-with"),
            Bid("wellington-without")} <= bids


def _name(state: HandState, bid: str, suit: int) -> HandState:
    state = apply_all(state, auction_for(0, bid))
    if state.phase_name == "exchange":
        state = state.apply(LeaveWidow())
    return state.apply(NameTrumps(suit))


def _leads(state: HandState) -> set[int]:
    return {a.card for a in state.legal_actions() if isinstance(a, Play)}


def test_bonaparte_must_lead_the_lowest_trump() -> None:
    """004 L89-90: Bonaparte's declarer leads their lowest trump to the first trick (NAP-7.2.2).
    Seat 0 holds AS KS QS JS 9H, spades named: only the JS may be led; the AS is refused. Later
    leads are free (NAP-8.1.3)."""
    state = _name(deal_layout(game(), "ladder-4", 0), "bonaparte-without", SPADES)
    assert _leads(state) == {parse_card("JS")}
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("AS")))
    assert err.value.rule == "NAP-7.2.2"
    state = play_tricks(state, ["JS JD 10C 9S"])
    assert _leads(state) == set(cards("AS KS QS 9H"))


def test_bonaparte_naming_a_suit_not_held_lifts_the_obligation() -> None:
    """Naming a suit one lacks is allowed (NAP-7.1.2, naming.void_suit allowed); a Bonaparte
    declarer with no trump cannot lead one, and the obligation lapses (DEC-091, NAP-7.2.4):
    seat 0, all spades, names hearts and may lead any card."""
    state = _name(deal_layout(game(), "ladder-5", 0), "bonaparte-with", HEARTS)
    assert state.trumps == HEARTS
    assert _leads(state) == set(cards(LADDER[5][0]))


def test_bonaparte_lowest_trump_counts_after_the_exchange() -> None:
    """Exchange first, then trumps (DEC-092, NAP-6.3.2), then the lead. Seat 0 holds AS KS QS JS
    9H and bids Bonaparte with; takes the floater 10S, discards the 9H and names spades. Its
    lowest trump is now the 10S, not the JS (NAP-7.2.2). The bonaparte-5 play follows: all
    five tricks, 10 from each and the kitty (004 L89): +30 +4 = +34."""
    state = deal_layout(game(), "ladder-4", 0)
    state = apply_all(state, auction_for(0, "bonaparte-with") + [TakeWidow()])
    state = state.apply(Discard(parse_card("9H")))
    state = state.apply(NameTrumps(SPADES))
    assert _leads(state) == {parse_card("10S")}
    state = play_tricks(state, LAYOUTS["bonaparte-5"].tricks)
    result = state.result
    assert result is not None and result.made is True
    assert result.trick_winners == (0, 0, 0, 0, 0)
    assert payments(state) == owed(*each_pays([1, 2, 3], 0, 10, "NAP-9.1.1"),
                                   (POOL, 0, ANTES, "NAP-9.1.2"))
    assert result.net == (34, -10, -10, -10) and result.pool == 0


def test_wellington_must_lead_the_lowest_non_trump() -> None:
    """004 L91-92, L100: Wellington's declarer leads their lowest non-trump (NAP-7.2.2). Seat 0
    holds AS KS QS JS 9H, spades named: only the 9H; the AS is refused."""
    state = _name(deal_layout(game(), "wellington-4", 0), "wellington-without", SPADES)
    assert _leads(state) == {parse_card("9H")}
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("AS")))
    assert err.value.rule == "NAP-7.2.2"


def test_wellington_tied_lowest_non_trumps_are_both_allowed() -> None:
    """Seat 0 holds AS KS QS 9H 9D, spades named: the 9H and 9D tie for lowest non-trump and the
    declarer chooses (DEC-091, NAP-7.2.3); nothing else may be led."""
    hands = rotate(("AS KS QS 9H 9D", "AH KH QH JH 10H", "AD KD QD JD 10D", "AC KC QC JC 10C"), 0)
    state = dealt(game(), dealer=DEALER, hands=hands, packets=PACKETS, widow="JS",
                  lowest=LOWEST, pool=ANTES)
    state = _name(state, "wellington-with", SPADES)
    assert _leads(state) == set(cards("9H 9D"))
    with pytest.raises(IllegalActionError) as err:
        state.apply(Play(parse_card("QS")))
    assert err.value.rule == "NAP-7.2.2"


def test_wellington_with_only_trumps() -> None:
    """004 L100: a Wellington declarer holding five cards of one suit may not name that suit
    (its only legal option is another suit; NAP-7.1.4, kept by the Teesside version, which
    extends the floater game). Named spades is refused under NAP-7.1.4. Named hearts, every
    card is a non-trump and the lowest, the 10S, must be led."""
    with pytest.raises(IllegalActionError) as err:
        _name(deal_layout(game(), "ladder-5", 0), "wellington-without", SPADES)
    assert err.value.rule == "NAP-7.1.4"
    state = _name(deal_layout(game(), "ladder-5", 0), "wellington-without", HEARTS)
    assert _leads(state) == {parse_card("10S")}


def test_misere_without_trumps_names_none() -> None:
    """DEC-105 none: a Misère declarer names no trumps (NAP-7.1.3), and a card of another suit
    never wins a trick (NAP-8.2.1); under named (the default) the declarer names a suit, one
    they lack included."""
    state = apply_all(deal_layout(game(NO_TRUMP_MIS), "misere-0", 0), auction_for(0, "mis-without"))
    assert state.phase_name == "play" and state.trumps == NO_TRUMPS
    with pytest.raises(IllegalActionError):
        state.apply(NameTrumps(SPADES))
    state = apply_all(deal_layout(game(), "misere-0", 0), auction_for(0, "mis-without"))
    assert state.phase_name == "naming"
    assert set(state.legal_actions()) == {NameTrumps(s) for s in range(4)}


def test_kitty_grows_with_looks_and_losses_and_goes_to_a_nap() -> None:
    """004 L76, L94: the kitty carries over until a Nap or above is won.

    Hand 1 (kitty 4, the antes): seat 1 pays 1 to look at the floater (004 L76, NAP-6.1.1) and
    passes; seat 0 bid four with and takes three tricks on the ladder-3: 2 x 4 = 8 into the
    kitty (NAP-9.2.2): 4 + 1 + 8 = 13. Hand 2: four more antes make 17; seat 2 bids Nap without
    and makes it on the ladder-5: 5 from each and all 17 (NAP-9.1.2): +32, kitty 0."""
    state = deal_layout(game(), "ladder-3", 0)
    state = apply_all(state, [Bid("four-with"), Peek(), Pass(), Pass(), Pass(), LeaveWidow(),
                              NameTrumps(SPADES)])
    state = play_tricks(state, LAYOUTS["ladder-3"].tricks)
    first = state.result
    assert first is not None and first.made is False
    assert payments(state) == owed((1, POOL, 1, "NAP-6.1.1"), (0, POOL, 8, "NAP-9.2.2"))
    assert first.pool == 13
    state = deal_layout(game(), "ladder-5", 2, pool=first.pool + ANTES)
    state = apply_all(state, auction_for(2, "nap-without") + [NameTrumps(SPADES)])
    state = play_tricks(state, LAYOUTS["ladder-5"].tricks)
    second = state.result
    assert second is not None and second.made is True
    assert payments(state) == owed(*each_pays([0, 1, 3], 2, 5, "NAP-9.1.1"),
                                   (POOL, 2, 17, "NAP-9.1.2"))
    assert second.net == (-5, -5, 32, -5) and second.pool == 0


def test_everyone_passes() -> None:
    """004 L98: nobody bids; the hand is not played and the kitty is kept (NAP-5.3.2)."""
    state = apply_all(deal_layout(game(), "ladder-5", 0), [Pass(), Pass(), Pass(), Pass()])
    result = state.result
    assert result is not None and result.thrown_in and result.payments == ()
    assert result.pool == ANTES
