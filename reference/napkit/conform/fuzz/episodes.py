"""Differential testing: random hands and matches played through a program and the reference
engine side by side (``napkit fuzz``, spec/conformance.md part 4).

An **episode** is one hand (``start-hand``) or one match (``start-match``) of a game the
program declared in its handshake, drawn from a :class:`~napkit.conform.fuzz.shrink.Choices`: the
ruleset, its options and table size, the start (dealer, seats, pool, chips, stakes), the deal
(now and then a strong one, so that five-trick bids are made as well as lost), a style of play
for each hand (:class:`~napkit.players.biased.Style`: bid high, pass, a misère, buy a look,
buy cards, take or leave the widow, play the declarer's best cards), and the illegal actions
tried along the way (:mod:`napkit.conform.suite.breaches`, each a way of breaking one rule). The
reference engine plays the episode in this process and knows at every step whose turn it is,
every legal action, which rule refuses each illegal try, and the outcome.

The program is then asked, in one batch, exactly what a conformance case would ask: before
every step whose turn it is and what is legal, each illegal try (which it must refuse, naming
the rule or none), each step (which it must accept), and at the end the outcome. The first
answer that differs is a :class:`Disagreement`. The checks are the runner's
(:mod:`napkit.conform.run.runner`), so a disagreement reads as a failed case does.

Everything is a pure function of the episode's list of choices, so an episode is replayed
exactly from its seed, and :mod:`napkit.conform.fuzz.shrink` can reduce a failing one.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, NoReturn, TypeVar

from napkit.conform.cause import Cause
from napkit.conform.fuzz.shrink import Choices
from napkit.conform.run.runner import (
    DisagreementError,
    _check_accepted,
    _check_legal,
    _check_outcome,
    _check_refused,
    _check_state,
)
from napkit.conform.run.state import asked_after, asks_state, expect_state, state_json
from napkit.conform.suite.breaches import Breach, possible_breaches, refusal
from napkit.conform.suite.starts import HandStart, draw_start, new_hand, strong_deal
from napkit.conform.suite.support import (
    NOT_APPLICABLE,
    PACK_BREACHES,
    forced_pass,
    handshake_problems,
    skips_forced_passes,
)
from napkit.engine.actions import CHANCE_TYPES, Action, Buy, Deal, Pass
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import HAND, MatchState, new_match
from napkit.engine.observation import player_view
from napkit.engine.state import CHANCE, DEAL
from napkit.formats import records
from napkit.formats.jsontext import dumps
from napkit.formats.records import hand_outcome
from napkit.formats.values import FormatError, action_from_json, action_to_json, buy_text
from napkit.players.biased import BiasedPlayer, Style
from napkit.players.views import seat_view
from napkit.protocol.process import Expected, ProtocolError, Session
from napkit.spec.rulesets import Ruleset

JSONObject = dict[str, Any]

#: A match that runs longer than this many steps is played no further: its steps are still
#: checked, its outcome is not (it is not over).
MAX_MATCH_STEPS = 2500
#: One step in PROBE_ODDS is preceded by an illegal try, where the program plays illegal cases.
PROBE_ODDS = 5
#: One episode in MATCH_ODDS is a whole match, where the program plays matches.
MATCH_ODDS = 4
#: How many games (a ruleset, its options, a table size) the fuzzer keeps made.
GAMES_KEPT = 2048


# --- what the program plays ---------------------------------------------------------------------
@dataclass(frozen=True)
class Playable:
    """One ruleset as the program plays it: each option's choices (the default first, so that
    a choice of 0 is the default) and the table sizes (the smallest first)."""

    ruleset: Ruleset
    options: tuple[tuple[str, tuple[str, ...]], ...]
    players: tuple[int, ...] | None  # None: every size the ruleset allows
    # The options declared "n/a": held at their default, and not named in an episode's title.
    held: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.ruleset.id


@dataclass(frozen=True)
class Scope:
    """Everything the fuzzer may draw: the program's rulesets and kinds, narrowed by the
    command line; ``notes`` say what the program declared that cannot be fuzzed, and why."""

    rulesets: tuple[Playable, ...]
    kinds: frozenset[str]
    notes: tuple[str, ...] = ()
    # The program takes a pass that is the only legal action itself (supports.forced_passes
    # "skipped"): such a step is not sent, nor tried illegally (spec/conformance.md 2.2).
    skips_forced: bool = False

    @property
    def hands(self) -> bool:
        return bool(self.kinds & {"legal", "illegal", "outcome"})


class ScopeError(Exception):
    """Nothing the program declared is left to fuzz (the message says why)."""


class HandshakeError(ScopeError):
    """The program's handshake declares what the rulesets it names do not have
    (spec/conformance.md 2.2: :func:`napkit.conform.suite.support.handshake_problems`)."""


def _kinds(supports: Mapping[str, Any], only: Sequence[str]) -> frozenset[str]:
    """The kinds of case the program declares, narrowed to ``only`` where given; ScopeError
    for a kind of ``only`` it does not declare."""
    kinds = frozenset(k for k in supports.get("kinds", []) if isinstance(k, str))
    for wanted in only:
        if wanted not in kinds:
            raise ScopeError(f"the program does not declare kind {wanted!r} in its handshake "
                             f"(its kinds: {', '.join(sorted(kinds)) or 'none'})")
    return kinds & frozenset(only) if only else kinds


def scope_of(supports: Mapping[str, Any], known: Mapping[str, Ruleset],
             rulesets: Sequence[str] = (), options: Mapping[str, str] | None = None,
             players: Sequence[int] = (), only_kinds: Sequence[str] = ()) -> Scope:
    """What to fuzz: the rulesets, option choices and table sizes the program declared
    (spec/conformance.md 2.2), those napkit knows (``known``: the spec's and any house
    rulesets given), narrowed to ``rulesets``, ``options`` (one choice per option name),
    ``players`` and the kinds of case ``only_kinds`` where given (a kind the program does not
    declare is a ScopeError). HandshakeError for a declaration the rulesets refuse (an option
    or a choice they do not have, no kind or no ruleset)."""
    refused, _ = handshake_problems(supports, known)
    if refused:
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        raise HandshakeError(f"the program's handshake is refused: hello: {refused[0]}{more}")
    notes: list[str] = []
    declared: Mapping[str, Any] = supports.get("rulesets", {}) or {}
    kinds = _kinds(supports, only_kinds)
    for wanted in rulesets:
        if wanted not in declared:
            raise ScopeError(f"the program does not declare ruleset {wanted!r} in its handshake "
                             f"(it declares {', '.join(sorted(declared)) or 'none'})")
    chosen: list[Playable] = []
    for rid in sorted(declared):
        if rulesets and rid not in rulesets:
            continue
        ruleset = known.get(rid)
        if ruleset is None:
            notes.append(f"{rid}: not fuzzed: napkit has no ruleset {rid!r} (a house ruleset "
                         "is given with --ruleset-file FILE)")
            continue
        entry = declared[rid] if isinstance(declared[rid], Mapping) else {}
        opts: list[tuple[str, tuple[str, ...]]] = []
        held = frozenset(n for n, said in (entry.get("options") or {}).items()
                         if said == NOT_APPLICABLE and n in ruleset.options)
        for name, option in ruleset.options.items():
            said = (entry.get("options") or {}).get(name)
            # "n/a" is held at its default (as is an option left out).
            choices = list(option.choices) if said == "*" else (
                [c for c in said if c in option.choices] if isinstance(said, list)
                else [option.default])
            if options and name in options:
                choices = [c for c in choices if c == options[name]]
            if not choices:
                break
            order = [option.default, *(c for c in option.choices if c != option.default)]
            choices.sort(key=order.index)
            opts.append((name, tuple(choices)))
        else:
            sizes = entry.get("players")
            table = None if sizes is None else tuple(sorted(s for s in sizes if type(s) is int))
            if players:
                table = tuple(sorted(set(players) & set(table) if table else set(players)))
            if table == ():
                notes.append(f"{rid}: not fuzzed: no table size left "
                             f"({', '.join(map(str, players))} asked)")
                continue
            chosen.append(Playable(ruleset, tuple(opts), table, held))
            continue
        # Only --option can leave an option no choice: the declared choices were checked.
        notes.append(f"{rid}: not fuzzed: the program does not play "
                     f"{name}={(options or {}).get(name, 'any of its declared choices')}")
    if options:
        # Among the rulesets asked for, fuzzed or not: one left out for want of the choice
        # asked is said below ("does not play pack=32"), not called a ruleset without it.
        asked = [known[r] for r in declared if r in known and (not rulesets or r in rulesets)]
        unknown = [n for n in options if not any(n in r.options for r in asked)]
        if unknown:
            raise ScopeError(f"no ruleset fuzzed has an option {unknown[0]!r}")
    if not chosen:
        raise ScopeError("nothing to fuzz: " + ("; ".join(notes) if notes else
                                                "the program declares no ruleset"))
    if not kinds & {"legal", "illegal", "outcome", "match"}:
        raise ScopeError("nothing to fuzz: the program declares no kind of case")
    return Scope(tuple(chosen), kinds, tuple(notes), skips_forced_passes(supports))


# --- an episode ---------------------------------------------------------------------------------
class Probe(NamedTuple):
    """An illegal action tried before a step: who, what, the rule that refuses it (NAP-1.3.4)
    and the refusal of the law book it is (its breach); ``reason``, the engine's reason for
    the refusal, where known (napkit's adapter gives it: see _RefusedCheck)."""

    seat: int | None
    action: Action
    rule: str
    breach: str
    reason: str | None = None


class Step(NamedTuple):
    """One step of an episode: the state before it, who acts (None: chance) and what, the
    illegal actions tried first, and the legal actions there (``before.legal_actions()``, as
    the player chose among them; None: not known, asked of ``before`` when wanted)."""

    before: HandState | MatchState
    seat: int | None
    action: Action
    probes: tuple[Probe, ...]
    legal: tuple[Action, ...] | None = None


def forced(step: Step) -> bool:
    """Whether ``step`` is a forced pass: a player's, whose only legal action it was."""
    legal = step.legal
    if legal is None:
        return step.seat is not None and forced_pass(step.before)
    return step.seat is not None and len(legal) == 1 and type(legal[0]) is Pass


@dataclass
class Episode:
    """A hand or match played by the reference engine, with everything the program is asked."""

    index: int
    game: Game
    kind: str  # "hand" or "match"
    start: JSONObject  # the start request's fields
    steps: list[Step]
    final: HandState | MatchState
    final_probes: tuple[Probe, ...] = ()
    drawn: list[int] = field(default_factory=list)  # the choices it was drawn from
    # Its forced passes are not sent (the program takes them itself: Scope.skips_forced).
    skips_forced: bool = False
    held: frozenset[str] = frozenset()  # its options declared "n/a" (Playable.held)
    # Its chance events were made by the program (ProgramChance): its steps hold the program's
    # deals, and it cannot be drawn again from ``drawn`` (so it is not shrunk).
    chance_by_program: bool = False

    @property
    def over(self) -> bool:
        return self.final.is_over()

    def outcome(self) -> JSONObject | None:
        """The outcome the program must give at the end (None: the match was cut short)."""
        if not self.over:
            return None
        if isinstance(self.final, MatchState):
            return match_outcome(self.final)
        return hand_outcome(self.final)


def match_outcome(match: MatchState) -> JSONObject:
    """A finished match's outcome as the adapter protocol gives it (spec/conformance.md 2.4)."""
    return records.match_outcome(match, out=True)


class Games:
    """The games of the scope, made once each (a house ruleset's are not in Game.create's
    cache, which finds rulesets by id in the spec)."""

    def __init__(self, builtin: Iterable[str]) -> None:
        self.builtin = frozenset(builtin)
        # The last GAMES_KEPT games used, the least recently used first: a campaign draws
        # among tens of thousands (each choice of options, each table size), and its memory
        # must stay flat however long it runs.
        self.made: dict[tuple[str, int, tuple[tuple[str, str], ...]], Game] = {}

    def get(self, ruleset: Ruleset, players: int, options: Mapping[str, str]) -> Game:
        key = (ruleset.id, players, tuple(sorted(options.items())))
        game = self.made.pop(key, None)
        if game is None:
            game = (Game.create(ruleset.id, players, options) if ruleset.id in self.builtin
                    else Game(ruleset, players, dict(options)))
            if len(self.made) >= GAMES_KEPT:
                del self.made[next(iter(self.made))]
        self.made[key] = game
        return game


def draw_game(scope: Scope, games: Games, rng: random.Random) -> tuple[Game, str]:
    """The game and kind of an episode: a ruleset of the scope, a choice of each option, a
    table size the choices allow, and a hand or (one time in MATCH_ODDS) a match."""
    playable = scope.rulesets[rng.randrange(len(scope.rulesets))]
    options = {name: choices[rng.randrange(len(choices))] for name, choices in playable.options}
    allowed = playable.ruleset.resolve_param("players", options)
    sizes = sorted(n for n in allowed if type(n) is int) if isinstance(allowed, list) else []
    if playable.players is not None:
        sizes = [n for n in sizes if n in playable.players] or sizes
    players = sizes[rng.randrange(len(sizes))]
    game = games.get(playable.ruleset, players, options)
    kind = "hand"
    if "match" in scope.kinds and (not scope.hands or rng.randrange(MATCH_ODDS) == MATCH_ODDS - 1):
        kind = "match"
    return game, kind


class Prober:
    """The illegal tries: which breaches can arise in a game, and one drawn at a step."""

    def __init__(self, chance_tries: bool = True, pack_tries: bool = True) -> None:
        # By the game's identity, the game kept with its answer (so that its id is no other
        # game's), emptied when it holds GAMES_KEPT.
        self.memo: dict[int, tuple[Game, tuple[Breach, ...], tuple[Breach, ...]]] = {}
        # A program that makes its own chance events is never handed one: it is not asked to
        # refuse a bad one either; one that makes them and is handed them too ("both") is
        # never handed a pack the rules refuse (spec/conformance.md 2.5: PACK_BREACHES).
        self.chance_tries = chance_tries
        self.pack_tries = pack_tries

    def breaches(self, game: Game) -> tuple[tuple[Breach, ...], tuple[Breach, ...]]:
        """The hand breaches and the match breaches that can arise in ``game``."""
        known = self.memo.get(id(game))
        if known is not None and known[0] is game:
            return known[1], known[2]
        able = possible_breaches(game)
        found = (tuple(b for b in able if b.find is not None),
                 tuple(b for b in able if b.in_match is not None))
        if len(self.memo) >= GAMES_KEPT:
            self.memo.clear()
        self.memo[id(game)] = (game, *found)
        return found

    def draw(self, state: HandState | MatchState, rng: random.Random,
             always: bool = False) -> tuple[Probe, ...]:
        """Now and then (always, with ``always``) an illegal action to try at ``state``: a
        breach drawn among those that can arise, and one of the actions it offers here, kept
        only if the engine refuses it under that breach's rule."""
        if not always and rng.randrange(PROBE_ODDS) != PROBE_ODDS - 1:
            return ()
        game = state.game
        assert isinstance(game, Game)
        in_hand, in_match = self.breaches(game)
        hand = state if isinstance(state, HandState) else state.hand
        # The breaches to draw among, numbered (not listed: a try is drawn at one step in
        # PROBE_ODDS): the hand's, tried on the hand in play, then the match's, on the match.
        hands = len(in_hand) if hand is not None else 0
        count = hands
        if isinstance(state, MatchState) and (hand is None or state.is_over()):
            count += len(in_match)
        if not count:
            return ()
        start = rng.randrange(count)
        for k in range(count):  # the drawn breach first, then the next that can arise
            at = (start + k) % count
            if at < hands:
                breach = in_hand[at]
                assert breach.find is not None and hand is not None
                candidates = breach.find(hand, rng)
            else:
                breach = in_match[at - hands]
                assert breach.in_match is not None and isinstance(state, MatchState)
                candidates = breach.in_match(state, rng)
            if not candidates:
                continue
            seat, action = candidates[rng.randrange(len(candidates))]
            if seat is None and not (self.chance_tries and (
                    self.pack_tries or f"breach-{breach.name}" not in PACK_BREACHES)):
                return ()
            rule, reason = refusal(state, seat, action)
            if rule == breach.rule:
                return (Probe(seat, action, rule, breach.name, reason),)
            return ()
        return ()


class Chance:
    """Where an episode's chance events come from. This one draws them from the episode's
    choices (the harness makes them, as the suite does); :class:`ProgramChance` asks the
    program (spec/conformance.md 2.5). ``start`` and ``step`` tell it the episode's start and
    each step as they are drawn."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def start(self, request: JSONObject) -> None:
        pass

    def make(self, state: HandState | MatchState, style: Style, probes: tuple[Probe, ...],
             index: int) -> Action:
        return _chance(state, style, self.rng)

    def step(self, index: int, step: Step) -> None:
        pass


def draw_episode(scope: Scope, games: Games, prober: Prober, rng: Choices,
                 index: int = 0, chance: Chance | None = None) -> Episode:
    """One episode, every choice of it drawn from ``rng`` (chance's too, unless ``chance``
    gives them)."""
    game, kind = draw_game(scope, games, rng)
    probing = "illegal" in scope.kinds
    source = chance if chance is not None else Chance(rng)
    skips = scope.skips_forced
    if kind == "match":
        episode = _draw_match(game, rng, prober if probing else None, index, source, skips)
    else:
        episode = _draw_hand(game, rng, prober if probing else None, index, source, skips)
    episode.drawn = rng.drawn
    episode.skips_forced = skips
    episode.held = next((p.held for p in scope.rulesets if p.id == game.id), frozenset())
    return episode


def _chance(state: HandState | MatchState, style: Style, rng: random.Random) -> Action:
    # A style that bids five tricks gets a strong deal now and then, so that Nap is made too.
    if style.auction == "nap" and isinstance(state, HandState) and state.phase == DEAL:
        return strong_deal(state, rng)
    return state.sample_chance(rng)


# A Step or Ref built as a tuple: a named tuple's constructor is a Python call, and a campaign
# makes one for every step and every request.
_tuple = tuple.__new__


def _draw_hand(game: Game, rng: random.Random, prober: Prober | None, index: int,
               chance: Chance, skips: bool = False) -> Episode:
    start: HandStart = draw_start(game, rng)
    request = start.to_json(game)
    chance.start(request)
    style = Style.draw(rng)
    player = BiasedPlayer(game, style)
    state = new_hand(game, start)
    steps: list[Step] = []
    while not state.is_over():
        # No illegal try where the program takes a forced pass itself: it has gone past it.
        probes = (prober.draw(state, rng) if prober is not None
                  and not (skips and forced_pass(state)) else ())
        legal: tuple[Action, ...] = ()
        if state.turn == CHANCE:
            seat, action = None, chance.make(state, style, probes, len(steps))
        else:
            seat, legal = state.turn, state.legal_actions()
            action = _choose(player, state, seat, legal, rng)
        steps.append(_tuple(Step, (state, seat, action, probes, legal)))  # Step(...)
        chance.step(len(steps) - 1, steps[-1])
        state = state.apply(action)
    final = prober.draw(state, rng) if prober is not None else ()
    return Episode(index, game, "hand", request, steps, state, final)


def _draw_match(game: Game, rng: random.Random, prober: Prober | None, index: int,
                chance: Chance, skips: bool = False) -> Episode:
    rules = game.rules
    chips: int | None = None
    if rules.match.bankroll is not None:
        chips = (None, 2, 3, 4, 6)[rng.randrange(5)]
    hands: int | None = 1 + rng.randrange(5)
    if rules.match.end == "last-with-chips" or (
            chips is not None and chips <= 4 and rng.randrange(3) == 2):
        hands = None if rules.match.end != "agreed" else hands
    sit_out = (0.0, 0.2, 0.5)[rng.randrange(3)]
    start = {"type": "start-match", "ruleset": game.id, "options": dict(game.options),
             "players": game.players, "hands": hands, "chips": chips}
    chance.start(start)
    match = new_match(game, hands=hands, chips=chips)
    style = Style.draw(rng)
    player = BiasedPlayer(game, style, sit_out)
    played = 0
    steps: list[Step] = []
    while not match.is_over() and len(steps) < MAX_MATCH_STEPS:
        probes = (prober.draw(match, rng) if prober is not None
                  and not (skips and forced_pass(match)) else ())
        if match.hand is not None and len(match.hands) != played:
            played = len(match.hands)
            style = Style.draw(rng)
            player = BiasedPlayer(game, style, sit_out)
        legal: tuple[Action, ...] = ()
        if match.turn == CHANCE:
            seat, action = None, chance.make(match, style, probes, len(steps))
        else:
            seat = match.turn
            hand = match.hand
            if match.phase == HAND and hand is not None:  # the hand's legal actions
                legal = hand.legal_actions()
                action = _choose(player, hand, seat, legal, rng)
            else:
                view = seat_view(match, seat)
                action, legal = player.choose(view, rng), view.legal_actions
        steps.append(_tuple(Step, (match, seat, action, probes, legal)))  # Step(...)
        chance.step(len(steps) - 1, steps[-1])
        match = match.apply(action)
    final = prober.draw(match, rng) if prober is not None and match.is_over() else ()
    return Episode(index, game, "match", start, steps, match, final)


def _choose(player: BiasedPlayer, state: HandState, seat: int, legal: tuple[Action, ...],
            rng: random.Random) -> Action:
    """The player's choice among ``legal`` (the state's legal actions): what it chooses from
    its view, which is built only where there is a choice. A forced action needs none: the
    biased player takes the only legal action as it is, drawing nothing (a third of a
    campaign's decisions)."""
    if len(legal) == 1:
        return legal[0]
    return player.choose(player_view(state, seat, legal), rng)


# --- asking the program -------------------------------------------------------------------------
class Ref(NamedTuple):
    """Where in an episode a request belongs: ``part`` is "start", "legal" (before step
    ``step``), "probe" (the ``probe``-th try before step ``step``; after the last step for the
    tries once play is over), "apply" (step ``step``), "state" (the program's state after
    step ``step``, where it answers the state request) or "outcome"."""

    part: str
    step: int = 0
    probe: int = 0


Check = Callable[[JSONObject], str]
Plan = list[tuple[Ref, JSONObject, Check]]  # each request, where it belongs, its check


def legal_json(state: HandState | MatchState) -> list[JSONObject]:
    """The legal actions at ``state`` as the protocol writes them (none for chance)."""
    if state.turn == CHANCE:
        return []
    return [as_json(a) for a in state.legal_actions()]


# A player's action as JSON and as the text napkit's adapter writes of it, made once each:
# the same few hundred actions recur in every hand (chance's, with their packs, are not
# kept). Found by the action's identity first, then by its value: the engine lists the same
# action objects again and again, and an action's hash is a Python call; an entry by
# identity keeps its action alive, so that its id is not another's.
_FACES: dict[Action, tuple[JSONObject, bytes]] = {}
_FACES_BY_ID: dict[int, tuple[Action, tuple[JSONObject, bytes]]] = {}
_KEYS: dict[Action, tuple[tuple[str, Any], ...] | None] = {}  # the key its JSON compares by

_T = TypeVar("_T")
#: How many entries each of the fuzzer's memos of actions keeps: the actions of play recur,
#: but a purchase can be any set of cards, and a campaign runs for hours.
MEMO_SIZE = 16384


# The legal actions' JSON list and text by the tuple's identity (kept with it, so that its id
# is its own): the engine gives the same tuple again where play comes back to a point it has
# listed (more than half of a campaign's legal lists). The lists are read, never changed.
_LISTS: dict[int, tuple[Sequence[Action], list[JSONObject], bytes]] = {}


def _kept(memo: dict[Any, Any], value: _T) -> _T:
    """``value``, after making room for it in ``memo`` (emptied when full)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    return value


def _face(action: Action) -> tuple[JSONObject, bytes]:
    """A player's action's JSON and its text (see above)."""
    known = _FACES_BY_ID.get(id(action))
    if known is not None and known[0] is action:
        return known[1]
    if type(action) is Buy:
        # Any set of cards, seldom met twice, and tens of them a hand: kept, they would fill
        # the memos and empty them of the actions that do recur. Made afresh.
        return action_to_json(action), buy_text(action.cards)
    face = _FACES.get(action)
    if face is None:
        value = action_to_json(action)
        # A lone surrogate (a house bid's id) is kept as it is: napkit's adapter writes that
        # line in ASCII, so it does not match, and is read.
        text = dumps(value).encode("utf-8", "surrogatepass")
        face = _FACES[action] = _kept(_FACES, (value, text))
    _FACES_BY_ID[id(action)] = _kept(_FACES_BY_ID, (action, face))
    return face


def as_json(action: Action) -> JSONObject:
    """``action_to_json(action)``, remembered for a player's action. The object is shared:
    it is read, never changed."""
    if isinstance(action, CHANCE_TYPES):
        return action_to_json(action)
    return _face(action)[0]


def _text(action: Action) -> bytes:
    """The action's JSON text as napkit's adapter writes it."""
    if isinstance(action, CHANCE_TYPES):
        return dumps(action_to_json(action)).encode("utf-8", "surrogatepass")
    return _face(action)[1]


def _key(action: Action) -> tuple[tuple[str, Any], ...] | None:
    if action in _KEYS:
        return _KEYS[action]
    items = as_json(action).items()
    key = None if any(isinstance(v, list) for _, v in items) else tuple(sorted(items))
    if not isinstance(action, CHANCE_TYPES):
        _KEYS[action] = _kept(_KEYS, key)
    return key


class _LegalCheck:
    """The check of a ``legal`` answer: the turn, then the actions, first as the list the
    engine gives (a program that lists them in the engine's order, as napkit's adapter does,
    is done with at once), then as a set, by keys made once per action; any difference (or an
    action it cannot key, a buy) goes to the runner's check, which words the disagreement.
    The answer has passed the schema, so a value's type is the one it must be (1 is not
    taken for true). :meth:`expect` gives the answer as napkit's adapter writes it
    (process.Expected): a line that is exactly that is not read at all."""

    __slots__ = ("actions", "expected", "seat", "state", "step", "texts")

    def __init__(self, step: int, seat: int | None, state: HandState | MatchState,
                 legal: Sequence[Action] | None = None) -> None:
        self.step = step
        self.seat = seat
        self.state = state
        self.actions: Sequence[Action] | None = legal  # None: asked of the state when wanted
        self.expected: list[JSONObject] | None = None
        self.texts = b""

    @property
    def where(self) -> str:
        return f"step {self.step}"

    def _expected(self) -> list[JSONObject]:
        if self.expected is None:
            actions = self.actions
            if actions is None:
                state = self.state
                actions = self.actions = () if state.turn == CHANCE else state.legal_actions()
            known = _LISTS.get(id(actions))
            if known is not None and known[0] is actions:
                _, self.expected, self.texts = known
            elif actions and not isinstance(actions[0], CHANCE_TYPES):
                faces = list(map(_face, actions))  # each action's JSON and text, found once
                self.expected = [face[0] for face in faces]
                self.texts = b",".join([face[1] for face in faces])
                _LISTS[id(actions)] = _kept(_LISTS, (actions, self.expected, self.texts))
            else:
                self.expected = [as_json(a) for a in actions]
                self.texts = b",".join(map(_text, actions))
        return self.expected

    def expect(self) -> tuple[bytes, JSONObject]:
        expected = self._expected()
        turn = b'"chance"' if self.seat is None else b"%d" % self.seat
        return (b',"type":"legal","turn":%s,"actions":[%s]}' % (turn, self.texts),
                {"type": "legal", "turn": "chance" if self.seat is None else self.seat,
                 "actions": expected})

    def __call__(self, answer: JSONObject) -> str:
        wanted = "chance" if self.seat is None else self.seat
        turn = answer.get("turn")
        expected = self._expected()
        if answer.get("type") == "legal" and type(turn) is type(wanted) and turn == wanted:
            got = answer.get("actions")
            if got is expected or got == expected:
                return ""
            keys = {_key(a) for a in self.actions or ()}
            if None not in keys and isinstance(got, list):
                try:
                    found = frozenset(tuple(sorted(a.items())) for a in got)
                except (TypeError, AttributeError):
                    found = None
                if found is not None and found == keys:
                    return ""
        return _check_legal(answer, where=self.where, seat=self.seat, expected=expected)


def _accepted() -> tuple[bytes, JSONObject]:
    return b',"type":"accepted"}', {"type": "accepted"}


def _ok() -> tuple[bytes, JSONObject]:
    return b',"type":"ok"}', {"type": "ok"}


def expectations(requests: Plan) -> list[Expected | None]:
    """What each request's answer is expected to be, where known (process.Expected): the
    legal actions, a step accepted, an illegal try refused (where its reason is known), a
    start done, the outcome."""
    out: list[Expected | None] = []
    for _, _, check in requests:
        if isinstance(check, _LegalCheck):
            out.append(check.expect)
        elif isinstance(check, _AcceptedCheck):
            out.append(_accepted)
        elif isinstance(check, (_OutcomeCheck, _StateCheck)) or (
                isinstance(check, _RefusedCheck) and check.probe.reason is not None):
            out.append(check.expect)
        else:
            out.append(_ok if check is _check_ok else None)
    return out


_LEGAL_REQUEST: JSONObject = {"type": "legal"}  # shared: read, never changed
_APPLY: dict[tuple[int | None, Action], JSONObject] = {}


def apply_request(seat: int | None, action: Action) -> JSONObject:
    """The request to apply ``action`` for ``seat``, one object for each player's action (the
    process channel then encodes it once). Read, never changed. Found by the action's
    identity first, as :func:`_face` finds its JSON."""
    if isinstance(action, CHANCE_TYPES):
        return {"type": "apply", "seat": seat, "action": as_json(action)}
    known = _APPLY_BY_ID.get((seat, id(action)))
    if known is not None and known[0] is action:
        return known[1]
    found = _APPLY.get((seat, action))
    if found is None:
        found = _APPLY[(seat, action)] = _kept(
            _APPLY, {"type": "apply", "seat": seat, "action": as_json(action)})
    _APPLY_BY_ID[(seat, id(action))] = _kept(_APPLY_BY_ID, (action, found))
    return found


_APPLY_BY_ID: dict[tuple[int | None, int], tuple[Action, JSONObject]] = {}


class _AcceptedCheck:
    """The check of a step's ``apply``: accepted (the runner's check words anything else)."""

    __slots__ = ("action", "seat", "step")

    def __init__(self, step: int, seat: int | None, action: Action) -> None:
        self.step = step
        self.seat = seat
        self.action = action

    def __call__(self, answer: JSONObject) -> str:
        if answer["type"] == "accepted":
            return ""
        return _check_accepted(answer, f"step {self.step}", self.seat, as_json(self.action))


def plan(episode: Episode, kinds: frozenset[str]) -> Plan:
    """Every request of an episode, in order, with the check of its answer; with "state" in
    ``kinds`` (:func:`session_kinds`), the program's state after the steps
    :func:`~napkit.conform.run.state.asked_after` picks."""
    out: Plan = [(Ref("start"), dict(episode.start), _check_ok)]
    legal = "legal" in kinds
    skips = episode.skips_forced
    steps = episode.steps
    if "state" not in kinds:  # the loop as it was: nothing more per step for other programs
        for i, step in enumerate(steps):
            _plan_step(out, i, step, legal, skips)
    else:
        for i, step in enumerate(steps):
            if _plan_step(out, i, step, legal, skips):
                _ask_state(out, episode, i)
    out += end_requests(episode, kinds)
    return out


def _ask_state(out: Plan, episode: Episode, i: int) -> None:
    """Add the state request after step ``i`` to ``out``, where
    :func:`~napkit.conform.run.state.asked_after` asks it: the engine's state then is the one
    before the next step sent (after the forced passes the program takes itself)."""
    steps = episode.steps
    after = i + 1
    while episode.skips_forced and after < len(steps) and forced(steps[after]):
        after += 1
    state = steps[after].before if after < len(steps) else episode.final
    _state_after(out, i, steps[i], state, after == len(steps))


def _state_after(out: Plan, i: int, step: Step, after: HandState | MatchState,
                 last: bool) -> None:
    """Add the state request after step ``i`` (``step``, which took play to ``after``), where
    :func:`~napkit.conform.run.state.asked_after` asks it (``last``: the last step sent)."""
    if asked_after(step.before, after, last):
        out.append((Ref("state", i), _STATE_REQUEST, _StateCheck(i, step, after)))


_STATE_REQUEST: JSONObject = {"type": "state"}  # shared: read, never changed


class _StateCheck:
    """The check of a ``state`` answer after a step (the runner's, which names the first field
    that differs and its cause). :meth:`expect` gives the answer as napkit's adapter writes
    it (process.Expected)."""

    __slots__ = ("after", "expected", "index", "step")

    def __init__(self, index: int, step: Step, after: HandState | MatchState) -> None:
        self.index = index
        self.step = step
        self.after = after
        self.expected = state_json(after)

    def __call__(self, answer: JSONObject) -> str:
        step = self.step
        return _check_state(answer, f"step {self.index}", step.before, step.seat, step.action,
                            self.after, self.expected)

    def expect(self) -> tuple[bytes, JSONObject]:
        return expect_state(self.expected)


def _plan_step(out: Plan, i: int, step: Step, legal: bool, skips: bool = False) -> bool:
    """Add the requests of step ``i`` to ``out``: before it (see :func:`before_step`), then
    the step itself (each Ref built as a tuple: see _tuple); nothing for a forced pass where
    the program takes them itself (``skips``). Whether the step is sent."""
    if skips and forced(step):
        return False
    state, seat, action, probes, actions = step
    if legal:
        out.append((_tuple(Ref, ("legal", i, 0)), _LEGAL_REQUEST,
                    _LegalCheck(i, seat, state, actions)))
    if probes:
        out += _tries(i, probes)
    out.append((_tuple(Ref, ("apply", i, 0)), apply_request(seat, action),
                _AcceptedCheck(i, seat, action)))
    return True


def before_step(i: int, step: Step | tuple[HandState | MatchState, int | None],
                probes: Sequence[Probe], kinds: frozenset[str]) -> Plan:
    """What is asked before step ``i``: whose turn and what is legal, then the illegal
    tries."""
    state, seat = step[0], step[1]
    out: Plan = []
    if "legal" in kinds:
        legal = step.legal if isinstance(step, Step) else None
        out.append((Ref("legal", i), _LEGAL_REQUEST, _LegalCheck(i, seat, state, legal)))
    out += _tries(i, probes)
    return out


def step_requests(i: int, step: Step, kinds: frozenset[str], skips: bool = False) -> Plan:
    """The requests of step ``i``: before it, then the step itself (none for a forced pass,
    with ``skips``)."""
    out: Plan = []
    _plan_step(out, i, step, "legal" in kinds, skips)
    return out


def end_requests(episode: Episode, kinds: frozenset[str]) -> Plan:
    """After the last step: the tries once play is over, and the outcome."""
    out = _tries(len(episode.steps), episode.final_probes)
    outcome = episode.outcome()
    wants = "match" if episode.kind == "match" else "outcome"
    if outcome is not None and wants in kinds:
        out.append((Ref("outcome"), {"type": "outcome"},
                    _OutcomeCheck("match" if episode.kind == "match" else "outcome", outcome)))
    return out


class _OutcomeCheck:
    """The check of the outcome (a hand's or a match's) at the end of an episode. :meth:`expect`
    gives the answer as napkit's adapter writes it (process.Expected)."""

    __slots__ = ("expected", "kind")

    def __init__(self, kind: str, expected: JSONObject) -> None:
        self.kind = kind
        self.expected = expected

    def __call__(self, answer: JSONObject) -> str:
        return _check_outcome(answer, kind=self.kind, expected=self.expected)

    def expect(self) -> tuple[bytes, JSONObject]:
        text = dumps(self.expected).encode("utf-8", "surrogatepass")
        return (b',"type":"outcome","outcome":%b}' % text,
                {"type": "outcome", "outcome": self.expected})


def _tries(step: int, probes: Sequence[Probe]) -> Plan:
    out: Plan = []
    for j, probe in enumerate(probes):
        out.append((Ref("probe", step, j), apply_request(probe.seat, probe.action),
                    _RefusedCheck(probe)))
    return out


class _RefusedCheck:
    """The check of an illegal try's answer: refused, under the probe's rule (the runner's
    check words anything else). :meth:`expect` gives the answer napkit's adapter writes
    (process.Expected), the engine's reason with the rule, where the probe knows it."""

    __slots__ = ("probe",)

    def __init__(self, probe: Probe) -> None:
        self.probe = probe

    def __call__(self, answer: JSONObject) -> str:
        probe = self.probe
        return _check_refused(answer, {"seat": probe.seat, "action": as_json(probe.action),
                                       "rule": probe.rule})

    def expect(self) -> tuple[bytes, JSONObject]:
        rule, reason = self.probe.rule, self.probe.reason
        tail = _REFUSALS.get((rule, reason))
        if tail is None:
            text = dumps({"type": "refused", "rule": rule, "reason": reason})
            tail = _REFUSALS[rule, reason] = _kept(_REFUSALS, b"," + text[1:].encode(
                "utf-8", "surrogatepass"))
        return tail, {"type": "refused", "rule": rule, "reason": reason}


# A refusal's answer text after the id, by rule and reason: a campaign's illegal tries meet
# the same few hundred refusals again and again.
_REFUSALS: dict[tuple[str, str | None], bytes] = {}


def _check_ok(answer: JSONObject) -> str:
    if answer["type"] != "ok":
        detail = f": {answer.get('message', '')}" if answer["type"] == "error" else ""
        raise DisagreementError("start", f"answered the start request with "
                                         f"{answer['type']!r}, not 'ok'{detail}", "ok", answer)
    return ""


@dataclass(frozen=True)
class Disagreement:
    """The first answer of the program that is not the reference's."""

    ref: Ref
    message: str
    expected: Any = None
    got: Any = None
    problem: str = ""  # how the program broke the protocol, if it did (ProtocolError.what)
    stderr: str = ""
    # Which rule's effect the program got wrong (spec/conformance.md 8), where known when the
    # disagreement is made (a field of the program's own state); else None, and the
    # reproducer's blame infers it from the episode (napkit.conform.cause).
    cause: Cause | None = None

    @property
    def signature(self) -> tuple[str, ...]:
        """What kind of disagreement this is, to tell whether a smaller episode shows the same
        one: where (legal, apply, probe, outcome), and the detail that names the bug (the
        turn or the legal set; the rule of a refusal; the outcome's field)."""
        if self.problem:
            return ("protocol", self.problem, self.ref.part)
        if self.ref.part == "legal":
            return ("legal", "turn" if self.message.startswith("whose turn") else "set")
        if self.ref.part == "probe":
            return ("probe", str(self.expected), "accepted" if self.got == "accepted"
                    else "other")
        if self.ref.part == "outcome":
            where = self.message.split(":", 1)[0]
            return ("outcome", where.split("[")[0])
        if self.ref.part == "state":  # the field of the program's state that differs
            return ("state", self.message.split(":", 1)[0].removeprefix("state."))
        return (self.ref.part,)


class Verdict(NamedTuple):
    """How an episode went: its disagreement (None: none), how many refusals named no rule,
    and the disagreements found after the first where the program played on (verdict_of)."""

    disagreement: Disagreement | None
    unnamed: int
    later: tuple[Disagreement, ...] = ()

    @property
    def every(self) -> tuple[Disagreement, ...]:
        """Every disagreement of the episode, the first first."""
        return () if self.disagreement is None else (self.disagreement, *self.later)


def check_episode(episode: Episode, session: Session, requests: Plan | None = None) -> Verdict:
    """Ask the program everything about ``episode`` (its ``requests``, planned here unless
    given) in one batch and judge its answers in order. A program that breaks the protocol is
    killed (``session.alive`` is then False)."""
    if requests is None:
        requests = plan(episode, session_kinds(session))
    return judge(requests, session)[1]


def judge(requests: Plan, session: Session) -> tuple[list[JSONObject], Verdict]:
    """Send ``requests`` in one batch; the answers, and the verdict on them in order."""
    answers, error, read = _answers(session, requests)
    return answers, verdict_of(requests, answers, error, read=read)


def judge_group(plans: Sequence[Plan], session: Session, posted: list[JSONObject],
                past: bool = False) -> list[Verdict]:
    """The verdicts on episodes whose requests were posted in one batch (``posted``, the
    plans one after the other, as Campaign.post sent them with their expectations), in
    order, up to the first with a disagreement (``past``: up to the first that broke the
    protocol, after which there are no answers; each episode starts the program afresh, so
    one that disagreed does not spoil the next): the answers are read once, then each
    episode's are judged as :func:`judge` judges them."""
    answers, error, read = _answers(session, [], posted)  # read: None to check them all
    verdicts: list[Verdict] = []
    start = at = 0
    for requests in plans:
        end = start + len(requests)
        here = error if error is not None and start <= error.index < end else None
        mine = None
        if read is not None:  # the episode's answers read, counted from its first
            upto = bisect_left(read, end, at)
            mine = [i - start for i in read[at:upto]]
            at = upto
        verdict = verdict_of(requests, answers[start:end], here, start, mine)
        verdicts.append(verdict)
        if verdict.disagreement is not None and (here is not None or not past):
            break
        start = end
    return verdicts


def _answers(session: Session, requests: Plan, posted: list[JSONObject] | None = None
             ) -> tuple[list[JSONObject], ProtocolError | None, Sequence[int] | None]:
    """The program's answers to ``requests``, sent now with their expectations (or to
    ``posted``, sent already), the protocol error that cut them short, if one did (the
    program is then killed), and which of them were read (Session.read; None: all)."""
    try:
        if posted is None:
            answers = session.call_many([r for _, r, _ in requests],
                                        expected=expectations(requests))
        else:
            answers = session.call_many((), posted=posted)
        return answers, None, session.read
    except ProtocolError as exc:
        session.kill()
        return exc.partial, exc, None


def verdict_of(requests: Plan, answers: Sequence[JSONObject], error: ProtocolError | None,
               offset: int = 0, read: Sequence[int] | None = None) -> Verdict:
    """The verdict on ``answers`` to ``requests`` in order: the first that fails its check,
    else ``error``, the protocol's (its index counted ``offset`` before ``requests``); and
    the disagreements after the first where the program played on as the engine did
    (:func:`played_on`). ``read``: the indexes, in order, of the answers that were read
    (Session.read); the others were exactly the line expected, whose value passes its check
    (process.Expected: a legal list, a step accepted, an illegal try refused, a start done,
    the outcome), so only these are checked. None: all."""
    unnamed = 0
    found: list[Disagreement] = []
    seen: set[tuple[Any, ...]] = set()
    pairs: Iterable[tuple[tuple[Ref, JSONObject, Check], JSONObject]] = (
        zip(requests, answers, strict=False) if read is None
        else [(requests[i], answers[i]) for i in read])
    for (ref, _, check), answer in pairs:
        try:
            unnamed += bool(check(answer))
        except DisagreementError as exc:
            # An outcome's field is named as the conformance report names it.
            message = (f"{exc.where}: {exc.message}" if exc.where.startswith("outcome.")
                       else exc.message)
            disagreement = Disagreement(ref, message, exc.expected, exc.got, cause=exc.cause)
            if found and _follows(found[-1], disagreement):
                break  # the step the program does not list, refused: the same bug again
            key = _kind_key(disagreement)
            if key not in seen:
                seen.add(key)
                found.append(disagreement)
            if not played_on(disagreement) or len(found) >= LATER:
                break
    if found:
        return Verdict(found[0], unnamed, tuple(found[1:]))
    if error is not None:
        ref = requests[error.index - offset][0]
        return Verdict(Disagreement(ref, f"the program {error.message}",
                                    problem=error.what, stderr=error.stderr), unnamed)
    return Verdict(None, unnamed)


# The disagreements of one episode judged at most: after a few of the kinds the program plays
# on after, the rest are most likely the same bugs again.
LATER = 8


def played_on(found: Disagreement) -> bool:
    """Whether the program can be judged further in the episode after ``found``: it listed a
    wrong set of legal actions, or refused an illegal try under another rule, and so changed
    nothing, and the next step is sent as the engine played it. After any other difference
    (whose turn it is, a step refused, an illegal try accepted) the program is no longer where
    the engine is, and what it answers next shows the same bug again."""
    if found.problem:
        return False
    if found.ref.part == "legal":
        return not found.message.startswith("whose turn")
    return found.ref.part == "probe" and found.got != "accepted"


def _follows(before: Disagreement, found: Disagreement) -> bool:
    """``found`` is the refusal of the step whose legal set ``before`` found wanting (the
    action the engine played was left out of the program's list): not a bug of its own."""
    return (before.ref.part == "legal" and found.ref.part == "apply"
            and found.ref.step == before.ref.step)


def _kind_key(found: Disagreement) -> tuple[Any, ...]:
    """What tells two disagreements of one episode apart: the signature, and for a legal set
    the kinds of action listed wrongly and left out (a Wellington listed in the auction and a
    revoke listed in the play are two bugs; the same card listed at two tricks is one)."""
    if found.ref.part != "legal" or found.message.startswith("whose turn"):
        return found.signature
    wanted = {_action_kind(a) for a in found.expected or ()}
    given = {_action_kind(a) for a in found.got or ()}
    return (*found.signature, tuple(sorted(given - wanted)), tuple(sorted(wanted - given)))


def _action_kind(action: object) -> str:
    if not isinstance(action, dict):
        return repr(action)
    return f"{action.get('type')}:{action.get('bid', '')}"


# --- a program that makes its own chance events (spec/conformance.md 2.5) ----------------------
class ChanceStopError(Exception):
    """The program disagreed while its chance events were being asked for: the episode stops
    there, with ``partial`` (what was drawn up to then)."""

    def __init__(self, found: Disagreement, partial: Episode) -> None:
        super().__init__(found.message)
        self.found = found
        self.partial = partial


class ProgramChance(Chance):
    """Chance's events made by the program. The requests of the steps drawn so far go to it
    when chance is to act, with a ``chance`` request last; the event it answers with must be
    one the rules allow there (the engine accepts it), and the episode goes on from it. The
    deals are the program's, so an episode cannot be replayed from its choices alone: it is
    not shrunk."""

    def __init__(self, rng: random.Random, session: Session, kinds: frozenset[str],
                 index: int, skips: bool = False) -> None:
        super().__init__(rng)
        self.session = session
        self.kinds = kinds
        self.skips = skips  # its forced passes not sent (Scope.skips_forced)
        self.index = index
        self.pending: Plan = []
        self.unnamed = 0
        self.request: JSONObject = {}
        self.steps: list[Step] = []
        # The last step sent, whose state request (where the program declares it) waits for
        # the state after it: the next step's, or the end's.
        self.unasked: tuple[int, Step] | None = None

    def start(self, request: JSONObject) -> None:
        self.request = dict(request)
        self.pending = [(Ref("start"), dict(request), _check_ok)]

    def step(self, index: int, step: Step) -> None:
        self.steps.append(step)
        if self.skips and forced(step):  # not sent: the state is asked after the next one
            return
        self._ask_state(step.before)
        if step.seat is not None:  # a chance step has been asked for already
            self.pending += step_requests(index, step, self.kinds, self.skips)
            self.unasked = (index, step) if "state" in self.kinds else None

    def _ask_state(self, after: HandState | MatchState, last: bool = False) -> None:
        """The state request after the last step sent, now that the state after it is known
        (``after``)."""
        if self.unasked is not None:
            _state_after(self.pending, *self.unasked, after, last)
            self.unasked = None

    def make(self, state: HandState | MatchState, style: Style, probes: tuple[Probe, ...],
             index: int) -> Action:
        ref = Ref("chance", index)
        self._ask_state(state)
        ask = [*self.pending, *before_step(index, (state, None), probes, self.kinds),
               (ref, {"type": "chance"}, _check_chance)]
        self.pending = []
        answers, verdict = judge(ask, self.session)
        self.unnamed += verdict.unnamed
        if verdict.disagreement is not None:
            raise ChanceStopError(verdict.disagreement, self._partial(state, probes))
        made = answers[-1]["action"]
        try:
            action = action_from_json(made, ["action"])
        except FormatError as exc:
            self._stop(ref, f"answered the chance request with an action napkit cannot read: "
                            f"{exc}", made, state, probes)
        if not isinstance(action, CHANCE_TYPES):
            self._stop(ref, f"answered the chance request with a player's action "
                            f"({action}), not chance's", made, state, probes)
        rule, reason = refusal(state, None, action)
        if rule is not None:
            what = describe_action(None, action)
            self._stop(ref, f"made a chance event the rules refuse ({what}): {rule}: {reason}",
                       made, state, probes, rule)
        return action

    def _stop(self, ref: Ref, message: str, made: object, state: HandState | MatchState,
              probes: tuple[Probe, ...], rule: str | None = None) -> NoReturn:
        found = Disagreement(ref, message, rule or "a chance event the rules allow", made)
        raise ChanceStopError(found, self._partial(state, probes))

    def _partial(self, state: HandState | MatchState, probes: tuple[Probe, ...]) -> Episode:
        """The episode up to where chance was to act at ``state``: the steps so far, and the
        illegal tries made there (``probes``, asked with the chance request) as the tries after
        its last step, where a disagreement about them (Ref "probe" of the next step's index)
        finds them."""
        game = state.game
        assert isinstance(game, Game)
        kind = "match" if self.request.get("type") == "start-match" else "hand"
        return Episode(self.index, game, kind, self.request, list(self.steps), state, probes,
                       chance_by_program=True)

    def finish(self, episode: Episode) -> Verdict:
        """The requests left once the episode is drawn, answered and judged."""
        self._ask_state(episode.final, last=True)
        ask = [*self.pending, *end_requests(episode, self.kinds)]
        self.pending = []
        _, verdict = judge(ask, self.session)
        return Verdict(verdict.disagreement, self.unnamed + verdict.unnamed, verdict.later)


def _check_chance(answer: JSONObject) -> str:
    if answer["type"] != "chance":
        detail = f": {answer.get('message', '')}" if answer["type"] == "error" else ""
        raise DisagreementError("chance", f"answered the chance request with "
                                          f"{answer['type']!r}, not 'chance'{detail}",
                                "chance", answer)
    return ""


def check_with_program_chance(scope: Scope, games: Games, prober: Prober, rng: Choices,
                              index: int, session: Session) -> tuple[Episode, Verdict]:
    """Draw and check one episode whose chance events the program makes."""
    chance = ProgramChance(rng, session, session_kinds(session), index, scope.skips_forced)
    try:
        episode = draw_episode(scope, games, prober, rng, index, chance)
    except ChanceStopError as stop:
        stop.partial.drawn = rng.drawn
        return stop.partial, Verdict(stop.found, chance.unnamed)
    episode.chance_by_program = True
    return episode, chance.finish(episode)


def session_kinds(session: Session) -> frozenset[str]:
    """What to ask the program: the kinds of case it declares, and "state" where it answers
    the state request (spec/conformance.md 2.4)."""
    hello = session.hello
    supports = hello.supports if hello is not None else {}
    kinds = frozenset(k for k in supports.get("kinds", []) if isinstance(k, str))
    return kinds | {"state"} if asks_state(supports) else kinds


def describe_action(seat: int | None, action: Action) -> str:
    """``seat 2: play 10H`` or ``chance: deal ...`` (a deal's pack shortened)."""
    who = "chance" if seat is None else f"seat {seat}"
    if isinstance(action, Deal):
        return f"{who}: deal ({len(action.pack)} cards)"
    text = str(action)
    return f"{who}: {text if len(text) <= 60 else text[:57] + '...'}"


def episode_words(episode: Episode) -> str:
    """One line: the game and the episode's shape. An option the program declared "n/a" is
    not named: it is held at its default, and concerns nothing the program is asked."""
    game = episode.game
    opts = ", ".join(f"{k}={v}" for k, v in sorted(game.options.items())
                     if k not in episode.held)
    what = "a match" if episode.kind == "match" else "a hand"
    return (f"{what} of {game.id}, {game.players} players"
            f"{f' ({opts})' if opts else ''}, {len(episode.steps)} steps")


__all__ = ["Disagreement", "Episode", "Games", "HandshakeError", "Playable", "Probe", "Prober",
           "Ref", "Scope", "ScopeError", "Step", "Verdict", "check_episode", "draw_episode",
           "draw_game", "legal_json", "match_outcome", "plan", "scope_of"]
