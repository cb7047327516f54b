"""The styles of play of napkit.players, each played over random hands (and matches)
of every ruleset: whatever a style prefers, it only ever returns a legal action."""

from __future__ import annotations

import random

import pytest
from napkit.engine.actions import PASS, Action, Bid
from napkit.engine.game import Game
from napkit.engine.match import new_match
from napkit.engine.observation import PlayerView
from napkit.players.base import Player
from napkit.players.biased import AUCTION_STYLES, PLAY_STYLES, BiasedPlayer, Style
from napkit.players.playout import play_out
from napkit.players.policy import STYLES, make_player
from napkit.spec.catalog import default_spec

RULESETS = sorted(default_spec().rulesets)


class Checked:
    """Asks the player, and fails the test on any action its view does not list as legal."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.phases: set[str] = set()
        self.chosen: list[Action] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        action = self.player.choose(view, rng)
        assert action in view.legal_actions, (view.ruleset, view.phase, action,
                                              view.legal_actions)
        self.phases.add(view.phase)
        self.chosen.append(action)
        return action


def _players_for(kind: str, game: Game, rng: random.Random) -> list[Checked]:
    if kind == "biased":  # a style drawn afresh for each seat, as the generator draws them
        return [Checked(BiasedPlayer(game, Style.draw(rng), sit_out=0.3))
                for _ in range(game.players)]
    return [Checked(make_player(kind, game)) for _ in range(game.players)]


@pytest.mark.parametrize("kind", STYLES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_style_only_returns_legal_actions(ruleset: str, kind: str) -> None:
    spec = default_spec().rulesets[ruleset]
    rng = random.Random(f"{ruleset} {kind}")
    phases: set[str] = set()
    hand = 0
    while hand < 12 or ("play" not in phases and hand < 80):  # some tables pass a lot
        hand += 1
        options = {name: rng.choice(sorted(option.choices))
                   for name, option in sorted(spec.options.items())}
        allowed = spec.resolve(spec.option_values(options))["players"]
        assert isinstance(allowed, list)
        players = rng.choice([n for n in allowed if isinstance(n, int)])
        game = Game.create(ruleset, players, options)
        seats = _players_for(kind, game, rng)
        if hand % 4 == 3:
            chips = 6 if game.rules.match.bankroll else None
            assert play_out(new_match(game, hands=3, chips=chips), rng, seats).is_over()
        else:
            assert play_out(game.new_hand(rng.randrange(players)), rng, seats).is_over()
        for seat in seats:
            phases |= seat.phases
    assert "auction" in phases  # the players were asked, in more than the deal
    assert "play" in phases


def test_the_styles_are_named_and_an_unknown_one_is_refused() -> None:
    game = Game.create("pagat", 4)
    assert {type(make_player(kind, game)).__name__ for kind in STYLES} == {
        "RandomPlayer", "HeuristicPlayer", "BiasedPlayer"}
    with pytest.raises(ValueError, match="no player 'bidder'"):
        make_player("bidder", game)


def test_a_style_biases_the_auction() -> None:
    """A passing style passes far more often than a high-bidding one, over the same deals."""
    game = Game.create("pagat", 4)

    def calls(style: Style) -> tuple[int, int]:
        seats = [Checked(BiasedPlayer(game, style)) for _ in range(4)]
        rng = random.Random(11)
        for _ in range(40):
            play_out(game.new_hand(0), rng, seats)
        chosen = [a for s in seats for a in s.chosen]
        return sum(a == PASS for a in chosen), sum(isinstance(a, Bid) for a in chosen)

    passes, bids = calls(Style(auction="pass", play="uniform"))
    high_passes, high_bids = calls(Style(auction="high", play="uniform"))
    assert passes > 3 * bids
    assert high_bids > 2 * bids and high_passes < passes


def test_drawn_styles_cover_every_bias() -> None:
    rng = random.Random(0)
    drawn = [Style.draw(rng) for _ in range(300)]
    assert {s.auction for s in drawn} == set(AUCTION_STYLES)
    assert {s.play for s in drawn} == set(PLAY_STYLES)
    assert {s.take for s in drawn} == {None, True, False}
    assert Style("pass", "uniform").words() == "random play biased to passing"
    assert Style("uniform", "uniform").words() == "random play"
