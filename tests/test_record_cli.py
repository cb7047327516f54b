"""``napkit record`` and ``napkit play --record`` through main(): the records they write are
valid (``napkit validate`` reads them back), the same seed writes the same bytes, several hands
are JSON Lines, and ``-o`` replaces its file atomically or not at all."""

from __future__ import annotations

import io
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import EXIT_PROBLEMS, EXIT_USAGE, main
from napkit.formats.notation import parse_action
from napkit.formats.values import action_from_json

Capture = pytest.CaptureFixture[str]


def record(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(["record", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def validate_text(text: str, monkeypatch: pytest.MonkeyPatch, capsys: Capture,
                  *extra: str) -> tuple[int, list[str]]:
    """``napkit validate -``, fed ``text`` on stdin: the round trip of a pipe."""
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["validate", *extra, "-"])
    return code, capsys.readouterr().out.splitlines()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("argv", [
    ["pagat", "--seed", "1"],
    ["pagat-floater", "--players", "5", "--seed", "3", "--opponents", "random"],
    ["peep", "--option", "pot-doubling=players-re-ante", "--seed", "4"],
])
def test_one_hand_is_a_hand_document_that_validates(argv: list[str], capsys: Capture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = record(capsys, *argv)
    assert (code, err) == (0, "")
    document = json.loads(out)  # one JSON document, not JSON Lines
    assert document["format"] == "napkit-hand/1"
    assert document["ruleset"] == argv[0]
    if "--players" in argv:
        assert document["players"] == int(argv[argv.index("--players") + 1])
    if "--option" in argv:
        name, choice = argv[argv.index("--option") + 1].split("=")
        assert document["options"][name] == choice
    assert out.count("\n") > 1 and out.endswith("}\n")  # indented, one final newline
    code, lines = validate_text(out, monkeypatch, capsys)
    assert code == 0, lines
    assert lines == [f"<stdin>: valid hand ({argv[0]}, {document['players']} players)",
                     "1 record: 1 valid, 0 invalid"]


def test_several_hands_are_json_lines(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = record(capsys, "pagat", "--hands", "3", "--seed", "5")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 and out.endswith("\n")
    hands: list[dict[str, Any]] = [json.loads(line) for line in lines]
    assert all(h["format"] == "napkit-hand/1" and h["players"] == 4 for h in hands)
    # The hands are dealt one after another, the deal passing to the left (NAP-4.1.2).
    first = hands[0]["dealer"]
    assert [h["dealer"] for h in hands] == [(first + i) % 4 for i in range(3)]
    assert len({json.dumps(h["deal"]) for h in hands}) == 3  # three deals, not one thrice
    code, report = validate_text(out, monkeypatch, capsys)
    assert code == 0 and report[-1] == "3 records: 3 valid, 0 invalid"
    assert report[:3] == [f"<stdin>:{i}: valid hand (pagat, 4 players)" for i in (1, 2, 3)]


def test_a_match_is_a_match_document(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    # pagat's match ends when the players agree and plays from no stock of chips, so a match
    # of three hands is exactly three hands.
    code, out, _ = record(capsys, "pagat", "--match", "--hands", "3", "--seed", "8")
    assert code == 0
    document = json.loads(out)
    assert document["format"] == "napkit-match/1" and document["hands"] == 3
    assert len(document["hand_records"]) == 3
    assert document["outcome"]["hands"] == 3
    # nobody's score comes from nowhere: pagat has no pool, what one pays another receives
    assert sum(document["outcome"]["balances"]) == 0
    code, lines = validate_text(out, monkeypatch, capsys)
    assert code == 0 and lines[0] == "<stdin>: valid match (pagat, 4 players)"


def test_a_match_of_a_ruleset_that_ends_by_agreement_needs_hands(capsys: Capture) -> None:
    code, out, err = record(capsys, "pagat", "--match")
    assert code == EXIT_USAGE and out == "" and "--hands K" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["pagat-floater", "--players", "6", "--hands", "4"],
    ["peep", "--match", "--hands", "3", "--players", "5"],
])
def test_the_same_seed_writes_the_same_bytes(argv: list[str], capsys: Capture,
                                             tmp_path: Path) -> None:
    first = record(capsys, *argv, "--seed", "21")
    second = record(capsys, *argv, "--seed", "21")
    assert first[0] == 0 and first == second
    # to a file: the very same bytes as to stdout
    target = tmp_path / "out.json"
    assert main(["record", *argv, "--seed", "21", "-o", str(target)]) == 0
    assert capsys.readouterr() == ("", "")  # nothing else printed
    assert target.read_bytes() == first[1].encode("utf-8")
    other = record(capsys, *argv, "--seed", "22")
    assert other[0] == 0 and other[1] != first[1]


def test_a_drawn_seed_is_printed_and_replays(capsys: Capture) -> None:
    code, out, err = record(capsys, "pagat", "--hands", "2")
    assert code == 0
    found = re.fullmatch(r"napkit: seed (\d+) \(write the same record again with --seed \1\)\n",
                         err)
    assert found, err
    assert record(capsys, "pagat", "--hands", "2", "--seed", found.group(1)) == (0, out, "")


def test_play_record_writes_what_record_writes(capsys: Capture, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Watching plays the same table as 'napkit record', so the records are the same bytes
    (play's --hands counts the hands played out, record's every hand dealt: a thrown-in hand
    is in both records, so record is asked for as many as play dealt)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # never read while watching
    for argv in (["pagat", "--hands", "2"], ["peep", "--match", "--hands", "2"]):
        target = tmp_path / "played.json"
        assert main(["play", *argv, "--seed", "13", "--record", str(target)]) == 0
        played = capsys.readouterr().out
        assert played.startswith(f"napkit play {argv[0]}")  # the game is still shown
        dealt = len(re.findall(r"^hand \d+: ", played, re.M))
        code, out, _ = record(capsys, argv[0], *argv[1:-1], str(dealt), "--seed", "13")
        assert code == 0 and target.read_text(encoding="utf-8") == out


def _answer(screen: str, typed: list[str]) -> str:
    """A person at seat 0: bids where they can (so hands are played out), else the first
    thing offered; plays the last legal card."""
    may: str = re.findall(r"^you may: (.*)$", screen, re.M)[-1]
    if may.startswith("play one of "):
        line = may.removeprefix("play one of ").split()[-1]
    else:
        offered = may.split(" | ")
        bids = [a for a in offered if a.startswith("bid ")]
        line = bids[0] if bids else offered[0]
    typed.append(line)
    return line + "\n"


class _Person:
    def __init__(self, screen: io.StringIO) -> None:
        self.screen = screen
        self.typed: list[str] = []

    def readline(self) -> str:
        return _answer(self.screen.getvalue(), self.typed)


def test_play_record_keeps_a_human_seats_actions(tmp_path: Path, capsys: Capture,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    person = _Person(screen)
    monkeypatch.setattr("sys.stdout", screen)
    monkeypatch.setattr("sys.stdin", person)
    target = tmp_path / "mine.jsonl"
    code = main(["play", "pagat", "--seat", "0", "--hands", "2", "--seed", "6",
                 "--record", str(target)])
    monkeypatch.undo()
    assert code == 0 and person.typed
    hands = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(hands) == 2
    mine = [action_from_json(step["action"]) for h in hands for step in h["actions"]
            if step["seat"] == 0]
    assert mine == [parse_action(line) for line in person.typed]  # every answer, in order
    assert main(["validate", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 records: 2 valid, 0 invalid"


def test_an_abandoned_game_writes_no_record(tmp_path: Path, capsys: Capture,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "kept.json"
    target.write_text("an older record\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n"))
    code = main(["play", "pagat", "--seat", "0", "--seed", "3", "--hands", "5",
                 "--record", str(target)])
    err = capsys.readouterr().err
    assert code == EXIT_PROBLEMS and f"{target} is not written" in err
    assert target.read_text(encoding="utf-8") == "an older record\n"
    assert leftovers(tmp_path) == []


def test_play_record_needs_a_file(capsys: Capture) -> None:
    code = main(["play", "pagat", "--record", "-"])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE and out == "" and "--record takes a file name" in err


# --- -o: atomic ----------------------------------------------------------------------------------
GOOD_OLD = '{"an": "older record"}\n'


@pytest.mark.parametrize(("argv", "expected"), [
    (["pagat", "--hands", "0"], "--hands: a number of hands is a whole number from 1"),
    (["nonesuch"], "no ruleset 'nonesuch'"),
    (["pagat", "--option", "nope=x"], "nope"),
    (["pagat", "--players", "2"], "NAP-3.1.1"),
    (["pagat", "--opponents", "genius"], "invalid choice"),
])
def test_a_usage_error_leaves_the_file_as_it_was(argv: list[str], expected: str,
                                                 tmp_path: Path, capsys: Capture) -> None:
    target = tmp_path / "hand.json"
    target.write_text(GOOD_OLD, encoding="utf-8")
    code, out, err = record(capsys, *argv, "--seed", "1", "-o", str(target))
    assert code == EXIT_USAGE and out == ""
    assert expected in err and err.count("\n") == 1
    assert target.read_text(encoding="utf-8") == GOOD_OLD
    assert leftovers(tmp_path) == []


def test_a_run_interrupted_while_playing_leaves_the_file(tmp_path: Path, capsys: Capture,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "hand.json"
    target.write_text(GOOD_OLD, encoding="utf-8")
    seen: list[str] = []

    def interrupted(*_args: object, **_kwargs: object) -> Iterator[str]:
        yield '{"format": "napkit-hand/1"}\n'  # a first hand written away, then Ctrl-C
        seen.extend(leftovers(tmp_path))  # the temporary file exists while playing
        raise KeyboardInterrupt

    # read by napkit record as it runs (not imported to build its parser)
    monkeypatch.setattr("napkit.formats.recording.record_chunks", interrupted)
    code, out, err = record(capsys, "pagat", "--seed", "1", "--hands", "3", "-o", str(target))
    assert code == 130 and out == "" and "interrupted" in err
    assert len(seen) == 1 and seen[0].startswith(".hand.json.")
    assert target.read_text(encoding="utf-8") == GOOD_OLD
    assert leftovers(tmp_path) == []


def test_a_failed_rename_leaves_the_file(tmp_path: Path, capsys: Capture,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "hand.json"
    target.write_text(GOOD_OLD, encoding="utf-8")

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied", src, None, dst)

    monkeypatch.setattr("napkit.output.files.os.replace", refuse)
    code, out, err = record(capsys, "pagat", "--seed", "1", "-o", str(target))
    assert code == EXIT_PROBLEMS and out == ""
    assert err == f"napkit: {target}: Permission denied\n"
    assert target.read_text(encoding="utf-8") == GOOD_OLD
    assert leftovers(tmp_path) == []


def test_o_replaces_a_file_whole_and_keeps_its_permissions(tmp_path: Path,
                                                           capsys: Capture) -> None:
    target = tmp_path / "hand.json"
    target.write_text(GOOD_OLD, encoding="utf-8")
    target.chmod(0o640)
    code, out, err = record(capsys, "pagat", "--seed", "2", "-o", str(target))
    assert (code, out, err) == (0, "", "")
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "napkit-hand/1"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []
    fresh = tmp_path / "new.json"
    assert record(capsys, "pagat", "--seed", "2", "-o", str(fresh))[0] == 0
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


def test_o_into_a_missing_folder_or_onto_a_folder(tmp_path: Path, capsys: Capture) -> None:
    nowhere = tmp_path / "no" / "such" / "hand.json"
    code, out, err = record(capsys, "pagat", "--seed", "1", "-o", str(nowhere))
    assert code == EXIT_PROBLEMS and out == ""
    assert err == f"napkit: {nowhere}: No such file or directory\n"
    code, out, err = record(capsys, "pagat", "--seed", "1", "-o", str(tmp_path))
    assert code == EXIT_PROBLEMS and err == f"napkit: {tmp_path}: Is a directory\n"
    assert leftovers(tmp_path) == []


def test_o_dash_is_stdout(capsys: Capture) -> None:
    assert record(capsys, "pagat", "--seed", "1", "-o", "-") == record(capsys, "pagat", "--seed",
                                                                      "1")


def test_help(capsys: Capture) -> None:
    assert main(["record", "--help"]) == 0
    out = capsys.readouterr().out
    for words in ("JSON Lines", "napkit-match/1", "-o FILE", "--seed S", "--match"):
        assert words in out


def test_many_hands_are_written_as_they_are_played(tmp_path: Path, capsys: Capture) -> None:
    # The file napkit record writes hand by hand is the text of all the hands written at once.
    from napkit.engine.game import Game
    from napkit.formats.recording import play_table, record_text

    target = tmp_path / "hands.jsonl"
    code, _, _ = record(capsys, "pagat-floater", "--players", "5", "--hands", "7", "--seed",
                        "3", "-o", str(target))
    assert code == 0
    whole = record_text(play_table(Game.create("pagat-floater", 5), 3, hands=7))
    assert target.read_text(encoding="utf-8") == whole
    code, out, _ = record(capsys, "pagat-floater", "--players", "5", "--hands", "7", "--seed",
                          "3")
    assert code == 0 and out == whole


def test_the_hands_are_played_one_at_a_time() -> None:
    from napkit.engine.game import Game
    from napkit.formats.recording import table_hands

    hands = table_hands(Game.create("pagat", 4), 5, hands=10**9)  # never all at once
    first, second = next(hands), next(hands)
    assert first.is_over() and second.is_over() and second.dealer == (first.dealer + 1) % 4
