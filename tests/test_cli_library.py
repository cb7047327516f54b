"""Each command's body is a library function of plain arguments: called directly, it prints
what ``napkit COMMAND`` prints and returns its exit status; what ``napkit record`` writes is
napkit.formats.recording.record_table, which the rules site calls too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from napkit.cli import main, play, record, rules, validate
from napkit.engine.game import Game
from napkit.engine.match import MatchState
from napkit.errors import UsageError
from napkit.formats.recording import play_table, record_table
from napkit.formats.records import check_hand_record, check_match_record

Capture = pytest.CaptureFixture[str]


def _command(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("call", "argv"), [
    (rules.list_rulesets, ["rules", "list"]),
    (lambda: rules.show("pagat", ["pack=reduced"]),
     ["rules", "show", "pagat", "--option", "pack=reduced"]),
    (lambda: rules.rule("NAP-8.1.1"), ["rules", "rule", "NAP-8.1.1"]),
    (lambda: rules.compare_rulesets("pagat", "peep"), ["rules", "compare", "pagat", "peep"]),
    (rules.decisions, ["rules", "decisions"]),
    (lambda: rules.decisions("DEC-020"), ["rules", "decisions", "DEC-020"]),
    (rules.check, ["rules", "check"]),
    (lambda: play.play("pagat-floater", hands=2, seed=7), ["play", "pagat-floater", "--hands",
                                                             "2", "--seed", "7"]),
    (lambda: play.play("peep", players=5, match=True, hands=2, opponents="random", seed=2),
     ["play", "peep", "--players", "5", "--match", "--hands", "2", "--opponents", "random",
      "--seed", "2"]),
    (lambda: record.record("pagat", seed=1), ["record", "pagat", "--seed", "1"]),
    (lambda: record.record("peep", match=True, hands=3, seed=2),
     ["record", "peep", "--match", "--hands", "3", "--seed", "2"]),
    (lambda: validate.validate_files(["tests/fixtures/records/bad-action-type.json"]),
     ["validate", "tests/fixtures/records/bad-action-type.json"]),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_command_body_called_directly_does_what_the_command_does(
        capsys: Capture, call: object, argv: list[str]) -> None:
    assert callable(call)
    code = call()
    out, err = capsys.readouterr()
    assert out  # it printed something: the command's output
    assert (code, out, err) == _command(capsys, *argv)


def test_a_usage_error_of_a_body_is_raised_for_the_caller() -> None:
    with pytest.raises(UsageError, match=r"no ruleset 'pagatt'.*did you mean pagat"):
        rules.show("pagatt")
    with pytest.raises(UsageError, match="--hands must be at least 1"):
        record.record("pagat", hands=0, seed=1)
    with pytest.raises(UsageError, match="read only once"):
        validate.validate_files(["-", "-"])


def test_record_writes_what_record_table_returns(tmp_path: Path, capsys: Capture) -> None:
    target = tmp_path / "hands.jsonl"
    assert record.record("pagat-floater", players=5, hands=3, seed=7, output=str(target)) == 0
    capsys.readouterr()
    text = record_table(Game.create("pagat-floater", 5), 7, hands=3)
    assert target.read_text(encoding="utf-8") == text
    lines = text.splitlines()
    assert len(lines) == 3
    for line in lines:
        assert check_hand_record(json.loads(line)) == []


def test_play_table_plays_what_the_watching_table_prints(capsys: Capture) -> None:
    game = Game.create("peep", 4)
    match = play_table(game, 2, match=True, hands=3)
    assert isinstance(match, MatchState) and match.is_over()
    record = json.loads(record_table(game, 2, match=True, hands=3))
    assert check_match_record(record) == []
    code, out, _ = _command(capsys, "play", "peep", "--match", "--hands", "3", "--seed", "2")
    assert code == 0
    assert f"match over after {match.played} hands" in out
    balances = ", ".join(f"seat {s} {b}" if match.chips is not None or b <= 0 else
                         f"seat {s} +{b}" for s, b in enumerate(match.balances))
    assert f"balances: {balances}" in out


def test_the_site_records_its_worked_examples_with_the_library() -> None:
    data = pytest.importorskip("napkit.site.data")  # needs the docs extra
    shown = data.record("classic", 4, 2)
    assert shown == json.loads(record_table(Game.create("classic", 4), 2))
    match = data.record("peep", 4, 2, match_hands=2)
    assert match["format"] == "napkit-match/1" and len(match["hand_records"]) == 2
    assert match == json.loads(record_table(Game.create("peep", 4), 2, match=True, hands=2))
