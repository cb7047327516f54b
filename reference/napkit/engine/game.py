"""A game: one ruleset, its options and a number of players, compiled for the engine.

:class:`Game` is to napkit what a game object is to OpenSpiel: it holds what does not change
during play (the resolved parameters, the bids, the pack) and creates hand states
(:meth:`Game.new_hand`) and matches (:mod:`napkit.engine.match`). Everything here is read from the
ruleset's resolved parameters (:mod:`napkit.engine.rules`); no code asks which ruleset it is
playing.

The engine reads no files. :meth:`Game.create` finds a ruleset by id through a finder that
the spec layer registers (:func:`set_ruleset_finder`; importing :mod:`napkit` registers the
spec folder's); a :class:`Game` can also be built from any ruleset object that resolves its
parameters (:class:`RulesetLike`, which :class:`napkit.spec.rulesets.Ruleset` is).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from napkit.engine import finder, hand
from napkit.engine.cards import clear_pack_sets, pack_mask
from napkit.engine.finder import RulesetLike
from napkit.engine.hand import HandState, new_hand
from napkit.engine.phases import auction, deal, play, purchase
from napkit.engine.rules import (
    BidRule,
    Rules,
    check_table,
    clear_pieces,
    compile_rules,
    pack_rank,
)
from napkit.errors import SetupError, SpecError

__all__ = [
    "BidRule",
    "Game",
    "Rules",
    "RulesetLike",
    "check_table",
    "clear_memos",
    "compile_rules",
    "pack_rank",
    "set_ruleset_finder",
]


@dataclass(frozen=True, repr=False)
class Game:
    """A ruleset with its options, for a table of ``players`` (NAP-3.1.1, NAP-2.2.1, NAP-2.2.2).

    Build one with :meth:`Game.create` (by ruleset id, reading ``spec/``) or directly from a
    loaded :class:`~napkit.spec.rulesets.Ruleset`. Construction checks that the ruleset allows
    this many players and that its pack can deal them, and raises :class:`SetupError` otherwise.

    >>> from napkit import Game
    >>> game = Game.create("pagat", 4)
    >>> game.players, [bid.name for bid in game.rules.bids]
    (4, ['Three', 'Four', 'Nap', 'Wellington'])
    >>> [bid.id for bid in Game.create("pagat", 4, {"mis": "on"}).rules.bids]
    ['three', 'mis', 'four', 'nap', 'wellington']
    >>> Game.create("pagat", 11)
    Traceback (most recent call last):
    ...
    napkit.errors.SetupError: NAP-3.1.1: pagat is played by 3, 4, 5, 6, 7, 8, 9, 10 players, not 11
    """

    ruleset: RulesetLike
    players: int
    options: Mapping[str, str] = field(default_factory=dict)
    rules: Rules = field(init=False, repr=False, compare=False)
    #: The ruleset's parameters as resolved for these options, which ``rules`` is compiled
    #: from: kept for a reader of the parameters themselves (napkit.conform.suite.breaches asks
    #: which refusals can arise), so that it need not resolve them again. Read, never changed.
    params: Mapping[str, object] = field(init=False, repr=False, compare=False)
    bid_index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    #: The engine's memo tables for this game (the pack, where the deal puts each card, a
    #: table's seating), so that a new game (or ``memo.clear()``) starts afresh; what any game
    #: of the same rules would find alike (the legal calls and purchases, seatings, layouts of
    #: the deal) is kept in tables shared by every game, which clear_memos empties. Each entry is
    #: a pure function of the game and its key, filled once (a dict's get and set are atomic
    #: under the GIL): threads sharing a game may fill one at once, each with an equal value.
    memo: dict[Hashable, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            values = self.ruleset.option_values(self.options)
            # A ruleset that keeps its resolved values (napkit.spec's) shares them between
            # games, and compile_rules then compiles each value once (see KeptParams).
            kept = getattr(self.ruleset, "resolve_kept", None)
            params = kept(values) if kept is not None else self.ruleset.resolve(values)
        except SpecError as exc:
            raise SetupError("NAP-10.1.1", f"{self.ruleset.id}: {exc.message}") from None
        object.__setattr__(self, "options", values)
        object.__setattr__(self, "params", params)
        rules = compile_rules(params, self.ruleset.id)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "bid_index", {b.id: b.index for b in rules.bids})
        object.__setattr__(self, "memo", {})
        _GAMES[id(self)] = self
        check_table(rules, self.players, self.ruleset.id)

    @classmethod
    def create(cls, ruleset: str, players: int, options: Mapping[str, str] | None = None) -> Game:
        """The game of the ruleset with this id in the spec folder."""
        return _cached_game(finder.ruleset_finder(), ruleset, players,
                            tuple(sorted((options or {}).items())))

    @property
    def id(self) -> str:
        return self.ruleset.id

    def __repr__(self) -> str:
        # Short enough for a test failure or a log line: the ruleset, the table, the options.
        return f"Game({self.ruleset.id!r}, {self.players}, {dict(self.options)!r})"

    def pack(self, players: int | None = None) -> int:
        """The pack (a mask) for a hand of this many players, the whole table by default."""
        return pack_mask(pack_rank(self.rules, self.players if players is None else players))

    def new_hand(self, dealer: int = 0, *, seats: tuple[int, ...] | None = None, pool: int = 0,
                 funds: tuple[int, ...] | None = None, stakes: int = 1) -> HandState:
        """A hand about to be dealt: the state waits for chance's
        :class:`~napkit.engine.actions.Deal`.

        ``seats`` are the seats taking part (all by default); ``pool`` what the pool holds;
        ``funds`` each seat's chips where the match plays from a fixed stock (None: unlimited);
        ``stakes`` the multiplier of NAP-9.4.1.
        """
        return new_hand(self, dealer, seats, pool, funds, stakes)


# Shared between threads: two that ask at once for a game not yet kept may each build one;
# the two are equal (their memos fill alike), and either serves.
# The finder is part of the key: a game found by an earlier finder is not the new one's.
@lru_cache(maxsize=256)
def _cached_game(find: finder.Finder | None, ruleset: str, players: int,
                 options: tuple[tuple[str, str], ...]) -> Game:
    if find is None:
        raise SetupError("NAP-10.1.1", f"no ruleset {ruleset!r}: no rulesets are known here "
                                       "(import napkit, or call set_ruleset_finder)")
    return Game(find(ruleset), players, dict(options))


def set_ruleset_finder(find: Callable[[str], RulesetLike]) -> None:
    """Make :meth:`Game.create` find rulesets by id with ``find``, which raises
    :class:`~napkit.errors.SetupError` (NAP-10.1.1) for an id it does not know (kept by
    :mod:`napkit.engine.finder`, which napkit registers the spec's finder with)."""
    finder.set_ruleset_finder(find)
    _cached_game.cache_clear()


# Every game alive, so that clear_memos reaches the memo of each.
_GAMES: weakref.WeakValueDictionary[int, Game] = weakref.WeakValueDictionary()


def clear_memos() -> None:
    """Empty everything the engine remembers: the games :meth:`Game.create` keeps, each game's
    memo, the card tables' pack sets, the compiled fields of rules, and the two identity checks
    of the hot paths (the play's last listed state, the deal's last drawn pack), the tables of
shared actions and lists (the purchase's, the auction's), and the seatings and layouts of the
deal that every game shares. Play after
    this runs every function a memo would let it skip, which is what napkit.spec.coverage's
    tracer needs, and nothing computed before (by an engine since changed, as a conformance
    mutant changes it) is reused.

    Safe while other threads play: every memo is fill-once, so a thread that finds an entry
    gone works it out again."""
    _cached_game.cache_clear()
    # valuerefs() copies the references in one step; iterating the dictionary itself raised
    # RuntimeError when another thread created a game meanwhile.
    for ref in _GAMES.valuerefs():
        game = ref()
        if game is not None:
            game.memo.clear()
    clear_pack_sets()
    clear_pieces()
    play.forget()
    deal.forget()
    purchase.forget()
    auction.forget()
    hand.forget()
