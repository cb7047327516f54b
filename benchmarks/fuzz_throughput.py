"""Throughput of ``napkit fuzz``: hands per second against the reference adapter through the
protocol, on one core and on two, the ratio to the same episodes checked in this process
without the protocol, and the ratio of ``-j 2`` on two cores to ``-j 1`` on one, all measured
in one run.

    .venv/bin/python benchmarks/fuzz_throughput.py                  # 600 episodes each way
    .venv/bin/python benchmarks/fuzz_throughput.py --episodes 200 --repeats 3

The ways, the same episodes (seed 1, every ruleset, every kind), taking turns, best of
``--repeats``:

* ``draw``: the episodes drawn by the reference engine (the play, the illegal tries, the
  requests planned), nothing asked: the fuzzer's own cost.
* ``in-process``: drawn and checked against napkit's adapter called in this process
  (``InProcessChannel``: no process, no JSON text).
* ``protocol -j 1, 1 core``: ``napkit fuzz --hands N`` against ``python -m
napkit.protocol.adapter``,
  both processes held to one core (``sched_setaffinity``): the two take turns, as on a
  machine with one core.
* ``protocol -j 1, 2 cores``: the same, free to use both cores (the fuzzer draws the next
  episode while the program answers this one).
* ``protocol -j 2, 2 cores``: two workers, each with its program.

It prints hands per second for each, and the ratios protocol/in-process (one core each) and
``-j 2`` on two cores / ``-j 1`` on one. The time of a protocol run is the campaign's own (from
its report), without starting napkit and the program.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from napkit.conform.fuzz.campaign import episode_seed
from napkit.conform.fuzz.episodes import Games, Prober, check_episode, draw_episode, plan, scope_of
from napkit.conform.fuzz.shrink import Choices
from napkit.protocol.adapter import supports
from napkit.protocol.process import Session, in_process_opener
from napkit.spec.catalog import default_spec

KINDS = frozenset({"legal", "illegal", "outcome", "match"})


def draw(episodes: int, seed: int) -> tuple[int, float]:
    scope = scope_of(supports(), default_spec().rulesets)
    games, prober = Games(default_spec().rulesets), Prober()
    began = time.perf_counter()
    hands = 0
    for i in range(episodes):
        episode = draw_episode(scope, games, prober, Choices(seed=episode_seed(seed, i)), i)
        plan(episode, KINDS)
        hands += _hands(episode)
    return hands, time.perf_counter() - began


def in_process(episodes: int, seed: int) -> tuple[int, float]:
    scope = scope_of(supports(), default_spec().rulesets)
    games, prober = Games(default_spec().rulesets), Prober()
    session = Session(in_process_opener(), 10.0)
    session.open()
    began = time.perf_counter()
    hands = 0
    for i in range(episodes):
        episode = draw_episode(scope, games, prober, Choices(seed=episode_seed(seed, i)), i)
        verdict = check_episode(episode, session)
        assert verdict.disagreement is None, verdict.disagreement
        hands += _hands(episode)
    return hands, time.perf_counter() - began


def protocol(episodes: int, seed: int, jobs: int, cores: int) -> tuple[int, float]:
    """The command as a person runs it, held to the first ``cores`` cores."""
    allowed = sorted(os.sched_getaffinity(0))[:cores]
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "r.json"
        subprocess.run([sys.executable, "-m", "napkit", "fuzz", "-q", "--hands", str(episodes),
                        "--seed", str(seed), "-j", str(jobs), "--json", str(report)],
                       check=True, capture_output=True,
                       preexec_fn=lambda: os.sched_setaffinity(0, allowed))
        data = json.loads(report.read_text())
    return data["hands"], data["seconds"]


def _hands(episode: object) -> int:
    final = getattr(episode, "final", None)
    return len(getattr(final, "hands", ())) if getattr(episode, "kind", "") == "match" else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--episodes", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    ways: dict[str, Callable[[], tuple[int, float]]] = {
        "draw": lambda: draw(args.episodes, args.seed),
        "in-process": lambda: in_process(args.episodes, args.seed),
        "protocol -j 1, 1 core": lambda: protocol(args.episodes, args.seed, 1, 1),
        "protocol -j 1, 2 cores": lambda: protocol(args.episodes, args.seed, 1, 2),
        "protocol -j 2, 2 cores": lambda: protocol(args.episodes, args.seed, 2, 2)}
    if cores < 2:
        print("one core here: the two-core ways are left out")
        ways = {k: v for k, v in ways.items() if "2 cores" not in k}
    best: dict[str, float] = {}
    hands: dict[str, int] = {}
    for _ in range(args.repeats):
        for name, way in ways.items():
            n, seconds = way()
            hands[name] = n
            best[name] = max(best.get(name, 0.0), n / seconds)
    for name in ways:
        print(f"{name:<24} {hands[name]:>6} hands  {best[name]:>8.0f} hands/s")
    one = best["protocol -j 1, 1 core"]
    print(f"protocol -j 1 on one core / in-process: {one / best['in-process']:.2f}x")
    if cores >= 2:
        print(f"-j 2 on two cores / -j 1 on one core: {best['protocol -j 2, 2 cores'] / one:.2f}x; "
              f"-j 1 on two cores / on one: {best['protocol -j 1, 2 cores'] / one:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
