"""Perft for Nap: how many sequences of legal actions lead from a position to a depth
(spec/conformance.md, part 5).

A **position** is a game (a ruleset, its options, the table) and the steps played in it so far,
given as a conformance case gives them: a start request (``start-hand`` or ``start-match``) and
a list of steps ``{"seat", "action"}``, chance's steps included (the deal, a reshuffle; in a
match the choice of dealer, shuffles and cuts). :func:`perft` counts the **leaves** of the tree
of play below it: from a node where a player is to act, one branch for each of their legal
actions; a node is a leaf once ``depth`` actions have been taken, where chance is to act, or
where the hand (the match) is over. So chance never branches (a shuffle has 52! outcomes): a
position that means to go past a chance step says how it fell, in its steps.

* ``perft(s, 0) = 1``; ``perft(s, d) = 1`` where chance is to act or play is over;
* otherwise ``perft(s, d)`` is the sum over the legal actions ``a`` of ``perft(s + a, d - 1)``
  (so ``perft(s, 1)`` is the number of legal actions).

:func:`divide` gives that sum term by term (the count under each first action), which bisects a
disagreement to one action; :func:`perft_levels` gives the counts of every depth from one walk.

The published files, ``conformance/perft/RULESET.json`` (format ``napkit-perft/1``, schema
``perft.schema.json``), hold positions of every ruleset with their counts: :func:`load_file`
reads one, :func:`published` finds positions by id. A position's steps are replayed as the
harness replays a case, each by the seat it names (NAP-1.3.1): a step the rules refuse is
reported with the JSON path of the step and the id of the rule it breaks.

The counting functions are written for speed (the engine's states are immutable, so a state is
walked without copying): the last level is counted from the length of the legal-action list,
without playing the actions (chess programs call it bulk counting).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from napkit import paths
from napkit.engine.acting import act
from napkit.engine.actions import Action, Play
from napkit.engine.cards import card_name
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE, NOBODY
from napkit.errors import RuleError, SpecError, json_path
from napkit.formats.values import FormatError, action_from_json
from napkit.reading import ReadError, loads, not_utf8
from napkit.spec.catalog import default_spec
from napkit.spec.schemas import is_valid, schema_problems

PERFT_FORMAT = "napkit-perft/1"
SCHEMA = "perft"

JSONObject = dict[str, Any]
State = HandState | MatchState
# No player is to act where the turn is below 0: chance's turn, or nobody's once play is over.
assert CHANCE < 0 and NOBODY < 0


# --- counting -------------------------------------------------------------------------------------
def perft(state: State, depth: int) -> int:
    """The number of leaves of the tree of play ``depth`` actions deep below ``state``: every
    sequence of ``depth`` legal actions, and every shorter one after which chance is to act or
    the hand (the match) is over, counted once (spec/conformance.md 5.1).

    Implements: NAP-1.3.1 (only the player to act acts: the tree branches on their actions).

    >>> import random
    >>> from napkit.engine.game import Game
    >>> hand = Game.create("classic", 3).new_hand(dealer=0)
    >>> perft(hand, 3)  # chance is to deal: a leaf, whatever the depth
    1
    >>> hand = hand.apply(hand.sample_chance(random.Random(1)))
    >>> perft(hand, 1) == len(hand.legal_actions())
    True
    """
    if depth <= 0:
        return 1
    if state.turn < 0:  # CHANCE or NOBODY (over): no player to act, the walk stops here
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    apply = state.apply
    below = depth - 1
    return sum([perft(apply(action), below) for action in actions])


def divide(state: State, depth: int) -> list[tuple[Action, int]]:
    """Each legal action of ``state`` with the count below it to ``depth - 1`` (the terms of
    :func:`perft`, in the engine's order of the legal actions); empty where no player is to
    act (chance, or over) or ``depth`` is 0.

    >>> import random
    >>> from napkit.engine.game import Game
    >>> hand = Game.create("classic", 3).new_hand(dealer=0)
    >>> hand = hand.apply(hand.sample_chance(random.Random(1)))
    >>> parts = divide(hand, 3)
    >>> sum(count for _, count in parts) == perft(hand, 3)
    True
    """
    if depth <= 0 or state.turn < 0:  # CHANCE or NOBODY
        return []
    return [(action, perft(state.apply(action), depth - 1)) for action in state.legal_actions()]


def perft_levels(state: State, depth: int) -> list[int]:
    """``[perft(state, 1), ..., perft(state, depth)]`` from one walk (as long as the walk to
    ``depth`` alone).

    >>> import random
    >>> from napkit.engine.game import Game
    >>> hand = Game.create("classic", 3).new_hand(dealer=0)
    >>> hand = hand.apply(hand.sample_chance(random.Random(1)))
    >>> perft_levels(hand, 3) == [perft(hand, 1), perft(hand, 2), perft(hand, 3)]
    True
    """
    if depth <= 0:
        return []
    return _levels(state, depth)


def _levels(state: State, depth: int) -> list[int]:
    if state.turn < 0:  # CHANCE or NOBODY
        return [1] * depth
    actions = state.legal_actions()
    if depth == 1:
        return [len(actions)]
    totals = [0] * (depth - 1)
    apply = state.apply
    for action in actions:
        for i, count in enumerate(_levels(apply(action), depth - 1)):
            totals[i] += count
    return [len(actions), *totals]


def warm(state: State) -> None:
    """Play the last legal action from ``state`` on (in the auction the highest bid, so that the
    hand is played) until chance is to act or play is over. The engine builds some tables the
    first time a phase is played (the play's, for one), which takes longer than a small count:
    a timing made after this counts the walk alone."""
    while state.turn >= 0:
        state = state.apply(state.legal_actions()[-1])


def action_text(action: Action) -> str:
    """An action as a person types it (:func:`napkit.formats.notation.parse_action` reads it
    back): a play as its card alone (``10H``), any other as its words (``bid nap``)."""
    return card_name(action.card) if isinstance(action, Play) else str(action)


# --- positions ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Count:
    """A published count: ``perft(position, depth) == count``; ``slow`` where it is too long
    to check in a test suite."""

    depth: int
    count: int
    slow: bool = False

    def to_json(self) -> JSONObject:
        out: JSONObject = {"depth": self.depth, "count": self.count}
        if self.slow:
            out["slow"] = True
        return out


@dataclass(frozen=True)
class Position:
    """A game and the steps played in it, with the counts published for it (if any).

    ``file`` and ``where`` say where it was read (``conformance/perft/classic.json`` and the
    parts of the JSON path ``$.positions[3]``), for messages; ``id`` is ``RULESET/NAME`` in a
    published file, the file's name for a position read from a file of its own."""

    id: str
    description: str
    start: Mapping[str, Any]
    steps: tuple[Mapping[str, Any], ...]
    counts: tuple[Count, ...] = ()
    file: str = ""
    where: tuple[str | int, ...] = ()

    @property
    def ruleset(self) -> str:
        return str(self.start["ruleset"])

    @property
    def players(self) -> int:
        return int(self.start["players"])

    @property
    def options(self) -> dict[str, str]:
        return dict(self.start["options"])

    def game(self) -> Game:
        """The game of the start request; a :class:`~napkit.errors.SpecError` at
        ``$.start`` if the spec has no such game (the rule id of a table it cannot seat)."""
        try:
            return Game.create(self.ruleset, self.players, self.options)
        except RuleError as exc:
            raise self.error(["start", *self._wrong_field()], f"{exc.rule}: {exc.message}"
                             ) from None

    def _wrong_field(self) -> list[str]:
        """Which field of the start request the spec refuses: the ruleset, an option, or else
        the number of players."""
        ruleset = default_spec().rulesets.get(self.ruleset)
        if ruleset is None:
            return ["ruleset"]
        for name, choice in self.options.items():
            if name not in ruleset.options or choice not in ruleset.options[name].choices:
                return ["options", name]
        return ["players"]

    def state(self) -> State:
        """The hand or match after the steps, each taken by the seat it names; a
        :class:`~napkit.errors.SpecError` naming the step and the rule id of a refused one."""
        game = self.game()
        start = self.start
        state: State
        try:
            if start["type"] == "start-match":
                state = new_match(game, hands=start["hands"], chips=start["chips"])
            else:
                funds = start["funds"]
                state = game.new_hand(start["dealer"], seats=tuple(start["seats"]),
                                      pool=start["pool"],
                                      funds=None if funds is None else tuple(funds),
                                      stakes=start["stakes"])
        except RuleError as exc:
            raise self.error(["start"], f"{exc.rule}: {exc.message}") from None
        for i, step in enumerate(self.steps):
            try:
                action = action_from_json(step["action"], [*self.where, "steps", i, "action"])
                state = act(state, step["seat"], action)
            except FormatError as exc:
                raise SpecError(self.file or self.id, exc.path, exc.message) from None
            except RuleError as exc:
                raise self.error(["steps", i], f"{exc.rule}: {exc.message} (the step "
                                               f"{step_text(step)})") from None
        return state

    def error(self, path: Sequence[str | int], message: str) -> SpecError:
        """A problem of this position, at ``path`` inside it (``["steps", 3]``)."""
        return SpecError(self.file or self.id, json_path([*self.where, *path]), message)

    def published(self, depth: int) -> Count | None:
        return next((c for c in self.counts if c.depth == depth), None)

    def to_json(self) -> JSONObject:
        """The position as a published file holds it."""
        return {"id": self.id, "description": self.description, "ruleset": self.ruleset,
                "options": self.options, "players": self.players, "start": dict(self.start),
                "steps": [dict(s) for s in self.steps],
                "perft": [c.to_json() for c in self.counts]}


def step_text(step: Mapping[str, Any]) -> str:
    """A step in words: ``seat 2: play 10H``, ``chance: deal``."""
    seat = step.get("seat")
    who = "chance" if seat is None else f"seat {seat}"
    try:
        action = action_from_json(step.get("action"))
    except FormatError:
        return f"{who}: {step.get('action')!r}"
    words = str(action).split()[0] if seat is None else action_text(action)
    return f"{who}: {words}"


def describe(state: State) -> str:
    """Who is to act in ``state`` and in which phase: ``seat 2 to act (auction)``."""
    if state.turn == NOBODY:
        return "the match is over" if isinstance(state, MatchState) else "the hand is over"
    phase = state.phase_name
    if isinstance(state, MatchState) and state.hand is not None and phase == "hand":
        phase = state.hand.phase_name
    who = "chance" if state.turn == CHANCE else f"seat {state.turn}"
    return f"{who} to act ({phase})"


# --- reading files --------------------------------------------------------------------------------
def _read(path: Path, shown: str) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(shown, "$", not_utf8(exc)) from None
    except OSError as exc:
        raise SpecError(shown, "$", f"cannot read: {exc.strerror or exc}") from None
    try:
        return loads(text)
    except ReadError as exc:
        raise SpecError(shown, exc.where, exc.what()) from None


def load_file(path: Path, shown: str | None = None) -> list[Position]:
    """The positions of a file: a published file (``napkit-perft/1``), all of them; any other
    JSON object with a ``start`` and ``steps`` (a conformance case is one), that one position.
    A :class:`~napkit.errors.SpecError` (the file, a JSON path, what) if it is neither, or
    breaks its schema, or names a game the spec does not have."""
    shown = shown or str(path)
    doc = _read(path, shown)
    if isinstance(doc, dict) and "positions" in doc:
        return read_published(doc, shown)
    return [read_position(doc, shown, path.stem)]


def read_published(doc: object, shown: str) -> list[Position]:
    """The positions of a published file's document, checked: its schema
    (``perft.schema.json``); ids unique and each ``RULESET/...`` of the file's ruleset; each
    position's ``ruleset``, ``options`` and ``players`` those of its start request, every
    option written out; depths in increasing order, none twice."""
    if not is_valid(SCHEMA, doc):
        _refuse(shown, schema_problems(SCHEMA, doc))
    assert isinstance(doc, dict)
    positions = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(doc["positions"]):
        position = _position(entry, shown, ("positions", i), entry["id"])
        if entry["id"] in seen:
            raise position.error(["id"], f"{entry['id']!r} is also the id of "
                                         f"$.positions[{seen[entry['id']]}]")
        seen[entry["id"]] = i
        if entry["id"].split("/")[0] != doc["ruleset"]:
            raise position.error(["id"], f"the id of a position of ruleset {doc['ruleset']} "
                                         f"begins '{doc['ruleset']}/'")
        if entry["ruleset"] != doc["ruleset"]:
            raise position.error(["ruleset"], f"a position of the file of {doc['ruleset']} is "
                                              f"of that ruleset, not {entry['ruleset']!r}")
        for name in ("ruleset", "options", "players"):
            if entry[name] != entry["start"][name]:
                raise position.error([name], f"{entry[name]!r} is not the start request's "
                                             f"({entry['start'][name]!r})")
        _all_options(position)
        positions.append(position)
    return positions


def read_position(doc: object, shown: str, name: str) -> Position:
    """The position of a file of its own: an object with ``start`` and ``steps`` as a case
    has them (``perft.schema.json#/$defs/game``); of its other fields only ``perft`` (the
    counts it publishes), ``id`` and ``description`` are read."""
    game = f"{SCHEMA}#/$defs/game"
    if not is_valid(game, doc):
        _refuse(shown, schema_problems(game, doc))
    assert isinstance(doc, dict)
    ident = doc.get("id") if isinstance(doc.get("id"), str) else name
    return _position(doc, shown, (), str(ident))


def _position(entry: JSONObject, shown: str, where: tuple[str | int, ...],
              ident: str) -> Position:
    counts = tuple(Count(c["depth"], c["count"], bool(c.get("slow", False)))
                   for c in entry.get("perft", []))
    description = entry.get("description")
    position = Position(ident, description if isinstance(description, str) else "",
                        entry["start"], tuple(entry["steps"]), counts, shown, where)
    for i, count in enumerate(counts):
        if i and count.depth <= counts[i - 1].depth:
            raise position.error(["perft", i, "depth"],
                                 f"depth {count.depth} follows depth {counts[i - 1].depth}: "
                                 "the depths are listed in increasing order, each once")
    return position


def _all_options(position: Position) -> None:
    """Every option of the ruleset written out, as in a case (defaults too)."""
    position.game()  # a known ruleset, known options and choices, a table it seats
    missing = sorted(set(default_spec().rulesets[position.ruleset].options)
                     - set(position.options))
    if missing:
        raise position.error(["options"], f"option {missing[0]!r} is not given (a published "
                                          "position writes out every option, defaults too)")


def _refuse(shown: str, problems: Sequence[tuple[str, str]]) -> None:
    where, message = problems[0] if problems else ("$", f"refused by {SCHEMA}.schema.json")
    raise SpecError(shown, where, message)


# --- the published files --------------------------------------------------------------------------
def published_files(folder: Path | None = None) -> dict[str, Path]:
    """Every published file by its ruleset (``classic``: ``conformance/perft/classic.json``)."""
    root = folder or paths.perft_dir()
    return {path.stem: path for path in sorted(root.glob("*.json")) if path.is_file()}


def shown_path(path: Path) -> str:
    """A file as messages name it: from the current folder where it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def published(patterns: Iterable[str], folder: Path | None = None) -> list[Position]:
    """The published positions whose id one of ``patterns`` matches (a glob: ``classic/*``;
    a ruleset id alone is all its positions), in the files' order; only the files that can
    hold a match are read. A :class:`LookupError` naming a pattern that matches none."""
    files = published_files(folder)
    wanted = [p if "/" in p or any(c in p for c in "*?[") else f"{p}/*" for p in patterns]
    found: list[Position] = []
    matched: set[str] = set()
    for ruleset, path in files.items():
        if not any(fnmatch.fnmatchcase(f"{ruleset}/", p.split("/")[0] + "/") for p in wanted):
            continue
        for position in load_file(path, shown_path(path)):
            hits = [p for p in wanted if fnmatch.fnmatchcase(position.id, p)]
            if hits:
                found.append(position)
                matched.update(hits)
    for pattern, given in zip(wanted, patterns, strict=True):
        if pattern not in matched:
            raise LookupError(given)
    return found


def published_ids(folder: Path | None = None) -> list[str]:
    """Every published position's id (each file read)."""
    return [p.id for path in published_files(folder).values()
            for p in load_file(path, shown_path(path))]


__all__ = ["PERFT_FORMAT", "Count", "Position", "action_text", "describe", "divide",
           "load_file", "perft", "perft_levels", "published", "published_files", "published_ids",
           "read_position", "read_published", "shown_path", "step_text", "warm"]
