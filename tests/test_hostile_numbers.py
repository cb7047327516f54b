"""Numbers from outside, every way napkit takes them (issue 27, defects 7, 10 and 14): every
number option of every command is read by one set of parsers (napkit.cli.common), which say
the same thing of the same mistake, with the option and the range, on one line; every reader
of JSON and TOML keeps to the same limits (napkit.reading: depth, and whole numbers within
2^53 - 1, whatever else it takes); the hand notation takes every whole number the JSON form
takes."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from napkit import reading
from napkit.cli import EXIT_USAGE, _parser, common, main
from napkit.conform.suite.cases import default_suite_dir
from napkit.formats.handtext import HandFileError, read_hand_file
from napkit.reading import WHOLE, ReadError, loads

Capture = pytest.CaptureFixture[str]

# A position perft publishes, for the commands that need one before they read their options.
POSITION = "classic/default-3p-lead"

# (the command's words, the option, what it is): every number option of every command.
OPTIONS = [
    (["conform"], "--timeout", "seconds"),
    (["conform"], "--start-timeout", "seconds"),
    (["conform"], "--max-timeouts", "count"),
    (["conform"], "--repeat", "positive"),
    (["conform"], "--seed", "count"),
    (["conform"], "--jobs", "jobs"),
    (["fuzz"], "--timeout", "seconds"),
    (["fuzz"], "--start-timeout", "seconds"),
    (["fuzz"], "--seconds", "seconds"),
    (["fuzz"], "--shrink-seconds", "seconds"),
    (["fuzz"], "--hands", "positive"),
    (["fuzz"], "--seed", "count"),
    (["fuzz"], "--players", "players"),
    (["fuzz"], "--jobs", "jobs"),
    (["perft", POSITION], "--timeout", "seconds"),
    (["perft", POSITION], "--depth", "count"),
    (["perft", POSITION], "--steps", "count"),
    (["play", "pagat"], "--seat", "count"),
    (["play", "pagat"], "--players", "positive"),
    (["play", "pagat"], "--hands", "positive"),
    (["play", "pagat"], "--seed", "count"),
    (["record", "pagat"], "--hands", "positive"),
    (["record", "pagat"], "--seed", "count"),
    (["explain", "hand.nap"], "--at", "positive"),
    (["rules", "search", "trumps"], "--limit", "positive"),
]

# What no number option takes, whatever its range: not digits (a sign, a point where a whole
# number is wanted, an underscore or another script's digits, which int() and float() take),
# no number at all, infinity, NaN, and numbers too large.
NEVER = ["", "seven", "1_000", "\u0663", "+5", " ", "0x10", "inf", "-inf", "nan", "1e400",
         "9" * 400, "99999999999999999999"]


def refused(capsys: Capture, argv: list[str]) -> str:
    """The one line napkit prints refusing ``argv`` as a usage error."""
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(("words", "option", "kind"), OPTIONS)
def test_every_number_option_refuses_what_is_no_number_in_one_line(
        words: list[str], option: str, kind: str, capsys: Capture) -> None:
    for text in NEVER:
        err = refused(capsys, [*words, f"{option}={text}"])
        assert err.startswith("napkit: argument ") and option in err.split(":")[1], err
        if len(text) > 40:  # shortened, saying how long it was
            assert f"({len(text):,} characters)" in err and text not in err, err


@pytest.mark.parametrize(("words", "option", "kind"), OPTIONS)
def test_below_the_range_is_the_same_message_whatever_the_number(
        words: list[str], option: str, kind: str, capsys: Capture) -> None:
    """Defect 14: --repeat -1 said "must be 0 or more" and --repeat 0 "must be 1 or more"."""
    lowest = {"seconds": 0, "count": 0, "positive": 1, "players": 2, "jobs": 0}[kind]
    below = [str(n) for n in range(lowest - 3, lowest) if kind != "seconds"]
    below += ["0", "-1", "-0.5", "0.0"] if kind == "seconds" else []
    messages = {refused(capsys, [*words, f"{option}={text}"]).replace(f"'{text}'", "'X'")
                for text in below}
    assert len(messages) == 1, messages


def test_a_time_that_is_not_finite_is_said_to_be_so(capsys: Capture) -> None:
    """Defect 14: --timeout inf was refused as not "above 0"."""
    for text in ("inf", "Infinity", "nan", "1e400"):
        err = refused(capsys, ["conform", "--timeout", text])
        assert "a time is a finite number of seconds above 0 and at most 10000000" in err, err
    for text in ("1e9", "10000001"):  # beyond what select() and the clock take
        assert "at most 10000000" in refused(capsys, ["fuzz", "--seconds", text])


def test_perft_refuses_a_time_limit_below_zero_before_asking_the_program(
        capsys: Capture, tmp_path: Path) -> None:
    """Defect 10: perft --timeout -1 was taken, and the program blamed for timing out."""
    asked = tmp_path / "asked"
    program = ["sh", "-c", f"touch {asked}"]
    for text in ("-1", "0", "inf", "1e300"):
        err = refused(capsys, ["perft", POSITION, "--depth", "1", "--timeout", text,
                               "--program", *program])
        assert err.startswith("napkit: argument --timeout: a time is a finite number of "
                              "seconds above 0"), err
        assert not asked.exists()


@pytest.mark.parametrize("text", ["1", "0.5", "2.5", "1e3", ".5", "10000000"])
def test_times_are_read_as_written(text: str) -> None:
    assert common.seconds_value(text) == float(text)


def test_the_ends_of_every_range_are_taken() -> None:
    assert common.whole_value("a number", 1)(str(WHOLE)) == WHOLE
    assert common.whole_value("a number", 2, 10)("10") == 10
    assert common.seed_value("0") == 0
    assert common.jobs_value(str(common.MAX_JOBS)) == common.MAX_JOBS
    assert common.shard_value(f"{WHOLE}/{WHOLE}") == (WHOLE, WHOLE)
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 256"):
        common.jobs_value(str(common.MAX_JOBS + 1))
    with pytest.raises(argparse.ArgumentTypeError, match="a shard is K/N"):
        common.shard_value(f"1/{WHOLE + 1}")


def test_every_option_that_takes_a_number_uses_the_shared_parsers() -> None:
    """Each number option's type= is one of napkit.cli.common's (a Path is no number)."""

    def walk(parser: argparse.ArgumentParser, where: str) -> list[str]:
        own = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    own += walk(sub, f"{where} {name}")
            elif action.type is not None and action.type is not Path:
                module = getattr(action.type, "__module__", "")
                if module != "napkit.cli.common":
                    own.append(f"{where} {action.option_strings}: {action.type!r}")
        return own

    assert walk(_parser(), "napkit") == []


def test_the_largest_whole_number_is_the_reader_s() -> None:
    assert common.WHOLE == common.MAX_SEED == reading.WHOLE == 2**53 - 1


# --- the readers ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["[9007199254740992]", '{"a": [-9007199254740992]}',
                                  "[1.5, " + "9" * 30 + "]"])
def test_a_whole_number_beyond_the_range_is_refused_where_fractions_are_taken(
        text: str) -> None:
    """A report's times are fractions (whole=False), but its counts whole numbers: beyond
    2^53 - 1, refused by every reader alike."""
    with pytest.raises(ReadError, match="beyond the largest whole number"):
        loads(text, whole=False)
    assert loads(f"[1.5, {WHOLE}, {-WHOLE}]", whole=False) == [1.5, WHOLE, -WHOLE]


def test_a_suite_version_file_is_read_with_the_reader_s_limits(tmp_path: Path,
                                                               capsys: Capture) -> None:
    """suite.toml, read by Python's TOML reader alone, gave a RecursionError traceback."""
    suite = tmp_path / "suite"
    case = next((default_suite_dir() / "classic" / "legal").glob("*.json"))
    (suite / "classic" / "legal").mkdir(parents=True)
    (suite / "classic" / "legal" / case.name).write_bytes(case.read_bytes())
    (suite / "suite.toml").write_text('version = "1.0"\nx = ' + "[" * 5000 + "]" * 5000 + "\n",
                                      encoding="utf-8")
    assert main(["conform", "--suite", str(suite), "--in-process", "-q"]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert f"{suite / 'suite.toml'}: $: not TOML: tables or arrays nested too deeply" in err


HAND = """ruleset: classic
players: 4
dealer: 1
pool: {pool}
seat 0: 4S QC 4C QS 8C
seat 1: AD 9S 7H JD 10C
seat 2: 10H 6H 3H 6D 7S
seat 3: 8H 5S KC 8S 10S
stock: 2D 5D 2S 5H KS 2C 9H 7D QH 2H 3C AH 5C 8D 6S 3D AS 4H 3S JH JS 6C JC QD KD 10D 4D 9D
  9C KH 7C AC
auction: 2 pass, 3 pass, 0 pass, 1 pass
"""


def test_the_hand_notation_takes_every_whole_number_the_json_form_takes(tmp_path: Path
                                                                         ) -> None:
    """Defect 14: "pool: 9007199254740991" was "not a whole number" (a pattern of 15 digits)."""
    path = tmp_path / "hand.nap"
    for pool in (WHOLE, 10**15, 0):
        path.write_text(HAND.format(pool=pool), encoding="utf-8")
        assert read_hand_file(str(path), check=False)["pool"] == pool
    for pool in (WHOLE + 1, 10**30):
        path.write_text(HAND.format(pool=pool), encoding="utf-8")
        with pytest.raises(HandFileError) as caught:
            read_hand_file(str(path), check=False)
        assert (f"line 4, column 7: the pool is beyond the largest whole number napkit reads "
                f"(2^53 - 1 either way), not '{pool}'") in str(caught.value)
    path.write_text(HAND.format(pool="00000000000000000007"), encoding="utf-8")
    assert read_hand_file(str(path), check=False)["pool"] == 7
