"""Write the generated cases of the conformance suite (spec/conformance.md, part 1).

    python conformance/generate.py                 # (re)write conformance/cases/
    python conformance/generate.py --out DIR       # write them under DIR instead
    python conformance/generate.py --matrix        # print the rule-by-ruleset matrix of the
                                                   # cases under conformance/cases/ (or --out)

The cases are drawn by :mod:`napkit.conform.suite.generate` (how, and for any ruleset, is said
there) for every ruleset of the spec. Running this again gives byte-identical files: seeds are
fixed, keys sorted, formatting indented and stable. It first deletes the files it wrote before
(those tagged ``generated``) and never touches the hand-written ones (tagged ``handworked``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from napkit.conform.suite.generate import GENERATOR, PER_RULESET, write_suite

CASES = Path(__file__).resolve().parent / "cases"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=GENERATOR, description="Write the generated conformance cases (byte for byte the "
                                    "same every run), or print the coverage matrix.")
    parser.add_argument("--out", type=Path, default=CASES,
                        help="the cases folder (default: conformance/cases)")
    parser.add_argument("--matrix", action="store_true",
                        help="print the rule-by-ruleset matrix of case counts of the cases "
                             "already there; exit 1 if a cell is empty")
    args = parser.parse_args(argv)
    if args.matrix:
        from napkit.conform.run.matrix import breach_matrix, main_matrix
        from napkit.conform.suite.cases import load_suite

        cases, problems = load_suite(args.out)
        for problem in problems:
            print(problem, file=sys.stderr)
        lines, empty = main_matrix(cases)
        breaches, holes = breach_matrix(cases)
        print("\n".join([*lines, "", *breaches]))
        return 1 if empty or holes or problems else 0
    try:
        counts = write_suite(args.out)
    except OSError as exc:  # a hand-written case in the way, a folder that cannot be written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{GENERATOR}: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    total = sum(counts.values())
    print(f"wrote {total} generated cases under {args.out}: "
          + ", ".join(f"{counts.get(k, 0)} {k}" for k in PER_RULESET))
    return 0


if __name__ == "__main__":
    sys.exit(main())
