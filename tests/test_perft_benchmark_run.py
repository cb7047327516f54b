"""The perft benchmark runs (benchmarks/perft.py): no timing is asserted here (speed lives only
in benchmarks/); a few counts prove that the script counts what the files publish, and that its
plain recursion, the yardstick of bulk counting, counts the same."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from napkit.conform.perft.count import perft, published

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "perft.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("perft_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("perft_benchmark", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = _load()


def test_one_slow_count_a_ruleset_is_chosen_and_agrees() -> None:
    entries = bench.slow_counts(published(["classic", "peep"]), quick=True)
    assert sorted(p.ruleset for p, _, _ in entries) == ["classic", "peep"]
    assert all(count > 5000 for _, _, count in entries)
    small = [(p, d - 1, c.count) for p, d, _ in entries for c in p.counts if c.depth == d - 1]
    tally = bench.time_counts(small)
    assert tally.counts == 2 and tally.wrong == 0
    assert tally.nodes == sum(count for _, _, count in small)


def test_the_plain_recursion_counts_as_perft_does() -> None:
    for position in published(["pagat-floater/*-lead", "peep/*-exchange"]):
        state = position.state()
        for depth in range(5):
            assert bench.plain(state, depth) == perft(state, depth)
    wrong = bench.time_counts([(position, 2, perft(position.state(), 2) + 1)], bulk=False)
    assert wrong.wrong == 1
