"""The suite of a house game (spec/conformance.md 1.3): how long its cases take to generate, and
how a rerun from the cache starts beside a built-in ruleset's.

Run from the repository root::

    .venv/bin/python benchmarks/house_suite.py             # 7 rounds
    .venv/bin/python benchmarks/house_suite.py --runs 3

Two figures, each for every example house file of spec/examples:

* **generation**: ``napkit conform --ruleset-file FILE --list -q`` with an empty cache (a new
  ``NAPKIT_CACHE`` folder each run), whole process: the house file read and checked, its cases
  drawn and written, then listed. Issue 28's target: under 20 s on this machine.
* **a cached rerun's start**: ``napkit conform --ruleset-file FILE --case ID`` (one case of the
  game, the cache already holding its suite) against ``napkit conform --case ID`` (one case of
  the built-in suite, the same kind), both whole processes against the reference adapter,
  taking turns within each round, and each also as a ratio to the same interpreter started
  bare (``sys.executable -c "import json"``), the base of benchmarks/startup.py. Issue 28's
  target: a cached rerun starts as fast as a built-in ruleset's (a ratio of about 1).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "spec" / "examples").glob("house-*.json"))
BUILT_IN_CASE = "classic/legal/0000-hand"
GENERATION_TARGET = 20.0


def _napkit() -> list[str]:
    return [sys.executable, "-m", "napkit"]


def _timed(command: list[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, check=False)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: "
                         f"{done.stderr.decode(errors='replace')[-500:]}")
    return took


def _game_id(path: Path) -> str:
    import json

    return str(json.loads(path.read_text(encoding="utf-8"))["id"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    work = Path(tempfile.mkdtemp(prefix="napkit-house-bench-"))
    try:
        print(f"{len(EXAMPLES)} example house files, {args.runs} rounds; {sys.executable}")
        print()
        print(f"{'generation (empty cache)':<42}{'median s':>10}{'min':>8}{'max':>8}"
              f"{'target':>9}")
        for path in EXAMPLES:
            times = []
            for run in range(args.runs):
                fresh = {**env, "NAPKIT_CACHE": str(work / f"gen-{path.stem}-{run}")}
                times.append(_timed([*_napkit(), "conform", "--ruleset-file", str(path),
                                     "--list", "-q"], fresh))
            print(f"  {path.name:<40}{statistics.median(times):>10.2f}{min(times):>8.2f}"
                  f"{max(times):>8.2f}{f'< {GENERATION_TARGET:.0f} s':>9}")
        print()
        cached = {**env, "NAPKIT_CACHE": str(work / "kept")}
        commands: dict[str, list[str]] = {"bare": [sys.executable, "-c", "import json"]}
        commands[f"built-in: --case {BUILT_IN_CASE}"] = [*_napkit(), "conform", "--case",
                                                        BUILT_IN_CASE, "-q"]
        for path in EXAMPLES:
            case = f"{_game_id(path)}/legal/0000-hand"
            command = [*_napkit(), "conform", "--ruleset-file", str(path), "--case", case, "-q"]
            _timed(command, cached)  # the suite made and kept, and the bytecode written
            commands[f"{path.stem}: --case {case}"] = command
        _timed(commands[f"built-in: --case {BUILT_IN_CASE}"], cached)
        rows: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                rows[name].append(_timed(command, cached))
        base = statistics.median(rows["bare"])
        built_in = statistics.median(rows[f"built-in: --case {BUILT_IN_CASE}"])
        print(f"{'a rerun of one case (kept suite)':<62}{'median s':>10}{'x bare':>8}"
              f"{'x built-in':>12}")
        for name, times in rows.items():
            median = statistics.median(times)
            print(f"  {name:<60}{median:>10.3f}{median / base:>8.1f}"
                  f"{median / built_in:>12.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
