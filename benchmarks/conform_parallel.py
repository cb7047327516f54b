"""``napkit conform -j 2`` against ``-j 1``: cases per second through the adapter protocol with
one and with two processes of the reference adapter (``python -m napkit.protocol.adapter``),
measured in
the same run, and the ratio; with two, both ways of sharing the harness: worker processes
(what ``napkit conform`` does where the system forks) and threads of one process.

Run from the repository root::

    .venv/bin/python benchmarks/conform_parallel.py                     # the suite, best of 3
    .venv/bin/python benchmarks/conform_parallel.py --repeats 5 --jobs 4
    .venv/bin/python benchmarks/conform_parallel.py --ruleset pagat     # a part of the suite
    .venv/bin/python benchmarks/conform_parallel.py --whole             # the commands, whole

Each way runs the very same cases through the very same harness as ``napkit conform``:
:func:`napkit.conform.run.runner.run_suite` with one session, or with several that share the cases
among threads (:class:`napkit.conform.run.parallel.Pool`), and
:func:`~napkit.conform.run.runner.run_suite_in_processes`, each session in a forked worker
process (:class:`~napkit.conform.run.parallel.ProcessPool`). Every run must pass every case and
give the same results in the same order, or the benchmark stops. As napkit conform times a
run, the clock starts after the first program's handshake, and starting the others (as their
first case comes) is part of the run. The ways take turns within each repeat, so that a busy
spell of a shared machine slows each; each figure is the best of the repeats.

Besides cases per second it prints the CPU seconds of the harness (this process: its threads
share one interpreter lock) and of the adapter processes, the machine's load average before
and after, and in each repeat its *capacity*: how many times one process's work two processes
spinning a Python loop side by side get done in the same time. Two processes cannot run twice
as fast on two cores that something else is using: on a shared machine the capacity swings
from under 1x to 2x from one minute to the next, and a ratio means something only beside it.
Target (issue 15): -j 2 close to 2x on two idle cores.

``--whole`` times the command itself instead, as a person runs it: ``napkit conform -q -j 1
-- PYTHON -m napkit adapter`` against the same with ``-j N``, each a new process from its start
to its exit (its start, reading and checking the suite, the programs' starts, the run, the
summary), taking turns; each figure is the median of the repeats (a busy spell slows one run,
not the ratio of medians). Target (issue 27): ``-j 2`` at most 0.75 of ``-j 1``'s wall time on
two cores. With ``--before DIR`` (a checkout of an earlier napkit), the same two commands run
as DIR's too (its ``reference`` folder first on ``PYTHONPATH``), all four taking turns: before
and after in one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from napkit.cli.conform import reference_command
from napkit.conform.run.parallel import ProcessPool, cores
from napkit.conform.run.runner import PASSED, CaseResult, run_suite, run_suite_in_processes
from napkit.conform.suite.cases import Case, Filters, default_suite_dir, load_suite, select
from napkit.protocol.process import Session, process_opener


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


WAYS = ("-j 1", "processes", "threads")


def time_run(cases: Sequence[Case], way: str, jobs: int) -> tuple[
        float, float, float, list[CaseResult]]:
    """(wall seconds, CPU seconds of this process, CPU seconds of its children, results) of
    one run of the cases as ``napkit conform`` runs them: ``-j 1`` (one program), or ``-j
    jobs`` with each program and its share of the harness in a worker process (what napkit
    conform does where the system forks) or in a thread of this process. As napkit conform
    times its runs, the clock starts after the first program's handshake: starting the others
    is part of the run."""
    def session() -> Session:
        return Session(process_opener(reference_command()), timeout=30.0)

    first = session()
    hello = first.open()
    children_before = children_cpu()
    began, cpu = time.perf_counter(), time.process_time()
    if way == "-j 1":
        results = run_suite(cases, first, hello.supports)
        others: list[Session] = []
    elif way == "processes":
        first.close()
        results, _ = run_suite_in_processes(cases, session, jobs, hello.supports)
    else:
        others = [session() for _ in range(jobs - 1)]
        results = run_suite(cases, [first, *others], hello.supports)
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    if way != "processes":
        for each in [first, *others]:
            each.close()
    return wall, cpu, children_cpu() - children_before, results


def spin(seconds: float) -> int:
    """How many times a Python loop goes round in ``seconds``: a fixed piece of pure CPU work's
    rate."""
    end = time.perf_counter() + seconds
    rounds = 0
    while time.perf_counter() < end:
        rounds += 1
    return rounds


def capacity(jobs: int, seconds: float = 0.5) -> float:
    """How many times the work of one process ``jobs`` processes get done in the same time,
    each spinning (:func:`spin`) on its own: ``jobs`` on idle cores, less on a busy machine.
    The ceiling of any speed-up measured at the same moment."""
    alone = spin(seconds)
    with ProcessPool(jobs, lambda _k: None) as pool:
        together = sum(pool.map(lambda _w, s: spin(s), [seconds] * jobs))
    return together / alone


def measure(cases: Sequence[Case], jobs: int, repeats: int, ways: Sequence[str] = WAYS,
            capacities: list[float] | None = None) -> dict[str, tuple[float, float, float]]:
    """Best (wall, CPU here, CPU of the children) of ``repeats`` for each way, taking turns;
    SystemExit if a run does not pass every case or differs from the first. The machine's
    :func:`capacity` for ``jobs`` processes is measured in each repeat, into ``capacities``."""
    best: dict[str, tuple[float, float, float]] = {}
    first: list[tuple[str, str, str]] | None = None
    for _ in range(repeats):
        if capacities is not None:
            capacities.append(capacity(jobs))
        for way in ways:
            wall, cpu, child, results = time_run(cases, way, jobs)
            passed = sum(r.status == PASSED for r in results)
            if passed != len(cases):
                raise SystemExit(f"{way}: only {passed} of {len(cases)} cases passed")
            outcome = [(r.id, r.status, r.message) for r in results]
            if first is None:
                first = outcome
            elif outcome != first:
                raise SystemExit(f"{way}: the results differ from the first run's")
            if way not in best or wall < best[way][0]:
                best[way] = (wall, cpu, child)
    return best


def whole_commands(jobs: int, rulesets: Sequence[str] = ()) -> dict[str, list[str]]:
    """``napkit conform -q -j 1`` and ``-j jobs`` against ``PYTHON -m napkit adapter`` (the
    program as issue 27 states the target), as a person runs them."""
    napkit = [sys.executable, "-m", "napkit", "conform", "-q"]
    narrow = [word for ruleset in rulesets for word in ("--ruleset", ruleset)]
    program = ["--", sys.executable, "-m", "napkit", "adapter"]
    return {f"-j {n}": [*napkit, "-j", str(n), *narrow, *program] for n in (1, jobs)}


def time_whole(commands: dict[str, list[str]], repeats: int, before: str | None = None
               ) -> dict[str, list[float]]:
    """Wall seconds of each command, ``repeats`` times, taking turns; SystemExit if one fails.
    Bytecode is written and read, as a pip install leaves it (one untimed round first). With
    ``before``, each command is run as that checkout's napkit too (named ``NAME before``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    envs = {name: env for name in commands}
    if before is not None:
        earlier = {**env, "PYTHONPATH": os.pathsep.join(
            [str(Path(before, "reference").resolve()), *filter(None, [env.get("PYTHONPATH")])])}
        commands = {**commands, **{f"{name} before": argv for name, argv in commands.items()}}
        envs.update({name: earlier for name in commands if name.endswith(" before")})
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(repeats + 1):
        for name, argv in commands.items():
            began = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, check=False, env=envs[name])
            if done.returncode != 0:
                raise SystemExit(f"{name} exited {done.returncode}: "
                                 f"{done.stderr.decode(errors='replace')[-400:]}")
            if round_:
                times[name].append(time.perf_counter() - began)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=None,
                        help="the suite to run (default: conformance/cases)")
    parser.add_argument("--ruleset", action="append", default=[], metavar="ID",
                        help="only the cases of this ruleset (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, metavar="N",
                        help="compare -j N with -j 1 (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timings each way (best kept)")
    parser.add_argument("--whole", action="store_true",
                        help="time the whole commands, napkit conform -j 1 and -j N (medians)")
    parser.add_argument("--before", metavar="DIR",
                        help="with --whole: a checkout of an earlier napkit, timed in turn")
    args = parser.parse_args(argv)
    if args.whole:
        times = time_whole(whole_commands(args.jobs, args.ruleset), args.repeats, args.before)
        medians = {name: statistics.median(runs) for name, runs in times.items()}
        for name, median in medians.items():
            print(f"napkit conform {name}: median {median:.2f} s of {args.repeats} "
                  f"({', '.join(f'{t:.2f}' for t in times[name])})")
        for suffix in ("", " before") if args.before else ("",):
            one, many = medians[f"-j 1{suffix}"], medians[f"-j {args.jobs}{suffix}"]
            print(f"{suffix.strip() or 'now'}: -j {args.jobs} takes {many / one:.2f} of -j 1's "
                  "wall time (target: at most 0.75 on two cores)")
        print(f"load average {os.getloadavg()[0]:.2f}")
        return 0
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
    best = measure(cases, args.jobs, args.repeats, capacities=capacities)
    names = {"-j 1": "-j 1", "processes": f"-j {args.jobs} (worker processes: napkit conform)",
             "threads": f"-j {args.jobs} (threads of one process)"}
    for way, (wall, cpu, child) in best.items():
        print(f"{names[way]:<42} {len(cases) / wall:6.0f} cases/s  ({wall:.2f} s; CPU: this "
              f"process {cpu:.2f} s, its children {child:.2f} s)")
    one = best["-j 1"][0]
    print(f"throughput against -j 1: worker processes {one / best['processes'][0]:.2f}x, "
          f"threads {one / best['threads'][0]:.2f}x (target: close to {args.jobs}x on "
          f"{args.jobs} idle cores); load average after {os.getloadavg()[0]:.2f}")
    print(f"the machine's capacity for {args.jobs} CPU-bound processes, in each repeat: "
          f"{', '.join(f'{c:.2f}x' for c in capacities)} (the ceiling of any ratio above)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
