"""The reference adapter: napkit's engine behind the adapter protocol napkit-adapter/1.

``python -m napkit.adapter`` (or ``napkit adapter``) reads one JSON request a line on standard
input and writes one JSON response a line on standard output, as spec/conformance.md part 2
says; ``napkit conform`` runs the conformance suite against it. It plays every ruleset of the
spec, every choice of every option, every number of players a ruleset allows, and all four
kinds of case.

:class:`Adapter` is the whole of it without the transport: :meth:`Adapter.handle` answers one
request (a parsed JSON value) with one response (a dict), so the harness can also run the
reference in its own process. A request that is not well formed is answered with
``{"type": "error"}`` naming its JSON path; an action the rules forbid is refused with the
engine's rule id (:class:`~napkit.errors.IllegalActionError`) and its message. Nothing a
request holds makes the adapter raise or exit, except ``bye`` and the end of its input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO

import napkit
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE
from napkit.errors import RuleError, SpecError, json_path
from napkit.formats.records import hand_outcome
from napkit.formats.values import FormatError, action_from_json, action_to_json
from napkit.spec.catalog import default_spec

PROTOCOL = "napkit-adapter/1"
KINDS = ("legal", "illegal", "outcome", "match")
JSONObject = dict[str, Any]

# Each request type and its fields besides "id" and "type".
FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("protocol",),
    "start-hand": ("ruleset", "options", "players", "dealer", "seats", "pool", "funds", "stakes"),
    "start-match": ("ruleset", "options", "players", "hands", "chips"),
    "legal": (),
    "apply": ("seat", "action"),
    "outcome": (),
    "bye": (),
}


class BadRequestError(Exception):
    """A request that is not well formed: where (a JSON path) and what."""

    def __init__(self, path: Sequence[str | int], message: str) -> None:
        super().__init__(path, message)
        self.path = json_path(path)
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class Adapter:
    """napkit's engine, one request at a time. ``handle`` never raises."""

    def __init__(self) -> None:
        self.state: HandState | MatchState | None = None
        self.done = False  # set once "bye" has been answered

    # --- the protocol ------------------------------------------------------------------
    def handle(self, request: object) -> JSONObject:
        """The response to one request."""
        ident = _ident(request)
        try:
            kind = _check(request)
            assert isinstance(request, dict)
            response = getattr(self, "_" + kind.replace("-", "_"))(request)
        except (BadRequestError, FormatError) as exc:
            return {"id": ident, "type": "error", "message": str(exc)}
        except RuleError as exc:
            return {"id": ident, "type": "error", "message": str(exc)}
        except SpecError as exc:
            return {"id": ident, "type": "error", "message": f"the spec cannot be read: {exc}"}
        except Exception as exc:  # a bug of ours: answer it, and stay up for the next request
            return {"id": ident, "type": "error",
                    "message": f"napkit could not serve this request ({type(exc).__name__}: "
                               f"{exc}); please report it"}
        return {"id": ident, **response}

    def handle_line(self, line: bytes | str) -> bytes:
        """The response line (JSON and a newline) to one request line."""
        try:
            text = line.decode() if isinstance(line, bytes) else line
            request = _DECODER.decode(text)
        except RecursionError:
            response = _error(0, "$: not JSON: nested too deeply to read")
        except UnicodeDecodeError as exc:
            response = _error(0, f"$: not UTF-8 text ({exc.reason} at byte {exc.start})")
        except json.JSONDecodeError as exc:
            response = _error(0, f"$: not JSON: {exc.msg} (column {exc.colno})")
        except ValueError as exc:  # NaN, Infinity, a number of thousands of digits
            response = _error(0, f"$: not JSON: {exc}")
        else:
            response = self.handle(request)
        return _ENCODER.encode(response).encode() + b"\n"

    def _hello(self, request: JSONObject) -> JSONObject:
        return {"type": "hello", "protocol": PROTOCOL, "name": "napkit",
                "version": napkit.__version__, "supports": supports()}

    def _start_hand(self, request: JSONObject) -> JSONObject:
        game = _game(request)
        funds = request["funds"]
        self.state = None
        self.state = game.new_hand(request["dealer"], seats=tuple(request["seats"]),
                                   pool=request["pool"],
                                   funds=tuple(funds) if funds is not None else None,
                                   stakes=request["stakes"])
        return {"type": "ok"}

    def _start_match(self, request: JSONObject) -> JSONObject:
        game = _game(request)
        self.state = None
        self.state = new_match(game, hands=request["hands"], chips=request["chips"])
        return {"type": "ok"}

    def _legal(self, request: JSONObject) -> JSONObject:
        state = self._playing()
        if state.is_over():
            return {"type": "legal", "turn": "over", "actions": []}
        if state.turn == CHANCE:
            return {"type": "legal", "turn": "chance", "actions": []}
        return {"type": "legal", "turn": state.turn,
                "actions": [action_to_json(a) for a in state.legal_actions()]}

    def _apply(self, request: JSONObject) -> JSONObject:
        state = self._playing()
        action = action_from_json(request["action"], ["action"])
        seat = request["seat"]
        try:
            if not state.is_over():
                turn = None if state.turn == CHANCE else state.turn
                if seat != turn:
                    # Out of turn, as napkit validate reports it (NAP-1.2.1: play goes round).
                    return {"type": "refused", "rule": "NAP-1.2.1",
                            "reason": f"it is {_who(turn)}'s turn, not {_who(seat)}'s"}
            self.state = state.apply(action)
        except RuleError as exc:
            return {"type": "refused", "rule": exc.rule, "reason": exc.message}
        return {"type": "accepted"}

    def _outcome(self, request: JSONObject) -> JSONObject:
        state = self._playing()
        if not state.is_over():
            return {"type": "outcome", "outcome": None}
        if isinstance(state, MatchState):
            result = state.result
            assert result is not None
            out = [s for s in range(state.game.players) if state.out >> s & 1]
            return {"type": "outcome",
                    "outcome": {"balances": list(result.balances), "pool": result.pool,
                                "winners": list(result.winners), "hands": result.hands,
                                "out": out}}
        return {"type": "outcome", "outcome": hand_outcome(state)}

    def _bye(self, request: JSONObject) -> JSONObject:
        self.done = True
        return {"type": "bye"}

    def _playing(self) -> HandState | MatchState:
        if self.state is None:
            raise BadRequestError([], "no hand or match has been started (send start-hand or "
                                 "start-match first)")
        return self.state


# --- what it supports -------------------------------------------------------------------------
def supports() -> JSONObject:
    """The handshake's ``supports``: every ruleset of the spec, every choice of every option
    ("*"), every number of players any choice of options allows, and every kind of case."""
    rulesets: JSONObject = {}
    for ruleset_id, ruleset in sorted(default_spec().rulesets.items()):
        players = sorted(set(_leaves(ruleset.params.get("players"))))
        entry: JSONObject = {"options": {name: "*" for name in sorted(ruleset.options)}}
        if players:
            entry["players"] = players
        rulesets[ruleset_id] = entry
    return {"kinds": list(KINDS), "rulesets": rulesets}


def _leaves(value: object) -> Iterable[int]:
    """The player counts of a ``players`` parameter, through any switches on options."""
    if isinstance(value, list):
        yield from (v for v in value if isinstance(v, int))
    elif isinstance(value, dict) and isinstance(value.get("cases"), dict):
        for case in value["cases"].values():
            yield from _leaves(case)


# --- checking requests ------------------------------------------------------------------------
def _ident(request: object) -> int:
    """The request's id where it has a usable one, else 0."""
    if isinstance(request, dict):
        ident = request.get("id")
        if type(ident) is int and ident >= 0:
            return ident
    return 0


def _check(request: object) -> str:
    """The request's type, once its fields are all there and of the right kinds (the action
    itself is read, and checked, by :func:`napkit.formats.values.action_from_json`)."""
    if not isinstance(request, dict):
        raise BadRequestError([], "a request is a JSON object")
    if "id" not in request:
        raise BadRequestError([], "missing field 'id'")
    _whole(request["id"], ["id"], 0)
    kind = request.get("type")
    if kind not in FIELDS:
        if "type" not in request:
            raise BadRequestError([], "missing field 'type'")
        raise BadRequestError(["type"], f"unknown request type {kind!r} (one of "
                                   f"{', '.join(FIELDS)})")
    assert isinstance(kind, str)
    names = FIELDS[kind]
    for name in request:
        if name not in names and name not in ("id", "type"):
            raise BadRequestError([name], f"unexpected field {name!r} in the {kind} request")
    for name in names:
        if name not in request:
            raise BadRequestError([], f"missing field {name!r} of the {kind} request")
    if kind == "hello" and request["protocol"] != PROTOCOL:
        raise BadRequestError(["protocol"], f"this program speaks {PROTOCOL}, not "
                                       f"{request['protocol']!r}")
    if kind in ("start-hand", "start-match"):
        _start_fields(request)
    if kind == "apply":
        seat = request["seat"]
        if seat is not None:
            _whole(seat, ["seat"], 0, "a seat (or null for chance)")
    return kind


def _start_fields(request: JSONObject) -> None:
    if not isinstance(request["ruleset"], str):
        raise BadRequestError(["ruleset"], "a ruleset is its id, a string")
    options = request["options"]
    if not isinstance(options, dict):
        raise BadRequestError(["options"], "options are an object of option names and choices")
    for name, choice in options.items():
        if not isinstance(choice, str):
            raise BadRequestError(["options", name], "a choice is a string")
    _whole(request["players"], ["players"], 2, maximum=10)
    if request["type"] == "start-match":
        for name in ("hands", "chips"):
            if request[name] is not None:
                _whole(request[name], [name], 1, "a whole number (or null)")
        return
    _whole(request["dealer"], ["dealer"], 0)
    seats = request["seats"]
    if not isinstance(seats, list) or len(seats) < 2:
        raise BadRequestError(["seats"], "seats are a list of at least two seat numbers")
    for i, seat in enumerate(seats):
        _whole(seat, ["seats", i], 0)
        if seat in seats[:i]:
            raise BadRequestError(["seats", i], f"seat {seat} is listed twice")
    _whole(request["pool"], ["pool"], 0)
    funds = request["funds"]
    if funds is not None:
        if not isinstance(funds, list):
            raise BadRequestError(["funds"], "funds are a list of each seat's chips, or null")
        for i, value in enumerate(funds):
            _whole(value, ["funds", i], None)
    _whole(request["stakes"], ["stakes"], 1)


def _whole(value: object, path: list[str | int], minimum: int | None,
           what: str = "a whole number", maximum: int | None = None) -> None:
    if type(value) is not int or (minimum is not None and value < minimum) or (
            maximum is not None and value > maximum):
        bounds = "" if minimum is None else f" of at least {minimum}"
        if maximum is not None:
            bounds += f" and at most {maximum}"
        raise BadRequestError(path, f"expected {what}{bounds}, not {json.dumps(value)}")


def _game(request: JSONObject) -> Game:
    return Game.create(request["ruleset"], request["players"], request["options"])


def _who(seat: int | None) -> str:
    return "chance" if seat is None else f"seat {seat}"


def _error(ident: int, message: str) -> JSONObject:
    return {"id": ident, "type": "error", "message": message}


def _not_json(constant: str) -> object:
    raise ValueError(f"{constant} is not a JSON value")


# Made once: json.loads and json.dumps with arguments build a new decoder or encoder each call.
_DECODER = json.JSONDecoder(parse_constant=_not_json)
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


# --- the process ------------------------------------------------------------------------------
def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer request lines from ``stdin`` on ``stdout`` until ``bye`` or the end of input.

    Input is read as it comes, as much as is there (``read1``), and the answers to every
    complete line read are written together: a harness that sends a case's requests at once
    gets their answers at once, in one write rather than one per request, while one that
    waits for each answer gets each at once."""
    adapter = Adapter()
    pending = b""
    while True:
        chunk = stdin.read1(1 << 16)  # type: ignore[attr-defined]
        if not chunk:
            if pending.strip():  # a last request without its newline
                stdout.write(adapter.handle_line(pending))
                stdout.flush()
            return 0
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        out = []
        for line in lines:
            if not line.strip():
                continue
            out.append(adapter.handle_line(line))
            if adapter.done:
                break
        if out:
            stdout.write(b"".join(out))
            stdout.flush()
        if adapter.done:
            return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m napkit.adapter``: serve the protocol on standard input and output."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args:
        if args[0] in ("-h", "--help"):
            print(f"usage: python -m napkit.adapter (or: napkit adapter)\n\nnapkit's engine "
                  f"behind the adapter protocol {PROTOCOL} (spec/conformance.md): one JSON "
                  "request a line on standard input,\none JSON response a line on standard "
                  "output, until bye or the end of input.")
            return 0
        print(f"napkit adapter: takes no arguments, not {args[0]!r} (it speaks {PROTOCOL} "
              "on standard input and output)", file=sys.stderr)
        return 2
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


__all__ = ["PROTOCOL", "Adapter", "BadRequestError", "main", "serve", "supports"]

if __name__ == "__main__":
    raise SystemExit(main())
