"""Every command's --help shows an example, and the examples that need no file run as shown
(a --help that teaches a wrong option is a bug: napkit play's once named an option pagat
does not have)."""

from __future__ import annotations

import io
import shlex
import sys

import pytest
from napkit.cli import main

COMMANDS = [["rules"], ["rules", "list"], ["rules", "show"], ["rules", "rule"],
            ["rules", "compare"], ["rules", "decisions"], ["rules", "check"], ["rules", "search"],
            ["rules", "new"], ["rules", "sheet"], ["play"],
            ["record"], ["validate"], ["perft"], ["conform"], ["adapter"], ["report"],
            ["report", "merge"], ["report", "site"], ["report", "diff"],
            ["report", "html"], []]


def help_text(command: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*command, "--help"]) == 0
    return capsys.readouterr().out


def examples(text: str) -> list[str]:
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("example"))
    found = []
    for line in lines[start + 1:]:
        if not line.startswith("  napkit "):
            break
        found.append(line.strip())
    return found


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "napkit")
def test_each_help_shows_an_example(command: list[str],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text(command, capsys)
    assert "example" in text
    if command != ["adapter"]:  # its example is a pipe into it
        assert examples(text), text


def runnable() -> list[str]:
    """The example lines that read and write no file and need no other program."""
    out = io.StringIO()
    lines: list[str] = []
    for command in COMMANDS:
        stdout, sys.stdout = sys.stdout, out
        try:
            main([*command, "--help"])
        finally:
            sys.stdout = stdout
        text, _ = out.getvalue(), out.truncate(0)
        out.seek(0)
        lines += [line for line in examples(text)
                  if not any(w in line for w in ("-o ", "|", "--record", ".json", " -- ",
                                                 "conform"))]
    return sorted(set(lines))


@pytest.mark.parametrize("line", runnable())
def test_an_example_runs_as_shown(line: str, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    argv = shlex.split(line)[1:]
    if argv[0] == "play" and "--watch" not in argv:
        argv += ["--hands", "1"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a human seat meets the end of input
    status = main(argv)
    err = capsys.readouterr().err
    assert status != 2, f"{line}: usage error: {err}"
    if argv[0] != "play":
        assert status == 0, f"{line}: exit {status}: {err}"


def test_the_version_is_the_package_s(capsys: pytest.CaptureFixture[str]) -> None:
    import napkit

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"napkit {napkit.__version__}"
