"""A fuzzing campaign: episodes one after another against a program until the budget is spent
or it disagrees, then the disagreement shrunk to the smallest episode that still shows it.

Episode ``i`` of a campaign with seed ``s`` is drawn from its own seed (:func:`episode_seed`),
so it is the same episode whatever came before it, however long each took, and whichever
shard (``--shard K/N`` takes the episodes ``i`` with ``i % N == K - 1``) or worker runs it.
The first disagreement in episode order is the campaign's: with several workers, episodes
after it are discarded, so a run's result does not depend on how many there were.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from napkit.conform.fuzz.episodes import (
    Disagreement,
    Episode,
    Games,
    Plan,
    Prober,
    Scope,
    check_episode,
    check_with_program_chance,
    draw_episode,
    expectations,
    judge_group,
    plan,
    session_kinds,
)
from napkit.conform.fuzz.shrink import Choices, ShrinkResult, shrink
from napkit.engine.actions import Action, Buy, Peek, SitOut, TakeWidow
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.protocol.process import ProtocolError, Session
from napkit.spec import coverage

JSONObject = dict[str, Any]
# Which episodes are drawn under the coverage tracer (see _Feed).
TRACE_EVERY, TRACE_FIRST, TRACE_LATER = 32, 512, 1024


def episode_seed(seed: int, index: int) -> int:
    """The seed of episode ``index`` of a campaign: a hash of both, so that neighbouring
    episodes are unrelated."""
    digest = hashlib.blake2b(f"napkit-fuzz:{seed}:{index}".encode(), digest_size=8).digest()
    # 53 bits: every number of napkit's formats is at most 2^53 - 1, and the JSON report
    # names this seed.
    return int.from_bytes(digest, "big") >> 11


@dataclass
class Reach:
    """What the episodes have reached so far: the parts of the game a strategy must get to on
    purpose (every bid made and defeated, misères, throw-ins, looks, purchases, exchanges,
    knock-outs, sit-outs), the illegal tries by refusal, and the rules exercised (sampled)."""

    episodes: int = 0
    hands: int = 0
    steps: int = 0
    events: Counter[str] = field(default_factory=Counter)
    breaches: Counter[str] = field(default_factory=Counter)
    rules: set[str] = field(default_factory=set)
    unnamed: int = 0  # refusals that named no rule (they pass)

    def add(self, episode: Episode) -> None:
        self.episodes += 1
        self.steps += len(episode.steps)
        finals: list[HandState] = []
        if isinstance(episode.final, MatchState):
            finals = list(episode.final.hands)
            self.events["match played out" if episode.over else "match cut short"] += 1
            if episode.final.out:
                self.events["knock-out"] += 1
        elif isinstance(episode.final, HandState):
            finals = [episode.final]
        # The looks, purchases and widows taken of the finished hands: read from the steps
        # where they are all the hands' actions (a hand, a match played out), which is
        # quicker than each hand's history, built for the asking.
        whole = episode.over or not isinstance(episode.final, MatchState)
        for step in episode.steps:
            if step.probes:
                for probe in step.probes:
                    self.breaches[probe.breach] += 1
            action = step.action
            kind = type(action)
            if kind is SitOut:
                self.events["sit-out"] += 1
            elif whole and kind in _REACHED:
                self._reached(action)
        for probe in episode.final_probes:
            self.breaches[probe.breach] += 1
        for hand in finals:
            self.hands += 1
            result = hand.result
            if result is None:
                continue
            if result.thrown_in:
                self.events["thrown in"] += 1
            elif result.contract is not None:
                self.events[f"{result.contract} {'made' if result.made else 'defeated'}"] += 1
            if not whole:
                for _, action in hand.history:
                    if type(action) in _REACHED:
                        self._reached(action)

    def _reached(self, action: Action) -> None:
        if isinstance(action, Peek):
            self.events["look"] += 1
        elif isinstance(action, Buy) and action.cards:
            self.events["purchase"] += 1
        elif isinstance(action, TakeWidow):
            self.events["widow taken"] += 1


_REACHED = frozenset({Peek, Buy, TakeWidow})  # the actions Reach counts in a hand


@dataclass
class Found:
    """A disagreement, its episode before and after shrinking, and the shrinking's figures."""

    first: Episode
    first_disagreement: Disagreement
    episode: Episode
    disagreement: Disagreement
    shrinking: ShrinkResult | None
    seconds_to_find: float
    note: str = ""  # why shrinking stopped early, if it did


@dataclass
class Outcome:
    """A campaign's result."""

    reach: Reach
    found: Found | None
    seconds: float
    stopped: str  # "hands", "time", "found" or "interrupted"
    restarts: int = 0


class Campaign:
    """Episodes of one scope against one program, from one seed."""

    def __init__(self, scope: Scope, session: Session, seed: int, games: Games,
                 program_chance: bool = False, chance_tries: bool = True,
                 pack_tries: bool = True) -> None:
        self.scope = scope
        self.session = session
        self.seed = seed
        self.games = games
        # Whether the program makes the chance events (spec/conformance.md 2.5), whether it
        # may be handed bad ones to refuse, and bad packs among them.
        self.program_chance = program_chance
        self.prober = Prober(chance_tries, pack_tries)
        self.restarts = 0

    def episode(self, index: int, replay: list[int] | None = None) -> Episode:
        rng = (Choices(replay=replay) if replay is not None
               else Choices(seed=episode_seed(self.seed, index)))
        return draw_episode(self.scope, self.games, self.prober, rng, index)

    def check(self, episode: Episode, requests: Plan | None = None
              ) -> tuple[Disagreement | None, int]:
        """The program's verdict on an episode (it is started again first if it died)."""
        self._started()
        verdict = check_episode(episode, self.session, requests)
        return verdict.disagreement, verdict.unnamed

    def post(self, requests: Plan) -> list[JSONObject]:
        """Send episodes' requests (one plan after another) without waiting for the answers
        (the program is started again first if it died): ``judge_group`` with what this
        returns judges them."""
        self._started()
        return self.session.post([r for _, r, _ in requests], expectations(requests))

    def _started(self) -> None:
        """The program started again if it died (ProtocolError if it cannot be: the
        caller's)."""
        if not self.session.alive:
            self.restarts += 1
            self.session.open()

    def run(self, hands: int | None, seconds: float | None, shard: tuple[int, int] = (1, 1),
            on_episode: Callable[[Reach], None] | None = None,
            shrink_seconds: float = 30.0, shrink_tries: int = 2000,
            do_shrink: bool = True, beyond: Callable[[], int | None] | None = None) -> Outcome:
        """Episodes until ``hands`` episodes (of this shard) or ``seconds`` have passed, or the
        first disagreement, which is then shrunk. ``beyond()``, where given, is an episode
        number past which there is no need to go (another worker found a disagreement there):
        the run stops before the first episode after it ("found elsewhere").

        Episodes are sent GROUP at a time, in one batch, before the next are drawn (and their
        requests planned), and their answers are read after: while the program answers them,
        this process draws the next, so the two work at once; and where the two share one
        core, they take turns once a batch, not once an episode. Where this process may use
        one core only (its program with it, :func:`cpus`), the next are drawn once these
        are judged: drawing them meanwhile only made the two take turns more often (one
        core, 2,000 episodes, eight runs each way alternating: median 544 hands/s drawing
        ahead, 585 not; 6 of the 8 pairs faster). Which episodes are drawn, and in which
        order they are checked, does not depend on it."""
        reach = Reach()
        began = time.monotonic()
        k, n = shard
        kinds = session_kinds(self.session)
        indices = itertools.count(k - 1, n)
        feed = None if self.program_chance else _Feed(self, indices, kinds)
        ahead = _draw(feed, hands, 0)
        at_once = cpus() > 1
        try:
            while True:
                if hands is not None and reach.episodes >= hands:
                    stopped = "hands"
                    break
                if seconds is not None and time.monotonic() - began >= seconds:
                    stopped = "time"
                    break
                limit = beyond() if beyond is not None else None
                checked: list[tuple[Episode, Disagreement | None, int, frozenset[str]]] = []
                if feed is not None:
                    group = [item for item in ahead if limit is None or item[0].index <= limit]
                    if not group:
                        stopped = "found elsewhere"
                        break
                    posted = self.post([r for _, requests, _ in group for r in requests])
                    # The next episodes (none past the budget of episodes), drawn while the
                    # program answers these where the two can run at once.
                    if at_once:
                        ahead = _draw(feed, hands, reach.episodes + len(group))
                    verdicts = judge_group([requests for _, requests, _ in group],
                                           self.session, posted)
                    if not at_once:
                        ahead = _draw(feed, hands, reach.episodes + len(group))
                    # (verdicts stop at the first disagreement: the episodes after it in
                    # the group are not counted)
                    checked = [(episode, verdict.disagreement, verdict.unnamed, traced)
                               for (episode, _, traced), verdict
                               in zip(group, verdicts, strict=False)]
                else:
                    index = next(indices)
                    if limit is not None and index > limit:
                        stopped = "found elsewhere"
                        break
                    episode, found, unnamed = self._with_program_chance(index)
                    checked = [(episode, found, unnamed, frozenset())]
                for episode, found, unnamed, traced in checked:
                    reach.add(episode)
                    reach.unnamed += unnamed
                    reach.rules |= traced
                    if on_episode is not None:
                        on_episode(reach)
                    if found is not None:
                        took = time.monotonic() - began
                        result = self._shrink(episode, found, took, shrink_seconds,
                                              shrink_tries, do_shrink)
                        return Outcome(reach, result, time.monotonic() - began, "found",
                                       self.restarts)
        except KeyboardInterrupt:
            stopped = "interrupted"
        return Outcome(reach, None, time.monotonic() - began, stopped, self.restarts)

    def _with_program_chance(self, index: int) -> tuple[Episode, Disagreement | None, int]:
        self._started()
        rng = Choices(seed=episode_seed(self.seed, index))
        episode, verdict = check_with_program_chance(self.scope, self.games, self.prober, rng,
                                                     index, self.session)
        return episode, verdict.disagreement, verdict.unnamed

    def shrink_found(self, episode: Episode, found: Disagreement, took: float,
                     seconds: float = 30.0, do_shrink: bool = True) -> Found:
        """Shrink a disagreement found in ``episode`` (after ``took`` seconds)."""
        return self._shrink(episode, found, took, seconds, 2000, do_shrink)

    def _shrink(self, episode: Episode, found: Disagreement, took: float, seconds: float,
                tries: int, do_shrink: bool) -> Found:
        if self.program_chance:
            return Found(episode, found, episode, found, None, took,
                         "not shrunk: the program makes its own chance events, so an episode "
                         "cannot be replayed from its choices alone")
        if not do_shrink:
            return Found(episode, found, episode, found, None, took)
        target = found.signature
        # The smallest failing episode so far, and only it: each one kept holds a whole
        # episode and the program's answers, and shrinking keeps hundreds.
        smallest: tuple[Episode, Disagreement] = (episode, found)
        note = ""

        def fails(choices: list[int]) -> list[int] | None:
            nonlocal note, smallest
            candidate = self.episode(episode.index, replay=choices)
            try:
                got, _ = self.check(candidate)
            except ProtocolError as exc:  # it cannot be started again: keep what we have
                note = f"shrinking stopped: the program could not be started again ({exc})"
                raise StopShrinkingError from None
            if got is None or got.signature != target:
                return None
            # Simpler is never longer: a shorter list of choices that plays more steps (a
            # match where there was a hand) is not kept.
            if len(candidate.steps) > len(smallest[0].steps):
                return None
            smallest = (candidate, got)
            return candidate.drawn

        try:
            result = shrink(episode.drawn, fails, max_tries=tries, seconds=seconds)
        except StopShrinkingError:
            result = None
        except KeyboardInterrupt:  # Ctrl-C while shrinking: the smallest so far is kept
            result = None
            note = "shrinking interrupted: the smallest episode found so far is kept"
        best_episode, best_found = smallest
        return Found(episode, found, best_episode, best_found, result, took, note)


#: How many episodes a campaign sends the program in one batch (see Campaign.run). Eight,
#: not two: 2,000 episodes against napkit's adapter, run after run alternating, gave a
#: median of 640 hands/s against 548 with -j 1 on two cores (6 pairs of 6 faster), and 473
#: against 443 held to one core (7 of 8); sixteen gained nothing more.
GROUP = 8


def cpus() -> int:
    """How many CPUs this process may run on (and the program it starts, which inherits
    that): the affinity where the system has one, else the machine's count."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return len(affinity(0))
    return os.cpu_count() or 1


def _draw(feed: _Feed | None, hands: int | None, done: int
          ) -> list[tuple[Episode, Plan, frozenset[str]]]:
    """The next GROUP episodes of ``feed``, or fewer where the budget of ``hands`` ends
    (``done`` of them checked or on their way)."""
    if feed is None:
        return []
    count = GROUP if hands is None else max(0, min(GROUP, hands - done))
    return [feed.next() for _ in range(count)]


class _Feed:
    """Episodes drawn in order, each with its requests planned. A sample of them is drawn
    under the coverage tracer, whose rules come with it: one in TRACE_EVERY of the first
    TRACE_FIRST, then one in TRACE_LATER. A traced episode costs as much as about nine
    untraced ones (the tracer's hook is a Python call at every call), and what a campaign
    reaches it reaches early: seeds 1 to 5 each reach 64 rules, all of them seen in the 16
    episodes one in 32 of the first 512 (one in 8 of the first 128, as many episodes, saw 62
    to 64); one in 1,024 after that adds under 1% to the drawing (one in 128 added 6%)."""

    def __init__(self, campaign: Campaign, indices: Iterator[int], kinds: frozenset[str]
                 ) -> None:
        self.campaign = campaign
        self.indices = indices
        self.kinds = kinds
        self.count = 0

    def next(self) -> tuple[Episode, Plan, frozenset[str]]:
        index = next(self.indices)
        self.count += 1
        count = self.count
        traced: frozenset[str] = frozenset()
        if count % (TRACE_EVERY if count <= TRACE_FIRST else TRACE_LATER) == 0:
            episode, traced = coverage.exercised(partial(self.campaign.episode, index))
        else:
            episode = self.campaign.episode(index)
        return episode, plan(episode, self.kinds), traced


class StopShrinkingError(Exception):
    """The program can no longer be run: shrinking ends with the smallest failure so far."""
