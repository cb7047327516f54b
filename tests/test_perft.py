"""Perft (spec/conformance.md part 5): the counts, the published files, the generator, the
command.

* Every count the published files mark fast agrees with napkit's :func:`perft` (the whole
  file, a few seconds); the files are valid, cover every ruleset with several games and table
  sizes, and regenerating a file gives it byte for byte.
* The definition is checked against a second count written here without the engine's
  shortcuts (it plays every action, the last level too), and against properties that hold for
  any position: depth 0 is 1, depth 1 the number of legal actions, the counts never fall as
  the depth grows, the divide sums to the count, chance and the end are leaves.
* Classic's auction counted from the law book alone (NAP-5.1.1, NAP-5.2.1, NAP-5.2.5, NAP-8.1):
  the published counts of every classic position after a deal agree with it to the first lead.
* A mutant of the engine (a revoke allowed, a trump forced) changes some published count.
* ``napkit perft``: the divide's table adds up, JSON output, a case file as a position, and
  every kind of bad input on one line with its JSON path or rule id, never a traceback.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from napkit.cli import main
from napkit.conform.perft.count import (
    Position,
    State,
    action_text,
    divide,
    load_file,
    perft,
    perft_levels,
    published,
    published_files,
    read_position,
)
from napkit.engine.cards import card_name, parse_card
from napkit.engine.game import Game
from napkit.errors import SpecError
from napkit.formats.notation import parse_action
from napkit.spec.catalog import default_spec

from conformance.mutants import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
PERFT = ROOT / "conformance" / "perft"
GENERATOR = ROOT / "conformance" / "generate_perft.py"
CASES = ROOT / "conformance" / "cases"


@cache
def positions() -> tuple[Position, ...]:
    return tuple(published(["*"]))


@cache
def generator() -> ModuleType:
    """conformance/generate_perft.py as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("napkit_generate_perft", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# --- the published files ----------------------------------------------------------------------
def test_every_fast_published_count_agrees_with_the_engine() -> None:
    checked = 0
    for position in positions():
        fast = [c for c in position.counts if not c.slow]
        levels = perft_levels(position.state(), max(c.depth for c in fast))
        for count in fast:
            assert levels[count.depth - 1] == count.count, (position.id, count)
            checked += 1
    assert checked > 1000


def test_the_files_cover_every_ruleset_with_several_games_tables_and_phases() -> None:
    files = published_files()
    assert set(files) == set(default_spec().rulesets)
    by_ruleset: dict[str, list[Position]] = {}
    for position in positions():
        by_ruleset.setdefault(position.ruleset, []).append(position)
    for ruleset_id, found in by_ruleset.items():
        ruleset = default_spec().rulesets[ruleset_id]
        defaults = {n: o.default for n, o in ruleset.options.items()}
        assert len({p.players for p in found}) >= 2, ruleset_id
        changed = {(n, c) for p in found for n, c in p.options.items() if defaults[n] != c}
        assert changed, f"{ruleset_id}: every position plays the default options"
        kinds = {p.id.rsplit("-", 1)[-1] for p in found}
        assert {"deal", "lead"} <= kinds, ruleset_id
        assert any(p.start["type"] == "start-match" for p in found), ruleset_id
        assert any(c.slow for p in found for c in p.counts), ruleset_id
        for position in found:
            assert position.counts[0].depth == 1 and not position.counts[0].slow, position.id
    tables = {p.players for p in positions()}
    assert {2, 3, 4, 5} <= tables


def test_the_files_are_what_the_schema_and_the_reader_accept() -> None:
    ids = [p.id for p in positions()]
    assert len(ids) == len(set(ids)) > 100
    for path in published_files().values():
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["format"] == "napkit-perft/1"
        assert doc["generated"] == {"by": "python conformance/generate_perft.py",
                                    "seed": generator().seed_of(path.stem)}


@pytest.mark.parametrize("ruleset", ["classic", "peep"])
def test_regenerating_gives_byte_identical_files(ruleset: str, tmp_path: Path) -> None:
    assert generator().main(["--ruleset", ruleset, "--out", str(tmp_path)]) == 0
    written = (tmp_path / f"{ruleset}.json").read_bytes()
    assert written == (PERFT / f"{ruleset}.json").read_bytes()


# --- the definition -----------------------------------------------------------------------------
def plain_perft(state: State, depth: int) -> int:
    """The count as spec/conformance.md 5.1 words it, without bulk counting: every action is
    played, the last level's too, and a node is a leaf at depth 0, at chance, or when over."""
    if depth == 0 or state.is_over() or state.is_chance():
        return 1
    return sum(plain_perft(state.apply(a), depth - 1) for a in state.legal_actions())


def sample() -> Iterator[Position]:
    rng = random.Random(15)
    yield from rng.sample(positions(), 25)


@pytest.mark.parametrize("position", list(sample()), ids=lambda p: p.id)
def test_the_count_is_the_definition(position: Position) -> None:
    state = position.state()
    depth = max(c.depth for c in position.counts if c.count <= 2000)
    levels = perft_levels(state, depth)
    assert perft(state, 0) == 1
    assert levels[0] == perft(state, 1) == len(state.legal_actions()) >= 1
    assert levels == [plain_perft(state, d) for d in range(1, depth + 1)]
    assert levels == sorted(levels)  # a player always has an action: no leaf is lost
    parts = divide(state, depth)
    assert [a for a, _ in parts] == list(state.legal_actions())
    assert sum(n for _, n in parts) == levels[-1]
    for action, n in parts:
        assert n == perft(state.apply(action), depth - 1)
        assert parse_action(action_text(action)) == action  # the divide's text reads back


def test_chance_and_the_end_of_play_are_leaves() -> None:
    hand = Game.create("pagat", 4).new_hand(dealer=1)  # chance is to deal
    assert [perft(hand, d) for d in range(4)] == [1, 1, 1, 1]
    assert divide(hand, 3) == [] and perft_levels(hand, 3) == [1, 1, 1]
    case = json.loads((CASES / "classic" / "outcome" / "0001-thrown-in.json").read_text())
    over = read_position(case, "0001-thrown-in.json", "thrown-in").state()
    assert over.is_over()
    assert [perft(over, d) for d in range(1, 4)] == [1, 1, 1]


# Classic's bids, lowest first (spec/rulesets/classic.json): a bid must rank above the highest
# so far (NAP-5.2.1), Wellington only once Nap has been bid (NAP-5.2.5).
CLASSIC_BIDS = ("three", "four", "nap", "wellington")


def auction_count(speakers: int, highest: int, depth: int) -> int:
    """Classic's auction counted from the law book alone, without the engine: each player
    speaks once, from the dealer's left (NAP-5.1.1), passing or bidding above the highest bid
    (NAP-5.2.1, NAP-5.2.5). Once all have spoken, nobody having bid, the hand is thrown in (a
    leaf); else the declarer leads any of their five cards (NAP-8.1: the lead is free)."""
    if depth == 0:
        return 1
    if speakers == 0:
        return 1 if highest < 0 else 5 if depth == 1 else -1  # -1: beyond the model
    calls = [highest] + [i for i, bid in enumerate(CLASSIC_BIDS) if i > highest
                         and (bid != "wellington" or CLASSIC_BIDS[highest] == "nap")]
    counts = [auction_count(speakers - 1, c, depth - 1) for c in calls]
    return -1 if -1 in counts else sum(counts)


def test_classic_auction_counts_agree_with_the_law_book() -> None:
    checked = 0
    for position in published(["classic/*-deal", "classic/*-match-first"]):
        for count in position.counts:
            if count.depth <= position.players + 1:
                assert auction_count(position.players, -1, count.depth) == count.count, (
                    position.id, count)
                checked += 1
    assert checked >= 25


# --- mutants --------------------------------------------------------------------------------------
def counts_under(mutant: str, pattern: str) -> dict[tuple[str, int], int | str]:
    """The published counts of at most 500 of the positions ``pattern`` selects, counted with
    ``mutant`` applied (a position whose steps the mutant refuses: the refusal). A mutant
    that lets more be played makes the deeper counts far larger: they are not counted."""
    found: dict[tuple[str, int], int | str] = {}
    with REGISTRY[mutant].applied():
        for position in published([pattern]):
            fast = [c for c in position.counts if c.count <= 500]
            try:
                levels = perft_levels(position.state(), fast[-1].depth)
            except SpecError as exc:
                found[position.id, 0] = str(exc)
                continue
            for count in fast:
                found[position.id, count.depth] = levels[count.depth - 1]
    return found


@pytest.mark.parametrize("mutant", ["revoke-allowed", "must-trump-when-void"])
def test_a_mutant_changes_a_published_count(mutant: str) -> None:
    published_counts = {(p.id, c.depth): c.count for p in published(["classic"])
                        for c in p.counts}
    mutated = counts_under(mutant, "classic")
    changed = [key for key, count in mutated.items() if published_counts.get(key) != count]
    assert changed, f"{mutant} changes no published count of classic"
    # and the engine is itself again once the mutant is undone
    position = published(["classic/default-3p-trick-2"])[0]
    known = position.published(4)
    assert known is not None and perft(position.state(), 4) == known.count


# --- the command ----------------------------------------------------------------------------------
def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["perft", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_divide_prints_each_first_action_and_the_total(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    position = published(["classic/default-3p-lead"])[0]
    status, out, err = run([position.id, "--depth", "4", "--divide"], capsys)
    assert status == 0, err
    state = position.state()
    rows = {}
    lines = out.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith("first action"))) + 1:]
    for line in table:
        if line.startswith("total"):
            break
        words = line.split()
        rows[" ".join(words[:-1])] = int(words[-1].replace(",", ""))
    assert rows == {action_text(a): n for a, n in divide(state, 4)}
    assert all(card_name(parse_card(text)) == text for text in rows)  # plays as their cards
    assert f"perft 4: {perft(state, 4):,} (agrees with the published count)" in out
    assert "nodes/s" in out


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    position = published(["peep/default-4p-exchange"])[0]
    status, out, _ = run([position.id, "--depth", "3", "--divide", "--json"], capsys)
    assert status == 0
    doc = json.loads(out)
    assert doc["count"] == perft(position.state(), 3) == doc["published"]
    assert sum(part["count"] for part in doc["divide"]) == doc["count"]
    assert {part["text"] for part in doc["divide"]} == {"take the widow", "leave the widow"}


def test_a_ruleset_id_checks_every_fast_count_of_its_file(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    status, out, _ = run(["pagat-aylesbury"], capsys)
    assert status == 0
    found = published(["pagat-aylesbury"])
    fast = sum(1 for p in found for c in p.counts if not c.slow)
    assert f"all {fast} published counts agree ({fast} counts of {len(found)} positions" in out
    assert len([line for line in out.splitlines() if line.endswith("  ok")]) == len(found)


def test_a_changed_published_count_differs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "perft"
    folder.mkdir()
    doc = json.loads((PERFT / "classic.json").read_text(encoding="utf-8"))
    doc["positions"][1]["perft"][2]["count"] += 1
    (folder / "classic.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setenv("NAPKIT_PERFT", str(folder))
    status, out, _ = run(["classic"], capsys)
    assert status == 1
    position = doc["positions"][1]
    wrong = position["perft"][2]["count"]
    assert (f"DIFFERS at depth 3: {wrong - 1:,} counted, {wrong:,} published" in out)
    assert "1 of " in out.splitlines()[-1]


def test_a_case_file_is_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    path = CASES / "classic" / "legal" / "0000-hand.json"
    status, out, err = run([str(path), "--depth", "2"], capsys)
    assert status == 0, err
    (position,) = load_file(path)
    assert f"perft 2: {perft(position.state(), 2):,}" in out
    assert "published" not in out.splitlines()[-1]


def bad_position(tmp_path: Path, change: Any) -> str:
    """A file of one position, a published one changed by ``change`` (a function of its
    dict)."""
    doc = json.loads((PERFT / "classic.json").read_text(encoding="utf-8"))["positions"][2]
    change(doc)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def error_line(args: list[str], capsys: pytest.CaptureFixture[str], status: int) -> str:
    got, out, err = run(args, capsys)
    assert got == status, (got, out, err)
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err.strip()


def test_bad_input_is_one_line_naming_the_place(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = bad_position(tmp_path, lambda d: d["steps"].append({"seat": 0, "action":
                                                               {"type": "pass"}}))
    line = error_line([path, "--depth", "2"], capsys, 1)
    assert f"$.steps[{len(json.loads(Path(path).read_text())['steps']) - 1}]: NAP-" in line

    path = bad_position(tmp_path, lambda d: d["start"].update(ruleset="clasic"))
    line = error_line([path, "--depth", "1"], capsys, 1)
    assert "$.start.ruleset: NAP-10.1.1: no ruleset 'clasic'" in line

    path = bad_position(tmp_path, lambda d: d["start"]["options"].update(pack="33"))
    assert "$.start.options.pack: NAP-10.1.1" in error_line([path, "--depth", "1"], capsys, 1)

    path = bad_position(tmp_path, lambda d: d["steps"][-1]["action"].update(card="1H"))
    steps = len(json.loads(Path(path).read_text())["steps"])
    assert f"$.steps[{steps - 1}].action.card:" in error_line([path, "--depth", "1"], capsys, 1)

    path = bad_position(tmp_path, lambda d: d.pop("start"))
    assert "$: 'start' is a required property" in error_line([path, "--depth", "1"], capsys, 1)

    broken = tmp_path / "broken.json"
    broken.write_text('{"start": ', encoding="utf-8")
    assert "broken.json: line 1" in error_line([str(broken), "--depth", "1"], capsys, 1)

    assert "no published position is 'classic/nope'" in error_line(
        ["classic/nope", "--depth", "1"], capsys, 2)
    assert "--divide" in error_line(["classic/default-3p-deal", "--divide"], capsys, 2)
    assert "--depth" in error_line(["classic/default-3p-deal", "--depth", "x"], capsys, 2)
    assert error_line([str(tmp_path / "absent.json")], capsys, 1).endswith(
        "cannot read: No such file or directory")


def test_a_bad_published_file_names_its_json_path(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "perft"
    shutil.copytree(PERFT, folder)
    doc = json.loads((folder / "peep.json").read_text(encoding="utf-8"))
    doc["positions"][3]["perft"][0]["count"] = 0
    (folder / "peep.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setenv("NAPKIT_PERFT", str(folder))
    line = error_line(["peep/*-deal"], capsys, 1)
    assert "peep.json: $.positions[3].perft[0].count: 0 is less than the minimum of 1" in line
    doc["positions"][3]["perft"][0]["count"] = 1
    doc["positions"][5]["id"] = doc["positions"][4]["id"]
    (folder / "peep.json").write_text(json.dumps(doc), encoding="utf-8")
    line = error_line(["peep"], capsys, 1)
    assert "$.positions[5].id:" in line and "$.positions[4]" in line
    # The other rulesets' files are not read to find peep's positions.
    assert run(["classic/default-3p-deal"], capsys)[0] == 0


def test_list_shows_the_published_positions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["--list", "pub-floater"], capsys)
    assert status == 0
    found = published(["pub-floater"])
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == [p.id for p in found]
    assert lines[-1].startswith(f"{len(found)} positions")


def test_after_follows_a_divide_down(capsys: pytest.CaptureFixture[str]) -> None:
    position = published(["classic/default-3p-lead"])[0]
    state = position.state()
    first, count = divide(state, 4)[1]
    second = divide(state.apply(first), 3)[0][0]
    status, out, err = run([position.id, "--depth", "3", "--divide", "--after",
                            action_text(first), "--json"], capsys)
    assert status == 0, err
    doc = json.loads(out)
    assert doc["count"] == count and doc["published"] is None  # no longer the published one
    assert doc["position"] == f"{position.id} after {action_text(first)}"
    status, out, _ = run([position.id, "--depth", "2", "--after", action_text(first),
                          "--after", action_text(second)], capsys)
    assert status == 0
    assert f"perft 2: {perft(state.apply(first).apply(second), 2):,};" in out
    line = error_line([position.id, "--depth", "2", "--after", "bid nap"], capsys, 2)
    assert "--after 'bid nap': seat" in line and "NAP-" in line
    assert "cannot read 'nine'" in error_line([position.id, "--depth", "2", "--after", "nine"],
                                              capsys, 2)


def test_a_count_that_meets_a_refused_action_stops_on_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    # A mutant whose auction lists a bid with the floating card that it then refuses (an
    # engine at odds with itself, as a program's generator and its checks may be).
    with REGISTRY["equal-bid-allowed"].applied():
        line = error_line(["pub-floater/seen-only-6p-deal", "--depth", "4"], capsys, 1)
    assert "pub-floater.json: $.positions[" in line
    assert "the count stopped: an action listed as legal below this position is refused: " \
           "NAP-5.2.4" in line


def test_steps_counts_from_a_point_of_a_case(capsys: pytest.CaptureFixture[str]) -> None:
    path = CASES / "peep" / "legal" / "0003-hand.json"
    case = json.loads(path.read_text(encoding="utf-8"))
    status, out, _ = run([str(path), "--depth", "2", "--divide"], capsys)
    assert status == 0 and "no player is to act here" in out  # a case is played to its end
    cut = read_position({**case, "steps": case["steps"][:6]}, "cut", "cut").state()
    status, out, _ = run([str(path), "--steps", "6", "--depth", "3", "--json"], capsys)
    assert status == 0
    assert json.loads(out)["count"] == perft(cut, 3) > 1
    assert f"has {len(case['steps'])} steps" in error_line(
        [str(path), "--steps", "99", "--depth", "1"], capsys, 2)
