"""A failure blamed on its cause, not on where it showed (issue 29, item 2).

* The inference (:mod:`napkit.conform.cause`) on engine states: a turn after a trick that fits
  other trumps, no trumps, or the highest card whatever its suit is put down to the rule behind
  that reading; a right turn, or one no reading gives, has no cause.
* The planted bugs (:mod:`conformance.mutants.planted`): copies of the JS classic adapter that
  never fix trumps, allow Wellington without a Nap, or charge 3 for a defeated Four. Under
  ``napkit conform`` each is blamed on the rule it breaks (NAP-7.1.1, NAP-5.2.5, NAP-9.2.1):
  before, the trump bug was blamed on NAP-8.1.3, NAP-8.2.1 and NAP-8.3.2 and never on
  NAP-7.1.1. ``napkit fuzz``'s reproducer of the trump bug names NAP-7.1.1 first.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main
from napkit.conform.cause import (
    LEGAL,
    OUTCOME,
    STEP,
    TURN,
    Difference,
    blame,
    infer,
    outcome_cause,
    readings,
    trick_line,
    turn_cause,
)
from napkit.engine.actions import Bid, Pass
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.phases.play import winning_card
from napkit.engine.state import AUCTION, NO_TRUMPS, PLAY
from napkit.formats.values import action_to_json

from conformance.mutants.planted import ADAPTER, BUGS, PlantError, plant, planted_source

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="node is not installed (the JavaScript adapter needs Node.js)")


# --- engine states --------------------------------------------------------------------------
def after_a_trick(wanted: Callable[[HandState], bool], players: int = 3) -> HandState:
    """The first state, over seeded random classic hands, just after a trick is complete (the
    next lead due) for which ``wanted`` holds."""
    game = Game.create("classic", players)
    for seed in range(500):
        rng = random.Random(seed)
        state = game.new_hand(dealer=0)
        state = state.apply(state.sample_chance(rng))
        while not state.is_over():
            legal = state.legal_actions()
            bids = [a for a in legal if isinstance(a, Bid)]
            # one bid, so that every hand is played out
            state = state.apply(bids[0] if bids and state.auction.high < 0 else
                                Pass() if bids else rng.choice(legal))
            if (state.phase == PLAY and state.tricks and not state.trick
                    and len(state.tricks) < 5 and wanted(state)):
                return state
    raise AssertionError("no such state in 500 seeded hands")


def winner_under(state: HandState, trumps: int, number: int = -1) -> int:
    """Who wins trick ``number`` (the last by default) were ``trumps`` trumps."""
    trick = state.tricks[number]
    return seat_at(state, trick.leader, winning_card(trick.cards, trumps))


def seat_at(state: HandState, leader: int, position: int) -> int:
    seat = leader
    for _ in range(position):
        seat = state.ring[seat]
    return seat


def highest_any(state: HandState, number: int = -1) -> int:
    trick = state.tricks[number]
    ranks = [c % 13 for c in trick.cards]
    return seat_at(state, trick.leader, ranks.index(max(ranks)))


def fits_before(state: HandState, winner: Callable[[int], int]) -> bool:
    """Whether a reading (the winner of trick i under it) gives every trick before the last
    to the seat that won it: the program accepted those leads."""
    return all(winner(i) == state.tricks[i].winner for i in range(len(state.tricks) - 1))


def trumps_fit(state: HandState, trumps: int) -> bool:
    return fits_before(state, lambda i: winner_under(state, trumps, i))


def trumped(state: HandState) -> bool:
    """The last trick was won by a trump that no-trumps would not have it won by, and no
    trick before would have gone otherwise without trumps."""
    return (winner_under(state, NO_TRUMPS) != state.tricks[-1].winner
            and trumps_fit(state, NO_TRUMPS))


def test_a_turn_that_fits_no_trumps_is_put_down_to_the_rule_that_fixes_trumps() -> None:
    state = after_a_trick(trumped)
    seat = winner_under(state, NO_TRUMPS)
    cause = turn_cause(state, seat)
    assert cause is not None and cause.rule == "NAP-7.1.1" and cause.field == "trumps"
    assert "there were no trumps" in cause.words
    assert f"trick {len(state.tricks)}" in cause.evidence
    assert f"won by seat {state.tricks[-1].winner}" in cause.evidence
    # the same through the one blame of conform and fuzz: the cause's rule first
    diff = Difference(TURN, state, state.turn, None, state.turn, seat)
    assert blame(diff)[0] == "NAP-7.1.1"


def test_a_turn_that_fits_another_trump_suit_names_that_suit() -> None:
    def other_suits(state: HandState) -> list[int]:
        """The suits that would give the last trick to a seat neither the truth nor no
        trumps gives it to, the tricks before going as they went."""
        real = state.tricks[-1].winner
        return [t for t in range(4) if t != state.trumps and trumps_fit(state, t)
                and winner_under(state, t) not in (real, winner_under(state, NO_TRUMPS))]

    state = after_a_trick(lambda s: bool(other_suits(s)))
    suit = other_suits(state)[0]
    cause = turn_cause(state, winner_under(state, suit))
    assert cause is not None and cause.rule == "NAP-7.1.1"
    names = ("spades", "hearts", "diamonds", "clubs")
    assert f"{names[suit]} were trumps" in cause.words
    assert f"{names[state.trumps].capitalize()} are trumps" in cause.words


def test_a_turn_that_fits_the_highest_card_whatever_its_suit_is_put_down_to_trick_winning(
        ) -> None:
    def highest_only(state: HandState) -> bool:
        """The highest card whatever its suit gives the last trick to a seat no other
        trumps would (with the tricks before as they went), and the tricks before as they
        went."""
        seat = highest_any(state)
        return (seat != state.tricks[-1].winner
                and fits_before(state, lambda i: highest_any(state, i))
                and not any(trumps_fit(state, t) and winner_under(state, t) == seat
                            for t in (NO_TRUMPS, 0, 1, 2, 3) if t != state.trumps))

    state = after_a_trick(highest_only)
    cause = turn_cause(state, highest_any(state))
    assert cause is not None and cause.rule == "NAP-8.2.1" and cause.field == "trick winner"
    assert "the highest card won, whatever its suit" in cause.words


def test_a_right_turn_or_one_no_reading_gives_has_no_cause() -> None:
    state = after_a_trick(trumped, players=6)
    assert turn_cause(state, state.turn) is None
    # the seats no reading gives the last trick to fit none
    trick = state.tricks[-1]
    given = {state.turn} | {seat_at(state, trick.leader, r.winner(trick.cards))
                            for r in readings(state)}
    left = [s for s in state.order if s not in given]
    assert left
    for seat in left:
        assert turn_cause(state, seat) is None
    # nothing to go on: no cause, and blame falls back to the step's rules
    assert infer(Difference(TURN, state, state.turn, None, state.turn, "chance")) is None


def test_the_last_trick_is_drawn_with_its_winner_and_why() -> None:
    state = after_a_trick(trumped)
    line = trick_line(state, len(state.tricks))
    trick = state.tricks[-1]
    assert line.startswith(f"trick {len(state.tricks)}: seat {trick.leader} ")
    names = ("spades", "hearts", "diamonds", "clubs")
    assert f"won by seat {trick.winner}" in line
    assert f"{names[state.trumps]} are trumps (NAP-7.1.1)" in line


def test_the_first_lead_and_the_auction_order_have_causes() -> None:
    game = Game.create("classic", 4)
    state = game.new_hand(dealer=0)
    state = state.apply(state.sample_chance(random.Random(3)))
    assert state.phase == AUCTION and state.turn == 1
    cause = turn_cause(state, 0)  # the dealer speaking first
    assert cause is not None and cause.rule == "NAP-5.1.1"
    cause = turn_cause(state, 3)  # the dealer's right: anticlockwise
    assert cause is not None and cause.rule == "NAP-1.2.1"
    state = state.apply(Bid("three"))
    for _ in range(3):
        state = state.apply(Pass())
    assert state.phase == PLAY and state.turn == 1
    cause = turn_cause(state, 2)  # the declarer's left leading
    assert cause is not None and cause.rule == "NAP-7.2.1" and "declarer's left" in cause.words


def test_wellington_listed_without_a_nap_is_put_down_to_its_prerequisite() -> None:
    game = Game.create("classic", 3)
    state = game.new_hand(dealer=0)
    state = state.apply(state.sample_chance(random.Random(1)))
    expected = [action_to_json(a) for a in state.legal_actions()]
    got = [*expected, {"type": "bid", "bid": "wellington"}]
    diff = Difference(LEGAL, state, state.turn, None, expected, got)
    cause = infer(diff)
    assert cause is not None and cause.rule == "NAP-5.2.5" and "wellington" in cause.words
    assert blame(diff)[0] == "NAP-5.2.5"


def test_a_payment_of_another_amount_is_put_down_to_its_rule_with_the_amounts() -> None:
    expected = [{"payer": 1, "payee": 0, "amount": 4, "rule": "NAP-9.2.1"},
                {"payer": 1, "payee": 2, "amount": 4, "rule": "NAP-9.2.1"}]
    got = [{**p, "amount": 3} for p in expected]
    cause = outcome_cause(None, "outcome.payments", expected, got)
    assert cause is not None and cause.rule == "NAP-9.2.1"
    assert "pays seat 0 4" in cause.words and "pay 3" in cause.words
    assert blame(Difference(OUTCOME, None, expected=expected, got=got,
                            field="outcome.payments"))[0] == "NAP-9.2.1"


# --- the planted bugs -------------------------------------------------------------------------
def test_each_bug_is_planted_by_one_exact_replacement(tmp_path: Path) -> None:
    source = ADAPTER.read_text(encoding="utf-8")
    for name, bug in BUGS.items():
        text = planted_source([name], source)
        assert bug.old not in text and bug.new in text and f"js-classic+{name}" in text
        assert bug.rule.startswith("NAP-")
    path = plant(list(BUGS), tmp_path / "all")
    assert path == tmp_path / "all" / "adapter.js" and path.is_file()
    with pytest.raises(PlantError, match="unknown bug 'nope'"):
        planted_source(["nope"], source)
    # the adapter changed under a bug: an error naming it, not a copy without the bug
    changed = source.replace(BUGS["four-defeat-costs-3"].old, "")
    with pytest.raises(PlantError, match=r"four-defeat-costs-3: .* found 0 times"):
        planted_source(["four-defeat-costs-3"], changed)


def test_the_command_line_writes_a_copy_and_refuses_an_unknown_bug(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "conformance.mutants.planted", "--help"],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0 and "example:" in run.stdout and "NAP-7.1.1" in run.stdout
    bad = subprocess.run([sys.executable, "-m", "conformance.mutants.planted", "nope", "-o",
                          str(tmp_path)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown bug" in bad.stderr


def conform(tmp_path: Path, capsys: pytest.CaptureFixture[str], bug: str,
            *args: str) -> dict[str, Any]:
    """``napkit conform --ruleset classic`` in this process against a copy with ``bug``."""
    copy = plant([bug], tmp_path / bug)
    report = tmp_path / f"{bug}.json"
    assert NODE is not None
    status = main(["conform", "-q", "--ruleset", "classic", "--json", str(report), *args,
                   "--", NODE, str(copy)])
    capsys.readouterr()
    assert status == 1
    result: dict[str, Any] = json.loads(report.read_text())
    return result


@needs_node
def test_the_trump_bug_is_blamed_on_the_rule_that_fixes_trumps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = conform(tmp_path, capsys, "trumps-never-fixed")
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    blamed = {rule: counts["failed"] for rule, counts in report["by_blamed_rule"].items()}
    # before: NAP-8.1.3 65, NAP-8.2.1 11, NAP-8.3.2 5, NAP-7.1.1 none
    assert blamed.get("NAP-7.1.1", 0) > len(failed) / 2, blamed
    caused = [c for c in failed if c["failure"]["cause"] is not None]
    assert caused and all(c["blamed"] == [c["failure"]["cause"]["rule"]] for c in caused)
    turn = next(c for c in caused if "whose turn" in c["message"])
    failure = turn["failure"]
    assert failure["cause"]["field"] == "trumps" and failure["cause"]["evidence"]
    assert "NAP-8.1.3" in [r["rule"] for r in failure["showed"]]  # where it showed
    assert failure["last_trick"].startswith("trick ") and "are trumps" in failure["last_trick"]


@needs_node
def test_the_wellington_bug_is_blamed_on_its_prerequisite(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = conform(tmp_path, capsys, "wellington-without-nap")
    assert set(report["by_blamed_rule"]) == {"NAP-5.2.5"}
    legal = [c for c in report["cases"] if c["status"] == "failed" and "/legal/" in c["id"]]
    assert legal and all(c["failure"]["cause"]["rule"] == "NAP-5.2.5" for c in legal)


@needs_node
def test_the_four_bug_is_blamed_on_the_payment_rule_with_the_amounts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = conform(tmp_path, capsys, "four-defeat-costs-3", "--kind", "outcome")
    assert set(report["by_blamed_rule"]) == {"NAP-9.2.1"}
    causes = [c["failure"]["cause"] for c in report["cases"] if c["status"] == "failed"]
    assert causes and all(c is not None and c["rule"] == "NAP-9.2.1" for c in causes)
    assert all("was defeated" in c["words"] and "pay 3" in c["words"] for c in causes)


@needs_node
def test_the_fuzzers_reproducer_of_the_trump_bug_names_the_rule_that_fixes_trumps(
        tmp_path: Path) -> None:
    copy = plant(["trumps-never-fixed"], tmp_path / "copy")
    case = tmp_path / "case.json"
    assert NODE is not None
    run = subprocess.run([sys.executable, "-m", "napkit", "fuzz", "-q", "--ruleset", "classic",
                          "--first", "--seed", "1", "--hands", "200", "--shrink-seconds", "2",
                          "-o", str(case), "--", NODE, str(copy)],
                         capture_output=True, text=True, cwd=tmp_path, check=False, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    found = json.loads(case.read_text())
    # before: "The rule: NAP-8.1.3" (or NAP-8.2.1), the rule of the step where it showed
    assert "The rule: NAP-7.1.1 " in found["description"], found["description"]
    assert "NAP-7.1.1" in found["rules"]


def test_a_step_refused_is_put_down_first_to_the_rule_the_program_named() -> None:
    # Of the rules the engine goes through to accept the step, the one the program refused it
    # under comes first (before, the law book's first, NAP-1.3.1, named every such step).
    game = Game.create("classic", 3)
    state = game.new_hand(dealer=0)
    state = state.apply(state.sample_chance(random.Random(1)))
    refused = {"type": "refused", "rule": "NAP-5.2.5", "reason": "no"}
    diff = Difference(STEP, state, state.turn, Bid("three"), "accepted", refused)
    assert infer(diff) is None
    assert blame(diff)[0] == "NAP-5.2.5"
    assert blame(Difference(STEP, state, state.turn, Bid("three")))[0] == "NAP-1.3.1"
