"""Reading and validating files: every failure is one line naming the file and where."""

from __future__ import annotations

from pathlib import Path

import pytest
from napkit.errors import SpecError, SpecProblemsError, json_path
from napkit.spec.loading import load_document, read_document

from .conftest import FIXTURE_SPEC

RULESET_SCHEMA = FIXTURE_SPEC / "schemas" / "ruleset.schema.json"
LAWBOOK_SCHEMA = FIXTURE_SPEC / "schemas" / "lawbook.schema.json"


def _one(path: Path, schema: Path) -> SpecError:
    with pytest.raises(SpecProblemsError) as caught:
        load_document(path, schema, path.name)
    return caught.value.errors[0]


def test_json_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "id": "x",\n  "title" "y"\n}\n')
    error = _one(bad, RULESET_SCHEMA)
    assert error.path == "line 3, column 11"
    assert str(error) == ("bad.json: line 3, column 11: not JSON: a colon (:) was "
                          "expected here, after the key")
    assert "\n" not in str(error)


def test_toml_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "01-bad.toml"
    bad.write_text('id = "NAP-1"\ntitle = "x"\nintro = \n')
    error = _one(bad, LAWBOOK_SCHEMA)
    assert error.path.startswith("line 3, column ")
    assert error.message.startswith("not TOML: ")
    assert "(at line" not in error.message


def test_wrong_type_names_the_json_path(tmp_path: Path) -> None:
    text = (FIXTURE_SPEC / "rulesets" / "other.json").read_text()
    bad = tmp_path / "other.json"
    bad.write_text(text.replace('"tricks": 3', '"tricks": "three"'))
    error = _one(bad, RULESET_SCHEMA)
    assert str(error) == 'other.json: $.params.bids[0].tricks: "three" is not of type "integer"'


def test_any_of_failure_reports_the_precise_sub_error(tmp_path: Path) -> None:
    text = (FIXTURE_SPEC / "rulesets" / "other.json").read_text()
    bad = tmp_path / "other.json"
    players = '"players": [2, 3, 4],\n    "pack"'
    bad.write_text(text.replace(players, players.replace("2, 3, 4", "11")))
    error = _one(bad, RULESET_SCHEMA)
    assert (error.path, error.message) == ("$.params.players[0]",
                                           "11 is greater than the maximum of 10")


def test_every_schema_error_is_reported(tmp_path: Path) -> None:
    text = (FIXTURE_SPEC / "rulesets" / "other.json").read_text()
    bad = tmp_path / "other.json"
    bad.write_text(text.replace('"tricks": 3', '"tricks": 9').replace('"lead": "any"',
                                                                     '"lead": "never"'))
    with pytest.raises(SpecProblemsError) as caught:
        load_document(bad, RULESET_SCHEMA, "other.json")
    paths = [e.path for e in caught.value.errors]
    assert "$.params.bids[0].tricks" in paths
    assert "$.params.bids[0].lead" in paths
    assert str(caught.value).endswith("more problems)")


@pytest.mark.parametrize(("text", "found"), [("[1, 2]", "an array"), ('"x"', "a string"),
                                             ("null", "null"), ("3", "a number")])
def test_not_an_object(tmp_path: Path, text: str, found: str) -> None:
    bad = tmp_path / "x.json"
    bad.write_text(text)
    with pytest.raises(SpecError, match=f"expected a JSON object, found {found}"):
        read_document(bad, "x.json")


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="file not found"):
        read_document(tmp_path / "nope.json", "nope.json")
    with pytest.raises(SpecError, match="is a directory"):
        read_document(tmp_path, "dir.json")


def test_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_bytes(b'{"id": "\xff"}')
    with pytest.raises(SpecError, match="not UTF-8"):
        read_document(bad, "x.json")


def test_toml_dates_are_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "x.toml"
    bad.write_text("when = 2024-01-01\n")
    with pytest.raises(SpecError, match=r"\$\.when: a date is not allowed"):
        read_document(bad, "x.toml")


def test_json_path_quotes_keys_that_are_not_identifiers() -> None:
    assert json_path(["rules", "NAP-9.9.9"]) == '$.rules["NAP-9.9.9"]'
    assert json_path(["params", "bids", 2, "win", "each"]) == "$.params.bids[2].win.each"
    assert json_path([]) == "$"


def test_spec_error_is_one_line() -> None:
    error = SpecError("f.json", "$.a", "two\nlines")
    assert str(error) == "f.json: $.a: two lines"
