"""The recording-throughput benchmark runs (no figure is asserted: they live in benchmarks/).

Its loops must do what its ratios claim: the replay plays again the very hands the players
played, and the record loop writes a record of every hand.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from napkit.engine.game import Game
from napkit.formats.recording import table_hands
from napkit.formats.records import check_hand_record

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))  # the script takes the engine loop from engine_throughput
spec = importlib.util.spec_from_file_location("record_throughput",
                                              BENCHMARKS / "record_throughput.py")
assert spec is not None and spec.loader is not None
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_the_replay_plays_the_players_hands_again() -> None:
    game = Game.create("pagat", 4)
    played = bench.table_actions(game, 6)
    assert bench.replay_hands(game, played, 9) == 9  # round the six, and three again
    for (dealer, actions), hand in zip(played, table_hands(game, bench.SEED, hands=6),
                                       strict=True):
        state = game.new_hand(dealer)
        for action in actions:
            state = state.apply(action)
        assert state.is_over() and state.result == hand.result


def test_the_record_loop_writes_a_valid_record_of_every_hand() -> None:
    lines: list[str] = []
    assert bench.record_hands(Game.create("pagat", 4), 5, lines.append) == 5
    records = [json.loads(line) for line in "".join(lines).splitlines()]
    assert len(records) == 5
    assert all(check_hand_record(record) == [] for record in records)


def test_main_prints_a_row_per_table(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--seconds", "0.01", "--repeats", "1"])
    out = capsys.readouterr().out
    for label, _, _ in bench.CASES:
        row = next(x for x in out.splitlines() if x.startswith(label))
        *times, by_engine, by_players = row[len(label):].split()
        assert len(times) == 4 and all(float(t) > 0 for t in times)
        assert by_engine.endswith("x") and by_players.endswith("x")
        record = float(times[3])
        assert float(by_engine[:-1]) == pytest.approx(record / float(times[0]), rel=0.02, abs=0.01)
