"""napkit conform against real programs: the reference (in a process and in this one) passes the
hand-worked fixture cases; programs that crash, hang, print garbage, answer with the wrong id
or a wrong schema, or refuse everything each fail the case in progress with a clear report,
are restarted, and the run goes on to the end."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
SUITE = FIXTURES / "conformance"
ADAPTERS = FIXTURES / "adapters"
IDS = ["pagat/illegal/revoke-holding-the-suit-led", "pagat/illegal/wellington-without-nap",
       "pagat/legal/nap-auction-and-first-trick", "pagat/match/one-hand-nap-made",
       "pagat/outcome/nap-made-by-seat-1"]


def conform(tmp_path: Path, *args: str, program: list[str] | None = None) -> tuple[
        int, dict[str, Any]]:
    """Run napkit conform on the fixture suite; its exit status and its JSON report."""
    report = tmp_path / "report.json"
    argv = ["conform", "--suite", str(SUITE), "--json", str(report), *args]
    if program is not None:
        argv += ["--", *program]
    status = main(argv)
    document: dict[str, Any] = json.loads(report.read_text()) if report.exists() else {}
    return status, document


def script(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ADAPTERS / f"{name}.py"), *args]


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["status"] for c in report["cases"]}


def test_the_reference_passes_the_fixture_cases_through_the_protocol(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path)
    assert status == 0
    assert statuses(report) == dict.fromkeys(IDS, "passed")
    assert report["program"]["command"][1:] == ["-m", "napkit.protocol.adapter"]
    assert report["ok"] is True and report["totals"]["passed"] == 5
    out = capsys.readouterr().out
    assert "5 cases against napkit" in out.splitlines()[0]
    # Every case passed: the rules are counted in a line, not listed (-v lists them).
    assert "by ruleset" in out and "rules whose every case passed (-v lists every rule)" in out
    assert "NAP-8.1.1" not in out
    assert out.splitlines()[-1].startswith("ok: 5 cases against napkit")


def test_the_reference_in_this_process(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path, "--in-process", "-q")
    assert status == 0 and statuses(report) == dict.fromkeys(IDS, "passed")
    assert report["program"]["command"] == []
    out = capsys.readouterr().out
    assert "by ruleset" not in out and out.startswith("ok: 5 cases")


def test_a_program_that_crashes_on_its_third_case(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path, program=script("crash_on_third"))
    assert status == 1
    assert statuses(report) == {**dict.fromkeys(IDS, "passed"), IDS[2]: "failed"}
    failed = report["cases"][2]
    assert failed["where"] == "step 0"
    assert "exited with status 1 before answering the apply request" in failed["message"]
    assert "deliberate crash in the third case" in failed["stderr"]
    out = capsys.readouterr().out
    assert f"FAILED {IDS[2]}: step 0: the program exited with status 1" in out
    assert "| RuntimeError: deliberate crash in the third case" in out
    assert "4 passed, 1 failed" in out.splitlines()[-1]


def test_a_program_that_hangs(tmp_path: Path) -> None:
    # The time limit only ends the hang: long enough that the other cases' answers are never
    # late on a busy machine.
    status, report = conform(tmp_path, "--timeout", "5", program=script("hang"))
    assert status == 1
    assert statuses(report) == {**dict.fromkeys(IDS, "passed"), IDS[3]: "failed"}
    failed = report["cases"][3]
    assert failed["where"] == "start"
    assert "did not answer the start-match request" in failed["message"]
    assert "within the time limit" in failed["message"]
    assert failed["stderr"] == "hanging on start-match"


def test_a_program_that_hangs_in_the_handshake(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path, "--start-timeout", "1", "--timeout", "1",
                             program=script("hang", "hello"))
    assert status == 1 and report == {}
    err = capsys.readouterr().err
    assert "did not answer the hello request (id 0) within the time limit" in err
    assert "did not complete the handshake" in err and "| hanging on hello" in err


def test_a_program_that_prints_something_else_than_json(tmp_path: Path) -> None:
    status, report = conform(tmp_path, program=script("not_json"))
    assert status == 1
    assert statuses(report) == {**dict.fromkeys(IDS, "passed"), IDS[2]: "failed"}
    message = report["cases"][2]["message"]
    assert message.startswith("step 1: the program answered the legal request")
    assert "a line that is not JSON: 'I think seat 2 should play now'" in message


def test_a_program_that_answers_with_a_wrong_schema(tmp_path: Path) -> None:
    status, report = conform(tmp_path, program=script("wrong_schema"))
    assert status == 1
    assert statuses(report) == {IDS[0]: "passed", IDS[1]: "passed", IDS[2]: "failed",
                                IDS[3]: "failed", IDS[4]: "failed"}
    by_id = {c["id"]: c for c in report["cases"]}
    assert "adapter.schema.json refuses: $.turn:" in by_id[IDS[2]]["message"]
    for case_id in IDS[3:]:
        assert by_id[case_id]["where"] == "outcome"
        assert "refuses: $.outcome: Additional properties are not allowed ('winner'" in \
            by_id[case_id]["message"]


def test_a_program_that_answers_with_the_wrong_id(tmp_path: Path) -> None:
    status, report = conform(tmp_path, program=script("wrong_id"))
    assert status == 1
    assert statuses(report) == dict.fromkeys(IDS, "failed")
    # A case's requests are numbered by their place in the whole run, restarts or not
    # (napkit.conform.run.runner._items): each case's first apply is its second request.
    assert [c["message"].partition("request ")[2].partition(" (restarted")[0]
            for c in report["cases"]] == ["(id 2) with id 1", "(id 10) with id 9",
                                          "(id 13) with id 12", "(id 31) with id 30",
                                          "(id 59) with id 58"]


def test_a_program_that_refuses_everything(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path, program=script("refuse_all"))
    assert status == 1 and statuses(report) == dict.fromkeys(IDS, "failed")
    assert report["cases"][0]["message"] == (
        'step 0: refused chance\'s {"type": "deal", "pack": [52 cards]} (no rule named: this '
        "program refuses everything); the case has it accepted")
    assert "0 passed, 5 failed" in capsys.readouterr().out


def test_exitfirst_stops_at_the_first_failure(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path, "--exitfirst", program=script("refuse_all"))
    assert status == 1 and [c["id"] for c in report["cases"]] == IDS[:1]
    assert report["totals"]["selected"] == 5
    assert "stopped after the first failure; 4 not run" in capsys.readouterr().out


def test_what_the_handshake_leaves_out_is_skipped(tmp_path: Path) -> None:
    status, report = conform(tmp_path, program=script("limited"))
    assert status == 0
    assert statuses(report) == {IDS[0]: "passed", IDS[1]: "passed", IDS[2]: "skipped",
                                IDS[3]: "skipped", IDS[4]: "passed"}
    assert report["cases"][2]["message"] == "kind legal not supported"
    status, report = conform(tmp_path, program=script("limited", "legal"))
    assert status == 0 and statuses(report)[IDS[2]] == "passed"
    assert sum(s == "skipped" for s in statuses(report).values()) == 4


def test_a_program_that_cannot_be_started(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    status, report = conform(tmp_path, program=[str(tmp_path / "no-such-program")])
    assert status == 1 and report == {}
    assert "cannot start" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "ids"), [
    (["--kind", "illegal"], IDS[:2]),
    (["--kind", "legal", "--kind", "match"], IDS[2:4]),
    (["--rule", "NAP-8.1.1"], [IDS[0], IDS[2]]),
    (["--rule", "NAP-10"], [IDS[3]]),
    (["--tag", "handworked", "--case", "pagat/*/nap-*"], [IDS[2], IDS[4]]),
    (["--ruleset", "pagat", "--case", "*wellington*"], [IDS[1]]),
])
def test_filters(tmp_path: Path, args: list[str], ids: list[str]) -> None:
    status, report = conform(tmp_path, "--in-process", *args)
    assert status == 0 and [c["id"] for c in report["cases"]] == ids


def test_filters_that_match_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert conform(tmp_path, "--in-process", "--ruleset", "classic")[0] == 1
    assert "no case matches the filters (5 cases in the suite)" in capsys.readouterr().err
    assert conform(tmp_path, "--in-process", "--kind", "legall")[0] == 2
    assert "no kind 'legall'" in capsys.readouterr().err
    assert main(["conform", "--timeout", "0"]) == 2
    assert main(["conform", "--reference", "--", "python", "x.py"]) == 2


def test_an_empty_suite_is_not_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--suite", str(tmp_path)]) == 1
    assert "the suite is empty: no case under" in capsys.readouterr().err
    assert main(["conform", "--suite", str(tmp_path / "missing")]) == 1
    assert "the suite is empty: there is no folder" in capsys.readouterr().err


def test_a_bad_case_file_is_reported_and_the_rest_run(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "cases"
    (suite / "pagat" / "legal").mkdir(parents=True)
    source = SUITE / f"{IDS[2]}.json"
    (suite / f"{IDS[2]}.json").write_text(source.read_text())
    (suite / "pagat" / "legal" / "bad.json").write_text('{"format": "napkit-case/1"}')
    report = tmp_path / "r.json"
    assert main(["conform", "--suite", str(suite), "--in-process", "--json", str(report)]) == 1
    err = capsys.readouterr().err
    assert "bad case file:" in err and "bad.json: $: 'id' is a required property" in err
    assert [c["status"] for c in json.loads(report.read_text())["cases"]] == ["passed"]


def test_an_xfail_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    xfail = tmp_path / "xfail.json"
    xfail.write_text(json.dumps({"format": "napkit-xfail/1",
                                 "cases": {IDS[2]: "our legal lists are late",
                                           "pagat/legal/gone": "an old entry"},
                                 "rules": {"NAP-9.1.1": "we pay differently"}}))
    status, report = conform(tmp_path, "--xfail", str(xfail), program=script("wrong_schema"))
    # The legal case and the outcome case (NAP-9.1.1) fail as expected; the match case fails.
    assert status == 1
    assert statuses(report) == {IDS[0]: "passed", IDS[1]: "passed", IDS[2]: "xfail",
                                IDS[3]: "failed", IDS[4]: "xfail"}
    assert report["cases"][4]["reason"] == "NAP-9.1.1: we pay differently"
    out = capsys.readouterr().out
    assert "pagat/legal/gone, which is not in the suite" in out
    # Against the reference, the listed cases pass: unexpected passes, which fail the run.
    status, report = conform(tmp_path, "--in-process", "--xfail", str(xfail))
    assert status == 1
    assert statuses(report)[IDS[2]] == "xpass" and statuses(report)[IDS[4]] == "xpass"
    assert "UNEXPECTED PASS pagat/legal/nap-auction-and-first-trick (expected to fail: our " \
           "legal lists are late)" in capsys.readouterr().out
    # Only expected failures: the run passes.
    xfail.write_text(json.dumps({"format": "napkit-xfail/1", "cases": {
        c: "known" for c in IDS[2:]}}))
    assert conform(tmp_path, "--xfail", str(xfail), program=script("wrong_schema"))[0] == 0


@pytest.mark.parametrize(("document", "words"), [
    ("[]", "$: an expected-failures file is a JSON object"),
    ('{"format": "napkit-xfail/2"}', "$.format: expected 'napkit-xfail/1'"),
    ('{"format": "napkit-xfail/1", "cases": []}', "$.cases: expected an object"),
    ('{"format": "napkit-xfail/1", "rules": {"8.1.1": "x"}}', '$.rules["8.1.1"]: '),
    ('{"format": "napkit-xfail/1", "cases": {"a/b/c": ""}}', '$.cases["a/b/c"]: the reason'),
    ('{"format": "napkit-xfail/1", "more": 1}', "$.more: unexpected field"),
    ("{", "line 1, column 2: not JSON"),
])
def test_a_bad_xfail_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], document: str,
                          words: str) -> None:
    xfail = tmp_path / "xfail.json"
    xfail.write_text(document)
    assert conform(tmp_path, "--in-process", "--xfail", str(xfail))[0] == 1
    assert f"{xfail}: {words}" in capsys.readouterr().err


def test_every_report_at_once(tmp_path: Path) -> None:
    """JSON, JUnit and TAP describe the same run (the parsing of each is tested with the
    report module); here through the command, with a failing program."""
    junit, tap = tmp_path / "r.xml", tmp_path / "r.tap"
    status, report = conform(tmp_path, "--junit", str(junit), "--tap", str(tap),
                             program=script("not_json"))
    assert status == 1 and report["totals"]["failed"] == 1
    assert junit.read_text().startswith("<?xml") and 'failures="1"' in junit.read_text()
    assert tap.read_text().splitlines()[:2] == ["TAP version 13", "1..5"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.tap", "r.xml", "report.json"]


def test_matrix_is_wired_to_the_coverage_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from napkit.conform.run import matrix

    seen: list[int] = []

    def fake(cases: list[Any], rulesets: Any = None) -> tuple[list[str], bool]:
        seen.append(len(cases))
        return ["the matrix"], len(cases) < 10

    def fake_breaches(cases: list[Any], rulesets: Any = None) -> tuple[list[str], bool]:
        seen.append(len(cases))
        return ["the breaches"], False

    monkeypatch.setattr(matrix, "main_matrix", fake)
    monkeypatch.setattr(matrix, "breach_matrix", fake_breaches)
    # Both matrices are printed; an empty cell in either is exit 1.
    assert main(["conform", "--suite", str(SUITE), "--matrix"]) == 1
    assert seen == [5, 5] and capsys.readouterr().out == "the matrix\n\nthe breaches\n"
