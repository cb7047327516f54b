"""Three questions that programs written from the law book alone found open (issue 28, item 5),
pushed to the corners where the readings part: a short payer owing several debts (NAP-9.5.1),
a one-suit declarer under both NAP-7.1.2 and NAP-7.1.4, and who is counted once some players
sit out (NAP-2.2.1, the shuffle-pack refusal, NAP-9.2.2). Each corner is reached through a
house game, since no built-in ruleset reaches it (peep's case
peep/outcome/short-declarer-pays-its-debts-together reaches the first)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.suite.breaches import BREACH_BY_NAME
from napkit.engine.actions import Ante, Deal, NameTrumps, SitOut
from napkit.engine.cards import cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.phases.deal import at_table, hand_pack
from napkit.engine.phases.settlement import debts, pay
from napkit.engine.state import POOL, replace
from napkit.errors import IllegalActionError
from napkit.formats.values import action_from_json
from napkit.spec.house import load_house_ruleset

CASES = Path(__file__).resolve().parent.parent / "conformance" / "cases"
PEEP = {"lowest-bid": "one", "auction": "single", "sit-out": "everyone", "packets": "2-3",
        "naming": "held-suit", "pot-doubling": "bidder-matches-pool",
        "throw-in": "redeal-with-ante", "short-payment": "pay-what-you-have",
        "pot-at-end": "unclaimed"}


def house(tmp_path: Path, extends: str, params: dict[str, Any]) -> Any:
    path = tmp_path / "house.json"
    path.write_text(json.dumps({
        "house": True, "id": f"{extends}-lawbook", "title": f"{extends}, a corner of the law book",
        "extends": extends, "description": "A house game reaching a corner of the law book.",
        "params": params}), encoding="utf-8")
    return load_house_ruleset(path)


# --- NAP-7.1.2 against NAP-7.1.4 --------------------------------------------------------------

def one_suit_blucher(tmp_path: Path) -> HandState:
    """Napoleon's hand-written case of a Blücher declarer holding five spades (seat 2), in a
    house game that also forbids naming a void suit: both rules bind at the naming."""
    rules = house(tmp_path, "napoleon", {"naming": {"void_suit": "not-allowed",
                                                    "non_trump_duty": "binds"}})
    case = json.loads((CASES / "napoleon/illegal/blucher-of-one-suit-names-it.json").read_text(
        encoding="utf-8"))
    hand = Game(rules, 4, {}).new_hand(3)
    for step in case["steps"]:
        hand = hand.apply(action_from_json(step["action"]))
    assert hand.phase_name == "naming" and hand.turn == 2
    return hand


def test_a_one_suit_declarer_bound_by_both_names_a_suit_they_do_not_hold(tmp_path: Path) -> None:
    """NAP-7.1.4 prevails over NAP-7.1.2's ban on void suits: the two together left the
    declarer no suit at all to name (no legal action, a hand that could never end)."""
    hand = one_suit_blucher(tmp_path)
    assert hand.legal_actions() == (NameTrumps(1), NameTrumps(2), NameTrumps(3))
    refusal = hand.refusal(NameTrumps(0))
    assert refusal is not None and refusal.rule == "NAP-7.1.4"
    named = hand.apply(NameTrumps(1))  # hearts, of which seat 2 holds none
    assert named.trumps == 1 and named.turn == 2
    # Every card is a non-trump, so the duty holds: the lowest of them, the 10S.
    assert [str(a) for a in named.legal_actions()] == ["play 10S"]


def test_the_void_suit_breach_offers_no_naming_that_nap_7_1_4_allows(tmp_path: Path) -> None:
    """The suite's finder for naming-void must offer only refused namings (test_one_rule)."""
    hand = one_suit_blucher(tmp_path)
    finder = BREACH_BY_NAME["naming-void"].find
    assert finder is not None
    assert finder(hand, random.Random(0)) == []


# --- NAP-9.5.1: several debts of one short payer ---------------------------------------------

def short_declarer() -> HandState:
    """Peep's hand-written hand: seat 1, holding 7 chips, bids Nap and is defeated."""
    case = json.loads((CASES / "peep/outcome/short-declarer-pays-its-debts-together.json")
                      .read_text(encoding="utf-8"))
    start = case["start"]
    hand = Game.create("peep", 4, PEEP).new_hand(
        start["dealer"], pool=start["pool"], funds=tuple(start["funds"]))
    for step in case["steps"][:-1]:  # the last card not played: the hand not yet settled
        hand = hand.apply(action_from_json(step["action"]))
    return hand


def test_a_short_payer_pays_every_debt_in_one_set_of_rounds() -> None:
    hand = short_declarer()
    payments, funds, pool = pay(hand, debts(replace(hand, won=0), False))
    assert [(p.payee, p.amount, p.rule) for p in payments] == [
        (2, 2, "NAP-9.2.1"), (3, 2, "NAP-9.2.1"), (0, 2, "NAP-9.2.1"), (POOL, 1, "NAP-9.2.3")]
    assert funds == (21, 0, 21, 21) and pool == 5


def test_a_payee_owed_two_debts_takes_one_turn_each_time_round() -> None:
    """The pool owed both a loss (NAP-9.2.2) and its doubling (NAP-9.2.3) is one payee: one
    unit a round, to the debt that arose first. Each debt took a turn of its own, so the pool
    was paid twice a round and seat 0 short of its turn."""
    hand = short_declarer()
    owed = [(1, 2, 5, "NAP-9.2.1"), (1, 3, 5, "NAP-9.2.1"), (1, 0, 5, "NAP-9.2.1"),
            (1, POOL, 4, "NAP-9.2.2"), (1, POOL, 4, "NAP-9.2.3")]
    payments, funds, pool = pay(hand, owed)
    assert [(p.payee, p.amount, p.rule) for p in payments] == [
        (2, 2, "NAP-9.2.1"), (3, 2, "NAP-9.2.1"), (0, 2, "NAP-9.2.1"), (POOL, 1, "NAP-9.2.2")]
    assert funds == (21, 0, 21, 21) and pool == 5


# --- Who is counted once some sit out ---------------------------------------------------------

SMALL_PACK = {"pack": [{"players": [2, 3], "lowest_rank": "9"},
                       {"players": [4, 5, 6, 7, 8, 9, 10], "lowest_rank": "2"}]}


def antes_asked(tmp_path: Path) -> MatchState:
    """A peep match of four in a house game whose pack for three is 24 cards, at the antes."""
    game = Game(house(tmp_path, "peep", SMALL_PACK), 4, {**PEEP, "sit-out": "may-sit-out"})
    match = new_match(game, hands=2)
    rng = random.Random(1)
    while match.is_chance():
        match = match.apply(match.sample_chance(rng))
    assert match.phase_name == "ante" and len(match.pack) == 52
    return match


def test_a_player_sitting_out_leaves_the_pack_of_the_table(tmp_path: Path) -> None:
    """NAP-2.2.1: the pack is the one for the players still in the match. The match shuffled
    the pack for four (the shuffle-pack refusal), then the hand refused that pack as not its
    own for three: a player's lawful sit-out was refused under NAP-2.2.1."""
    match = antes_asked(tmp_path)
    dealer = match.dealer
    match = match.apply(SitOut())  # the dealer's left sits out
    for _ in range(3):
        match = match.apply(Ante())
    hand = match.hand
    assert hand is not None and len(hand.order) == 3 and dealer in hand.order
    assert at_table(hand) == 4 and hand_pack(hand) == match.game.pack(4)
    dealt = sum(len(cards_of(hand.hands[s])) for s in hand.order)
    assert dealt == 15 and hand.widow >= 0 and len(hand.stock) == 52 - 15 - 1


@pytest.mark.parametrize(("funds", "table", "cards"), [
    (None, 4, 52),  # nobody is ever out without a fixed stock: every seat is at the table
    ((5, 5, 5, 5), 4, 52),  # seat 2 holds chips: still in, sitting this hand out
    ((5, 5, 0, 5), 3, 24),  # seat 2 has none: out of the match
    ((0, 5, 0, 5), 3, 24),  # seat 0 dealt in after paying its last chip as ante: at the table
])
def test_the_table_of_a_lone_hand_is_read_from_its_funds(
        tmp_path: Path, funds: tuple[int, ...] | None, table: int, cards: int) -> None:
    game = Game(house(tmp_path, "peep", SMALL_PACK), 4, PEEP)
    hand = game.new_hand(3, seats=(0, 1, 3), funds=funds)
    assert at_table(hand) == table and hand_pack(hand).bit_count() == cards
    hand.apply(Deal(cards_of(hand_pack(hand))))  # the table's pack is dealt
    wrong = game.pack(3 if cards == 52 else 4)  # the other table's is refused
    with pytest.raises(IllegalActionError, match=r"NAP-2\.2\.1"):
        hand.apply(Deal(cards_of(wrong)))


def test_a_pool_loss_counts_the_players_dealt_in() -> None:
    """NAP-9.2.2: the players dealt into the hand, the declarer included; not every seat."""
    game = Game.create("pagat-floater", 4)
    hand = game.new_hand(3, seats=(0, 1, 3))
    bid = next(b for b in game.rules.bids if b.lose_pool_per_player)
    owed = debts(replace(hand, declarer=0, contract=bid.index, won=0), False)
    assert [d[2] for d in owed if d[3] == "NAP-9.2.2"] == [bid.lose_pool_per_player * 3]
