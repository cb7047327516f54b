"""Long commands show their progress on standard error: a bar on a terminal (``napkit record
--hands K`` into a file or a pipe, ``napkit validate --quiet``), nothing where the bar would be
drawn over the output or where it was asked away, and the output itself is never touched."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from napkit.cli import main
from napkit.output.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_a_terminal(monkeypatch: pytest.MonkeyPatch, *, stdout_too: bool = False) -> Terminal:
    """Standard error (and, with ``stdout_too``, standard output) made a terminal."""
    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    if stdout_too:
        monkeypatch.setattr("sys.stdout", Terminal())
    return screen


def test_record_draws_a_bar_of_the_hands_and_takes_it_away(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    screen = on_a_terminal(monkeypatch)
    out = tmp_path / "hands.jsonl"
    assert main(["record", "pagat", "--hands", "30", "--seed", "1", "-o", str(out)]) == 0
    shown = screen.getvalue()
    assert "[" + "#" * 30 + "] 30/30 hands" in shown
    assert shown.endswith("\r\x1b[K")  # nothing of the bar is left on the screen
    assert len(out.read_text(encoding="utf-8").splitlines()) == 30


@pytest.mark.parametrize("argv", [
    ["--hands", "30", "-q", "-o", "FILE"],  # asked away
    ["--hands", "30"],  # the records go to the very screen the bar would be drawn on
    ["--match", "--hands", "3", "-o", "FILE"],  # one record, written at the end
    ["-o", "FILE"],  # one hand
])
def test_record_shows_no_bar_where_it_has_no_place(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str]) -> None:
    screen = on_a_terminal(monkeypatch, stdout_too=True)
    argv = [str(tmp_path / "out.json") if a == "FILE" else a for a in argv]
    assert main(["record", "pagat", "--seed", "1", *argv]) == 0
    assert "hands" not in screen.getvalue() and "\r" not in screen.getvalue()


def test_validate_quiet_counts_the_records_and_prints_problems_clear_of_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    hands = tmp_path / "hands.jsonl"
    assert main(["record", "pagat", "--hands", "6", "--seed", "2", "-q", "-o", str(hands)]) == 0
    lines = hands.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[3])
    broken["dealer"] = 9
    lines[3] = json.dumps(broken)
    hands.write_text("\n".join(lines) + "\n", encoding="utf-8")
    screen = on_a_terminal(monkeypatch)
    printed = io.StringIO()
    monkeypatch.setattr("sys.stdout", printed)
    assert main(["validate", "--quiet", str(hands)]) == 1
    assert "records, 1 failed\x1b[K" in screen.getvalue()  # redrawn after the problem
    assert screen.getvalue().endswith("\r\x1b[K")
    report = printed.getvalue().splitlines()
    assert report[-1] == "6 records: 5 valid, 1 invalid"
    assert all("\r" not in line and "failed" not in line for line in report)
    assert any(f"{hands}:4" in line for line in report)


def test_the_bar_and_the_log_lines() -> None:
    screen = Terminal()
    bar = Progress(4, "hands", "napkit record", screen, failures=False)
    for _ in range(4):
        bar.step()
    assert "[" + "#" * 30 + "] 4/4 hands\x1b[K" in screen.getvalue()
    bar.clear()
    assert screen.getvalue().endswith("\r\x1b[K")
    cleared = screen.getvalue()
    bar.finish()  # already off the screen: nothing more is written
    assert screen.getvalue() == cleared
    count = Terminal()
    unknown = Progress(None, "records", "napkit validate", count)
    unknown.step(bad=True)
    assert count.getvalue() == "\r1 record, 1 failed\x1b[K"  # no bar: the total is unknown
    log = io.StringIO()
    lines = Progress(None, "records", "napkit validate", log, every=2)
    for bad in (False, True, False, False):
        lines.step(bad)
    assert log.getvalue() == ("napkit validate: 2 records, 1 failed\n"
                              "napkit validate: 4 records, 1 failed\n")
    off = io.StringIO()
    quiet = Progress(3, "hands", "napkit record", Terminal(), enabled=False)
    quiet.stream = off
    quiet.step()
    assert off.getvalue() == ""
