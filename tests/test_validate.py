"""Validating recorded hands and matches (napkit.formats.validate): the corpus of good and bad
files in
tests/fixtures/records, each bad one reported with its own path and rule, never a traceback,
and good records in the same batch still reported valid."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import EXIT_PROBLEMS, EXIT_USAGE, main
from napkit.formats.validate import check_sources, report

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


# --- napkit validate, through the command line ---------------------------------------------------
Capture = pytest.CaptureFixture[str]
BAD = sorted(n for n, p in EXPECTED.items() if p is not None)
GOOD = sorted(n for n, p in EXPECTED.items() if p is None)


def validate(capsys: Capture, *argv: str) -> tuple[int, list[str], str]:
    code = main(["validate", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


@pytest.mark.parametrize("name", BAD)
def test_the_command_names_each_bad_files_path_and_rule(name: str, capsys: Capture) -> None:
    expected = EXPECTED[name]
    assert expected is not None
    code, lines, err = validate(capsys, str(CORPUS / name))
    assert code == EXIT_PROBLEMS and err == ""
    for e in expected:
        # FILE[:LINE]: PATH: [RULE: ]message, the path as expected.json gives its start
        where = f"{CORPUS / e['where']}: {e['path']}"
        found = [line for line in lines if line.startswith(where)]
        assert found, f"nothing reported at {where}: {lines}"
        after = found[0][len(where):].split(": ", 1)[-1]  # the rule id, if any, comes first
        if e["rule"] is not None:
            assert after.startswith(f"{e['rule']}: ") and len(after) > len(e["rule"]) + 2
        else:
            assert not after.startswith("NAP-") and after, found[0]
    assert not any("Traceback" in line for line in lines)


def test_a_batch_through_the_command(capsys: Capture) -> None:
    files = [str(CORPUS / n) for n in sorted(EXPECTED)]
    code, lines, err = validate(capsys, *files)
    assert code == EXIT_PROBLEMS and err == ""
    for name in GOOD:  # every good record is still reported valid, bad ones beside it
        assert any(line.startswith(f"{CORPUS / name}") and ": valid " in line
                   for line in lines), name
    for name in BAD:
        assert not any(line.startswith(f"{CORPUS / name}: valid") for line in lines), name
    # bad-batch-one-line.jsonl: its good lines 1 and 3 are valid, line 2 is not
    batch = CORPUS / "bad-batch-one-line.jsonl"
    assert f"{batch}:1: valid hand (pagat, 4 players)" in lines
    assert f"{batch}:3: valid hand (peep, 4 players)" in lines
    assert any(line.startswith(f"{batch}:2: column ") for line in lines)
    records = len(list(check_sources(files)))
    bad = sum(len(EXPECTED[n] or []) for n in BAD)
    assert lines[-1] == f"{records} records: {records - bad} valid, {bad} invalid"


def test_all_valid_exits_0(capsys: Capture) -> None:
    code, lines, err = validate(capsys, *(str(CORPUS / n) for n in GOOD))
    assert code == 0 and err == ""
    assert all(": valid " in line for line in lines[:-1])
    assert lines[-1].endswith(" 0 invalid")


def test_stdin_among_files(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    batch = (CORPUS / "good-batch.jsonl").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(batch))
    code, lines, _ = validate(capsys, str(CORPUS / "good-hand-peep.json"), "-",
                              str(CORPUS / "bad-revoke.json"))
    assert code == EXIT_PROBLEMS
    assert [line.split(": ")[0] for line in lines[:-1]] == [
        str(CORPUS / "good-hand-peep.json"), "<stdin>:1", "<stdin>:2", "<stdin>:3",
        str(CORPUS / "bad-revoke.json")]
    assert lines[-1] == "5 records: 4 valid, 1 invalid"


def test_quiet_prints_only_the_problems(capsys: Capture) -> None:
    code, lines, _ = validate(capsys, "--quiet", str(CORPUS / "good-hand-peep.json"),
                              str(CORPUS / "bad-wrong-payment.json"))
    assert code == EXIT_PROBLEMS
    assert len(lines) == 2 and lines[-1] == "2 records: 1 valid, 1 invalid"
    assert lines[0].startswith(f"{CORPUS / 'bad-wrong-payment.json'}: $.outcome.payments[0]")
    code, lines, _ = validate(capsys, "-q", str(CORPUS / "good-hand-peep.json"))
    assert code == 0 and lines == ["1 record: 1 valid, 0 invalid"]


def test_json_report_through_the_command(capsys: Capture) -> None:
    files = [str(CORPUS / n) for n in ("good-hand-peep.json", "bad-out-of-turn.json",
                                       "bad-unknown-card.json")]
    code = main(["validate", "--json", *files])
    out, err = capsys.readouterr()
    assert code == EXIT_PROBLEMS and err == ""
    document = json.loads(out)
    assert [(r["where"], r["valid"]) for r in document] == [
        (files[0], True), (files[1], False), (files[2], False)]
    assert document[0]["problems"] == [] and document[0]["kind"] == "hand"
    turn = document[1]["problems"]
    assert [(p["path"], p["rule"]) for p in turn] == [("$.actions[0].seat", "NAP-1.3.1")]
    card = document[2]["problems"]
    assert [(p["path"], p["rule"]) for p in card] == [("$.deal[0]", None)]
    # --quiet leaves the valid records out of the JSON too
    assert main(["validate", "--json", "--quiet", *files]) == EXIT_PROBLEMS
    quiet = json.loads(capsys.readouterr().out)
    assert [r["where"] for r in quiet] == files[1:]
    assert main(["validate", "--json", files[0]]) == 0
    assert json.loads(capsys.readouterr().out)[0]["valid"] is True


def test_a_missing_file_is_a_problem_of_that_file(tmp_path: Path, capsys: Capture) -> None:
    missing = tmp_path / "nowhere.json"
    code, lines, err = validate(capsys, str(missing), str(CORPUS / "good-hand-peep.json"))
    assert code == EXIT_PROBLEMS and err == ""
    assert lines[0].startswith(f"{missing}: $: cannot read: ")
    assert lines[1].endswith("good-hand-peep.json: valid hand (peep, 4 players)")
    code, lines, err = validate(capsys, str(tmp_path))  # a folder is not a record
    assert code == EXIT_PROBLEMS and lines[0].startswith(f"{tmp_path}: $: cannot read: ")


@pytest.mark.parametrize(("text", "message"), [
    ("[" * 100_000, "nested too deeply"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": "napkit-hand/1", "players": ' + "7" * 5000 + "}", "too many digits"),
    ('{"format": "napkit-hand/1", "players": NaN}', "NaN is not a JSON value"),
    ('{\n "format": "napkit-hand/1",\n "players": Infinity\n}\n', "Infinity is not"),
])
def test_json_that_python_will_not_read_is_a_problem(text: str, message: str, tmp_path: Path,
                                                      capsys: Capture) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    code, lines, err = validate(capsys, str(path))
    assert code == EXIT_PROBLEMS and err == ""
    assert lines[0].startswith(f"{path}: $: not JSON: ") and message in lines[0], lines
    assert lines[-1] == "1 record: 0 valid, 1 invalid"


def test_json_lines_with_an_unreadable_line(tmp_path: Path, capsys: Capture) -> None:
    good = (CORPUS / "good-hand-peep.json").read_text(encoding="utf-8")
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps(json.loads(good)) + "\n" + "[" * 100_000 + "\n"
                    + '{"a": NaN}\n', encoding="utf-8")
    code, lines, _ = validate(capsys, str(path))
    assert code == EXIT_PROBLEMS
    assert lines[0] == f"{path}:1: valid hand (peep, 4 players)"
    assert lines[1].startswith(f"{path}:2: $: not JSON: ") and "deeply" in lines[1]
    assert lines[2] == f"{path}:3: $: not JSON: NaN is not a JSON value"


@pytest.mark.parametrize(("argv", "expected"), [
    ([], "the following arguments are required: FILE"),
    (["-", "-"], "'-' (standard input) can be read only once"),
    (["--frobnicate", "x.json"], "unrecognized arguments: --frobnicate"),
])
def test_usage_errors_are_one_line_exit_2(argv: list[str], expected: str,
                                          capsys: Capture) -> None:
    code, lines, err = validate(capsys, *argv)
    assert code == EXIT_USAGE and lines == []
    assert expected in err and err.count("\n") == 1


def test_help(capsys: Capture) -> None:
    assert main(["validate", "--help"]) == 0
    out = capsys.readouterr().out
    for words in ("JSON Lines", "'-' reads standard input", "--quiet", "--json"):
        assert words in out


def corpus_texts() -> list[tuple[str, str]]:
    found = []
    for path in sorted(CORPUS.iterdir()):
        if path.suffix in (".json", ".jsonl", ".txt") and path.is_file():
            try:
                found.append((path.name, path.read_text(encoding="utf-8")))
            except UnicodeDecodeError:
                continue
    return found


@pytest.mark.parametrize(("name", "text"), corpus_texts(), ids=[n for n, _ in corpus_texts()])
def test_reading_line_by_line_gives_what_reading_whole_gives(name: str, text: str) -> None:
    from napkit.formats.validate import parse_lines, parse_text

    whole = list(parse_text(text, name))
    assert list(parse_lines(text.splitlines(keepends=True), name)) == whole
    assert list(parse_lines(io.StringIO(text), name)) == whole


def test_a_json_lines_stream_is_read_a_line_at_a_time() -> None:
    from itertools import count, islice

    from napkit.formats.validate import parse_lines

    def endless() -> Iterator[str]:
        for n in count():
            yield json.dumps({"n": n}) + "\n"

    first = list(islice(parse_lines(endless(), "s"), 3))
    assert first == [("s:1", {"n": 0}), ("s:2", {"n": 1}), ("s:3", {"n": 2})]


@pytest.mark.parametrize("quiet", [False, True])
def test_the_json_report_pieces_are_the_whole_array(quiet: bool) -> None:
    from napkit.formats.validate import Tally, check_sources, report_lines

    files = [str(p) for p in sorted(CORPUS.iterdir()) if p.suffix in (".json", ".jsonl")]
    pieces = "".join(report_lines(files, Tally(), quiet=quiet, as_json=True))
    document = [{"where": c.where, "kind": c.kind, "valid": c.valid,
                 "problems": [{"path": p.path, "rule": p.rule, "message": p.message}
                              for p in c.problems]}
                for c in check_sources(files) if not (quiet and c.valid)]
    assert pieces == json.dumps(document, indent=2)
    assert "".join(report_lines([], Tally(), as_json=True)) == "[]"


def test_an_unreadable_file_is_not_counted_as_a_record(tmp_path: Path, capsys: Capture) -> None:
    missing = tmp_path / "nowhere.json"
    code, lines, _ = validate(capsys, str(missing), str(CORPUS / "good-hand-peep.json"))
    assert code == EXIT_PROBLEMS
    assert lines[-1] == "1 record: 1 valid, 0 invalid; 1 file could not be read"
    code, lines, _ = validate(capsys, str(missing))
    assert code == EXIT_PROBLEMS and lines[-1] == (
        "0 records: 0 valid, 0 invalid; 1 file could not be read")


def test_junk_after_a_pretty_printed_record_is_one_problem(tmp_path: Path,
                                                           capsys: Capture) -> None:
    """The record is one document: junk after it spoils it, and does not make the file JSON
    Lines of a hundred broken lines."""
    good = json.loads((CORPUS / "good-hand-peep.json").read_text(encoding="utf-8"))
    path = tmp_path / "junk.json"
    text = json.dumps(good, indent=2)
    path.write_text(text + "\nthis is not JSON\n", encoding="utf-8")
    code, lines, _ = validate(capsys, str(path))
    assert code == EXIT_PROBLEMS
    end = len(text.splitlines()) + 1
    assert lines == [f"{path}: line {end}, column 1: not JSON: more text after the value (a JSON "
                     "document holds one value)",
                     "1 record: 0 valid, 1 invalid"]


@pytest.mark.parametrize(("change", "expected"), [
    ({"dealer": 1.0}, "$.dealer: 1.0 is not a whole number"),
    ({"stakes": 1e308}, "$.stakes: 1e+308 is not a whole number"),  # as json.dumps wrote it
    ({"pool": 2**60}, "$.pool: 1152921504606846976 is beyond the largest whole number"),
    ({"dealer": 7}, "$.dealer: NAP-4.1.1: no seat 7 at a table of 4"),
])
def test_numbers_a_record_cannot_hold(change: dict[str, Any], expected: str, tmp_path: Path,
                                      capsys: Capture) -> None:
    record = json.loads((CORPUS / "good-hand-peep.json").read_text(encoding="utf-8"))
    record.update(change)
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, lines, _ = validate(capsys, str(path))
    assert code == EXIT_PROBLEMS
    assert lines[0].startswith(f"{path}: {expected}"), lines


def test_a_key_given_twice_is_refused_where_it_is(tmp_path: Path, capsys: Capture) -> None:
    text = (CORPUS / "good-hand-peep.json").read_text(encoding="utf-8").strip()
    path = tmp_path / "twice.json"
    path.write_text(text[:-1] + ', "dealer": 2}', encoding="utf-8")
    code, lines, _ = validate(capsys, str(path))
    assert code == EXIT_PROBLEMS
    assert lines[0] == f'{path}: $: the key "dealer" is given twice'


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: Capture) -> None:
    text = (CORPUS / "good-hand-peep.json").read_text(encoding="utf-8")
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + text, encoding="utf-8")
    lines_path = tmp_path / "bom.jsonl"
    line = json.dumps(json.loads(text))
    lines_path.write_text("\ufeff" + line + "\n" + line + "\n", encoding="utf-8")
    code, lines, _ = validate(capsys, str(path), str(lines_path))
    assert code == 0, lines
    assert lines[-1] == "3 records: 3 valid, 0 invalid"
