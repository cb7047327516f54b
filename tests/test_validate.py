"""Validating recorded hands and matches (napkit.validate): the corpus of good and bad files in
tests/fixtures/records, each bad one reported with its own path and rule, never a traceback,
and good records in the same batch still reported valid."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from napkit.validate import check_sources, report

from tests.fixtures.records import corpus

CORPUS = Path(corpus.__file__).parent
EXPECTED: dict[str, list[dict[str, Any]] | None] = json.loads(
    (CORPUS / "expected.json").read_text(encoding="utf-8"))


def test_the_corpus_regenerates_byte_for_byte() -> None:
    built = corpus.build()
    assert sorted(built) == sorted(EXPECTED)
    for name, (text, problems) in built.items():
        assert (CORPUS / name).read_text(encoding="utf-8") == text, f"{name} is out of date"
        assert EXPECTED[name] == problems


@pytest.mark.parametrize("name", sorted(n for n, p in EXPECTED.items() if p is None))
def test_good_records_are_valid(name: str) -> None:
    checked = list(check_sources([str(CORPUS / name)]))
    assert checked and all(c.valid for c in checked), [str(p) for c in checked
                                                       for p in c.problems]


@pytest.mark.parametrize("name", sorted(n for n, p in EXPECTED.items() if p is not None))
def test_each_bad_file_gets_its_own_message(name: str) -> None:
    expected = EXPECTED[name]
    assert expected is not None
    checked = list(check_sources([str(CORPUS / name)]))
    wanted = {(str(CORPUS / e["where"]), e["path"], e["rule"]) for e in expected}
    invalid = [c for c in checked if not c.valid]
    assert {c.where for c in invalid} == {w for w, _, _ in wanted}, "the wrong records failed"
    for c in invalid:
        assert len(c.problems) == 1, [str(p) for p in c.problems]
        problem = c.problems[0]
        assert any(c.where == w and problem.path.startswith(path) and problem.rule == rule
                   for w, path, rule in wanted), str(problem)
        assert problem.message and "Traceback" not in problem.message


def test_a_batch_reports_every_record_and_fails_if_one_is_bad() -> None:
    files = [str(CORPUS / n) for n in sorted(EXPECTED)]
    lines, ok = report(files)
    assert not ok
    bad = sum(1 for p in EXPECTED.values() if p)
    records = sum(1 for c in check_sources(files))
    assert lines[-1] == f"{records} records: {records - bad} valid, {bad} invalid"
    good_lines = [line for line in lines if ": valid " in line]
    assert len(good_lines) == records - bad
    # A good hand named after a bad one in the same batch is still valid.
    lines, ok = report([str(CORPUS / "bad-revoke.json"), str(CORPUS / "good-hand-peep.json")])
    assert not ok and any(line.endswith("good-hand-peep.json: valid hand (peep, 4 players)")
                          for line in lines)


def test_stdin_and_json_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (CORPUS / "good-batch.jsonl").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    lines, ok = report(["-"])
    assert ok and lines[-1] == "3 records: 3 valid, 0 invalid"
    assert lines[0].startswith("<stdin>:1: valid hand (pagat, 4 players)")


def test_unreadable_inputs(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    checked = {c.where: c for c in check_sources([str(missing), str(binary), str(empty)])}
    assert "cannot read" in checked[str(missing)].problems[0].message
    assert "not UTF-8" in checked[str(binary)].problems[0].message
    assert "not JSON" in checked[str(empty)].problems[0].message


def test_json_report() -> None:
    lines, ok = report([str(CORPUS / "bad-revoke.json")], as_json=True)
    document = json.loads("\n".join(lines))
    assert not ok and document[0]["valid"] is False
    assert document[0]["problems"][0]["rule"] == "NAP-8.1.1"
