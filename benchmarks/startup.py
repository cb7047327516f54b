"""Start-up: how long the commands a person reruns take, whole process, against a bare Python.

Run from the repository root::

    .venv/bin/python benchmarks/startup.py              # 7 runs of each command
    .venv/bin/python benchmarks/startup.py --runs 3

Each command is started as a new process, as a person or a script starts it, and timed from
its start to its exit (its imports, the spec and suite loading, the adapter's start included).
The commands take turns within each round (bare Python, then each napkit command), so that a
busy spell of the machine slows them all; each figure is the median of the runs, and each
ratio is to the median of ``python3 -c "import json"`` measured in the same run, which is
what issue 12's targets are stated against: ``napkit conform --case ID`` within 8x,
``napkit --help`` within 4x. That ``python3`` is the one a person's PATH finds (on this
machine a version manager's shim, which costs tens of milliseconds before Python starts);
the interpreter napkit runs on is timed too, on the second line, for the cost of Python alone.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ONE_CASE = "classic/illegal/0000-revoke"


def napkit_command() -> list[str]:
    """The napkit console script beside this Python, else ``python -m napkit``."""
    script = Path(sys.executable).with_name("napkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "napkit"]


def commands() -> dict[str, list[str]]:
    napkit = napkit_command()
    python3 = shutil.which("python3") or sys.executable
    return {
        'python3 -c "import json"': [python3, "-c", "import json"],
        "the interpreter alone": [sys.executable, "-c", "import json"],
        "napkit --help": [*napkit, "--help"],
        "napkit rules list": [*napkit, "rules", "list"],
        f"napkit conform --case {ONE_CASE}": [*napkit, "conform", "--case", ONE_CASE],
        "napkit conform": [*napkit, "conform", "--quiet"],
    }


def measure(named: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """Wall seconds of each command, ``runs`` times, the commands taking turns."""
    times: dict[str, list[float]] = {name: [] for name in named}
    for _ in range(runs):
        for name, argv in named.items():
            start = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, check=False)
            times[name].append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"{name} exited {done.returncode}: "
                                 f"{done.stderr.decode(errors='replace')[-400:]}")
    return times


def report(times: dict[str, list[float]]) -> list[str]:
    names = list(times)
    bare = statistics.median(times[names[0]])
    width = max(len(n) for n in names)
    lines = [f"{'command':<{width}}  median s    x bare"]
    for name in names:
        median = statistics.median(times[name])
        lines.append(f"{name:<{width}}  {median:8.3f}  {median / bare:7.1f}x")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each command (default 7)")
    args = parser.parse_args(argv)
    for line in report(measure(commands(), args.runs)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
