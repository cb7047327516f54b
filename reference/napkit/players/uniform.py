"""The ``"random"`` style: :class:`RandomPlayer`, any legal action, uniformly at random."""

from __future__ import annotations

import random

from napkit.engine.actions import Action
from napkit.engine.observation import PlayerView
from napkit.players.base import legal_choices


class RandomPlayer:
    """Any legal action, uniformly at random."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(legal_choices(view))
