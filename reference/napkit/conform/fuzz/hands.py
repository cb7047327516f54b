"""A match episode's hands, each as a lone hand: to find which hand a program settles otherwise
when only the match's final outcome differs (spec/conformance.md 4.4).

The protocol says a match's outcome only once it is over, and its balances do not say which
hand went wrong nor why. Each hand of the match is the same game as a lone hand started as
that hand started (its dealer, the seats taking part, the pool, the chips, the stakes) and
dealt the pack it was dealt (NAP-4.2): asked of the program as a lone hand, the first one it
answers otherwise shows the bug in a hand's own terms (a payment, the declarer's tricks, the
trick winners), which the cause is worked out from, as for any hand.
"""

from __future__ import annotations

from collections.abc import Iterator

from napkit.conform.fuzz.episodes import Episode, Step
from napkit.conform.suite.starts import HandStart
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.state import CHANCE
from napkit.formats.handtext import hand_start


def lone_hands(episode: Episode) -> Iterator[Episode]:
    """Each finished hand of ``episode`` (a match; none for a hand), in order, as a lone hand
    episode with the same index: the same game, start, deal and actions, no illegal tries."""
    final = episode.final
    if not isinstance(final, MatchState):
        return
    for hand in final.hands:
        yield _lone(episode, hand)


def _lone(episode: Episode, hand: HandState) -> Episode:
    game = episode.game
    state = hand_start(hand)
    start = HandStart(state.dealer, tuple(sorted(state.order)), state.pool, state.funds,
                      state.stakes)
    steps: list[Step] = []
    for seat, action in hand.history:  # chance's seat is CHANCE there, None in a Step
        steps.append(Step(state, None if seat == CHANCE else seat, action, ()))
        state = state.apply(action)
    return Episode(episode.index, game, "hand", start.to_json(game), steps, state,
                   skips_forced=episode.skips_forced, held=episode.held)


__all__ = ["lone_hands"]
