"""Hostile text on the terminal (issue 27, defect 4): what a program sends (its name, its
version, its refusals' reasons, its errors' messages, its standard error), what a saved report
says and what a house file calls itself is text from outside. Every command that prints it
escapes its control characters (napkit.output.tables.printable_lines): no escape code reaches
the terminal to clear the screen or set the window title, and no line break or carriage
return forges a line of its own (an ``ok:`` verdict).

Each command is run as a person runs it, in a process of its own, against a hostile program
(napkit's adapter with its strings replaced), report or house file; its whole output, standard
output and standard error, is then checked byte by byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
SUITE = REPOSITORY / "tests" / "fixtures" / "conformance"
HOUSE = REPOSITORY / "spec" / "examples" / "house-two-no-wellington.json"
# Clears the screen, sets the window title, forges a verdict on a line of its own, returns
# the carriage over it, a C1 CSI, DEL, a Unicode line separator, NUL.
EVIL = "\x1b[2J\x1b]0;pwned\x07\nok: 9999 cases passed\r\x9b31m\x7f\u2028forged\x00"
FORGED = "ok: 9999"

# napkit's adapter, but its name and version, its refusals and errors are EVIL, and it writes
# EVIL on its standard error at every request. HOW: "refuses" (the deal refused, so every case
# and episode fails on it), "errs" (the first legal request of every case answered with an
# error), "hello" (the handshake answered with an error).
PROGRAM = """
import json, sys
from napkit.protocol.adapter import Adapter

EVIL, HOW = {evil!r}, sys.argv[1]
adapter = Adapter()
for raw in sys.stdin.buffer:
    request = json.loads(raw)
    kind = request.get("type")
    answer = adapter.handle(request)
    if kind == "hello":
        answer = dict(answer, name="evil" + EVIL, version="1.0" + EVIL)
        if HOW == "hello":
            answer = {{"id": 0, "type": "error", "message": "no" + EVIL}}
    elif HOW == "refuses" and kind == "apply" and request.get("seat") is None:
        answer = {{"id": request["id"], "type": "refused", "rule": None, "reason": "no" + EVIL}}
    elif HOW == "errs" and kind == "legal":
        answer = {{"id": request["id"], "type": "error", "message": "err" + EVIL}}
    sys.stderr.write("stderr" + EVIL + "\\n")
    sys.stderr.flush()
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
    if kind == "bye":
        break
"""


def raw_controls(text: str) -> list[str]:
    """The control characters in ``text`` a terminal acts on or breaks a line at: C0 but the
    newline that ends each line, DEL, C1, the Unicode line and paragraph separators."""
    return sorted({f"U+{ord(c):04X}" for c in text
                   if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F
                   or c in "\u2028\u2029"})


def napkit(*args: str, cwd: Path = REPOSITORY) -> tuple[int, str]:
    """Run ``napkit ARGS``: its exit status and all it printed (stdout, then stderr)."""
    done = subprocess.run([sys.executable, "-m", "napkit", *args], capture_output=True,
                          cwd=cwd, timeout=300, check=False,
                          env={**os.environ, "COLUMNS": "100"})
    out = done.stdout.decode("utf-8", "surrogateescape")
    err = done.stderr.decode("utf-8", "surrogateescape")
    assert "Traceback" not in err, err
    return done.returncode, out + err


def assert_clean(output: str) -> None:
    """Nothing raw, nothing forged, and the hostile text was shown (escaped)."""
    assert raw_controls(output) == []
    assert not [line for line in output.split("\n") if line.lstrip().startswith(FORGED)]
    assert "\\x1b[2J\\x1b]0;pwned\\x07\\nok: 9999" in output or (
        "\\u001b[2J\\u001b]0;pwned\\u0007\\nok: 9999" in output), output[-3000:]


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.py"
    path.write_text(PROGRAM.format(evil=EVIL), encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["refuses", "errs"])
def test_conform_prints_a_hostile_program_escaped(tmp_path: Path, program: Path,
                                                 how: str) -> None:
    status, output = napkit("conform", "--suite", str(SUITE), "-v", "--", sys.executable,
                            str(program), how)
    assert status == 1
    assert "against evil\\x1b[2J" in output  # the name and version, on the first line
    assert_clean(output)


@pytest.mark.parametrize("flag", ["--json", "--junit", "--tap"])
def test_a_report_on_standard_output_holds_nothing_raw(program: Path, flag: str) -> None:
    status, output = napkit("conform", "--suite", str(SUITE), "-q", flag, "-", "--",
                            sys.executable, str(program), "refuses")
    assert status == 1
    assert raw_controls(output) == []
    assert not [line for line in output.split("\n") if line.lstrip().startswith(FORGED)]


@pytest.mark.parametrize("command", [["conform", "--suite", str(SUITE)], ["fuzz", "--hands", "3"],
                                     ["perft", "classic", "--program"]])
def test_a_refused_handshake_is_printed_escaped(program: Path, command: list[str]) -> None:
    separator = [] if command[-1] == "--program" else ["--"]
    status, output = napkit(*command, *separator, sys.executable, str(program), "hello")
    assert status == 1
    assert "no\\x1b[2J" in output  # the error the program answered hello with
    if command[0] != "perft":  # which shows no standard error
        assert "stderr\\x1b[2J" in output
    assert_clean(output)


def test_perft_prints_a_program_s_name_escaped(program: Path) -> None:
    status, output = napkit("perft", "classic", "--program", sys.executable, str(program),
                            "refuses")
    assert status == 1  # it declares no perft
    assert "evil\\x1b[2J" in output
    assert_clean(output)


def test_fuzz_prints_a_hostile_program_escaped(tmp_path: Path, program: Path) -> None:
    status, output = napkit("fuzz", "--seed", "1", "--hands", "20", "--ruleset", "pagat",
                            "-o", str(tmp_path / "case.json"), "--json",
                            str(tmp_path / "fuzz.json"), "--", sys.executable, str(program),
                            "refuses")
    assert status == 1
    assert "FAILED: 1 distinct disagreement" in output and "napkit fuzz: evil\\x1b[2J" in output
    assert_clean(output)
    # The reports keep the strings as they came (short ones), for programs to read.
    report = json.loads((tmp_path / "fuzz.json").read_text())
    assert report["program"] == f"evil{EVIL} 1.0{EVIL}"


def test_report_diff_prints_a_forged_report_escaped(tmp_path: Path) -> None:
    message = "msg" + EVIL + "y" * 5000

    def report(name: str, status: str) -> Path:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({
            "format": "napkit-conform-report/1", "suite": "suite" + EVIL,
            "program": {"name": name + EVIL, "command": []},
            "cases": [{"id": "pagat/legal/x" + EVIL, "ruleset": "pagat", "kind": "legal",
                       "rules": [], "status": status, "message": message}],
        }), encoding="utf-8")
        return path

    status, output = napkit("report", "diff", str(report("old", "passed")),
                            str(report("new", "failed")))
    assert status == 1
    assert "newly failing (1)" in output
    assert f"…({len(message):,} characters)" in output  # shortened, its length said
    assert_clean(output)


@pytest.mark.parametrize("action", ["check", "show"])
def test_rules_prints_a_house_file_s_title_escaped(tmp_path: Path, action: str) -> None:
    house = json.loads(HOUSE.read_text())
    house["title"] = "My game" + EVIL
    house["description"] = "Ours" + EVIL
    path = tmp_path / "house.json"
    path.write_text(json.dumps(house), encoding="utf-8")
    status, output = napkit("rules", action, str(path))
    assert status == 0
    assert "My game\\x1b[2J" in output
    assert_clean(output)


@pytest.mark.parametrize("flags", [[], ["--long"]], ids=["short", "long"])
def test_replay_prints_a_house_file_s_title_escaped_and_cut(tmp_path: Path,
                                                             flags: list[str]) -> None:
    # The verdicts' headings printed a house game's title as it was: escape codes reached the
    # terminal, and a title of 200 characters ran on (found in issue 30's review).
    house = json.loads(HOUSE.read_text())
    house["title"] = "My game" + EVIL + "y" * 140  # 197 characters: at most 200 are allowed
    path = tmp_path / "house.json"
    path.write_text(json.dumps(house), encoding="utf-8")
    hand = REPOSITORY / "tests" / "fixtures" / "handtext" / "irregular" / "revoke.nap"
    status, output = napkit("replay", str(hand), "--under", str(path), "--under", "classic",
                            *flags)
    assert status == 1  # the revoke: legal under neither
    assert_clean(output)
    heading = next(line for line in output.split("\n") if line.startswith("two-no-"))
    assert heading.endswith("…)") and "y" * 100 not in heading


# --- what a person types, quoted back: escaped, and a megabyte of it shortened ----------------
LONG = "x" * 9000


@pytest.mark.parametrize("args", [
    ["rules", "show", LONG], ["record", LONG], ["record", "classic", "--option", f"{LONG}=1"],
    ["record", "classic", "--option", f"pack={LONG}"], ["fuzz", "--ruleset", LONG, "--hands", "1"],
    ["perft", LONG], ["validate", f"/tmp/{LONG}"], ["conform", "--timeout", LONG],
    ["rules", "check", f"/tmp/{LONG}"]],
    ids=["rules-show", "record", "option-name", "option-choice", "fuzz", "perft", "validate",
         "number", "rules-check"])
def test_a_long_word_typed_is_quoted_shortened(args: list[str]) -> None:
    """A ruleset id, an option or a file name of 9,000 characters was quoted whole in the
    error (a 9,200-character line): it is cut to 200 with its length said."""
    status, output = napkit(*args)
    assert status in (1, 2), output
    assert all(len(line) < 600 for line in output.splitlines()), max(map(len, output.split()))
    assert "characters)" in output, output


def test_validate_prints_a_file_name_escaped(tmp_path: Path) -> None:
    recorded = tmp_path / "hand.json"
    assert napkit("record", "classic", "--seed", "1", "-o", str(recorded))[0] == 0
    hostile = tmp_path / "\x1b[2J\x1b]0;pwned\x07.json"
    recorded.rename(hostile)
    status, output = napkit("validate", str(hostile))
    assert status == 0 and raw_controls(output) == []
    assert "\\x1b[2J\\x1b]0;pwned\\x07.json: valid hand" in output
