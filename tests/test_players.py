"""The engine's own players (napkit.players) and the action notation
(napkit.formats.notation)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.engine.actions import (
    ANTE,
    LEAVE_WIDOW,
    PASS,
    PEEK,
    SIT_OUT,
    TAKE_WIDOW,
    Action,
    Bid,
    Buy,
    Discard,
    NameTrumps,
    Play,
    SitOut,
)
from napkit.engine.game import Game
from napkit.engine.match import new_match
from napkit.engine.observation import PlayerView
from napkit.errors import SetupError
from napkit.formats.notation import NotationError, parse_action
from napkit.players.base import Player
from napkit.players.heuristic import HeuristicPlayer
from napkit.players.judgement import trick_estimate, trick_estimates
from napkit.players.playout import play_out
from napkit.players.policy import make_player
from napkit.players.uniform import RandomPlayer
from napkit.spec.catalog import default_spec

SPEC = default_spec()
RULESETS = sorted(SPEC.rulesets)


def _variants() -> list[tuple[str, dict[str, str]]]:
    """Every ruleset with its defaults, and with each option choice on its own."""
    out: list[tuple[str, dict[str, str]]] = []
    for rid in RULESETS:
        out.append((rid, {}))
        for option in SPEC.rulesets[rid].options.values():
            out += [(rid, {option.name: c}) for c in option.choices if c != option.default]
    return out


def _game(rid: str, options: dict[str, str]) -> Game:
    allowed = Game(SPEC.rulesets[rid], _any_count(rid, options), options).rules.players
    return Game.create(rid, 4 if 4 in allowed else min(allowed), options)


def _any_count(rid: str, options: dict[str, str]) -> int:
    for n in range(2, 11):
        try:
            Game(SPEC.rulesets[rid], n, options)
        except SetupError:  # not this count: try the next
            continue
        return n
    raise AssertionError(f"{rid} {options} allows no table of 2 to 10")


class Checked:
    """A player whose every choice is checked against its view's legal actions, and counted."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.chosen: list[Action] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        action = self.player.choose(view, rng)
        assert action in view.legal_actions, (view.ruleset, view.phase, action)
        self.chosen.append(action)
        return action


def play_hand(game: Game, players: list[Player], seed: int) -> tuple[int, ...]:
    """Play one hand; every choice is checked against the view's legal actions."""
    state = play_out(game.new_hand(dealer=seed % game.players), random.Random(seed),
                     [Checked(p) for p in players])
    assert state.result is not None
    return state.result.net


VARIANTS = _variants()


@pytest.mark.parametrize(("rid", "options"), VARIANTS,
                         ids=[f"{r}-{'-'.join(o.values()) or 'default'}" for r, o in VARIANTS])
def test_players_choose_only_legal_actions(rid: str, options: dict[str, str]) -> None:
    game = _game(rid, options)
    mixed: list[Player] = [HeuristicPlayer(game) if s % 2 else RandomPlayer()
                           for s in range(game.players)]
    for seed in range(12):
        play_hand(game, [HeuristicPlayer(game)] * game.players, seed)
        play_hand(game, mixed, seed)


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_players_play_matches(rid: str, kind: str) -> None:
    """Antes and sitting out (peep may), purchases and pools, through whole matches."""
    options = {"sit-out": "may-sit-out"} if rid == "peep" else {}
    game = _game(rid, options)
    sat_out = 0
    for seed in range(3):
        player = Checked(make_player(kind, game))
        m = play_out(new_match(game, hands=4), random.Random(seed), player)
        assert m.is_over() and player.chosen
        sat_out += sum(isinstance(action, SitOut) for action in player.chosen)
    if rid == "peep" and kind == "random":
        assert sat_out > 0  # the sit-out choice really was offered and taken


def test_heuristic_beats_random_at_pagat() -> None:
    """Over 300 seeded hands of four-player pagat, heuristic players in two seats win units
    from random players in the other two (seats swapped every other hand)."""
    game = Game.create("pagat", 4)
    heuristic = 0
    for seed in range(300):
        smart = seed % 2
        players: list[Player] = [HeuristicPlayer(game) if s % 2 == smart else RandomPlayer()
                                 for s in range(4)]
        net = play_hand(game, players, seed)
        heuristic += sum(net[s] for s in range(4) if s % 2 == smart)
    assert heuristic > 0


def test_heuristic_makes_most_of_its_contracts() -> None:
    """Among heuristic players, most contracts bid are made: the bidding counts tricks."""
    game = Game.create("pagat", 4)
    made = bids = 0
    for seed in range(300):
        state = play_out(game.new_hand(dealer=seed % 4), random.Random(seed),
                         HeuristicPlayer(game))
        assert state.result is not None
        if not state.result.thrown_in:
            bids += 1
            made += bool(state.result.made)
    assert bids >= 30
    assert made > bids / 2


def test_random_player_refuses_a_view_without_a_turn() -> None:
    state = Game.create("pagat", 4).new_hand(0)
    state = state.apply(state.sample_chance(random.Random(1)))
    idle = next(s for s in range(4) if s != state.turn)
    with pytest.raises(ValueError, match="not its turn"):
        RandomPlayer().choose(state.view(idle), random.Random(0))


# --- notation --------------------------------------------------------------------------------
BID_IDS = sorted({b.id for rid in RULESETS for b in _game(rid, {}).rules.bids})
cards = st.integers(0, 51)
player_actions: st.SearchStrategy[Action] = st.one_of(
    st.sampled_from([PASS, PEEK, TAKE_WIDOW, LEAVE_WIDOW, ANTE, SIT_OUT]),
    st.sampled_from(BID_IDS).map(Bid),
    st.sets(cards, max_size=5).map(lambda cs: Buy(sum(1 << c for c in cs))),
    cards.map(Discard), cards.map(Play), st.integers(0, 3).map(NameTrumps),
)


@given(player_actions)
def test_notation_reads_back_every_action(action: Action) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert parse_action(f"  {text.upper()}  ") == action  # case and spaces do not matter


@pytest.mark.parametrize(("text", "action"), [
    ("take", TAKE_WIDOW), ("take the floater", TAKE_WIDOW), ("leave", LEAVE_WIDOW),
    ("name hearts", NameTrumps(1)), ("name H", NameTrumps(1)), ("name spade", NameTrumps(0)),
    ("10H", Play(21)), ("play th", Play(21)), ("discard 2s", Discard(0)),
    ("buy AS, KD", Buy(1 << 12 | 1 << 37)), ("buy nothing", Buy(0)),
    ("bid nap without", Bid("nap-without")), ("sit out", SIT_OUT), ("sit-out", SIT_OUT),
])
def test_notation_short_forms(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize("text", ["", "hello", "play", "play AS KS", "name red",
                                  "bid", "buy", "buy AS AS", "take it", "sit down"])
def test_notation_refuses_with_one_line_listing_the_forms(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_action(text)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"cannot read {text.strip()!r}")
    assert "type one of: pass, bid BID" in message and "play CARD" in message


@pytest.mark.parametrize(("text", "why"), [
    ("play 11H", "'11H' is not a card: ranks are 2-10, J, Q, K, A"),
    ("1H", "'1H' is not a card: ranks are 2-10, J, Q, K, A (did you mean 10H?)"),
    ("AX", "'AX' is not a card: suits are S, H, D, C or ♠ ♥ ♦ ♣"),
    ("5S AS", "a card is played on its own, one at a time, as '5S'"),
])
def test_a_mistyped_card_is_named_with_its_fix_not_the_forms(text: str, why: str) -> None:
    # Issue 30: '1H' was "not an action", with every form listed; it is a card typed wrongly.
    with pytest.raises(NotationError) as caught:
        parse_action(text)
    assert str(caught.value) == f"cannot read {text!r}: {why}"


def test_a_bid_typed_without_bid_is_suggested() -> None:
    with pytest.raises(NotationError) as caught:
        parse_action("nap", bids=("three", "nap"))
    assert str(caught.value) == "cannot read 'nap': 'nap' is not an action: did you mean 'bid nap'?"
    assert parse_action("A♣") == parse_action("AC") == parse_action("a♧")


def _estimate_as_written(hand: tuple[int, ...], trumps: int | None) -> float:
    """The heuristic's count of likely tricks as its docstring says it, suit by suit, each
    suit's cards highest first: the oracle of the tables the player works it out from."""
    tricks = 0.0
    for suit in range(4):
        ranks = sorted((c % 13 for c in hand if c // 13 == suit), reverse=True)
        for i, r in enumerate(ranks):
            if suit == trumps:
                tricks += 1.0 if r >= 12 - i else 0.75 if i >= 2 else 0.5 if r >= 9 else 0.35
            elif r == 12:
                tricks += 0.8
            elif r == 11 and len(ranks) >= 2 and i <= 1:
                tricks += 0.4
    return tricks


@settings(max_examples=2000)
@given(st.lists(st.integers(min_value=0, max_value=51), min_size=0, max_size=13, unique=True))
def test_the_trick_estimates_are_the_count_as_written(cards: list[int]) -> None:
    """Exactly, not nearly: a bid is made when the estimate reaches a whole number, so a sum
    added in another order could turn a bid into a pass."""
    hand = tuple(sorted(cards))
    expected = tuple(_estimate_as_written(hand, t) for t in (0, 1, 2, 3, None))
    assert trick_estimates(hand) == expected
    assert tuple(trick_estimate(hand, t) for t in (0, 1, 2, 3, None)) == expected
    assert HeuristicPlayer(Game.create("pagat", 4)).estimates(hand) == expected
