"""The suite of any game (spec/conformance.md 1.3, issue 28 item 1): a house game's own cases,
generated the first time and kept, written to a folder by ``napkit suite build``, and strong
enough to catch the mutants that apply to the game."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from napkit.cli import main
from napkit.conform.run.runner import FAILED, CaseResult, run_suite
from napkit.conform.suite import games as games_module
from napkit.conform.suite.cases import add_rulesets, load_suite
from napkit.conform.suite.games import Game, build_suite, cached_suite, digest, read_game
from napkit.protocol.process import Session, in_process_opener

from conformance.mutants import REGISTRY
from conformance.mutants.compare import add_ruleset, first_difference

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "spec" / "examples" / "house-two-no-wellington.json"
Capture = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of the test's own: nothing is read from, or left in, the user's."""
    where = tmp_path / "cache"
    monkeypatch.setenv("NAPKIT_CACHE", str(where))
    return where


def _suites(cache: Path) -> list[Path]:
    found = cache / "suites"
    return sorted(p for p in found.iterdir() if not p.name.startswith(".")) if found.is_dir() \
        else []


# --- napkit conform --ruleset-file: the game's own cases, once generated, then kept ----------
def test_a_house_game_runs_its_own_cases_and_the_report_counts_them(
        tmp_path: Path, cache: Path, capsys: Capture) -> None:
    report = tmp_path / "run.json"
    assert main(["conform", "--ruleset-file", str(HOUSE), "-q", "--json", str(report)]) == 0
    err_out = capsys.readouterr()
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert doc["ok"] is True and doc["totals"]["passed"] >= 300, doc["totals"]
    assert {c["ruleset"] for c in doc["cases"]} == {"two-no-wellington"}
    note = next(n for n in doc["notes"] if n.startswith("the suite of two-no-wellington"))
    assert f"{doc['totals']['passed']} generated cases" in note and "generated in" in note
    assert "generated cases" in err_out.out + err_out.err
    [kept] = _suites(cache)
    assert (kept / "suite.toml").is_file()
    # The second run finds them in the cache: the same cases, nothing generated again.
    before = {p: p.stat().st_mtime_ns for p in kept.rglob("*.json")}
    assert main(["conform", "--ruleset-file", str(HOUSE), "-q", "--json", str(report)]) == 0
    again = json.loads(report.read_text(encoding="utf-8"))
    assert [c["id"] for c in again["cases"]] == [c["id"] for c in doc["cases"]]
    assert not any("generated in" in n for n in again["notes"]), again["notes"]
    assert _suites(cache) == [kept]
    assert {p: p.stat().st_mtime_ns for p in kept.rglob("*.json")} == before


def test_a_changed_house_file_gets_new_cases(tmp_path: Path, cache: Path) -> None:
    house = tmp_path / "house.json"
    house.write_bytes(HOUSE.read_bytes())
    first = digest([read_game(str(house))])
    doc = json.loads(house.read_text(encoding="utf-8"))
    doc["title"] += " (changed)"
    house.write_text(json.dumps(doc), encoding="utf-8")
    assert digest([read_game(str(house))]) != first
    # The same bytes under another name are the same game: the same cases.
    other = tmp_path / "other.json"
    other.write_bytes(house.read_bytes())
    assert digest([read_game(str(other))]) == digest([read_game(str(house))])


def test_a_ruleset_with_options_fixed_gets_cases_at_those_choices(capsys: Capture,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "cases"
    build_suite([read_game("pagat:doubling=won")], out)
    cases, problems = load_suite(out)
    assert problems == [] and len(cases) >= 300
    assert {c.options["doubling"] for c in cases} == {"won"}
    assert all(c.id.split("/")[2].startswith("doubling-won-") for c in cases)
    assert main(["conform", "--suite", str(out), "-q"]) == 0


@pytest.mark.parametrize(("given", "said"), [
    ("pagat:doubling=wo", "option doubling has no choice 'wo'"),
    ("pagt:doubling=won", "'pagt' is neither a ruleset file nor a ruleset of the spec"),
    ("no-such-house.json", "no-such-house.json: no such file"),
])
def test_a_game_that_is_none_is_one_line(given: str, said: str, capsys: Capture) -> None:
    assert main(["conform", "--ruleset-file", given, "-q"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and err.count("\n") == 1, err


def test_a_generation_stopped_half_way_leaves_nothing_in_the_cache(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = read_game(str(HOUSE))
    real = games_module.build_suite

    def stopped(games: list[Game], out: Path) -> dict[str, dict[str, int]]:
        (out / "two-no-wellington" / "legal").mkdir(parents=True)
        (out / "two-no-wellington" / "legal" / "0000-hand.json").write_text("{", "utf-8")
        raise KeyboardInterrupt

    monkeypatch.setattr(games_module, "build_suite", stopped)
    with pytest.raises(KeyboardInterrupt):
        cached_suite([game])
    assert _suites(cache) == [] and list((cache / "suites").iterdir()) == []
    monkeypatch.setattr(games_module, "build_suite", real)
    built = cached_suite([game])
    assert built.fresh and sum(built.counts[game.describe()].values()) >= 300


def test_a_kept_game_is_not_checked_again_and_a_spoilt_keep_is_read_afresh(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rerun of a kept suite reads the ruleset its file made back (the same bytes passed
    every check then): no trial games are played again. A kept ruleset that cannot be read
    back is made again from the file, without the checks, and kept anew."""
    from napkit.spec import house

    built = cached_suite([read_game(str(HOUSE))])
    kept = built.root / games_module.RULESET_FILE
    assert kept.is_file()

    def no_trials(*_: object) -> list[object]:
        raise AssertionError("the checks were run again")

    monkeypatch.setattr(house, "trial_problems", no_trials)
    assert read_game(str(HOUSE)).ruleset.id == "two-no-wellington"
    kept.write_bytes(b"not a pickle")
    assert read_game(str(HOUSE)).ruleset.id == "two-no-wellington"
    assert kept.read_bytes() != b"not a pickle"


def test_a_cache_that_cannot_be_written_still_runs_the_cases(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder", "utf-8")
    monkeypatch.setenv("NAPKIT_CACHE", str(blocked))
    assert main(["conform", "--ruleset-file", str(HOUSE)]) == 0
    out = capsys.readouterr().out
    assert "cannot be written" in out and "for this run only" in out


def test_the_matrix_has_the_game_as_its_column(capsys: Capture) -> None:
    assert main(["conform", "--ruleset-file", str(HOUSE), "--matrix"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("rule "))
    assert header.split() == ["rule", "two-no-wellington"]
    assert "no empty cell" in out


# --- napkit suite build ----------------------------------------------------------------------
def test_suite_build_writes_a_folder_that_conform_runs(tmp_path: Path, capsys: Capture) -> None:
    out = tmp_path / "nap-cases"
    mine = out / "two-no-wellington" / "legal" / "my-own.json"
    assert main(["suite", "build", "--ruleset-file", str(HOUSE), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "two-no-wellington" in said and f"--suite {out}" in said
    files = sorted(out.rglob("*.json"))
    assert len(files) >= 300
    first = {p: p.read_bytes() for p in files}
    # A hand-written case beside them is kept when they are written again, byte for byte the
    # same (the generator is seeded by each case's id).
    hand = json.loads(next(p for p in files if "/legal/" in p.as_posix()).read_text("utf-8"))
    hand["id"], hand["tags"] = "two-no-wellington/legal/my-own", ["handworked"]
    mine.write_text(json.dumps(hand), encoding="utf-8")
    assert main(["suite", "build", "--ruleset-file", str(HOUSE), "-o", str(out)]) == 0
    assert {p: p.read_bytes() for p in files} == first and mine.is_file()
    capsys.readouterr()
    assert main(["conform", "--suite", str(out), "--ruleset-file", str(HOUSE), "-q"]) == 0
    assert f"{len(files) + 1} passed" in capsys.readouterr().out


def test_suite_build_without_a_game_is_a_usage_error(capsys: Capture) -> None:
    assert main(["suite", "build", "-o", "x"]) == 2
    assert "--ruleset-file" in capsys.readouterr().err


def test_a_game_with_no_case_in_the_suite_given_is_noted(tmp_path: Path) -> None:
    report = tmp_path / "run.json"
    main(["conform", "--ruleset-file", str(HOUSE), "--ruleset", "classic", "--kind", "legal",
          "--suite", str(ROOT / "conformance" / "cases"), "-q", "--json", str(report)])
    notes = json.loads(report.read_text(encoding="utf-8"))["notes"]
    assert any("two-no-wellington" in n and "has no case in this suite" in n for n in notes)


# --- each example house game: 300 cases at least, and they catch the mutants that apply ------
EXAMPLES = sorted((ROOT / "spec" / "examples").glob("house-*.json"))
_SUITES: dict[Path, tuple[Game, list[object]]] = {}


def _suite_of(path: Path, where: Path) -> tuple[Game, list[object]]:
    """The example's generated cases, read once for the module."""
    if path not in _SUITES:
        game = read_game(str(path))
        build_suite([game], where)
        add_rulesets([game.base])
        cases, problems = load_suite(where)
        assert problems == []
        _SUITES[path] = (game, list(cases))
    return _SUITES[path]


@pytest.fixture(scope="module")
def example_cases(tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[dict[Path, tuple[Game, list[object]]]]:
    yield {path: _suite_of(path, tmp_path_factory.mktemp(path.stem)) for path in EXAMPLES}


def _candidates(game: Game) -> list[str]:
    """The mutants of the game's parent ruleset whose rule is in force in the game."""
    parent = game.base.extends
    return sorted(name for name, m in REGISTRY.items()
                  if parent in m.rulesets and m.rule in game.base.rules)


def test_there_are_two_examples_and_one_scores_points_with_the_dealer_stuck() -> None:
    assert len(EXAMPLES) >= 2
    params = [json.loads(p.read_text(encoding="utf-8"))["params"] for p in EXAMPLES]
    assert any(p.get("scoring", {}).get("sheet") == "points"
               and p.get("auction", {}).get("dealer_must_bid") is True for p in params)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_each_example_gets_300_cases_and_the_reference_passes_them(
        path: Path, example_cases: dict[Path, tuple[Game, list[object]]]) -> None:
    game, cases = example_cases[path]
    assert len(cases) >= 300
    results = _run(game, cases)
    assert [r.case.id for r in results if r.status != "passed"] == []


def _run(game: Game, cases: list[object], exitfirst: bool = False) -> list[CaseResult]:
    session = Session(in_process_opener([game.base]), 10.0)
    hello = session.open()
    try:
        return run_suite(cases, session, hello.supports,  # type: ignore[arg-type]
                         exitfirst=exitfirst)
    finally:
        session.close()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_example_s_cases_catch_every_mutant_that_applies_to_it(
        path: Path, example_cases: dict[Path, tuple[Game, list[object]]]) -> None:
    """A mutant of the game's parent, of a rule in force in the game, applies to it where it
    changes the engine's answers in random play of the game (wellington-without-nap does not,
    in a game with no Wellington); every one that applies fails a case."""
    game, cases = example_cases[path]
    add_ruleset(game.base)
    applying = [name for name in _candidates(game)
                if first_difference(REGISTRY[name], game.ruleset.id) is not None]
    assert len(applying) >= 15, applying
    missed = []
    for name in applying:
        with REGISTRY[name].applied():
            if not any(r.status == FAILED for r in _run(game, cases, exitfirst=True)):
                missed.append(f"{name} ({REGISTRY[name].rule})")
    assert missed == [], f"mutants that pass every case of {game.describe()}: {missed}"


def test_the_cache_folder_is_napkit_s_own() -> None:
    # NAPKIT_CACHE, else XDG_CACHE_HOME/napkit, else ~/.cache/napkit.
    from napkit.paths import cache_dir

    assert cache_dir() == Path(os.environ["NAPKIT_CACHE"])


def test_validate_replays_a_house_game_s_records_given_its_file(
        tmp_path: Path, capsys: Capture) -> None:
    """A record names its game by id: a house game's is found in the file given, and without
    it the one line says where a house game is read from."""
    records = tmp_path / "hands.jsonl"
    points = ROOT / "spec" / "examples" / "house-points-stick.json"
    assert main(["record", str(points), "--hands", "2", "--seed", "1", "-o", str(records)]) == 0
    capsys.readouterr()
    assert main(["validate", str(records)]) == 1
    out = capsys.readouterr().out
    assert "no ruleset 'points-stick'" in out and "--ruleset-file FILE" in out
    assert main(["validate", "--ruleset-file", str(points), str(records)]) == 0
    assert "2 records: 2 valid, 0 invalid" in capsys.readouterr().out


def test_fuzz_of_the_reference_plays_the_house_game_given(tmp_path: Path) -> None:
    """Without a program, napkit fuzz's reference plays the house games of --ruleset-file
    (it fuzzed only the spec's rulesets, the house game noted as not fuzzed)."""
    report = tmp_path / "fuzz.json"
    points = ROOT / "spec" / "examples" / "house-points-stick.json"
    assert main(["fuzz", "--ruleset-file", str(points), "--ruleset", "points-stick",
                 "--hands", "30", "--seed", "3", "-q", "--json", str(report)]) == 0
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert doc["disagreement"] is None and doc["episodes"] == 30, doc
