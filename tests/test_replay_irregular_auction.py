"""napkit replay of a hand whose auction breaks its ruleset (issue 30, item 1): Wellington bid
though nobody bid Nap (NAP-5.2.5), a bid out of turn (NAP-1.3.1), a bid that does not outrank
the last (NAP-5.2.1). The notation reader reads such a hand with ``irregular``; each ruleset's
column names the first step it refuses and goes on as the table made the call
(:func:`napkit.engine.hand.as_bid`), to a settlement where the ruleset has the bid.

The expectations are worked by hand from the hands and the sources, not taken from the engine."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from napkit import Game
from napkit.cli import main
from napkit.dispute.replay import replay_under, target, targets
from napkit.engine.actions import Bid, Pass, Play
from napkit.engine.hand import HandState, as_bid
from napkit.engine.state import AUCTION
from napkit.errors import IllegalActionError
from napkit.formats.handtext import HandFileError, read_hand_text
from napkit.spec.house import load_house_ruleset

from tests.test_replay_irregular import FLOATERS, IRREGULAR, SPEC, read

WELLINGTON = IRREGULAR / "wellington-without-nap.nap"
OUT_OF_TURN = IRREGULAR / "bid-out-of-turn.nap"


def test_the_reader_keeps_the_calls_as_the_table_made_them() -> None:
    steps = [(s["seat"], s["action"]) for s in read(OUT_OF_TURN)["actions"][:4]]
    assert steps == [(1, {"type": "pass"}), (3, {"type": "bid", "bid": "three"}),
                     (0, {"type": "pass"}), (2, {"type": "pass"})]


def test_wellington_without_nap_under_every_ruleset() -> None:
    """Seat 2 bids Wellington over seat 1's Three, though nobody bid Nap: pagat (004_...txt
    L28) and the classic page (000_...txt L29) allow it only after Nap. Played on, seat 2
    leads AS (spades trumps, fixed by the lead) and takes every trick: Wellington made, 10
    units from each opponent (004_...txt L47; 000_...txt L43). Napoleon also needs Napoleon
    first, and a Wellington declarer there must lead the lowest trump (002_...txt L11, L18):
    its column notes the AS led as a later refusal. Peep has no Wellington: its Nap, the one
    bid of five tricks, stands for it, and is allowed."""
    record = read(WELLINGTON)
    for verdict in (replay_under(record, t) for t in targets(SPEC, ["all"])):
        label = verdict.target.label
        if label in FLOATERS:  # a pack of ace to nine: the twos to sixes are not in it
            assert verdict.setup is not None and verdict.setup.rule == "NAP-2.2.1", label
            continue
        state = verdict.state
        assert state is not None and state.result is not None, label
        assert state.declarer == 2 and state.result.trick_winners == (2,) * 5, label
        assert state.result.made, label
        bid = state.game.rules.bids[state.contract].id
        if label == "peep":
            assert verdict.legal and verdict.readings == ("step 2: bid wellington read as nap",)
            assert bid == "nap"
            continue
        assert bid == "wellington", label
        parting = verdict.parting
        assert parting is not None and verdict.played_on, label
        assert (parting.step, parting.seat, parting.action, parting.rule) == (
            2, 2, "bid wellington", "NAP-5.2.5"), label
        later = [(p.step, p.rule) for p in verdict.later]
        assert later == ([(5, "NAP-7.2.2")] if label == "napoleon" else []), label
        if label in ("pagat", "classic"):
            assert state.result.net == (-10, -10, 30, -10), label


def test_a_bid_out_of_turn_under_every_ruleset() -> None:
    """Seat 3 bids Three where seat 2 is to speak; the dealer (seat 0), next round from seat
    3, passes, then seat 2, the last still to speak. Seat 3 is the declarer, leads AS and
    takes every trick."""
    record = read(OUT_OF_TURN)
    for verdict in (replay_under(record, t) for t in targets(SPEC, ["all"])):
        label = verdict.target.label
        if label in FLOATERS:
            assert verdict.setup is not None, label
            continue
        parting = verdict.parting
        assert parting is not None and verdict.played_on, label
        assert (parting.step, parting.seat, parting.action, parting.rule) == (
            2, 3, "bid three", "NAP-1.3.1"), label
        assert verdict.later == (), label  # seat 0, then seat 2: in turn once seat 3 spoke
        state = verdict.state
        assert state is not None and state.result is not None, label
        assert state.declarer == 3 and state.game.rules.bids[state.contract].id == "three"
        assert state.result.made and state.result.tricks == 5, label


def hand_text(auction: str, leader: int) -> str:
    """The out-of-turn hand's deal with another auction, ``leader`` leading every trick from
    the one suit it holds (no other seat holds a card of it, so it wins every trick)."""
    deal = OUT_OF_TURN.read_text(encoding="utf-8").split("auction:")[0]
    held = {1: "2H 3H 4H 5H 6H", 2: "2D 3D 4D 5D 6D", 3: "AS KS QS JS 10S",
            0: "2C 3C 4C 5C 6C"}
    seats = [(leader + i) % 4 for i in range(4)]
    tricks = [", ".join(f"{s} {held[s].split()[t]}" for s in seats) for t in range(5)]
    return deal + f"auction: {auction}\nplay: " + "\n  ".join(tricks) + "\n"


def test_a_bid_below_the_last_is_the_contract_if_nobody_bids_after() -> None:
    """Seat 2 bids Three over seat 1's Four (NAP-5.2.1): the table played the Three, and
    seat 2, leading its diamonds, takes every trick."""
    text = hand_text("1 bid four, 2 bid three, 3 pass, 0 pass", leader=2)
    with pytest.raises(HandFileError, match=r"NAP-5\.2\.1"):
        read_hand_text(text, "lower.nap")
    record = read_hand_text(text, "lower.nap", irregular=True)
    verdict = replay_under(record, target(SPEC, "classic"))
    assert verdict.parting is not None and verdict.parting.rule == "NAP-5.2.1"
    assert verdict.later == () and verdict.played_on
    state = verdict.state
    assert state is not None and state.result is not None
    assert (state.declarer, state.game.rules.bids[state.contract].id) == (2, "three")
    assert state.result.made and state.result.tricks == 5


def test_a_second_bid_after_passing_is_refused_by_turn_and_played_on() -> None:
    """Seat 1 passes, then bids Four after seat 2's Three (where seat 3 is to speak): in a
    single round each speaks once (NAP-5.1.2), so it is out of turn. The Four stands; the
    turn goes on round from seat 1 to seat 3, then the dealer."""
    text = hand_text("1 pass, 2 bid three, 1 bid four, 3 pass, 0 pass", leader=1)
    record = read_hand_text(text, "again.nap", irregular=True)
    verdict = replay_under(record, target(SPEC, "pagat"))
    assert verdict.parting is not None
    assert (verdict.parting.step, verdict.parting.rule) == (3, "NAP-1.3.1")
    assert verdict.later == () and verdict.played_on
    state = verdict.state
    assert state is not None and state.result is not None and state.result.made
    assert (state.declarer, state.game.rules.bids[state.contract].id) == (1, "four")


def test_a_bid_the_ruleset_has_not_got_cannot_be_followed() -> None:
    hand = Game.create("pagat", 4).new_hand(0)
    hand = hand.apply(hand.sample_chance(random.Random(1)))
    with pytest.raises(IllegalActionError, match="no such bid") as refused:
        as_bid(hand, 1, Bid("bonaparte"))
    assert refused.value.rule == "NAP-5.2.2"
    with pytest.raises(IllegalActionError):
        as_bid(hand, 1, Play(0))


# A single round, a raising round after it (pub-floater), auctions until passes.
AUCTIONS: tuple[tuple[str, int, dict[str, str]], ...] = (
    ("pagat", 4, {}), ("classic", 3, {}), ("pub-floater", 5, {}), ("napoleon", 4, {}),
    ("napoleon", 4, {"auction": "until-passes"}), ("peep", 5, {"auction": "until-passes"}))


@pytest.mark.parametrize(("ruleset", "players", "options"), AUCTIONS)
def test_as_bid_is_the_rules_call_for_a_legal_call(
        ruleset: str, players: int, options: dict[str, str]) -> None:
    """The engine's one function for irregular calls agrees with the auction wherever the
    call is legal: the same hand after it, field for field, in every kind of auction."""
    assert_as_bid_is_apply(Game.create(ruleset, players, options))


def test_as_bid_is_the_rules_call_in_a_reopening_auction_with_the_dealer_stuck(
        tmp_path: Path) -> None:
    path = tmp_path / "reopening.json"
    path.write_text(json.dumps({
        "house": True, "id": "classic-reopening", "title": "a variant", "extends": "classic",
        "params": {"auction": {"rounds": "reopening", "dealer_must_bid": True}}}),
        encoding="utf-8")
    assert_as_bid_is_apply(Game(load_house_ruleset(path), 4, {}))


def assert_as_bid_is_apply(game: Game) -> None:
    compared = 0
    for seed in range(12):
        rng = random.Random(seed)
        hand: HandState = game.new_hand(seed % game.players)
        hand = hand.apply(hand.sample_chance(rng))
        while hand.phase == AUCTION:
            legal = [a for a in hand.legal_actions() if isinstance(a, Bid | Pass)]
            call = rng.choice(legal)
            after = hand.apply(call)
            assert as_bid(hand, hand.turn, call) == after, (game.id, seed, str(call))
            compared += 1
            hand = after
    assert compared > 12


def test_replay_cli_names_the_auction_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(WELLINGTON), "--under", "pagat"]) == 1
    out = capsys.readouterr().out
    assert "refuses step 2: S2 bid wellington: NAP-5.2.5: Wellington may be bid only after Nap" \
        in out
    assert "played on as the table played it: S2 bid wellington (Wellington) and made it" in out
