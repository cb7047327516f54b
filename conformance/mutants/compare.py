"""In-process check of a mutant: does it change the engine's answers at all?

Random hands (or matches) are played by the unmutated engine, with seeded random players, and
every step is recorded with what a program under test would be asked about it: whose turn it
is, which actions are legal (hands only, as the suite's ``legal`` cases ask), and at the end
the outcome. The same steps are then replayed through the engine with the mutant applied; the
first place where its answers differ (a different turn or legal set, an action refused, a
different outcome) is the mutant's *difference*. A mutant that never differs on the rulesets it
names is no mutant of them: the tests reject it.

Replaying under the mutant must raise nothing but a :class:`~napkit.errors.RuleError` (a
refusal): any other exception means the mutant crashes, which would make it trivially
caught through the protocol, and is reported as such.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from napkit.engine import match as match_module
from napkit.engine.actions import (
    ANTE,
    LEAVE_WIDOW,
    PASS,
    PEEK,
    SIT_OUT,
    TAKE_WIDOW,
    Action,
    Bid,
    Buy,
    Deal,
    Discard,
    NameTrumps,
    Pass,
    Play,
    Shuffle,
)
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.errors import RuleError
from napkit.formats.records import hand_outcome
from napkit.players.heuristic import HeuristicPlayer
from napkit.players.views import match_view
from napkit.spec.catalog import default_spec
from napkit.spec.rulesets import Ruleset

from conformance.mutants.base import Mutant

# How many random hands (matches) a ruleset is tried on before a mutant is declared to make
# no difference to it.
HANDS = 2000
MATCHES = 300

Step = tuple[int, Action]  # actor (CHANCE = -1) and action
Answer = tuple[Any, ...]  # what the program would answer before a step, or at the end


class MutantCrashError(Exception):
    """The mutated engine raised something other than a refusal."""


@dataclass(frozen=True)
class Run:
    """One recorded random hand or match of the unmutated engine."""

    ruleset: str
    players: int
    options: Mapping[str, str]
    setup: Mapping[str, Any]  # new_hand's or new_match's arguments
    steps: tuple[Step, ...]
    answers: tuple[Answer, ...]  # one per step, then the outcome

    def describe(self) -> str:
        setup = ", ".join(f"{k}={v}" for k, v in self.setup.items())
        return f"{self.ruleset} ({self.players} players, {setup}, options {dict(self.options)})"


@dataclass(frozen=True)
class Difference:
    run: Run
    step: int  # the index of the step (len(steps): the outcome)
    expected: Answer
    answered: Answer

    def __str__(self) -> str:
        where = "the outcome" if self.step == len(self.run.steps) else f"step {self.step}"
        return (f"{self.run.describe()}: at {where}, the engine answers {self.expected!r}, "
                f"the mutant {self.answered!r}")


# --- what a program would answer ---------------------------------------------------------------
def _hand_answer(state: HandState) -> Answer:
    turn = state.turn
    legal = frozenset(state.legal_actions()) if turn >= 0 else frozenset()
    return ("turn", turn, legal)


def _hand_outcome(state: HandState) -> Answer:
    if not state.is_over():
        return ("outcome", None)
    return ("outcome", repr(hand_outcome(state)))


def _match_answer(state: MatchState) -> Answer:
    # A match case applies its steps by seat and asks nothing else before the end.
    return ("turn", state.turn)


def _match_outcome(state: MatchState) -> Answer:
    if not state.is_over() or state.result is None:
        return ("outcome", None)
    r = state.result
    return ("outcome", r.balances, r.pool, r.winners, r.hands, state.out)


# --- random play -------------------------------------------------------------------------------
def _choose(actions: tuple[Action, ...], rng: random.Random) -> Action:
    passes = [a for a in actions if isinstance(a, Pass)]
    if passes and rng.random() < 0.5:
        return passes[0]
    return actions[rng.randrange(len(actions))]


#: Rulesets of one's own (house games) that random play may be of, by id, beside the spec's:
#: whether a mutant applies to a house game is whether it changes the engine's answers there.
OWN: dict[str, Ruleset] = {}


def add_ruleset(ruleset: Ruleset) -> None:
    """Let random play be of ``ruleset`` (a house game) by its id."""
    OWN[ruleset.id] = ruleset


def _game(ruleset: str, players: int, options: Mapping[str, str]) -> Game:
    own = OWN.get(ruleset)
    if own is not None:
        return Game(own, players, dict(options))
    return Game.create(ruleset, players, dict(options))


def _hand_setup(game: Game, rng: random.Random) -> dict[str, Any]:
    rules = game.rules
    n = game.players
    return {
        "dealer": rng.randrange(n),
        "pool": rng.choice((0, 0, 2, 5, 9)) if rules.pool else 0,
        "funds": tuple(rng.randint(1, 9) for _ in range(n)) if rules.match.bankroll else None,
        "stakes": rng.choice((1, 2, 4)) if rules.throw_in_stakes != "unchanged" else 1,
    }


def record(ruleset: str, options: Mapping[str, str], scope: str, seed: int,
           probe: bool = False) -> Run:
    """Play one random hand (scope ``hand``) or match (``match``) with the engine as it is.
    With ``probe``, also try a few arbitrary actions at each player's turn (see
    :func:`probe_refusals`)."""
    rng = random.Random(f"{ruleset} {scope} {seed}")
    players = rng.choice(table_sizes(ruleset, options))
    game = _game(ruleset, players, options)
    state: HandState | MatchState
    asked: tuple[Callable[[Any], Answer], Callable[[Any], Answer]]
    if scope == "hand":
        setup = _hand_setup(game, rng)
        state = game.new_hand(**setup)
        asked = _hand_answer, _hand_outcome
    else:
        setup = {"hands": rng.randint(3, 8)}
        if game.rules.match.bankroll is not None:
            setup["chips"] = rng.choice((None, 4, 12))
        state = match_module.new_match(game, **setup)
        asked = _match_answer, _match_outcome
    answer, outcome = asked
    # Random players pass often, so that throw-ins (and what follows them) come up; every
    # other seed, the engine's heuristic players play, who make their contracts more often;
    # and one seed in four, they are dealt a stacked pack (the first to speak holding the top
    # five cards of a suit, and bidding Nap), so that Nap is made and what follows comes up.
    heuristic = HeuristicPlayer(game) if seed % 2 else None
    stack = seed % 4 == 3
    steps: list[Step] = []
    answers: list[Answer] = []
    while not state.is_over():
        answers.append(answer(state))
        if probe and not state.is_chance():
            probe_refusals(state, game, rng)
        action = _next_action(state, game, rng, heuristic, stack)
        steps.append((state.turn, action))
        state = state.apply(action)
    answers.append(outcome(state))
    return Run(ruleset, players, dict(options), setup, tuple(steps), tuple(answers))


def _next_action(state: HandState | MatchState, game: Game, rng: random.Random,
                 heuristic: HeuristicPlayer | None, stack: bool) -> Action:
    hand = state if isinstance(state, HandState) else state.hand
    if state.is_chance():
        action = state.sample_chance(rng)
        if stack and isinstance(action, Deal | Shuffle):
            after = state.apply(action)
            dealt = after if isinstance(after, HandState) else after.hand
            if dealt is not None:
                return type(action)(_stacked(action.pack, dealt, rng))
        return action
    legal = state.legal_actions()
    naps = _nap(legal, game) if stack and hand is not None else []
    if naps and hand is not None and state.turn == hand.order[0]:
        return naps[0]
    if heuristic is not None:
        view = (state.view(state.turn) if isinstance(state, HandState)
                else match_view(state, state.turn))
        return heuristic.choose(view, rng)
    return _choose(legal, rng)


def probe_refusals(state: HandState | MatchState, game: Game, rng: random.Random) -> None:
    """Apply a few arbitrary actions (cards, bids, calls of every kind) to ``state``, each
    either accepted or refused with a rule id, and throw the results away: anything else
    raised is the mutated engine breaking down where the suite's ``illegal`` cases probe it.
    """
    bid_ids = [b.id for b in game.rules.bids] + ["no-such-bid"]
    candidates: list[Action] = [
        PASS, PEEK, TAKE_WIDOW, LEAVE_WIDOW, ANTE, SIT_OUT,
        Play(rng.randrange(52)), Discard(rng.randrange(52)), NameTrumps(rng.randrange(4)),
        Bid(rng.choice(bid_ids)), Buy(rng.getrandbits(52)),
    ]
    for action in rng.sample(candidates, 4):
        with contextlib.suppress(RuleError):
            state.apply(action)


def _nap(actions: tuple[Action, ...], game: Game) -> list[Action]:
    """The legal bids of five tricks (not misère), lowest first: what the holder of a stacked
    hand bids."""
    bids = game.rules.bids
    return [a for a in actions if isinstance(a, Bid)
            and bids[game.bid_index[a.bid]].tricks == 5 and not bids[game.bid_index[a.bid]].misere]


def _stacked(pack: tuple[int, ...], dealt: HandState, rng: random.Random) -> tuple[int, ...]:
    """The pack with cards swapped so that, dealt as ``dealt`` was dealt from it, the first
    player to speak holds the five highest cards of a suit."""
    seat = dealt.order[0]
    held = dealt.hands[seat]
    suit = rng.randrange(4)
    top = sorted((c for c in pack if c // 13 == suit), reverse=True)[:5]
    give = [c for c in top if not held >> c & 1]
    spare = [c for c in pack if held >> c & 1 and c not in top]
    where = {c: i for i, c in enumerate(pack)}
    out = list(pack)
    for c, d in zip(give, spare, strict=False):
        out[where[c]], out[where[d]] = d, c
    return tuple(out)


def table_sizes(ruleset: str, options: Mapping[str, str]) -> list[int]:
    """The numbers of players the ruleset allows with these options."""
    rs = OWN.get(ruleset) or default_spec().rulesets[ruleset]
    return list(rs.resolve(rs.option_values(dict(options)))["players"])  # type: ignore[arg-type]


def replay(run: Run, scope: str) -> Difference | None:
    """Replay a recorded run through the engine as it is now (a mutant applied): the first
    difference from what the unmutated engine answered, or None."""
    game = _game(run.ruleset, run.players, run.options)
    try:
        if scope == "hand":
            return _replay(run, game.new_hand(**run.setup), _hand_answer, _hand_outcome)
        return _replay(run, match_module.new_match(game, **run.setup), _match_answer,
                       _match_outcome)
    except Exception as exc:
        raise MutantCrashError(f"{run.describe()}: {type(exc).__name__}: {exc}") from exc


def _replay(run: Run, state: Any, answer: Callable[[Any], Answer],
            outcome: Callable[[Any], Answer]) -> Difference | None:
    # The first difference is kept, but the recorded steps go on being applied until the
    # mutant refuses one, so that its refusals (and whatever they run) are exercised too.
    first: Difference | None = None
    for i, (actor, action) in enumerate(run.steps):
        got = answer(state) if not state.is_over() else ("over",)
        if first is None and got != run.answers[i]:
            first = Difference(run, i, run.answers[i], got)
        try:
            state = state.apply(action)
        except RuleError as exc:
            return first or Difference(run, i, ("accepted", actor, str(action)),
                                       ("refused", exc.rule, str(exc)))
    got = outcome(state)
    if first is None and got != run.answers[-1]:
        first = Difference(run, len(run.steps), run.answers[-1], got)
    return first


# Recorded runs, kept across mutants: (ruleset, options, scope) -> runs by seed.
_RUNS: dict[tuple[str, tuple[tuple[str, str], ...], str], list[Run]] = {}


def runs(ruleset: str, options: Mapping[str, str], scope: str) -> Iterator[Run]:
    """The recorded runs of a ruleset, recording more as they are asked for. Record them with
    no mutant applied."""
    key = (ruleset, tuple(sorted(options.items())), scope)
    done = _RUNS.setdefault(key, [])
    limit = HANDS if scope == "hand" else MATCHES
    for seed in range(limit):
        if seed == len(done):
            done.append(record(ruleset, options, scope, seed))
        yield done[seed]


def first_difference(m: Mutant, ruleset: str) -> Difference | None:
    """The first difference the mutant makes to random play of the ruleset (with the options
    the mutant names for it), or None if it makes none in the budget."""
    options = m.options.get(ruleset, {})
    batch = 20
    seeds = runs(ruleset, options, m.scope)
    while True:
        recorded = [run for _, run in zip(range(batch), seeds, strict=False)]
        if not recorded:
            return None
        with m.applied():
            for run in recorded:
                found = replay(run, m.scope)
                if found is not None:
                    return found


def self_play(m: Mutant, ruleset: str, games: int = 5) -> None:
    """Play random hands and matches with the mutant's own rules (its own legal actions and
    chance), trying arbitrary actions at every turn as well: raises :class:`MutantCrashError`
    if the mutated engine breaks down (raises anything but a refusal)."""
    options = m.options.get(ruleset, {})
    with m.applied():
        for seed in range(games):
            try:
                record(ruleset, options, "hand", 10_000 + seed, probe=True)
                record(ruleset, options, "match", 10_000 + seed, probe=True)
            except Exception as exc:
                raise MutantCrashError(f"{m.name} on {ruleset}, seed {10_000 + seed}: "
                                  f"{type(exc).__name__}: {exc}") from exc
