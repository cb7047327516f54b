"""The start-up benchmark runs (no timing is asserted: speed lives in benchmarks/)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "startup.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("startup_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _load()


def test_it_times_each_command_and_reports_ratios() -> None:
    named = {"bare": [sys.executable, "-c", "import json"],
             "napkit --help": [*bench.napkit_command(), "--help"]}
    times = bench.measure(named, 2)
    assert [len(v) for v in times.values()] == [2, 2]
    lines = bench.report(times)
    assert lines[1].split()[0] == "bare" and lines[1].endswith("1.0x")
    assert lines[2].startswith("napkit --help")


def test_the_commands_it_times_exist() -> None:
    assert set(bench.commands()) >= {"napkit --help", "napkit rules list", "napkit conform",
                                     f"napkit conform --case {bench.ONE_CASE}"}
    case = Path(__file__).resolve().parent.parent / "conformance" / "cases"
    assert (case / f"{bench.ONE_CASE}.json").is_file()


def test_a_failing_command_stops_the_run() -> None:
    with pytest.raises(SystemExit, match="exited 3"):
        bench.measure({"fails": [sys.executable, "-c", "raise SystemExit(3)"]}, 1)
