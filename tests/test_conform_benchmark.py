"""The conformance throughput benchmark runs: its cases pass both ways, in this process and
through the protocol. No timing is asserted (speed lives only in benchmarks/)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "conform_throughput.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("conform_throughput", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("conform_throughput", module)
    spec.loader.exec_module(module)
    return module


bench = _load()


def test_the_made_cases_are_of_every_hand_kind_and_pass_both_ways(
        capsys: pytest.CaptureFixture[str]) -> None:
    cases = bench.make_cases(12, 3)
    assert len(cases) == 12 and len({c.id for c in cases}) == 12
    assert set(Counter(c.kind for c in cases)) == {"legal", "outcome", "illegal"}
    assert {c.ruleset for c in cases} == {r for r, _ in bench.TABLES}
    assert bench.main(["--made", "12", "--repeats", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("12 cases made from random hands, ")
    assert out[1].startswith("in-process ") and out[2].startswith("protocol ")
    assert out[3].startswith("protocol/in-process time per case: ")


def test_the_suite_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = Path(__file__).parent / "fixtures" / "conformance"
    assert bench.main(["--suite", str(fixtures), "--repeats", "1"]) == 0
    assert capsys.readouterr().out.startswith(f"5 cases of {fixtures}, ")
    assert bench.main(["--suite", str(tmp_path)]) == 1
    assert "no case in" in capsys.readouterr().err
