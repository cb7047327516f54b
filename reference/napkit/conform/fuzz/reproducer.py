"""A disagreement found by ``napkit fuzz``, written down: as a conformance case
(``napkit-case/1``) that ``napkit conform --case FILE -- COMMAND`` runs again, and as a hand a
person reads (the deal as a table, the actions, where play stood in plain words, expected and
answered, the cause and the rule with its text: :mod:`napkit.conform.report.drawing`, which
draws ``napkit conform``'s failures too).

The case is of the kind that asks exactly what went wrong (spec/conformance.md 4.2): a
``legal`` case ending at the step whose turn or legal set differs (or whose action was
refused), an ``illegal`` case ending with the illegal try, an ``outcome`` or ``match`` case for
a different outcome. Its expectation is the reference engine's, so it says it is generated, by
what command and seed. Of a program that makes its own chance events (spec/conformance.md
2.5), the case's chance steps are the events the program made (:func:`ending`); where such a
case cannot be handed to the program, ``napkit conform`` says why and how to see the
disagreement again (:func:`not_run`).
"""

from __future__ import annotations

import random
import re
import shlex
import textwrap
from collections.abc import Sequence
from typing import Any, NamedTuple

from napkit.conform.cause import (
    LEGAL,
    OUTCOME,
    OUTCOME_RULES,
    REFUSAL,
    STEP,
    TURN,
    TURN_RULES,
    TURN_STEPS,
    Cause,
    Difference,
    infer,
)
from napkit.conform.cause import blame as cause_blame
from napkit.conform.fuzz.episodes import (
    Disagreement,
    Episode,
    Probe,
    Step,
    describe_action,
    legal_json,
)
from napkit.conform.report.drawing import deal_json, deal_lines, position, short
from napkit.conform.report.numbering import label, places
from napkit.conform.suite.breaches import possible_breaches
from napkit.conform.suite.cases import Case, case_id
from napkit.conform.suite.support import skip_cause
from napkit.engine.actions import CHANCE_TYPES, Action
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.state import CHANCE
from napkit.formats.values import action_from_json, action_to_json
from napkit.output.tables import cut, printable
from napkit.spec import coverage
from napkit.spec.catalog import default_spec

JSONObject = dict[str, Any]
CASE_FORMAT = "napkit-case/1"


class Ending(NamedTuple):
    """What a reproducer asks, and after which steps: its kind, its steps (in a legal case the
    last carries its legal list), its expectation, the tags that say what it tries
    (``breach-NAME``), and where the case cannot ask exactly what went wrong, why (a chance
    event the program made: a case can hand a program an event, not ask it for one)."""

    kind: str
    steps: list[JSONObject]
    expect: JSONObject
    tags: tuple[str, ...] = ()
    note: str = ""
    rule: str | None = None  # the rule broken, where the ending knows it (a refusal's)


# Why a reproducer of a chance event the program made is the case it is (spec/conformance.md
# 2.5 and 4.2).
MADE_NOTE = ("The program made this chance event itself, asked for one; a case cannot ask a "
             "program for an event, so this one hands it the same event, which the rules "
             "refuse.")
UNWRITTEN_NOTE = ("The program made this chance event itself, asked for one, and the case "
                  "format cannot hold it ({problem}); so this case ends where chance is to act "
                  "and asks whose turn it is there. napkit fuzz with the same seed asks the "
                  "program for its events again.")
ASKED_NOTE = ("The program was asked to make a chance event here and did not answer with one; "
              "a case cannot ask a program for an event, so this one asks whose turn it is "
              "there (chance's), before an event the engine draws.")
NOT_SHRUNK = ("not shrunk (the program makes its own chance events, so the episode cannot be "
              "drawn again from its seed)")


def ending(episode: Episode, found: Disagreement, seed: int = 0) -> Ending:
    """The reproducer's kind, steps and expectation (spec/conformance.md 4.2): a ``legal``
    case ending at the step whose turn or legal set differs (or that was refused), an
    ``illegal`` case ending with the try accepted or refused under another rule, an
    ``outcome`` or ``match`` case for a different outcome. In an episode whose chance events
    the program makes, its steps hold the events it made; a disagreement where chance is to
    act ends them there: an event it made that the rules refuse (a card short) is handed to it
    as an ``illegal`` case's try, one the case format cannot hold (a card twice) leaves the
    case asking whose turn it is there, as does any other answer to the chance request."""
    ref = found.ref
    steps = episode.steps
    if ref.part == "probe":
        probe = tries_at(episode, ref.step)[ref.probe]
        return Ending("illegal", _steps(steps[:ref.step]),
                      _refuse(probe.seat, probe.action, probe.rule), (f"breach-{probe.breach}",),
                      rule=probe.rule)
    # A state that differs after step k: the case ends with that step, after which the state
    # is asked (the last step's, spec/conformance.md 2.3).
    if ref.part in ("legal", "apply", "state") and ref.step < len(steps):
        out = _steps(steps[:ref.step + 1])
        out[-1]["legal"] = legal_json(steps[ref.step].before)
        return Ending("legal", out, {})
    if ref.part == "outcome":
        outcome = episode.outcome()
        assert outcome is not None
        return Ending("match" if episode.kind == "match" else "outcome", _steps(steps),
                      {"outcome": outcome})
    if ref.part == "start":
        return Ending("legal", [], {})
    # Chance is to act after the last step (ProgramChance stops there): the program's answer
    # to the chance request differs, or its turn or tries there.
    made = _made(found)
    note = ASKED_NOTE if ref.part == "chance" else ""
    if made is not None:
        event, rule = made
        problem = _unwritable(event)
        if not problem:
            breach = _chance_breach(episode.final, rule)
            return Ending("illegal", _steps(steps), _refuse(None, event, rule),
                          (f"breach-{breach}",) if breach else (), MADE_NOTE, rule)
        note = UNWRITTEN_NOTE.format(problem=problem)
    out = _steps(steps)
    final = episode.final
    if not final.is_over() and final.turn == CHANCE:
        # The turn is asked before the event is handed over: any event will do.
        event = final.sample_chance(random.Random(seed))
        out.append({"seat": None, "action": action_to_json(event), "legal": []})
    elif out:
        out[-1]["legal"] = legal_json(steps[-1].before)
    return Ending("legal", out, {}, note=note, rule=made[1] if made is not None else None)


def kind_of(episode: Episode, found: Disagreement) -> str:
    """The kind of case that asks what went wrong (:func:`ending`)."""
    return ending(episode, found).kind


def steps_json(episode: Episode, found: Disagreement) -> list[JSONObject]:
    """The case's steps (:func:`ending`)."""
    return ending(episode, found).steps


def tries_at(episode: Episode, step: int) -> tuple[Probe, ...]:
    """The illegal tries made before step ``step`` (after the last step: the episode's final
    tries, also those made where it stopped, chance being due to act)."""
    steps = episode.steps
    return episode.final_probes if step >= len(steps) else steps[step].probes


def _steps(chosen: Sequence[Step]) -> list[JSONObject]:
    return [{"seat": s.seat, "action": action_to_json(s.action)} for s in chosen]


def _refuse(seat: int | None, action: Action, rule: str) -> JSONObject:
    return {"refuse": {"seat": seat, "action": action_to_json(action), "rule": rule}}


def _made(found: Disagreement) -> tuple[Action, str] | None:
    """The chance event the program made and the rule that refuses it, where its answer to
    the chance request was one the rules refuse (not an error, nor a player's action)."""
    rule = found.expected
    if found.ref.part != "chance" or not isinstance(rule, str) or (
            default_spec().lawbook.get(rule) is None):
        return None
    try:
        action = action_from_json(found.got, ["action"])
    except ValueError:
        return None
    return (action, rule) if isinstance(action, CHANCE_TYPES) else None


def _unwritable(event: Action) -> str:
    """Why a case cannot hold ``event`` as an action (action.schema.json refuses it: a pack
    lists its cards once each), or "" if it can."""
    from napkit.spec.schemas import is_valid  # as the case files are checked

    value = action_to_json(event)
    if is_valid("action", value):
        return ""
    pack = value.get("pack")
    twice = sorted({c for c in pack if pack.count(c) > 1}, key=pack.index) if isinstance(
        pack, list) else []
    if twice:
        return (f"its pack lists {', '.join(twice)} more than once, and a case lists a "
                "pack's cards once each")
    return "action.schema.json refuses it"


def _chance_breach(state: HandState | MatchState, rule: str) -> str | None:
    """The law book's refusal (:mod:`napkit.conform.suite.breaches`) that a chance event
    refused under ``rule`` at ``state`` is: the breach of that rule whose tries there are
    chance's. Its tag tells ``napkit conform`` whether a program that makes its own chance
    events is handed it (spec/conformance.md 2.5)."""
    game = state.game
    assert isinstance(game, Game)
    hand = state if isinstance(state, HandState) else state.hand
    for breach in possible_breaches(game):
        if breach.rule != rule:
            continue
        rng = random.Random(0)
        tries: list[tuple[int | None, Action]] = []
        if breach.find is not None and hand is not None:
            tries = breach.find(hand, rng)
        elif breach.in_match is not None and isinstance(state, MatchState):
            tries = breach.in_match(state, rng)
        if any(seat is None for seat, _ in tries):
            return breach.name
    return None


def difference(episode: Episode, found: Disagreement) -> Difference:
    """The disagreement as :mod:`napkit.conform.cause` reads it: its kind, the engine's state
    there, the step and the steps before it."""
    ref = found.ref
    steps = episode.steps
    if ref.part == "probe":
        step_probes = (episode.final_probes if ref.step == len(steps)
                       else steps[ref.step].probes)
        state = episode.final if ref.step == len(steps) else steps[ref.step].before
        return Difference(REFUSAL, state, field=step_probes[ref.probe].rule)
    if ref.part in ("legal", "apply") and ref.step < len(steps):
        step = steps[ref.step]
        earlier = [(s.before, s.seat, s.action)
                   for s in steps[max(0, ref.step - TURN_STEPS):ref.step]]
        out_of_turn = isinstance(found.got, dict) and found.got.get("rule") == "NAP-1.3.1"
        if ref.part == "legal":
            kind = TURN if found.message.startswith("whose turn") else LEGAL
        else:
            kind = TURN if out_of_turn else STEP
        return Difference(kind, step.before, step.seat, step.action, found.expected,
                          found.got, earlier=earlier)
    if ref.part == "outcome":
        where = found.message if found.message.startswith("outcome") else "outcome"
        return Difference(OUTCOME, episode.final, expected=found.expected, got=found.got,
                          field=where, outcome=episode.outcome())
    return Difference(STEP, None)


def cause_of(episode: Episode, found: Disagreement) -> Cause | None:
    """Which rule's effect the program got wrong: the disagreement's own cause where it has
    one, else the one inferred from the episode (:func:`napkit.conform.cause.infer`)."""
    return found.cause if found.cause is not None else infer(difference(episode, found))


def blame(episode: Episode, found: Disagreement) -> list[str]:
    """The rules the disagreement is put down to, the likeliest first: its cause's rule where
    it has one (:func:`cause_of`), then the rules of the step where it shows, as ``napkit
    conform`` blames a failure (:func:`napkit.conform.cause.blame`)."""
    return cause_blame(difference(episode, found), cause_of(episode, found))


def case_rules(episode: Episode, found: Disagreement, steps: Sequence[JSONObject],
               blamed: Sequence[str] | None = None) -> list[str]:
    """The case's ``rules``: those the disagreement breaks (``blamed``, by default
    :func:`blame`'s), then the play rules the engine goes through to play its steps (at
    least one, as the case format asks)."""
    if blamed is None:
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


def broken(episode: Episode, found: Disagreement, end: Ending | None = None) -> list[str]:
    """The rules the reproducer names, the likeliest first: the rule its ending knows is
    broken (an illegal try's refusal; a chance event the program made, a pack with a card
    twice, refused under NAP-2.2.1), then :func:`blame`'s."""
    end = end if end is not None else ending(episode, found)
    first = [end.rule] if end.rule else []
    return list(dict.fromkeys([*first, *blame(episode, found)]))


def reproducer_case(episode: Episode, found: Disagreement, seed: int, command: str,
                    program: str, shrunk: str | None = None) -> JSONObject:
    """The conformance case that shows the disagreement again (napkit-case/1). ``shrunk``:
    how the episode was shrunk, in words ("shrunk from 40 steps to 9", "not shrunk: ..."),
    as the run says it; by default "not shrunk" and why for an episode whose chance events
    the program made, else "shrunk"."""
    end = ending(episode, found, seed)
    game = episode.game
    blamed = broken(episode, found, end)
    case: JSONObject = {
        "format": CASE_FORMAT,
        "id": case_id(game.id, end.kind, f"fuzz-{seed}-{episode.index}"),
        "kind": end.kind,
        "ruleset": game.id,
        "options": dict(game.options),
        "players": game.players,
        "rules": case_rules(episode, found, end.steps, blamed),
        "tags": ["generated", "fuzz", *end.tags],
        "description": "",
        "generated": {"by": command, "seed": seed},
        "start": dict(episode.start),
        "steps": end.steps,
        "expect": end.expect,
    }
    if shrunk is None:
        shrunk = NOT_SHRUNK if episode.chance_by_program else "shrunk"
    story = _story(episode, found, case, blamed)
    case["description"] = " ".join(filter(None, [
        f"Found by napkit fuzz (seed {seed}, episode {episode.index}) against {program}, "
        f"{shrunk}: {_episode_line(episode)}.", story, end.note,
        "Expected: what the reference engine answers, not a hand-worked result."]))
    return case


def _story(episode: Episode, found: Disagreement, case: JSONObject,
           blamed: Sequence[str]) -> str:
    """What went wrong in a sentence or two: where, where play stood, what differed, and its
    cause and rule."""
    at = _state_at(episode, found)
    stood = f" ({position(at)})" if at is not None else ""
    said = f"At {where_in(episode, found, case)}{stood}, the program disagreed with the " \
           f"reference engine: {found.message.rstrip('.')}."
    cause = cause_of(episode, found)
    if cause is not None and cause.words:
        said += f" {cause.words[0].upper()}{cause.words[1:].rstrip('.')}."
    if blamed:
        rule = default_spec().lawbook.get(blamed[0])
        said += f" The rule: {blamed[0]}" + (f" ({rule.title})" if rule is not None else "") + "."
    return said


def _episode_line(episode: Episode) -> str:
    game = episode.game
    what = "a match" if episode.kind == "match" else "a hand"
    return f"{what} of {game.id}, {game.players} players"


def where_in(episode: Episode, found: Disagreement, case: JSONObject) -> str:
    """Where the disagreement shows, with the steps numbered as people count them (step 0 is
    the deal; in a match, each hand from its own: :mod:`napkit.conform.report.numbering`)."""
    ref = found.ref
    match = case["start"]["type"] == "start-match"
    numbered = places(case["steps"], match)
    if ref.part in ("legal", "apply") and ref.step < len(numbered):
        return label(numbered[ref.step])
    if ref.part == "probe":
        if 0 < ref.step <= len(numbered):
            return f"the illegal try after {label(numbered[ref.step - 1])}"
        return "the illegal try before the first step"
    if ref.part in ("chance", "legal"):  # where chance was to act, after the last step
        at = len(episode.steps)
        steps = list(case["steps"][:at + 1])  # with the event drawn there, where there is one
        made = _made(found)
        if made is not None:
            steps.append({"seat": None, "action": action_to_json(made[0])})
        elif len(steps) == at:
            steps.append({"seat": None, "action": {}})
        return f"{label(places(steps, match)[at])}, where chance was to act"
    return {"start": "the start", "outcome": "the outcome"}.get(ref.part, ref.part)


# --- run again ------------------------------------------------------------------------------------
def not_run(case: Case, reason: str, command: Sequence[str]) -> str | None:
    """Why ``napkit conform`` did not run a reproducer of ``napkit fuzz`` against the program
    ``command``, and how to find its disagreement again, where the program's chance events
    were the reason it was skipped (``reason``: spec/conformance.md 2.5); None for any other
    case or reason. A case cannot ask a program for its events: the fuzz run that found the
    case, run again with its seed, does."""
    by = (case.generated or {}).get("by")
    if "fuzz" not in case.tags or not isinstance(by, str) or not by.startswith("napkit fuzz"):
        return None
    cause = skip_cause(case.ruleset, reason)
    if cause == "supports.chance program":
        why = ("the program makes its own chance events (supports.chance \"program\"), so no "
               "case can hand it a deal")
    elif cause == "supports.chance both":
        why = ("it hands the program a pack the rules refuse, and the program makes "
               "its own (supports.chance \"both\")")
        if "--program-deals" not in by.split():
            by += " --program-deals"
    else:
        return None
    rerun = f"{by} -- {shlex.join(command)}" if command else by
    return (f"{case.id} was not run: {why}. napkit fuzz found it by asking the program for its "
            f"chance events; to see the disagreement again, run: {rerun}")


# --- for people ---------------------------------------------------------------------------------
def readable(episode: Episode, found: Disagreement, case: JSONObject) -> list[str]:
    """The reproducer as a person reads a hand: the game; the deal of the hand in question as
    a table (a row a seat, the cards by suit, the widow and the stock); the steps before the
    one that differs (step 0 is the deal, as napkit conform, replay and explain count them;
    in a match, each hand from its own deal); where play stood then, in plain words; what was
    expected and what the program answered; the cause, where it is known, and the rules to
    blame with their text."""
    lines: list[str] = []
    game = episode.game
    opts = ", ".join(f"{k}={v}" for k, v in sorted(game.options.items()) if
                     _not_default(game, k, v))
    lines.append(f"{case['id']}: {case['kind']} case, {game.id}, {game.players} players"
                 + (f", {opts}" if opts else ""))
    steps = case["steps"]
    match = case["start"]["type"] == "start-match"
    numbered = places(steps, match)
    # The steps before the one that differs (a legal case's last step is the one, its legal
    # list asked before it); every step of the others.
    shown = len(steps) - 1 if case["kind"] == "legal" and steps and "legal" in steps[-1] else (
        len(steps))
    dealt_at, hand = _dealt(episode, max(len(steps) - 1, 0))
    if hand is not None:
        which = numbered[dealt_at][0] if match and dealt_at < len(numbered) else None
        lines += ["", *deal_lines(deal_json(hand), f"The deal of hand {which}" if which
                                  else "The deal")]
    lines.append("")
    lines += _step_lines(steps[:shown], numbered, match, dealt_at)
    at = _state_at(episode, found)
    if at is not None:
        lines += ["", *_wrap("Then: " + position(at), "", "  ")]
    lines.append("")
    lines += _wrap(f"At {where_in(episode, found, case)}: {found.message}", "", "  ")
    if found.expected is not None or found.got is not None:
        lines.append(f"  expected: {short(found.expected)}")
        lines.append(f"  answered: {short(found.got)}")
    if found.stderr:
        lines.append("  the program's standard error ended with:")
        lines += [f"    {cut(printable(line), 200)}" for line in found.stderr.splitlines()[-5:]]
    end = ending(episode, found)
    if end.note:
        lines += ["", *_wrap(end.note, "", "")]
    cause = cause_of(episode, found)
    if cause is not None:
        lines += ["", *_wrap(f"Cause: {cause.words}", "", "  ")]
        if cause.evidence:
            lines += _wrap(cause.evidence, "  ", "  ")
    lawbook = default_spec().lawbook
    for rule_id in broken(episode, found, end)[:3]:
        rule = lawbook.get(rule_id)
        if rule is None:
            continue
        lines.append("")
        lines.append(f"{rule.id} {rule.title}")
        lines += _wrap(rule.text, "  ", "  ")
    return lines


def _step_lines(shown: Sequence[JSONObject], numbered: Sequence[tuple[int | None, int]],
                match: bool, dealt_at: int) -> list[str]:
    """The steps, numbered as napkit conform, replay and explain number them
    (:mod:`napkit.conform.report.numbering`): step 0 is the deal; in a match, each hand's own."""
    if not shown:
        return ["No steps before it: it is the first thing asked after the start."]
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
        action = action_from_json(step["action"], ["action"])
        lines.append(f"  {numbered[i][1]:>4}  {describe_action(step['seat'], action)}")
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


def _wrap(text: str, first: str, rest: str, width: int = 92) -> list[str]:
    """``text`` wrapped, a paragraph at a time; the two spaces between a hand's suits kept."""
    out: list[str] = []
    for paragraph in text.split("\n\n"):
        out += textwrap.wrap(re.sub(r"\s*\n\s*", " ", paragraph.strip()), width,
                             initial_indent=first, subsequent_indent=rest) or [first]
    return out


__all__ = ["OUTCOME_RULES", "TURN_RULES", "TURN_STEPS", "Ending", "blame", "broken",
           "case_rules", "cause_of", "difference", "ending", "kind_of", "not_run", "position",
           "readable", "reproducer_case", "steps_json", "tries_at", "where_in"]
