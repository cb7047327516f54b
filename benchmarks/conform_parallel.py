"""``napkit conform -j 2`` against ``-j 1``: cases per second through the adapter protocol with
one and with two processes of the reference adapter (``python -m napkit.adapter``), measured in
the same run, and the ratio.

Run from the repository root::

    .venv/bin/python benchmarks/conform_parallel.py                     # the suite, best of 3
    .venv/bin/python benchmarks/conform_parallel.py --repeats 5 --jobs 4
    .venv/bin/python benchmarks/conform_parallel.py --ruleset pagat     # a part of the suite

Each way runs the very same cases through the very same harness as ``napkit conform``
(:func:`napkit.conform.runner.run_suite`, whose several sessions share the cases among threads
with :class:`napkit.conform.parallel.Pool`); every run must pass every case and give the
same results in the same order, or the benchmark stops. The programs are started and their
handshakes done before the clock starts (``napkit conform`` starts the others as their first
case comes: a few hundred milliseconds once per run). The ways take turns within each repeat,
so that a busy spell of a shared machine slows both; each figure is the best of the repeats.

Besides cases per second it prints the CPU seconds of the harness (this process: its threads
share one interpreter lock) and of the adapter processes, the machine's load average before
and after, and in each repeat its *capacity*: how many times one process's work two processes
spinning a Python loop side by side get done in the same time. Two processes cannot run twice
as fast on two cores that something else is using: on a shared machine the capacity swings
from under 1x to 2x from one minute to the next, and a ratio means something only beside it.
Target (issue 15): -j 2 close to 2x on two idle cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from napkit.conform.cli import reference_command
from napkit.conform.parallel import cores
from napkit.conform.process import Session, process_opener
from napkit.conform.runner import PASSED, CaseResult, run_suite
from napkit.conform.suite import Case, Filters, default_suite_dir, load_suite, select


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_run(cases: Sequence[Case], jobs: int) -> tuple[float, float, float, list[CaseResult]]:
    """(wall seconds, harness CPU seconds, adapters' CPU seconds, results) of one run of the
    cases on ``jobs`` processes of the reference adapter, started beforehand."""
    sessions = [Session(process_opener(reference_command()), timeout=30.0) for _ in range(jobs)]
    hello = None
    for session in sessions:
        hello = session.open()
    assert hello is not None
    children_before = children_cpu()
    began, cpu = time.perf_counter(), time.process_time()
    results = run_suite(cases, sessions if jobs > 1 else sessions[0], hello.supports)
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    for session in sessions:
        session.close()
    return wall, cpu, children_cpu() - children_before, results


def spin(count: int) -> float:
    """Seconds to count to ``count`` in a Python loop: a fixed piece of pure CPU work."""
    began = time.perf_counter()
    total = 0
    for i in range(count):
        total += i
    return time.perf_counter() - began


def capacity(jobs: int, count: int = 3_000_000) -> float:
    """How many times the work of one process ``jobs`` processes do in the same time, each
    spinning (:func:`spin`) on its own: ``jobs`` on idle cores, less on a busy machine. The
    ceiling of any speed-up measured at the same moment."""
    import multiprocessing

    alone = spin(count)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        began = time.perf_counter()
        pool.map(spin, [count] * jobs)
        together = time.perf_counter() - began
    return jobs * alone / together


def measure(cases: Sequence[Case], jobs: Sequence[int], repeats: int,
            capacities: list[float] | None = None) -> dict[int, tuple[float, float, float]]:
    """Best (wall, harness CPU, adapters' CPU) of ``repeats`` for each number of jobs, taking
    turns; SystemExit if a run does not pass every case or differs from the first. The
    machine's :func:`capacity` for the most jobs is measured in each repeat, into
    ``capacities``."""
    best: dict[int, tuple[float, float, float]] = {}
    first: list[tuple[str, str]] | None = None
    for _ in range(repeats):
        if capacities is not None:
            capacities.append(capacity(max(jobs)))
        for n in jobs:
            wall, cpu, child, results = time_run(cases, n)
            passed = sum(r.status == PASSED for r in results)
            if passed != len(cases):
                raise SystemExit(f"-j {n}: only {passed} of {len(cases)} cases passed")
            outcome = [(r.id, r.status) for r in results]
            if first is None:
                first = outcome
            elif outcome != first:
                raise SystemExit(f"-j {n}: the results differ from the first run's")
            if n not in best or wall < best[n][0]:
                best[n] = (wall, cpu, child)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=None,
                        help="the suite to run (default: conformance/cases)")
    parser.add_argument("--ruleset", action="append", default=[], metavar="ID",
                        help="only the cases of this ruleset (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, metavar="N",
                        help="compare -j N with -j 1 (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timings each way (best kept)")
    args = parser.parse_args(argv)
    root = args.suite or default_suite_dir()
    filters = Filters(rulesets=tuple(args.ruleset))
    loaded, problems = load_suite(root, filters)
    cases = select(loaded, filters)
    if not cases:
        print(f"no case in {root} for these filters", file=sys.stderr)
        return 1
    load = os.getloadavg()[0]
    print(f"{len(cases)} cases of {root}" + (f" ({len(problems)} bad files left out)"
                                             if problems else "")
          + f"; {cores()} cores; load average {load:.2f}; best of {args.repeats}")
    capacities: list[float] = []
    best = measure(cases, (1, args.jobs), args.repeats, capacities)
    for n, (wall, cpu, child) in best.items():
        print(f"-j {n}  {len(cases) / wall:8.0f} cases/s  ({wall:.2f} s; CPU: harness "
              f"{cpu:.2f} s, adapters {child:.2f} s)")
    ratio = best[1][0] / best[args.jobs][0]
    print(f"-j {args.jobs}/-j 1 throughput: {ratio:.2f}x (target: close to {args.jobs}x on "
          f"{args.jobs} idle cores); load average after {os.getloadavg()[0]:.2f}")
    print(f"the machine's capacity for {args.jobs} CPU-bound processes meanwhile: "
          f"{', '.join(f'{c:.2f}x' for c in capacities)} (its ceiling)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
