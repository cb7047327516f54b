"""Perft throughput: nodes per second of napkit's perft over the published counts, the cost of
the independent walk through the protocol, and which mutants change a published count.

Run from the repository root::

    .venv/bin/python benchmarks/perft.py                  # every slow count, by ruleset
    .venv/bin/python benchmarks/perft.py --quick          # one slow count per ruleset
    .venv/bin/python benchmarks/perft.py --walk           # and the walk through the protocol
    .venv/bin/python benchmarks/perft.py --mutants        # and which mutants change a count

1. **Slow counts.** Every published count marked ``slow`` (spec/conformance.md 5.2: above 5,000,
   at most 100,000, which the test suite leaves out) is counted by
   :func:`napkit.conform.perft.count.perft` and compared with the file; the table gives, by ruleset,
   the counts checked, the nodes (the sum of the counts), the seconds and nodes per second.
   Every count must agree (exit status 1 if one does not).
2. **Bulk counting.** The same counts by a plain recursion that plays every action of the last
   level too (as a program without bulk counting would): nodes per second each way and the
   ratio.
3. ``--walk``: nodes per second of ``conformance/walk_perft.py``, which replays the position and
   the path to every node through a program over the adapter protocol (it has no undo), on the
   classic positions to counts of at most 300, through ``js-classic`` (Node.js) and through
   napkit's own adapter (``python -m napkit.protocol.adapter``): why the independent walk keeps to
   small
   depths.
4. ``--mutants``: for every mutant of ``conformance/mutants``, how many positions of its
   rulesets have a published count of at most 500 that it changes (a position whose steps
   it refuses counts as changed): what perft catches and what only the outcome and match cases
   can (payments, pools, the pack between hands: perft stops at chance and counts no payment).

Each timing is one run (``time.perf_counter``); on a shared machine repeat a run before
trusting a difference of a few per cent.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from napkit.conform.perft.count import Position, State, perft, published, published_files, warm
from napkit.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the conformance package (the walker, the mutants)


@dataclass
class Tally:
    """Counts checked: how many, their nodes, the seconds, and how many differ."""

    counts: int = 0
    nodes: int = 0
    seconds: float = 0.0
    wrong: int = 0

    def add(self, other: Tally) -> None:
        self.counts += other.counts
        self.nodes += other.nodes
        self.seconds += other.seconds
        self.wrong += other.wrong

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


def plain(state: State, depth: int) -> int:
    """The count without bulk counting: every action played, the last level's too."""
    if depth == 0 or state.turn < 0:
        return 1
    return sum(plain(state.apply(a), depth - 1) for a in state.legal_actions())


def slow_counts(positions: Sequence[Position], quick: bool = False
                ) -> list[tuple[Position, int, int]]:
    """(position, depth, published count) for every slow count (one a ruleset with
    ``quick``)."""
    found = [(p, c.depth, c.count) for p in positions for c in p.counts if c.slow]
    if quick:
        first: dict[str, tuple[Position, int, int]] = {}
        for entry in found:
            first.setdefault(entry[0].ruleset, entry)
        found = list(first.values())
    return found


def time_counts(entries: Sequence[tuple[Position, int, int]], bulk: bool = True) -> Tally:
    """Count each entry (napkit's perft, or the plain recursion) and compare."""
    tally = Tally()
    count_of = perft if bulk else plain
    for position, depth, expected in entries:
        state = position.state()
        warm(state)
        began = time.perf_counter()
        found = count_of(state, depth)
        tally.seconds += time.perf_counter() - began
        tally.counts += 1
        tally.nodes += found
        tally.wrong += found != expected
    return tally


def walk_rate(command: list[str], max_count: int = 300) -> Tally:
    """The independent walker through a program, on the classic positions."""
    from conformance import walk_perft

    tally = Tally()
    program = walk_perft.Program(command)
    try:
        for position in walk_perft.positions([], ["classic"]):
            began = time.perf_counter()
            results = walk_perft.check(program, position, max_count)
            tally.seconds += time.perf_counter() - began
            tally.counts += len(results)
            tally.nodes += max((found for _, found, _ in results), default=0)
            tally.wrong += sum(found != count for _, found, count in results)
    finally:
        program.close()
    return tally


def mutant_table() -> list[tuple[str, str, int, int]]:
    """(mutant, scope, positions changed, positions of its rulesets) for every mutant."""
    from conformance.mutants import REGISTRY

    rows = []
    for name, mutant in sorted(REGISTRY.items()):
        chosen = published([f"{r}/*" for r in mutant.rulesets])
        changed = 0
        with mutant.applied():
            for position in chosen:
                small = [c for c in position.counts if c.count <= 500]
                try:
                    state = position.state()
                    changed += any(perft(state, c.depth) != c.count for c in small)
                except (SpecError, Exception):  # a refused step, or a listed action refused
                    changed += 1
        rows.append((name, mutant.scope, changed, len(chosen)))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="one slow count per ruleset")
    parser.add_argument("--walk", action="store_true",
                        help="time the independent walk through the protocol too")
    parser.add_argument("--mutants", action="store_true",
                        help="which mutants change a published count")
    args = parser.parse_args(argv)
    rulesets = sorted(published_files())
    print(f"{'ruleset':<16} {'counts':>6} {'nodes':>11} {'seconds':>8} {'nodes/s':>10}")
    total = Tally()
    entries_all = []
    for ruleset in rulesets:
        entries = slow_counts(published([ruleset]), args.quick)
        entries_all += entries
        tally = time_counts(entries)
        total.add(tally)
        print(f"{ruleset:<16} {tally.counts:>6} {tally.nodes:>11,} {tally.seconds:>8.2f} "
              f"{tally.rate:>10,.0f}" + (f"  {tally.wrong} DIFFER" if tally.wrong else ""))
    print(f"{'all':<16} {total.counts:>6} {total.nodes:>11,} {total.seconds:>8.2f} "
          f"{total.rate:>10,.0f}  ({'every count agrees' if not total.wrong else 'DIFFERS'})")
    sample = slow_counts(published(["*"]), quick=True)
    bulk, naive = time_counts(sample), time_counts(sample, bulk=False)
    print(f"\nbulk counting: {bulk.rate:,.0f} nodes/s; playing the last level too: "
          f"{naive.rate:,.0f} nodes/s; {naive.seconds / bulk.seconds:.1f}x the time "
          f"({bulk.counts} counts, {bulk.nodes:,} nodes)")
    if args.walk:
        print()
        node = shutil.which("node")
        programs = {"napkit adapter": [sys.executable, "-m", "napkit.protocol.adapter"]}
        if node is not None:
            programs["js-classic"] = [node, str(ROOT / "conformance" / "adapters" /
                                                "js-classic" / "adapter.js")]
        for name, command in programs.items():
            tally = walk_rate(command)
            print(f"walk through {name:<15} {tally.counts:>4} counts, {tally.nodes:>7,} nodes "
                  f"(the deepest of each), {tally.seconds:6.2f} s, {tally.rate:>8,.0f} nodes/s"
                  + (f"  {tally.wrong} DIFFER" if tally.wrong else ""))
    if args.mutants:
        print()
        rows = mutant_table()
        for name, scope, changed, of in rows:
            print(f"{name:<36} {scope:<6} {changed:>4}/{of:<4} positions changed")
        caught = [r for r in rows if r[2]]
        print(f"{len(caught)} of {len(rows)} mutants change a published count")
    return 1 if total.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
