"""How a hand starts, as the generator of the suite and the fuzzer draw it: the fields of the
``start-hand`` request (:class:`HandStart`, spec/conformance.md 2.3), and a deal that gives some
player a strong hand, so that bids of five tricks are played and made, not only lost.

Every draw comes from the ``random.Random`` given: the same generator replays the same start.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from napkit.engine.actions import Action
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.phases.deal import dealt_hands, sample_deal
from napkit.engine.state import DEAL
from napkit.errors import IllegalActionError
from napkit.players.worth import mask_worth

JSONObject = dict[str, Any]


# The players are the engine's biased players (napkit.players.biased.BiasedPlayer), each hand
# with a Style drawn from the case's rng: their draws from it are part of what a seed replays.
def strong_deal(state: HandState, rng: random.Random) -> Action:
    """Of a few shuffled packs, the one that deals some player the strongest hand."""
    if state.phase != DEAL:
        raise IllegalActionError("NAP-4.2.2", f"the cards are not dealt in the {state.phase_name}")
    best: tuple[float, Action] | None = None
    for _ in range(30):
        deal = sample_deal(state, rng)
        # Only the hands are weighed: the hands state.apply(deal) holds, without the state.
        worth = max(map(mask_worth, dealt_hands(state, deal.pack)))
        if best is None or worth > best[0]:
            best = (worth, deal)
    assert best is not None
    return best[1]


# --- playing a hand or a match --------------------------------------------------------------------
@dataclass(frozen=True)
class HandStart:
    """The start-hand request's fields."""

    dealer: int
    seats: tuple[int, ...]
    pool: int
    funds: tuple[int, ...] | None
    stakes: int

    def to_json(self, game: Game) -> JSONObject:
        return {"type": "start-hand", "ruleset": game.id, "options": dict(game.options),
                "players": game.players, "dealer": self.dealer, "seats": list(self.seats),
                "pool": self.pool, "funds": None if self.funds is None else list(self.funds),
                "stakes": self.stakes}


def draw_start(game: Game, rng: random.Random) -> HandStart:
    """A hand's start: a dealer, its seats (now and then a few sitting out where a match can
    leave players out), what the pool holds, each seat's chips where the match plays from a
    fixed stock and pays only what it has, and raised stakes where throw-ins raise them."""
    rules = game.rules
    n = game.players
    seats = tuple(range(n))
    if (rules.ante.sit_out or rules.match.bankroll is not None) and n > 2 and rng.random() < 0.2:
        seats = tuple(sorted(rng.sample(range(n), rng.randint(2, n - 1))))
    dealer = rng.choice(seats)
    pool = rng.choice((0, 0, 1, 2, 3, 4, 6, 9, 12)) if rules.pool else 0
    funds = None
    if rules.match.bankroll is not None and rules.match.short_payment == "pay-what-you-have":
        top = rng.choice((1, 2, 3, 5, rules.match.bankroll))
        funds = tuple(rng.randint(1, top) if s in seats else 0 for s in range(n))
    stakes = 1
    if rules.throw_in_stakes != "unchanged" and rng.random() < 0.3:
        stakes = rng.choice((2, 4) if rules.throw_in_stakes == "double-cumulative" else (2,))
    return HandStart(dealer, seats, pool, funds, stakes)


def new_hand(game: Game, start: HandStart) -> HandState:
    return game.new_hand(start.dealer, seats=start.seats, pool=start.pool, funds=start.funds,
                         stakes=start.stakes)
