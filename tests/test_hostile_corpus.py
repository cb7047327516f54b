"""A corpus of hostile files, each given to every command that reads a file, each command's
message exact (issue 13). The files are built here (some are megabytes of one number or a
thousand brackets); the expectations are written out by hand below, one message per file,
with the words each command puts before it.

Commands: ``napkit validate FILE`` (a record), ``napkit rules check FILE`` and ``napkit
rules show FILE`` (a ruleset file), ``napkit record FILE`` and ``napkit play FILE`` (a
ruleset file to play), ``napkit conform --xfail FILE`` (an expected-failures file) and
``napkit conform --suite DIR`` (a case file in a suite). Readers of standard input and of
the protocol's lines have their own tests (tests/test_validate.py, test_adapter_hostile.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from napkit.cli import main

Capture = pytest.CaptureFixture[str]

GOOD_RECORD = (Path(__file__).parent / "fixtures" / "records" / "good-hand-peep.json")

# name: (the bytes, where, what, whether a "not JSON: " (or "not TOML: ") comes before what)
CORPUS: dict[str, tuple[bytes, str, str, bool]] = {
    "empty.json": (b"", "$", "the text is empty (no JSON value)", True),
    "blank.json": (b"  \n\n", "$", "the text is empty (no JSON value)", True),
    "bom-only.json": ("\ufeff".encode(), "$", "the text is empty (no JSON value)", True),
    "binary.json": (b"\x00\xff\xfe\x01", "$",
                    "not UTF-8 text (invalid start byte, byte 1)", False),
    "latin1.json": ('{"id": "caf\u00e9"}'.encode("latin-1"), "$",
                    "not UTF-8 text (invalid continuation byte, byte 11)", False),
    "utf16.json": ('{"id": "x"}'.encode("utf-16"), "$",
                   "not UTF-8 text: it is UTF-16 (it starts with its byte-order mark); "
                   "save it as UTF-8", False),
    "truncated.json": (b'{"format": "napkit-hand/1", "ruleset": "pa', "line 1, column 40",
                       "a string starts here and is never closed", True),
    "comma.json": (b'{"id": "x",}', "line 1, column 12",
                   "a key in double quotes was expected here (JSON has no comma before a "
                   "closing brace)", True),
    "nan.json": (b'{"players": NaN}', "$", "NaN is not a JSON value", True),
    "infinity.json": (b"[-Infinity]", "$", "-Infinity is not a JSON value", True),
    "twice.json": (b'{"id": "x", "extends": "pagat", "id": "y"}', "$",
                   'the key "id" is given twice', False),
    "fraction.json": (b'{"id": "x", "set": {"players": 4.0}}', "$.set.players",
                      "4.0 is not a whole number (write it without a point or an exponent)",
                      False),
    "beyond.json": (b'{"id": "x", "n": [9007199254740992]}', "$.n[0]",
                    "9007199254740992 is beyond the largest whole number napkit reads "
                    "(2^53 - 1 either way)", False),
    "digits.json": (b'{"players": ' + b"9" * 100_000 + b"}", "$",
                    "a number with too many digits to read", True),
    "deep.json": (b"[" * 5000 + b"]" * 5000, "$",
                  "arrays or objects nested too deeply (over 100 levels)", True),
    "deep.toml": (b"a = " + b"[" * 900 + b"]" * 900 + b"\n", "$",
                  "tables or arrays nested too deeply (over 100 levels)", True),
    "twice.toml": (b'id = "x"\nid = "y"\n', "line 2, column 9",
                   "a key is given twice (TOML allows it once)", True),
    "date.toml": (b"when = 2024-01-01\n", "$.when", "a date is not allowed here", False),
}
TOML_ONLY = {name for name in CORPUS if name.endswith(".toml")}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    for name, (data, *_) in CORPUS.items():
        (folder / name).write_bytes(data)
    return folder


def message(name: str, *, toml_reader: bool = True) -> str:
    """``WHERE: WHAT`` as a reader of rulesets (JSON or TOML by the name) or of JSON says it."""
    _, where, what, not_text = CORPUS[name]
    kind = "TOML" if name.endswith(".toml") and toml_reader else "JSON"
    return f"{where}: {'not ' + kind + ': ' if not_text else ''}{what}"


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_rules_check(name: str, corpus: Path, capsys: Capture) -> None:
    path = corpus / name
    code, out, _ = run(capsys, "rules", "check", str(path))
    assert code == 1
    assert out.splitlines() == [f"{path}: {message(name)}", "1 problem in 1 ruleset file."]


@pytest.mark.parametrize("command", [["rules", "show"], ["record"], ["play", "--watch"]])
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_commands_taking_a_ruleset_file(command: list[str], name: str, corpus: Path,
                                        capsys: Capture) -> None:
    path = corpus / name
    code, out, err = run(capsys, *command, str(path), *(["--seed", "1"] if command != [
        "rules", "show"] else []))
    assert code == 1 and out == ""
    assert err == f"napkit: {path}: {message(name)}\n"


@pytest.mark.parametrize("name", sorted(set(CORPUS) - TOML_ONLY))
def test_validate(name: str, corpus: Path, capsys: Capture) -> None:
    path = corpus / name
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    unreadable = CORPUS[name][2].startswith("not UTF-8")
    summary = ("0 records: 0 valid, 0 invalid; 1 file could not be read" if unreadable
               else "1 record: 0 valid, 1 invalid")
    expected = message(name, toml_reader=False)
    if unreadable and "UTF-16" not in expected:
        # validate decodes a block at a time, reading a line at a time: it names the line.
        expected = expected.replace(", byte 1)", ", line 1)").replace(", byte 11)", ", line 1)")
    assert out.splitlines() == [f"{path}: {expected}", summary]


@pytest.mark.parametrize("name", sorted(set(CORPUS) - TOML_ONLY))
def test_conform_xfail(name: str, corpus: Path, capsys: Capture) -> None:
    path = corpus / name
    code, _, err = run(capsys, "conform", "--xfail", str(path), "--case", "classic/legal/0000*")
    assert code == 1  # the run could not be started
    assert err == f"napkit conform: {path}: {message(name, toml_reader=False)}\n"


@pytest.mark.parametrize("name", sorted(set(CORPUS) - TOML_ONLY))
def test_conform_suite_with_a_hostile_case(name: str, corpus: Path, tmp_path: Path,
                                           capsys: Capture) -> None:
    case = tmp_path / "suite" / "pagat" / "legal" / "0001-x.json"
    case.parent.mkdir(parents=True)
    case.write_bytes(CORPUS[name][0])
    code, _, err = run(capsys, "conform", "--suite", str(tmp_path / "suite"))
    assert code == 1  # the run could not be started
    assert err.splitlines()[0] == (f"napkit conform: bad case file: {case}: "
                                   f"{message(name, toml_reader=False)}")


def test_the_good_record_is_good(capsys: Capture) -> None:
    """The corpus's expectations are about the files, not a validator that refuses all."""
    assert json.loads(GOOD_RECORD.read_text(encoding="utf-8"))["format"] == "napkit-hand/1"
    code, _, _ = run(capsys, "validate", str(GOOD_RECORD))
    assert code == 0
