"""The auction variants of house play (issue 28): the dealer stuck (NAP-5.3.3,
``auction.dealer_must_bid``) and the auction that reopens (NAP-5.1.2, ``auction.rounds``
``reopening``), each in a house game extending a built-in ruleset.

Every expectation is worked out from the law book's text, not read from the engine: the table
is four players, dealer seat 3, so the auction opens with seat 0 and the dealer speaks last
(NAP-5.1.1).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.suite.breaches import BREACH_BY_NAME, possible, refusal
from napkit.engine.acting import act
from napkit.engine.actions import PASS, PEEK, Action, Bid, Pass, Peek
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.state import AUCTION
from napkit.errors import IllegalActionError
from napkit.formats.notation import parse_action
from napkit.spec.catalog import default_spec
from napkit.spec.house import load_house_ruleset
from napkit.spec.rulesets import Ruleset

DEALER = 3


def house(tmp_path: Path, extends: str, auction: dict[str, Any], **more: Any) -> Ruleset:
    document = {"house": True, "id": f"{extends}-variant", "title": "a variant",
                "extends": extends, "params": {"auction": auction}, **more}
    path = tmp_path / f"{extends}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return load_house_ruleset(path)


def dealt(ruleset: Ruleset, options: dict[str, str] | None = None, players: int = 4,
          seats: tuple[int, ...] | None = None, seed: int = 1) -> HandState:
    hand = Game(ruleset, players, options or {}).new_hand(DEALER, seats=seats)
    return hand.apply(hand.sample_chance(random.Random(seed)))


def calls(hand: HandState, *texts: str) -> HandState:
    for text in texts:
        hand = hand.apply(parse_action(text))
    return hand


def words(actions: tuple[Action, ...]) -> list[str]:
    return [str(a) for a in actions]


# --- the dealer stuck (NAP-5.3.3) ------------------------------------------------------------

def test_the_stuck_dealer_may_not_pass(tmp_path: Path) -> None:
    stick = house(tmp_path, "classic", {"dealer_must_bid": True})
    assert "NAP-5.3.3" in stick.rules
    hand = calls(dealt(stick), "pass", "pass", "pass")
    assert hand.turn == DEALER
    # Every bid the dealer may make, and no pass (Wellington only after a Nap, NAP-5.2.5).
    assert words(hand.legal_actions()) == ["bid three", "bid four", "bid nap"]
    assert not hand.is_legal(PASS)
    with pytest.raises(IllegalActionError) as refused:
        hand.apply(PASS)
    assert refused.value.rule == "NAP-5.3.3"
    assert refusal(hand, DEALER, PASS)[0] == "NAP-5.3.3"
    # Out of turn is refused first (NAP-1.3.4): the rule of the turn, not this one.
    with pytest.raises(IllegalActionError) as other:
        act(hand, 0, PASS)
    assert other.value.rule == "NAP-1.3.1"
    after = hand.apply(Bid("four"))  # any bid, not only the lowest
    assert (after.declarer, after.contract_bid and after.contract_bid.id) == (DEALER, "four")


def test_the_dealer_is_not_stuck_once_anyone_bid(tmp_path: Path) -> None:
    stick = house(tmp_path, "classic", {"dealer_must_bid": True})
    hand = calls(dealt(stick), "pass", "bid three", "pass")
    assert PASS in hand.legal_actions()
    after = hand.apply(PASS)
    assert after.declarer == 1 and after.contract_bid is not None
    assert after.contract_bid.id == "three"


def test_nobody_but_the_last_to_speak_is_stuck(tmp_path: Path) -> None:
    stick = house(tmp_path, "classic", {"dealer_must_bid": True})
    hand = dealt(stick)
    for seat in (0, 1, 2):
        assert hand.turn == seat and PASS in hand.legal_actions()
        hand = hand.apply(PASS)


def test_without_the_parameter_everyone_may_pass_and_the_hand_is_thrown_in(
        tmp_path: Path) -> None:
    for ruleset in (default_spec().rulesets["classic"],
                    house(tmp_path, "classic", {"dealer_must_bid": False})):
        hand = calls(dealt(ruleset), "pass", "pass", "pass")
        assert PASS in hand.legal_actions()
        over = hand.apply(PASS)
        assert over.is_over() and over.result is not None and over.result.thrown_in


def test_a_stuck_dealer_may_still_buy_a_look(tmp_path: Path) -> None:
    # Peep sells looks at the widow (NAP-6.1.1): the dealer may look, then must bid.
    stick = house(tmp_path, "peep", {"dealer_must_bid": True})
    hand = calls(dealt(stick), "pass", "pass", "pass")
    legal = hand.legal_actions()
    assert PEEK in legal and PASS not in legal and any(isinstance(a, Bid) for a in legal)
    looked = hand.apply(PEEK)
    assert looked.turn == DEALER
    legal = looked.legal_actions()
    assert legal and all(isinstance(a, Bid) for a in legal)
    with pytest.raises(IllegalActionError) as refused:
        looked.apply(PASS)
    assert refused.value.rule == "NAP-5.3.3"


def test_in_an_auction_until_passes_the_dealer_is_stuck_only_if_nobody_bid(
        tmp_path: Path) -> None:
    stick = house(tmp_path, "napoleon", {"dealer_must_bid": True})
    until = {"auction": "until-passes"}
    hand = calls(dealt(stick, until), "pass", "pass", "pass")
    assert hand.turn == DEALER and PASS not in hand.legal_actions()
    hand = calls(dealt(stick, until), "pass", "bid one", "pass")
    assert hand.turn == DEALER and PASS in hand.legal_actions()
    # The dealer passes; seat 1 alone has not passed: the auction ends with their bid.
    after = hand.apply(PASS)
    assert after.declarer == 1


def test_in_a_raising_auction_the_dealer_is_stuck_only_in_the_first_round(
        tmp_path: Path) -> None:
    stick = house(tmp_path, "pub-floater", {"dealer_must_bid": True})
    hand = calls(dealt(stick), "pass", "pass", "pass")
    legal = hand.legal_actions()
    assert PASS not in legal
    bid = next(a for a in legal if isinstance(a, Bid))
    hand = hand.apply(bid)
    # The raising round (NAP-5.4.1, bidders by default): the dealer alone, who may pass.
    assert hand.phase == AUCTION and hand.turn == DEALER and hand.auction.round == 2
    assert PASS in hand.legal_actions()
    assert hand.apply(PASS).declarer == DEALER


def test_where_the_dealer_sits_out_the_last_to_speak_is_stuck(tmp_path: Path) -> None:
    stick = house(tmp_path, "classic", {"dealer_must_bid": True})
    hand = calls(dealt(stick, seats=(0, 1, 2)), "pass", "pass")
    assert hand.turn == 2 and PASS not in hand.legal_actions()
    assert hand.refusal(PASS) is not None


def test_the_refusal_is_a_breach_where_the_dealer_is_stuck(tmp_path: Path) -> None:
    breach = BREACH_BY_NAME["dealer-passes-stuck"]
    assert breach.rule == "NAP-5.3.3"
    stick = house(tmp_path, "classic", {"dealer_must_bid": True})
    assert possible(breach, Game(stick, 4))
    # Not where the dealer may pass: every built-in ruleset, and a house game set false.
    assert not possible(breach, Game(house(tmp_path, "pagat", {"dealer_must_bid": False}), 4))
    for ruleset in default_spec().rulesets.values():
        assert "NAP-5.3.3" not in ruleset.rules
        assert not possible(breach, Game(ruleset, 4))
    assert breach.find is not None
    rng = random.Random(0)
    hand = dealt(stick)
    assert breach.find(hand, rng) == []  # seat 0 speaks: nobody is stuck
    hand = calls(hand, "pass", "pass", "pass")
    assert breach.find(hand, rng) == [(DEALER, PASS)]
    assert breach.find(calls(dealt(stick), "pass", "bid three", "pass"), rng) == []


# --- the auction that reopens (NAP-5.1.2, reopening) --------------------------------------------

def test_a_player_who_passed_speaks_again_until_a_round_of_passes(tmp_path: Path) -> None:
    reopening = house(tmp_path, "classic", {"rounds": "reopening"})
    hand = dealt(reopening)
    turns = []
    for text in ("pass", "bid three", "pass", "pass", "bid four", "pass", "pass"):
        turns.append(hand.turn)
        hand = hand.apply(parse_action(text))
    # Seat 0 passed, then bid four at its next turn; seat 1, outbid, speaks again too.
    assert turns == [0, 1, 2, 3, 0, 1, 2]
    assert hand.phase == AUCTION and hand.turn == 3
    assert words(hand.legal_actions()) == ["pass", "bid nap"]  # still above four (NAP-5.2.1)
    with pytest.raises(IllegalActionError) as lower:
        hand.apply(Bid("three"))
    assert lower.value.rule == "NAP-5.2.1"
    over = hand.apply(PASS)  # seats 1, 2 and 3 have passed since seat 0's bid
    assert over.phase != AUCTION and over.declarer == 0
    assert over.contract_bid is not None and over.contract_bid.id == "four"


def test_a_reopening_auction_nobody_bids_in_ends_after_one_round(tmp_path: Path) -> None:
    reopening = house(tmp_path, "classic", {"rounds": "reopening"})
    over = calls(dealt(reopening), "pass", "pass", "pass", "pass")
    assert over.is_over() and over.result is not None and over.result.thrown_in


def test_a_bid_nobody_can_overbid_is_followed_by_passes_only(tmp_path: Path) -> None:
    reopening = house(tmp_path, "classic", {"rounds": "reopening"})
    hand = calls(dealt(reopening), "bid nap", "bid wellington")
    for seat in (2, 3, 0):
        assert hand.turn == seat and hand.legal_actions() == (PASS,)
        hand = hand.apply(PASS)
    assert hand.declarer == 1 and hand.contract_bid is not None
    assert hand.contract_bid.id == "wellington"


def test_the_highest_bidder_is_never_asked(tmp_path: Path) -> None:
    reopening = house(tmp_path, "classic", {"rounds": "reopening"})
    hand = calls(dealt(reopening), "bid three", "pass", "pass")
    assert hand.turn == 3
    over = hand.apply(PASS)
    assert over.phase != AUCTION and over.declarer == 0


@pytest.mark.parametrize("stuck", [False, True])
@pytest.mark.parametrize("extends", ["classic", "peep", "pub-floater", "napoleon"])
def test_random_reopening_auctions_end(tmp_path: Path, extends: str, stuck: bool) -> None:
    # Each bid ranks above the last, and between two bids come fewer passes than players:
    # an auction takes at most (bids + 1) * players calls, looks aside.
    ruleset = house(tmp_path, extends, {"rounds": "reopening", "dealer_must_bid": stuck})
    rng = random.Random(f"{extends}{stuck}")
    for players in (3, 4, 5):
        game = Game(ruleset, players)
        bound = (len(game.rules.bids) + 1) * players
        for _ in range(60):
            hand = game.new_hand(rng.randrange(players))
            hand = hand.apply(hand.sample_chance(rng))
            while hand.phase != AUCTION and not hand.is_over():  # purchases, where sold
                hand = hand.apply(hand.sample_chance(rng) if hand.is_chance()
                                  else rng.choice(hand.legal_actions()))
            speeches = 0
            while hand.phase == AUCTION:
                action = rng.choice(hand.legal_actions())
                speeches += not isinstance(action, Peek)
                if stuck and hand.auction.high < 0 and isinstance(action, Pass):
                    assert hand.auction.passed.bit_count() < len(hand.order) - 1
                hand = hand.apply(action)
            assert speeches <= bound
            if stuck:
                assert hand.result is None or not hand.result.thrown_in
