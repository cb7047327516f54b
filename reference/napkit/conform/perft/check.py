"""Perft counts asked of a program over the protocol, and a difference followed down to the
legal actions at fault (spec/conformance.md 5.3).

A program that declares ``"perft": true`` in its handshake answers the ``perft`` request: the
count from where play stands, and with ``divide`` the count under each legal action.
:func:`check_position` starts a position's game in the program, applies its steps and asks each
depth; where a count differs from the expected one (the published count, or napkit's engine's),
:func:`bisect` follows it down as a person would with ``napkit perft --divide``: it asks the
program's divide, takes the first action whose count differs from the engine's, and goes one
level deeper from the position after it, until a node where the program's legal actions (its
``legal`` answer) differ from the engine's. The protocol has no undo: every node is reached by
starting the game again and replaying the steps and the path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from napkit.conform.perft.count import Position, State, action_text, describe, divide, perft
from napkit.conform.suite.cases import Case
from napkit.conform.suite.support import skip_reason, skips_forced_passes
from napkit.engine.actions import Action
from napkit.errors import RuleError
from napkit.formats.values import FormatError, action_from_json, action_to_json
from napkit.protocol.process import ProtocolError, Session

JSONObject = dict[str, Any]
Step = tuple[int, JSONObject]  # a seat and an action, as the protocol writes it


@dataclass(frozen=True)
class ProgramCount:
    """One count asked of a program: the position, the depth, the count expected and the
    program's (None where it gave none); ``problem`` where it broke the protocol or refused a
    step; ``finding`` where its count differs: where the legal actions differ, in words."""

    position: Position
    depth: int
    expected: int
    got: int | None
    problem: str = ""
    finding: str = ""

    @property
    def agrees(self) -> bool:
        return not self.problem and self.got == self.expected


def skip(position: Position, supports: Mapping[str, Any]) -> str | None:
    """Why the program does not play this position (None: it does), by its handshake, as a
    ``legal`` case of the same game would be skipped (spec/conformance.md 2.2)."""
    if supports.get("perft") is not True:
        return "the program does not declare supports.perft"
    if skips_forced_passes(supports):  # its tree lacks the law book's forced-pass nodes
        return ("the program takes forced passes itself (supports.forced_passes \"skipped\"): "
                "perft counts the law book's tree, a forced pass a step of it")
    case = Case(position.id, "legal", position.ruleset, position.options, position.players, (),
                (), position.description, dict(position.start),
                tuple(dict(s) for s in position.steps), {}, Path(position.file or "."))
    return skip_reason(case, supports)


def _replay(position: Position, path: Sequence[Step]) -> list[JSONObject]:
    """The requests that start the position's game and take it to the node after ``path``."""
    requests = [dict(position.start)]
    requests += [{"type": "apply", "seat": s["seat"], "action": s["action"]}
                 for s in position.steps]
    requests += [{"type": "apply", "seat": seat, "action": action} for seat, action in path]
    return requests


class StepError(Exception):
    """The program would not start the game or refused a step: what, in words."""


def ask(session: Session, position: Position, path: Sequence[Step],
        requests: Sequence[JSONObject]) -> list[JSONObject]:
    """Take the program to the node after ``path`` and send ``requests`` there; their answers.
    :class:`StepError` if it does not start the game or accept every step;
    :class:`~napkit.protocol.process.ProtocolError` if it breaks the protocol."""
    replay = _replay(position, path)
    answers = session.call_many([*replay, *requests])
    start = answers[0]
    if start.get("type") != "ok":
        raise StepError(f"answered {position.start['type']} with {_short(start)}")
    for i, answer in enumerate(answers[1:len(replay)]):
        if answer.get("type") != "accepted":
            where = (f"step {i} of the position" if i < len(position.steps) else
                     f"the action {i - len(position.steps) + 1} of the path")
            request = replay[i + 1]
            reason = (f"refused it ({answer.get('rule')}: {answer.get('reason')})"
                      if answer.get("type") == "refused" else f"answered {_short(answer)}")
            raise StepError(f"{where} (seat {request['seat']}: {_action(request['action'])}) "
                            f"was not accepted: the program {reason}")
    return answers[len(replay):]


def check_position(session: Session, position: Position, state: State,
                   expected: Mapping[int, int]) -> list[ProgramCount]:
    """Ask the program each depth of ``expected`` (depth: count) from the position, shallowest
    first, after one replay (a perft request leaves play where it was); stop at the first count
    that differs (a program that lists too much makes deeper counts far larger, and slower) and
    follow it down with :func:`bisect`."""
    depths = sorted(expected)
    try:
        ask(session, position, [], [])
    except StepError as exc:
        return [ProgramCount(position, d, expected[d], None, str(exc)) for d in depths[:1]]
    results = []
    for depth in depths:
        answer = session.call("perft", depth=depth, divide=False)
        if answer.get("type") != "perft":
            results.append(ProgramCount(position, depth, expected[depth], None,
                                        f"answered perft with {_short(answer)}"))
            break
        if answer["count"] != expected[depth]:
            finding = bisect(session, position, state, depth)
            results.append(ProgramCount(position, depth, expected[depth], answer["count"],
                                        finding=finding))
            break
        results.append(ProgramCount(position, depth, expected[depth], answer["count"]))
    return results


def bisect(session: Session, position: Position, state: State, depth: int) -> str:
    """Where the program's tree of play first differs from the engine's below ``state`` (the
    position's), in words: the path to a node, and the legal actions there that the program
    lists and the engine does not, or the other way round."""
    path: list[Step] = []
    shown: list[str] = []
    try:
        while True:
            if depth <= 1 or state.turn < 0:
                return _legal_difference(session, position, state, path, shown)
            (answer,) = ask(session, position, path,
                            [{"type": "perft", "depth": depth, "divide": True}])
            if answer.get("type") != "perft" or not isinstance(answer.get("divide"), list):
                return (f"{_where(shown)}the program answered perft with divide with "
                        f"{_short(answer)}")
            program = {_key(p["action"]): p["count"] for p in answer["divide"]}
            engine = [(a, n) for a, n in divide(state, depth)]
            if set(program) != {_key(action_to_json(a)) for a, _ in engine}:
                return _legal_difference(session, position, state, path, shown)
            wrong = next(((a, n) for a, n in engine if program[_key(action_to_json(a))] != n),
                         None)
            if wrong is None:
                return (f"{_where(shown)}the program's divide to depth {depth} agrees with the "
                        f"engine's action by action, but its count is not their sum")
            action, _ = wrong
            path.append((state.turn, action_to_json(action)))
            shown.append(action_text(action))
            state = state.apply(action)
            depth -= 1
    except StepError as exc:
        return f"{_where(shown)}{exc}"
    except ProtocolError as exc:
        session.kill()
        return f"{_where(shown)}the program {exc.message}"


def _legal_difference(session: Session, position: Position, state: State,
                      path: Sequence[Step], shown: Sequence[str]) -> str:
    (answer,) = ask(session, position, path, [{"type": "legal"}])
    where = _where(shown)
    if answer.get("type") != "legal":
        return f"{where}the program answered legal with {_short(answer)}"
    engine_turn: object = ("over" if state.is_over() else "chance" if state.turn < 0
                           else state.turn)
    if answer.get("turn") != engine_turn:
        return (f"{where}the program says {_turn(answer.get('turn'))} to act, the engine "
                f"{_turn(engine_turn)}")
    mine = {_key(action_to_json(a)): a for a in state.legal_actions()}
    theirs = {_key(a): a for a in answer.get("actions", [])}
    extra = [_action(theirs[k]) for k in theirs if k not in mine]
    missing = [action_text(mine[k]) for k in mine if k not in theirs]
    parts = []
    if extra:
        parts.append(f"the program lists {', '.join(extra)}, which the rules do not allow")
    if missing:
        parts.append(f"it does not list {', '.join(missing)}, which they allow")
    if not parts:
        return (f"{where}the program lists the engine's {len(mine)} legal actions, yet counts "
                f"differently below them")
    return f"{where}{describe(state)}: {'; '.join(parts)}"


def _where(shown: Sequence[str]) -> str:
    return f"after {', '.join(shown)}: " if shown else "at the position: "


def _turn(turn: object) -> str:
    return f"seat {turn}" if isinstance(turn, int) else str(turn)


def _key(action: object) -> str:
    return json.dumps(action, sort_keys=True)


def _action(value: Any) -> str:
    """An action of the program's, as a person types it where it is one."""
    try:
        action: Action = action_from_json(value)
    except (FormatError, RuleError, TypeError):
        return _short(value)
    return action_text(action)


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 160 else text[:160] + "..."


def expected_counts(position: Position, state: State, depths: Sequence[int],
                    slow: bool) -> dict[int, int]:
    """The counts to ask: the published ones of ``depths`` (all not slow, or all with
    ``slow``, where ``depths`` is empty), else the engine's."""
    if depths:
        found = {}
        for depth in depths:
            known = position.published(depth)
            found[depth] = known.count if known is not None else perft(state, depth)
        return found
    return {c.depth: c.count for c in position.counts if slow or not c.slow}


__all__ = ["ProgramCount", "StepError", "ask", "bisect", "check_position", "expected_counts",
           "skip"]
