"""A fuzzing campaign: episodes one after another against a program until the budget is spent,
every disagreement put in its group by its signature (:mod:`napkit.conform.fuzz.groups`),
then one episode of each group shrunk to the smallest episode that still shows it
(spec/conformance.md 4.2, 4.4).

Episode ``i`` of a campaign with seed ``s`` is drawn from its own seed (:func:`episode_seed`),
so it is the same episode whatever came before it, however long each took, and whichever
shard (``--shard K/N`` takes the episodes ``i`` with ``i % N == K - 1``) or worker runs it.
A group's episode is the lowest-numbered that showed it, so a run's groups do not depend on
how many workers played it; with ``--first`` the run stops at the first disagreement in
episode order, and with several workers the episodes after it are discarded.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
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
    Verdict,
    check_episode,
    check_with_program_chance,
    draw_episode,
    expectations,
    judge_group,
    plan,
    session_kinds,
)
from napkit.conform.fuzz.groups import signature
from napkit.conform.fuzz.hands import lone_hands
from napkit.conform.fuzz.shrink import Choices, ShrinkResult, shrink
from napkit.engine.actions import Action, Buy, Peek, SitOut, TakeWidow
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.protocol.process import ProtocolError, Session
from napkit.spec import coverage

JSONObject = dict[str, Any]
# Which episodes are drawn under the coverage tracer (see _Feed).
TRACE_EVERY, TRACE_FIRST, TRACE_LATER = 32, 512, 1024
# The seconds of a --seconds budget left for shrinking each distinct disagreement found (and
# checking it on a fresh start of the program), at most half the budget in all: most shrink
# in under a second (benchmarks/fuzz_mutants.py), and one that takes longer keeps what it
# has when its share runs out.
SHRINK_RESERVE = 5.0
OUTCOME_ONLY = frozenset({"outcome"})  # what a match's hands are asked as lone hands
PROGRAM_LOST = "the program could not be started again"  # why a run stopped (Outcome.stopped)


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
    disagreed: int = 0  # episodes with at least one disagreement

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
class Group:
    """One distinct disagreement: the first episode that showed it (the lowest-numbered),
    how often it showed, and its reproducer once shrunk."""

    key: str  # the signature: the rule, else the kind of difference (groups.signature)
    rule: str  # the rule blamed ("" where none is)
    difference: str  # the first episode's kind of difference: "turn", "legal set", ...
    index: int  # the first episode that showed it
    seconds_to_find: float
    message: str  # what differed, in that episode
    # how many episodes showed it as each kind of difference (the first's included)
    differences: Counter[str]
    first: Episode | None = None  # that episode (None: found by a worker, not replayed yet)
    disagreement: Disagreement | None = None
    known: str | None = None  # its reason in the file of known differences, if it is there
    found: Found | None = None  # once shrunk (or written as found)
    reproducer: str = ""  # the file it was written to
    note: str = ""  # why it has no reproducer, where it has none

    @property
    def count(self) -> int:
        """How many episodes showed it (an episode counts once for each rule it breaks)."""
        return sum(self.differences.values())

    def to_json(self) -> dict[str, Any]:
        """Its entry in a report's ``disagreements`` (without the case: see cli.fuzz)."""
        return {"signature": self.key, "rule": self.rule or None,
                "difference": self.difference,
                "differences": dict(self.differences.most_common()),
                "episode": self.index, "seconds_to_find": round(self.seconds_to_find, 3),
                "count": self.count, "message": self.message, "known": self.known}


def group_from_json(entry: Mapping[str, Any]) -> Group:
    """A group from a report's ``disagreements`` entry (a worker's, or a shard's)."""
    return Group(entry["signature"], entry.get("rule") or "", entry["difference"],
                 entry["episode"], entry["seconds_to_find"], entry["message"],
                 Counter(entry.get("differences") or {entry["difference"]: entry["count"]}),
                 known=entry.get("known"))


@dataclass
class Outcome:
    """A campaign's result: its distinct disagreements in the order found (the known ones
    among them), the seconds in all and playing (shrinking not counted)."""

    reach: Reach
    groups: list[Group]
    seconds: float
    stopped: str  # "hands", "time", "found", "interrupted", "found elsewhere", or a problem
    restarts: int = 0
    played: float = 0.0

    @property
    def new(self) -> list[Group]:
        """The disagreements not known (``--known``): the ones that fail the run."""
        return [g for g in self.groups if g.known is None]

    @property
    def found(self) -> Found | None:
        """The first new disagreement, shrunk: what ``--first`` stops at."""
        return next((g.found for g in self.new if g.found is not None), None)


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
        self.problem = ""  # why the run stopped, where the program could not be run
        self.found_so_far = 0  # distinct disagreements not known, found so far (for progress)

    def episode(self, index: int, replay: list[int] | None = None) -> Episode:
        rng = (Choices(replay=replay) if replay is not None
               else Choices(seed=episode_seed(self.seed, index)))
        return draw_episode(self.scope, self.games, self.prober, rng, index)

    def verdict(self, episode: Episode, requests: Plan | None = None) -> Verdict:
        """The program's verdict on an episode (it is started again first if it died)."""
        self._started()
        return check_episode(episode, self.session, requests)

    def check(self, episode: Episode, requests: Plan | None = None
              ) -> tuple[Disagreement | None, int]:
        """The program's first disagreement on an episode, and its refusals naming no rule."""
        verdict = self.verdict(episode, requests)
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
            do_shrink: bool = True, beyond: Callable[[], int | None] | None = None,
            first: bool = False, known: Mapping[str, str] | None = None,
            leave_time: bool | None = None) -> Outcome:
        """Episodes until ``hands`` episodes (of this shard) or ``seconds`` have passed; every
        disagreement put in its group (:mod:`napkit.conform.fuzz.groups`), and then one
        episode of each group not ``known`` shrunk (:meth:`settle`). ``first``: stop at the
        first disagreement not known (``beyond()``, where given, is an episode number past
        which there is no need to go: another worker found one there; the run stops before
        the first episode after it, "found elsewhere").

        ``seconds`` bounds the whole run, shrinking included: play stops early enough to leave
        each distinct disagreement found SHRINK_RESERVE seconds (at most half the budget) to
        be shrunk and checked on a fresh start of the program (``leave_time``: whether to
        leave it, by default where ``do_shrink``; a worker of ``-j N`` that does not shrink
        leaves it for the parent, which does).

        Episodes are sent GROUP at a time, in one batch, before the next are drawn (and their
        requests planned), and their answers are read after: while the program answers them,
        this process draws the next, so the two work at once; and where the two share one
        core, they take turns once a batch, not once an episode. Where this process may use
        one core only (its program with it, :func:`cpus`), the next are drawn once these
        are judged: drawing them meanwhile only made the two take turns more often (one
        core, 2,000 episodes, eight runs each way alternating: median 544 hands/s drawing
        ahead, 585 not; 6 of the 8 pairs faster). Which episodes are drawn, and in which
        order they are checked, does not depend on it. The episodes of a batch after one
        that disagreed are sent again (the program may be anywhere after a disagreement)."""
        reach = Reach()
        began = time.monotonic()
        known = dict(known or {})
        groups: dict[str, Group] = {}
        leave = do_shrink if leave_time is None else leave_time

        def out_of_time() -> bool:
            if seconds is None:
                return False
            fresh = sum(1 for g in groups.values() if g.known is None)
            reserve = min(seconds / 2, SHRINK_RESERVE * fresh) if leave else 0.0
            return time.monotonic() - began >= seconds - reserve

        try:
            stopped = self._play(reach, groups, hands, out_of_time, shard, on_episode, beyond,
                                 first, known, began)
        except KeyboardInterrupt:
            stopped = "interrupted"
        except ProtocolError as exc:  # it died and could not be started again
            stopped = PROGRAM_LOST
            self.problem = exc.message
        played = time.monotonic() - began
        found_groups = sorted(groups.values(), key=lambda g: g.index)
        if stopped != "interrupted" and not self.problem:
            deadline = None if seconds is None else began + seconds
            try:
                self.settle(found_groups, deadline, shrink_seconds, shrink_tries, do_shrink)
            except KeyboardInterrupt:
                stopped = "interrupted"
        else:
            for g in found_groups:
                if g.known is None and g.found is None and g.first is not None:
                    g.found = self._unshrunk(g, "not shrunk: the run was stopped")
        return Outcome(reach, found_groups, time.monotonic() - began, stopped, self.restarts,
                       played)

    def _play(self, reach: Reach, groups: dict[str, Group], hands: int | None,
              out_of_time: Callable[[], bool], shard: tuple[int, int],
              on_episode: Callable[[Reach], None] | None,
              beyond: Callable[[], int | None] | None, first: bool,
              known: Mapping[str, str], began: float) -> str:
        """The episodes of :meth:`run`, until it is to stop: why it stopped."""
        k, n = shard
        kinds = session_kinds(self.session)
        indices = itertools.count(k - 1, n)
        feed = None if self.program_chance else _Feed(self, indices, kinds)
        ahead = _draw(feed, hands, 0)
        at_once = cpus() > 1
        sent = 0  # episodes sent (the budget of hands counts them)
        stopped = ""
        while not stopped:
            if hands is not None and reach.episodes >= hands:
                stopped = "hands"
                break
            if out_of_time():
                stopped = "time"
                break
            limit = beyond() if beyond is not None else None
            checked: list[tuple[Episode, tuple[Disagreement, ...], int, frozenset[str]]] = []
            if feed is not None:
                group = [item for item in ahead if limit is None or item[0].index <= limit]
                if not group:
                    stopped = "found elsewhere"
                    break
                posted = self.post([r for _, requests, _ in group for r in requests])
                sent += len(group)
                # The next episodes (none past the budget of episodes), drawn while the
                # program answers these where the two can run at once.
                if at_once:
                    ahead = _draw(feed, hands, sent)
                verdicts = judge_group([requests for _, requests, _ in group],
                                       self.session, posted, past=not first)
                if not at_once:
                    ahead = _draw(feed, hands, sent)
                # Verdicts stop at the first disagreement (with ``first``) or breach of the
                # protocol: the episodes after it in the batch go again, first, in the next
                # batch (with ``first`` they are not played).
                checked = [(episode, verdict.every, verdict.unnamed, traced)
                           for (episode, _, traced), verdict
                           in zip(group, verdicts, strict=False)]
                again = group[len(verdicts):]
                sent -= len(again)
                ahead = again + ahead
            else:
                index = next(indices)
                if limit is not None and index > limit:
                    stopped = "found elsewhere"
                    break
                checked = [self._with_program_chance(index, reach.episodes)]
            for episode, every, unnamed, traced in checked:
                reach.add(episode)
                reach.unnamed += unnamed
                reach.rules |= traced
                if every:  # (most episodes agree: nothing to count)
                    reach.disagreed += 1
                    if self._record(groups, episode, every, time.monotonic() - began, known,
                                    first):
                        stopped = "found"
                if on_episode is not None:
                    on_episode(reach)
        return stopped

    def _record(self, groups: dict[str, Group], episode: Episode,
                every: Sequence[Disagreement], took: float, known: Mapping[str, str],
                first: bool) -> bool:
        """Count the disagreements of ``episode`` in their groups, each rule it broke once;
        whether to stop (``first``, and one of them is new and not known)."""
        rules: set[str] = set()  # the rules this episode broke so far
        for found in every:
            key, rule, kind = self.signature(episode, found)
            if rule in rules:  # the same rule broken again: the same bug showing again
                continue
            rules.add(rule)
            have = groups.get(key)
            if have is not None:
                have.differences[kind] += 1
                continue
            group = Group(key, rule, kind, episode.index, took, found.message,
                          Counter({kind: 1}), first=episode, disagreement=found,
                          known=known.get(key))
            groups[key] = group
            if group.known is None:
                self.found_so_far += 1
                if first:
                    return True
        return False

    def settle(self, groups: Sequence[Group], deadline: float | None, shrink_seconds: float,
               tries: int = 2000, do_shrink: bool = True) -> None:
        """Shrink one episode of each group that is not known, in the order found, each given
        ``shrink_seconds`` at most and an equal share of what is left before ``deadline``;
        a smaller episode is kept only if it disagrees the same way on a fresh start of the
        program (else the episode as found is)."""
        todo = [g for g in groups if g.known is None and g.first is not None]
        for place, group in enumerate(todo):
            allowed = shrink_seconds
            if deadline is not None:
                allowed = min(allowed, (deadline - time.monotonic()) / (len(todo) - place))
            if not do_shrink:
                group.found = self._unshrunk(group, "")
            elif allowed <= 0.05:
                group.found = self._unshrunk(
                    group, "not shrunk: the time budget (--seconds) was spent")
            else:
                group.found = self._shrink(group, allowed, tries)

    def signature(self, episode: Episode, found: Disagreement,
                  session: Session | None = None) -> tuple[str, str, str]:
        """``(key, rule, difference)`` of a disagreement (:func:`groups.signature`); for a
        match whose outcome differs, that of the first of its hands the program answers
        otherwise when asked it as a lone hand (``session``, by default the campaign's, is
        asked), where one does: the match's balances say which bug only through it."""
        sign = signature(episode, found)
        if found.ref.part != "outcome" or episode.kind != "match" or found.problem:
            return sign
        asked = session or self.session
        for hand in lone_hands(episode):
            try:
                if asked is self.session:
                    self._started()
                # its outcome only: the bugs of play show before the match's end
                verdict = check_episode(hand, asked, plan(hand, OUTCOME_ONLY))
            except ProtocolError:
                break
            if verdict.disagreement is not None:
                key, rule, kind = signature(hand, verdict.disagreement)
                return key, rule, f"{kind} (a hand of a match)"
        return sign

    def _unshrunk(self, group: Group, note: str) -> Found:
        assert group.first is not None and group.disagreement is not None
        return Found(group.first, group.disagreement, group.first, group.disagreement, None,
                     group.seconds_to_find, note)

    def _with_program_chance(self, index: int, done: int
                             ) -> tuple[Episode, tuple[Disagreement, ...], int, frozenset[str]]:
        """Episode ``index`` with the program making its chance events; the rules it
        exercised where it is one of the sample traced (as :class:`_Feed` samples them:
        ``done`` episodes came before it)."""
        self._started()
        rng = Choices(seed=episode_seed(self.seed, index))

        def check() -> tuple[Episode, Any]:
            return check_with_program_chance(self.scope, self.games, self.prober, rng, index,
                                             self.session)

        traced: frozenset[str] = frozenset()
        if _traced(done + 1):
            (episode, verdict), traced = coverage.exercised(check)
        else:
            episode, verdict = check()
        return episode, verdict.every, verdict.unnamed, traced

    def _matching(self, episode: Episode, verdict: Verdict, key: str,
                  session: Session | None = None) -> Disagreement | None:
        """The disagreement of ``verdict`` whose signature is ``key``, if there is one."""
        return next((d for d in verdict.every
                     if self.signature(episode, d, session)[0] == key), None)

    def shrink_found(self, episode: Episode, found: Disagreement, took: float,
                     seconds: float = 30.0, do_shrink: bool = True) -> Found:
        """Shrink a disagreement found in ``episode`` (after ``took`` seconds) on its own."""
        key, rule, kind = self.signature(episode, found)
        group = Group(key, rule, kind, episode.index, took, found.message, Counter({kind: 1}),
                      first=episode, disagreement=found)
        return self._shrink(group, seconds, 2000) if do_shrink else self._unshrunk(group, "")

    def replay_group(self, group: Group) -> bool:
        """Play ``group``'s first episode again here (a worker of ``-j N`` found it) and keep
        it and its disagreement on the group: whether it disagreed the same way again."""
        episode = self.episode(group.index)
        found = self._matching(episode, self.verdict(episode), group.key)
        if found is None:
            return False
        group.first, group.disagreement = episode, found
        return True

    def _shrink(self, group: Group, seconds: float, tries: int) -> Found:
        """The smallest episode that disagrees as ``group``'s first does (the same signature:
        the same rule blamed, the same kind of difference), checked again on a fresh start
        of the program; the episode as found where the smaller one does not fail there."""
        episode, found = group.first, group.disagreement
        assert episode is not None and found is not None
        if self.program_chance:
            return self._unshrunk(group, "not shrunk: the program makes its own chance "
                                  "events, so an episode cannot be replayed from its choices "
                                  "alone")
        target = group.key
        # The smallest failing episode so far, and only it: each one kept holds a whole
        # episode and the program's answers, and shrinking keeps hundreds.
        smallest: tuple[Episode, Disagreement] = (episode, found)
        note = ""

        def fails(choices: list[int]) -> list[int] | None:
            nonlocal note, smallest
            candidate = self.episode(episode.index, replay=choices)
            try:
                verdict = self.verdict(candidate)
            except ProtocolError as exc:  # it cannot be started again: keep what we have
                note = f"shrinking stopped: the program could not be started again ({exc})"
                raise StopShrinkingError from None
            # Simpler is never longer: a shorter list of choices that plays more steps (a
            # match where there was a hand) is not kept.
            if verdict.disagreement is None or len(candidate.steps) > len(smallest[0].steps):
                return None
            got = self._matching(candidate, verdict, target)
            if got is None:
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
        # A program that keeps something from one episode to the next can fail a small
        # episode only after what came before: what is written must fail on its own.
        if best_episode is not episode and not note and not self._fresh(best_episode, target):
            alone = self._fresh(episode, target)
            best_episode, best_found = episode, found
            result = None
            note = ("not shrunk: the smaller episodes fail only after the ones before them "
                    "(the program keeps something from one episode to the next)")
            if not alone:
                note = ("not shrunk, and it does not fail on a fresh start of the "
                        "program either: its answers depend on what it was asked before")
        return Found(episode, found, best_episode, best_found, result, group.seconds_to_find,
                     note)

    def _fresh(self, episode: Episode, target: str) -> bool:
        """Whether ``episode`` disagrees as ``target`` says on a fresh start of the program
        (not if it could not be started)."""
        session = Session(self.session.opener, self.session.timeout, self.session.start_timeout)
        try:
            session.open()
            verdict = check_episode(episode, session)
            return self._matching(episode, verdict, target, session) is not None
        except ProtocolError:
            return False
        finally:
            session.close()


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
        traced: frozenset[str] = frozenset()
        if _traced(self.count):
            episode, traced = coverage.exercised(partial(self.campaign.episode, index))
        else:
            episode = self.campaign.episode(index)
        return episode, plan(episode, self.kinds), traced


def _traced(count: int) -> bool:
    """Whether the ``count``-th episode drawn (from 1) is drawn under the tracer (_Feed)."""
    return count % (TRACE_EVERY if count <= TRACE_FIRST else TRACE_LATER) == 0


class StopShrinkingError(Exception):
    """The program can no longer be run: shrinking ends with the smallest failure so far."""
