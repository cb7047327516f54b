"""The optional ``state`` request (spec/conformance.md 2.3, 2.4): napkit's adapter answers it;
``napkit conform`` and ``napkit fuzz`` ask it of a program that declares it and compare it
field by field, a difference failing at the first step after which it shows, put down to the
rule that sets the field; a program that does not declare it is never sent one.

The programs are napkit's adapter with one field of its state answer wrong
(tests/fixtures/adapters/wrong_state.py), called in this process.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.cause import TRUMP_RULES
from napkit.conform.fuzz.campaign import episode_seed
from napkit.conform.fuzz.episodes import (
    Episode,
    Games,
    Prober,
    check_episode,
    draw_episode,
    plan,
    scope_of,
    session_kinds,
)
from napkit.conform.fuzz.shrink import Choices
from napkit.conform.report.failure import describe
from napkit.conform.report.numbering import labels
from napkit.conform.run.runner import (
    FAILED,
    PASSED,
    CaseResult,
    DisagreementError,
    _check_state,
    _plan,
    plan_size,
    run_case,
)
from napkit.conform.run.state import asked_after, case_states, expect_state, state_json
from napkit.conform.suite.cases import Case, load_case
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.protocol.adapter import Adapter
from napkit.protocol.process import InProcessChannel, ProtocolError, Session, response_problem
from napkit.spec.catalog import default_spec

from tests.fixtures.adapters.wrong_state import WrongState

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance" / "cases"
JSONObject = dict[str, Any]


class Recorded(InProcessChannel):
    """An adapter called in this process, every request it is sent kept."""

    def __init__(self, adapter: Adapter) -> None:
        super().__init__(adapter=adapter)
        self.sent: list[JSONObject] = []

    def exchange(self, requests: Sequence[JSONObject], timeout: float) -> tuple[
            list[object], ProtocolError | None]:
        self.sent += requests
        return super().exchange(requests, timeout)


def session(adapter: Adapter) -> tuple[Session, Recorded]:
    channel = Recorded(adapter)
    opened = Session(lambda: channel, 30.0, 30.0)
    opened.open()
    return opened, channel


def case(case_id: str) -> Case:
    found, problems = load_case(SUITE / f"{case_id}.json", SUITE)
    assert found is not None, problems
    return found


CLASSIC = ["classic/outcome/0000-four-made", "classic/outcome/0003-nap-defeated",
           "classic/outcome/0001-thrown-in", "classic/legal/0001-hand",
           "classic/illegal/0001-not-held", "classic/match/0000-1-hand"]


def states_asked(sent: list[JSONObject]) -> int:
    return sum(r["type"] == "state" for r in sent)


# --- napkit's adapter answers it ------------------------------------------------------------
def test_the_reference_passes_classic_cases_with_its_state_asked() -> None:
    opened, channel = session(Adapter(states=True))
    assert opened.hello is not None and opened.hello.supports["state"] is True
    for case_id in CLASSIC:
        result = run_case(case(case_id), opened)
        assert result.status == PASSED, (case_id, result.message)
    # Asked in the cases that play hands through (legal, outcome), not in the others.
    assert states_asked(channel.sent) > 10
    channel.sent.clear()
    for case_id in ("classic/illegal/0001-not-held", "classic/match/0000-1-hand"):
        run_case(case(case_id), opened)
    assert states_asked(channel.sent) == 0


def test_the_adapter_writes_the_line_the_harness_expects() -> None:
    """The harness takes napkit's state answer without reading it (process.Expected): the
    adapter's line is exactly the text it expects, and the schema accepts it."""
    adapter = Adapter(states=True)
    one = case("classic/outcome/0000-four-made")
    adapter.handle({"id": 1, "type": "start-hand", **{k: v for k, v in one.start.items()
                                                      if k != "type"}})
    states = case_states(one)
    for i, step in enumerate(one.steps):
        adapter.handle({"id": 2, "type": "apply", **step})
        line = adapter.handle_line(b'{"id":7,"type":"state"}')
        tail, value = expect_state(state_json(states[i + 1]))
        assert line == b'{"id":7' + tail + b"\n"
        assert response_problem({"id": 7, **value}) is None
    assert json.loads(line)["state"]["turn"] == "over"


def test_a_state_answer_the_schema_refuses_breaks_the_protocol() -> None:
    problem = response_problem({"id": 3, "type": "state", "state": {"trumps": "S"}})
    assert problem is not None and problem[0].startswith("$.state")
    assert response_problem({"id": 3, "type": "state", "state": None}) is None


def test_fields_left_out_are_not_compared_and_1_is_not_true() -> None:
    one = case("classic/outcome/0000-four-made")
    states = case_states(one)
    before, after = states[-2], states[-1]
    step = one.steps[-1]
    wanted = state_json(after)
    assert wanted is not None

    def check(got: JSONObject) -> str:
        return _check_state({"type": "state", "state": got}, "step 18", before, step["seat"],
                            step["action"], after)

    assert check({}) == ""
    assert check({"trumps": wanted["trumps"], "turn": "over"}) == ""
    bent = [bool(n) if n in (0, 1) else n for n in wanted["tricks"]]  # equal, in Python
    assert any(type(n) is bool for n in bent)
    with pytest.raises(DisagreementError, match=r"state\.tricks"):
        check({"trumps": wanted["trumps"], "tricks": bent})


def test_the_plan_never_asks_more_than_its_ids_reserve() -> None:
    for case_id in CLASSIC:
        one = case(case_id)
        assert len(_plan(one, state=True)) <= plan_size(one, state=True)


# --- napkit conform ----------------------------------------------------------------------------
def first_asked_after(one: Case, changed: str) -> int:
    """The first step after which the state is asked and the engine's ``changed`` field is no
    longer what it was at the start."""
    states = case_states(one)
    start = state_json(states[0])
    assert start is not None
    for i in range(len(one.steps)):
        now = state_json(states[i + 1])
        if (now is not None and now[changed] != start[changed]
                and asked_after(states[i], states[i + 1], i + 1 == len(one.steps))):
            return i
    raise AssertionError(f"{changed} never changes in {one.id}")


def failed(result: CaseResult, one: Case, field: str, rule: str) -> None:
    assert result.status == FAILED, result
    at = first_asked_after(one, field)
    where = labels(one.steps, match=False)[at]
    assert result.where == where
    assert result.message.startswith(f"{where}: state.{field}: expected ")
    assert result.cause is not None and result.cause.rule == rule
    assert result.cause.field == field


def test_a_wrong_trumps_field_fails_where_trumps_are_fixed_blamed_on_their_rule() -> None:
    one = case("classic/outcome/0000-four-made")  # four: trumps fixed by the first card led
    opened, _ = session(WrongState("trumps"))
    result = run_case(one, opened)
    failed(result, one, "trumps", "NAP-7.1.1")
    assert result.message.endswith(", got null")
    drawn = describe(result, ["wrong-state"])
    assert drawn.blamed[0] == "NAP-7.1.1"
    assert drawn.after  # the state is asked after its step


def test_a_wrong_count_of_tricks_fails_after_the_first_trick() -> None:
    one = case("classic/outcome/0003-nap-defeated")
    opened, _ = session(WrongState("tricks"))
    result = run_case(one, opened)
    failed(result, one, "tricks", "NAP-8.2.1")
    assert "won by seat" in result.cause.words if result.cause else False


def test_a_program_that_does_not_declare_state_is_never_sent_it() -> None:
    """It answers a state request with an error (which would fail the case)."""
    opened, channel = session(WrongState(undeclared=True))
    assert opened.hello is not None and "state" not in opened.hello.supports
    for case_id in CLASSIC:
        assert run_case(case(case_id), opened).status == PASSED, case_id
    found = fuzzed(opened, episodes=6)
    assert found == []
    assert states_asked(channel.sent) == 0 and channel.sent


# --- napkit fuzz ----------------------------------------------------------------------------
def fuzzed(opened: Session, episodes: int, seed: int = 1) -> list[tuple[Episode, Any]]:
    """The disagreements of the first ``episodes`` episodes of ``seed``, as napkit fuzz draws
    and checks them."""
    assert opened.hello is not None
    rulesets = default_spec().rulesets
    scope = scope_of(opened.hello.supports, rulesets, only_kinds=["legal", "outcome"])
    games, prober = Games(rulesets), Prober()
    found = []
    for index in range(episodes):
        episode = draw_episode(scope, games, prober, Choices(seed=episode_seed(seed, index)),
                               index)
        verdict = check_episode(episode, opened)
        if verdict.disagreement is not None:
            found.append((episode, verdict.disagreement))
    return found


def after(episode: Episode, i: int) -> HandState | MatchState:
    steps = episode.steps
    return steps[i + 1].before if i + 1 < len(steps) else episode.final


def test_fuzz_blames_a_wrong_trumps_field_at_the_first_step_it_differs() -> None:
    opened, _ = session(WrongState("trumps"))
    assert "state" in session_kinds(opened)
    found = fuzzed(opened, episodes=12)
    assert found
    for episode, disagreement in found:
        assert disagreement.ref.part == "state", disagreement
        assert disagreement.signature == ("state", "trumps")
        hand = after(episode, disagreement.ref.step)
        assert isinstance(hand, HandState)
        bid = hand.contract_bid
        assert bid is not None and disagreement.cause is not None
        assert disagreement.cause.rule == TRUMP_RULES[bid.trumps]
        # No state asked before it showed trumps fixed.
        asked = [ref.step for ref, _, _ in plan(episode, session_kinds(opened))
                 if ref.part == "state"]
        earlier = [i for i in asked if i < disagreement.ref.step]
        assert all(state_json(after(episode, i))["trumps"] is None  # type: ignore[index]
                   for i in earlier)
        assert state_json(hand)["trumps"] is not None  # type: ignore[index]


def test_fuzz_asks_nothing_more_of_a_program_without_state() -> None:
    reference, _ = session(Adapter(states=True))
    without, _ = session(WrongState(undeclared=True))
    assert reference.hello is not None and without.hello is not None
    rulesets = default_spec().rulesets
    scope = scope_of(without.hello.supports, rulesets)
    episode = draw_episode(scope, Games(rulesets), Prober(), Choices(seed=3))
    plain = plan(episode, session_kinds(without))
    asked = plan(episode, session_kinds(reference))
    assert not any(ref.part == "state" for ref, _, _ in plain)
    assert any(ref.part == "state" for ref, _, _ in asked)
    assert ([(ref, request) for ref, request, _ in asked if ref.part != "state"]
            == [(ref, request) for ref, request, _ in plain])


def test_fuzz_asks_the_state_of_a_program_that_deals_for_itself() -> None:
    """The state is asked as the program's own chance events come (ProgramChance): after a
    step, once the state after it is known (the next step, the chance request, the end)."""
    from napkit.conform.fuzz.campaign import Campaign

    dealing = WrongState("trumps")
    dealing.deals = True  # it makes the chance events when asked (supports.chance "both")
    opened, channel = session(dealing)
    assert opened.hello is not None and opened.hello.supports["chance"] == "both"
    rulesets = default_spec().rulesets
    scope = scope_of(opened.hello.supports, rulesets)
    campaign = Campaign(scope, opened, 5, Games(rulesets), program_chance=True,
                        chance_tries=False)
    outcome = campaign.run(12, None, do_shrink=False)
    assert any(r["type"] == "chance" for r in channel.sent)
    assert any(r["type"] == "state" for r in channel.sent)
    # It plays classic, whose trumps are fixed by the first card led.
    assert [g.key for g in outcome.groups] == ["NAP-7.1.1"], outcome.groups
    assert outcome.groups and all(g.difference == "state.trumps" for g in outcome.groups)
