"""Ctrl-C at a random moment of a real command (SIGINT sent to a subprocess): one line on
standard error, exit status 130, no traceback, and every file that existed is as it was
(issue 13). The moments are drawn from seeded random sources, so that a failure can be run
again.

SIGTERM (a cancelled CI job) is Ctrl-C too, exit status 143 (issue 27, defect 12); and a
``napkit conform`` stopped before its first case is done writes every report, marked
interrupted, with no case (spec/conformance.md 7.3). Those moments are not drawn but made: the
program (tests/fixtures/adapters/waits.py) makes a file when the harness is waiting on it, in
its handshake or its first case, and the signal is sent once the file is there.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT: POSIX signals only")

NAPKIT = [sys.executable, "-m", "napkit"]
WAITS = Path(__file__).resolve().parent / "fixtures" / "adapters" / "waits.py"
SIGNALS = [(signal.SIGINT, 130), (signal.SIGTERM, 143)]


def _interrupt(argv: list[str], after: float, ready: str | None = None,
               sig: signal.Signals = signal.SIGINT) -> tuple[int, str]:
    """Run ``argv``; once it is ``ready`` (that text on standard output, else once napkit's
    command line is imported: a Ctrl-C while Python itself starts up is Python's, not
    napkit's, and on a busy machine that takes longer than any fixed wait), wait ``after``
    seconds more and send ``sig``; (status, stderr)."""
    if ready is None:  # -X importtime: each import, as it ends, is a line on stderr
        argv = [argv[0], "-X", "importtime", *argv[1:]]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    if ready is None:
        for raw in child.stderr:
            if raw.decode().split("|")[-1].strip() == "napkit.cli":
                break
        else:
            raise AssertionError("napkit.cli was never imported")
    else:
        line = child.stdout.readline().decode()
        assert ready in line, line
    time.sleep(after)
    child.send_signal(sig)
    try:
        _, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    return child.returncode, "\n".join(line for line in err.decode().splitlines()
                                       if not line.startswith("import time:"))


@pytest.fixture(scope="module")
def many_hands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("signals") / "hands.jsonl"
    subprocess.run([*NAPKIT, "record", "pagat", "--hands", "4000", "--seed", "3", "-q", "-o",
                    str(path)], check=True)
    return path


@pytest.mark.parametrize("seed", range(3))
def test_ctrl_c_during_validate(seed: int, many_hands: Path) -> None:
    after = random.Random(seed).uniform(0.0, 0.5)
    status, err = _interrupt([*NAPKIT, "validate", str(many_hands)], after, ready="valid hand")
    assert "Traceback" not in err
    assert status == 130 and err.strip() == "napkit: interrupted", err


@pytest.mark.parametrize("seed", range(3))
def test_ctrl_c_during_conform(seed: int) -> None:
    after = random.Random(seed).uniform(0.0, 1.2)  # loading the suite, or running it
    status, err = _interrupt([*NAPKIT, "conform"], after)  # the whole suite: seconds
    assert "Traceback" not in err
    assert status == 130 and "interrupted" in err, err


@pytest.mark.parametrize(("sig", "code"), SIGNALS, ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("seed", range(3))
def test_ctrl_c_during_record_leaves_the_file(seed: int, sig: signal.Signals, code: int,
                                              tmp_path: Path) -> None:
    target = tmp_path / "hands.jsonl"
    target.write_text("what was there\n", encoding="utf-8")
    after = random.Random(seed).uniform(0.1, 1.0)
    status, err = _interrupt([*NAPKIT, "record", "pagat", "--hands", "200000", "-q", "-o",
                              str(target)], after, sig=sig)
    assert "Traceback" not in err
    assert status == code and "interrupted" in err, err
    assert target.read_text(encoding="utf-8") == "what was there\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl"]  # no temporary left


def test_ctrl_c_in_a_weak_dictionarys_callback_is_raised_after_it() -> None:
    # The engine keeps its games in a weak dictionary; a game let go runs the dictionary's
    # callback, and a KeyboardInterrupt raised there would be printed and dropped (seen once
    # in test_ctrl_c_during_conform). The handler sends it again once the callback is done.
    import threading
    import weakref
    from types import FrameType

    from napkit.cli import interrupt

    class Thing:
        pass

    frames: list[FrameType] = []

    def watch(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code.co_name in ("remove", "_remove"):
            frames.append(frame)

    games: weakref.WeakValueDictionary[int, Thing] = weakref.WeakValueDictionary()
    members: weakref.WeakSet[Thing] = weakref.WeakSet()
    one, two = Thing(), Thing()
    games[1] = one
    members.add(two)
    sys.setprofile(watch)
    try:
        del one, two
    finally:
        sys.setprofile(None)
    assert len(frames) == 2
    assert all(interrupt._swallowing(frame) for frame in frames)
    assert not interrupt._swallowing(sys._getframe())
    assert threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, interrupt._on_sigint)
    try:
        with pytest.raises(KeyboardInterrupt):
            interrupt._on_sigint(signal.SIGINT, frames[0])  # returns: sent again
            time.sleep(120)  # the second SIGINT ends this at once (however late it comes)
    finally:
        signal.signal(signal.SIGINT, previous)


# --- SIGTERM as Ctrl-C, and a conform run stopped before its first case (issue 27, 12) -------
def _signal_when_waiting(argv: list[str], waiting: Path, sig: signal.Signals
                         ) -> tuple[int, str, str]:
    """Run ``argv`` (whose program is waits.py, making ``waiting`` when the harness waits on
    it), send ``sig`` to napkit once ``waiting`` is there; (status, stdout, stderr). The
    program is napkit's child: the signal goes to napkit alone, as kill(1) or a CI runner
    sends it."""
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120  # a bound on a hang, not a measure of speed
        while not waiting.exists():
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the program was never asked"
            time.sleep(0.01)
        child.send_signal(sig)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return child.returncode, out.decode(), err.decode()


def _assert_the_program_ended(waiting: Path) -> None:
    """The program (whose id waits.py wrote in ``waiting``) was stopped with the run: it runs
    in a session of its own, where the terminal's Ctrl-C never reaches it."""
    pid = int(waiting.read_text(encoding="ascii"))
    deadline = time.monotonic() + 60  # a bound on a hang, not a measure of speed
    while not _gone(pid):
        assert time.monotonic() < deadline, f"the program {pid} outlived the run"
        time.sleep(0.01)


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (reaped, or a zombie waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("moment", ["hello", "start-hand"],
                         ids=["in-the-handshake", "in-the-first-case"])
@pytest.mark.parametrize(("sig", "code"), SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_conform_stopped_before_its_first_case_writes_every_report(
        moment: str, sig: signal.Signals, code: int, tmp_path: Path) -> None:
    waiting, never = tmp_path / "waiting", tmp_path / "never"
    reports = {kind: tmp_path / f"r.{kind}" for kind in ("json", "junit", "tap", "html")}
    argv = [*NAPKIT, "conform", "--case", "classic/outcome/000*",
            *(arg for kind, path in reports.items() for arg in (f"--{kind}", str(path))),
            "--", sys.executable, str(WAITS), moment, str(waiting), str(never)]
    status, out, err = _signal_when_waiting(argv, waiting, sig)
    assert "Traceback" not in err
    assert status == code, (status, out, err)
    assert "interrupted: 10 of 10 cases not run, the reports written" in err
    report = json.loads(reports["json"].read_text(encoding="utf-8"))
    assert report["interrupted"] is True and report["ok"] is False and report["cases"] == []
    assert report["totals"]["selected"] == 10 and report["totals"]["not_run"] == 10
    assert report["program"]["command"][-4:] == [str(WAITS), moment, str(waiting), str(never)]
    assert (report["versions"]["program"] is None) == (moment == "hello")  # no hello yet
    by = "SIGTERM" if sig == signal.SIGTERM else "Ctrl-C"
    assert f"Bail out! interrupted ({by}): 10 of 10 cases not run" in reports["tap"].read_text()
    assert f"interrupted ({by})" in reports["junit"].read_text(encoding="utf-8")
    assert "interrupted" in reports["html"].read_text(encoding="utf-8")
    # The report it wrote is one every reader takes (its counts are its cases').
    page = tmp_path / "again.html"
    again = subprocess.run([*NAPKIT, "report", "html", str(reports["json"]), "-o", str(page)],
                           capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    _assert_the_program_ended(waiting)


@pytest.mark.parametrize(("sig", "code"), SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_fuzz_stopped_writes_its_report(sig: signal.Signals, code: int, tmp_path: Path
                                        ) -> None:
    waiting, never = tmp_path / "waiting", tmp_path / "never"
    report = tmp_path / "fuzz.json"
    argv = [*NAPKIT, "fuzz", "--seed", "1", "--hands", "50", "--ruleset", "classic",
            "--json", str(report), "--", sys.executable, str(WAITS), "start-hand,start-match",
            str(waiting), str(never)]
    status, out, err = _signal_when_waiting(argv, waiting, sig)
    assert "Traceback" not in err
    assert status == code and "interrupted" in out, (status, out, err)
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["stopped"] == "interrupted" and document["disagreement"] is None
    _assert_the_program_ended(waiting)


@pytest.mark.parametrize(("sig", "code"), SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_perft_stopped_in_the_handshake(sig: signal.Signals, code: int, tmp_path: Path
                                        ) -> None:
    waiting, never = tmp_path / "waiting", tmp_path / "never"
    argv = [*NAPKIT, "perft", "classic/default-3p-deal", "--depth", "2", "--program",
            sys.executable, str(WAITS), "hello", str(waiting), str(never)]
    status, out, err = _signal_when_waiting(argv, waiting, sig)
    assert "Traceback" not in err
    assert status == code and "interrupted" in err, (status, out, err)
    _assert_the_program_ended(waiting)


def test_sigterm_is_handled_as_ctrl_c_where_python_s_handlers_are_in_place() -> None:
    from napkit.cli import interrupt

    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        interrupt.install()
        assert signal.getsignal(signal.SIGTERM) is interrupt._on_sigint
        with pytest.raises(KeyboardInterrupt):
            interrupt._on_sigint(signal.SIGTERM, None)
        assert (interrupt.exit_status(), interrupt.stopped_by()) == (143, "SIGTERM")
        with pytest.raises(KeyboardInterrupt):
            interrupt._on_sigint(signal.SIGINT, None)
        assert (interrupt.exit_status(), interrupt.stopped_by()) == (130, "Ctrl-C")
        # A handler of the embedding program's own is kept.
        def own(_signum: int, _frame: object) -> None:
            return None

        signal.signal(signal.SIGTERM, own)
        interrupt.install()
        assert signal.getsignal(signal.SIGTERM) is own
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])


def test_ctrl_c_inside_jsonschema_rs_is_raised_again_back_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C whose handler runs while jsonschema-rs (Rust) checks for signals must not raise
    there: Rust panics on the exception and prints a backtrace (seen once in CI, interrupting
    ``napkit record``). The handler sees the check's Python frame and sends the signal again a
    moment later."""
    from types import SimpleNamespace

    from napkit.cli import interrupt
    from napkit.spec.schemas import in_rust

    frames = []

    def rust(document: object) -> bool:  # stands for jsonschema-rs: its caller's frame
        frames.append(sys._getframe(1))
        return True

    assert in_rust(rust)({}) is True
    sent: list[tuple[float, object]] = []
    monkeypatch.setattr("threading.Timer", lambda delay, send, args: SimpleNamespace(
        daemon=False, start=lambda: sent.append((delay, send))))
    before = interrupt.count()
    interrupt._on_sigint(signal.SIGINT, frames[0])  # no KeyboardInterrupt raised here
    assert sent and interrupt.count() == before


def test_ctrl_c_in_python_that_jsonschema_rs_calls_is_raised_again_back_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same, where the handler runs in Python code that jsonschema-rs calls while it checks
    (it imported ``decimal`` from inside Rust, and the handler ran in ``collections``: seen in
    a fresh clone's CI, a Rust panic and a traceback interrupting ``napkit record``): the
    check's frame is not the one the signal lands in, but one of its callers."""
    from types import SimpleNamespace

    from napkit.cli import interrupt
    from napkit.spec.schemas import in_rust

    sent: list[tuple[float, object]] = []
    monkeypatch.setattr("threading.Timer", lambda delay, send, args: SimpleNamespace(
        daemon=False, start=lambda: sent.append((delay, send))))
    before = interrupt.count()

    def imported() -> None:  # stands for the module jsonschema-rs imports
        interrupt._on_sigint(signal.SIGINT, sys._getframe())  # no KeyboardInterrupt here

    def rust(document: object) -> bool:  # stands for jsonschema-rs, calling Python
        imported()
        return True

    try:
        assert in_rust(rust)({}) is True
    except KeyboardInterrupt:
        pytest.fail("the KeyboardInterrupt was raised inside the check")
    assert sent and interrupt.count() == before
    with pytest.raises(KeyboardInterrupt):  # outside the check, it is raised at once
        interrupt._on_sigint(signal.SIGINT, sys._getframe())
    assert interrupt.count() == before + 1


def test_ctrl_c_while_jsonschema_rs_is_imported_is_raised_again_back_in_python() -> None:
    """jsonschema-rs's module, written in Rust, imports ``decimal`` as it starts: a Ctrl-C whose
    handler ran there raised inside Rust, which panicked with a backtrace (seen in a fresh
    clone's CI, interrupting ``napkit conform`` as it loaded the spec). Every frame of Python
    code run during that import is one the handler knows, in a fresh interpreter where the
    import really happens."""
    pytest.importorskip("jsonschema_rs")
    script = textwrap.dedent("""
        import sys
        from napkit.cli import interrupt
        from napkit.spec import schemas
        assert "jsonschema_rs" not in sys.modules and "decimal" not in sys.modules
        frames = []
        sys.setprofile(lambda frame, event, arg: frames.append(frame)
                       if event == "call" and frame.f_code.co_filename.endswith("decimal.py")
                       else None)
        try:
            found = schemas.rust()
        finally:
            sys.setprofile(None)
        assert found is not None and frames, "decimal was not imported by jsonschema_rs"
        print(all(interrupt._swallowing(frame) for frame in frames))
        print(interrupt._swallowing(sys._getframe()))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]
