"""The start-up benchmark runs (no timing is asserted: speed lives in benchmarks/)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from napkit.cli import COMMANDS

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
    assert set(bench.commands()) >= {"napkit --help", "napkit rules list",
                                     f"napkit conform --case {bench.ONE_CASE}"}
    case = Path(__file__).resolve().parent.parent / "conformance" / "cases"
    assert (case / f"{bench.ONE_CASE}.json").is_file()


def test_the_base_is_this_interpreter_started_bare() -> None:
    # Not the python3 a PATH finds (a version manager's shim costs several bare starts).
    named = bench.commands("hand.json", whole=True)
    base, (argv, target) = next(iter(named.items()))
    assert base == bench.BASE and argv == [sys.executable, "-c", "import json"]
    assert target == 1.0
    assert named["napkit --help"][1] == 4.0
    assert named[f"napkit conform --case {bench.ONE_CASE}"][1] == 8.0
    assert named["napkit validate HAND.json (one hand)"][0][-2:] == ["validate", "hand.json"]
    assert named["napkit conform (the whole suite)"][1] is None  # no start: no target
    assert {f"napkit {c} --help" for c in COMMANDS} <= set(named)
    assert all(t == 10.0 for n, (_, t) in named.items()
               if n.endswith(" --help") and n != "napkit --help")


def test_it_lists_napkit_s_commands() -> None:
    assert bench.COMMANDS == COMMANDS


def test_the_children_write_and_read_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert "PYTHONDONTWRITEBYTECODE" not in bench.environment()


def test_the_report_says_which_targets_are_met() -> None:
    lines = bench.report({"base": [1.0, 1.0], "quick": [3.0, 3.0], "slow": [5.0, 5.0],
                          "info": [9.0, 9.0]}, {"base": 1.0, "quick": 4.0, "slow": 4.0,
                                                "info": None})
    assert lines[2].endswith("3.0x  4x ok") and lines[3].endswith("5.0x  4x OVER")
    assert lines[4].endswith("9.0x")


def test_a_warm_round_is_not_counted() -> None:
    times = bench.measure({"bare": [sys.executable, "-c", "import json"]}, 2, warm=True)
    assert len(times["bare"]) == 2


def test_a_failing_command_stops_the_run() -> None:
    with pytest.raises(SystemExit, match="exited 3"):
        bench.measure({"fails": [sys.executable, "-c", "raise SystemExit(3)"]}, 1)


def test_the_parallel_benchmark_times_the_whole_commands() -> None:
    # benchmarks/conform_parallel.py --whole: -j 1 and -j N as a person runs them.
    path = SCRIPT.with_name("conform_parallel.py")
    spec = importlib.util.spec_from_file_location("conform_parallel_benchmark", path)
    assert spec is not None and spec.loader is not None
    parallel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(parallel)
    commands = parallel.whole_commands(2, ["classic"])
    assert list(commands) == ["-j 1", "-j 2"]
    assert commands["-j 2"][-5:] == ["--", sys.executable, "-m", "napkit", "adapter"]
    assert commands["-j 1"][commands["-j 1"].index("-j") + 1] == "1"
    assert commands["-j 2"][commands["-j 2"].index("-j") + 1] == "2"
    assert commands["-j 2"][commands["-j 2"].index("--ruleset") + 1] == "classic"
    times = parallel.time_whole({"ok": [sys.executable, "-c", "pass"]}, 2)
    assert len(times["ok"]) == 2


def test_before_and_after_are_timed_in_the_same_rounds(tmp_path: Path) -> None:
    # --before DIR: each napkit command twice a round, the second as DIR's napkit.
    named = bench.paired(bench.commands(module=True))
    assert next(iter(named)) == bench.BASE and bench.BASE + bench.BEFORE not in named
    assert named["napkit --help (before)"][0] == named["napkit --help"][0]
    assert named["napkit --help"][0][:3] == [sys.executable, "-m", "napkit"]
    env = bench.environment(str(tmp_path))
    assert env["PYTHONPATH"].split(":")[0] == str((tmp_path / "reference").resolve())
    # A program that says where it runs from: the before row sees DIR's reference first.
    probe = [sys.executable, "-c", "import sys; sys.exit(0 if sys.path[1].endswith('reference')"
                                   " else 1)"]
    times = bench.measure({bench.BASE: probe[:2] + ["pass"], "napkit x (before)": probe}, 1,
                          before=str(tmp_path))
    assert len(times["napkit x (before)"]) == 1
    lines = bench.compared({bench.BASE: [1.0], "napkit x": [2.0], "napkit x (before)": [4.0]})
    assert lines[1].split()[-1] == "0.50" and "4.0x ->  2.0x" in lines[1]
