"""napkit fuzz's reproducers (spec/conformance.md 2.5, 4.2): of a program that makes its own
chance events (the events it made recorded as the case's steps, an event the rules refuse
named by its rule, the case rerun by ``napkit conform --case`` or, where it cannot be handed
over, why and how to see it again), every one a case the schema accepts; and the reproducer
as a person reads it (the position in plain words, the deal as the one table failures draw
too, the cause and its rule).

The episodes are played in this process against programs built on the reference adapter
(tests/fixtures/adapters/deals_too.py: chance "both", with planted bugs of chance), as
``napkit fuzz --program-deals`` plays them: no campaign is run.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from napkit.conform.fuzz.campaign import episode_seed
from napkit.conform.fuzz.episodes import (
    Disagreement,
    Episode,
    Games,
    Prober,
    check_with_program_chance,
    scope_of,
)
from napkit.conform.fuzz.reproducer import broken, readable, reproducer_case
from napkit.conform.fuzz.shrink import Choices
from napkit.conform.report.drawing import deal_json, deal_lines, position
from napkit.conform.report.failure import Failure
from napkit.conform.run.runner import FAILED, PASSED, CaseResult, run_case
from napkit.conform.suite.cases import Case, check_document
from napkit.engine.game import Game
from napkit.engine.state import AUCTION, PLAY
from napkit.players.playout import play_out
from napkit.protocol.adapter import Adapter
from napkit.protocol.process import InProcessChannel, Session, process_opener
from napkit.spec.catalog import default_spec

from tests.fixtures.adapters.deals_too import DealsToo

ROOT = Path(__file__).resolve().parents[1]
DEALS_TOO = ROOT / "tests" / "fixtures" / "adapters" / "deals_too.py"
DEALS_ITSELF = ROOT / "tests" / "fixtures" / "adapters" / "deals_itself.py"
JSONObject = dict[str, Any]


class Channel(InProcessChannel):
    """An adapter of the tests' called in this process (as napkit's own is)."""

    def __init__(self, adapter: Adapter) -> None:
        super().__init__(adapter=adapter)


def session_of(make: Callable[[], Any]) -> Session:
    session = Session(make, 60.0, 60.0)
    session.open()
    return session


def found_in(session: Session, seed: int, kinds: Sequence[str] = (),
             episodes: int = 60) -> tuple[Episode, Disagreement]:
    """The first disagreement of a campaign of ``seed`` whose chance events the program makes
    (``napkit fuzz --program-deals``), as napkit fuzz draws its episodes."""
    assert session.hello is not None
    rulesets = default_spec().rulesets
    scope = scope_of(session.hello.supports, rulesets, only_kinds=kinds)
    chance = session.hello.supports.get("chance")
    games, prober = Games(rulesets), Prober(chance != "program", chance == "harness")
    for index in range(episodes):
        if not session.alive:
            session.open()
        episode, verdict = check_with_program_chance(
            scope, games, prober, Choices(seed=episode_seed(seed, index)), index, session)
        if verdict.disagreement is not None:
            return episode, verdict.disagreement
    raise AssertionError(f"no disagreement in {episodes} episodes")


def written(episode: Episode, found: Disagreement, seed: int) -> JSONObject:
    """The reproducer, checked as a case file is: the schema and the case's parts."""
    case = reproducer_case(episode, found, seed, f"napkit fuzz --seed {seed}", "a program")
    assert check_document(case) == [], check_document(case)
    return case


def rerun(case: JSONObject, make: Callable[[], Any]) -> CaseResult:
    """The case run again (napkit conform --case) against a fresh start of a program."""
    return run_case(Case.from_document(case, Path("fuzz.json")), session_of(make))


def reference() -> InProcessChannel:
    return InProcessChannel()


# --- the reproducer crashed on an illegal chance try where chance was due (item 3) ---------
def test_a_bad_chance_event_the_program_accepts_where_it_makes_them_is_written() -> None:
    """A program that makes its chance events and takes them ("both") is handed a bad first
    dealer or cut where it would make the event itself; the try was asked with the chance
    request, so the episode stops there, before the step: writing the reproducer died
    (IndexError), for the episode had lost the try."""
    def loose() -> Channel:
        return Channel(DealsToo(3, loose=True))

    episode, found = found_in(session_of(loose), 1)
    assert found.ref.part == "probe" and found.ref.step == len(episode.steps), found.ref
    case = written(episode, found, 1)
    refuse = case["expect"]["refuse"]
    assert case["kind"] == "illegal" and refuse["seat"] is None
    assert any(t.startswith("breach-") for t in case["tags"])
    assert broken(episode, found)[0] == refuse["rule"] and refuse["rule"] in case["rules"]
    assert any("illegal try" in line for line in readable(episode, found, case))
    failed = rerun(case, loose)
    assert failed.status == FAILED and failed.where == "refuse", failed.message
    assert rerun(case, reference).status == PASSED


def test_a_wrong_turn_where_chance_is_to_act_is_written_as_a_legal_case() -> None:
    """The program says a seat is to act where chance is (its legal answer before the chance
    request): the case ends with a chance step carrying the empty legal list, so the program
    is asked whose turn it is there again (writing it died with IndexError)."""
    class NoChanceTurn(DealsToo):
        def handle(self, request: object) -> dict[str, Any]:
            answer = super().handle(request)
            if answer.get("type") == "legal" and answer.get("turn") == "chance":
                answer = {**answer, "turn": 0}
            return answer

    def program() -> Channel:
        return Channel(NoChanceTurn(2))

    episode, found = found_in(session_of(program), 2, kinds=("legal", "outcome"))
    assert found.ref.part == "legal" and found.ref.step == len(episode.steps), found.ref
    case = written(episode, found, 2)
    last = case["steps"][-1]
    assert case["kind"] == "legal" and last["seat"] is None and last["legal"] == []
    again = rerun(case, program)
    assert again.status == FAILED and "whose turn" in again.message, again.message
    assert rerun(case, reference).status == PASSED


# --- a program that deals for itself (item 3) -----------------------------------------------
def test_a_pack_the_program_dealt_short_is_an_illegal_case_under_its_rule() -> None:
    """The program dealt a hand a card short: the reproducer hands it that deal as chance's
    try, refused under NAP-2.2.1 (the rule broken; it named NAP-1.3.1, with no steps and an
    empty expectation), and it says it was not shrunk, and why."""
    episode, found = found_in(session_of(lambda: Channel(DealsToo(4, short_deal=1))), 4,
                              kinds=("legal", "illegal", "outcome"))
    case = written(episode, found, 4)
    assert case["kind"] == "illegal" and "breach-deal" in case["tags"]
    assert case["expect"]["refuse"]["rule"] == "NAP-2.2.1"
    assert case["expect"]["refuse"]["action"]["type"] == "deal"
    assert broken(episode, found)[0] == "NAP-2.2.1" and "NAP-2.2.1" in case["rules"]
    assert "not shrunk (the program makes its own chance events" in case["description"]
    assert "and shrunk" not in case["description"]
    assert "The rule: NAP-2.2.1" in case["description"]
    # Handed to a program that does not make its own events, it is refused: the case passes.
    assert rerun(case, reference).status == PASSED


def test_a_pack_the_case_format_cannot_hold_is_named_and_explained() -> None:
    """A pack with a card twice: no case can hold it (a case lists a pack's cards once each),
    so the reproducer ends where chance is to act, says why, and still names NAP-2.2.1."""
    episode, found = found_in(session_of(lambda: Channel(DealsToo(4, bad_deal=1))), 4,
                              kinds=("legal", "illegal", "outcome"))
    case = written(episode, found, 4)
    assert case["kind"] == "legal" and case["steps"][-1]["seat"] is None
    assert "NAP-2.2.1" in case["rules"] and "more than once" in case["description"]
    assert "NAP-2.2.1 The pack for a number of players" in readable(episode, found, case)


def test_the_deals_a_program_made_are_the_reproducer_s_steps_and_it_fails_again() -> None:
    """A bug of play in a program that makes its own chance events: the reproducer's steps
    are the deals it made and the actions to the disagreement, and handed those deals
    (napkit conform --case), the program fails the same way; the reference passes."""
    program = [sys.executable, str(DEALS_TOO), "9", "--bug", "highest-card-wins"]
    session = Session(process_opener(program), 60.0, 60.0)
    session.open()
    try:
        episode, found = found_in(session, 4)
    finally:
        session.close()
    case = written(episode, found, 4)
    assert case["steps"] and case["kind"] in ("legal", "outcome", "match")
    made = [s.action for s in episode.steps if s.seat is None]
    dealt = [s for s in case["steps"] if s["seat"] is None]
    assert made and len(dealt) >= len(made)
    assert "not shrunk" in case["description"]
    again = rerun(case, process_opener(program))
    # It takes every deal handed to it, and fails on its play (where the state request, if
    # it answers one, shows the wrong trick winner at once, or at the turn after it).
    assert again.status == FAILED and "chance" not in again.message, again.message
    assert rerun(case, reference).status == PASSED
    # The reproducer as a person reads it: the deal as a table, the position in words, the
    # cause where one is known, the rule with its text.
    lines = readable(episode, found, case)
    assert any(line.startswith("The deal") for line in lines)
    assert any(line.startswith("Then: seat ") for line in lines), lines
    rule = default_spec().lawbook.get(broken(episode, found)[0])
    assert rule is not None and f"{rule.id} {rule.title}" in lines


def test_conform_says_why_a_reproducer_was_not_run_and_how_to_see_it_again(
        tmp_path: Path) -> None:
    """A reproducer the program's declaration skips (it makes its own chance events) is not
    a bare "nothing checked": it says why, and the fuzz run that shows it again."""
    episode, found = found_in(session_of(lambda: Channel(DealsToo(4, short_deal=1))), 4,
                              kinds=("legal", "illegal", "outcome"))
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(written(episode, found, 4)), encoding="utf-8")
    for program, words in ((DEALS_ITSELF, 'supports.chance "program"'),
                           (DEALS_TOO, 'supports.chance "both"')):
        run = subprocess.run([sys.executable, "-m", "napkit", "conform", "-q", "--case",
                              str(path), "--", sys.executable, str(program)],
                             capture_output=True, text=True, cwd=ROOT, timeout=240, check=False)
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
        assert "NOTHING CHECKED" in run.stdout
        assert "was not run" in run.stderr and words in run.stderr, run.stderr
        rerun_line = run.stderr.split("again, run: ", 1)[-1]
        assert rerun_line.startswith("napkit fuzz --seed 4") and str(program) in rerun_line
        assert ("--program-deals" in rerun_line) == (program == DEALS_TOO)


# --- the reproducer for people (item 4) -----------------------------------------------------
def _play_until(game: Game, seed: int, stop: Callable[[Any], bool]) -> Any:
    rng = random.Random(seed)
    state = game.new_hand(0)
    while not stop(state):
        state = state.apply(state.sample_chance(rng) if state.is_chance()
                            else rng.choice(state.legal_actions()))
    return state


def test_the_position_is_in_plain_words() -> None:
    game = Game.create("classic", 4)
    for seed in range(20):  # a hand whose third trick is under way
        hand = _play_until(game, seed, lambda s: s.is_over() or (
            s.phase == PLAY and len(s.tricks) == 2 and len(s.trick) == 1))
        if not hand.is_over():
            break
    said = position(hand)
    bid = hand.contract_bid
    assert said.startswith(f"seat {hand.turn} to play to trick 3; "), said
    assert f"seat {hand.declarer} bid " in said and f"has won {hand.won} trick" in said, said
    assert "(fixed by the first card led)" in said and bid.trumps == "first-card-led"
    assert f"the trick so far: seat {hand.leader} " in said
    assert "phase" not in said and "in its" not in said
    auction = _play_until(game, 1, lambda s: s.phase == AUCTION)
    assert position(auction).startswith(f"seat {auction.turn} to bid (no bid yet)")
    over = play_out(game.new_hand(0), random.Random(3))
    assert position(over).startswith("the hand is over: ")


def test_failures_and_reproducers_draw_the_deal_one_way() -> None:
    hand = _play_until(Game.create("pagat-floater", 4), 2, lambda s: s.phase == AUCTION)
    deal = deal_json(hand)
    table = deal_lines(deal, "the deal of the hand", "  ")
    assert table[0] == "  the deal of the hand (dealer: seat 0):"
    assert any(line.split()[:1] == ["widow"] for line in [t.strip() for t in table])
    drawn = Failure("napkit conform --case x", (), deal=deal).lines()
    assert drawn[1:1 + len(table)] == table
