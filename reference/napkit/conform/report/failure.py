"""A failed case as a person reads it: the command that runs it again, the rule to blame, and
the hand drawn (the deal as cards per seat, the actions up to the step, expected and answered,
the rule and its text), as ``napkit fuzz`` draws a reproducer
(:mod:`napkit.conform.fuzz.reproducer`).

**Blame.** A failure is put down to its cause where one is known (the program's own state, or
a reading of the rules that gives its answer: :mod:`napkit.conform.cause`), the rules of the
step where it showed kept beside it; else to the rule of the step that failed, not to every
rule the case lists: a refusal's rule (an ``illegal`` case); for a legal set that differs,
the rule that refuses each action listed wrongly and the rules the engine goes through to
list the actions at that step (those of the phase); for a step refused, the rules the engine
goes through to accept it; for a turn, the rules of turn order the last steps went through;
for an outcome, the rule of the payments or of the field that differs.

**A match.** A match case is judged on its final outcome, which says nothing of the hand that
went wrong. So a failed match case is asked again of the program (a fresh start of it): once
with its legal actions asked before every step (which finds the first step whose turn or legal
set differs, or that is refused: a hand prepared or played otherwise), and once stopped after
each hand in turn, a match of that many hands agreed (``start-match`` with ``hands`` = k), its
outcome compared with the engine's (which finds the first hand settled otherwise). The first
hand where either differs is the one named. The protocol asks a match's outcome only once it is
over, and a match agreed to k hands plays its first k hands as the longer one does, so these
stopped matches are the only way to see the balances after each hand through the protocol.

Steps are numbered as :mod:`napkit.conform.report.numbering` says: step 0 is the deal.
"""

from __future__ import annotations

import shlex
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from napkit.conform.cause import (
    LEGAL,
    OUTCOME,
    REFUSAL,
    STEP,
    TURN,
    TURN_STEPS,
    Cause,
    Difference,
    infer,
    last_trick_line,
    symptom_rules,
)
from napkit.conform.cause import blame as cause_blame
from napkit.conform.fuzz.episodes import describe_action, legal_json
from napkit.conform.report.drawing import deal_json, deal_lines, position, short
from napkit.conform.report.numbering import STEPS_NOTE, hand_bounds, label, labels, places
from napkit.conform.run.runner import FAILED, PASSED, XFAIL, CaseResult, run_case
from napkit.conform.run.state import case_game, case_states
from napkit.conform.suite.cases import Case, default_suite_dir
from napkit.conform.suite.support import skipped_steps
from napkit.engine.actions import Action
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.formats import records
from napkit.formats.values import action_from_json
from napkit.protocol.process import Session
from napkit.spec.catalog import default_spec

JSONObject = dict[str, Any]
State = HandState | MatchState
SHOWN = 3  # failures drawn in full in the terminal without -v


@dataclass(frozen=True)
class Failure:
    """One failure explained: what to run, what to blame, and where in the hand."""

    rerun: str  # the command that runs this case alone against the same program
    blamed: tuple[str, ...]  # the rules the failure is put down to, in the law book's order
    where: str = ""  # the step as people count it ("step 5", "hand 3, step 17"), or ""
    step: int | None = None  # its index among the case's steps
    hand: int | None = None  # in a match: the hand that first differs (1 for the first)
    hand_step: int | None = None  # and the step within it (0: its deal)
    first: str = ""  # in a match: what first differs, in words
    message: str = ""  # what differs there
    expected: Any = None
    answered: Any = None
    deal: JSONObject | None = None  # the hand as dealt: dealer, each seat's cards, widow
    actions: list[JSONObject] = field(default_factory=list)  # that hand's steps up to the step
    position: str = ""  # where play stood before the step
    after: bool = False  # the difference shows after the step (an outcome), not at it
    cause: Cause | None = None  # which rule's effect the program got wrong, where known
    showed: tuple[str, ...] = ()  # with a cause: the rules of the step where it showed
    last_trick: str = ""  # the last complete trick before the step, its winner and why

    def to_json(self) -> JSONObject:
        """The ``failure`` field of a case in the JSON report (spec/conformance.md 8)."""
        lawbook = default_spec().lawbook
        return {"rerun": self.rerun, "where": self.where or None, "step": self.step,
                "hand": self.hand, "hand_step": self.hand_step, "first": self.first or None,
                "message": self.message, "expected": self.expected, "answered": self.answered,
                "blamed": [{"rule": r, "title": getattr(lawbook.get(r), "title", "")}
                           for r in self.blamed],
                "deal": self.deal, "actions": self.actions, "position": self.position or None,
                "after": self.after,
                "cause": self.cause.to_json() if self.cause is not None else None,
                "showed": [{"rule": r, "title": getattr(lawbook.get(r), "title", "")}
                           for r in self.showed],
                "last_trick": self.last_trick or None}

    def lines(self) -> list[str]:
        """The failure drawn as a hand, for the terminal (indented under its FAILED line)."""
        out = [f"  rerun: {self.rerun}"]
        if self.cause is not None:  # what the program got wrong first, then where it showed
            out += _wrap(f"the cause ({self.cause.rule}, {self.cause.field}): "
                         f"{self.cause.words}", "  ", "    ")
            if self.cause.evidence:
                out += _wrap(f"as shown by {self.cause.evidence}", "    ", "      ")
        if self.first:
            out += _wrap(self.first, "  ", "    ")
        if self.deal is not None:
            dealt = f"hand {self.hand}" if self.hand else "the hand"
            out += deal_lines(self.deal, f"the deal of {dealt}", "  ")
        if self.actions:
            upto = f" {'to' if self.after else 'before'} {self.where}" if self.where else ""
            out.append(f"  the steps{upto} (step 0 is the deal):")
            for step in self.actions:
                out.append(f"    {step['number']:>4}  {step['words']}")
        if self.position:
            out += _wrap(f"then {self.position}", "  ", "    ")
        if self.last_trick:
            out += _wrap(f"the last trick: {self.last_trick}", "  ", "    ")
        if self.message:
            at = f"{'after' if self.after else 'at'} {self.where}" if self.where else "at the end"
            out += _wrap(f"{at}: {self.message}", "  ", "    ")
        if self.expected is not None or self.answered is not None:
            out.append(f"    expected: {short(self.expected)}")
            out.append(f"    answered: {short(self.answered)}")
        lawbook = default_spec().lawbook
        for rule_id in self.blamed[:3]:
            rule = lawbook.get(rule_id)
            if rule is not None:
                out.append(f"  {rule.id} {rule.title}")
                out += _wrap(rule.text, "    ", "    ")
        if self.showed:
            out += _wrap("it showed at: " + ", ".join(
                f"{r} {getattr(lawbook.get(r), 'title', '')}".strip() for r in self.showed),
                "  ", "    ")
        return out


# --- the command that runs one case again ---------------------------------------------------------
def rerun_command(case: Case, command: Sequence[str], suite: Path | None = None,
                  ruleset_files: Sequence[Path | str] = ()) -> str:
    """``napkit conform --case ID -- COMMAND...``, shell-quoted: the case alone against the
    program (``command`` empty for the reference: no ``--``). A case of the suite is named by
    its id (with ``--suite`` where the suite is not the default one), a case file by its path."""
    words = ["napkit", "conform"]
    if suite is not None and case.path.resolve() == (suite / f"{case.id}.json").resolve():
        # The default suite, and the generated suite of the --ruleset-file games kept in the
        # cache (spec/conformance.md 1.3), are found again without --suite.
        if suite.resolve() not in (default_suite_dir().resolve(), _cached(suite)):
            words += ["--suite", str(suite)]
        words += ["--case", case.id]
    else:
        words += ["--case", str(case.path)]
    for path in ruleset_files:
        words += ["--ruleset-file", str(path)]
    if command:
        words += ["--", *command]
    return shlex.join(words)


def _cached(suite: Path) -> Path | None:
    """``suite`` itself where it is a generated suite kept in napkit's cache."""
    from napkit.paths import cache_dir

    real = suite.resolve()
    return real if real.parent == (cache_dir() / "suites").resolve() else None


# --- the engine's side ----------------------------------------------------------------------------
# The engine's side of a case, played where the runner plays it for the state request too.
game_of = case_game
replay = case_states


def _hand(state: State) -> HandState | None:
    return state if isinstance(state, HandState) else state.hand


def match_outcome(state: MatchState) -> JSONObject | None:
    """A match's outcome as the protocol writes it; None if it is not over."""
    return None if state.result is None else records.match_outcome(state, out=True)


# --- blame ----------------------------------------------------------------------------------------
def step_difference(states: Sequence[State], case: Case, index: int, message: str,
                    expected: Any, got: Any) -> Difference | None:
    """A difference at step ``index`` as :mod:`napkit.conform.cause` reads it: of turn order
    (whose turn differs, or the program refused the step as out of turn), of the legal set, or
    of accepting the step; None where the engine refuses an earlier step."""
    if index >= len(states):
        return None
    step = case.steps[index]
    try:
        action: Action | None = action_from_json(step["action"], ["action"])
    except ValueError:
        action = None
    earlier = []
    for i in range(max(0, index - TURN_STEPS), index):
        try:
            earlier.append((states[i], case.steps[i]["seat"],
                            action_from_json(case.steps[i]["action"], ["action"])))
        except ValueError:
            continue
    # A step refused as out of turn (NAP-1.3.1) is a difference of whose turn it is.
    out_of_turn = isinstance(got, dict) and got.get("rule") == "NAP-1.3.1"
    kind = (TURN if "whose turn" in message or out_of_turn else
            LEGAL if "legal actions differ" in message else STEP)
    return Difference(kind, states[index], step["seat"], action, expected, got,
                      earlier=earlier)


def case_difference(case: Case, result: CaseResult,
                    states: Sequence[State]) -> Difference | None:
    """Where a failed case differs, as :mod:`napkit.conform.cause` reads it (before any
    finding in a match, :func:`locate_in_match`)."""
    where = result.where
    wheres = labels(case.steps, match=case.start["type"] == "start-match")
    if where in wheres:
        return step_difference(states, case, wheres.index(where), result.message,
                               result.expected, result.got)
    if where == "refuse":
        return Difference(REFUSAL, states[-1], field=case.expect["refuse"]["rule"])
    if where.startswith("outcome"):
        outcome = case.expect.get("outcome")
        end = states[-1] if len(states) > len(case.steps) else None
        return Difference(OUTCOME, end, expected=result.expected, got=result.got, field=where,
                          outcome=outcome if isinstance(outcome, dict) else None)
    return None


class Blamed(NamedTuple):
    """What a failure is put down to: its cause's rule where it has one, else the rules of the
    step where it shows (``blamed``); the cause; and the rules where it showed, where those
    are not the cause's (``showed``)."""

    blamed: tuple[str, ...]
    cause: Cause | None = None
    showed: tuple[str, ...] = ()


NOTHING = Blamed(())  # a failure put down to no rule


def blamed_for(diff: Difference | None, cause: Cause | None = None) -> Blamed:
    """``diff`` put down to rules (spec/conformance.md 8, "Blame"): to ``cause`` (else the one
    inferred) where there is one, the symptom's rules then shown beside it; else to the
    symptom's rules, as ``napkit fuzz`` blames a disagreement
    (:func:`napkit.conform.cause.blame`)."""
    if diff is None:
        return _put_down((), cause)
    if cause is None:
        cause = infer(diff)
    if cause is None:
        return Blamed(tidy(cause_blame(diff)))
    return _put_down(tidy(symptom_rules(diff)), cause)


def _put_down(rules: tuple[str, ...], cause: Cause | None) -> Blamed:
    if cause is None:
        return Blamed(rules)
    return Blamed((cause.rule,), cause, tuple(r for r in rules if r != cause.rule))


def blame(case: Case, result: CaseResult, states: Sequence[State]) -> Blamed:
    """What a failed case is put down to (see the module's docstring), before any finding in a
    match (:func:`locate_in_match`): its cause where the program's answer names one (a field
    of its state) or one is inferred, else the rules of the step where it shows."""
    if result.cause is not None:  # its own state named it: it showed nowhere else
        return _put_down((), result.cause)
    return blamed_for(case_difference(case, result, states), result.cause)


def tidy(rules: Iterable[str]) -> tuple[str, ...]:
    """The rules once each, in the law book's order, without the rules of acting in general
    (NAP-1.3: the turn, holding the card, the order of checks) where a rule of the phase is
    there to blame."""
    lawbook = default_spec().lawbook
    known = [r for r in dict.fromkeys(rules) if lawbook.get(r) is not None]
    specific = [r for r in known if not r.startswith("NAP-1.3.")]
    return tuple(sorted(specific or known, key=lawbook.order))


# --- a match: which hand first differs ------------------------------------------------------------
class Asker:
    """The program, started again (once, when first needed) to be asked a case's variants."""

    def __init__(self, make_session: Callable[[], Session]) -> None:
        self.make_session = make_session
        self.session: Session | None = None

    def run(self, case: Case) -> CaseResult:
        if self.session is None:
            self.session = self.make_session()
        if not self.session.alive:
            self.session.open()
        hello = self.session.hello
        # Its forced passes unsent where it takes them itself, as in the run.
        return run_case(case, self.session, skipped=skipped_steps(
            case, hello.supports if hello is not None else {}))

    def close(self) -> None:
        if self.session is not None and self.session.alive:
            self.session.close()


@dataclass(frozen=True)
class Finding:
    """Where a match first differs: the step (an index), in words, and what to blame."""

    index: int | None
    first: str
    message: str = ""
    expected: Any = None
    answered: Any = None
    blame: Blamed = NOTHING
    after: bool = False  # the difference shows after the step (a settlement), not at it


def locate_in_match(case: Case, result: CaseResult, asker: Asker) -> Finding | None:
    """Ask the program the match again (see the module's docstring): the first hand that
    differs and the step within it; None if the program cannot be asked."""
    states = replay(case)
    if len(states) <= len(case.steps):
        return None  # the engine refuses a step of the case: nothing to compare with
    again = asker.run(case)
    if again.status == PASSED:
        return Finding(None, "run again on its own, against a fresh start of the program, the "
                             "case passes: the failure depends on the cases the program was "
                             "given before it")
    wheres = labels(case.steps, match=True)
    steps = tuple({**step, "legal": legal_json(states[i])} for i, step in enumerate(case.steps))
    legal = asker.run(replace(case, id=case.id + "#legal", kind="legal", steps=steps,
                              expect={}))
    legal_at = wheres.index(legal.where) if legal.where in wheres else None
    legal_hand = places(case.steps, True)[legal_at][0] if legal_at is not None else None
    for number, (_, end) in enumerate(hand_bounds(case.steps), start=1):
        if legal_hand is not None and number >= legal_hand:
            break
        stopped = replay(case, hands=number, upto=end)
        last = stopped[-1]
        outcome = match_outcome(last) if isinstance(last, MatchState) else None
        if len(stopped) <= end or outcome is None or not isinstance(last, MatchState):
            break  # the match does not end after this hand when agreed to it (or is refused)
        short = replace(case, id=f"{case.id}#hands-{number}", steps=case.steps[:end],
                        start={**case.start, "hands": number}, expect={"outcome": outcome})
        tried = asker.run(short)
        if tried.status == FAILED:
            hand = last.hands[number - 1] if number - 1 < len(last.hands) else None
            paid = [p.rule for p in hand.result.payments] if hand and hand.result else []
            return Finding(end - 1, f"hand {number} of the match first differs: its settlement, "
                                    f"at {label(places(case.steps, True)[end - 1])} (the step "
                                    f"that ends it): {tried.message}, with the match stopped "
                                    f"after hand {number} (a match of {number} agreed)",
                           f"with the match stopped after this hand, {tried.message}",
                           tried.expected, tried.got,
                           _put_down(tidy(paid or symptom_rules(Difference(
                               OUTCOME, None, expected=tried.expected, got=tried.got,
                               field=tried.where, outcome=records.hand_outcome(hand)
                               if hand is not None else None))), tried.cause),
                           after=True)
    if legal_at is not None and legal_hand is not None:
        prepared = "its preparation" if places(case.steps, True)[legal_at][1] <= 1 else "its play"
        what = legal.message.split(": ", 1)[-1]
        return Finding(legal_at, f"hand {legal_hand} of the match first differs: {prepared}, at "
                                 f"{legal.where}: {what}", what, legal.expected, legal.got,
                       blamed_for(step_difference(states, case, legal_at, legal.message,
                                                  legal.expected, legal.got), legal.cause))
    return None


# --- the whole description ------------------------------------------------------------------------
def describe(result: CaseResult, command: Sequence[str], suite: Path | None = None,
             ruleset_files: Sequence[Path | str] = (), asker: Asker | None = None) -> Failure:
    """``result`` (a failure) explained: with ``asker``, a match is asked again to find the
    hand that first differs."""
    case = result.case
    rerun = rerun_command(case, command, suite, ruleset_files)
    try:
        states = replay(case)
    except Exception:  # a game the engine cannot set up: the failure says so already
        return Failure(rerun, (), message=result.message)
    match = case.start["type"] == "start-match"
    wheres = labels(case.steps, match)
    index = wheres.index(result.where) if result.where in wheres else None
    blamed = blame(case, result, states)
    first, message, expected, answered = "", result.message, result.expected, result.got
    # An outcome, and the program's state (asked after a step), differ after their step.
    after = (result.where.startswith("outcome")
             or result.message.startswith(f"{result.where}: state"))
    if match and case.kind == "match" and asker is not None:
        found = None
        try:
            found = locate_in_match(case, result, asker)
        except Exception as exc:  # the program broke down as it was asked again
            first = f"the program could not be asked the match again ({exc})"
        if found is not None:
            first = found.first
            if found.index is not None:
                index, message = found.index, found.message
                expected, answered = found.expected, found.answered
                blamed = found.blame if found.blame.blamed else blamed
                after = found.after
    if message.startswith(f"{result.where}: "):
        message = message[len(result.where) + 2:]
    if index is None and result.where.startswith("outcome"):
        index = len(case.steps) - 1 if case.steps else None
    tried = index is None and case.kind == "illegal" and bool(case.steps)
    if tried:  # the illegal try comes after the case's last step: the hand to there
        index, after = len(case.steps) - 1, True
    where = wheres[index] if index is not None else ""
    place = places(case.steps, match)[index] if index is not None else (None, 0)
    deal, actions = _drawn(case, states, index, after)
    before = states[index] if index is not None and index < len(states) and not after else None
    if tried and index is not None and index + 1 < len(states):
        before = states[index + 1]  # where the try is made
    # The last complete trick before the step (to it, where the difference shows after it).
    upto = states[min(index + 1 if after else index, len(states) - 1)] if (
        index is not None and states) else None
    return Failure(rerun, blamed.blamed, where, index, place[0] if match else None,
                   place[1] if match else None, first, message, expected, answered, deal,
                   actions, position(before) if before is not None else "", after,
                   blamed.cause, blamed.showed, last_trick_line(upto))


def _drawn(case: Case, states: Sequence[State], index: int | None, after: bool) -> tuple[
        JSONObject | None, list[JSONObject]]:
    """The hand in play at step ``index`` as dealt, and its steps before that one (``after``:
    to that one)."""
    if index is None or not case.steps:
        return None, []
    match = case.start["type"] == "start-match"
    numbered = places(case.steps, match)
    hand_of = numbered[index][0]
    first = 0
    if match:
        first = next((i for i, (h, _) in enumerate(numbered) if h == hand_of), 0)
    dealt = None
    for state in states[first:index + 2]:
        hand = _hand(state)
        if hand is not None and any(hand.hands[s] for s in hand.order):
            dealt = hand
            break
    deal = deal_json(dealt) if dealt is not None else None
    actions = []
    for i in range(first, index + after):
        step = case.steps[i]
        try:
            words = describe_action(step["seat"], action_from_json(step["action"], ["action"]))
        except ValueError:
            words = str(step["action"])
        actions.append({"number": numbered[i][1], "seat": step["seat"],
                        "action": step["action"] if step["seat"] is not None else
                        {"type": step["action"].get("type")}, "words": words})
    return deal, actions


def describe_all(results: Sequence[CaseResult], command: Sequence[str],
                 suite: Path | None = None, ruleset_files: Sequence[Path | str] = (),
                 make_session: Callable[[], Session] | None = None) -> dict[int, Failure]:
    """Each failure (and expected failure) of a run explained, by its place in ``results``; a
    match case asked again of a fresh start of the program where ``make_session`` is given."""
    asker = Asker(make_session) if make_session is not None else None
    out: dict[int, Failure] = {}
    try:
        for n, result in enumerate(results):
            if result.status in (FAILED, XFAIL) and result.where not in ("", "restart"):
                out[n] = describe(result, command, suite, ruleset_files,
                                  asker if result.status == FAILED else None)
            elif result.status == FAILED:
                out[n] = Failure(rerun_command(result.case, command, suite, ruleset_files), ())
    finally:
        if asker is not None:
            asker.close()
    return out


def _wrap(text: str, first: str, rest: str, width: int = 96) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), width, initial_indent=first,
                         subsequent_indent=rest) or [first]


__all__ = ["NOTHING", "SHOWN", "STEPS_NOTE", "Asker", "Blamed", "Failure", "Finding", "blame",
           "blamed_for", "case_difference", "describe", "describe_all", "game_of",
           "locate_in_match", "match_outcome", "replay", "rerun_command", "step_difference",
           "tidy"]
