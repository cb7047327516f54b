"""How fast ``napkit fuzz`` finds each mutant of conformance/mutants, and how small it makes the
reproducer.

    .venv/bin/python benchmarks/fuzz_mutants.py                     # every mutant, 20 s each
    .venv/bin/python benchmarks/fuzz_mutants.py --seconds 20 --seed 1 revoke-allowed ...
    .venv/bin/python benchmarks/fuzz_mutants.py --markdown          # the table for the README

For each mutant it runs ``napkit fuzz --seconds S --seed N --ruleset R...`` (R: the rulesets
the mutant affects) against ``python conformance/mutants/adapter.py NAME``, one process at a
time, then reruns the reproducer it wrote with ``napkit conform --case FILE`` against the same
mutant, which must fail. It prints, per mutant, the seconds to find (from the start of the
campaign to the first disagreement, shrinking not counted), the steps of the episode before
and after shrinking, and whether the rerun failed; then the medians. Exit status 1 if a mutant
was not found within the budget or a reproducer passed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
MUTANT = ROOT / "conformance" / "mutants" / "adapter.py"


def napkit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "napkit", *args], capture_output=True,
                          text=True, cwd=ROOT, check=False)


def one(name: str, rulesets: tuple[str, ...], seconds: float, seed: int, folder: Path
        ) -> dict[str, object]:
    report = folder / f"{name}.report.json"
    case = folder / f"{name}.case.json"
    command = [sys.executable, str(MUTANT), name]
    # --first: the time to find a mutant is the time to its first disagreement.
    args = ["fuzz", "--first", "--seconds", str(seconds), "--seed", str(seed), "-q",
            "--shrink-seconds", "15", "--json", str(report), "-o", str(case)]
    for ruleset in rulesets:
        args += ["--ruleset", ruleset]
    began = time.monotonic()
    run = napkit(*args, "--", *command)
    wall = time.monotonic() - began
    row: dict[str, object] = {"mutant": name, "found": False, "wall": round(wall, 1)}
    if not report.exists():
        row["error"] = (run.stderr or run.stdout).strip().splitlines()[-1:]
        return row
    data = json.loads(report.read_text())
    found = data.get("disagreement")
    if found is None:
        row["episodes"] = data["episodes"]
        return row
    row.update(found=True, seconds=found["seconds_to_find"], episodes=found["episode"] + 1,
               before=found["steps_before_shrinking"], after=len(found["case"]["steps"]),
               kind=found["case"]["kind"])
    rerun = napkit("conform", "--case", str(case), "-q", "--", *command)
    row["rerun_fails"] = rerun.returncode == 1 and "FAILED" in rerun.stdout
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mutants", nargs="*", help="only these mutants")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    from conformance.mutants import REGISTRY

    names = args.mutants or sorted(REGISTRY)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, name in enumerate(names, 1):
            row = one(name, REGISTRY[name].rulesets, args.seconds, args.seed, Path(tmp))
            rows.append(row)
            took = f"{row['seconds']:.1f} s" if row["found"] else "NOT FOUND"
            steps = f"{row['before']} -> {row['after']} steps" if row["found"] else ""
            rerun = "" if not row["found"] else (
                "rerun fails" if row.get("rerun_fails") else "RERUN PASSES")
            print(f"[{i}/{len(names)}] {name:<34} {took:>10}  {steps:<22} {rerun}",
                  flush=True)
    found = [r for r in rows if r["found"]]
    bad = [r for r in rows if not r["found"] or not r.get("rerun_fails")]
    if found:
        times = [float(r["seconds"]) for r in found]  # type: ignore[arg-type]
        sizes = [int(r["after"]) for r in found]  # type: ignore[call-overload]
        print(f"\n{len(found)}/{len(rows)} mutants found within {args.seconds:g} s each; "
              f"median time to find {statistics.median(times):.2f} s (max {max(times):.1f} s); "
              f"median reproducer {statistics.median(sizes):g} steps (max {max(sizes)})")
    if args.markdown:
        print("\n| mutant | found after | episodes | steps before | steps after | kind |")
        print("| --- | --- | --- | --- | --- | --- |")
        for r in rows:
            if r["found"]:
                print(f"| {r['mutant']} | {float(r['seconds']):.2f} s | {r['episodes']} | "  # type: ignore[arg-type]
                      f"{r['before']} | {r['after']} | {r['kind']} |")
            else:
                print(f"| {r['mutant']} | not found | {r.get('episodes', '-')} | | | |")
    for r in bad:
        print(f"problem: {r['mutant']}: " + ("not found" if not r["found"] else
                                            "the reproducer passes under napkit conform --case"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
