"""The engine's players: the one place where moves are chosen, a module an idea.

- :mod:`~napkit.players.base`: what a player is (:class:`Player`: ``choose(view, rng)``, one
  of the view's legal actions, never the state) and the check every player makes first.
- :mod:`~napkit.players.policy`: the styles by name (``random``, ``heuristic``, ``biased``)
  and :func:`make_player`.
- :mod:`~napkit.players.uniform`: the ``random`` style, uniformly random legal actions.
- :mod:`~napkit.players.heuristic`: the ``heuristic`` style, a simple, sensible player.
- :mod:`~napkit.players.biased`: the ``biased`` style, random play with a :class:`Style`'s
  biases, which the conformance generator and the fuzzer play with.
- :mod:`~napkit.players.judgement`: what the heuristic player weighs (a hand's likely tricks,
  its best trumps, a bid's boldness, the card to keep or to give away) and which card beats
  which.
- :mod:`~napkit.players.worth`: what a hand is worth to the biased player, and its longest
  suit.
- :mod:`~napkit.players.views`: a seat's view as the players read it (who played each card of
  the trick, the cards known gone), and a seat's view of a match.
- :mod:`~napkit.players.playout`: :func:`play_out`, a hand or a match played to its end.

The players sit above the engine and import only from it: the rules never ask a player
anything. ``napkit play``, ``napkit record``, the suite's generator and the fuzzer seat them.
The names of the modules can be imported from here too (napkit 0.2's ``napkit.engine.players``
is this package): each is imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from napkit._lazy import lazy_names

if TYPE_CHECKING:
    from napkit.players.base import Player, legal_choices
    from napkit.players.biased import AUCTION_STYLES, PLAY_STYLES, BiasedPlayer, Style
    from napkit.players.heuristic import HeuristicPlayer
    from napkit.players.judgement import (
        ACE,
        JACK,
        KING,
        QUEEN,
        beats,
        best_suit,
        boldness,
        held,
        keep_value,
        lowest,
        misere_danger,
        suit_holdings,
        trick_estimate,
        trick_estimates,
        trick_winner,
    )
    from napkit.players.playout import play_out
    from napkit.players.policy import PLAYER_KINDS, STYLES, make_player
    from napkit.players.uniform import RandomPlayer
    from napkit.players.views import is_master, known_gone, match_view, seat_view, trick_seats
    from napkit.players.worth import WorthParts, hand_worth, longest_suit, mask_worth

# Each public name, and the module it lives in.
_WHERE = {
    **dict.fromkeys(("Player", "legal_choices"), "napkit.players.base"),
    **dict.fromkeys(("AUCTION_STYLES", "PLAY_STYLES", "BiasedPlayer", "Style"),
                    "napkit.players.biased"),
    "HeuristicPlayer": "napkit.players.heuristic",
    **dict.fromkeys(("ACE", "JACK", "KING", "QUEEN", "beats", "best_suit", "boldness", "held",
                     "keep_value", "lowest", "misere_danger", "suit_holdings", "trick_estimate",
                     "trick_estimates", "trick_winner"), "napkit.players.judgement"),
    "play_out": "napkit.players.playout",
    **dict.fromkeys(("PLAYER_KINDS", "STYLES", "make_player"), "napkit.players.policy"),
    "RandomPlayer": "napkit.players.uniform",
    **dict.fromkeys(("is_master", "known_gone", "match_view", "seat_view", "trick_seats"),
                    "napkit.players.views"),
    **dict.fromkeys(("WorthParts", "hand_worth", "longest_suit", "mask_worth"),
                    "napkit.players.worth"),
}

__all__ = ["ACE", "AUCTION_STYLES", "JACK", "KING", "PLAYER_KINDS", "PLAY_STYLES", "QUEEN",
           "STYLES", "BiasedPlayer", "HeuristicPlayer", "Player", "RandomPlayer", "Style",
           "WorthParts", "beats", "best_suit", "boldness", "hand_worth", "held", "is_master",
           "keep_value", "known_gone", "legal_choices", "longest_suit", "lowest", "make_player",
           "mask_worth", "match_view", "misere_danger", "play_out", "seat_view",
           "suit_holdings", "trick_estimate", "trick_estimates", "trick_seats", "trick_winner"]


__getattr__, __dir__ = lazy_names(__name__, _WHERE)
