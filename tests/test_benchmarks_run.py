"""The throughput benchmark runs: both of its loops play finished hands, and the same ones.

No timing is asserted here (speed lives only in benchmarks/); a few hands each prove that the
script works and that its bare loop plays the same hands as the engine for the same seed, so
that its ratio compares like with like.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from napkit.engine.game import Game

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "engine_throughput.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("engine_throughput", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("engine_throughput", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = _load()


@pytest.mark.parametrize(("ruleset", "players"), [(r, n) for _, r, n in bench.CASES])
def test_both_loops_finish_the_same_hands(ruleset: str, players: int) -> None:
    game = Game.create(ruleset, players)
    rules = bench.BareRules.of(game)
    for seed in (1, 2, 3):
        api: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        bare: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        assert bench.api_hands(game, 12, seed, api) == 12
        assert bench.bare_hands(rules, 12, seed, bare) == 12
        assert len(api) == len(bare) == 12
        for declarer, winners, net in api:
            assert len(net) == players
            if declarer >= 0:
                assert len(winners) == 5
                assert all(0 <= w < players for w in winners)
        assert any(declarer >= 0 for declarer, _, _ in api)
        assert api == bare


def test_main_prints_a_line_per_case(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--seconds", "0.01", "--repeats", "1"])
    out = capsys.readouterr().out
    for label, _, _ in bench.CASES:
        line = next(x for x in out.splitlines() if x.startswith(label))
        api_rate, bare_rate, ratio = line[len(label):].split()
        assert float(api_rate.replace(",", "")) > 0
        assert float(bare_rate.replace(",", "")) > 0
        assert ratio.endswith("x")
