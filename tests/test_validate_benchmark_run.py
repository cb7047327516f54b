"""The validation benchmark runs (benchmarks/validate_throughput.py): its records cover every
ruleset and are valid, its candidates are compared with jsonschema before any figure, and it
prints a figure for every timing. No timing is asserted here (speed lives only in benchmarks/)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from napkit.spec.catalog import default_spec

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "validate_throughput.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("validate_throughput", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("validate_throughput", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = _load()


def test_the_records_cover_every_ruleset_and_repeat_for_a_seed() -> None:
    corpus = bench.build(len(default_spec().rulesets), 7)
    assert {r for r, _ in corpus.tables} == set(default_spec().rulesets)
    assert all(r["format"] == "napkit-hand/1" for r in corpus.records)
    assert bench.build(len(default_spec().rulesets), 7).lines == corpus.lines


def test_the_probes_are_broken_copies_of_a_good_record() -> None:
    good = bench.build(1, 7).records[0]
    probes = bench.probes(good)
    assert len({where for where, _, _ in probes}) == len(probes)
    # json.dumps tells 0.0 from 0 (one probe's change), where == does not
    assert all(name == "hand-record" and json.dumps(record) != json.dumps(good)
               for _, name, record in probes)


def test_main_compares_before_it_times_and_prints_every_figure(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--records", "12", "--repeats", "1"])
    out = capsys.readouterr().out
    agreement = out.index("agreement with jsonschema")
    table = out.index("records/s")
    assert agreement < table
    assert "every timing found every record valid" in out
    rows = [line for line in out[table:].splitlines() if line.startswith("(")]
    assert any(row.startswith("(a) schema: jsonschema ") for row in rows)
    assert any(row.startswith("(b) replay") for row in rows)
    assert any(row.startswith("(c) napkit validate") for row in rows)
    for row in rows:
        rate = row[bench.WIDTH:].split()[0]
        assert float(rate.replace(",", "")) > 0, row
    if importlib.util.find_spec("jsonschema_rs") is not None:
        assert "UNSUITABLE" not in out.split("jsonschema-rs", 1)[1].splitlines()[0]
