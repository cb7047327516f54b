"""What a player is: anything that chooses one of a view's legal actions
(:class:`Player`), and the check every player makes before it chooses (:func:`legal_choices`).

A player is handed a :class:`~napkit.engine.observation.PlayerView` (what its seat may know,
NAP-4.3.2), never the state, and returns one of ``view.legal_actions``. No player ever
returns an action outside them: whatever a player prefers is looked up among the legal
actions, and when it has no preference (an unfamiliar phase, an odd obligation) it falls back
to a legal action.
"""

from __future__ import annotations

import random
from typing import Protocol

from napkit.engine.actions import Action
from napkit.engine.observation import PlayerView


class Player(Protocol):
    """Chooses one of a view's legal actions."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def legal_choices(view: PlayerView) -> tuple[Action, ...]:
    """The legal actions of a view, which a player chooses among; ``ValueError`` if there are
    none (it is not the viewer's turn)."""
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn")
    return legal
