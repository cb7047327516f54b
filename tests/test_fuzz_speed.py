"""The shortcuts of napkit fuzz's asking side give the answers the full path gives.

- :class:`napkit.reading.LineMemo`: a line read again but for its id reads as a line read
  afresh would, and a line it must refuse is refused every time;
- :data:`napkit.protocol.process.Expected`: an answer that is exactly the line napkit's
  adapter writes is taken without being read or checked again; any other line, however
  close, is read and checked;
- a step keeps the legal actions its player chose among: they are its state's;
- episodes sent in one batch are judged one by one, each as it would be alone, and only the
  answers that were read are checked: an expected answer passes its own check;
- ``Session.post``: a batch sent ahead and read later gets the answers ``call_many`` gets;
- the legal check of the fuzzer: the engine's order, another order, a set that differs, a
  value of the wrong type.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest
from napkit.conform.fuzz.campaign import episode_seed
from napkit.conform.fuzz.episodes import (
    Games,
    Prober,
    Ref,
    _LegalCheck,
    as_json,
    draw_episode,
    expectations,
    judge,
    judge_group,
    plan,
    scope_of,
)
from napkit.conform.fuzz.shrink import Choices
from napkit.conform.run.runner import DisagreementError
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.state import CHANCE
from napkit.protocol.adapter import supports
from napkit.protocol.process import ProcessChannel, ProtocolError, Session, process_opener
from napkit.reading import LineMemo, ReadError, loads
from napkit.spec.catalog import default_spec

KINDS = frozenset({"legal", "illegal", "outcome", "match"})
ADAPTER = [sys.executable, "-m", "napkit.protocol.adapter"]


def _read(memo: LineMemo, raw: bytes) -> Any:
    try:
        return memo.read(raw)
    except (ReadError, UnicodeDecodeError) as exc:
        return type(exc).__name__


def _afresh(raw: bytes) -> Any:
    try:
        return loads(raw.decode())
    except (ReadError, UnicodeDecodeError) as exc:
        return type(exc).__name__


@pytest.mark.parametrize("body", [
    b'"type":"accepted"}', b'"type":"legal","turn":2,"actions":[{"type":"pass"}]}',
    b'"type":"accepted","id":4}', b'"type":"accepted"', b'"x":1.5}', b'"x":NaN}',
    b'"x":"\xff"}', b'"a":1,"a":2}', b'"x":123456789012345678}', b'}',
])
def test_a_line_read_again_reads_as_a_line_read_afresh(body: bytes) -> None:
    memo = LineMemo()
    for ident in (b"7", b"0", b"8", b"07", b"-3", b"1.0", b"9007199254740991",
                  b"9007199254740992", b"12345678901234567", b"7"):
        raw = b'{"id":' + ident + b"," + body
        assert _read(memo, raw) == _afresh(raw), raw


def test_a_line_memo_forgets_when_full_and_still_reads_right() -> None:
    memo = LineMemo(size=3)
    lines = [b'{"id":%d,"type":"t%d"}' % (i, i % 5) for i in range(40)]
    for raw in lines:
        assert memo.read(raw) == loads(raw.decode())
    assert len(memo.known) <= 3


def _state() -> HandState:
    game = Game.create("classic", 4)
    state = game.new_hand(0)
    while state.turn == CHANCE:
        state = state.apply(state.sample_chance(random.Random(3)))
    return state


class _Stub(ProcessChannel):
    """A ProcessChannel's reading, without a process."""

    def __init__(self) -> None:  # nothing of the process is needed
        self._lines = LineMemo()
        self._stderr = bytearray()


def test_the_expected_line_is_taken_and_any_other_is_read() -> None:
    state = _state()
    check = _LegalCheck(1, state.turn, state)
    tail, value = check.expect()
    request = {"id": 41, "type": "legal"}
    channel = _Stub()
    exact = b'{"id":41' + tail
    # napkit's adapter writes exactly that line: the expected value, nothing read.
    assert exact == json.dumps({"id": 41, **value}, separators=(",", ":")).encode()
    got = channel._exact(exact, request, check.expect)
    assert got == {"id": 41, **value}
    assert channel._lines.known == {}
    # Spaces, another id, another order: not the expected line, so read as any line is, and
    # equal where it should be.
    spaced = json.dumps({"id": 41, **value}).encode()
    assert channel._exact(spaced, request, check.expect) is None
    assert channel._parse(spaced, request) == got
    other_line = b'{"id":42' + tail
    assert channel._exact(other_line, request, check.expect) is None
    other_id = channel._parse(other_line, request)
    assert isinstance(other_id, dict) and other_id["id"] == 42
    reordered = json.dumps({"id": 41, "type": "legal", "turn": value["turn"],
                            "actions": value["actions"][::-1]},
                           separators=(",", ":")).encode()
    assert channel._exact(reordered, request, check.expect) is None
    read = channel._parse(reordered, request)
    assert isinstance(read, dict) and read["actions"] == value["actions"][::-1]


def test_the_legal_check_takes_any_order_and_refuses_another_set_or_type() -> None:
    state = _state()
    seat = state.turn
    expected = [as_json(a) for a in state.legal_actions()]
    assert len(expected) > 1
    check = _LegalCheck(1, seat, state)
    answer = {"id": 1, "type": "legal", "turn": seat}
    assert check({**answer, "actions": list(expected)}) == ""
    assert check({**answer, "actions": expected[::-1]}) == ""
    with pytest.raises(DisagreementError, match="legal actions differ"):
        check({**answer, "actions": expected[1:]})
    with pytest.raises(DisagreementError, match="whose turn"):
        check({**answer, "turn": (seat + 1) % 4, "actions": expected})
    with pytest.raises(DisagreementError, match="whose turn"):
        # true is not seat 1, though Python takes True == 1.
        _LegalCheck(1, 1, state)({**answer, "turn": True, "actions": expected})


def _episodes(count: int) -> list[Any]:
    scope = scope_of(supports(), default_spec().rulesets)
    games, prober = Games(default_spec().rulesets), Prober()
    return [draw_episode(scope, games, prober, Choices(seed=episode_seed(5, i)), i)
            for i in range(count)]


def test_posted_batches_get_the_answers_asked_ones_get() -> None:
    episodes = _episodes(6)
    asked = Session(process_opener(ADAPTER), 30.0)
    posted = Session(process_opener(ADAPTER), 30.0)
    asked.open()
    posted.open()
    try:
        for episode in episodes:
            requests = plan(episode, KINDS)
            bodies = [r for _, r, _ in requests]
            plain = asked.call_many(bodies)
            sent = posted.post(bodies, expectations(requests))
            ahead = posted.call_many(bodies, posted=sent)
            assert ahead == plain
            for (_, _, check), answer in zip(requests, ahead, strict=True):
                check(answer)  # raises DisagreementError on a wrong answer
    finally:
        asked.close()
        posted.close()


def test_a_step_keeps_the_legal_actions_of_its_state() -> None:
    steps = [step for episode in _episodes(40) for step in episode.steps]
    assert any(step.legal for step in steps)
    for step in steps:
        assert step.legal is not None
        assert step.legal == (() if step.seat is None else step.before.legal_actions())


# Answers the handshake as napkit's adapter does, then each request with a line chosen by its
# id: exactly napkit's "accepted", the same with a space, or the id of another request.
_ANSWERING = """
import json, sys
from napkit.protocol.adapter import Adapter
for line in sys.stdin:
    n = json.loads(line)["id"]
    if n == 0:
        sys.stdout.write(Adapter().handle_line(line.encode()).decode())
    elif n % 3 == 1:
        sys.stdout.write('{"id":%d,"type":"accepted"}\\n' % n)
    elif n % 3 == 2:
        sys.stdout.write('{"id":%d, "type":"accepted"}\\n' % n)
    else:
        sys.stdout.write('{"id":%d,"type":"accepted"}\\n' % (n + 1))
    sys.stdout.flush()
"""


def _accepted() -> tuple[bytes, dict[str, Any]]:
    return b',"type":"accepted"}', {"type": "accepted"}


def test_only_the_exact_expected_line_goes_unchecked() -> None:
    session = Session(process_opener([sys.executable, "-c", _ANSWERING]), 30.0)
    try:
        session.open()
        channel = session.channel
        assert isinstance(channel, ProcessChannel)
        requests = [{"type": "apply", "seat": 1, "action": {"type": "pass"}}] * 2
        answers = session.call_many(requests, expected=[_accepted, _accepted])
        # id 1: the exact line, taken as it is; id 2: a space more, read, and the same value.
        assert answers == [{"id": 1, "type": "accepted"}, {"id": 2, "type": "accepted"}]
        assert channel.read == [1]
        assert session.read == [1]  # a caller need look again only at the answer read
        # id 3 is answered with id 4: that line is not the one expected, so it is read and
        # checked, and the wrong id is found.
        with pytest.raises(ProtocolError) as caught:
            session.call_many(requests[:1], expected=[_accepted])
        assert caught.value.what == "wrong-id"
        assert channel.read == [0]
        assert session.read is None
    finally:
        session.kill()


class _Answered(Session):
    """A session whose answers are given: the batch's, or the good ones before a protocol
    error at ``broken``."""

    def __init__(self, answers: list[dict[str, Any]], broken: int | None = None,
                 read: list[int] | None = None) -> None:
        super().__init__(lambda: None, 1.0)  # type: ignore[arg-type, return-value]
        self.answers = answers
        self.broken = broken
        self.killed = False
        self.given_read = read

    def call_many(self, requests: Any, first_id: int | None = None, *,
                  posted: Any = None, expected: Any = None) -> list[dict[str, Any]]:
        if self.broken is None:
            self.read = self.given_read
            return self.answers
        self.read = None
        error = ProtocolError("not-json", "answered with a line that is not JSON", "",
                              self.broken)
        error.partial = self.answers[:self.broken]
        raise error

    def kill(self) -> None:
        self.killed = True


def _plan(size: int, fails_at: int | None = None) -> list[Any]:
    def check(i: int) -> Any:
        def run(answer: dict[str, Any]) -> str:
            if i == fails_at:
                raise DisagreementError(f"step {i}", f"wrong answer {answer['n']}", "x", "y")
            return "unnamed" if i == 0 else ""
        return run
    return [(Ref("apply", i), {"type": "apply"}, check(i)) for i in range(size)]


def test_a_batch_of_episodes_is_judged_episode_by_episode() -> None:
    answers = [{"n": n} for n in range(7)]
    # Both pass: a verdict each, the unnamed refusals counted for each.
    verdicts = judge_group([_plan(3), _plan(4)], _Answered(answers), [])
    assert [(v.disagreement, v.unnamed) for v in verdicts] == [(None, 1), (None, 1)]
    # The second fails at its request 2 (the batch's 5th): found there, the first passes.
    verdicts = judge_group([_plan(3), _plan(4, fails_at=2)], _Answered(answers), [])
    assert verdicts[0].disagreement is None
    found = verdicts[1].disagreement
    assert found is not None and found.ref == Ref("apply", 2)
    assert found.message == "wrong answer 5"
    # The first fails: no verdict on the second, whose answers were read all the same.
    verdicts = judge_group([_plan(3, fails_at=1), _plan(4)], _Answered(answers), [])
    assert len(verdicts) == 1 and verdicts[0].disagreement is not None


def test_only_the_answers_read_are_checked() -> None:
    answers = [{"n": n} for n in range(7)]
    # Requests 1 of the first and 0 of the second (the batch's 3rd) would fail, but their
    # answers were exactly the line expected: not checked again. The unnamed refusal of the
    # first request of each is counted only where its answer was read.
    plans = [_plan(3, fails_at=1), _plan(4, fails_at=0)]
    verdicts = judge_group(plans, _Answered(answers, read=[0, 2, 5]), [])
    assert [(v.disagreement, v.unnamed) for v in verdicts] == [(None, 1), (None, 0)]
    # Read, the second's request 0 is found failing, where it is.
    verdicts = judge_group(plans, _Answered(answers, read=[2, 3]), [])
    found = verdicts[1].disagreement
    assert verdicts[0].disagreement is None and found is not None
    assert found.ref == Ref("apply", 0) and found.message == "wrong answer 3"


def test_an_expected_answer_passes_its_own_check() -> None:
    # The contract of process.Expected that lets the judge skip an answer that is exactly
    # the expected line: the value passes the request's check, and the text reads as it.
    seen = 0
    for episode in _episodes(30):
        requests = plan(episode, KINDS)
        for (_, _, check), expected in zip(requests, expectations(requests), strict=True):
            if expected is None:
                continue
            tail, value = expected()
            assert loads((b'{"id":7' + tail).decode()) == {"id": 7, **value}
            assert check({"id": 7, **value}) == ""
            seen += 1
    assert seen > 1000


def test_napkit_s_adapter_writes_every_expected_line_exactly() -> None:
    # Against napkit's own adapter every answer is the line expected, so the judge reads none
    # of them: the refusal of an illegal try too (its reason as the engine gives it), and the
    # outcome.
    session = Session(process_opener(ADAPTER), 30.0)
    session.open()
    try:
        tries = 0
        for episode in _episodes(30):
            requests = plan(episode, KINDS)
            _, verdict = judge(requests, session)
            assert verdict.disagreement is None
            assert session.read is not None
            assert session.read == []
            tries += sum(ref.part == "probe" for ref, _, _ in requests)
        assert tries > 50
    finally:
        session.close()


@pytest.mark.parametrize(("broken", "episode", "request_index"), [(1, 0, 1), (5, 1, 2)])
def test_a_protocol_error_in_a_batch_is_the_episode_s_it_broke_in(
        broken: int, episode: int, request_index: int) -> None:
    session = _Answered([{"n": n} for n in range(7)], broken)
    verdicts = judge_group([_plan(3), _plan(4)], session, [])
    assert session.killed
    assert len(verdicts) == episode + 1
    assert all(v.disagreement is None for v in verdicts[:episode])
    found = verdicts[episode].disagreement
    assert found is not None and found.problem == "not-json"
    assert found.ref == Ref("apply", request_index)



def test_a_campaign_on_one_core_checks_the_same_episodes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # On one core the next episodes are drawn once a batch is judged, not while the program
    # answers it: the same episodes, checked in the same order, with the same result.
    from napkit.conform.fuzz import campaign

    def run(cores: int) -> tuple[Any, ...]:
        monkeypatch.setattr(campaign, "cpus", lambda: cores)
        session = Session(process_opener(ADAPTER), 30.0)
        hello = session.open()
        try:
            scope = scope_of(hello.supports, default_spec().rulesets)
            camp = campaign.Campaign(scope, session, 4, Games(default_spec().rulesets))
            outcome = camp.run(hands=15, seconds=None, do_shrink=False)  # a last batch of one
        finally:
            session.close()
        reach = outcome.reach
        return (reach.episodes, reach.hands, reach.steps, dict(reach.events),
                dict(reach.breaches), outcome.stopped, outcome.found)

    one = run(1)
    assert one[0] == 15 and one[5] == "hands"
    assert one == run(2)
