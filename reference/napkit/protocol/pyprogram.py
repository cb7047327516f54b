"""A Nap program written in Python, as one small class: the adapter protocol done for it.

A program that speaks the protocol itself answers ``handle(request)``. One that would rather
not writes a class with these methods (:class:`NapProgram`), and :class:`ProgramAdapter` turns
each request of the protocol into a call of one of them::

    class MyNap:
        name, version = "my-nap", "1.0"

        def supports(self): ...              # the handshake's "supports" (spec/conformance.md)
        def start_hand(self, start): ...     # a start-hand request: ruleset, options, players,
                                             #   dealer, seats, pool, funds, stakes
        def start_match(self, start): ...    # a start-match request: ruleset, options, players,
                                             #   hands, chips
        def turn(self): ...                  # a seat, or "chance", or "over"
        def legal_actions(self): ...         # the legal actions, as JSON values
        def apply(self, seat, action): ...   # raise Refused(rule, reason) if not allowed
        def outcome(self): ...               # None until over, then the outcome as JSON

A program whose ``turn`` never names a player whose only legal action is a pass (it takes
that pass itself) says so in ``supports``: ``"forced_passes": "skipped"`` (spec/conformance.md
2.2); the harness then asks it nothing about such a pass.

``pytest --napkit=mypkg:MyNap`` accepts either kind of class (napkit.protocol.pytest_plugin).
The values are those of the protocol, as ``json.loads`` gives them (actions as in
``spec/schemas/action.schema.json``).
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["NapProgram", "ProgramAdapter", "Refused"]


class Refused(Exception):  # noqa: N818 (a refusal is the program's answer, not an error)
    """The program refuses an action, naming the rule it breaks (``NAP-8.1.1``) where it can."""

    def __init__(self, rule: str | None, reason: str) -> None:
        super().__init__(rule, reason)
        self.rule = rule
        self.reason = reason


class NapProgram(Protocol):
    """A Nap program's whole surface towards the conformance suite."""

    name: str
    version: str

    def supports(self) -> dict[str, Any]: ...

    def start_hand(self, start: dict[str, Any]) -> None: ...

    def start_match(self, start: dict[str, Any]) -> None: ...

    def turn(self) -> int | str: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, seat: int | None, action: Any) -> None: ...

    def outcome(self) -> Any: ...


class ProgramAdapter:
    """A :class:`NapProgram` behind the protocol: ``handle(request)`` gives its response."""

    def __init__(self, program: NapProgram) -> None:
        self.program = program

    def handle(self, request: Any) -> dict[str, Any]:
        ident = request.get("id") if isinstance(request, dict) else None
        try:
            response = self._answer(request)
        except Refused as refusal:
            response = {"type": "refused", "reason": refusal.reason}
            if refusal.rule is not None:
                response["rule"] = refusal.rule
        return {"id": ident, **response}

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        program = self.program
        kind = request.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": request.get("protocol"),
                    "name": program.name, "version": program.version,
                    "supports": program.supports()}
        if kind == "start-hand":
            program.start_hand(_fields(request))
            return {"type": "ok"}
        if kind == "start-match":
            program.start_match(_fields(request))
            return {"type": "ok"}
        if kind == "legal":
            turn = program.turn()
            actions = program.legal_actions() if isinstance(turn, int) else []
            return {"type": "legal", "turn": turn, "actions": actions}
        if kind == "apply":
            program.apply(request.get("seat"), request.get("action"))
            return {"type": "accepted"}
        if kind == "outcome":
            return {"type": "outcome", "outcome": program.outcome()}
        if kind == "bye":
            return {"type": "bye"}
        return {"type": "error", "message": f"no request of type {kind!r}"}


def _fields(request: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in request.items() if k not in ("id", "type")}
