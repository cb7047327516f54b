"""A player's view holds what that player may know, and nothing more (NAP-4.2.1, NAP-4.3.2).

The oracle here is the law book's, written out from the history of the hand: a seat knows its
own cards (including what it bought or discarded), every card played to a trick, and the widow
only if it looked (a paid look, the dealer's free look) or took it up. Everything a view
mentions must be among those cards.
"""

from __future__ import annotations

import random

from hypothesis import given
from napkit.engine.actions import Action, Buy, Deal, Discard, Peek, Play, Reshuffle, TakeWidow
from napkit.engine.cards import cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.observation import Hidden, PlayerView
from napkit.engine.state import CHANCE
from napkit.players.views import trick_seats
from napkit.strategies import Table, tables

from tests.test_properties import SEEDS, SETTINGS, states


def known(state: HandState, seat: int) -> set[int]:
    """The cards ``seat`` may know at this point of the hand."""
    cards = set(cards_of(state.hands[seat]))  # a widow taken up is in the hand
    widow = _widow(state)
    rules = state.game.rules
    if (widow is not None and seat == state.dealer and rules.peek is not None
            and rules.peek.dealer_free):
        cards.add(widow)  # NAP-6.1.2
    for actor, action in state.history:
        if isinstance(action, Play):
            cards.add(action.card)  # played face up: everyone sees it
        elif actor != seat:
            continue
        elif isinstance(action, Peek | TakeWidow) and widow is not None:
            cards.add(widow)  # NAP-6.1.1, NAP-6.3.1
        elif isinstance(action, Buy):
            cards.update(cards_of(action.cards))  # one's own discards
        elif isinstance(action, Discard):
            cards.add(action.card)
    return cards


def _widow(state: HandState) -> int | None:
    for actor, action in state.history:
        if actor == CHANCE and isinstance(action, Deal) and state.game.rules.widow:
            rules = state.game.rules
            first = rules.widow is not None and rules.widow.dealt == "before-hands"
            return action.pack[0 if first else 5 * len(state.order)]
    return None


def mentioned(view: PlayerView) -> set[int]:
    """Every card the view shows, wherever it shows it."""
    cards = set(view.hand) | set(view.trick)
    if view.widow is not None:
        cards.add(view.widow)
    for trick in view.tricks:
        cards.update(trick.cards)
    for _, action in view.history:
        if isinstance(action, Play | Discard):
            cards.add(action.card)
        elif isinstance(action, Buy):
            cards.update(cards_of(action.cards))
        elif isinstance(action, Deal | Reshuffle):
            cards.update(action.pack if isinstance(action, Deal) else action.stock)
    return cards


@SETTINGS
@given(tables(), SEEDS)
def test_a_view_shows_only_what_its_seat_may_know(table: Table, seed: int) -> None:
    game = table.game
    for state in states(game, seed):
        for seat in range(game.players):
            view = state.view(seat)
            leaked = mentioned(view) - known(state, seat)
            assert not leaked, f"seat {seat} is shown {sorted(leaked)} in the {view.phase}"
            assert view.hand == cards_of(state.hands[seat])
            assert view.hand_sizes == tuple(h.bit_count() for h in state.hands)
            # The acting seat is handed exactly the legal actions; nobody else any.
            expected = state.legal_actions() if state.turn == seat else ()
            assert view.legal_actions == expected


@SETTINGS
@given(tables(), SEEDS)
def test_the_deal_and_others_purchases_are_hidden(table: Table, seed: int) -> None:
    game = table.game
    *_, last = states(game, seed)
    for seat in range(game.players):
        for (actor, shown), (_, action) in zip(last.view(seat).history, last.history,
                                               strict=True):
            if isinstance(action, Deal | Reshuffle):
                assert isinstance(shown, Hidden)
            elif isinstance(action, Buy | Discard) and actor != seat:
                assert isinstance(shown, Hidden)
                count = action.cards.bit_count() if isinstance(action, Buy) else 1
                assert shown.count == count  # how many cards changed hands is public
            else:
                assert shown == action


def test_a_peek_shows_the_widow_to_the_peeker_alone() -> None:
    """NAP-6.1.1, NAP-4.3.2: in Peep Nap a player who pays to look sees the widow; the others
    do not, and the look's payment is public."""
    game = Game.create("peep", 4)
    rng = random.Random(7)
    state = game.new_hand(dealer=3)
    state = state.apply(state.sample_chance(rng))
    assert state.turn == 0
    assert all(state.view(s).widow is None for s in range(4))
    state = state.apply(Peek())
    assert state.view(0).widow == state.widow >= 0
    assert all(state.view(s).widow is None for s in (1, 2, 3))
    assert all(state.view(s).pool == 1 for s in range(4))


@SETTINGS
@given(tables(), SEEDS)
def test_the_seen_history_reads_as_the_tuple_of_its_steps(table: Table, seed: int) -> None:
    """A view's history is put together when first read (a computer player mostly never
    reads it): whatever is asked of it, it answers as the tuple of the seat's steps would,
    each step the action as it happened or hidden as NAP-4.3.2 hides it."""
    game = table.game
    for state in states(game, seed):
        for seat in range(game.players):
            seen = state.view(seat).history
            steps = tuple((actor, _as_seen(seat, actor, action))
                          for actor, action in state.history)
            assert seen == steps and steps == seen
            assert len(seen) == len(steps) and list(seen) == list(steps)
            assert list(reversed(seen)) == list(reversed(steps))
            assert seen[1:] == steps[1:] and seen[-1:] == steps[-1:]
            assert all(seen[i] == step for i, step in enumerate(steps))
            assert hash(seen) == hash(steps) and repr(seen) == repr(steps)
            assert seen == state.view(seat).history  # two reads of one moment agree
            as_list: object = [*steps]
            assert seen != as_list  # a tuple, as the history always was, is not a list


def _as_seen(seat: int, actor: int, action: Action) -> Action | Hidden:
    if isinstance(action, Deal):
        return Hidden("deal", len(action.pack))
    if isinstance(action, Reshuffle):
        return Hidden("reshuffle", len(action.stock))
    if isinstance(action, Buy) and actor != seat:
        return Hidden("buy", action.cards.bit_count())
    if isinstance(action, Discard) and actor != seat:
        return Hidden("discard", 1)
    return action


@SETTINGS
@given(tables(), SEEDS)
def test_trick_seats_reads_the_trick_from_the_order_of_play(table: Table, seed: int) -> None:
    """The players' ``trick_seats`` works out who played each card of the trick from the seat
    to play and the order of the seats (play passes clockwise, NAP-8.1.1) without reading the
    history: it must name the very actors the history names."""
    game = table.game
    for state in states(game, seed):
        if state.phase_name != "play" or not state.trick:
            continue
        plays = [actor for actor, action in state.history if isinstance(action, Play)]
        expected = plays[len(plays) - len(state.trick):]
        for seat in range(game.players):
            assert trick_seats(state.view(seat)) == expected
