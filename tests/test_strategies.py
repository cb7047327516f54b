"""napkit.strategies (issue 12, item 4): what they draw is what they say, and legal."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from napkit import strategies
from napkit.engine.cards import cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.formats.records import check_hand_record
from napkit.spec.catalog import default_spec

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(strategies.tables())
def test_a_table_is_one_the_ruleset_allows(table: strategies.Table) -> None:
    ruleset = default_spec().rulesets[table.ruleset]
    assert {name for name, _ in table.options} == set(ruleset.options)
    for name, choice in table.options:
        assert choice in ruleset.options[name].choices
    assert table.game.players == table.players  # the game builds: the table is allowed


@SETTINGS
@given(st.data())
def test_a_deal_is_the_pack_in_some_order(data: st.DataObject) -> None:
    game = data.draw(strategies.games())
    deal = data.draw(strategies.deals(game))
    assert sorted(deal.pack) == list(cards_of(game.pack()))
    dealt = game.new_hand(0).apply(deal)
    assert not dealt.is_chance() or dealt.phase_name == "reshuffle"


def replayed(hand: HandState) -> HandState:
    """The hand again from its history, every action through apply (which refuses any
    illegal one)."""
    game = hand.game
    assert isinstance(game, Game)
    state = game.new_hand(hand.dealer)
    for _, action in hand.history:
        state = state.apply(action)
    return state


@SETTINGS
@given(strategies.hands())
def test_a_hand_is_legal_play_from_a_deal(hand: HandState) -> None:
    assert replayed(hand) == hand
    assert not hand.is_chance() or hand.phase_name == "reshuffle"


@SETTINGS
@given(strategies.hands(finished=True, rulesets=("pagat-purchase", "peep")))
def test_a_finished_hand_is_over(hand: HandState) -> None:
    assert hand.is_over() and hand.result is not None
    assert hand.game.id in ("pagat-purchase", "peep")


@SETTINGS
@given(strategies.hand_records())
def test_a_record_checks_out(record: dict[str, object]) -> None:
    assert record["format"] == "napkit-hand/1"
    assert check_hand_record(record) == []


def test_a_given_game_is_kept() -> None:
    game = Game.create("classic", 5)

    @SETTINGS
    @given(strategies.hands(game))
    def check(hand: HandState) -> None:
        assert hand.game is game

    check()
