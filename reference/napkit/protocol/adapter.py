"""The reference adapter: napkit's engine behind the adapter protocol napkit-adapter/1.

``python -m napkit.protocol.adapter`` (or ``napkit adapter``) reads one JSON request a line on
standard
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

Request lines are read as strictly as every input of napkit (:func:`napkit.reading.loads`: no
NaN, no key twice, whole numbers only) and are at most :data:`MAX_REQUEST` bytes long; a line
whose id cannot be read is answered with ``"id": null`` (spec/conformance.md 2.1).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import random
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, BinaryIO, NoReturn, cast

import napkit
from napkit.engine.acting import act
from napkit.engine.actions import CHANCE_TYPES, PASS, Action, Buy, Deal, Reshuffle, Shuffle
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE
from napkit.errors import RuleError, SpecError, json_path
from napkit.formats.jsontext import dumps as _dumps
from napkit.formats.records import hand_outcome, match_outcome
from napkit.formats.values import (
    CARD_TEXTS,
    FormatError,
    action_from_json,
    action_to_json,
    buy_text,
)
from napkit.longrun import THRESHOLD, settle
from napkit.reading import WHOLE, ReadError, loads, not_utf8
from napkit.spec.catalog import default_rulesets
from napkit.spec.rulesets import Ruleset

PROTOCOL = "napkit-adapter/1"
#: The longest request line read, in bytes without its newline (spec/conformance.md 2.1):
#: 16 MiB, 40,000 times the longest request the conformance suite sends (404 bytes, a
#: start-hand). A longer line is refused unread, its bytes dropped as they come.
MAX_REQUEST = 16 * 1024 * 1024
KINDS = ("legal", "illegal", "outcome", "match")
#: The deepest perft count served (spec/conformance.md 5.3): far beyond what can be counted.
MAX_PERFT_DEPTH = 100
JSONObject = dict[str, Any]
#: How many requests, and action texts, an adapter remembers (then it starts afresh).
MEMO_SIZE = 16384
#: How many of the spec's games an adapter keeps (some 13 kB each once played): with 2048, a
#: fuzzing run's adapter levels off near 125 MB (123 MB at 12,000 episodes, 125 at 24,000);
#: with 4096 it was past 150 MB at 12,000, for a few per cent less CPU a hand.
GAMES_KEPT = 2048

# Each request type and its fields besides "id" and "type".
FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("protocol",),
    "start-hand": ("ruleset", "options", "players", "dealer", "seats", "pool", "funds", "stakes"),
    "start-match": ("ruleset", "options", "players", "hands", "chips"),
    "legal": (),
    "apply": ("seat", "action"),
    "outcome": (),
    "bye": (),
    "chance": (),
    "perft": ("depth", "divide"),
    "state": (),
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
    """napkit's engine, one request at a time. ``handle`` never raises.

    With ``deals`` it declares that it makes its own chance events (spec/conformance.md 2.5:
    ``supports.chance`` is ``"both"``): asked ``chance``, it draws the deal, shuffle, cut or
    first dealer from its own random source (seeded with ``seed``) and answers with it. It
    answers ``chance`` either way; the harness asks only a program that declares it.

    With ``skips_forced`` it plays as the many programs that never ask a player whose only
    legal action is a pass (spec/conformance.md 2.2: ``supports.forced_passes`` is
    ``"skipped"``): after each action it takes every such pass itself, so that its ``legal``
    answer is where those passes have left play.

    It answers the ``state`` request (2.3) either way, and declares it (``supports.state``)
    with ``states``: not by default, since the harness then asks it after many steps and
    compares the answers (``napkit conform -q`` took 15% longer), which checks nothing of the
    engine against itself that the legal sets and outcomes do not."""

    def __init__(self, deals: bool = False, seed: int | None = None,
                 rulesets: Sequence[Ruleset] = (), skips_forced: bool = False,
                 states: bool = False) -> None:
        self.state: HandState | MatchState | None = None
        self.states = states
        self.skips_forced = skips_forced
        self.done = False  # set once "bye" has been answered
        self.deals = deals
        self.rng = random.Random(seed)
        # Rulesets of one's own (house rulesets, spec/README.md) played beside the spec's.
        self.own = {r.id: r for r in rulesets}
        self.games: dict[tuple[str, int, tuple[tuple[str, str], ...]], Game] = {}
        self.made: dict[tuple[str, int, tuple[tuple[str, str], ...]], Game] = {}  # the spec's
        # The requests met, by their line after the id (see handle_line): each checked once.
        self.known: dict[bytes, tuple[str, JSONObject, Action | None]] = {}
        # Each player's action as the legal answer writes it.
        self.texts: dict[Action, bytes] = {}
        self.seen: dict[int, tuple[Action, bytes]] = {}  # the same by identity: see _joined
        self.lists: dict[int, tuple[Sequence[Action], bytes]] = {}  # see _legal_line
        # What follows the id in each refusal's answer line, by its rule and reason.
        self.refusals: dict[tuple[str, str], bytes] = {}

    # --- the protocol ------------------------------------------------------------------
    def handle(self, request: object) -> JSONObject:
        """The response to one request."""
        ident = _ident(request)
        try:
            kind = _check(request)
        except Exception as exc:
            return _failure(ident, exc)
        assert isinstance(request, dict)
        return self._serve(ident, kind, request)

    def _serve(self, ident: int | None, kind: str, request: JSONObject) -> JSONObject:
        """The response to a request ``_check`` has passed, of that kind."""
        try:
            response = getattr(self, "_" + kind.replace("-", "_"))(request)
        except Exception as exc:
            return _failure(ident, exc)
        return {"id": ident, **response}

    def handle_line(self, line: bytes | bytearray | str) -> bytes:
        """The response line (JSON and a newline) to one request line.

        A conversation repeats the same few hundred requests but for their ids (``legal``,
        ``apply`` of the same card): a line that starts ``{"id":N,`` (N: digits, no leading
        zero) and passes the checks is remembered by the rest of it, which reads and checks
        the same whatever N (an id of that form within 2^53 - 1 is one the checks pass, and
        no check reads it otherwise: :class:`napkit.reading.LineMemo` makes the same
        argument). The next line with that rest is served without being read or checked
        again, and ``legal`` and ``apply`` are answered with lines put together from kept
        bytes: the same bytes as ``_encode(handle(...))`` writes, at a fraction of the cost
        (tests/test_adapter_speed.py compares the two). Chance's packs are met once each: one
        written as napkit writes it is taken without being read as JSON (:func:`_pack_action`;
        tests/test_adapter_packs.py). The answer to such a line starts as the line does, with
        ``{"id":N,``: those bytes are copied, the id neither read nor written again."""
        if type(line) is bytes:
            raw = line
        elif isinstance(line, str):
            return self._read_line(line, None)
        else:
            raw = bytes(line)
        # The head {"id":N, with the checks of napkit.reading.split_id, made here to save a call
        # and reading N: N of at most 15 digits is within WHOLE (2^53 - 1, 16 digits).
        comma = raw.find(b",", 6, 24) if raw.startswith(b'{"id":') else -1
        digits = raw[6:comma]
        if (comma <= 6 or not digits.isdigit() or (digits[0] == 48 and comma > 7)  # 48: "0"
                or (comma > 21 and int(digits) > WHOLE)
                # (Adapter itself, the common case, is told at once.)
                or not (type(self) is Adapter or self._own_answers())):
            return self._read_line(raw, None)
        head, body = raw[:comma + 1], raw[comma + 1:]
        known = self.known.get(body)
        if known is None:
            chance = _pack_action(body)
            if chance is not None:  # a deal, shuffle or reshuffle as napkit writes one
                return self._apply_line(head, None, chance)
            return self._read_line(raw, body)
        kind, rest, action = known
        if kind == "legal":
            return self._legal_line(head)
        if action is not None:
            return self._apply_line(head, rest["seat"], action)
        ident = int(digits)
        return _encode(self._serve(ident, kind, {"id": ident, **rest}))

    def _own_answers(self) -> bool:
        """Whether the kept answers are this object's: a subclass that answers in its own
        way (a program built on this one, a test's planted bug) by overriding ``handle``,
        ``_legal`` or ``_apply``, which the kept answers pass by, sees every request."""
        cls = type(self)
        return (cls.handle is Adapter.handle and cls._legal is Adapter._legal
                and cls._apply is Adapter._apply)

    def _read_line(self, line: bytes | str, body: bytes | None) -> bytes:
        """The response line to a line read in full; with ``body`` (what follows the line's
        ``{"id":N,``), the request is remembered for the next line with that body if it
        passes the checks (see :meth:`_first_line`)."""
        try:
            text = line if isinstance(line, str) else line.decode()
        except UnicodeDecodeError as exc:
            response = _error(None, f"$: {not_utf8(exc)}")
        else:
            try:
                request = loads(text)
            except ReadError as exc:
                response = _unread(text, exc)
            else:
                if body is not None and type(request) is dict and isinstance(line, bytes):
                    return self._first_line(line[:len(line) - len(body)], body, request)
                response = self.handle(request)
        return _encode(response)

    def _first_line(self, head: bytes, body: bytes, request: JSONObject) -> bytes:
        """The answer line to a request read from a line that starts with ``head``
        (``{"id":N,``) and is the first met with ``body`` after it, as :meth:`handle` answers
        it, checked once and its action read once; kept under ``body`` if it passes the
        checks (with its action read, for ``apply``), unless its action carries a pack (a
        deal or a shuffle is met once). Chance's other actions are kept: a cut or the first
        dealer's draw is one of a few dozen, met again and again."""
        ident = _ident(request)
        try:
            kind = _check(request)
        except Exception as exc:  # not kept: the answer names what is wrong
            return _encode(_failure(ident, exc))
        told = request.get("action")
        if ident is None or (type(told) is dict and told.get("type") in _PACK_TYPES):
            return _encode(self._serve(ident, kind, request))
        if kind != "apply":
            self._remember(body, kind, request, None)
            return _encode(self._serve(ident, kind, request))
        try:
            action = action_from_json(told, ["action"])
        except Exception as exc:  # not kept; answered as _apply answers it, nothing started first
            return _encode(_failure(ident, self._not_started() if self.state is None else exc))
        self._remember(body, kind, request, action)
        return self._apply_line(head, request["seat"], action)

    def _remember(self, body: bytes, kind: str, request: JSONObject,
                  action: Action | None) -> None:
        """Keep a request that passes the checks, of that kind (with its action read, for
        ``apply``), under ``body``."""
        if len(self.known) >= MEMO_SIZE:
            self.known.clear()
        self.known[body] = (kind, {k: v for k, v in request.items() if k != "id"}, action)

    def _legal_line(self, head: bytes) -> bytes:
        """The answer line of ``legal`` (see :meth:`_legal`) to a line that starts with
        ``head`` (``{"id":N,``), each action's text made once and each list's joined once (the
        engine gives the same tuple again where play comes back to a point it has listed: a
        bid in the auction, the cards of a hand)."""
        state = self.state
        if state is None:  # nothing started: the error _legal raises
            return self._legal_served(head)
        try:
            if state.is_over():
                return head + b'"type":"legal","turn":"over","actions":[]}\n'
            turn = state.turn
            if turn == CHANCE:
                return head + b'"type":"legal","turn":"chance","actions":[]}\n'
            if type(turn) is int:  # else written as _encode writes it
                actions = state.legal_actions()
                listed = self.lists.get(id(actions))
                if listed is not None and listed[0] is actions:  # kept, so its id is its own
                    joined: bytes | None = listed[1]
                else:
                    joined = self._joined(actions)
                if joined is not None:
                    return b'%b"type":"legal","turn":%d,"actions":[%b]}\n' % (
                        head, turn, joined)
        except Exception as exc:
            return _encode(_failure(_head_id(head), exc))
        return self._legal_served(head)

    def _legal_served(self, head: bytes) -> bytes:
        """The answer line of ``legal`` as :meth:`_serve` answers it."""
        ident = _head_id(head)
        return _encode(self._serve(ident, "legal", {"id": ident}))

    def _joined(self, actions: Sequence[Action]) -> bytes | None:
        """The texts of the actions, comma-separated (kept by the tuple's identity), or None
        if one cannot be written in UTF-8. Each text is found by the action's identity first
        (the engine lists the same Play objects, the same bids, again and again, and an
        action's hash is a Python call), then by its value; a buy's is written afresh (each
        hand's buys are sets of its own cards, met once: nine in ten texts made were
        buys', each filling the memos)."""
        seen, texts = self.seen, self.texts
        parts = []
        for action in actions:
            kept = seen.get(id(action))
            if kept is not None and kept[0] is action:  # kept, so its id is its own
                parts.append(kept[1])
                continue
            if type(action) is Buy:
                parts.append(buy_text(action.cards))
                continue
            text = texts.get(action)
            if text is None:
                text = self._text(action)
                if text is None:
                    return None
            if len(seen) >= MEMO_SIZE:
                seen.clear()
            seen[id(action)] = (action, text)
            parts.append(text)
        joined = b",".join(parts)
        if type(actions) is tuple:  # not a list: one the engine could change after
            if len(self.lists) >= MEMO_SIZE:
                self.lists.clear()
            self.lists[id(actions)] = (actions, joined)
        return joined

    def _text(self, action: Action) -> bytes | None:
        """An action's JSON text, kept unless a chance's (chance is never to act where the
        legal actions are listed, and a deal carries a whole pack); None if UTF-8 cannot carry
        it (a bid id with a lone surrogate)."""
        try:
            text = _dumps(action_to_json(action)).encode()
        except UnicodeEncodeError:
            return None
        if not isinstance(action, CHANCE_TYPES):
            if len(self.texts) >= MEMO_SIZE:
                self.texts.clear()
            self.texts[action] = text
        return text

    def _apply_line(self, head: bytes, seat: int | None, action: Action) -> bytes:
        """The answer line of ``apply`` (see :meth:`_apply`) to a line that starts with
        ``head`` (``{"id":N,``), its action read already."""
        state = self.state
        if state is None:  # nothing started: the error _apply raises
            return _encode(_failure(_head_id(head), self._not_started()))
        try:
            try:
                self.state = act(state, seat, action)
            except RuleError as exc:
                return self._refused(head, exc)
            if self.skips_forced:
                self.state = _passes_taken(self.state)
        except Exception as exc:
            return _encode(_failure(_head_id(head), exc))
        return head + b'"type":"accepted"}\n'

    def _refused(self, head: bytes, exc: RuleError) -> bytes:
        """The answer line of a refused ``apply`` (see :meth:`_apply`) to a line that starts
        with ``head`` (``{"id":N,``): the illegal tries of a fuzzing campaign meet the same
        few hundred refusals again and again. What follows the head is the same whatever the
        id (the id's digits have nothing to escape)."""
        key = (exc.rule, exc.message)
        tail = self.refusals.get(key)
        if tail is None:
            line = _encode({"id": 0, "type": "refused", "rule": exc.rule, "reason": exc.message})
            tail = line[len(b'{"id":0,'):]
            if len(self.refusals) >= MEMO_SIZE:
                self.refusals.clear()
            self.refusals[key] = tail
        return head + tail

    def _hello(self, request: JSONObject) -> JSONObject:
        found = supports(self.own.values())
        if self.states:  # it answers the state request either way (spec/conformance.md 2.4)
            found["state"] = True
        if self.deals:
            found["chance"] = "both"
        if self.skips_forced:
            found["forced_passes"] = "skipped"
        return {"type": "hello", "protocol": PROTOCOL, "name": "napkit",
                "version": napkit.__version__, "supports": found}

    def _chance(self, request: JSONObject) -> JSONObject:
        """Chance's next event, made here and applied (spec/conformance.md 2.5)."""
        state = self._playing()
        if state.is_over() or state.turn != CHANCE:
            raise BadRequestError([], "chance is not to act: " + (
                "play is over" if state.is_over() else f"seat {state.turn} is"))
        action = state.sample_chance(self.rng)
        self.state = state.apply(action)
        if self.skips_forced:
            self.state = _passes_taken(self.state)
        return {"type": "chance", "action": action_to_json(action)}

    def _perft(self, request: JSONObject) -> JSONObject:
        """The perft count from where play stands, to the depth asked, and with ``divide`` the
        count under each legal action (spec/conformance.md 5.3); the hand or match is left as
        it was."""
        from napkit.conform.perft.count import divide, perft

        state = self._playing()
        depth = request["depth"]
        if not request["divide"]:
            return {"type": "perft", "count": perft(state, depth)}
        parts = divide(state, depth)
        count = sum(n for _, n in parts) if parts else perft(state, depth)
        return {"type": "perft", "count": count,
                "divide": [{"action": action_to_json(a), "count": n} for a, n in parts]}

    def _state(self, request: JSONObject) -> JSONObject:
        """The hand in play as napkit sees it: the contract, trumps, the current trick, the
        tricks each seat has won and whose turn it is (spec/conformance.md 2.4); null between
        the hands of a match."""
        from napkit.conform.run.state import state_json  # only for a harness that asks

        return {"type": "state", "state": state_json(self._playing())}

    def _game(self, request: JSONObject) -> Game:
        """The game a start request names. The spec's are kept here too, the last
        :data:`GAMES_KEPT` used: fuzzing draws from some 35,000 games, and compiling one costs
        more than playing a hand of it (Game.create keeps only 256)."""
        ruleset = self.own.get(request["ruleset"])
        key = (request["ruleset"], request["players"], tuple(sorted(request["options"].items())))
        if ruleset is None:
            made = self.made
            game = made.pop(key, None)  # put back last: the last used are kept
            if game is None:
                game = Game.create(request["ruleset"], request["players"], request["options"])
                if len(made) >= GAMES_KEPT:
                    del made[next(iter(made))]
            made[key] = game
            return game
        game = self.games.get(key)
        if game is None:
            game = self.games[key] = Game(ruleset, request["players"], request["options"])
        return game

    def _start_hand(self, request: JSONObject) -> JSONObject:
        game = self._game(request)
        funds = request["funds"]
        self.state = None
        self.state = game.new_hand(request["dealer"], seats=tuple(request["seats"]),
                                   pool=request["pool"],
                                   funds=tuple(funds) if funds is not None else None,
                                   stakes=request["stakes"])
        return {"type": "ok"}

    def _start_match(self, request: JSONObject) -> JSONObject:
        game = self._game(request)
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
            self.state = act(state, seat, action)  # the end, the turn, then the phase (NAP-1.3.4)
        except RuleError as exc:
            return {"type": "refused", "rule": exc.rule, "reason": exc.message}
        if self.skips_forced:
            self.state = _passes_taken(self.state)
        return {"type": "accepted"}

    def _outcome(self, request: JSONObject) -> JSONObject:
        state = self._playing()
        if not state.is_over():
            return {"type": "outcome", "outcome": None}
        if isinstance(state, MatchState):
            return {"type": "outcome", "outcome": match_outcome(state, out=True)}
        return {"type": "outcome", "outcome": hand_outcome(state)}

    def _bye(self, request: JSONObject) -> JSONObject:
        self.done = True
        return {"type": "bye"}

    def _playing(self) -> HandState | MatchState:
        if self.state is None:
            raise self._not_started()
        return self.state

    @staticmethod
    def _not_started() -> BadRequestError:
        return BadRequestError([], "no hand or match has been started (send start-hand or "
                                   "start-match first)")


def _passes_taken(state: HandState | MatchState) -> HandState | MatchState:
    """``state`` after every pass that is the only legal action there, taken unasked (a
    program declaring ``supports.forced_passes`` ``"skipped"``, spec/conformance.md 2.2)."""
    from napkit.conform.suite.support import forced_pass  # the one test of what is forced

    while forced_pass(state):
        state = state.apply(PASS)
    return state


# --- what it supports -------------------------------------------------------------------------
def supports(own: Iterable[Ruleset] = ()) -> JSONObject:
    """The handshake's ``supports``: every ruleset of the spec (and ``own``), every choice of
    every option ("*"), every number of players any choice of options allows, every kind of
    case, and the ``perft`` request (spec/conformance.md 5.3). (The ``state`` request, which
    a program built on this list need not answer, is declared by the adapter's handshake.)"""
    rulesets: JSONObject = {}
    every = {**default_rulesets(), **{r.id: r for r in own}}  # no law book: a quick start
    for ruleset_id, ruleset in sorted(every.items()):
        players = sorted(set(_leaves(ruleset.params.get("players"))))
        entry: JSONObject = {"options": {name: "*" for name in sorted(ruleset.options)}}
        if players:
            entry["players"] = players
        rulesets[ruleset_id] = entry
    return {"kinds": list(KINDS), "rulesets": rulesets, "perft": True}


def _leaves(value: object) -> Iterable[int]:
    """The player counts of a ``players`` parameter, through any switches on options."""
    if isinstance(value, list):
        yield from (v for v in value if isinstance(v, int))
    elif isinstance(value, dict) and isinstance(value.get("cases"), dict):
        for case in value["cases"].values():
            yield from _leaves(case)


# --- checking requests ------------------------------------------------------------------------
def _head_id(head: bytes) -> int:
    """The id of a line's head ``{"id":N,`` (N as :meth:`Adapter.handle_line` checked it)."""
    return int(head[6:-1])


def _ident(request: object) -> int | None:
    """The request's id where it has one that can be read (a whole number from 0 to 2^53 - 1),
    else None: an answer with another request's id (0 is the hello's) would be taken for
    that request's."""
    if isinstance(request, dict):
        ident = request.get("id")
        if type(ident) is int and 0 <= ident <= WHOLE:
            return ident
    return None


# What a chance apply of a pack is, after its id, up to its first card, as napkit writes it
# (JSON with no spaces: napkit.protocol.process); then the cards and "]}}".
_PACK_HEADS: dict[bytes, Callable[[tuple[int, ...]], Action]] = {
    b'"type":"apply","seat":null,"action":{"type":"%b","%b":[' % (kind, field): make
    for kind, field, make in ((b"deal", b"pack", Deal), (b"shuffle", b"pack", Shuffle),
                              (b"reshuffle", b"stock", Reshuffle))}
_CARD = CARD_TEXTS.__getitem__
_PACK_TYPES = frozenset(("deal", "shuffle", "reshuffle"))  # the actions carrying a pack


def _pack_action(body: bytes) -> Action | None:
    """The action of a line's body (what follows ``{"id":N,``) that is exactly one of
    :data:`_PACK_HEADS`, then one card's JSON text or more (each one of
    :data:`~napkit.formats.values.CARD_TEXTS`), comma-separated, then ``]}}``; else None.
    Such a body is a request that passes the checks (no key twice, no space, no escape, no
    other field), and its action is the one :func:`action_from_json` reads from it: a deal
    carries 24 to 52 cards, and reading it as JSON, then checking it and each card, cost five
    times as much (24 us against 4.6 for 52 cards). Anything else (another card text, another
    action) is read in full."""
    start = body.find(b"[", 58)  # where the shortest head has its "["
    make = _PACK_HEADS.get(body[:start + 1]) if start > 0 else None
    if make is None or not body.endswith(b"]}}"):
        return None
    try:
        cards = tuple(map(_CARD, body[start + 1:-3].split(b",")))
    except KeyError:  # not each card as napkit writes it (none at all, a space, "TH")
        return None
    return make(cards)


def _check(request: object) -> str:
    """The request's type, once its fields are all there and of the right kinds (the action
    itself is read, and checked, by :func:`napkit.formats.values.action_from_json`)."""
    if not isinstance(request, dict):
        raise BadRequestError([], "a request is a JSON object")
    if "id" not in request:
        raise BadRequestError([], "missing field 'id'")
    _whole(request["id"], ["id"], 0, maximum=WHOLE)
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
    if kind == "perft":
        _whole(request["depth"], ["depth"], 0, maximum=MAX_PERFT_DEPTH)
        if type(request["divide"]) is not bool:
            raise BadRequestError(["divide"], f"expected true or false, not "
                                             f"{json.dumps(request['divide'])}")
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


def _failure(ident: int | None, exc: Exception) -> JSONObject:
    """The error answering a request whose serving raised ``exc``."""
    if isinstance(exc, (BadRequestError, FormatError, RuleError)):
        return _error(ident, str(exc))
    if isinstance(exc, SpecError):
        return _error(ident, f"the spec cannot be read: {exc}")
    # A bug of ours: answer it, and stay up for the next request.
    return _error(ident, f"napkit could not serve this request ({type(exc).__name__}: {exc}); "
                         "please report it")


def _error(ident: int | None, message: str) -> JSONObject:
    return {"id": ident, "type": "error", "message": message.translate(_ONE_LINE)}


def _unread(text: str, exc: ReadError) -> JSONObject:
    """The error for a line :func:`napkit.reading.loads` refused, as napkit's other readers
    word it: where (a JSON path; a syntax error's line and column after its message) and what,
    with the id where one can be read (only JSON that breaks no grammar or limit has one)."""
    what = exc.what()
    if not exc.where.startswith("$"):
        return _error(None, f"$: {what} (at {exc.where})")
    return _error(_readable_id(text) if exc.kind == "value" else None, f"{exc.where}: {what}")


def _readable_id(text: str) -> int | None:
    """The id of a line that is JSON but not strict JSON (a seat of 1.0, a key twice in its
    action), read leniently, where it has one: an ``"id"`` given once at the top, a whole
    number from 0 to 2^53 - 1. Its answer then names the request it refuses."""
    if not text.lstrip(" \t\r\n\ufeff").startswith("{"):
        return None
    try:
        pairs = _PAIRS.decode(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):  # a number of thousands of digits, say
        return None
    ids = [value for key, value in pairs if key == "id"]
    if len(ids) == 1 and type(ids[0]) is int and 0 <= ids[0] <= WHOLE:
        return ids[0]
    return None


def _encode(response: JSONObject) -> bytes:
    """The response as one line. A string of the request may hold a lone surrogate
    (``"\\ud800"`` is JSON), which UTF-8 cannot carry: then the line is written in ASCII,
    with JSON's own escapes."""
    text = _dumps(response)
    try:
        return text.encode() + b"\n"
    except UnicodeEncodeError:
        return _ASCII_ENCODER.encode(response).encode() + b"\n"


# Made once: json.dumps with arguments builds a new encoder each call. (The UTF-8 one, made
# once: napkit.formats.jsontext.)
_ASCII_ENCODER = json.JSONEncoder(separators=(",", ":"))
_PAIRS = json.JSONDecoder(object_pairs_hook=list)  # objects as their (key, value) pairs
# Every character at which str.splitlines breaks a line, escaped as JSON would: a message is
# one line, whatever a request's keys hold (a JSON path quotes them as they are).
_ONE_LINE = {ord(c): f"\\u{ord(c):04x}" for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


# --- the process ------------------------------------------------------------------------------
class Lines:
    """A byte stream cut into lines in linear time, no line held beyond ``limit`` bytes.

    :meth:`feed` takes each chunk as it is read and gives the lines it completes: each a
    ``bytes`` (or ``bytearray``) without its newline, or, for a line longer than ``limit``,
    its length (an ``int``). Such a line is kept only until it passes the limit; from there its
    bytes are counted and dropped as they come. Each chunk is scanned once, and only the
    unfinished line is kept for the next (joining the buffer to each chunk and splitting it
    all again made a long line cost its length squared)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.pending = bytearray()  # the unfinished line, while within the limit
        self.over = 0  # the length so far of an unfinished line beyond the limit (0: none)

    def feed(self, chunk: bytes) -> list[bytes | bytearray | int]:
        """The lines ``chunk`` completes, in order."""
        parts = chunk.split(b"\n")
        rest = parts.pop()
        if not parts:
            done: list[bytes | bytearray | int] = []
        else:  # the first ends the unfinished line; the others are whole in this chunk
            limit = self.limit
            done = [self._complete(parts[0])]
            done += [part if len(part) <= limit else len(part) for part in parts[1:]]
        if self.over:
            self.over += len(rest)
        elif len(self.pending) + len(rest) > self.limit:
            self.over = len(self.pending) + len(rest)
            self.pending = bytearray()  # a new one: clear() would keep the memory
        else:
            self.pending += rest
        return done

    def end(self) -> bytes | bytearray | int | None:
        """The last line, where the input ended without its newline (None: it did not)."""
        return self._complete(b"") if self.over or self.pending else None

    def _complete(self, tail: bytes) -> bytes | bytearray | int:
        if self.over:
            length, self.over = self.over + len(tail), 0
            return length
        if not self.pending:
            return tail if len(tail) <= self.limit else len(tail)
        line, self.pending = self.pending, bytearray()  # given away, not copied
        if len(line) + len(tail) > self.limit:
            return len(line) + len(tail)
        line += tail
        return line


def serve(stdin: BinaryIO, stdout: BinaryIO, max_line: int = MAX_REQUEST,
          adapter: Adapter | None = None) -> int:
    """Answer request lines from ``stdin`` on ``stdout`` until ``bye`` or the end of input.

    Input is read as it comes, as much as is there (``read1``), and the answers to every
    complete line read are written together: a harness that sends a case's requests at once
    gets their answers at once, in one write rather than one per request, while one that
    waits for each answer gets each at once. A line longer than ``max_line`` bytes is
    answered with an error (``"id": null``) once it ends, its bytes dropped as they came:
    however long a line, no more than ``max_line`` of it is held."""
    adapter = adapter if adapter is not None else Adapter()
    lines = Lines(max_line)
    while True:
        chunk = stdin.read1(1 << 16)  # type: ignore[attr-defined]
        if not chunk:
            last = lines.end()
            if last is not None:  # a last request without its newline
                _write(stdout, _answers(adapter, [last], max_line))
            return 0
        _write(stdout, _answers(adapter, lines.feed(chunk), max_line))
        if adapter.done:
            return 0


def _answers(adapter: Adapter, lines: Sequence[bytes | bytearray | int],
             max_line: int) -> list[bytes]:
    """The response lines to request lines, blank lines skipped, none after ``bye``."""
    answers = []
    handle_line = adapter.handle_line  # looked up once: this loop runs once a request
    for line in lines:
        if isinstance(line, int):
            answers.append(_encode(_error(None, f"$: a request line is at most {max_line:,} "
                                                f"bytes long (spec/conformance.md 2.1); this "
                                                f"one has {line:,}, not read")))
        elif line.strip():
            answers.append(handle_line(line))
            if adapter.done:
                break
    return answers


def _write(stdout: BinaryIO, answers: list[bytes]) -> None:
    """Write the answers in one write, if there are any."""
    data = b"".join(answers)
    if data:
        stdout.write(data)
        stdout.flush()


USAGE = ("usage: python -m napkit.protocol.adapter [--deals-itself [--seed N]]"
         " [--skip-forced-passes] [--state] [--ruleset-file FILE]... (or: napkit adapter)")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m napkit.protocol.adapter``: serve the protocol on standard input and output.

    ``--deals-itself [--seed N]`` makes it declare that it makes its own chance events, as a
    program that shuffles inside its own loop does (spec/conformance.md 2.5);
    ``--skip-forced-passes`` that it takes a pass that is the only legal action itself,
    unasked (2.2);
    ``--state`` that it answers the ``state`` request (2.3), so that the harness asks it;
    ``--ruleset-file FILE`` plays a house ruleset (spec/README.md) beside the spec's."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        print(f"{USAGE}\n\nnapkit's engine behind the adapter protocol {PROTOCOL} "
              "(spec/conformance.md): one JSON request a line on standard input,\none JSON "
              "response a line on standard output, until bye or the end of input.\n"
              "  --deals-itself   declare supports.chance \"both\" and answer chance requests "
              "with its own\n                   deals (seeded with --seed N)\n"
              "  --skip-forced-passes  declare supports.forced_passes \"skipped\" and take "
              "a pass that is\n                   the only legal action unasked\n"
              "  --state          declare supports.state: the harness asks for its view of "
              "the hand\n"
              "  --ruleset-file   play this house ruleset too (repeatable)")
        return 0
    deals, seed, files, skips, states = False, None, [], False, False
    while args:
        word = args.pop(0)
        if word == "--deals-itself":
            deals = True
        elif word == "--state":
            states = True
        elif word == "--skip-forced-passes":
            skips = True
        elif word == "--seed" and args and args[0].isdigit():
            seed = int(args.pop(0))
        elif word == "--ruleset-file" and args:
            files.append(args.pop(0))
        else:
            print(f"napkit adapter: takes no arguments but --deals-itself, --seed N, "
                  f"--skip-forced-passes, --state and --ruleset-file FILE, not {word!r} (it "
                  "speaks "
                  f"{PROTOCOL} on standard input and output)", file=sys.stderr)
            return 2
    own: list[Ruleset] = []
    try:
        if files:  # the house rulesets' reader is imported only for them: a quicker start
            from pathlib import Path

            from napkit.spec.house import load_ruleset_path

            own = [load_ruleset_path(Path(f)) for f in files]
    except (SpecError, RuleError, OSError) as exc:
        print(f"napkit adapter: {exc}", file=sys.stderr)
        return 1
    settle()
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer,
                     adapter=Adapter(deals, seed, own, skips, states))
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


class Forked:
    """The reference adapter in a child forked from this process, shown as
    :class:`subprocess.Popen` shows a program (``pid``, ``stdin``, ``stdout``, ``stderr``,
    ``poll``, ``wait``, ``kill``): what ``napkit conform`` checks when it is given no program
    (:class:`napkit.protocol.process.ProcessChannel` takes it as ``started``). The child serves
    the protocol on its three pipes, exactly as ``python -m napkit.protocol.adapter`` does, in
    its own process group, and ends with ``os._exit``; but it starts with what the harness has
    already loaded (the engine, the rulesets, the schemas' checks) instead of loading all of it
    again in a new interpreter, which was most of ``napkit conform --case ID``'s time
    (benchmarks/README.md, start-up). Fork only a process with one thread: the caller checks
    (:func:`can_fork`)."""

    def __init__(self, command: Sequence[str], rulesets: Sequence[Ruleset] = ()) -> None:
        self.args = list(command)  # what would start it: for the messages that name it
        self.returncode: int | None = None
        pipes = [os.pipe() for _ in range(3)]  # (read, write) for stdin, stdout, stderr
        for stream in (sys.stdout, sys.stderr):  # nothing of ours may reach its pipes
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        self.pid = os.fork()
        if self.pid == 0:
            _serve_forked(pipes, rulesets)  # never returns
        # Its own process group, from both sides (whichever runs first): a kill of the group
        # made at once finds it. A Ctrl-C at the terminal, sent to napkit's group, is napkit's.
        with contextlib.suppress(OSError):
            os.setpgid(self.pid, self.pid)
        ends = [pipes[0][1], pipes[1][0], pipes[2][0]]  # ours: write to it, read from it
        for read, write in pipes:
            for fd in (read, write):
                if fd not in ends:
                    os.close(fd)
        self.stdin = open(ends[0], "wb", buffering=0)  # noqa: SIM115 (closed by its channel)
        self.stdout = open(ends[1], "rb", buffering=0)  # noqa: SIM115
        self.stderr = open(ends[2], "rb", buffering=0)  # noqa: SIM115

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped already
                self.returncode = 0
            else:
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        import subprocess
        import time

        if timeout is None:
            while self.poll() is None:
                with contextlib.suppress(ChildProcessError):
                    _, status = os.waitpid(self.pid, 0)
                    self.returncode = os.waitstatus_to_exitcode(status)
            assert self.returncode is not None
            return self.returncode
        end, delay = time.monotonic() + timeout, 0.0005
        while self.poll() is None:
            left = end - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(min(delay, left))
            delay = min(delay * 2, 0.05)
        return self.poll() or 0

    def kill(self) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def can_fork() -> bool:
    """Whether :class:`Forked` may start the reference here: a system that forks, and this
    process running one thread (a lock another thread held would stay held in the child)."""
    import threading

    return hasattr(os, "fork") and threading.active_count() == 1


def _serve_forked(pipes: list[tuple[int, int]], rulesets: Sequence[Ruleset] = ()) -> NoReturn:
    """The child of :class:`Forked`: its own process group, Python's own Ctrl-C and SIGTERM,
    the pipes as its standard input, output and error, then :func:`serve` until ``bye``."""
    status = 1
    try:
        os.setpgid(0, 0)  # see Forked
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for fd, (read, write) in enumerate(pipes):
            os.dup2(read if fd == 0 else write, fd)
            os.close(read)
            os.close(write)
        # Fresh streams on the pipes: the harness's own (and what they held) are not ours.
        requests = cast(BinaryIO, open(0, "rb", closefd=False))  # noqa: SIM115
        answers = cast(BinaryIO, open(1, "wb", closefd=False))  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False,  # noqa: SIM115
                          errors="backslashreplace")
        # settle(), but for its collection: what the harness made is kept out of the
        # collector's passes without walking it (nor copying the pages it would touch).
        gc.freeze()
        gc.set_threshold(THRESHOLD, *gc.get_threshold()[1:])
        status = 0  # as main: the harness gone, or Ctrl-C, is an ordinary end
        with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
            status = serve(requests, answers, adapter=Adapter(rulesets=rulesets))
    except BaseException:  # said on its standard error, as an interpreter would
        import traceback

        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        os._exit(status)


def _end(status: int) -> NoReturn:
    """Exit with ``status`` once what was written is flushed, without the interpreter's
    teardown (freeing every module and object: 10 to 20 ms that a harness saying bye waits
    through, for each program it starts). The reference adapter holds nothing else to end. A
    profiler or a tracer (coverage) gets the ordinary exit, and what it writes at the end."""
    if sys.gettrace() is not None or sys.getprofile() is not None or sys.flags.inspect:
        raise SystemExit(status)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the reader gone: nothing to lose
            stream.flush()
    os._exit(status)


__all__ = ["MAX_REQUEST", "PROTOCOL", "Adapter", "BadRequestError", "Lines", "main", "serve",
           "supports"]

if __name__ == "__main__":  # python -m napkit.protocol.adapter: napkit conform's reference
    _end(main())
