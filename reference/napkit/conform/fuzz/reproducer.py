"""A disagreement found by ``napkit fuzz``, written down: as a conformance case
(``napkit-case/1``) that ``napkit conform --case FILE -- COMMAND`` runs again, and as a hand a
person reads (the cards each seat held, the actions, the step, expected and answered, the rule
and its text).

The case is of the kind that asks exactly what went wrong (spec/conformance.md 4.3): a
``legal`` case ending at the step whose turn or legal set differs (or whose action was
refused), an ``illegal`` case ending with the illegal try, an ``outcome`` or ``match`` case for
a different outcome. Its expectation is the reference engine's, so it says it is generated, by
what command and seed.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from napkit.conform.fuzz.episodes import Disagreement, Episode, Step, describe_action, legal_json
from napkit.conform.report.numbering import label, places
from napkit.conform.run.runner import action_key
from napkit.conform.suite.breaches import refusal
from napkit.conform.suite.cases import case_id
from napkit.engine.actions import Action
from napkit.engine.cards import card_name, cards_of
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.state import CHANCE, NO_TRUMPS
from napkit.formats.records import end_rules, score_rule
from napkit.formats.values import action_from_json, action_to_json
from napkit.spec import coverage
from napkit.spec.catalog import default_spec
from napkit.spec.render import hand_text

JSONObject = dict[str, Any]
CASE_FORMAT = "napkit-case/1"

# The rule a field of an outcome is settled by, where the outcome differs there.
OUTCOME_RULES = {
    "thrown_in": "NAP-5.3.2", "declarer": "NAP-5.3.1", "contract": "NAP-5.3.1",
    "declarer_tricks": "NAP-8.3.2", "made": "NAP-8.3.2", "trick_winners": "NAP-8.2.1",
    "tricks": "NAP-8.2.1", "payments": "NAP-9.1.1", "pool": "NAP-9.3.1", "net": "NAP-9.1.1",
    "balances": "NAP-9.1.1", "winners": "NAP-10.4.3", "hands": "NAP-10.4.1",
    "out": "NAP-10.4.2", "scores": "NAP-10.4.4",
}  # and a hand's "score": by how the hand ended (napkit.formats.records.score_rule)


# The rules that say who acts next, and how many steps back a difference of turn looks for
# them.
TURN_RULES = frozenset({"NAP-1.2.1", "NAP-4.1.1", "NAP-4.1.2", "NAP-5.1.1", "NAP-5.1.2",
                        "NAP-5.4.1", "NAP-6.1.2", "NAP-6.2.1", "NAP-7.2.1", "NAP-8.1.3",
                        "NAP-10.3.1"})
TURN_STEPS = 6


def kind_of(episode: Episode, found: Disagreement) -> str:
    """The kind of case that asks what went wrong."""
    part = found.ref.part
    if part == "probe":
        return "illegal"
    if part == "outcome":
        return "match" if episode.kind == "match" else "outcome"
    return "legal"


def steps_json(episode: Episode, found: Disagreement) -> list[JSONObject]:
    """The case's steps: up to the failing one (its legal list with it), or all of them."""
    ref = found.ref
    steps = episode.steps
    if ref.part == "probe":
        chosen = steps[:ref.step]
    elif ref.part in ("legal", "apply"):
        chosen = steps[:ref.step + 1]
    elif ref.part == "start":
        chosen = []
    else:
        chosen = steps
    out: list[JSONObject] = [{"seat": s.seat, "action": action_to_json(s.action)}
                             for s in chosen]
    if ref.part in ("legal", "apply") and out:
        out[-1]["legal"] = legal_json(steps[ref.step].before)
    return out


def blame(episode: Episode, found: Disagreement) -> list[str]:
    """The rules the disagreement breaks, as best the engine can tell, the likeliest first:
    a refusal's rule; for a legal set, the rule that refuses each action listed wrongly and
    the rules the engine goes through to allow each one left out; for a step refused, the
    rules it goes through to allow it; for an outcome, the rule of the field that differs."""
    ref = found.ref
    rules: list[str] = []
    if ref.part == "probe":
        step_probes = (episode.final_probes if ref.step == len(episode.steps)
                       else episode.steps[ref.step].probes)
        rules.append(step_probes[ref.probe].rule)
    elif ref.part in ("legal", "apply") and ref.step < len(episode.steps):
        step = episode.steps[ref.step]
        state = step.before
        if ref.part == "legal" and found.message.startswith("whose turn") and ref.step > 0:
            # Who acts next is settled by the rules of turn order that the last few steps
            # went through (the dealer passing on, the auction's order, the trick's winner).
            # The nearest step's first.
            for before in reversed(episode.steps[max(0, ref.step - TURN_STEPS):ref.step]):
                rules += [r for r in _exercised(before.before, before.action)
                          if r in TURN_RULES and r not in rules]
        elif ref.part == "legal":
            expected = {action_key(a) for a in (found.expected or [])}
            for listed in found.got or []:
                if action_key(listed) not in expected:
                    try:
                        action = action_from_json(listed, ["action"])
                    except ValueError:
                        continue
                    rule, _ = refusal(state, step.seat, action)
                    if rule is not None:
                        rules.append(rule)
            got = {action_key(a) for a in (found.got or [])}
            for wanted in found.expected or []:
                if action_key(wanted) not in got:
                    rules += _exercised(state, action_from_json(wanted, ["action"]))
        else:
            rules += _exercised(state, step.action)
    elif ref.part == "outcome":
        field = found.message.split(":", 1)[0].removeprefix("outcome.").split("[")[0]
        field = field.split(" ")[0]
        if field == "payments" and isinstance(found.expected, list):
            rules += [p["rule"] for p in found.expected if isinstance(p, dict) and p.get("rule")]
        if field == "score":  # by how the hand ended (NAP-9.6.2, 9.6.3, 9.6.4)
            rules.append(score_rule(episode.outcome()))
        elif found.got is None and "is not over" in found.message:
            rules += end_rules(episode.outcome())
        elif field in OUTCOME_RULES:
            rules.append(OUTCOME_RULES[field])
    in_force = set(getattr(episode.game.ruleset, "rules", ()) or ())
    lawbook = default_spec().lawbook
    seen: list[str] = []
    for rule in rules:
        if rule not in seen and lawbook.get(rule) is not None and (
                not in_force or rule in in_force):
            seen.append(rule)
    return seen


def _exercised(state: HandState | MatchState, action: Action) -> list[str]:
    """The play rules the engine goes through to apply ``action`` at ``state`` (law-book
    order), or none if it refuses it."""
    def run() -> None:
        state.apply(action)

    coverage.reset_engine_caches()  # a remembered answer would skip the rules behind it
    try:
        _, found = coverage.exercised(run)
    except Exception:  # refused: no rule allows it
        return []
    lawbook = default_spec().lawbook
    kinds = {r.id for r in lawbook if r.kind == "play"}
    return sorted((r for r in found if r in kinds), key=lawbook.order)


def case_rules(episode: Episode, found: Disagreement, steps: Sequence[JSONObject]) -> list[str]:
    """The case's ``rules``: those the disagreement breaks first, then the play rules the
    engine goes through to play its steps (at least one, as the case format asks)."""
    blamed = blame(episode, found)
    lawbook = default_spec().lawbook
    plays = {r.id for r in lawbook if r.kind == "play"}
    in_force = set(getattr(episode.game.ruleset, "rules", ()) or ()) or plays

    def run() -> None:
        state: HandState | MatchState = episode.steps[0].before if episode.steps else (
            episode.final)
        for step in steps:
            state = state.apply(action_from_json(step["action"], ["action"]))

    coverage.reset_engine_caches()
    try:
        _, touched = coverage.exercised(run)
    except Exception:  # the steps are the engine's own: nothing is expected here
        touched = frozenset()
    chosen = set(blamed) | {r for r in touched if r in plays and r in in_force}
    ordered = sorted(chosen, key=lawbook.order)
    return ordered or ["NAP-1.3.1"]


def reproducer_case(episode: Episode, found: Disagreement, seed: int, command: str,
                    program: str) -> JSONObject:
    """The conformance case that shows the disagreement again (napkit-case/1)."""
    kind = kind_of(episode, found)
    steps = steps_json(episode, found)
    game = episode.game
    expect: JSONObject = {}
    if kind == "illegal":
        probes = (episode.final_probes if found.ref.step == len(episode.steps)
                  else episode.steps[found.ref.step].probes)
        probe = probes[found.ref.probe]
        expect = {"refuse": {"seat": probe.seat, "action": action_to_json(probe.action),
                             "rule": probe.rule}}
    elif kind in ("outcome", "match"):
        outcome = episode.outcome()
        assert outcome is not None
        expect = {"outcome": outcome}
    rules = case_rules(episode, found, steps)
    blamed = blame(episode, found)
    lawbook = default_spec().lawbook
    said = ""
    if blamed:
        rule = lawbook.get(blamed[0])
        said = f" The rule: {blamed[0]}" + (f" ({rule.title})" if rule is not None else "") + "."
    tags = ["generated", "fuzz"]
    if kind == "illegal":
        tags.append(f"breach-{probes[found.ref.probe].breach}")
    where = _where(found)
    description = (
        f"Generated by napkit fuzz (seed {seed}, episode {episode.index}) against {program}, "
        f"and shrunk: {_episode_line(episode)}. At {where} the program disagreed with the "
        f"reference engine: {found.message}.{said} Expected: what the reference engine "
        "answers, not a hand-worked result.")
    return {
        "format": CASE_FORMAT,
        "id": case_id(game.id, kind, f"fuzz-{seed}-{episode.index}"),
        "kind": kind,
        "ruleset": game.id,
        "options": dict(game.options),
        "players": game.players,
        "rules": rules,
        "tags": tags,
        "description": description,
        "generated": {"by": command, "seed": seed},
        "start": dict(episode.start),
        "steps": steps,
        "expect": expect,
    }


def _episode_line(episode: Episode) -> str:
    game = episode.game
    what = "a match" if episode.kind == "match" else "a hand"
    return f"{what} of {game.id}, {game.players} players"


def _where(found: Disagreement) -> str:
    ref = found.ref
    if ref.part == "probe":
        return f"the illegal try before step {ref.step}"
    if ref.part in ("legal", "apply"):
        return f"step {ref.step}"
    return ref.part


# --- for people ---------------------------------------------------------------------------------
def readable(episode: Episode, found: Disagreement, case: JSONObject) -> list[str]:
    """The reproducer as a person reads a hand: the game, the cards each seat held when the
    hand in question was dealt, the actions up to the step (step 0 is the deal, as napkit
    conform, replay and explain count them; in a match, each hand from its own deal), what
    was expected and what the program answered, and the rule with its text."""
    lines: list[str] = []
    game = episode.game
    opts = ", ".join(f"{k}={v}" for k, v in sorted(game.options.items()) if
                     _not_default(game, k, v))
    lines.append(f"{case['id']}: {case['kind']} case, {game.id}, {game.players} players"
                 + (f", {opts}" if opts else ""))
    last = len(case["steps"])
    dealt_at, hand = _dealt(episode, max(last - 1, 0))
    if hand is not None:
        lines.append("")
        lines.append(f"The deal (dealer: seat {hand.dealer}):")
        width = max(len(f"seat {s}") for s in hand.order)
        for seat in hand.order:
            lines.append(f"  {f'seat {seat}':<{width}}  {hand_text(cards_of(hand.hands[seat]))}")
        if hand.widow >= 0:
            lines.append(f"  {'widow':<{width}}  {card_name(hand.widow)}")
        if hand.stock:
            lines.append(f"  {'stock':<{width}}  {len(hand.stock)} cards")
    lines.append("")
    lines += _step_lines(episode.steps[:last], case, dealt_at)
    match = case["start"]["type"] == "start-match"
    numbered = places(case["steps"], match)
    at = _state_at(episode, found)
    if at is not None:
        lines.append("")
        lines.append("Then: " + position(at))
    lines.append("")
    where = _where(found)
    if found.ref.part in ("legal", "apply") and found.ref.step < len(numbered):
        where = label(numbered[found.ref.step])
    elif found.ref.part == "probe" and match and 0 < found.ref.step <= len(numbered):
        where = f"the illegal try after {label(numbered[found.ref.step - 1])}"
    lines.append(f"At {where}: {found.message}")
    if found.expected is not None or found.got is not None:
        lines.append(f"  expected: {_short(found.expected)}")
        lines.append(f"  answered: {_short(found.got)}")
    if found.stderr:
        lines.append("  the program's standard error ended with:")
        lines += [f"    {line}" for line in found.stderr.splitlines()[-5:]]
    lawbook = default_spec().lawbook
    for rule_id in blame(episode, found)[:3]:
        rule = lawbook.get(rule_id)
        if rule is None:
            continue
        lines.append("")
        lines.append(f"{rule.id} {rule.title}")
        lines += _wrap(rule.text, "  ")
    return lines


def _step_lines(shown: Sequence[Step], case: JSONObject, dealt_at: int) -> list[str]:
    """The steps, numbered as napkit conform, replay and explain number them
    (:mod:`napkit.conform.report.numbering`): step 0 is the deal; in a match, each hand's own."""
    match = case["start"]["type"] == "start-match"
    numbered = places(case["steps"], match)
    lines = [f"The steps ({len(shown)}; step 0 is the deal, step 1 the first action after it"
             + ("; each hand of the match counts from its own deal, the shuffle or cut"
                if match else "") + "):"]
    hand: int | None = None
    for i, step in enumerate(shown):
        if i < dealt_at - 1 and len(shown) > 12 and i < len(shown) - 12:
            continue  # a long match: its earlier hands are in the case file
        if match and numbered[i][0] != hand:
            hand = numbered[i][0]
            lines.append(f"  hand {hand}:" if hand else "  before hand 1:")
        lines.append(f"  {numbered[i][1]:>4}  {describe_action(step.seat, step.action)}")
    return lines


def _not_default(game: Any, name: str, value: str) -> bool:
    options = getattr(game.ruleset, "options", {})
    option = options.get(name)
    return option is None or option.default != value


def _dealt(episode: Episode, upto: int) -> tuple[int, HandState | None]:
    """The index of the first step after the deal of the hand in play at step ``upto``, and
    that hand as dealt."""
    steps: Sequence[Step] = episode.steps
    if not steps:
        return 0, None
    upto = min(upto, len(steps) - 1)
    first = None
    for i in range(upto, -1, -1):
        hand = _hand(steps[i].before)
        if hand is None or len(hand.history) == 0:
            break
        first = i
    if first is None:
        # The failing step is the deal itself, or comes before any hand: show the next hand.
        for i in range(upto + 1, len(steps)):
            hand = _hand(steps[i].before)
            if hand is not None:
                return i, hand
        final = _hand(episode.final)
        return len(steps), final
    hand = _hand(steps[first].before)
    return first, hand


def _hand(state: HandState | MatchState) -> HandState | None:
    if isinstance(state, HandState):
        return state
    return state.hand


def _state_at(episode: Episode, found: Disagreement) -> HandState | MatchState | None:
    ref = found.ref
    if ref.part not in ("outcome", "start") and ref.step < len(episode.steps):
        return episode.steps[ref.step].before
    return episode.final


def position(state: HandState | MatchState) -> str:
    """Where play stands at ``state``, in words: the phase, the contract, trumps, the trick so
    far, the cards of the seat to act, and who is to act."""
    hand = _hand(state)
    if hand is None:
        assert isinstance(state, MatchState)
        return f"the match is at its {state.phase_name} step; " + _turn(state.turn)
    parts = ["the hand is over" if hand.is_over() else f"the hand is in its {hand.phase_name}"]
    bid = hand.contract_bid
    if bid is not None:
        parts.append(f"seat {hand.declarer} declared {bid.name}")
    if hand.trumps >= 0:
        parts.append("no trumps" if hand.trumps == NO_TRUMPS else
                     f"trumps {('spades', 'hearts', 'diamonds', 'clubs')[hand.trumps]}")
    if hand.trick:
        parts.append("the trick so far: " + " ".join(card_name(c) for c in hand.trick))
    if hand.turn >= 0:
        parts.append(f"seat {hand.turn} holds {hand_text(cards_of(hand.hands[hand.turn]))}")
    return "; ".join(parts) + "; " + _turn(hand.turn)


def _turn(turn: int) -> str:
    if turn == CHANCE:
        return "chance is to act"
    if turn < 0:
        return "play is over"
    return f"seat {turn} is to act"


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= 300 else text[:297] + "..."


def _wrap(text: str, indent: str, width: int = 92) -> Iterable[str]:
    for paragraph in text.split("\n\n"):
        yield from textwrap.wrap(" ".join(paragraph.split()), width, initial_indent=indent,
                                 subsequent_indent=indent)


__all__ = ["OUTCOME_RULES", "TURN_RULES", "TURN_STEPS", "blame", "case_rules", "kind_of",
           "position", "readable", "reproducer_case", "steps_json"]
