"""House files and ``napkit rules new`` against hostile input (issue 27, defects 7 and 9):
a --set value is read as a house file's JSON is (one reader, with its limits), so that
nothing is written that ``napkit rules check`` then refuses, and nothing gives a traceback;
a house file is refused beyond the limits spec/formats.md states, with the message it says;
and the checks of a house file do each piece of work once, not once for each of the hundreds
of combinations of its options."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from napkit import paths
from napkit.cli import EXIT_USAGE, main
from napkit.engine.game import compile_rules
from napkit.spec import checks, house
from napkit.spec.catalog import default_spec
from napkit.spec.house import MAX_BIDS, MAX_DESCRIPTION, MAX_ENTRIES, MAX_TITLE, read_house_ruleset

Capture = pytest.CaptureFixture[str]
WHOLE = 2**53 - 1


def new(capsys: Capture, out: Path, *settings: str) -> tuple[int, str]:
    argv = ["rules", "new", "--from", "classic", "-o", str(out)]
    for setting in settings:
        argv += ["--set", setting]
    status = main(argv)
    return status, capsys.readouterr().err


@pytest.mark.parametrize(("setting", "where", "words"), [
    ("x=" + "[" * 10_000 + "]" * 10_000, "$.params.x",
     "arrays or objects nested too deeply (over 100 levels)"),
    ("x=" + "[" * 150 + "]" * 150, "$.params.x[0][0][0][0][0]...",
     "arrays or objects nested too deeply (over 100 levels)"),
    ("x=" + '{"a": ' * 5000 + "1" + "}" * 5000, "$.params.x", "nested too deeply"),
    (f"bids[nap].win.each={WHOLE + 1}", "$.params.bids[nap].win.each",
     f"{WHOLE + 1} is beyond the largest whole number napkit reads"),
    (f"ante.amount=-{WHOLE + 1}", "$.params.ante.amount", "is beyond the largest whole number"),
    ("ante.amount=" + "9" * 5000, "$.params.ante.amount", "a number with too many digits"),
    ("ante.amount=1.5", "$.params.ante.amount", "1.5 is not a whole number"),
    ("ante.amount=1e400", "$.params.ante.amount", "1e400 is not a whole number"),
    ('throw_in={"stakes": 1, "stakes": 2}', "$.params.throw_in", 'the key "stakes" is given '
                                                                 "twice"),
])
def test_a_set_value_no_house_file_may_hold_is_refused_by_rules_new(
        setting: str, where: str, words: str, tmp_path: Path, capsys: Capture) -> None:
    """Defect 7: a deep value was a RecursionError traceback; a number beyond 2^53 - 1 was
    written, and rules check then refused the file."""
    out = tmp_path / "house.json"
    status, err = new(capsys, out, setting)
    assert status == EXIT_USAGE and not out.exists(), err[:2000]
    assert err.count("\n") == 1 and "Traceback" not in err, err[:2000]
    assert err.startswith("napkit: --set '") and f": {where}: " in err and words in err, err
    if len(setting) > 60:  # the value typed, shortened, saying its length
        assert f"({len(setting):,} characters)" in err and len(err) < 400, err


def test_what_rules_new_writes_rules_check_reads(tmp_path: Path, capsys: Capture) -> None:
    out = tmp_path / "house.json"
    status, err = new(capsys, out, f"bids[nap].win.each={WHOLE}", "throw_in.stakes=double-next")
    assert status == 0, err
    assert json.loads(out.read_text(encoding="utf-8"))["params"]["throw_in"] == {
        "stakes": "double-next"}
    assert main(["rules", "check", str(out)]) == 0, capsys.readouterr().err


def test_a_word_that_is_not_json_is_still_a_word(tmp_path: Path, capsys: Capture) -> None:
    """Only JSON no file may hold is refused: text that is not JSON at all is a string."""
    out = tmp_path / "house.json"
    status, err = new(capsys, out, "throw_in.stakes=double-next", "naming.void_suit=NaN")
    assert status == 1 and not out.exists()  # NaN is no choice of void_suit: checked, refused
    assert "$.params.naming.void_suit: \"NaN\" is not a valid value here" in err, err


# --- limits -----------------------------------------------------------------------------------
def bids(count: int) -> list[dict[str, Any]]:
    return [{"id": f"b{i}", "name": f"B{i}", "tricks": 1 + i % 5, "trumps": "first-card-led",
             "lead": "any", "win": {"each": 1 + i % 5}, "lose": {"each": 1 + i % 5}}
            for i in range(count)]


def house_file(tmp_path: Path, **changes: Any) -> Path:
    document = {"house": True, "id": "many", "title": "Many bids", "extends": "classic",
                "options": {"wellington-shuffle": {"choices": ["nap-only"]}},
                "params": {"preparation": {"shuffle_after_made": ["b5"]}}}
    for key, value in changes.items():
        target = document["params"] if key == "bids" else document
        assert isinstance(target, dict)
        target[key] = value
    path = tmp_path / "house.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def doc_limits() -> dict[str, str]:
    """spec/formats.md's table of a house file's limits: the message of each, by its path."""
    page = (paths.spec_dir() / "formats.md").read_text(encoding="utf-8")
    section = page.split("### House files: limits", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| [^|]+ \| ([\d,]+) \| `house\.json: (\$[.\w]+): (.+)` \|$",
                      section, re.MULTILINE)
    assert len(rows) == 5, section
    most = {"$.params.bids": MAX_BIDS, "$.options": MAX_ENTRIES, "$.params": MAX_ENTRIES,
            "$.title": MAX_TITLE, "$.description": MAX_DESCRIPTION}
    assert all(int(n.replace(",", "")) == most[where] for n, where, _ in rows), rows
    return {where: message for _, where, message in rows}


def test_a_house_file_beyond_its_limits_is_refused_as_the_spec_says(tmp_path: Path,
                                                                    capsys: Capture) -> None:
    """Defect 9: 5,000 bids took minutes to check; the spec states the limits and their
    messages, which are the reader's word for word."""
    said = doc_limits()
    options = {f"option-{n}": {"default": "x"} for n in range(150)}
    params = {f"param_{n}": 1 for n in range(150)}
    for changes, where in (({"bids": bids(5000)}, "$.params.bids"),
                           ({"options": options}, "$.options"),
                           ({"params": params}, "$.params"),
                           ({"title": "T" * 5000}, "$.title"),
                           ({"description": "D" * 20000}, "$.description")):
        path = house_file(tmp_path, **changes)
        ruleset, problems = read_house_ruleset(path, "house.json")
        assert ruleset is None and [str(p) for p in problems] == [
            f"house.json: {where}: {said[where]}"]
        assert main(["rules", "check", str(path)]) == 1
        out = capsys.readouterr().out.splitlines()
        assert out == [f"{path}: {where}: {said[where]}", "1 problem in 1 ruleset file."]


def test_a_house_file_at_its_limits_is_read(tmp_path: Path) -> None:
    path = house_file(tmp_path, bids=bids(MAX_BIDS))
    ruleset, problems = read_house_ruleset(path)
    assert problems == [] and ruleset is not None
    assert ruleset.params["bids"] == bids(MAX_BIDS)


def test_each_check_of_the_bids_is_made_once_not_under_every_combination(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 9: the bids were checked, and the whole game compiled, under each of classic's
    192 combinations of options (and each bid's check built a set of every later bid), so
    that checking took time in the square of the bids. Each value is now checked once."""
    classic = default_spec().rulesets["classic"]
    combinations = sum(1 for _ in classic.option_combinations(only_relevant=True))
    assert combinations > 100  # what made the checks slow
    calls = {"checks": 0, "house": 0, "compile": 0}

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(checks, "_bid_problems", counted("checks", checks._bid_problems))
    monkeypatch.setattr(house, "_bid_problems", counted("house", house._bid_problems))
    monkeypatch.setattr(house, "compile_rules", counted("compile", compile_rules))
    ruleset, problems = read_house_ruleset(house_file(tmp_path, bids=bids(MAX_BIDS)))
    assert problems == [] and ruleset is not None
    # Once for each value (the bids do not change with the options; the preparation they are
    # checked against does, four ways), and the game compiled until each value of each
    # parameter has been: a few times, where each was done 192 times.
    assert calls["house"] == 1 and calls["checks"] <= 8 and calls["compile"] <= 16, calls

    # The same problems as before, each with the first combination it appears under.
    bad = bids(3) + [{**bids(1)[0], "id": "b1"}]  # b1 twice
    ruleset, problems = read_house_ruleset(house_file(tmp_path, bids=bad), "house.json")
    assert [str(p) for p in problems] == [
        "house.json: $.params.bids[3].id: bid b1 appears twice in many's bids (with the "
        "default options)",
        "house.json: $.params.preparation.shuffle_after_made[0]: b5 is not a bid of many "
        "(with the default options)"]


# --- issue 28 (4): a house file that helps its writer ------------------------------------------
def test_a_file_that_forgets_house_true_is_told_it_looks_like_a_house_game(
        tmp_path: Path, capsys: Capture) -> None:
    """It got three schema errors about a source's section and rules, and no hint."""
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"id": "two-bid", "title": "Two bid", "extends": "classic"}),
                    encoding="utf-8")
    assert main(["rules", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[1] == "1 problem in 1 ruleset file.", out
    assert 'a game of your own is a house file, which says "house": true' in out[0]
    assert main(["conform", "--ruleset-file", str(path), "-q"]) == 1
    assert '"house": true' in capsys.readouterr().err
    # A source's ruleset that lacks one of them still gets the schema's word.
    path.write_text(json.dumps({"id": "x", "title": "X", "source": "001", "rules": {}}),
                    encoding="utf-8")
    assert main(["rules", "check", str(path)]) == 1
    assert '"house": true' not in capsys.readouterr().out


@pytest.mark.parametrize(("key", "meant"), [("summary", "description"), ("parms", "params"),
                                            ("name", "title"), ("base", "extends"),
                                            ("optoins", "options")])
def test_an_unknown_key_of_a_house_file_says_what_was_meant(
        tmp_path: Path, key: str, meant: str) -> None:
    document = json.loads(house_file(tmp_path).read_text(encoding="utf-8"))
    document[key] = {} if meant in ("params", "options") else "x"
    path = tmp_path / "house.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    ruleset, problems = read_house_ruleset(path, "house.json")
    assert ruleset is None
    assert [str(p) for p in problems] == [
        f"house.json: $.{key}: a house file has no key {key!r} (did you mean {meant}?); its "
        "keys are $schema, house, id, title, extends, description, options, params"]


@pytest.mark.parametrize("setting", ["auction.dealer_must_bid=true", "auction.rounds=reopening"])
def test_rules_new_writes_each_auction_variant_and_it_plays(
        tmp_path: Path, capsys: Capture, setting: str) -> None:
    """Issue 28, the auction variants: a file `rules new` writes for each loads and plays."""
    out = tmp_path / "house.json"
    status, err = new(capsys, out, setting)
    assert status == 0, err
    path, value = setting.split("=")
    assert json.loads(out.read_text(encoding="utf-8"))["params"] == {
        "auction": {path.split(".")[1]: True if value == "true" else value}}
    assert main(["play", str(out), "--watch", "--hands", "3", "--seed", "1"]) == 0
    assert "seat" in capsys.readouterr().out


def test_a_field_the_parent_names_only_as_a_family_puts_its_own_rule_in_force(
        tmp_path: Path, capsys: Capture) -> None:
    """Issue 28: NAP-5.1.2 lists `auction`, the whole object, so a house file's
    `auction.dealer_must_bid` counted as read by the parent's rules and NAP-5.3.3, the rule
    that names it, was never put in force (its refusal then had no cases); and rules check
    said the field "was null" where the parent does not give it."""
    out = tmp_path / "house.json"
    assert main(["rules", "new", "--from", "classic", "--set", "auction.dealer_must_bid=true",
                 "-o", str(out)]) == 0
    assert "auction.dealer_must_bid: true (was not given)" in capsys.readouterr().out
    ruleset, problems = read_house_ruleset(out, "house.json")
    assert ruleset is not None and not problems
    assert "NAP-5.3.3" in ruleset.rules
    assert "NAP-5.3.3" not in default_spec().rulesets["classic"].rules
    # A field the parent's rules name for themselves brings nothing new: raising is
    # NAP-5.4.1's, not in force in classic, and stays so.
    status, err = new(capsys, out, "auction.rounds=until-passes")
    assert status == 0, err
    ruleset, _ = read_house_ruleset(out, "house.json")
    assert ruleset is not None
    assert set(ruleset.rules) == set(default_spec().rulesets["classic"].rules)
