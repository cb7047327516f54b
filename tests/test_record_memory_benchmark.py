"""The record-memory benchmark runs (no figure is asserted: they live in benchmarks/)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "record_memory.py"
spec = importlib.util.spec_from_file_location("record_memory", SCRIPT)
assert spec is not None and spec.loader is not None
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_it_reports_a_peak_and_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--sizes", "3"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split() == ["command", "hands", "peak", "MiB", "seconds", "ms", "a", "hand"]
    assert [row.split()[:2] for row in rows] == [["record", "3"], ["validate", "3"]]
    for row in rows:
        mib, seconds, per_hand = map(float, row.split()[2:])
        assert mib > 5 and seconds > 0 and per_hand > 0


def test_a_failing_command_stops_it() -> None:
    with pytest.raises(SystemExit, match="exited 2"):
        bench.peak([sys.executable, "-c", "raise SystemExit(2)"])
