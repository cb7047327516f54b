"""Hands and matches played by the engine's players at a seeded table, and their records: what
``napkit record`` writes, and what the rules site shows as worked examples.

A table's ``seed`` gives two sources of randomness: chance's (the first dealer, each shuffle)
and the players' (``napkit-players-SEED``), so that a seed deals the same cards whichever
players play them. ``napkit play --watch`` plays the same game from the same seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence

from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.formats.handtext import hand_text
from napkit.formats.records import hand_record, hand_record_line, match_record
from napkit.players.playout import play_out
from napkit.players.policy import make_player

__all__ = ["chance_rng", "play_table", "player_rng", "record_chunks", "record_table",
           "record_text", "table_hands"]


def chance_rng(seed: int) -> random.Random:
    """Chance's source at a table of this seed: the first dealer, the shuffles."""
    return random.Random(seed)


def player_rng(seed: int) -> random.Random:
    """The engine's players' source at a table of this seed."""
    return random.Random(f"napkit-players-{seed}")


def play_table(game: Game, seed: int, *, opponents: str = "heuristic", hands: int | None = None,
               match: bool = False) -> tuple[HandState, ...] | MatchState:
    """``hands`` hands (default one), each settled on its own, the first dealer found by
    chance (NAP-4.1.1) and the deal passing left; or, with ``match``, a match (NAP-10) of
    ``hands`` hands or to its end. Every seat is played by the engine's ``opponents`` players
    (a style of :func:`napkit.players.policy.make_player`).

    >>> from napkit import Game
    >>> from napkit.formats.recording import play_table
    >>> [hand] = play_table(Game.create("pagat", 4), seed=1)
    >>> hand.is_over(), hand.dealer
    (True, 1)
    """
    if match:
        players = [make_player(opponents, game) for _ in range(game.players)]
        return play_out(new_match(game, hands), player_rng(seed), players,
                        chance=chance_rng(seed))
    return tuple(table_hands(game, seed, opponents=opponents, hands=hands or 1))


def table_hands(game: Game, seed: int, *, opponents: str = "heuristic",
                hands: int = 1) -> Iterator[HandState]:
    """The hands of :func:`play_table` (not a match), one at a time as each is played: a
    caller that writes each away holds one hand at a time, however many are played."""
    players = [make_player(opponents, game) for _ in range(game.players)]
    chance, rng = chance_rng(seed), player_rng(seed)
    dealer = chance.randrange(game.players)
    for _ in range(hands):
        yield play_out(game.new_hand(dealer), rng, players, chance=chance)
        dealer = (dealer + 1) % game.players


def record_text(played: Sequence[HandState] | MatchState, *, notation: bool = False) -> str:
    """The record of what was played, as ``napkit record`` writes it: a match record, one
    hand record, or JSON Lines of hand records, one a line; with ``notation``, the hands in
    the hand notation (:mod:`napkit.formats.handtext`), a blank line between them."""
    if notation:
        if isinstance(played, MatchState):
            raise ValueError("the hand notation writes hands, not a match: write a match as "
                             "JSON (napkit-match/1)")
        return "\n".join(hand_text(state) for state in played)
    if isinstance(played, MatchState):
        return json.dumps(match_record(played), indent=2) + "\n"
    records = [hand_record(state) for state in played]
    if len(records) == 1:
        return json.dumps(records[0], indent=2) + "\n"
    return "".join(json.dumps(record) + "\n" for record in records)


def record_chunks(game: Game, seed: int, *, opponents: str = "heuristic",
                  hands: int | None = None, match: bool = False,
                  notation: bool = False) -> Iterator[str]:
    """What :func:`record_table` writes, in pieces as the game is played: for more than one
    hand (not a match), a line of JSON Lines (or, with ``notation``, a hand in the hand
    notation) as each hand ends, so that ``napkit record --hands 1000000`` holds one hand at
    a time; else the one record, at the end."""
    if match or (hands or 1) == 1:
        yield record_table(game, seed, opponents=opponents, hands=hands, match=match,
                           notation=notation)
        return
    for i, state in enumerate(table_hands(game, seed, opponents=opponents, hands=hands or 1)):
        if notation:
            yield ("\n" if i else "") + hand_text(state)
        else:
            yield hand_record_line(state) + "\n"


def record_table(game: Game, seed: int, *, opponents: str = "heuristic",
                 hands: int | None = None, match: bool = False, notation: bool = False) -> str:
    """What ``napkit record`` writes for this table (see :func:`play_table`).

    >>> import json
    >>> from napkit import Game
    >>> from napkit.formats.recording import record_table
    >>> record = json.loads(record_table(Game.create("pagat", 4), seed=1))
    >>> record["format"], record["ruleset"], record["dealer"]
    ('napkit-hand/1', 'pagat', 1)
    """
    return record_text(play_table(game, seed, opponents=opponents, hands=hands, match=match),
                       notation=notation)
