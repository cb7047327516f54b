"""House rulesets (spec/README.md, "House rulesets"): a game of one's own, written as its
differences from a built-in ruleset, read by napkit.spec.house and played by the engine.

The example is spec/examples/house-two-no-wellington.json: classic Nap (000_b90223f4596c033b.txt)
with a bid of Two, which wins or pays 2 a player, and no Wellington. Its payments below are
worked out by hand from that file and the law book (NAP-9.1.1, NAP-9.2.1), not read from the
engine. The table is four players, dealer seat 3, cards dealt singly, as in
tests/handworked/test_classic.py, whose 'ladder' layout it uses: the declarer takes exactly k
tricks.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from napkit import paths
from napkit.cli import main
from napkit.conform.suite.generate import generate_cases, replay, start_state, write_suite
from napkit.engine.actions import Action, Bid, Pass
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.observation import PlayerView
from napkit.engine.phases.auction import dealer_stuck
from napkit.engine.state import AUCTION
from napkit.errors import SetupError, SpecError
from napkit.formats.values import action_from_json
from napkit.players.playout import play_out
from napkit.players.uniform import RandomPlayer
from napkit.spec.catalog import default_spec
from napkit.spec.house import (
    HouseRuleset,
    load_house_ruleset,
    load_ruleset_path,
    merge_params,
    playability_problems,
    read_house_ruleset,
)
from napkit.spec.loading import JSON
from napkit.spec.schemas import schema_problems

from tests.handworked.deals import (
    FOURTH,
    HOLDER,
    LOW,
    THIRD,
    TOP,
    apply_all,
    dealt,
    each_pays,
    ladder,
    owed,
    payments,
    pays_each,
    play_tricks,
)

EXAMPLE = paths.spec_dir() / "examples" / "house-two-no-wellington.json"
GUIDE = paths.REPO_ROOT / "docs" / "guides" / "house-rules.md"
DEALER = 3
SINGLY = (1, 1, 1, 1, 1)  # classic's packets by default (DEC-001), unchanged by the file


def example() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return document


def house() -> HouseRuleset:
    return load_house_ruleset(EXAMPLE)


def write(tmp_path: Path, document: object, name: str = "bad.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document) if not isinstance(document, str) else document,
                    encoding="utf-8")
    return path


# --- the example -------------------------------------------------------------------------------


def test_the_example_is_valid_and_has_no_problems() -> None:
    assert schema_problems("house-ruleset", example()) == []
    ruleset, problems = read_house_ruleset(EXAMPLE, "example.json")
    assert problems == []
    assert ruleset is not None
    assert (ruleset.id, ruleset.extends, ruleset.source) == (
        "two-no-wellington", "classic", default_spec().rulesets["classic"].source)
    assert ruleset.changes == (
        "bids: adds two (2 tricks, wins 2, pays 2 a player)",
        "bids: drops wellington",
        "option wellington-shuffle: offers only nap-only (drops nap-and-wellington); default "
        "nap-only (was nap-and-wellington)")


def test_the_house_game_bids_two_and_never_wellington() -> None:
    """NAP-5.2.2: the file's bids, in its order, are the ranking; Wellington is no bid of it."""
    game = Game(house(), 4)
    assert [bid.id for bid in game.rules.bids] == ["two", "three", "four", "nap"]
    assert [bid.tricks for bid in game.rules.bids] == [2, 3, 4, 5]
    hand = game.new_hand(dealer=DEALER)
    hand = hand.apply(hand.sample_chance(random.Random(1)))
    assert hand.legal_actions() == (Pass(), Bid("two"), Bid("three"), Bid("four"), Bid("nap"))
    after_nap = hand.apply(Bid("nap"))
    refusal = after_nap.refusal(Bid("wellington"))
    assert refusal is not None and refusal.rule == "NAP-5.2.2"
    # Nothing after a Nap: the classic game's Wellington would be the only higher bid.
    assert Bid("wellington") not in after_nap.legal_actions()
    assert after_nap.legal_actions() == (Pass(),)


def ladder_hand(k: int, bid: str) -> tuple[Any, list[str]]:
    """Seat 0 declares ``bid`` holding k top spades and 5-k low hearts; all others pass."""
    hands = {0: " ".join(TOP[:k] + LOW[:5 - k]), 1: " ".join(HOLDER), 2: " ".join(THIRD),
             3: " ".join(FOURTH)}
    state = dealt(Game(house(), 4), dealer=DEALER, hands=hands, packets=SINGLY)
    state = apply_all(state, [Bid(bid), Pass(), Pass(), Pass()])
    return state, ladder(TOP[:k], LOW[:5 - k], HOLDER, (), THIRD, FOURTH)


# (bid, tricks taken, made, the stake the file gives that bid: bids[i].win.each = lose.each)
CONTRACTS = [
    # The file's Two: "tricks": 2, "win": {"each": 2}, "lose": {"each": 2}. Two tricks are
    # enough (NAP-5.2.3: at least the tricks named): each of the three opponents pays 2 (+6).
    ("two", 2, True, 2),
    # Three tricks on a Two earn nothing more (NAP-9.1.1 pays the bid, not the tricks).
    ("two", 3, True, 2),
    # One trick: defeated; the declarer pays each opponent 2 (NAP-9.2.1): -6.
    ("two", 1, False, 2),
    # The inherited bids keep classic's stakes (000 L43): Three wins 3 a player, Nap loses 5.
    ("three", 3, True, 3),
    ("nap", 4, False, 5),
]


@pytest.mark.parametrize(("bid", "k", "made", "stake"), CONTRACTS)
def test_a_contract_pays_what_the_file_says(bid: str, k: int, made: bool, stake: int) -> None:
    written = {b["id"]: b for b in example()["params"]["bids"]}
    if bid in written:  # the stake above is the file's
        assert written[bid]["win"] == {"each": stake} == written[bid]["lose"]
    state, tricks = ladder_hand(k, bid)
    assert state.declarer == 0
    state = play_tricks(state, tricks)
    result = state.result
    assert result is not None and result.contract == bid
    assert (result.tricks, result.made) == (k, made)
    opponents = [1, 2, 3]
    if made:
        assert payments(state) == owed(*each_pays(opponents, 0, stake, "NAP-9.1.1"))
        assert result.net == (3 * stake, -stake, -stake, -stake)
    else:
        assert payments(state) == owed(*pays_each(0, opponents, stake, "NAP-9.2.1"))
        assert result.net == (-3 * stake, stake, stake, stake)


class Cautious:
    """Random play that passes three times in four in the auction, so that low bids stand."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if Pass() in view.legal_actions and rng.random() < 0.75:
            return Pass()
        return rng.choice(view.legal_actions)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_hands_end_and_wellington_never_appears(players: int) -> None:
    game = Game(house(), players)
    contracts: Counter[str | None] = Counter()
    for seed in range(40):
        player = Cautious() if seed % 2 else RandomPlayer()
        hand = play_out(game.new_hand(dealer=seed % players), random.Random(seed), player)
        assert hand.is_over() and hand.result is not None
        assert all("wellington" not in str(action) for action in hand.history)
        contracts[hand.result.contract] += 1
    assert "wellington" not in contracts
    assert contracts["two"] > 0, contracts  # a declarer can bid Two, and plays it


def test_a_made_nap_alone_brings_a_shuffle() -> None:
    """DEC-003 offers nap-only and nap-and-wellington; the file keeps only nap-only (NAP-10.2.1)."""
    game = Game(house(), 4)
    assert game.options["wellington-shuffle"] == "nap-only"
    assert game.rules.preparation.shuffle_after_made == frozenset({"nap"})
    with pytest.raises(SetupError, match="no choice 'nap-and-wellington'"):
        Game(house(), 4, {"wellington-shuffle": "nap-and-wellington"})


def test_game_create_never_takes_a_house_id_for_a_built_in() -> None:
    ours = Game(house(), 4)
    with pytest.raises(SetupError, match="no ruleset 'two-no-wellington'"):
        Game.create("two-no-wellington", 4)
    classic = Game.create("classic", 4)
    assert "wellington" in [bid.id for bid in classic.rules.bids]
    assert ours != classic and ours.id == "two-no-wellington"
    assert "wellington" not in [bid.id for bid in Game(house(), 4).rules.bids]


# --- merging and options -----------------------------------------------------------------------


def test_objects_merge_and_lists_replace() -> None:
    usual: JSON = {"by_option": "x", "cases": {"a": "shuffle", "b": "gather-and-cut"}}
    prep: JSON = {"usual": usual, "after_throw_in": "shuffle"}
    assert merge_params(prep, {"after_throw_in": "gather-and-cut"}) == {
        "usual": usual, "after_throw_in": "gather-and-cut"}
    # A switch on either side is replaced whole, as are lists and null.
    assert merge_params(prep, {"usual": "shuffle"}) == {"usual": "shuffle",
                                                        "after_throw_in": "shuffle"}
    assert merge_params({"by_option": "x", "cases": {}}, {"a": 1}) == {"a": 1}
    assert merge_params([1, 2, 3], [4]) == [4]
    assert merge_params({"name": "widow", "dealt": "after-hands"}, None) is None


def test_a_partial_object_changes_one_field(tmp_path: Path) -> None:
    document = {"house": True, "id": "pagat-everyone", "title": "Pagat, everyone may raise",
                "extends": "pagat", "params": {"preparation": {"usual": "shuffle"}}}
    ruleset = load_house_ruleset(write(tmp_path, document, "p.json"))
    parent = default_spec().rulesets["pagat"].resolve()["preparation"]
    mine = ruleset.resolve()["preparation"]
    assert isinstance(parent, dict) and isinstance(mine, dict)
    assert mine == {**parent, "usual": "shuffle"} and parent["usual"] != "shuffle"
    assert ruleset.changes == (f"preparation.usual: shuffle (was {parent['usual']})",)


def test_an_option_default_changes(tmp_path: Path) -> None:
    document = {"house": True, "id": "short-classic", "title": "Classic with 32 cards",
                "extends": "classic", "options": {"pack": {"default": "32"}}}
    ruleset = load_house_ruleset(write(tmp_path, document, "s.json"))
    game = Game(ruleset, 4)
    assert game.options["pack"] == "32"
    assert game.rules.lowest_rank(4) == 5  # ranks 2..A are 0..12: the 7 is index 5
    assert list(ruleset.options["pack"].choices) == ["52", "32", "28", "24"]


def test_a_widow_brings_the_widow_rules_into_force(tmp_path: Path) -> None:
    """classic has no widow; a house game that adds one has NAP-4.3.1 (the widow) in force,
    with no citation, since no parent rule reads params.widow."""
    document = {"house": True, "id": "classic-widow", "title": "Classic with a widow",
                "extends": "classic",
                "params": {"widow": {"name": "widow", "dealt": "after-hands"}}}
    ruleset = load_house_ruleset(write(tmp_path, document, "w.json"))
    classic = default_spec().rulesets["classic"]
    assert "NAP-4.3.1" not in classic.rules
    assert ruleset.rules["NAP-4.3.1"] == ()
    assert all(ruleset.rules[r] == classic.rules[r] for r in classic.rules)
    hand = play_out(Game(ruleset, 4).new_hand(0), random.Random(3))
    assert hand.is_over()


def test_the_built_in_rulesets_pass_the_playability_checks() -> None:
    # A check that refused a game of the spec would refuse good house files too.
    for ruleset_id, ruleset in default_spec().rulesets.items():
        assert playability_problems(ruleset) == [], ruleset_id


def test_the_house_schema_names_every_parameter_of_the_ruleset_schema() -> None:
    schemas = paths.spec_dir() / "schemas"
    house_schema = json.loads((schemas / "house-ruleset.schema.json").read_text("utf-8"))
    ruleset_schema = json.loads((schemas / "ruleset.schema.json").read_text("utf-8"))
    names = house_schema["properties"]["params"]["propertyNames"]["enum"]
    assert names == list(ruleset_schema["$defs"]["params"]["properties"])


# --- bad files: each a one-line message naming the file and the JSON path ----------------------

Change = Callable[[dict[str, Any]], object]


def _set(path: tuple[str | int, ...], value: object) -> Change:
    def change(document: dict[str, Any]) -> object:
        node: Any = document
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
        return document
    return change


def _drop(key: str) -> Change:
    def change(document: dict[str, Any]) -> object:
        del document[key]
        return document
    return change


NAMES = ("players, pack, first_dealer, packets, widow, preparation, ante, pool, auction, "
         "throw_in, peek, purchase, exchange, naming, bids, scoring, match")
BUILT_IN = ("classic, napoleon, pagat, pagat-aylesbury, pagat-dorset, pagat-floater, "
            "pagat-purchase, pagat-teesside, peep, pub-floater")
CLASSIC_OPTIONS = "pack, small-pack, packets, between-hands, wellington-shuffle, throw-in-pack"
BAD: list[tuple[str, Change, str]] = [
    ("truncated", lambda d: json.dumps(d)[:40],
     "bad.json: line 1, column 13: not JSON: a string starts here and is never closed"),
    ("not an object", lambda d: "[1, 2]", "bad.json: $: expected a JSON object, found an array"),
    ("no house", _drop("house"),
     'bad.json: $.house: has no "house": true; a house ruleset says it is one (spec/README.md, '
     '"House rulesets")'),
    ("house false", _set(("house",), False), "bad.json: $.house: false is not true"),
    ("unknown parent", _set(("extends",), "clasic"),
     f"bad.json: $.extends: 'clasic' is not a built-in ruleset (did you mean classic?); the "
     f"built-in rulesets are {BUILT_IN}"),
    ("a built-in id", _set(("id",), "classic"),
     "bad.json: $.id: 'classic' is the id of a built-in ruleset; a house game needs an id of "
     "its own"),
    ("unknown parameter", _set(("params", "bidz"), []),
     f"bad.json: $.params.bidz: there is no parameter 'bidz' (did you mean bids?); the "
     f"parameters are {NAMES}"),
    ("wrong type", _set(("params", "bids", 0, "tricks"), "two"),
     'bad.json: $.params.bids[0].tricks: "two" is not of type "integer"'),
    ("unknown field", _set(("params", "auction"), {"roundz": "single"}),
     "bad.json: $.params.auction: Additional properties are not allowed ('roundz' was "
     "unexpected)"),
    ("a bid of no tricks", _set(("params", "bids", 0, "tricks"), 0),
     'bad.json: $.params.bids[0].tricks: bid two undertakes no trick and is not a misère: a '
     'bid names one to five tricks, or says "misere": true (NAP-5.2.3) (with the default '
     "options)"),
    ("a misère of two tricks", _set(("params", "bids", 0, "misere"), True),
     "bad.json: $.params.bids[0].tricks: bid two is a misère, which undertakes to win no "
     "trick: its tricks must be 0, not 2 (NAP-5.2.3) (with the default options)"),
    ("a bid with no widow", _set(("params", "bids", 0, "widow"), "with"),
     "bad.json: $.params.bids[0].widow: bid two is made with the widow, but the game has no "
     "widow (params.widow is null) (NAP-5.2.4) (with the default options)"),
    ("two bids of one id", _set(("params", "bids", 1, "id"), "two"),
     "bad.json: $.params.bids[1].id: bid two appears twice in two-no-wellington's bids (with "
     "the default options)"),
    ("requires a later bid", _set(("params", "bids", 0, "requires"), [["nap"]]),
     "bad.json: $.params.bids[0].requires[0][0]: bid two requires nap, which comes later in "
     "the bids (requires names earlier bids) (with the default options)"),
    ("no bids", _set(("params", "bids"), []), "bad.json: $.params.bids: [] should be non-empty"),
    ("packets of four", _set(("params", "packets"), [2, 2]),
     "bad.json: $.params.packets: the packets deal 4 cards to each player; they must deal "
     "five (NAP-4.2.1) (with the default options)"),
    ("a pack too small", _set(("params", "pack"), [{"players": [3, 4, 5, 6, 7],
                                                    "lowest_rank": "9"}]),
     "bad.json: $.params.pack[0].lowest_rank: a 24-card pack (9 to A) cannot deal 5 players 5 "
     "cards each (25 cards) in two-no-wellington (with the default options) (and 2 more "
     "problems: 'napkit rules check bad.json' lists them)"),
    ("the wellington shuffle kept", _drop("options"),
     "bad.json: $.params.preparation.shuffle_after_made[1]: wellington is not a bid of "
     "two-no-wellington (with the default options); the value is classic's, which the house "
     "file changes under params or by an option"),
    ("unknown option", _set(("options", "pakc"), {"default": "32"}),
     f"bad.json: $.options.pakc: classic has no option 'pakc' (did you mean pack?) (its "
     f"options: {CLASSIC_OPTIONS})"),
    ("unknown choice", _set(("options", "pack"), {"choices": ["52", "16"]}),
     "bad.json: $.options.pack.choices[1]: option pack has no choice '16' (choices: 52, 32, "
     "28, 24)"),
    ("default not kept", _set(("options", "pack"), {"choices": ["52"], "default": "32"}),
     "bad.json: $.options.pack.default: option pack: the default '32' is not of the choices "
     "kept (52)"),
    ("a look with no widow", _set(("params", "peek"), {"cost": 1, "dealer": "pays"}),
     "bad.json: $.params.peek: the game looks at the widow, but has no widow (params.widow is "
     "null) (NAP-6.1.1) (with the default options)"),
    ("a pool bid with no pool", _set(("params", "bids", 0, "lose"), {"pool_per_player": 1}),
     "bad.json: $.params.bids[0].lose.pool_per_player: bid two takes from or pays into the "
     "pool (lose.pool_per_player), but the game has no pool (params.pool is null) (NAP-9.1.2, "
     "NAP-9.2.2) (with the default options)"),
]


@pytest.mark.parametrize(("change", "message"), [(c, m) for _, c, m in BAD],
                         ids=[name for name, _, _ in BAD])
def test_a_bad_house_file_is_one_line_naming_where(tmp_path: Path, change: Change,
                                                   message: str) -> None:
    path = write(tmp_path, change(copy.deepcopy(example())))
    with pytest.raises(SpecError) as caught:
        load_house_ruleset(path, "bad.json")
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"^nothere\.json: \$: file not found$"):
        load_house_ruleset(tmp_path / "nothere.json", "nothere.json")


def test_a_source_ruleset_file_is_not_a_house_file_but_loads_as_a_ruleset() -> None:
    pagat = paths.spec_dir() / "rulesets" / "pagat.json"
    with pytest.raises(SpecError, match=r'\$\.house: has no "house": true; this is a ruleset of '
                                        "a source"):
        load_house_ruleset(pagat, "pagat.json")
    assert load_ruleset_path(pagat).id == "pagat"
    assert isinstance(load_ruleset_path(EXAMPLE), HouseRuleset)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
    ["", "x", "shuffle", "single", "two", "nap", "with", "9", "after-hands"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "name", "tricks", "each", "rounds", "players", "lowest_rank",
                         "win", "lose", "usual", "x"]), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["bids", "players", "pack", "packets", "auction", "preparation",
                            "widow", "pool", "match", "naming", "throw_in", "stake"]),
       value=_JSON)
def test_any_parameter_value_loads_and_plays_or_is_one_line(tmp_path: Path, key: str,
                                                            value: object) -> None:
    document = example()
    document["params"][key] = value
    path = write(tmp_path, document)
    try:
        ruleset = load_house_ruleset(path, "bad.json")
    except SpecError as error:
        text = str(error)
        assert text.startswith("bad.json: $") and "\n" not in text
        assert "Traceback" not in text
        return
    # Accepted: the engine plays it at every table size its defaults allow.
    players = ruleset.resolve()["players"]
    assert isinstance(players, list)
    game = Game(ruleset, min(n for n in players if isinstance(n, int)))
    assert play_out(game.new_hand(0), random.Random(0)).is_over()


# --- the command line --------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_rules_check_accepts_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["rules", "check", str(EXAMPLE)], capsys)
    assert status == 0
    assert out.splitlines() == [
        f"{EXAMPLE}: a house game, two-no-wellington (Classic Nap with a bid of Two and no "
        "Wellington), extending classic; it changes:",
        "  bids: adds two (2 tricks, wins 2, pays 2 a player)",
        "  bids: drops wellington",
        "  option wellington-shuffle: offers only nap-only (drops nap-and-wellington); default "
        "nap-only (was nap-and-wellington)",
        "1 ruleset file: no problems."]


def test_rules_check_refuses_a_bad_house_file(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    document = example()
    document["params"]["bids"][0]["tricks"] = "two"
    document["id"] = "classic"
    bad = write(tmp_path, document)
    status, out, _ = run(["rules", "check", str(bad)], capsys)
    assert status == 1
    assert out.splitlines() == [
        f"{bad}: $.id: 'classic' is the id of a built-in ruleset; a house game needs an id of "
        "its own",
        f'{bad}: $.params.bids[0].tricks: "two" is not of type "integer"',
        "2 problems in 1 ruleset file."]
    status, out, _ = run(["rules", "check", str(tmp_path / "none.json")], capsys)
    assert status == 1 and "none.json: $: file not found" in out


def test_rules_show_renders_a_house_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["rules", "show", str(EXAMPLE)], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "two-no-wellington  Classic Nap with a bid of Two and no Wellington"
    assert lines[1].startswith("house:    a house game (")
    assert "CHANGES FROM CLASSIC" in lines
    assert "  bids = two, three, four, nap" in lines
    assert all(len(line) <= 100 for line in lines[:16])


def test_play_and_record_take_a_ruleset_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["play", "--ruleset-file", str(EXAMPLE), "--watch", "--seed", "3"],
                         capsys)
    assert status == 0
    assert out.startswith("napkit play two-no-wellington: 4 players, watching")
    target = tmp_path / "h.json"
    status, _, _ = run(["record", "--ruleset-file", str(EXAMPLE), "--seed", "1", "-o",
                        str(target)], capsys)
    assert status == 0
    record = json.loads(target.read_text(encoding="utf-8"))
    assert record["ruleset"] == "two-no-wellington"
    assert record["options"]["wellington-shuffle"] == "nap-only"
    # The positional RULESET takes the file just the same.
    status, out2, _ = run(["play", str(EXAMPLE), "--watch", "--seed", "3"], capsys)
    assert status == 0 and out2 == out


def test_play_wants_one_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["play", "classic", "--ruleset-file", str(EXAMPLE)], capsys)
    assert status == 2 and "not both" in err
    status, _, err = run(["record"], capsys)
    assert status == 2 and "give a ruleset" in err


def test_play_of_a_bad_house_file_is_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    document = example()
    document["id"] = "classic"
    bad = write(tmp_path, document, "mine")  # no .json: --ruleset-file reads it as a file
    status, out, err = run(["play", "--ruleset-file", str(bad), "--watch"], capsys)
    assert status == 1 and out == ""
    assert err == (f"napkit: {bad}: $.id: 'classic' is the id of a built-in ruleset; a house "
                   "game needs an id of its own\n")


def test_the_guide_shows_what_rules_check_prints(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    mine = tmp_path / "my-game.json"
    mine.write_bytes(EXAMPLE.read_bytes())
    status, out, _ = run(["rules", "check", str(mine)], capsys)
    assert status == 0
    assert out.replace(str(mine), "my-game.json") in guide
    assert json.loads(guide.split("```json\n", 1)[1].split("```", 1)[0]) == example()


# --- the auction variants (issue 28): the second example, and the suites of house games ------

STICK_EXAMPLE = paths.spec_dir() / "examples" / "house-points-stick.json"


def test_the_points_stick_example_sticks_the_dealer() -> None:
    """The second example sets auction.dealer_must_bid: NAP-5.3.3 is in force in it alone, and
    a dealer everyone else passed to must bid (there: seat 3, whose bids are classic's)."""
    stick = load_house_ruleset(STICK_EXAMPLE)
    assert "NAP-5.3.3" in stick.rules
    game = Game(stick, 4)
    assert game.rules.auction.dealer_must_bid
    hand = game.new_hand(DEALER)
    hand = hand.apply(hand.sample_chance(random.Random(5)))
    for _ in range(3):
        hand = hand.apply(Pass())
    assert [str(a) for a in hand.legal_actions()] == ["bid three", "bid four", "bid nap"]
    assert hand.refusal(Pass()) is not None
    # Random hands of every table size end, and none is thrown in.
    rng = random.Random(3)
    for players in game.rules.players:
        for dealer in range(players):
            over = play_out(Game(stick, players).new_hand(dealer), rng, RandomPlayer())
            assert over.result is not None and not over.result.thrown_in


@pytest.mark.parametrize(("auction", "tag"), [({"dealer_must_bid": True}, "stuck"),
                                              ({"rounds": "reopening"}, "reopened")])
def test_a_house_suite_has_cases_of_each_variant_and_the_reference_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], auction: dict[str, JSON],
        tag: str) -> None:
    """The generated suite of a house game with a variant has legal and outcome cases that
    play it (a stuck dealer bidding; a player who passed speaking again) and, for the dealer
    stuck, illegal cases of its refusal; the reference passes the whole suite."""
    document = {"house": True, "id": f"classic-{tag}", "title": tag, "extends": "classic",
                "params": {"auction": auction}}
    path = write(tmp_path, document, "variant.json")
    ruleset = load_house_ruleset(path)
    cases = [case for _, case in generate_cases(ruleset)]
    played: Counter[str] = Counter()
    for case in cases:
        if case["kind"] not in ("legal", "outcome"):
            continue
        state = start_state(case, ruleset)
        spoke: set[int] = set()
        for i, step in enumerate(case["steps"]):
            action = action_from_json(step["action"], ["steps", i, "action"])
            if isinstance(state, HandState) and state.phase == AUCTION:
                if dealer_stuck(state):
                    played["stuck"] += 1
                    assert not isinstance(action, Pass)
                if state.turn in spoke and isinstance(action, Bid | Pass):
                    played["reopened"] += 1
                spoke.add(state.turn)
            state = state.apply(action)
    assert played[tag] >= 3, played
    refused = [case for case in cases if "breach-dealer-passes-stuck" in case["tags"]]
    if tag == "stuck":
        assert refused and all(c["expect"]["refuse"]["rule"] == "NAP-5.3.3" for c in refused)
    else:
        assert not refused
    suite = tmp_path / "suite"
    write_suite(suite, [ruleset])
    status, out, err = run(["conform", "--in-process", "--suite", str(suite),
                            "--ruleset-file", str(path), "-q"], capsys)
    assert status == 0, out + err
    # A program that plays the game without the variant (the same id, classic's auction)
    # fails some of these cases.
    plain = load_house_ruleset(write(tmp_path, {**document, "params": {"auction": {}}},
                                     "plain.json"))
    assert all(_agrees(case, ruleset) for case in cases)
    assert sum(not _agrees(case, plain) for case in cases) >= 3


def _agrees(case: dict[str, Any], ruleset: HouseRuleset) -> bool:
    """Whether the engine of ``ruleset`` answers ``case`` as it expects."""
    try:
        answer = replay(case, ruleset)
    except AssertionError:  # a step of the case refused
        return False
    expect = case["expect"]
    return bool(answer["legal"] == [step["legal"] for step in case["steps"] if "legal" in step]
                and answer.get("refuse") == (expect.get("refuse") or {}).get("rule")
                and answer.get("outcome") == expect.get("outcome"))


def test_the_guide_shows_what_rules_new_prints_for_the_auction_variants(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for setting, house_id, title, out in [
            ("auction.dealer_must_bid=true", "classic-stuck", "Classic Nap, the dealer stuck",
             "stuck.json"),
            ("auction.rounds=reopening", "classic-reopening", "Classic Nap, the auction reopens",
             "reopens.json")]:
        status, printed, err = run(["rules", "new", "--from", "classic", "--set", setting,
                                    "--id", house_id, "--title", title, "-o", out], capsys)
        assert status == 0, err
        assert printed in guide
