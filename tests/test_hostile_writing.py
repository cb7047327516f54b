"""Hostile outputs (issue 13, parts 2 and 5): ``napkit record -o``, ``napkit play --record`` and
``napkit conform --json/--junit/--tap`` write by one policy (napkit.output.files). A file is
replaced whole or not at all; a FIFO is written to and stays a FIFO; a symbolic link's file is
replaced and the link stays; an output onto an input, or two outputs on one file, are refused
before anything runs; a place that cannot be written is refused before the first case; Ctrl-C
leaves every file as it was; and a program that never answers stops the run after a few
timeouts instead of costing the time limit on every case. No test here touches /dev."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import EXIT_USAGE, main
from napkit.conform.run.runner import (
    FAILED,
    PASSED,
    SKIPPED,
    CaseResult,
    run_suite,
    timeouts_in_a_row,
)
from napkit.conform.suite.cases import load_suite
from napkit.protocol.process import ProtocolError, Session

from tests.test_conform_runner import Tweaked

Capture = pytest.CaptureFixture[str]
REPOSITORY = Path(__file__).resolve().parents[1]
RULESET = REPOSITORY / "spec" / "rulesets" / "pagat.json"
SUITE = Path(__file__).parent / "fixtures" / "conformance"
ADAPTERS = Path(__file__).parent / "fixtures" / "adapters"
ONE_CASE = "pagat/legal/nap-auction-and-first-trick"
OLD = '{"an": "older file"}\n'


def record_text(capsys: Capture, *argv: str) -> str:
    """What ``napkit record ARGV`` writes on stdout."""
    assert main(["record", *argv]) == 0
    return capsys.readouterr().out


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


class Reader(threading.Thread):
    """A FIFO's reader: opens it (which waits for a writer) and reads to the end."""

    def __init__(self, fifo: Path) -> None:
        super().__init__(daemon=True)  # never holds the test run up if the writer never comes
        self.fifo = fifo
        self.got = b""

    def run(self) -> None:
        with open(self.fifo, "rb") as pipe:
            self.got = pipe.read()


# --- special files and links ---------------------------------------------------------------------
def test_record_into_a_fifo_reaches_its_reader(tmp_path: Path, capsys: Capture) -> None:
    expected = record_text(capsys, "pagat", "--seed", "1")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = Reader(fifo)
    reader.start()
    assert main(["record", "pagat", "--seed", "1", "-o", str(fifo)]) == 0
    reader.join(30)
    assert not reader.is_alive()
    assert reader.got == expected.encode("utf-8")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not a regular file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_record_through_a_symlink_replaces_its_file(tmp_path: Path, capsys: Capture) -> None:
    expected = record_text(capsys, "pagat", "--seed", "1")
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "hand.json"
    target.write_text(OLD, encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main(["record", "pagat", "--seed", "1", "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == expected
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the file's permissions kept
    assert leftovers(tmp_path) == [] and leftovers(tmp_path / "real") == []


def test_record_through_a_dangling_symlink_creates_its_target(tmp_path: Path,
                                                              capsys: Capture) -> None:
    expected = record_text(capsys, "pagat", "--seed", "1")
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    assert main(["record", "pagat", "--seed", "1", "-o", str(link)]) == 0
    assert link.is_symlink()
    assert (tmp_path / "made.json").read_text(encoding="utf-8") == expected


def test_record_onto_the_file_stdout_goes_to(tmp_path: Path) -> None:
    """'napkit record -o out.json > out.json': written as stdout, once, not renamed over the
    file the shell opened."""
    out = tmp_path / "out.json"
    with open(out, "w", encoding="utf-8") as stdout:
        done = subprocess.run([sys.executable, "-m", "napkit", "record", "pagat", "--seed", "1",
                               "-o", str(out)], stdout=stdout, stderr=subprocess.PIPE,
                              text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    expected = subprocess.run([sys.executable, "-m", "napkit", "record", "pagat", "--seed", "1"],
                              capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.read_text(encoding="utf-8") == expected
    assert leftovers(tmp_path) == []


# --- a failed run leaves the file ----------------------------------------------------------------
@pytest.fixture
def kept(tmp_path: Path) -> Path:
    target = tmp_path / "hand.json"
    target.write_text(OLD, encoding="utf-8")
    return target


def interrupted(*_args: object, **_kwargs: object) -> Iterator[str]:
    yield '{"format": "napkit-hand/1"}\n'
    raise KeyboardInterrupt


def test_ctrl_c_while_playing_leaves_the_file(kept: Path, capsys: Capture,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # read by napkit record as it runs (not imported to build its parser)
    monkeypatch.setattr("napkit.formats.recording.record_chunks", interrupted)
    assert main(["record", "pagat", "--seed", "1", "--hands", "3", "-o", str(kept)]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "napkit: interrupted: nothing is written"
    assert kept.read_text(encoding="utf-8") == OLD and leftovers(kept.parent) == []


@pytest.mark.parametrize("where", ["napkit.cli.play.spec", "napkit.output.files.os.fsync",
                                   "napkit.output.files.os.replace"])
def test_ctrl_c_at_any_other_moment_leaves_the_file(where: str, kept: Path, capsys: Capture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the spec, flushing the temporary file to disk, renaming it: one line, no
    traceback, the file as it was, no temporary file."""
    def ctrl_c(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(where, ctrl_c)
    assert main(["record", "pagat", "--seed", "1", "-o", str(kept)]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "napkit: interrupted"
    assert kept.read_text(encoding="utf-8") == OLD and leftovers(kept.parent) == []


@pytest.mark.parametrize("name", ["", "folder/"])
def test_o_names_no_file(name: str, tmp_path: Path, capsys: Capture,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["record", "pagat", "--seed", "1", "-o", name]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_bad_option_leaves_the_file(kept: Path, capsys: Capture) -> None:
    assert main(["record", "pagat", "--option", "nope=x", "-o", str(kept)]) == EXIT_USAGE
    assert capsys.readouterr().err.count("\n") == 1
    assert kept.read_text(encoding="utf-8") == OLD and leftovers(kept.parent) == []


# --- an output onto an input ---------------------------------------------------------------------
def test_record_onto_its_ruleset_file_is_refused(tmp_path: Path, capsys: Capture) -> None:
    rules = tmp_path / "myrules.json"
    shutil.copy(RULESET, rules)
    before = rules.read_bytes()
    assert main(["record", str(rules), "--seed", "1", "-o", str(rules)]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err == (f"napkit: -o {rules} would overwrite the ruleset file {rules}, "
                                 "which it reads: write to another file\n")
    # the same file by another name: a link to it, a path through '..'
    link = tmp_path / "link.json"
    link.symlink_to(rules)
    roundabout = tmp_path / "sub" / ".." / "myrules.json"
    (tmp_path / "sub").mkdir()
    for other in (link, roundabout):
        assert main(["record", str(rules), "-o", str(other)]) == EXIT_USAGE
        assert f"would overwrite the ruleset file {rules}" in capsys.readouterr().err
    assert main(["play", str(rules), "--record", str(link)]) == EXIT_USAGE
    assert "--record" in capsys.readouterr().err
    assert rules.read_bytes() == before and link.is_symlink()
    assert leftovers(tmp_path) == []
    # another file is no clash: the ruleset file is read, the record written
    assert main(["record", str(rules), "--seed", "1", "-o", str(tmp_path / "hand.json")]) == 0


# --- napkit conform's reports --------------------------------------------------------------------
def conform(*argv: str) -> int:
    return main(["conform", "--suite", str(SUITE), "--in-process", "--case", ONE_CASE, *argv])


@pytest.fixture
def no_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any case run fails the test: what is refused must be refused before the run."""
    def run_suite(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a case was run")

    monkeypatch.setattr("napkit.conform.run.runner.run_suite", run_suite)


@pytest.mark.usefixtures("no_run")
def test_a_report_onto_the_xfail_file_is_refused(tmp_path: Path, capsys: Capture) -> None:
    xfail = tmp_path / "xf.json"
    xfail.write_text('{"format": "napkit-xfail/1"}', encoding="utf-8")
    before = xfail.read_bytes()
    assert conform("--xfail", str(xfail), "--json", str(xfail)) == 2
    assert capsys.readouterr().err == (
        f"napkit conform: --json {xfail} would overwrite the expected-failures file {xfail}, "
        "which it reads: write to another file\n")
    link = tmp_path / "link.xml"
    link.symlink_to(xfail)
    assert conform("--xfail", str(xfail), "--junit", str(link)) == 2
    assert xfail.read_bytes() == before and leftovers(tmp_path) == []


HOUSE = REPOSITORY / "spec" / "examples" / "house-two-no-wellington.json"
A_CASE = REPOSITORY / "conformance" / "cases" / "classic" / "legal"


@pytest.mark.usefixtures("no_run")
@pytest.mark.parametrize("flag", ["--json", "--tap", "--junit", "--html"])
def test_a_report_onto_the_case_file_it_runs_is_refused(flag: str, tmp_path: Path,
                                                        capsys: Capture) -> None:
    # issue 27: `conform --case c.json --json c.json` replaced the reproducer it ran
    case = tmp_path / "c.json"
    case.write_bytes(next(iter(sorted(A_CASE.glob("*.json")))).read_bytes())
    before = case.read_bytes()
    assert main(["conform", "--in-process", "--case", str(case), flag, str(case)]) == 2
    assert capsys.readouterr().err == (f"napkit conform: {flag} {case} would overwrite the "
                                       f"case file {case}, which it reads: write to another "
                                       "file\n")
    assert case.read_bytes() == before and leftovers(tmp_path) == []


@pytest.mark.usefixtures("no_run")
def test_a_report_onto_the_ruleset_file_it_reads_is_refused(tmp_path: Path,
                                                            capsys: Capture) -> None:
    house = tmp_path / "h.json"
    house.write_bytes(HOUSE.read_bytes())
    assert conform("--ruleset-file", str(house), "--junit", str(house)) == 2
    assert capsys.readouterr().err == (f"napkit conform: --junit {house} would overwrite the "
                                       f"ruleset file {house}, which it reads: write to another "
                                       "file\n")
    assert house.read_bytes() == HOUSE.read_bytes()


def test_a_rules_sheet_onto_its_house_file_is_refused(tmp_path: Path, capsys: Capture) -> None:
    house = tmp_path / "h.json"
    house.write_bytes(HOUSE.read_bytes())
    assert main(["rules", "sheet", str(house), "-o", str(house)]) == 2
    assert capsys.readouterr().err == (f"napkit: -o {house} would overwrite the ruleset file "
                                       f"{house}, which it reads: write to another file\n")
    assert house.read_bytes() == HOUSE.read_bytes()
    assert main(["rules", "sheet", str(house), "-o", str(tmp_path / "sheet.html")]) == 0


def test_a_report_site_over_its_own_report_is_refused(tmp_path: Path, capsys: Capture) -> None:
    report = tmp_path / "run.json"
    assert conform("--json", str(report), "-q") == 0
    site = tmp_path / "site"
    site.mkdir()
    kept = site / "index.html"
    kept.write_bytes(report.read_bytes())
    capsys.readouterr()
    assert main(["report", "site", str(kept), "-o", str(site)]) == 2
    assert capsys.readouterr().err == (
        f"napkit report site: the report {kept} is inside the output folder {site}, where the "
        "site's pages are written: write the site to another folder\n")
    assert kept.read_bytes() == report.read_bytes()
    assert main(["report", "site", str(report), "-o", str(tmp_path / "elsewhere")]) == 0


@pytest.mark.usefixtures("no_run")
def test_a_report_onto_the_program_s_script_is_refused(tmp_path: Path, capsys: Capture) -> None:
    script = tmp_path / "my_nap.py"
    script.write_text("print('my program')\n", encoding="utf-8")
    status = main(["conform", "--suite", str(SUITE), "--tap", str(script), "--",
                   sys.executable, str(script)])
    assert status == 2
    assert capsys.readouterr().err == (f"napkit conform: --tap {script} would overwrite the "
                                       f"program's file {script}, which it reads: write to "
                                       "another file\n")
    assert script.read_text(encoding="utf-8") == "print('my program')\n"


@pytest.mark.usefixtures("no_run")
def test_two_reports_on_one_file_are_refused(tmp_path: Path, capsys: Capture) -> None:
    report = tmp_path / "R"
    assert conform("--json", str(report), "--junit", str(report)) == 2
    assert capsys.readouterr().err == (f"napkit conform: --json {report} and --junit {report} "
                                       "are the same file: give each output its own\n")
    assert conform("--json", "-", "--tap", "-") == 2
    assert not report.exists()


@pytest.mark.usefixtures("no_run")
def test_a_report_into_the_suite_is_refused(tmp_path: Path, capsys: Capture) -> None:
    suite = tmp_path / "cases"
    shutil.copytree(SUITE, suite)
    case = suite / f"{ONE_CASE}.json"
    before = case.read_bytes()
    for report in (case, suite / "pagat" / "report.json"):
        assert main(["conform", "--suite", str(suite), "--json", str(report)]) == 2
        assert "where it would be read as a case" in capsys.readouterr().err
    assert case.read_bytes() == before and not (suite / "pagat" / "report.json").exists()


@pytest.mark.usefixtures("no_run")
@pytest.mark.parametrize("where", ["missing/r.json", ".", "locked/r.json"])
def test_a_report_that_cannot_be_written_is_refused_before_the_run(
        where: str, tmp_path: Path, capsys: Capture) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if where.startswith("locked") and os.access(locked, os.W_OK):
        pytest.skip("a folder's permissions do not hold for this user (root)")
    report = tmp_path / where
    try:
        assert conform("--tap", str(tmp_path / "t.tap"), "--json", str(report)) == 1
    finally:
        locked.chmod(0o700)
    err = capsys.readouterr().err
    assert err.startswith(f"napkit conform: cannot write the json report {report}: ")
    assert err.endswith("(no case was run)\n") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked"]  # no tap, no temporary file


def test_ctrl_c_in_a_run_writes_whole_reports_marked_interrupted(
        tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C before any case ran: every report requested is written whole, marked
    interrupted, with the cases not run counted (spec/conformance.md 7.3); no temporary file
    is left beside them."""
    def ctrl_c(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("napkit.conform.run.runner.run_suite", ctrl_c)
    report = tmp_path / "r.json"
    report.write_text(OLD, encoding="utf-8")
    assert conform("--json", str(report), "--junit", str(tmp_path / "new.xml")) == 130
    err = capsys.readouterr().err.strip()
    assert err.startswith("napkit conform: interrupted: ") and "not run" in err, err
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["interrupted"] is True and written["ok"] is False
    assert written["totals"]["not_run"] == written["totals"]["selected"] > 0
    assert "interrupted" in (tmp_path / "new.xml").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.xml", "r.json"]


def test_a_report_into_a_fifo_and_through_a_symlink(tmp_path: Path, capsys: Capture) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    target = tmp_path / "real.xml"
    target.write_text(OLD, encoding="utf-8")
    link = tmp_path / "link.xml"
    link.symlink_to(target)
    reader = Reader(fifo)
    reader.start()
    assert conform("--json", str(fifo), "--junit", str(link)) == 0
    reader.join(30)
    assert not reader.is_alive()
    report = json.loads(reader.got)
    assert report["format"] == "napkit-conform-report/1"
    assert [c["id"] for c in report["cases"]] == [ONE_CASE]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("<?xml")
    assert "ok: 1 case" in capsys.readouterr().out  # the summary on stdout as usual
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link.xml", "real.xml"]


def test_a_report_on_stdout_into_a_pipe() -> None:
    """'napkit conform --json - | jq .': the pipe gets the report alone; the summary goes to
    standard error."""
    done = subprocess.run([sys.executable, "-m", "napkit", "conform", "--suite", str(SUITE),
                           "--in-process", "--case", ONE_CASE, "--json", "-"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [c["id"] for c in report["cases"]] == [ONE_CASE] and report["ok"] is True
    assert "ok: 1 case against napkit" in done.stderr


# --- timeouts in a row ---------------------------------------------------------------------------
def test_a_program_that_never_answers_is_stopped_after_three_timeouts(
        tmp_path: Path, capsys: Capture) -> None:
    report = tmp_path / "r.json"
    hang = [sys.executable, str(ADAPTERS / "hang.py"), "apply"]  # answers hello, then nothing
    status = main(["conform", "--suite", str(SUITE), "--timeout", "0.5", "--json", str(report),
                   "--", *hang])
    assert status == 1
    out = capsys.readouterr().out
    message = ("stopped: the program timed out on 3 cases in a row (--max-timeouts 3); is it "
               "reading its standard input and flushing each answer?")
    assert f"note: {message}" in out
    assert "(stopped after 3 timeouts in a row; 2 not run)" in out.splitlines()[-1]
    document = json.loads(report.read_text(encoding="utf-8"))  # written for the cases run
    assert [c["status"] for c in document["cases"]] == [FAILED] * 3
    assert document["totals"]["selected"] == 5 and message in document["notes"]


class Silent(Tweaked):
    """A program that shakes hands, then answers each case or times out on it, as
    ``schedule`` says (one entry a case sent to it, shared by its restarts); the rest of the
    program is the runner tests' in-process reference."""

    def __init__(self, schedule: list[bool]) -> None:
        super().__init__(lambda request, answer: answer)
        self.schedule = schedule

    def exchange(self, requests: Sequence[dict[str, Any]], timeout: float) -> tuple[
            list[object], ProtocolError | None]:
        if requests[0]["type"] != "hello" and not self.schedule.pop(0):
            return [], ProtocolError("timeout", "did not answer within the time limit")
        return super().exchange(requests, timeout)


def silent_run(schedule: list[bool], max_timeouts: int, kinds: Sequence[str] = (
        "legal", "illegal", "outcome", "match")) -> list[str]:
    session = Session(lambda: Silent(schedule), 5.0)
    hello = session.open()
    supports = {**hello.supports, "kinds": list(kinds)}
    cases = load_suite(SUITE)[0]  # illegal, illegal, legal, match, outcome
    results = run_suite(cases, session, supports, max_timeouts=max_timeouts)
    return [r.status if r.problem != "timeout" else "timeout" for r in results]


def test_timeouts_in_a_row_are_counted_across_skips_and_reset_by_an_answer() -> None:
    assert silent_run([False] * 5, 3) == ["timeout"] * 3
    assert silent_run([False] * 5, 0) == ["timeout"] * 5  # 0: never stop
    assert silent_run([False, False, True, False, False], 3) == [
        "timeout", "timeout", PASSED, "timeout", "timeout"]
    # The match case is skipped (never sent): the timeouts either side of it are a row.
    assert silent_run([True, True, False, False], 2, ("legal", "illegal", "outcome")) == [
        PASSED, PASSED, "timeout", SKIPPED, "timeout"]


def test_timeouts_in_a_row_of_results() -> None:
    assert timeouts_in_a_row([]) == 0
    cases = load_suite(SUITE)[0]

    def result(status: str, problem: str = "") -> CaseResult:
        return CaseResult(cases[0], status, problem=problem)

    results = [result(FAILED, "timeout"), result(PASSED), result(FAILED, "timeout"),
               result(SKIPPED), result(FAILED, "timeout")]
    assert timeouts_in_a_row(results) == 2
    assert timeouts_in_a_row([*results, result(FAILED, "exited")]) == 0


def test_record_onto_a_file_of_the_spec_is_refused(capsys: Capture) -> None:
    """The spec's own files (its rulesets, law book, schemas) are read by every command that
    plays: none may be written over, whatever ruleset is played."""
    from napkit import paths

    target = paths.spec_dir() / "rulesets" / "pagat.json"
    before = target.read_bytes()
    assert main(["record", "classic", "--seed", "1", "-o", str(target)]) == 2
    assert "would overwrite the spec's file" in capsys.readouterr().err
    assert target.read_bytes() == before
