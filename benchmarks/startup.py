"""Start-up: how long the commands a person reruns take, whole process, against a bare start of
the same Python.

Run from the repository root::

    .venv/bin/python benchmarks/startup.py              # 7 runs of each command
    .venv/bin/python benchmarks/startup.py --runs 3
    .venv/bin/python benchmarks/startup.py --whole      # and the whole suite, napkit conform

Each command is started as a new process, as a person or a script starts it, and timed from
its start to its exit (its imports, the spec and suite loading, the adapter's start included).
The base is the interpreter napkit runs on, started bare: ``sys.executable -c "import json"``
(not the ``python3`` a PATH finds, which may be a version manager's shim that costs several
bare starts before Python runs; it is timed too, as information, when it is another file).
The commands take turns within each round (the base first), so that a busy spell of the
machine slows them all; each figure is the median of the runs, and each ratio is to the
base's median in the same run. Issue 27's targets: ``napkit --help`` within 4x,
``napkit conform --case ID`` within 8x, every other command's start (``napkit COMMAND
--help``, and a cheap real run: ``rules list``, ``validate`` of one recorded hand) within 10x.

With ``--before DIR`` (a checkout of an earlier napkit, e.g. ``git worktree add /tmp/base
COMMIT``), each napkit command is timed twice in each round, once as this checkout's and once as
DIR's (its ``reference`` folder first on ``PYTHONPATH``), both started as ``python -m napkit``
by the same interpreter, taking turns: before and after in one run, side by side.

Bytecode is cached first, as a pip install leaves it: one untimed round runs every command
with ``PYTHONDONTWRITEBYTECODE`` taken out of its environment (so the ``__pycache__`` folders
are written where they are missing, as any run of napkit writes them), and every timed run
has the same environment.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ONE_CASE = "classic/illegal/0000-revoke"
SEARCHED = "dealer gave me 6 cards, redeal?"
BASE = "the interpreter alone"
#: napkit's commands, as napkit.cli lists them (each timed as ``napkit COMMAND --help``).
COMMANDS = ("rules", "play", "record", "validate", "perft", "replay", "explain", "adapter",
            "conform", "suite", "fuzz", "report")
HELP_TARGET, CASE_TARGET, OTHER_TARGET = 4.0, 8.0, 10.0


BEFORE = " (before)"  # the suffix of an earlier napkit's row (--before)


def napkit_command(module: bool = False) -> list[str]:
    """The napkit console script beside this Python, else (or with ``module``) ``python -m
    napkit``."""
    script = Path(sys.executable).with_name("napkit")
    return [str(script)] if script.exists() and not module else [sys.executable, "-m", "napkit"]


def environment(before: str | None = None) -> dict[str, str]:
    """The children's environment: this one, bytecode written and read (see the docstring);
    with ``before``, that checkout's napkit found first."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if before is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(Path(before, "reference").resolve()), *filter(None, [env.get("PYTHONPATH")])])
    return env


def commands(record: str | None = None, whole: bool = False, module: bool = False
             ) -> dict[str, tuple[list[str], float | None]]:
    """Each command timed, by name: its argv and its target (times the base; None: none).
    ``record`` is a recorded hand for ``napkit validate``; ``whole`` adds the whole suite;
    ``module``: napkit started as ``python -m napkit``."""
    napkit = napkit_command(module)
    named: dict[str, tuple[list[str], float | None]] = {
        BASE: ([sys.executable, "-c", "import json"], 1.0)}
    python3 = shutil.which("python3")
    if python3 and os.path.realpath(python3) != os.path.realpath(sys.executable):
        named['PATH\'s python3 -c "import json" (information)'] = (
            [python3, "-c", "import json"], None)
    named["napkit --help"] = ([*napkit, "--help"], HELP_TARGET)
    named[f"napkit conform --case {ONE_CASE}"] = ([*napkit, "conform", "--case", ONE_CASE],
                                                  CASE_TARGET)
    named["napkit rules list"] = ([*napkit, "rules", "list"], OTHER_TARGET)
    # no target: a search reads the law book, the rulesets and the players' questions and
    # indexes them, its own work more than a start (information, and --before's comparison)
    named[f'napkit rules search "{SEARCHED}"'] = ([*napkit, "rules", "search", SEARCHED], None)
    if record is not None:
        named["napkit validate HAND.json (one hand)"] = ([*napkit, "validate", record],
                                                         OTHER_TARGET)
    for command in COMMANDS:
        named[f"napkit {command} --help"] = ([*napkit, command, "--help"], OTHER_TARGET)
    if whole:
        named["napkit conform (the whole suite)"] = ([*napkit, "conform", "--quiet"], None)
    return named


def measure(named: Mapping[str, Sequence[str] | tuple[list[str], float | None]], runs: int,
            warm: bool = False, before: str | None = None) -> dict[str, list[float]]:
    """Wall seconds of each command, ``runs`` times, the commands taking turns (after one
    untimed round that caches bytecode, with ``warm``); a name ending in :data:`BEFORE` runs
    with ``before``'s napkit. SystemExit if one fails."""
    argvs = {name: list(value[0]) if isinstance(value, tuple) else list(value)
             for name, value in named.items()}
    env, env_before = environment(), environment(before)
    times: dict[str, list[float]] = {name: [] for name in argvs}
    for round_ in range(runs + (1 if warm else 0)):
        for name, argv in argvs.items():
            start = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, check=False,
                                  env=env_before if name.endswith(BEFORE) else env)
            took = time.perf_counter() - start
            if done.returncode != 0:
                raise SystemExit(f"{name} exited {done.returncode}: "
                                 f"{done.stderr.decode(errors='replace')[-400:]}")
            if round_ or not warm:
                times[name].append(took)
    return times


def report(times: Mapping[str, list[float]],
           targets: Mapping[str, float | None] | None = None) -> list[str]:
    """A line per command: its median, its ratio to the first's (the base), and its target
    with whether it is met."""
    names = list(times)
    bare = statistics.median(times[names[0]])
    width = max(len(n) for n in names)
    lines = [f"{'command':<{width}}  median s    x bare  target"]
    for name in names:
        median = statistics.median(times[name])
        ratio = median / bare
        target = (targets or {}).get(name)
        verdict = "" if target is None or name == names[0] else (
            f"  {target:.0f}x {'ok' if ratio <= target else 'OVER'}")
        lines.append(f"{name:<{width}}  {median:8.3f}  {ratio:7.1f}x{verdict}")
    return lines


def paired(named: Mapping[str, tuple[list[str], float | None]]
           ) -> dict[str, tuple[list[str], float | None]]:
    """Each napkit command followed by itself as the earlier napkit's (:data:`BEFORE`); the
    base and the information rows once."""
    out: dict[str, tuple[list[str], float | None]] = {}
    for name, (argv, target) in named.items():
        out[name] = (argv, target)
        if name.startswith("napkit "):
            out[name + BEFORE] = (argv, None)
    return out


def compared(times: Mapping[str, list[float]]) -> list[str]:
    """A line per napkit command: its median and ratio to the base before and after, and
    after over before."""
    names = [n for n in times if n.startswith("napkit ") and not n.endswith(BEFORE)]
    bare = statistics.median(times[BASE])
    width = max(len(n) for n in names)
    lines = [f"{'command':<{width}}  {'before s':>8}  {'after s':>8}  {'x bare':>13}  "
             "after/before"]
    for name in names:
        then, now = (statistics.median(times[n]) for n in (name + BEFORE, name))
        lines.append(f"{name:<{width}}  {then:8.3f}  {now:8.3f}  {then / bare:5.1f}x -> "
                     f"{now / bare:4.1f}x  {now / then:11.2f}")
    return lines


def recorded_hand(folder: str) -> str:
    """One recorded hand (``napkit record classic --seed 1``) in ``folder``: what validate
    reads."""
    path = os.path.join(folder, "hand.json")
    subprocess.run([*napkit_command(), "record", "classic", "--seed", "1", "-o", path],
                   check=True, capture_output=True, env=environment())
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each command (default 7)")
    parser.add_argument("--whole", action="store_true",
                        help="time the whole suite too (napkit conform: seconds, not a start)")
    parser.add_argument("--before", metavar="DIR",
                        help="a checkout of an earlier napkit, timed in the same rounds")
    args = parser.parse_args(argv)
    if args.before is not None and not Path(args.before, "reference", "napkit").is_dir():
        parser.error(f"--before {args.before}: no reference/napkit in it")
    with tempfile.TemporaryDirectory() as folder:
        named = commands(recorded_hand(folder), args.whole, module=args.before is not None)
        if args.before is not None:
            named = paired(named)
        times = measure(named, args.runs, warm=True, before=args.before)
    print(f"base: {sys.executable} -c \"import json\"; median of {args.runs} runs each")
    shown = {n: t for n, t in times.items() if not n.endswith(BEFORE)}
    for line in report(shown, {name: target for name, (_, target) in named.items()}):
        print(line)
    if args.before is not None:
        print(f"\nbefore: {args.before}; both as {sys.executable} -m napkit")
        for line in compared(times):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
