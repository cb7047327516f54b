"""Peak memory of ``napkit record`` and ``napkit validate`` at growing numbers of hands: it
must stay flat.

Run from the repository root::

    .venv/bin/python benchmarks/record_memory.py                        # 1,000, 10,000, 100,000
    .venv/bin/python benchmarks/record_memory.py --sizes 1000 10000

Each size is one ``napkit record pagat --hands N --seed 1 -o FILE`` started as a new process,
then ``napkit validate --quiet FILE`` on what it wrote; each one's peak resident memory is the
operating system's own figure for that child (``os.wait4``), its time the wall clock around
it. A recording that writes each hand as it ends, and a validation that reads and reports a
record at a time, hold one record at a time: their peaks should not grow with N.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


def napkit_command() -> list[str]:
    script = Path(sys.executable).with_name("napkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "napkit"]


def peak(argv: list[str]) -> tuple[float, float]:
    """(peak resident MiB, wall seconds) of one run of ``argv``."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    error = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {child.returncode}: {error[-400:]}")
    return usage.ru_maxrss / 1024, seconds  # ru_maxrss is in KiB on Linux


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--ruleset", default="pagat")
    args = parser.parse_args(argv)
    print(f"{'command':<9} {'hands':>9}  {'peak MiB':>9}  {'seconds':>8}  {'ms a hand':>9}")
    napkit = napkit_command()
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            target = str(Path(folder) / f"{n}.jsonl")
            for command, line in (
                    ("record", [*napkit, "record", args.ruleset, "--hands", str(n), "--seed",
                                "1", "-o", target]),
                    ("validate", [*napkit, "validate", "--quiet", target])):
                mib, seconds = peak(line)
                print(f"{command:<9} {n:>9,}  {mib:>9.1f}  {seconds:>8.1f}  "
                      f"{seconds / n * 1000:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
