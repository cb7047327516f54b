"""Hypothesis strategies for property tests against the reference engine.

A Nap program's author writes properties of their own (``my engine agrees with napkit on any
hand that ...``) and lets Hypothesis find, and shrink, the hand that breaks them::

    from hypothesis import given
    from napkit import strategies

    @given(strategies.hands(finished=True))
    def test_my_engine_settles_like_napkit(hand):
        mine = my_engine.replay(hand.game.id, hand.history)
        assert mine.net == hand.result.net

The strategies:

- :func:`tables`: a ruleset with a choice of each of its options and a number of players it
  allows, as a :class:`Table` (which shows itself readably in a falsifying example);
- :func:`games`: the :class:`~napkit.engine.game.Game` of such a table;
- :func:`deals`: chance's deal for a hand of a game (the pack in any order);
- :func:`hands`: a hand of a game dealt and played by legal actions to a drawn point (or to its
  end), every action a draw of its own, so that Hypothesis shrinks towards short hands of
  early legal actions;
- :func:`hand_records`: the ``napkit-hand/1`` record of a finished hand.

Needs Hypothesis (``pip install 'napkit[hypothesis]'``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from hypothesis import strategies as st

from napkit.engine.actions import Deal, Reshuffle
from napkit.engine.cards import cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.formats.records import hand_record
from napkit.spec.catalog import default_spec

__all__ = ["Table", "deals", "games", "hand_records", "hands", "tables"]


class Table(NamedTuple):
    """A game as a falsifying example shows it: ruleset, players, options."""

    ruleset: str
    players: int
    options: tuple[tuple[str, str], ...]

    @property
    def game(self) -> Game:
        return Game.create(self.ruleset, self.players, dict(self.options))


@st.composite
def tables(draw: st.DrawFn, rulesets: tuple[str, ...] | None = None) -> Table:
    """Any ruleset of the spec (or of ``rulesets``), any choice of each of its options, any
    number of players it then allows.

    >>> from hypothesis import find
    >>> from napkit.strategies import tables
    >>> find(tables(("pagat",)), lambda t: t.players == 5).ruleset
    'pagat'
    """
    spec = default_spec()
    ids = sorted(rulesets if rulesets is not None else spec.rulesets)
    ruleset = spec.rulesets[draw(st.sampled_from(ids))]
    options = {name: draw(st.sampled_from(sorted(option.choices)))
               for name, option in sorted(ruleset.options.items())}
    allowed = ruleset.resolve(ruleset.option_values(options))["players"]
    players = draw(st.sampled_from([n for n in allowed if isinstance(n, int)]
                                   if isinstance(allowed, list) else []))
    return Table(ruleset.id, players, tuple(options.items()))


def games(rulesets: tuple[str, ...] | None = None) -> st.SearchStrategy[Game]:
    """The game of any :func:`tables` table."""
    return tables(rulesets).map(lambda table: table.game)


def deals(game: Game, dealer: int = 0) -> st.SearchStrategy[Deal]:
    """Chance's deal for a hand of ``game`` with every seat in it: its pack, in any order."""
    pack = cards_of(game.pack())
    return st.permutations(pack).map(lambda cards: Deal(tuple(cards)))


@st.composite
def hands(draw: st.DrawFn, game: Game | None = None, *, finished: bool = False,
          rulesets: tuple[str, ...] | None = None) -> HandState:
    """A hand of ``game`` (else of any :func:`games` game), dealt by :func:`deals` from a drawn
    dealer, then played by legal actions, each drawn, up to a drawn point; with ``finished``,
    to its end (settled, or thrown in). A purchase that empties the stock is completed by a
    drawn reshuffle.

    >>> from hypothesis import find
    >>> from napkit.strategies import hands
    >>> hand = find(hands(finished=True, rulesets=("pagat",)), lambda h: h.result.made)
    >>> hand.is_over(), hand.result.made
    (True, True)
    """
    if game is None:
        game = draw(games(rulesets))
    dealer = draw(st.integers(min_value=0, max_value=game.players - 1))
    state = game.new_hand(dealer)
    state = state.apply(draw(deals(game, dealer)))
    while not state.is_over():
        if not finished and draw(st.booleans()):
            break
        if state.is_chance():  # a reshuffle of the discards when the stock runs out
            stock = draw(st.permutations(state.discards))
            state = state.apply(Reshuffle(tuple(stock)))
            continue
        state = state.apply(draw(st.sampled_from(state.legal_actions())))
    return state


def hand_records(game: Game | None = None, *,
                 rulesets: tuple[str, ...] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """The ``napkit-hand/1`` record (as JSON values) of a finished :func:`hands` hand."""
    return hands(game, finished=True, rulesets=rulesets).map(hand_record)
