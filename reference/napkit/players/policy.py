"""The styles of play by name (:data:`STYLES`), and a player of any of them
(:func:`make_player`): what ``napkit play``, ``napkit record`` and the site's worked examples
seat.

- ``"random"`` (:class:`~napkit.players.uniform.RandomPlayer`): any legal action, uniformly
  at random.
- ``"heuristic"`` (:class:`~napkit.players.heuristic.HeuristicPlayer`): a simple, sensible
  player.
- ``"biased"`` (:class:`~napkit.players.biased.BiasedPlayer`): random play with a
  :class:`~napkit.players.biased.Style`'s biases, so that rarer paths of the rules come up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the players are imported when one is made: the names alone build parsers
    from napkit.engine.rules import GameLike
    from napkit.players.base import Player
    from napkit.players.biased import Style

#: Every style of play, by name (see the module's docstring).
STYLES = ("random", "heuristic", "biased")

#: The styles ``napkit play`` and ``napkit record`` offer as --opponents.
PLAYER_KINDS = ("random", "heuristic")


def make_player(kind: str, game: GameLike, style: Style | None = None) -> Player:
    """A player of style ``kind``, one of :data:`STYLES` (``style``: the biases of a
    ``"biased"`` player; the default bids and plays sensibly).

    >>> from napkit import Game
    >>> from napkit.players.biased import Style
    >>> from napkit.players.policy import STYLES, make_player
    >>> game = Game.create("pagat", 4)
    >>> [type(make_player(kind, game)).__name__ for kind in STYLES]
    ['RandomPlayer', 'HeuristicPlayer', 'BiasedPlayer']
    >>> make_player("biased", game, Style(auction="pass")).style.words()
    'random play biased to passing and playing to win tricks cheaply'
    """
    from napkit.players.biased import BiasedPlayer
    from napkit.players.heuristic import HeuristicPlayer
    from napkit.players.uniform import RandomPlayer

    if kind == "random":
        return RandomPlayer()
    if kind == "heuristic":
        return HeuristicPlayer(game)
    if kind == "biased":
        return BiasedPlayer(game, style)
    raise ValueError(f"no player {kind!r} ({', '.join(STYLES)})")
