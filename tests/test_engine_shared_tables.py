"""The engine's tables shared between games and states give what building afresh gives: the
legal purchases (purchase.legal_buys) and calls (auction.legal_calls) are the same values, in
the same order, as lists of new objects; their actions, and a list asked again, are the same
objects; the seatings and deal layouts kept for every game are those each game would work out;
every table keeps to its bound and is emptied by clear_memos."""

from __future__ import annotations

import random

import pytest
from napkit.engine import hand
from napkit.engine.actions import PASS, PEEK, Action, Bid, Buy
from napkit.engine.game import Game, clear_memos
from napkit.engine.hand import HandState
from napkit.engine.phases import auction, deal, purchase
from napkit.engine.phases.auction import biddable
from napkit.engine.phases.widow import can_peek
from napkit.engine.rules import compile_rules
from napkit.engine.state import AUCTION, PURCHASE, seating
from napkit.errors import SetupError
from napkit.players.biased import BiasedPlayer, Style
from napkit.spec.catalog import default_spec


def submasks_sorted(mask: int) -> list[int]:
    """The long way: every submask of a hand, fewest cards first, then by number."""
    out = []
    sub = mask
    while True:
        out.append(sub)
        if sub == 0:
            break
        sub = (sub - 1) & mask
    out.sort(key=lambda m: (m.bit_count(), m))
    return out


def fresh_buys(state: HandState) -> tuple[Action, ...]:
    """legal_buys as new objects, the long way."""
    if not purchase._can_pay(state, state.turn):
        return (Buy(0),)
    limit = purchase._limit(state)
    return tuple(Buy(m) for m in submasks_sorted(state.hands[state.turn])
                 if m.bit_count() <= limit)


def fresh_calls(state: HandState) -> tuple[Action, ...]:
    """legal_calls as new objects."""
    calls: list[Action] = [PEEK] if can_peek(state, state.turn) else []
    return (*calls, PASS, *(Bid(b.id) for b in biddable(state)))


def states(ruleset_id: str, seed: int, hands: int = 6) -> list[HandState]:
    """Every state of a few hands of the ruleset at each of its table sizes, played by biased
    players, each hand with a new game (as a fuzzer plays)."""
    rng = random.Random(seed)
    ruleset = default_spec().rulesets[ruleset_id]
    found = []
    for players in compile_rules(ruleset.resolve()).players:
        for _ in range(hands):
            game = Game(ruleset, players)
            state = game.new_hand(dealer=rng.randrange(players))
            player = BiasedPlayer(game, Style.draw(rng))
            while not state.is_over():
                found.append(state)
                state = state.apply(state.sample_chance(rng) if state.is_chance()
                                    else player.choose(state.view(state.turn), rng))
    return found


@pytest.mark.parametrize("ruleset_id", sorted(default_spec().rulesets))
def test_purchases_and_calls_are_the_values_built_afresh(ruleset_id: str) -> None:
    clear_memos()
    for state in states(ruleset_id, 3):
        if state.phase == PURCHASE and state.turn >= 0:
            listed = state.legal_actions()
            assert listed == fresh_buys(state), state
            assert state.legal_actions() is listed  # asked again: the same tuple
        elif state.phase == AUCTION:
            listed = state.legal_actions()
            assert listed == fresh_calls(state), state
            assert state.legal_actions() is listed


def test_the_same_action_objects_are_listed_again() -> None:
    clear_memos()
    found: dict[Action, Action] = {}
    for ruleset_id in ("pagat-purchase", "pagat", "classic"):
        for state in states(ruleset_id, 7, hands=4):
            if state.phase in (PURCHASE, AUCTION) and state.turn >= 0:
                for action in state.legal_actions():
                    assert found.setdefault(action, action) is action, action
    assert any(isinstance(a, Buy) and a.cards.bit_count() == 1 for a in found)
    assert any(isinstance(a, Bid) for a in found)


def test_every_submask_order_is_that_of_the_sort() -> None:
    rng = random.Random(1)
    for size in range(8):
        for _ in range(20):
            mask = sum(1 << c for c in rng.sample(range(52), size))
            order, upto = purchase._order(size)
            subs = [0]
            for card in sorted(c for c in range(52) if mask >> c & 1):
                subs += [s | 1 << card for s in subs]
            assert [subs[j] for j in order] == submasks_sorted(mask)
            assert list(upto) == [sum(1 for m in submasks_sorted(mask) if m.bit_count() <= n)
                                  for n in range(size + 1)]


def test_the_tables_keep_to_their_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_memos()
    monkeypatch.setattr(purchase, "BUYS_KEPT", 40)
    monkeypatch.setattr(purchase, "LISTS_KEPT", 3)
    monkeypatch.setattr(auction, "CALLS_KEPT", 3)
    monkeypatch.setattr(hand, "SEATINGS_KEPT", 2)
    monkeypatch.setattr(deal, "LAYOUTS_KEPT", 1)
    for ruleset_id in ("pagat-purchase", "pagat"):
        for state in states(ruleset_id, 2, hands=3):
            if state.phase in (PURCHASE, AUCTION) and state.turn >= 0:
                assert state.legal_actions() == (
                    fresh_buys(state) if state.phase == PURCHASE else fresh_calls(state))
            assert len(purchase._BUYS) <= 40 + 32 and len(purchase._LISTS) <= 3
            assert len(auction._CALLS) <= 3 and len(auction._BIDS) <= 3
            assert len(hand._SEATINGS) <= 2 and len(deal._LAYOUTS) <= 1


def test_clear_memos_empties_the_tables() -> None:
    for state in states("pagat-purchase", 4, hands=2):
        if state.turn >= 0:
            state.legal_actions()
    assert purchase._BUYS and purchase._LISTS and auction._CALLS and auction._BIDS
    assert hand._SEATINGS and deal._LAYOUTS
    clear_memos()
    assert not (purchase._BUYS or purchase._LISTS or auction._CALLS or auction._BIDS
                or hand._SEATINGS or deal._LAYOUTS)


def dealt(layout: deal.Layout) -> tuple[object, ...]:
    getters, widow_place, stock_from = layout
    pack = tuple(range(52))
    return tuple(g(pack) for g in getters), widow_place, stock_from


def test_seatings_and_layouts_shared_between_games_are_each_games_own() -> None:
    spec = default_spec().rulesets
    tables = [(ruleset_id, players) for ruleset_id in sorted(spec)
              for players in compile_rules(spec[ruleset_id].resolve()).players]
    alone = {}
    for ruleset_id, players in tables:  # each worked out with nothing kept
        for n in range(2, players + 1):
            clear_memos()
            alone[ruleset_id, players, n] = dealt(deal._layout(Game(spec[ruleset_id], players), n))
    clear_memos()
    for ruleset_id, players in tables:  # each with every other's kept
        game = Game(spec[ruleset_id], players)
        for n in range(2, players + 1):
            assert dealt(deal._layout(game, n)) == alone[ruleset_id, players, n]
        for dealer in range(players):
            for seats in (None, tuple(range(players)), tuple(range(1, players))):
                try:
                    got = hand._seating(game, dealer, seats)
                except SetupError:
                    continue
                assert got == seating(players, dealer, seats)


def test_refusals_of_a_seating_are_still_raised_when_one_is_kept() -> None:
    clear_memos()
    game = Game.create("pagat", 4)
    game.new_hand(dealer=1)
    with pytest.raises(SetupError, match="no seat 7"):
        game.new_hand(dealer=7)
    with pytest.raises(SetupError, match="at least two players"):
        game.new_hand(dealer=1, seats=(2,))
    with pytest.raises(SetupError, match="between 0 and 3"):
        Game.create("pagat", 4).new_hand(dealer=1, seats=(0, 9))
