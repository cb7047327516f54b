"""A failed case as a person reads it: the command that runs it again, the rule to blame, and
the hand drawn (the deal as cards per seat, the actions up to the step, expected and answered,
the rule and its text), as ``napkit fuzz`` draws a reproducer
(:mod:`napkit.conform.fuzz.reproducer`).

**Blame.** A failure is put down to the rule of the step that failed, not to every rule the case
lists: a refusal's rule (an ``illegal`` case); for a legal set that differs, the rule that
refuses each action listed wrongly and the rules the engine goes through to list the actions
at that step (those of the phase); for a step refused, the rules the engine goes through to
accept it; for a turn, the rules of turn order the last steps went through; for an outcome, the
rule of the payments or of the field that differs.

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

import json
import shlex
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from napkit.conform.fuzz.episodes import describe_action, legal_json
from napkit.conform.fuzz.reproducer import OUTCOME_RULES, TURN_RULES, TURN_STEPS, position
from napkit.conform.report.numbering import STEPS_NOTE, hand_bounds, label, labels, places
from napkit.conform.run.runner import FAILED, PASSED, XFAIL, CaseResult, action_key, run_case
from napkit.conform.suite.breaches import refusal
from napkit.conform.suite.cases import OWN_RULESETS, Case, default_suite_dir
from napkit.conform.suite.support import skipped_steps
from napkit.engine.acting import act
from napkit.engine.actions import Action
from napkit.engine.cards import card_name, cards_of, parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.errors import RuleError
from napkit.formats import records
from napkit.formats.values import action_from_json
from napkit.protocol.process import Session
from napkit.spec import coverage
from napkit.spec.catalog import default_spec
from napkit.spec.render import hand_text

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

    def to_json(self) -> JSONObject:
        """The ``failure`` field of a case in the JSON report (spec/conformance.md 8)."""
        lawbook = default_spec().lawbook
        return {"rerun": self.rerun, "where": self.where or None, "step": self.step,
                "hand": self.hand, "hand_step": self.hand_step, "first": self.first or None,
                "message": self.message, "expected": self.expected, "answered": self.answered,
                "blamed": [{"rule": r, "title": getattr(lawbook.get(r), "title", "")}
                           for r in self.blamed],
                "deal": self.deal, "actions": self.actions, "position": self.position or None,
                "after": self.after}

    def lines(self) -> list[str]:
        """The failure drawn as a hand, for the terminal (indented under its FAILED line)."""
        out = [f"  rerun: {self.rerun}"]
        if self.first:
            out += _wrap(self.first, "  ", "    ")
        if self.deal is not None:
            dealt = f"hand {self.hand}" if self.hand else "the hand"
            out.append(f"  the deal of {dealt} (dealer: seat {self.deal['dealer']}):")
            width = max(len(f"seat {s}") for s in self.deal["hands"])
            for seat, cards in self.deal["hands"].items():
                out.append(f"    {f'seat {seat}':<{width}}  {_by_suit(cards)}")
            if self.deal.get("widow"):
                out.append(f"    {'widow':<{width}}  {self.deal['widow']}")
            if self.deal.get("stock"):
                out.append(f"    {'stock':<{width}}  {self.deal['stock']} cards")
        if self.actions:
            upto = f" {'to' if self.after else 'before'} {self.where}" if self.where else ""
            out.append(f"  the steps{upto} (step 0 is the deal):")
            for step in self.actions:
                out.append(f"    {step['number']:>4}  {step['words']}")
        if self.position:
            out += _wrap(f"then {self.position}", "  ", "    ")
        if self.message:
            at = f"{'after' if self.after else 'at'} {self.where}" if self.where else "at the end"
            out += _wrap(f"{at}: {self.message}", "  ", "    ")
        if self.expected is not None or self.answered is not None:
            out.append(f"    expected: {_short(self.expected)}")
            out.append(f"    answered: {_short(self.answered)}")
        lawbook = default_spec().lawbook
        for rule_id in self.blamed[:3]:
            rule = lawbook.get(rule_id)
            if rule is not None:
                out.append(f"  {rule.id} {rule.title}")
                out += _wrap(rule.text, "    ", "    ")
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
def game_of(case: Case) -> Game:
    own = OWN_RULESETS.get(case.ruleset)
    if own is not None:
        return Game(own, case.players, dict(case.options))
    return Game.create(case.ruleset, case.players, dict(case.options))


def replay(case: Case, hands: int | None = None,
           upto: int | None = None) -> list[State]:
    """The engine's state before each step of ``case`` and after the last (``upto`` steps only,
    where given; in a match, agreed to ``hands`` hands where given): shorter where the engine
    refuses a step."""
    game = game_of(case)
    start = case.start
    state: State
    if start["type"] == "start-match":
        state = new_match(game, hands=start["hands"] if hands is None else hands,
                          chips=start["chips"])
    else:
        funds = start["funds"]
        state = game.new_hand(start["dealer"], seats=tuple(start["seats"]), pool=start["pool"],
                              funds=None if funds is None else tuple(funds),
                              stakes=start["stakes"])
    states = [state]
    for step in case.steps[:upto]:
        try:
            state = act(state, step["seat"], action_from_json(step["action"], ["action"]))
        except (RuleError, ValueError):
            break
        states.append(state)
    return states


def _hand(state: State) -> HandState | None:
    return state if isinstance(state, HandState) else state.hand


def match_outcome(state: MatchState) -> JSONObject | None:
    """A match's outcome as the protocol writes it; None if it is not over."""
    return None if state.result is None else records.match_outcome(state, out=True)


# --- blame ----------------------------------------------------------------------------------------
def blame_step(states: Sequence[State], case: Case, index: int, message: str,
               expected: Any, got: Any) -> list[str]:
    """The rules to blame for a difference at step ``index``: of turn order (whose turn
    differs, or the program refused the step as out of turn), of the legal set, or of
    accepting the step (see the module's docstring)."""
    if index >= len(states):
        return []
    state = states[index]
    step = case.steps[index]
    rules: list[str] = []
    # A step refused as out of turn (NAP-1.3.1) is a difference of whose turn it is.
    out_of_turn = isinstance(got, dict) and got.get("rule") == "NAP-1.3.1"
    if "whose turn" in message or out_of_turn:
        for i in range(index - 1, max(-1, index - 1 - TURN_STEPS), -1):
            if i + 1 < len(states):
                rules += [r for r in _exercised(states[i], case.steps[i])
                          if r in TURN_RULES and r not in rules]
    elif "legal actions differ" in message:
        wanted = {action_key(a) for a in expected or []}
        for listed in got or []:
            if action_key(listed) not in wanted:
                try:
                    rule, _ = refusal(state, step["seat"], action_from_json(listed, ["action"]))
                except ValueError:
                    continue
                if rule is not None:
                    rules.append(rule)
        have = {action_key(a) for a in got or []}
        if any(action_key(a) not in have for a in expected or []) or not rules:
            rules += _traced(state.legal_actions)
    else:
        rules += _exercised(state, step)
    return rules


def blame(case: Case, result: CaseResult, states: Sequence[State]) -> list[str]:
    """The rules a failed case is put down to (see the module's docstring), before any finding
    in a match (:func:`locate_in_match`)."""
    where = result.where
    wheres = labels(case.steps, match=case.start["type"] == "start-match")
    if where in wheres:
        return blame_step(states, case, wheres.index(where), result.message, result.expected,
                          result.got)
    if where == "refuse":
        return [case.expect["refuse"]["rule"]]
    if where.startswith("outcome"):
        outcome = case.expect.get("outcome")
        return _outcome_rules(where, result.expected, result.got,
                              outcome if isinstance(outcome, dict) else None)
    return []


def _outcome_rules(where: str, expected: Any, got: Any,
                   outcome: JSONObject | None = None) -> list[str]:
    """The rules a difference in the outcome field at ``where`` is put down to; a hand's
    ``score`` by how the hand ended (``outcome``, the expected one: NAP-9.6.2 or 9.6.3)."""
    name = where.removeprefix("outcome").lstrip(".").split("[")[0].split(" ")[0]
    rules: list[str] = []
    if name == "score":
        return [records.score_rule(outcome)]
    if name == "scores" and outcome is not None and "balances" not in outcome:
        # the totals of a match stopped after the hand that first differs (``outcome``, that
        # hand's): its points, by how it ended, then how the totals add up
        return [records.score_rule(outcome), "NAP-10.4.4"]
    if not name and got is None:  # not over where it should be
        return records.end_rules(outcome)
    if name == "payments" and isinstance(expected, list) and isinstance(got, list):
        owed = {_payment_key(p): p for p in expected if isinstance(p, dict)}
        paid = {_payment_key(p) for p in got if isinstance(p, dict)}
        rules += [p["rule"] for key, p in owed.items() if key not in paid and p.get("rule")]
    if name in OUTCOME_RULES and not rules:
        rules.append(OUTCOME_RULES[name])
    return rules


def _payment_key(payment: JSONObject) -> tuple[Any, ...]:
    return payment.get("payer"), payment.get("payee"), payment.get("amount")


def _exercised(state: State, step: JSONObject) -> list[str]:
    try:
        action = action_from_json(step["action"], ["action"])
    except ValueError:
        return []
    return _traced(lambda: _apply(state, step["seat"], action))


def _apply(state: State, seat: int | None, action: Action) -> State:
    return act(state, seat, action)


def _traced(run: Callable[[], object]) -> list[str]:
    """The play rules of the law book the engine goes through in ``run`` (none if it raises)."""
    coverage.reset_engine_caches()
    try:
        _, found = coverage.exercised(run)
    except Exception:  # refused: no rule allowed it
        return []
    lawbook = default_spec().lawbook
    return [r.id for r in lawbook if r.kind == "play" and r.id in found]


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
    blamed: tuple[str, ...] = ()
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
                           tidy(paid or _outcome_rules(
                               tried.where, tried.expected, tried.got,
                               records.hand_outcome(hand) if hand is not None else None)),
                           after=True)
    if legal_at is not None and legal_hand is not None:
        prepared = "its preparation" if places(case.steps, True)[legal_at][1] <= 1 else "its play"
        what = legal.message.split(": ", 1)[-1]
        return Finding(legal_at, f"hand {legal_hand} of the match first differs: {prepared}, at "
                                 f"{legal.where}: {what}", what, legal.expected, legal.got,
                       tidy(blame_step(states, case, legal_at, legal.message, legal.expected,
                                       legal.got)))
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
    blamed = tidy(blame(case, result, states))
    first, message, expected, answered = "", result.message, result.expected, result.got
    after = result.where.startswith("outcome")
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
                blamed = found.blamed or blamed
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
    return Failure(rerun, blamed, where, index, place[0] if match else None,
                   place[1] if match else None, first, message, expected, answered, deal,
                   actions, position(before) if before is not None else "", after)


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
    deal = None
    if dealt is not None:
        deal = {"dealer": dealt.dealer,
                "hands": {str(s): [card_name(c) for c in cards_of(dealt.hands[s])]
                          for s in dealt.order},
                "widow": card_name(dealt.widow) if dealt.widow >= 0 else None,
                "stock": len(dealt.stock)}
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


def _by_suit(names: Sequence[str]) -> str:
    """Cards by suit (``S: K 8  H: 7``), as napkit draws a hand."""
    try:
        return hand_text(parse_card(n) for n in names)
    except ValueError:
        return " ".join(names)


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= 300 else text[:297] + "..."


def _wrap(text: str, first: str, rest: str, width: int = 96) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), width, initial_indent=first,
                         subsequent_indent=rest) or [first]


__all__ = ["SHOWN", "STEPS_NOTE", "Asker", "Failure", "Finding", "blame", "blame_step",
           "describe", "describe_all", "game_of", "locate_in_match", "match_outcome", "replay",
           "rerun_command", "tidy"]
