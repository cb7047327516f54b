"""Every rule of the law book that governs play is executed in exactly one place of the engine.

The engine says where it implements a rule by a docstring that begins ``Implements:`` and lists
rule ids. These tests read those docstrings from the source (no import tricks) and hold the
engine to the law book:

* every rule of kind ``play`` is cited by exactly one function (or class), and informative rules
  (a definition, naming a stake) by none;
* every rule id written anywhere in the engine's code (in an error, a payment, a comment) is a
  rule of the law book, so that the id a user reads in an error is one they can look up;
* every citing function really runs: random hands and matches of every ruleset, under every
  choice of every option, call each of them at least once (a citation on dead code would not
  enforce anything).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from napkit import paths
from napkit.engine.acting import act
from napkit.engine.actions import PASS, Action, Buy, Discard, Play
from napkit.engine.cards import cards_of
from napkit.engine.game import Game
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import DISCARD, PLAY, PURCHASE
from napkit.errors import IllegalActionError
from napkit.players.playout import play_out
from napkit.players.uniform import RandomPlayer
from napkit.spec.catalog import default_spec
from napkit.spec.coverage import ENGINE, RULE_ID, citations, exercised, places, tracing
from napkit.spec.house import load_house_ruleset


def _book() -> dict[str, str]:
    """rule id -> kind, for every rule of the real law book."""
    return {rule.id: rule.kind for rule in default_spec().lawbook}


def test_every_play_rule_is_cited_exactly_once() -> None:
    kinds = _book()
    play_rules = {rule for rule, kind in kinds.items() if kind == "play"}
    cited = citations()
    missing = sorted(play_rules - set(cited), key=default_spec().lawbook.order)
    assert not missing, f"play rules the engine cites nowhere: {missing}"
    twice = {rule: where for rule, where in cited.items() if len(where) > 1}
    assert not twice, f"rules cited in more than one place: {twice}"


def test_cited_rules_exist_and_govern_play() -> None:
    empty = [f"{p.module}.{p.name} (line {p.line})" for p in places() if not p.rules]
    assert not empty, f"docstrings that say 'Implements:' but name no rule: {empty}"
    kinds = _book()
    unknown = sorted(set(citations()) - set(kinds))
    assert not unknown, f"the engine cites rules the law book does not have: {unknown}"
    informative = sorted(rule for rule in citations() if kinds[rule] != "play")
    assert not informative, f"informative rules need no code, yet are cited: {informative}"


def test_every_rule_id_in_the_engine_is_in_the_law_book() -> None:
    kinds = _book()
    for path in sorted(ENGINE.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule in RULE_ID.findall(line):
                assert rule in kinds, f"{path.name}:{number} names {rule}, not in the law book"


def test_the_law_book_has_play_rules_to_cite() -> None:
    # Guards the tests above against passing on an empty or misread law book.
    kinds = _book()
    assert sum(kind == "play" for kind in kinds.values()) >= 50
    assert "NAP-8.1.1" in citations()


# --- every citing function runs ------------------------------------------------------------

def _drive(match: MatchState, rng: random.Random) -> MatchState:
    """Random play, each player acting on what their view of the hand shows (NAP-4.3.2)."""
    return play_out(match, rng, RandomPlayer())


def _games() -> Iterator[Game]:
    """Every ruleset at its smallest and largest table, under each choice of each option
    (one option changed at a time from the defaults); and the example house games of
    spec/examples, in which alone the rules of house play (``origin = "house"``) are in
    force."""
    spec = default_spec()
    examples = [load_house_ruleset(path)
                for path in sorted((paths.spec_dir() / "examples").glob("*.json"))]
    for ruleset in [*spec.rulesets.values(), *examples]:
        variants: list[dict[str, str]] = [{}]
        for name, option in ruleset.options.items():
            variants += [{name: choice} for choice in option.choices if choice != option.default]
        for options in variants:
            resolved = ruleset.resolve(ruleset.option_values(options))["players"]
            assert isinstance(resolved, list)
            players = [n for n in resolved if isinstance(n, int)]
            for n in {min(players), max(players)}:
                yield Game(ruleset, n, options)


def _buy(card: int) -> Action:
    return Buy(1 << card)


NOT_HELD: dict[int, Callable[[int], Action]] = {PLAY: Play, DISCARD: Discard, PURCHASE: _buy}


def _try_refusals(game: Game, rng: random.Random) -> None:
    """One hand played with the refusals of NAP-1.3 tried at every step, as a program told
    who acts is checked (napkit.engine.acting.act): the action of the one to act offered by
    another seat (NAP-1.3.1), a card not held played, discarded or bought by the one to act
    (NAP-1.3.2), and any action once the hand is over (NAP-1.3.3)."""
    state = game.new_hand(rng.randrange(game.players))
    while not state.is_over():
        action = (state.sample_chance(rng) if state.is_chance()
                  else rng.choice(state.legal_actions()))
        seat = None if state.is_chance() else state.turn
        other = 0 if seat is None else None
        with pytest.raises(IllegalActionError) as turn:
            act(state, other, action)
        assert turn.value.rule == "NAP-1.3.1"
        if seat is not None:
            foreign = game.pack(game.players) & ~state.hands[seat]
            card = cards_of(foreign)[0]
            make = NOT_HELD.get(state.phase)
            if make is not None:
                with pytest.raises(IllegalActionError) as card_error:
                    act(state, seat, make(card))
                assert card_error.value.rule == "NAP-1.3.2", card_error.value
        state = act(state, seat, action)
    with pytest.raises(IllegalActionError) as over:
        act(state, 0, PASS)
    assert over.value.rule == "NAP-1.3.3"


def test_every_citing_function_runs_in_play() -> None:
    rng = random.Random(20261123)
    with tracing() as ran:
        for game in _games():
            # A few short matches: antes, the deal passing, pools carried, stakes raised after
            # throw-ins, knock-outs where chips are few, and the end of the match.
            _drive(new_match(game, hands=6, chips=3 if game.rules.match.bankroll else None), rng)
            _try_refusals(game, rng)
    never = sorted(f"{rule} ({module}.py: {name})" for rule, where in citations().items()
                   for module, name, _ in where if rule not in ran)
    assert not never, f"engine functions that cite a rule but never ran: {never}"


def test_every_citing_function_is_found_by_the_tracer() -> None:
    # The tracer knows each citing function by its code object: one that it could not find
    # would never be counted as run.
    traced, rules = exercised(lambda: Game.create("pagat", 4).new_hand(0))
    assert traced.phase_name == "deal"
    assert "NAP-1.2.1" in rules  # seating, run by new_hand
    assert "NAP-3.1.1" in rules  # check_table, run by a game built afresh (caches emptied)
    assert {rule for place in places() for rule in place.rules} == set(citations())


def test_what_play_exercises_does_not_depend_on_what_ran_before() -> None:
    # The engine memoises seatings, legal calls and compiled games; the tracer empties those
    # caches first, so the same hand exercises the same rules however warm they were.
    def hand() -> object:
        return play_out(Game.create("peep", 4).new_hand(1), random.Random(7))

    first = exercised(hand)[1]
    hand()  # warms every cache
    assert exercised(hand)[1] == first
    assert {"NAP-1.2.1", "NAP-5.2.1", "NAP-5.2.5", "NAP-8.1.1"} <= first
