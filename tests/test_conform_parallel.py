"""napkit conform on many cores and many machines: ``-j N`` gives the report ``-j 1`` gives
(against the reference adapter, a mutant, and a program that hangs), ``--shard K/N`` slices
cover every case once, ``napkit report merge`` joins the slices into the unsharded report and
refuses reports that are not the slices of one run; the worker pool underneath
(napkit.conform.run.parallel) keeps the order, stops when told and aborts on Ctrl-C. No timing is
asserted here (benchmarks/conform_parallel.py measures the speed)."""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import io
import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main
from napkit.cli.common import jobs_value, shard_value
from napkit.conform.run.parallel import Pool, ProcessPool, cores, shard
from napkit.conform.run.runner import CaseResult, run_suite
from napkit.conform.run.shards import cases_digest
from napkit.conform.suite.cases import Case, Filters, default_suite_dir, load_suite, select
from napkit.protocol.process import Session, in_process_opener

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
MUTANT = [sys.executable, str(REPO / "conformance" / "mutants" / "adapter.py"),
          "revoke-allowed"]
HANG = [sys.executable, str(FIXTURES / "adapters" / "hang.py"), "start-match"]
Capture = pytest.CaptureFixture[str]
JSONObject = dict[str, Any]


def conform(tmp_path: Path, name: str, *args: str,
            program: list[str] | None = None) -> tuple[int, JSONObject, str]:
    """napkit conform in this process: its status, its JSON report (timings taken out) and
    what it printed."""
    report = tmp_path / f"{name}.json"
    argv = ["conform", "--json", str(report), *args]
    if program is not None:
        argv += ["--", *program]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(argv)
    document = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return status, untimed(document), out.getvalue()


def untimed(document: JSONObject) -> JSONObject:
    """A JSON report without its timings, the one thing -j may change."""
    if not document:
        return document
    document = dict(document, elapsed=None)
    document["cases"] = [dict(c, duration=None) for c in document["cases"]]
    if "seconds" in document.get("totals", {}):  # the cases' durations summed (issue 17)
        document["totals"] = dict(document["totals"], seconds=None)
        document["by_ruleset"] = {k: dict(v, seconds=None)
                                  for k, v in document["by_ruleset"].items()}
    return document


def summary(text: str) -> list[str]:
    """The summary printed at the end, its time and rate taken out, its first line (which
    says how many processes ran) left out."""
    lines = text.splitlines()[1:]
    if lines:
        lines[-1] = lines[-1].rsplit(" in ", 1)[0]
    # The slowest cases and the seconds by ruleset (issue 17): timings, which -j changes.
    timed = [i for i, line in enumerate(lines) if line.startswith("slowest ")]
    if timed:
        end = lines.index("", timed[0])
        lines[timed[0]:end + 1] = []
    return lines


def statuses(document: JSONObject) -> Counter[str]:
    return Counter(c["status"] for c in document["cases"])


# --- -j N against real programs ------------------------------------------------------------------
def test_j2_gives_the_report_of_j1_against_the_reference(tmp_path: Path) -> None:
    args = ("--ruleset", "classic")
    status1, one, out1 = conform(tmp_path, "j1", *args)
    status2, two, out2 = conform(tmp_path, "j2", "-j", "2", *args)
    assert status1 == status2 == 0
    assert one["totals"]["cases"] == one["totals"]["passed"] > 300
    assert two == one
    assert summary(out2) == summary(out1)
    assert "2 processes at once" in out2.splitlines()[0]


@pytest.mark.parametrize("forks", [True, False], ids=["worker processes", "threads"])
def test_j2_gives_the_report_of_j1_against_a_mutant(forks: bool, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the system forks, each program and its share of the harness run in a worker
    process; elsewhere in a thread: the report is -j 1's either way."""
    monkeypatch.setattr("napkit.conform.run.parallel.can_fork", lambda: forks)
    args = ("--ruleset", "classic")
    status1, one, out1 = conform(tmp_path, "j1", *args, program=MUTANT)
    status2, two, out2 = conform(tmp_path, "j2", "-j", "2", *args, program=MUTANT)
    assert status1 == status2 == 1
    counts = statuses(one)
    assert counts["failed"] > 20 and counts["passed"] > 200  # a real mix to compare
    assert two == one
    assert summary(out2) == summary(out1)
    assert [c["message"] for c in two["cases"] if c["status"] == "failed"] == [
        c["message"] for c in one["cases"] if c["status"] == "failed"]


def test_exitfirst_stops_at_the_same_case_with_j2(tmp_path: Path) -> None:
    args = ("--ruleset", "classic", "-x")
    _, one, _ = conform(tmp_path, "j1", *args, program=MUTANT)
    _, two, out2 = conform(tmp_path, "j2", "-j", "2", *args, program=MUTANT)
    assert one["cases"][-1]["status"] == "failed"
    assert statuses(one)["failed"] == 1 and one["totals"]["selected"] > len(one["cases"])
    assert two == one
    assert "(stopped after the first failure;" in out2.splitlines()[-1]


def test_max_timeouts_counts_the_same_cases_with_j2(tmp_path: Path) -> None:
    """Every match case hangs: with --max-timeouts 2 the run stops after the second, whether
    one process or two ran them (each restarted in its own worker)."""
    args = ("--ruleset", "classic", "--kind", "match", "--timeout", "0.3",
            "--max-timeouts", "2")
    _, one, _ = conform(tmp_path, "j1", *args, program=HANG)
    _, two, _ = conform(tmp_path, "j2", "-j", "2", *args, program=HANG)
    assert [c["status"] for c in one["cases"]] == ["failed", "failed"]
    assert "within the time limit" in one["cases"][0]["message"]
    assert one["totals"]["selected"] > 2
    assert two == one


def test_a_program_broken_in_one_worker_is_restarted_there(tmp_path: Path) -> None:
    """The fixture suite's one match case hangs and fails; the cases after it still pass in
    the worker that restarted its program, as they do with -j 1."""
    # The time limit only ends the hang: long enough that no answer of the reference's is
    # late on a busy machine (at half a second, one was).
    suite = ("--suite", str(FIXTURES / "conformance"), "--timeout", "5", "--max-timeouts",
             "0")
    _, one, _ = conform(tmp_path, "j1", *suite, program=HANG)
    _, two, _ = conform(tmp_path, "j2", "-j", "2", *suite, program=HANG)
    assert [c["status"] for c in one["cases"]] == ["passed"] * 3 + ["failed", "passed"]
    assert two == one


def test_jobs_auto_and_more_jobs_than_cases(tmp_path: Path) -> None:
    suite = ("--suite", str(FIXTURES / "conformance"))
    _, one, _ = conform(tmp_path, "j1", *suite)
    for jobs in ("auto", "0", "9"):
        status, many, _ = conform(tmp_path, f"j{jobs}", "-j", jobs, *suite)
        assert status == 0 and many == one


def test_results_come_to_the_caller_in_order_in_its_thread() -> None:
    cases = select(load_suite(default_suite_dir(), Filters(rulesets=("pagat",)))[0],
                   Filters(rulesets=("pagat",)))[:60]
    sessions = [Session(in_process_opener(), 10.0) for _ in range(3)]
    hello = sessions[0].open()
    seen: list[tuple[str, str]] = []

    def on_result(result: CaseResult) -> None:
        seen.append((result.id, threading.current_thread().name))

    results = run_suite(cases, sessions, hello.supports, on_result=on_result)
    assert [r.id for r in results] == [c.id for c in cases]
    assert seen == [(c.id, threading.current_thread().name) for c in cases]
    assert sum(s.starts for s in sessions) > 1  # the others did work too


# --- the pool -------------------------------------------------------------------------------------
def test_the_pool_keeps_the_order_whatever_order_the_work_ends() -> None:
    delays = random.Random(4).choices([0.0, 0.001, 0.004], k=200)
    threads: set[str] = set()

    def work(worker: str, n: int) -> tuple[str, int]:
        threads.add(threading.current_thread().name)
        time.sleep(delays[n])
        return worker, n * n

    with Pool(["a", "b", "c"]) as pool:
        results = list(pool.map(work, range(200)))
    assert [square for _, square in results] == [n * n for n in range(200)]
    assert {worker for worker, _ in results} == {"a", "b", "c"}
    assert len(threads) == 3 and threading.current_thread().name not in threads


def test_the_pool_raises_a_failure_at_its_place() -> None:
    def work(_worker: None, n: int) -> int:
        if n == 5:
            raise ValueError("five")
        return n

    got: list[int] = []
    with pytest.raises(ValueError, match="five"), Pool([None, None]) as pool:
        got.extend(pool.map(work, range(50)))
    assert got == [0, 1, 2, 3, 4]


def test_the_pool_stops_when_the_caller_does() -> None:
    taken = itertools.count()
    with Pool([None, None], ahead=8) as pool:
        for n in pool.map(lambda _w, n: n, (next(taken) for _ in itertools.count())):
            if n == 10:
                break
    assert not any(t.name.startswith("napkit-worker") for t in threading.enumerate())
    assert 11 <= next(taken) <= 11 + 8 + 2  # an endless supply, read only a little ahead


def test_one_worker_works_in_the_caller_s_thread() -> None:
    with Pool(["only"]) as pool:
        names = list(pool.map(lambda _w, _n: threading.current_thread().name, range(3)))
    assert names == [threading.current_thread().name] * 3


def test_an_exception_in_the_caller_aborts_every_worker() -> None:
    """Ctrl-C while workers are busy: abort() is called for each, which ends its work, and
    the with block ends at once."""
    released = {"a": threading.Event(), "b": threading.Event()}
    aborted: list[str] = []
    waited: list[bool] = []  # whether each wait ended by abort (not by its time running out)

    def work(worker: str, n: int) -> int:
        if n > 0:
            waited.append(released[worker].wait(300))  # a program that does not answer
        return n

    def abort(worker: str) -> None:
        aborted.append(worker)
        released[worker].set()

    with pytest.raises(KeyboardInterrupt), Pool(["a", "b"], abort=abort) as pool:
        for _ in pool.map(work, range(10)):
            raise KeyboardInterrupt
    assert sorted(aborted) == ["a", "b"]
    assert all(waited), waited  # no time measured: a busy machine is slow, not wrong


def test_pool_refuses_no_workers() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        Pool([])
    with pytest.raises(ValueError, match="at least one worker"):
        ProcessPool(0, lambda k: k)


posix = pytest.mark.skipif(os.name != "posix", reason="forks: POSIX only")


@posix
def test_the_process_pool_keeps_the_order_and_uses_its_processes() -> None:
    delays = random.Random(5).choices([0.0, 0.002], k=60)

    def work(worker: tuple[int, int], n: int) -> tuple[int, int, int]:
        time.sleep(delays[n])
        return worker[0], os.getpid(), n * n

    with ProcessPool(2, lambda k: (k, os.getpid())) as pool:
        results = list(pool.map(work, range(60)))
    assert [square for _, _, square in results] == [n * n for n in range(60)]
    assert {k for k, _, _ in results} == {0, 1}
    assert os.getpid() not in {pid for _, pid, _ in results}
    with ProcessPool(2, lambda k: k) as few:  # as few items as processes: one each
        assert sorted(few.map(lambda k, _n: k, range(2))) == [0, 1]


@posix
def test_the_process_pool_raises_a_failure_at_its_place_and_stops() -> None:
    def work(_worker: None, n: int) -> int:
        if n == 7:
            raise KeyError("seven")
        return n

    got: list[int] = []
    with pytest.raises(KeyError, match="seven"), ProcessPool(2, lambda k: None) as pool:
        got.extend(pool.map(work, itertools.count()))  # endless: the failure ends it
    assert got == list(range(7))


@posix
def test_a_worker_process_that_dies_fails_its_items(tmp_path: Path) -> None:
    def work(_worker: None, n: int) -> int:
        if n == 3:
            os._exit(9)  # the process dies, taking its items with it
        return n

    got: list[int] = []
    with pytest.raises(RuntimeError, match="worker process ended"), ProcessPool(
            2, lambda k: None) as pool:
        got.extend(pool.map(work, range(40)))
    assert got == [0, 1, 2]


@posix
def test_ctrl_c_aborts_the_worker_processes(tmp_path: Path) -> None:
    """An exception in the caller: each process is sent SIGTERM, calls abort (here: leaves a
    file) and ends, though its work would have slept a minute; close is for a normal end."""
    def work(worker: int, n: int) -> int:
        if n > 1:
            (tmp_path / f"sleeping-{worker}").write_text("", encoding="utf-8")
            time.sleep(60)
        return n

    def abort(k: int) -> None:
        (tmp_path / f"aborted-{k}").write_text("", encoding="utf-8")

    def close(k: int) -> None:
        (tmp_path / f"closed-{k}").write_text("", encoding="utf-8")

    with pytest.raises(KeyboardInterrupt), ProcessPool(2, lambda k: k, close=close,
                                                       abort=abort) as pool:
        for n in pool.map(work, range(10)):
            while n == 1 and len(list(tmp_path.iterdir())) < 2:  # both at work
                time.sleep(0.01)
            if n == 1:
                raise KeyboardInterrupt
    # Aborted, not ended by their sleep (no time measured: a busy machine is slow, not wrong).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["aborted-0", "aborted-1",
                                                          "sleeping-0", "sleeping-1"]
    with ProcessPool(2, lambda k: k, close=close, abort=abort) as pool:
        assert list(pool.map(lambda _w, n: n, range(4))) == [0, 1, 2, 3]
    assert {"closed-0", "closed-1"} <= {p.name for p in tmp_path.iterdir()}


# --- shards -------------------------------------------------------------------------------------
def test_shards_cover_every_case_once_balanced_by_count_and_ruleset() -> None:
    cases, _ = load_suite(default_suite_dir())
    ids = [c.id for c in cases]
    for count in (1, 2, 3, 4, 7):
        slices = [shard(ids, k, count) for k in range(1, count + 1)]
        assert sorted(itertools.chain(*slices)) == sorted(ids)  # each exactly once
        assert max(map(len, slices)) - min(map(len, slices)) <= 1
        for ruleset in {c.ruleset for c in cases}:
            mix = [sum(i.startswith(ruleset + "/") for i in s) for s in slices]
            assert max(mix) - min(mix) <= 1, (ruleset, mix)
        assert all(s == sorted(s) for s in slices)  # each in the run's order


@pytest.mark.parametrize("text", ["0/3", "4/3", "1/0", "a/b", "3", "", "-1/2", "1/2/3", "2/-3"])
def test_a_bad_shard_is_a_usage_error_on_one_line(text: str, capsys: Capture) -> None:
    assert main(["conform", f"--shard={text}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "a shard is K/N" in err and repr(text) in err


@pytest.mark.parametrize("text", ["-1", "two", "1.5"])
def test_a_bad_number_of_jobs_is_a_usage_error_on_one_line(text: str, capsys: Capture) -> None:
    assert main(["conform", f"--jobs={text}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs" in err and repr(text) in err


def test_the_values_of_shard_and_jobs() -> None:
    assert shard_value("2/4") == (2, 4) and shard_value(" 1/1 ") == (1, 1)
    assert jobs_value("3") == 3 and jobs_value("auto") == jobs_value("0") == cores() >= 1
    with pytest.raises(ValueError):
        shard([1, 2], 3, 2)


def shards_of(tmp_path: Path, count: int, *args: str, name: str = "shard") -> list[Path]:
    """The JSON reports of the ``count`` shards of a run (in this process, without pipes)."""
    paths = []
    for k in range(1, count + 1):
        path = tmp_path / f"{name}-{k}-of-{count}.json"
        status = main(["conform", "--in-process", "-q", "--shard", f"{k}/{count}", "--json",
                       str(path), *args])
        assert status in (0, 1)
        paths.append(path)
    return paths


def merge(*paths: Path | str, out: Path | None = None) -> int:
    argv = ["report", "merge", "-q", *map(str, paths)]
    return main([*argv, "-o", str(out)] if out is not None else argv)


def test_merged_shards_are_the_unsharded_report(tmp_path: Path) -> None:
    args = ("--ruleset", "classic", "--ruleset", "peep")
    assert main(["conform", "--in-process", "-q", "--json", str(tmp_path / "whole.json"),
                 *args]) == 0
    whole = json.loads((tmp_path / "whole.json").read_text(encoding="utf-8"))
    assert whole["shard"] is None and whole["selection"]["filters"]["rulesets"] == [
        "classic", "peep"]
    paths = shards_of(tmp_path, 3, *args)
    parts = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    assert [p["shard"] for p in parts] == [{"index": k, "count": 3} for k in (1, 2, 3)]
    ids = [c["id"] for p in parts for c in p["cases"]]
    assert sorted(ids) == sorted(c["id"] for c in whole["cases"]) and len(set(ids)) == len(ids)
    merged = tmp_path / "merged.json"
    assert merge(paths[2], paths[0], paths[1], out=merged) == 0  # in any order
    assert untimed(json.loads(merged.read_text(encoding="utf-8"))) == untimed(whole)


def test_merged_shards_of_a_failing_program_keep_its_failures(tmp_path: Path) -> None:
    """Against a mutant, through the protocol: the merged report fails as the whole run does,
    with the same failures, and the merge exits 1 as napkit conform does."""
    args = ["--ruleset", "classic", "--", *MUTANT]
    assert main(["conform", "-q", "--json", str(tmp_path / "whole.json"), *args]) == 1
    paths = []
    for k in (1, 2):
        paths.append(tmp_path / f"s{k}.json")
        assert main(["conform", "-q", "--shard", f"{k}/2", "--json", str(paths[-1]),
                     *args]) == 1
    assert merge(*paths, out=tmp_path / "merged.json") == 1
    whole = json.loads((tmp_path / "whole.json").read_text(encoding="utf-8"))
    merged = json.loads((tmp_path / "merged.json").read_text(encoding="utf-8"))
    assert whole["ok"] is False and untimed(merged) == untimed(whole)


def test_the_report_keeps_its_old_fields_in_their_order(tmp_path: Path) -> None:
    _, document, _ = conform(tmp_path, "r", "--suite", str(FIXTURES / "conformance"),
                             "--in-process", "--shard", "1/2")
    old = ["format", "program", "suite", "ok", "elapsed", "totals", "by_ruleset", "by_rule",
           "notes", "cases"]
    assert [k for k in document if k in old] == old
    assert document["shard"] == {"index": 1, "count": 2}
    assert document["selection"]["cases"] == 5 and document["totals"]["selected"] == 3
    assert document["selection"]["digest"].startswith("sha256:")


def test_an_empty_shard_is_no_failure(tmp_path: Path, capsys: Capture) -> None:
    status, document, _ = conform(tmp_path, "r", "--suite", str(FIXTURES / "conformance"),
                                  "--in-process", "--shard", "7/9")
    assert status == 0 and document["cases"] == [] and document["totals"]["selected"] == 0
    assert "shard 7/9 has no case: the filters chose 5" in capsys.readouterr().err


# --- merge refusing what is not the shards of one run ---------------------------------------------
@pytest.fixture
def three(tmp_path: Path) -> list[Path]:
    return shards_of(tmp_path, 3, "--ruleset", "classic", "--kind", "illegal")


def refusal(capsys: Capture, *paths: Path | str) -> str:
    assert merge(*paths) == 2  # 1 is the merged run's failure; refused, nothing is written
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("napkit report merge: ")
    return err.strip()


def _edit(path: Path, change: Any, to: Path) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    to.write_text(json.dumps(document), encoding="utf-8")
    return to


def test_merge_refuses_missing_and_repeated_shards(three: list[Path], capsys: Capture) -> None:
    assert refusal(capsys, three[0], three[2]).endswith(
        f"shard 2/3 missing: 2 of 3 given ({three[0]} is 1, {three[2]} is 3)")
    assert f"{three[1]}: shard 2/3 again ({three[1]} is that shard too)" in refusal(
        capsys, three[0], three[1], three[1], three[2])


def test_merge_refuses_overlapping_shards(three: list[Path], tmp_path: Path,
                                          capsys: Capture) -> None:
    first = json.loads(three[0].read_text(encoding="utf-8"))["cases"][0]

    def overlap(document: JSONObject) -> None:
        document["cases"][0] = first
        # Its counts kept its cases' (a report that says otherwise is refused for that):
        # only the overlap is wrong.
        from napkit.conform.report.text import report_document

        document.update(report_document(
            program=document["program"], suite=document["suite"],
            selection=document["selection"], shard=document["shard"],
            elapsed=document["elapsed"], selected=document["totals"]["selected"],
            notes=document["notes"], cases=document["cases"], versions=document["versions"],
            order=document["order"]))

    bad = _edit(three[1], overlap, tmp_path / "bad.json")
    message = refusal(capsys, three[0], bad, three[2])
    assert f"{bad}: case {first['id']} is also in {three[0]} (shards overlap)" in message


def test_merge_refuses_reports_of_other_runs(three: list[Path], tmp_path: Path,
                                             capsys: Capture) -> None:
    other = shards_of(tmp_path, 3, "--ruleset", "classic", "--kind", "legal", name="legal")
    assert f"{other[1]}: other filters (--ruleset classic --kind legal) than {three[0]} " \
           "(--ruleset classic --kind illegal)" in refusal(capsys, three[0], other[1], three[2])
    fewer = shards_of(tmp_path, 2, "--ruleset", "classic", "--kind", "illegal", name="two")
    assert f"{fewer[1]}: shard 2/2, but {three[0]} is one of 3 shards" in refusal(
        capsys, three[0], fewer[1])
    program = _edit(three[1], lambda d: d["program"].update(name="my-nap 1.0"),
                    tmp_path / "program.json")
    assert f"{program}: another program (my-nap 1.0: in process) than {three[0]}" in refusal(
        capsys, three[0], program, three[2])
    command = _edit(three[1], lambda d: d["program"].update(command=["./nap"]),
                    tmp_path / "command.json")
    assert "the program run by another command (napkit" in refusal(capsys, three[0], command,
                                                                    three[2])
    digest = _edit(three[1], lambda d: d["selection"].update(digest="sha256:00"),
                   tmp_path / "digest.json")
    assert f"{digest}: another suite or other cases than {three[0]}" in refusal(
        capsys, three[0], digest, three[2])
    xfail = _edit(three[1], lambda d: d["selection"].update(xfail="known.json"),
                  tmp_path / "xfail.json")
    assert "another expected-failures file (known.json)" in refusal(capsys, three[0], xfail,
                                                                     three[2])


def test_merge_refuses_what_is_no_shard_s_report(three: list[Path], tmp_path: Path,
                                                 capsys: Capture) -> None:
    whole = tmp_path / "whole.json"
    assert main(["conform", "--in-process", "-q", "--ruleset", "classic", "--kind", "illegal",
                 "--json", str(whole)]) == 0
    assert refusal(capsys, whole) == (f"napkit report merge: {whole}: not a shard's report: "
                                      "its run was whole (no --shard K/N)")
    old = _edit(three[0], lambda d: (d.pop("selection"), d.pop("shard")), tmp_path / "old.json")
    assert "(no 'selection': written by an older napkit?)" in refusal(capsys, old)
    text = tmp_path / "notes.txt"
    text.write_text("not json", encoding="utf-8")
    assert refusal(capsys, text).startswith(f"napkit report merge: {text}: not a JSON report: "
                                            "line 1, column 1")
    record = _edit(three[0], lambda d: d.update(format="napkit-hand/1"), tmp_path / "hand.json")
    assert "not a JSON report of napkit conform (napkit-conform-report/1)" in refusal(
        capsys, record)
    broken = _edit(three[0], lambda d: d["cases"][0].pop("status"), tmp_path / "broken.json")
    assert refusal(capsys, broken).endswith(
        "not a report as napkit conform writes it: $.cases[0]: no 'status'")
    assert refusal(capsys, tmp_path / "absent.json").endswith(
        "absent.json: cannot read: No such file or directory")


def test_merge_will_not_write_over_a_report_it_reads(three: list[Path], capsys: Capture) -> None:
    before = three[0].read_bytes()
    assert merge(*three, out=three[0]) == 2
    assert "would overwrite the report" in capsys.readouterr().err
    assert three[0].read_bytes() == before


def test_merge_writes_to_standard_output_by_default(three: list[Path], capsys: Capture) -> None:
    assert main(["report", "merge", *map(str, three)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["shard"] is None
    assert captured.err.startswith("ok: ") and "of 3 shards" in captured.err


# --- Ctrl-C ---------------------------------------------------------------------------------------
@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT: POSIX signals only")
def test_ctrl_c_with_two_workers_is_one_line_and_leaves_no_program(tmp_path: Path) -> None:
    """SIGINT while two programs run cases: the summary of what ran, one line on standard
    error, status 130, no traceback, and neither program left running (each is in its own
    process group, which Ctrl-C does not reach)."""
    program = tmp_path / "marked_adapter.py"  # its path marks its processes
    program.write_text("from napkit.protocol.adapter import main\nraise SystemExit(main([]))\n",
                       encoding="utf-8")
    suite = tmp_path / "cases"  # a copy: the run must not see the suite being regenerated
    shutil.copytree(default_suite_dir(), suite)
    child = subprocess.Popen([sys.executable, "-m", "napkit", "conform", "-j", "2", "--suite",
                              str(suite), "--", sys.executable, str(program)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    assert "2 processes at once" in child.stdout.readline().decode()  # the run has begun
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert "Traceback" not in err.decode()
    # What ran is reported, as pytest does (issue 17, spec/conformance.md 7.3).
    assert child.returncode == 130 and err.decode().strip().startswith(
        "napkit conform: interrupted: "), err.decode()
    deadline = time.monotonic() + 60  # the programs are killed and waited for before the
    while _running(str(program)) and time.monotonic() < deadline:  # exit: this only allows
        time.sleep(0.05)  # for /proc on a busy machine, and fails a run that leaves any
    assert _running(str(program)) == []


def _running(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_the_selection_digest_follows_the_files_not_only_the_ids(tmp_path: Path) -> None:
    cases, _ = load_suite(FIXTURES / "conformance")
    before = cases_digest(cases)
    copy: list[Case] = []
    for case in cases:
        path = tmp_path / f"{len(copy)}.json"
        path.write_bytes(case.path.read_bytes() + (b" " if not copy else b""))  # one space
        copy.append(dataclasses.replace(case, path=path))
    assert cases_digest(copy) != before
    assert cases_digest(cases) == before


# --- the benchmark runs (no timing asserted) ------------------------------------------------------
def test_the_benchmark_runs_both_ways_on_a_few_cases() -> None:
    script = REPO / "benchmarks" / "conform_parallel.py"
    spec = importlib.util.spec_from_file_location("conform_parallel", script)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    filters = Filters(rulesets=("pagat",))
    cases = select(load_suite(default_suite_dir(), filters)[0], filters)[:12]
    best = bench.measure(cases, 2, 1)
    assert sorted(best) == sorted(bench.WAYS) and all(wall > 0 for wall, _, _ in best.values())
