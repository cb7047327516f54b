"""Loading and choosing conformance cases (napkit.conform.suite.cases): good cases load; a bad file
is
a problem naming the file and the JSON path, and the others still load."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.suite.cases import (
    Filters,
    default_suite_dir,
    load_suite,
    rule_matches,
    select,
)
from napkit.spec import schemas
from napkit.spec.schemas import action_valid, fast_validator, is_valid, jsonschema_problems

FIXTURE_SUITE = Path(__file__).parent / "fixtures" / "conformance"
IDS = ["pagat/illegal/revoke-holding-the-suit-led", "pagat/illegal/wellington-without-nap",
       "pagat/legal/nap-auction-and-first-trick", "pagat/match/one-hand-nap-made",
       "pagat/outcome/nap-made-by-seat-1"]


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    root = tmp_path / "cases"
    shutil.copytree(FIXTURE_SUITE, root)
    return root


def _doc(root: Path, case_id: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((root / f"{case_id}.json").read_text(encoding="utf-8"))
    return doc


def _write(root: Path, relative: str, doc: object) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")


def test_the_fixture_cases_load() -> None:
    cases, problems = load_suite(FIXTURE_SUITE)
    assert problems == []
    assert [c.id for c in cases] == IDS
    legal = cases[2]
    assert legal.kind == "legal" and legal.ruleset == "pagat" and legal.players == 4
    assert legal.options["doubling"] == "none" and "NAP-8.1.1" in legal.rules
    assert legal.path == FIXTURE_SUITE / "pagat" / "legal" / "nap-auction-and-first-trick.json"
    assert legal.start["type"] == "start-hand" and legal.steps[0]["seat"] is None
    assert "handworked" in legal.tags


def test_default_suite_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NAPKIT_SUITE", raising=False)
    assert default_suite_dir().parts[-2:] == ("conformance", "cases")
    monkeypatch.setenv("NAPKIT_SUITE", str(tmp_path))
    assert default_suite_dir() == tmp_path


def test_a_missing_folder_is_a_problem(tmp_path: Path) -> None:
    cases, problems = load_suite(tmp_path / "nowhere")
    assert cases == [] and len(problems) == 1
    assert "does not exist" in problems[0].message


def test_an_empty_folder_is_no_case_and_no_problem(tmp_path: Path) -> None:
    assert load_suite(tmp_path) == ([], [])


def test_bad_files_are_problems_and_the_rest_load(suite: Path) -> None:
    (suite / "pagat" / "legal" / "broken.json").write_text('{"format": ', encoding="utf-8")
    bad_schema = _doc(suite, IDS[0])
    bad_schema["id"] = "pagat/illegal/bad-schema"
    bad_schema["steps"][1]["action"] = {"type": "play", "card": "ZZ"}
    _write(suite, "pagat/illegal/bad-schema.json", bad_schema)
    moved = _doc(suite, IDS[1])  # a good case in the wrong file
    _write(suite, "pagat/illegal/elsewhere.json", moved)
    (suite / "pagat" / "illegal" / "latin1.json").write_bytes(b'{"x": "\xe9"}')
    cases, problems = load_suite(suite)
    assert [c.id for c in cases] == IDS
    by_file = {Path(p.file).name: p for p in problems}
    assert set(by_file) == {"broken.json", "bad-schema.json", "elsewhere.json", "latin1.json"}
    assert by_file["broken.json"].path.startswith("line 1, column")
    assert "not JSON" in by_file["broken.json"].message
    assert by_file["bad-schema.json"].path == "$.steps[1].action.card"
    assert by_file["elsewhere.json"].path == "$.id"
    assert "pagat/illegal/elsewhere" in by_file["elsewhere.json"].message
    assert "UTF-8" in by_file["latin1.json"].message
    assert all(str(p).startswith(p.file + ": ") for p in problems)


@pytest.mark.parametrize(("change", "path", "words"), [
    (lambda d: d.__setitem__("ruleset", "nosuch") or d["start"].__setitem__("ruleset", "nosuch"),
     "$.id", "names ruleset 'pagat'"),
    (lambda d: d["options"].pop("doubling") and d["start"]["options"].pop("doubling"),
     "$.options", "'doubling' is not given"),
    (lambda d: d["options"].__setitem__("doubling", "never"), "$.start.options", "not the case's"),
    (lambda d: (d["options"].__setitem__("doubling", "never"),
                d["start"]["options"].__setitem__("doubling", "never")),
     "$.options.doubling", "'never' is not a choice"),
    (lambda d: (d["options"].__setitem__("colour", "red"),
                d["start"]["options"].__setitem__("colour", "red")),
     "$.options.colour", "no option 'colour'"),
    (lambda d: (d.__setitem__("players", 2), d["start"].__setitem__("players", 2)),
     "$.players", "NAP-3.1.1"),
    (lambda d: d.__setitem__("kind", "outcome"), "$.expect", "'outcome' is a required"),
])
def test_a_case_must_agree_with_itself_and_the_spec(suite: Path, change: Any, path: str,
                                                    words: str) -> None:
    doc = _doc(suite, IDS[0])
    change(doc)
    _write(suite, f"{IDS[0]}.json", doc)
    cases, problems = load_suite(suite)
    assert IDS[0] not in [c.id for c in cases] and len(cases) == len(IDS) - 1
    assert any(p.path == path and words in p.message for p in problems), problems


def test_fast_checks_agree_with_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks of napkit.spec.schemas (jsonschema-rs's yes where installed, else jsonschema;
    actions remembered) give jsonschema's verdict, a schema named either way."""
    doc = json.loads((FIXTURE_SUITE / f"{IDS[2]}.json").read_text(encoding="utf-8"))
    variants: list[Any] = [doc, {}, [], None]
    edits: list[tuple[list[str | int], object]] = [
        (["steps", 1, "legal", 0], {"type": "bid"}),
        (["steps", 1, "legal", 0], {"type": "bid", "bid": "x", "more": 1}),
        (["steps", 0, "action", "pack", 3], "AS"),
        (["steps", 0, "action", "pack", 3], "1S"),
        (["steps", 2, "seat"], -1), (["expect", "refuse"], {}),
        (["start", "type"], "start-match"), (["tags"], ["fixture"])]
    for path, value in edits:
        variant = json.loads(json.dumps(doc))
        node: Any = variant
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
        variants.append(variant)
    fast = fast_validator("case")
    assert fast is fast_validator("case.schema.json")  # compiled once, whatever the name
    for variant in variants:
        verdict = jsonschema_problems("case", variant) == []
        shown = variant.get("steps", [None])[:2] if isinstance(variant, dict) else variant
        if fast is not None:
            assert fast(variant) == verdict, shown
        assert is_valid("case", variant) == is_valid("case.schema.json", variant) == verdict, \
            shown
    assert action_valid({"type": "pass"}) and action_valid({"type": "pass"})
    assert not action_valid({"type": "pass", "x": 1}) and not action_valid(None)
    monkeypatch.setattr(schemas, "fast_validator", lambda name: None)  # jsonschema alone
    for variant in variants:
        assert is_valid("case", variant) == (jsonschema_problems("case", variant) == [])


def test_filters() -> None:
    cases, _ = load_suite(FIXTURE_SUITE)

    def ids(f: Filters) -> list[str]:
        return [c.id for c in select(cases, f)]

    assert ids(Filters()) == IDS and not Filters()
    assert ids(Filters(kinds=("illegal",))) == IDS[:2]
    assert ids(Filters(kinds=("legal", "match"))) == IDS[2:4]
    assert ids(Filters(rules=("NAP-8.1.1",))) == [IDS[0], IDS[2]]
    assert ids(Filters(rules=("NAP-10",))) == [IDS[3]]
    assert ids(Filters(rules=("NAP-1",))) == []  # NAP-10.x is not within NAP-1
    assert ids(Filters(cases=("pagat/*/nap-*",))) == [IDS[2], IDS[4]]
    assert ids(Filters(rulesets=("classic",))) == []
    assert ids(Filters(rulesets=("pagat",), kinds=("outcome",), tags=("handworked",))) == [IDS[4]]
    assert ids(Filters(tags=("generated",))) == []
    assert rule_matches("NAP-8.1.1", "NAP-8.1") and not rule_matches("NAP-8.10.1", "NAP-8.1")


def test_filters_read_only_the_files_they_may_choose(suite: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # A broken file the filters cannot choose is not read (a rerun of one case reads one
    # file); a run without filters reads and reports it.
    (suite / "pagat" / "legal" / "broken.json").write_text('{"format": ', encoding="utf-8")
    read: list[str] = []
    original = Path.read_text

    def spy(self: Path, *args: Any, **kwargs: Any) -> str:
        read.append(self.name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", spy)
    cases, problems = load_suite(suite, Filters(cases=(IDS[0],)))
    assert [c.id for c in cases] == [IDS[0]] and problems == []
    assert [name for name in read if not name.endswith(".schema.json")] == [
        IDS[0].rsplit("/", 1)[1] + ".json"]
    cases, problems = load_suite(suite, Filters(rulesets=("pagat",), kinds=("illegal",)))
    assert [c.id for c in cases] == IDS[:2] and problems == []
    cases, problems = load_suite(suite, Filters(rules=("NAP-8",)))  # needs every file's rules
    assert [Path(p.file).name for p in problems] == ["broken.json"]


def test_may_admit_reads_the_id_as_the_path() -> None:
    assert Filters(rulesets=("pagat",)).may_admit("pagat/legal/x")
    assert not Filters(rulesets=("peep",)).may_admit("pagat/legal/x")
    assert not Filters(kinds=("match",)).may_admit("pagat/legal/x")
    assert Filters(cases=("pagat/*/x",)).may_admit("pagat/legal/x")
    assert not Filters(cases=("pagat/legal/y",)).may_admit("pagat/legal/x")
    assert Filters(tags=("handworked",)).may_admit("pagat/legal/x")  # decided by the contents
