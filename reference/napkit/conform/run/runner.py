"""Running cases against a program: one case (:func:`run_case`) and a whole run
(:func:`run_suite`), as spec/conformance.md part 1 defines each kind.

* ``legal``: before each step that lists the legal actions, the program's turn and set of
  actions must be the case's (order does not matter); every step must be accepted.
* ``illegal``: every step accepted; then ``expect.refuse`` must be refused, for the expected
  rule (passes), for no named rule (passes, noted *rule not named*), or for another rule
  (fails).
* ``outcome``: every step accepted; then the hand must be over with the expected outcome: the
  fields compared one by one; payments by payer, payee and amount, in any order (and by rule
  where the program names one); the tricks' cards only where the program gives them; on a
  score sheet in points, each seat's points (``score``) first, a difference naming its rule.
* ``match``: the same for a match: balances, pool, winners, hands played, seats out, and on a
  score sheet in points the totals (``scores``).
* ``legal`` and ``outcome`` (:data:`STATE_KINDS`), where the program answers the ``state``
  request (``supports.state``, spec/conformance.md 2.3): after the steps that fix the contract
  or the trumps or end a trick, and the last, its view of the hand in play, field by field
  (:mod:`napkit.conform.run.state`); the first field that differs fails the case at that step,
  with its :class:`~napkit.conform.cause.Cause`.

The first disagreement fails the case, with the step, what was expected and what came back.
A program that breaks the protocol fails the case in progress and is started again. A program
that takes its forced passes itself (``supports.forced_passes`` ``"skipped"``,
spec/conformance.md 2.2) is sent none of a case's forced passes: neither their ``legal`` nor
their ``apply``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from napkit.conform.report.numbering import labels
from napkit.conform.run.parallel import Pool, ProcessPool
from napkit.conform.run.state import (
    FIELDS,
    State,
    asked_after,
    asks_state,
    case_states,
    expect_state,
    state_cause,
    state_json,
)
from napkit.conform.suite.cases import Case
from napkit.conform.suite.support import skip_reason, skipped_steps
from napkit.conform.suite.versions import current_rule
from napkit.engine.actions import Action
from napkit.formats.records import score_rule
from napkit.formats.values import action_from_json, action_key
from napkit.protocol.process import Expected, ProtocolError, Session

if TYPE_CHECKING:  # a cause is made only once an answer differs (napkit.conform.cause)
    from napkit.conform.cause import Cause

PASSED, FAILED, SKIPPED, XFAIL, XPASS = "passed", "failed", "skipped", "xfail", "xpass"
STATUSES = (PASSED, FAILED, SKIPPED, XFAIL, XPASS)
RULE_NOT_NAMED = "rule not named"
RESTARTS_IN_A_ROW = 3  # failed restarts in a row after which the remaining cases are not run
TIMEOUT = "timeout"  # the ProtocolError of a program that did not answer in time

JSONObject = dict[str, Any]


@dataclass(frozen=True)
class CaseResult:
    """How one case went."""

    case: Case
    status: str  # one of STATUSES
    message: str = ""  # why it failed (or, skipped, why it was not run)
    where: str = ""  # "start", "step 3", "refuse", "outcome"
    expected: Any = None
    got: Any = None
    note: str = ""  # a pass with a remark: RULE_NOT_NAMED
    reason: str = ""  # the expected-failures file's reason (xfail, xpass)
    stderr: str = ""  # the program's last lines of standard error, when it broke the protocol
    duration: float = 0.0
    problem: str = ""  # how the program broke the protocol, if it did (ProtocolError.what)
    ran: int = 0  # its place in a shuffled or repeated run, from 1 (0: a plain run)
    repetition: int = 0  # which pass of --repeat it was, from 1 (0: a plain run)
    cause: Cause | None = None  # what the program got wrong, where known (a state field)

    @property
    def id(self) -> str:
        return self.case.id

    @property
    def bad(self) -> bool:
        """Whether this result makes the run fail: an unexpected failure or pass."""
        return self.status in (FAILED, XPASS)


def nothing_checked(counts: Mapping[str, int]) -> bool:
    """Whether a run of one or more cases (``counts``: how many of each status) ran none: every
    one skipped by the program's handshake (spec/conformance.md 2.2)."""
    total = sum(counts.values())
    return total > 0 and counts.get(SKIPPED, 0) == total


def run_ok(counts: Mapping[str, int], interrupted: bool) -> bool:
    """A run's verdict (spec/conformance.md 2.2, 7.3): ok when nothing failed or passed
    unexpectedly, it was not interrupted, and it checked something (a run whose every case was
    skipped is not ok; a run of no case, an empty shard, is)."""
    return not (counts.get(FAILED) or counts.get(XPASS) or interrupted
                or nothing_checked(counts))


class DisagreementError(Exception):
    """The program's answer is not the case's: where, what, expected and got; and its cause,
    where the answer names it (a field of a state answer)."""

    def __init__(self, where: str, message: str, expected: Any = None, got: Any = None,
                 cause: Cause | None = None) -> None:
        super().__init__(where, message)
        self.where = where
        self.message = message
        self.expected = expected
        self.got = got
        self.cause = cause


# --- one case ---------------------------------------------------------------------------------
def run_case(case: Case, session: Session, first_id: int | None = None,
             skipped: frozenset[int] = frozenset()) -> CaseResult:
    """Run ``case`` on a session whose program is running. A program that breaks the protocol
    is killed (the caller starts it again); nothing is raised. ``first_id`` is the id of the
    case's first request (default: the session's next); ``skipped``, the steps not sent (the
    forced passes a program takes itself: :func:`napkit.conform.suite.support.skipped_steps`).

    The case's requests go to the program in one batch and its answers are then judged in
    order: the first that disagrees with the case fails it, just as if each request had waited
    for the answer before it (the program cannot tell the difference)."""
    began = time.perf_counter()
    hello = session.hello
    state = hello is not None and asks_state(hello.supports) and case.kind in STATE_KINDS
    plan = _plan(case, skipped, state)
    error: ProtocolError | None = None
    # A state answer that is exactly napkit's line is neither read nor judged (process.Expected).
    expected = [_state_expected(check) for _, _, check in plan] if state else None
    try:
        answers = session.call_many([request for _, request, _ in plan], first_id,
                                    expected=expected)
    except ProtocolError as exc:
        answers, error = exc.partial, exc
        session.kill()
    read = frozenset(session.read or ()) if expected is not None and error is None else None
    note = ""
    try:
        for i, ((_, _, check), answer) in enumerate(zip(plan, answers, strict=False)):
            if read is None or i in read or not _asks_state(check):
                note = check(answer) or note
    except DisagreementError as exc:
        # A wrong answer before the program broke the protocol is what fails the case; that
        # it then broke it (timed out, say) is kept all the same.
        return CaseResult(case, FAILED, f"{exc.where}: {exc.message}", exc.where, exc.expected,
                          exc.got, duration=time.perf_counter() - began,
                          problem=error.what if error is not None else "", cause=exc.cause)
    if error is not None:
        where = plan[error.index][0]
        return CaseResult(case, FAILED, f"{where}: the program {error.message} (restarted for "
                                        "the next case)",
                          where, stderr=error.stderr, duration=time.perf_counter() - began,
                          problem=error.what)
    return CaseResult(case, PASSED, note=note, duration=time.perf_counter() - began)


def plan_size(case: Case, skipped: frozenset[int] = frozenset(), state: bool = False) -> int:
    """How many requests ``case`` makes at most (the length of its plan), counted without
    making it; ``skipped``, the steps not sent; ``state``, a program asked its state (after
    a step sent where a hand is in play: counted after each, an id or two left unused)."""
    size = (1 + len(case.steps) - len(skipped)) * (1 + state)  # the start, an apply a step
    if case.kind == "legal":
        size += sum("legal" in step for i, step in enumerate(case.steps) if i not in skipped)
    return size + (case.kind in ("illegal", "outcome", "match"))


# A step of a case's plan: where in the case, the request (its type and fields), and the check
# of its answer (DisagreementError if the answer is wrong; else a note, usually "").
Check = Callable[[JSONObject], str]


def _plan(case: Case, skipped: frozenset[int] = frozenset(), state: bool = False
          ) -> list[tuple[str, JSONObject, Check]]:
    """The requests a case makes, in order, each with the check of its answer; none for the
    steps ``skipped`` (the program has made them itself, so the next step's ``legal`` is asked
    where they have left play). With ``state``, the program's state after each step sent that
    :func:`~napkit.conform.run.state.asked_after` picks, compared with the engine's, found by
    playing the case's steps (after the steps skipped that follow it: the program has made
    them too)."""
    plan: list[tuple[str, JSONObject, Check]] = []
    states = case_states(case) if state else []
    start = dict(case.start)
    kind = start["type"]
    plan.append(("start", start, partial(_expect, types=("ok",), request=kind, where="start")))
    check_legal = case.kind == "legal"
    # Numbered as people count them (step 0 is the deal; in a match, each hand from its own).
    wheres = labels(case.steps, match=kind == "start-match")
    for i, (where, step) in enumerate(zip(wheres, case.steps, strict=True)):
        if i in skipped:
            continue
        seat, action = step["seat"], step["action"]
        if check_legal and "legal" in step:
            plan.append((where, {"type": "legal"},
                         partial(_check_legal, where=where, seat=seat, expected=step["legal"])))
        plan.append((where, {"type": "apply", "seat": seat, "action": action},
                     partial(_check_accepted, where=where, seat=seat, action=action)))
        if not states:  # not asked: nothing more per step
            continue
        after = i + 1
        while after in skipped:
            after += 1
        if after < len(states) and asked_after(states[i], states[after],
                                               after == len(case.steps)):
            plan.append((where, _STATE_REQUEST, partial(
                _check_state, where=where, before=states[i], seat=seat, action=action,
                after=states[after], expected=state_json(states[after]))))
    if case.kind == "illegal":
        refuse = case.expect["refuse"]
        plan.append(("refuse", {"type": "apply", "seat": refuse["seat"],
                                "action": refuse["action"]},
                     partial(_check_refused, expect=refuse)))
    elif case.kind in ("outcome", "match"):
        plan.append(("outcome", {"type": "outcome"},
                     partial(_check_outcome, kind=case.kind, expected=case.expect["outcome"])))
    return plan


def _expect(answer: JSONObject, types: Sequence[str], request: str, where: str) -> str:
    _answer(answer, types, request, where)
    return ""


def _check_accepted(answer: JSONObject, where: str, seat: int | None, action: Any) -> str:
    _answer(answer, ("accepted", "refused"), "apply", where)
    if answer["type"] == "refused":
        raise DisagreementError(
            where, f"refused {_who(seat)}'s {_action(action)} ({_rule(answer)}"
                   f"{answer.get('reason', '')}); the case has it accepted",
            "accepted", _short_answer(answer))
    return ""


def _check_legal(answer: JSONObject, where: str, seat: int | None, expected: list[Any]) -> str:
    _answer(answer, ("legal",), "legal", where)
    _compare_legal(where, seat, expected, answer)
    return ""


_STATE_REQUEST: JSONObject = {"type": "state"}  # shared: read, never changed
#: The kinds of case in which a program that answers ``state`` is asked it
#: (spec/conformance.md 2.4): those that play hands through, one step after another. The
#: engine must play a case's steps to know its state, which in every case of the suite cost
#: napkit conform half its time again; an illegal case's steps are a hand's as a legal or an
#: outcome case plays them, and a match is asked again, as a legal case, when it fails.
STATE_KINDS = frozenset({"legal", "outcome"})


def _asks_state(check: Check) -> bool:
    return isinstance(check, partial) and check.func is _check_state


def _state_expected(check: Check) -> Expected | None:
    """What napkit's adapter answers the request ``check`` judges, where it is ``state``."""
    if isinstance(check, partial) and check.func is _check_state:
        return partial(expect_state, check.keywords["expected"])
    return None


def _check_state(answer: JSONObject, where: str, before: State, seat: int | None,
                 action: Action | JSONObject, after: State,
                 expected: JSONObject | None = None) -> str:
    """The program's state once ``seat``'s ``action`` (an action, or its JSON) has taken play
    from ``before`` to ``after`` (the engine's states), against the engine's (``expected``,
    made from ``after`` where not given): the first field it gives that differs fails it,
    with its cause (spec/conformance.md 2.4)."""
    _answer(answer, ("state",), "state", where)
    wanted = state_json(after) if expected is None else expected
    got = answer["state"]
    if wanted is None or (got is not None and _alike(wanted, got)):
        return ""
    if got is None:
        raise DisagreementError(where, "state: the program reports no hand in play (null) "
                                       "after this step", wanted, None)
    for name in FIELDS:
        if name in got and not _alike(wanted[name], got[name]) and (
                json.dumps(wanted[name], sort_keys=True) != json.dumps(got[name],
                                                                        sort_keys=True)):
            if isinstance(action, dict):
                action = action_from_json(action, ["action"])
            cause = state_cause(name, wanted, got, before, seat, action, after)
            raise DisagreementError(where, f"state.{name}: expected {_json(wanted[name])}, got "
                                           f"{_json(got[name])}", wanted[name], got[name], cause)
    return ""


def _check_outcome(answer: JSONObject, kind: str, expected: JSONObject) -> str:
    _answer(answer, ("outcome",), "outcome", "outcome")
    got = answer["outcome"]
    what = "match" if kind == "match" else "hand"
    if got is None:
        raise DisagreementError("outcome", f"the {what} is not over after the last step",
                                f"the {what} over", None)
    if kind == "match":
        _compare_match(expected, got)
    else:
        _compare_hand(expected, got)
    return ""


def _answer(answer: JSONObject, types: Sequence[str], request: str, where: str) -> JSONObject:
    kind = answer["type"]
    if kind in types:
        return answer
    if kind == "error":
        raise DisagreementError(
            where, f"the program could not serve the {request} request: "
                   f"{answer.get('message', '')}", " or ".join(types), answer)
    raise DisagreementError(
        where, f"answered the {request} request with {kind!r}, not "
               f"{' or '.join(repr(t) for t in types)}", " or ".join(types), answer)


def _check_refused(answer: JSONObject, expect: JSONObject) -> str:
    seat, action, rule = expect["seat"], expect["action"], expect["rule"]
    _answer(answer, ("accepted", "refused"), "apply", "refuse")
    if answer["type"] == "accepted":
        raise DisagreementError(
            "refuse", f"accepted {_who(seat)}'s {_action(action)}; it breaks {rule}",
            f"refused ({rule})", "accepted")
    got = answer.get("rule")
    if got is None:
        return RULE_NOT_NAMED
    if got != rule and current_rule(got) != rule:  # an id renumbered since: the same rule
        raise DisagreementError(
            "refuse", f"refused {_who(seat)}'s {_action(action)} for another rule: {got} "
                      f"({answer.get('reason', '')}), not {rule}", rule, got)
    return ""


# --- comparisons ------------------------------------------------------------------------------
def _compare_legal(where: str, seat: int | None, expected: list[Any],
                   answer: JSONObject) -> None:
    turn = answer["turn"]
    wanted = "chance" if seat is None else seat
    # By type and value: 1 and true are different answers (1 == True in Python).
    if type(turn) is not type(wanted) or turn != wanted:
        raise DisagreementError(where, f"whose turn: expected {_turn(wanted)}, got {_turn(turn)}",
                                wanted, turn)
    if _same_flat_set(expected, answer["actions"]):
        return
    want = {action_key(a): a for a in expected}
    have = {action_key(a): a for a in answer["actions"]}
    if want.keys() != have.keys():
        missing = [want[k] for k in want if k not in have]
        extra = [have[k] for k in have if k not in want]
        parts = []
        if missing:
            parts.append(f"missing {_actions(missing)}")
        if extra:
            parts.append(f"not legal but listed {_actions(extra)}")
        raise DisagreementError(where, f"{_who(seat)}'s legal actions differ: {'; '.join(parts)}",
                                expected, answer["actions"])


def _same_flat_set(expected: list[Any], got: list[Any]) -> bool:
    """Whether two lists of actions are the same set, quickly, where every action is an
    object of plain values (all but a buy and a chance action's pack): their items compared
    as tuples, not as JSON text. False where that cannot tell (then action_key decides).
    The answer's actions have passed the schema, so a value's type is the one it must be."""
    try:
        return ({tuple(sorted(a.items())) for a in expected}
                == {tuple(sorted(a.items())) for a in got})
    except (TypeError, AttributeError):  # a list in an action, or not an object
        return False


HAND_FIELDS = ("thrown_in", "declarer", "contract", "declarer_tricks", "made", "trick_winners",
               "payments", "pool", "net")
MATCH_FIELDS = ("balances", "pool", "winners", "hands", "out")


def _compare_hand(expected: JSONObject, got: JSONObject) -> None:
    if "balances" in got:
        raise DisagreementError("outcome", "gave a match's outcome for a hand", expected, got)
    if expected.get("score") is not None:  # a score sheet in points (NAP-9.6), first: the
        # contract's result, where chips change only on looks and purchases
        _same_by_rule("outcome.score", score_rule(expected), expected["score"],
                      got.get("score"))
    for name in HAND_FIELDS:
        if name == "payments":
            _compare_payments(expected["payments"], got["payments"])
        else:
            _same(f"outcome.{name}", expected[name], got[name])
    if "tricks" in got and "tricks" in expected:
        mine, theirs = expected["tricks"], got["tricks"]
        _same("outcome.tricks (count)", len(mine), len(theirs))
        for i, (e, g) in enumerate(zip(mine, theirs, strict=True)):
            _same(f"outcome.tricks[{i}]", e, g)


def _compare_payments(expected: list[JSONObject], got: list[JSONObject]) -> None:
    """The same payments, in any order: the law book fixes who pays whom and how much, but
    not the order in which a hand's payments are listed (only how a short payer's chips go
    round, NAP-9.5.1, which the amounts show). A payment's rule is compared where the
    program names one."""
    unmatched = list(got)
    missing: list[JSONObject] = []
    for e in expected:
        for g in unmatched:
            if all(e.get(k) == g.get(k) for k in ("payer", "payee", "amount")) and (
                    g.get("rule") is None or "rule" not in e or g.get("rule") == e["rule"]):
                unmatched.remove(g)
                break
        else:
            missing.append(e)
    if missing or unmatched:
        parts = []
        if missing:
            parts.append(f"missing {_payments(missing)}")
        if unmatched:
            parts.append(f"not owed but paid {_payments(unmatched)}")
        raise DisagreementError("outcome.payments", "the payments differ: " + "; ".join(parts),
                                expected, got)


def _payments(payments: list[JSONObject]) -> str:
    return ", ".join(f"{p.get('payer')}->{p.get('payee')} {p.get('amount')}"
                     + (f" ({p['rule']})" if p.get("rule") else "") for p in payments)


def _compare_match(expected: JSONObject, got: JSONObject) -> None:
    if "balances" not in got:
        raise DisagreementError("outcome", "gave a hand's outcome for a match", expected, got)
    points = expected.get("scores") is not None  # a score sheet in points (NAP-10.4.4)
    if points:
        _same_by_rule("outcome.scores", "NAP-10.4.4", expected["scores"], got.get("scores"))
    for name in MATCH_FIELDS:
        mine, theirs = expected[name], got[name]
        if name in ("winners", "out"):  # sets of seats
            mine, theirs = sorted(mine), sorted(theirs)
        if points and name == "winners":  # by score
            _same_by_rule("outcome.winners", "NAP-10.4.4", mine, theirs)
        _same(f"outcome.{name}", mine, theirs)


def _same_by_rule(where: str, rule: str, expected: Any, got: Any) -> None:
    """:func:`_same`, the failure naming the rule that gives the value: a score sheet's
    fields are of house play (NAP-9.6, NAP-10.4.4), which a program may not know it keeps."""
    try:
        _same(where, expected, got)
    except DisagreementError as exc:
        missing = " (the program gave none)" if got is None else ""
        raise DisagreementError(where, f"{exc.message}{missing}: {rule}", expected, got) from None


def _same(where: str, expected: Any, got: Any) -> None:
    # By JSON text: 1 and true, 0 and false are different answers. Values alike in type
    # throughout are that text at once (an outcome has a score of them to compare).
    if (not _alike(expected, got)
            and json.dumps(expected, sort_keys=True) != json.dumps(got, sort_keys=True)):
        raise DisagreementError(where, f"expected {_json(expected)}, got {_json(got)}",
                                expected, got)


def _alike(a: Any, b: Any) -> bool:
    """Whether two JSON values certainly have the same JSON text: equal, and of one type at
    every level (so True is not 1, nor 1.0 one). A float is compared by its text (0.0 and
    -0.0 are equal numbers, not the same text). False where that cannot tell."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is list:
        return len(a) == len(b) and all(map(_alike, a, b))
    if kind is dict:
        return a.keys() == b.keys() and all(_alike(v, b[k]) for k, v in a.items())
    if kind is float:
        return repr(a) == repr(b)
    return bool(kind in (int, str, bool, type(None)) and a == b)


# --- wording ----------------------------------------------------------------------------------
def _who(seat: object) -> str:
    return "chance" if seat is None else f"seat {seat}"


def _turn(turn: object) -> str:
    return f"seat {turn}" if type(turn) is int else json.dumps(turn)


def _rule(answer: JSONObject) -> str:
    rule = answer.get("rule")
    return f"{rule}: " if rule else "no rule named: "


def _action(action: Any) -> str:
    """An action as the report shows it: its JSON, a long pack cut short to its size."""
    if isinstance(action, dict):
        for name in ("pack", "stock"):
            if isinstance(action.get(name), list) and len(action[name]) > 6:
                short = {**action, name: None}
                return _json(short).replace("null", f"[{len(action[name])} cards]", 1)
    return _json(action)


def _actions(actions: Iterable[Any]) -> str:
    return ", ".join(_action(a) for a in actions)


def _json(value: Any) -> str:
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= 400 else text[:400] + "..."


def _short_answer(answer: JSONObject) -> JSONObject:
    return {k: v for k, v in answer.items() if k != "id"}


# --- a whole run --------------------------------------------------------------------------------
def run_suite(cases: Sequence[Case], session: Session | Sequence[Session],
              supports: Mapping[str, Any],
              classify: Callable[[CaseResult], CaseResult] = lambda r: r,
              on_result: Callable[[CaseResult], None] = lambda r: None,
              exitfirst: bool = False, max_timeouts: int = 0) -> list[CaseResult]:
    """Run ``cases`` in order on ``session`` (already through its first handshake); skip what
    ``supports`` leaves out; ``classify`` turns failures and passes into expected failures and
    unexpected passes. With ``exitfirst``, stop after the first failure (or unexpected pass);
    with ``max_timeouts`` N (0: never), after N cases in a row that the program timed out on
    (a program that never answers would otherwise cost the whole time limit on every case).

    ``session`` may be several sessions of the same program (``napkit conform -j N``; those
    after the first are started when first needed): the cases are shared among them, one
    thread each (:class:`napkit.conform.run.parallel.Pool`), and the results are the same as with
    one, in the same order. ``classify``, ``on_result`` and the stops are applied to the
    results in order, in the caller's thread; cases after a stop may have been run, but their
    results are dropped. A program that breaks the protocol is started again in its session
    only."""
    sessions = [session] if isinstance(session, Session) else list(session)
    workers = [_Worker(s) for s in sessions]
    with Pool(workers, abort=_Worker.abort) as pool:
        return _collect(pool.map(_Worker.attempt, _items(cases, supports)), classify,
                        on_result, exitfirst, max_timeouts)


def run_suite_in_processes(cases: Sequence[Case], make_session: Callable[[], Session],
                           jobs: int, supports: Mapping[str, Any],
                           classify: Callable[[CaseResult], CaseResult] = lambda r: r,
                           on_result: Callable[[CaseResult], None] = lambda r: None,
                           exitfirst: bool = False, max_timeouts: int = 0) -> tuple[
                               list[CaseResult], list[str]]:
    """:func:`run_suite` on ``jobs`` sessions made by ``make_session``, each in a worker
    process of its own (:class:`napkit.conform.run.parallel.ProcessPool`: forked, POSIX only),
    which starts its program when its first case comes: the harness's own work (writing,
    reading and checking the answers) then runs on as many cores as the programs, where
    threads would share one interpreter lock. The results are the same, in the same order;
    ``classify``, ``on_result`` and the stops run here, in order. Also returned: what
    :meth:`Session.close` said of each program that did not take its leave properly."""
    items = _items(cases, supports)

    def work(worker: _Worker, index: int) -> dict[str, Any]:
        # The case stays here: only its result's other fields travel back.
        result = worker.attempt(items[index])
        return {f.name: getattr(result, f.name) for f in fields(result) if f.name != "case"}

    with ProcessPool(jobs, lambda _k: _Worker(make_session()), close=_Worker.close,
                     abort=_Worker.abort) as pool:
        found = (CaseResult(case=items[i][0], **shipped)
                 for i, shipped in enumerate(pool.map(work, range(len(items)))))
        results = _collect(found, classify, on_result, exitfirst, max_timeouts)
    return results, [note for note in pool.closed if isinstance(note, str) and note]


def _collect(found: Iterable[CaseResult], classify: Callable[[CaseResult], CaseResult],
             on_result: Callable[[CaseResult], None], exitfirst: bool,
             max_timeouts: int) -> list[CaseResult]:
    """The results as they come, in order, classified and handed to ``on_result``, up to a
    stop (``exitfirst``, ``max_timeouts``)."""
    results: list[CaseResult] = []
    for attempt in found:
        result = classify(attempt)
        results.append(result)
        on_result(result)
        if exitfirst and result.bad:
            break
        if max_timeouts and result.problem == TIMEOUT and (
                timeouts_in_a_row(results) >= max_timeouts):
            break
    return results


Item = tuple[Case, str | None, int, frozenset[int]]


def _items(cases: Sequence[Case], supports: Mapping[str, Any]) -> list[Item]:
    """Each case, why it is skipped (None: it runs), the id of its first request (its place
    among the requests of the whole run, after the handshake's 0) and the steps not sent to
    the program (its forced passes, where it takes them itself). A request's id does not
    depend on which process it goes to, nor on the restarts before it, so a report that names
    one is the same with any number of workers."""
    items: list[Item] = []
    first_id = 1
    for case in cases:  # in this thread, which loads the spec for skip_reason
        reason = skip_reason(case, supports)
        skipped = skipped_steps(case, supports) if reason is None else frozenset()
        items.append((case, reason, first_id, skipped))
        if reason is None:
            first_id += plan_size(case, skipped,
                                  asks_state(supports) and case.kind in STATE_KINDS)
    return items


class _Worker:
    """One session of a run and its count of failed restarts in a row."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.failed_restarts = 0

    def attempt(self, item: Item) -> CaseResult:
        case, reason, first_id, skipped = item
        if reason is not None:
            return CaseResult(case, SKIPPED, reason)
        if not self.session.alive and self.failed_restarts >= RESTARTS_IN_A_ROW:
            return CaseResult(case, FAILED, f"not run: the program could not be restarted "
                                            f"({RESTARTS_IN_A_ROW} tries in a row failed)",
                              "start")
        result = _run_one(case, self.session, first_id, skipped)
        self.failed_restarts = self.failed_restarts + 1 if result.where == "restart" else 0
        return result

    def abort(self) -> None:
        self.session.abort()

    def close(self) -> str:
        return self.session.close()


def timeouts_in_a_row(results: Sequence[CaseResult]) -> int:
    """How many cases at the end of ``results`` the program timed out on, one after another;
    a skipped case, never sent to it, does not break the row."""
    row = 0
    for result in reversed(results):
        if result.status == SKIPPED:
            continue
        if result.problem != TIMEOUT:
            break
        row += 1
    return row


def _run_one(case: Case, session: Session, first_id: int | None = None,
             skipped: frozenset[int] = frozenset()) -> CaseResult:
    if not session.alive:
        again = "restarted" if session.starts else "started"  # another worker's first
        try:
            session.open()
        except ProtocolError as exc:
            return CaseResult(case, FAILED, f"the program could not be {again}: it "
                                            f"{exc.message}", "restart", stderr=exc.stderr,
                              problem=exc.what)
    return run_case(case, session, first_id, skipped)


def with_status(result: CaseResult, status: str, reason: str) -> CaseResult:
    return replace(result, status=status, reason=reason)


__all__ = ["FAILED", "PASSED", "RULE_NOT_NAMED", "SKIPPED", "STATUSES", "TIMEOUT", "XFAIL",
           "XPASS", "CaseResult", "DisagreementError", "action_key", "nothing_checked",
           "plan_size", "run_case", "run_ok", "run_suite", "run_suite_in_processes",
           "timeouts_in_a_row", "with_status"]
