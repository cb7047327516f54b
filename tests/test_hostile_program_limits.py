"""A program that floods its output (issue 27, defects 5 and 9): every string it sends (its
name, its version, its refusals' reasons, its errors' messages, the lines of its standard
error) is kept to the limits of spec/conformance.md 2.6 from the moment its line is read,
with its length said, so that the terminal, the reports and the harness's memory hold no
more of it; and the harness keeps nothing of a long answer once it is judged (the memo of
lines keeps none, shrinking keeps only its smallest failure), so that its memory stays flat
however long it talks to such a program.

No test here is timed: memory is measured (tracemalloc; the peak resident size of a command
run in a process of its own), and what is kept is counted."""

from __future__ import annotations

import gc
import json
import re
import subprocess
import sys
import tracemalloc
import weakref
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.fuzz.campaign import Campaign
from napkit.conform.fuzz.episodes import Disagreement, Games, Ref, Verdict, scope_of
from napkit.output.tables import shorten
from napkit.protocol.process import (
    LONGEST_NAME,
    LONGEST_TEXT,
    Session,
    bounded,
    in_process_opener,
    process_opener,
)
from napkit.spec.catalog import default_spec

REPOSITORY = Path(__file__).resolve().parents[1]
SUITE = REPOSITORY / "tests" / "fixtures" / "conformance"
MB = 1 << 20
SAID = re.compile(r"…\([0-9,]+ characters\)")

# napkit's adapter, but every string it sends SIZE characters long and different each time
# (its name, its version, each refusal's reason, each error's message, a line of standard
# error at every request), written compact as JavaScript's JSON.stringify writes it. HOW:
# "plays" (the rules kept), or "refuses" (the deal refused: every case and episode fails).
FLOOD = """
import json, sys
from napkit.protocol.adapter import Adapter

SIZE, HOW = int(sys.argv[1]), sys.argv[2]
adapter = Adapter()
n = 0
for raw in sys.stdin.buffer:
    n += 1
    request = json.loads(raw)
    kind = request.get("type")
    answer = adapter.handle(request)
    if kind == "hello":
        answer = dict(answer, name="n" * SIZE, version="v" * SIZE)
    elif HOW == "refuses" and kind == "apply" and request.get("seat") is None:
        answer = {"id": request["id"], "type": "refused", "rule": None,
                  "reason": f"{n} " + "r" * SIZE}
    elif answer.get("type") == "refused":
        answer = dict(answer, reason=f"{n} " + "r" * SIZE)
    elif answer.get("type") == "error":
        answer = dict(answer, message=f"{n} " + "m" * SIZE)
    sys.stderr.write(f"{n} " + "e" * SIZE + "\\n")
    sys.stderr.flush()
    sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\\n")
    sys.stdout.flush()
    if kind == "bye":
        break
"""
START = {"ruleset": "pagat", "options": {}, "players": 4, "dealer": 0, "seats": [0, 1, 2, 3],
         "pool": 0, "funds": None, "stakes": 1}
ILLEGAL = {"seat": 0, "action": {"type": "pass"}}  # chance is to deal: refused


@pytest.fixture
def flood(tmp_path: Path) -> Path:
    path = tmp_path / "flood.py"
    path.write_text(FLOOD, encoding="utf-8")
    return path


def session(flood: Path, how: str = "plays", size: int = MB) -> Session:
    return Session(process_opener([sys.executable, str(flood), str(size), how]), 60.0)


def longest_said(text: str) -> int:
    """The most characters of one string a program sent that ``text`` holds: the longest run
    of one letter the flood repeats (r, m, e, n, v)."""
    return max((len(m) for m in re.findall(r"r+|m+|e+|n+|v+", text)), default=0)


# --- the limits --------------------------------------------------------------------------------
def test_shorten_says_the_length_and_keeps_it_when_shortened_again() -> None:
    text = "x" * MB
    once = shorten(text, LONGEST_TEXT)
    assert once == "x" * LONGEST_TEXT + "…(1,048,576 characters)"
    assert shorten(once, LONGEST_TEXT) is once
    assert shorten(once, 10) == "x" * 10 + "…(1,048,576 characters)"
    assert shorten("short", LONGEST_TEXT) == "short"


def test_bounded_shortens_every_long_string_and_keeps_what_holds_none() -> None:
    actions = [{"type": "bid", "bid": "nap"}]
    value = {"type": "legal", "turn": 0, "actions": actions}
    assert bounded(value) is value  # nothing long: the same objects (vouched lists stay so)
    long = {"k" * 2000: ["b" * 5000, {"x": "c" * 1001}], "short": actions}
    got = bounded(long)
    assert list(got) == ["k" * LONGEST_TEXT + "…(2,000 characters)", "short"]
    first = got["k" * LONGEST_TEXT + "…(2,000 characters)"]
    assert first == ["b" * LONGEST_TEXT + "…(5,000 characters)",
                     {"x": "c" * LONGEST_TEXT + "…(1,001 characters)"}]
    assert got["short"] is actions


def test_what_a_program_sends_is_shortened_where_it_is_read(flood: Path) -> None:
    program = session(flood)
    try:
        hello = program.open()
        assert hello.name == "n" * LONGEST_NAME + "…(1,048,576 characters)"
        assert hello.version == "v" * LONGEST_NAME + "…(1,048,576 characters)"
        program.call("start-hand", **START)
        refused = program.call("apply", **ILLEGAL)
        assert refused["type"] == "refused" and refused["rule"] == "NAP-1.3.1"
        assert refused["reason"].endswith("…(1,048,578 characters)")
        assert len(refused["reason"]) <= LONGEST_TEXT + 30
        error = program.call("apply", seat=0, action={"type": "no such action"})
        assert error["type"] == "error" and SAID.search(error["message"])
        assert len(error["message"]) <= LONGEST_TEXT + 30
        tail = program.stderr_tail()
        assert tail and all(len(line) <= LONGEST_TEXT + 30 for line in tail.splitlines())
    finally:
        program.close()


def test_long_answers_leave_nothing_behind_in_the_harness(flood: Path) -> None:
    """30 refusals of a megabyte each, each different: what the harness still holds once
    they are read is a few kilobytes, not the 30 lines (the memo of lines kept each whole,
    its text and its value, 60 MB)."""
    program = session(flood)
    try:
        program.open()
        program.call("start-hand", **START)
        program.call("apply", **ILLEGAL)  # the first: whatever is made once is made
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for _ in range(30):
                assert program.call("apply", **ILLEGAL)["type"] == "refused"
            gc.collect()
            kept = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
    finally:
        program.close()
    assert kept < 2 * MB, f"{kept:,} bytes kept after 30 answers of 1 MB"


def test_reports_and_the_terminal_hold_a_flood_shortened(tmp_path: Path, flood: Path) -> None:
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("json", "junit", "tap", "html")}
    flags = [arg for kind, path in reports.items() for arg in (f"--{kind}", str(path))]
    done = subprocess.run([sys.executable, "-m", "napkit", "conform", "--suite", str(SUITE), "-v",
                           *flags, "--", sys.executable, str(flood), str(MB), "refuses"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    terminal = done.stdout + done.stderr
    assert "5 failed" in terminal
    assert longest_said(terminal) <= LONGEST_TEXT and SAID.search(terminal)
    assert len(terminal) < 200_000  # five failures drawn in full: not 5 MB of reasons
    for kind, path in reports.items():
        text = path.read_text(encoding="utf-8")
        assert longest_said(text) <= LONGEST_TEXT, kind
        assert SAID.search(text), kind
        assert len(text) < 400_000, (kind, len(text))
    document = json.loads(reports["json"].read_text())
    assert document["program"]["name"] == ("n" * LONGEST_NAME + "…(1,048,576 characters) "
                                           + "v" * LONGEST_NAME + "…(1,048,576 characters)")


# --- memory ------------------------------------------------------------------------------------
def peak_megabytes(*argv: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """The peak resident size of ``argv`` run in a process of its own (its largest process,
    the program it runs included), in MB; and how it went."""
    measure = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "sys.stderr.write(done.stdout + done.stderr)\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.exit(done.returncode)")
    done = subprocess.run([sys.executable, "-c", measure, *argv], capture_output=True,
                          text=True, timeout=600, check=False)
    return int(done.stdout.split()[-1]) / 1024, done


def test_fuzz_against_a_program_that_floods_keeps_its_memory_flat(tmp_path: Path,
                                                                  flood: Path) -> None:
    """20 episodes whose illegal tries are each refused with a megabyte's reason, every line
    different: the harness held each line it read (446 MB at its peak here, and more with every
    episode); now about what it holds against a quiet program (50 MB)."""
    peak, done = peak_megabytes(sys.executable, "-m", "napkit", "fuzz", "-q", "--seed", "1",
                                "--hands", "20", "--no-shrink", "-o",
                                str(tmp_path / "case.json"), "--", sys.executable, str(flood),
                                str(MB), "plays")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ok: no disagreement: 20 episodes" in done.stderr
    assert peak < 200, f"peak resident size {peak:.0f} MB"


def test_shrinking_keeps_only_the_smallest_failure_so_far() -> None:
    """Each try that still fails becomes the smallest so far; the one before it is let go
    (it held its whole episode and the program's answers, and a shrinking keeps hundreds)."""
    program = Session(in_process_opener(), 10.0)
    hello = program.open()
    scope = scope_of(hello.supports, default_spec().rulesets, ["pagat"])
    campaign = Campaign(scope, program, 1, Games(default_spec().rulesets))
    episode = campaign.episode(0)
    made: list[weakref.ref[Disagreement]] = []  # every failure made, while it lives
    most = 0

    def verdict(candidate: Any, requests: Any = None) -> Verdict:
        nonlocal most
        most = max(most, sum(ref() is not None for ref in made))
        if len(candidate.steps) < 12:  # a failure of the twelfth step, say
            return Verdict(None, 0)
        found = Disagreement(Ref("apply", 0), "refused the deal", expected="accepted",
                             got={"type": "refused", "rule": None, "reason": "r" * 1000})
        made.append(weakref.ref(found))
        return Verdict(found, 0)

    campaign.verdict = verdict  # type: ignore[method-assign,assignment]
    campaign._fresh = lambda episode, target: True  # type: ignore[method-assign]  # alone too
    first = verdict(episode).disagreement
    assert first is not None
    found = campaign.shrink_found(episode, first, 0.0)
    program.close()
    assert found.shrinking is not None and found.shrinking.kept >= 3
    assert any(ref() is found.disagreement for ref in made)
    assert most <= 2  # the first failure and the smallest so far, however many were kept
