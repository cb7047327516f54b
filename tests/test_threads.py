"""The engine used from several threads at once (issue 13, hostile input).

States are immutable and games are shared, but the engine keeps a few answers at module level
(the play's last listed state and its playable mask, the deal's last drawn pack). A cache
written in two statements once tore when two threads played at once under a trace function
(as coverage tools install): one thread's state was paired with another's mask, so illegal
cards were accepted and legal ones refused; the deal's pack and mask, read in two steps, let
a pack of the wrong size through. These tests play every ruleset from several threads at
once, with a tracer installed (a thread may then be switched out between any two
instructions of the engine) and a tiny switch interval: every decision is checked against
an oracle, every foreign pack must be refused, and a seeded hand must come out the same in
every thread.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from napkit import Game, HandState
from napkit.engine.actions import Action, Deal, Play
from napkit.engine.cards import cards_of
from napkit.errors import IllegalActionError
from napkit.players.heuristic import HeuristicPlayer
from napkit.players.playout import play_out
from napkit.spec.catalog import default_spec

THREADS = 4
# How many hands each thread of the stress test plays: every game three times (about 2 s
# with the tracer, here). A number of hands, not seconds: a busy machine played too few hands
# in a fixed time to pass.
HANDS = 3 * len(default_spec().rulesets)
DEAL_SECONDS = 2.0  # how long each thread deals packs of the wrong size
RULESETS = sorted(default_spec().rulesets)

Tracer = Callable[[FrameType, str, Any], Any]


def _tracer(frame: FrameType, event: str, arg: Any) -> Tracer:
    # Every line is traced, and every instruction of the engine's: a thread may then be
    # switched out anywhere in the engine, even between two reads of one line (as
    # free-threaded Python would allow).
    frame.f_trace_opcodes = frame.f_globals.get("__name__", "").startswith("napkit.engine")
    return _tracer


@contextmanager
def _switching_often() -> Iterator[None]:
    """A trace function in every thread (this one and those started here), and a thread
    switch as often as the interpreter allows; both undone afterwards, whatever happens."""
    interval, before, threads_before = (sys.getswitchinterval(), sys.gettrace(),
                                        threading.gettrace())
    sys.setswitchinterval(1e-6)
    threading.settrace(_tracer)
    sys.settrace(_tracer)
    try:
        yield
    finally:
        sys.settrace(before)
        threading.settrace(threads_before)
        sys.setswitchinterval(interval)


def _in_threads(work: Callable[[int], object]) -> list[object]:
    """``work(i)`` run in THREADS threads started together; what each returned (or raised)."""
    results: list[object] = [None] * THREADS
    start = threading.Barrier(THREADS)

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = work(i)
        except BaseException as exc:  # reported by the test, not lost in the thread
            results[i] = exc

    with _switching_often():
        threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return results


def _games() -> list[Game]:
    """A game of every ruleset, at four seats (every ruleset allows four), each with a hand
    played out first: the engine's tables are built before the threads and the tracer."""
    games = [Game.create(ruleset, 4) for ruleset in RULESETS]
    for game in games:
        play_out(game.new_hand(), random.Random(0))
    return games


# --- the oracle --------------------------------------------------------------------------

def _expected_plays(state: HandState) -> set[int] | None:
    """The cards the player to act may play, worked out here (NAP-8.1.1 to 8.1.3); None for
    the declarer's first lead, whose obligations (NAP-7.2.2) depend on the contract."""
    hand = set(cards_of(state.hands[state.turn]))
    if state.trick:
        led = state.trick[0] // 13
        return {c for c in hand if c // 13 == led} or hand
    return hand if state.tricks else None


def _refused(state: HandState, action: object) -> bool:
    try:
        state.apply(action)  # type: ignore[arg-type]
    except IllegalActionError:
        return True
    return False


def _check_decision(state: HandState, rng: random.Random, problems: list[str]) -> None:
    """Every legal action is accepted; in the play, the legal cards are the oracle's, and a
    card held but not legal, and a card not held, are refused."""
    legal = state.legal_actions()
    for action in legal:
        if _refused(state, action):
            kind = "legal play refused" if type(action) is Play else "legal action refused"
            problems.append(f"{kind}: {action} in {state!r}")
    if state.phase_name != "play":
        return
    plays = {a.card for a in legal if type(a) is Play}
    hand = set(cards_of(state.hands[state.turn]))
    expected = _expected_plays(state)
    if expected is not None and plays != expected:
        problems.append(f"wrong legal plays: {sorted(plays)} for {sorted(expected)}")
    if not plays <= hand:
        problems.append(f"legal plays not in hand: {sorted(plays - hand)}")
    held_illegal = sorted(hand - plays)
    if held_illegal and not _refused(state, Play(rng.choice(held_illegal))):
        problems.append(f"illegal play accepted (held, not legal) in {state!r}")
    if not _refused(state, Play(rng.choice(sorted(set(range(52)) - hand)))):
        problems.append(f"illegal play accepted (not held) in {state!r}")


def _check_deal(state: HandState, other: HandState, rng: random.Random,
                problems: list[str]) -> None:
    """A pack drawn for a hand with another pack (another size) is refused (NAP-2.2.1)."""
    pack = other.sample_chance(rng)
    if isinstance(pack, Deal) and not _refused(state, pack):
        problems.append(f"illegal pack accepted: {len(pack.pack)} cards in {state!r}")


def _stress(games: list[Game], seed: int, problems: list[str]) -> int:
    """HANDS hands, of every game in turn; how many were played."""
    rng = random.Random(seed)
    played = 0
    while played < HANDS:
        game = games[(seed + played) % len(games)]
        other_game = next(g for g in games[::-1] if g.pack() != game.pack())
        state = game.new_hand(dealer=played % game.players)
        other = other_game.new_hand(dealer=0)
        while not state.is_over():
            if state.is_chance():
                if state.phase_name == "deal":
                    _check_deal(state, other, rng, problems)
                state = state.apply(state.sample_chance(rng))
            else:
                _check_decision(state, rng, problems)
                state = _advance(state, rng.choice(state.legal_actions()), problems)
        played += 1
    return played


def _advance(state: HandState, action: Action, problems: list[str]) -> HandState:
    """The state after a legal action; a refusal is recorded and the action tried again once
    the plays are listed afresh, so that one fault does not end the thread's play."""
    for _ in range(100):
        try:
            return state.apply(action)
        except IllegalActionError as exc:
            problems.append(f"legal play refused: {action} in {state!r} ({exc})")
            state.legal_actions()
    raise AssertionError(f"{action} always refused in {state!r}")


def _summary(problems: list[str]) -> str:
    kinds: dict[str, int] = {}
    for problem in problems:
        kind = problem.split(":")[0].split(" (")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))


def test_threads_playing_at_once_agree_with_the_rules() -> None:
    games = _games()
    found: list[list[str]] = [[] for _ in range(THREADS)]
    results = _in_threads(lambda i: _stress(games, i, found[i]))
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    problems = [p for thread in found for p in thread]
    hands = sum(r for r in results if isinstance(r, int))
    assert hands == THREADS * HANDS, f"only {hands} hands played"
    assert not problems, (f"{len(problems)} disagreements in {hands} hands ({_summary(problems)})"
                          f"; first: {problems[:3]}")


def _foreign_packs(games: list[Game], seed: int, problems: list[str]) -> int:
    """Packs drawn for a game with a smaller or larger pack, dealt to a hand of another: each
    must be refused, until DEAL_SECONDS have passed; how many were tried."""
    rng = random.Random(seed)
    small = [g for g in games if g.pack() != games[0].pack()]
    big = [g for g in games if g.pack() == games[0].pack()]
    # Half the threads draw small packs for big tables, half the other way round, so that
    # while one thread checks a pack the last pack drawn is often another's of its size.
    ours, theirs = (small, big) if seed % 2 else (big, small)
    deadline = time.monotonic() + DEAL_SECONDS
    tried = 0
    while time.monotonic() < deadline:
        state = rng.choice(ours).new_hand()
        _check_deal(state, rng.choice(theirs).new_hand(), rng, problems)
        tried += 1
    return tried


def test_packs_of_another_size_are_refused_in_every_thread() -> None:
    games = _games()
    found: list[list[str]] = [[] for _ in range(THREADS)]
    results = _in_threads(lambda i: _foreign_packs(games, i, found[i]))
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    problems = [p for thread in found for p in thread]
    tried = sum(r for r in results if isinstance(r, int))
    assert not problems, f"{len(problems)} of {tried} foreign packs accepted; first: {problems[0]}"


def test_a_seeded_hand_is_the_same_in_every_thread() -> None:
    # One heuristic player per game, shared by every seat and every thread (its memo too).
    games = _games()
    players = [HeuristicPlayer(game) for game in games]

    def play(seed: int) -> list[HandState]:
        return [play_out(game.new_hand(dealer=1), random.Random(seed), player)
                for game, player in zip(games, players, strict=True)]

    alone = play(7)
    results = _in_threads(lambda _: play(7))
    assert all(hands == alone for hands in results), results
    assert all(hand.is_over() for hand in alone)
