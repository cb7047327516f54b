"""The shortcuts of the fuzzer's deals draw and deal what the plain way does.

- :meth:`napkit.conform.fuzz.shrink.Choices.randoms`: ``n`` floats, and the numbers recorded, as
  ``n`` calls of ``random()`` give and record them, from a seed or a replayed list;
- :func:`napkit.engine.phases.deal.sample_deal`: the pack sorted by a ``random()`` key a card, drawn
  in card order, equal keys keeping card order (a stable sort), with a plain
  ``random.Random`` or a ``Choices``, which draws the keys in one call;
- :func:`napkit.engine.phases.deal.dealt_hands`: the hands ``state.apply(deal)`` holds, for every
  game of every ruleset and choice of options, every dealer, seats sitting out, and the widow
  dealt before the hands as well as after them or not at all;
- :func:`napkit.conform.suite.starts.strong_deal`: the deal, and the draws, of the way it was
  first written (each pack applied to the state and its hands weighed).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from functools import cache

import pytest
from napkit.conform.fuzz.shrink import Choices
from napkit.conform.suite.starts import strong_deal
from napkit.engine.actions import Action, Deal
from napkit.engine.cards import cards_of
from napkit.engine.game import Game, RulesetLike
from napkit.engine.hand import APPLY, HandState
from napkit.engine.phases.deal import dealt_hands, hand_pack, sample_deal
from napkit.errors import IllegalActionError, SetupError
from napkit.players.worth import mask_worth
from napkit.spec.catalog import default_spec


def all_games() -> Iterator[Game]:
    """Every game of the spec: each ruleset, each choice of its options, each table size
    those choices allow."""
    for ruleset in default_spec().rulesets.values():
        names = sorted(ruleset.options)
        for choice in itertools.product(*(sorted(ruleset.options[n].choices) for n in names)):
            options = dict(zip(names, choice, strict=True))
            allowed = ruleset.resolve_param("players", options)
            for n in sorted(n for n in allowed if type(n) is int) if isinstance(allowed, list) \
                    else []:
                try:
                    yield Game(ruleset, n, options)
                except SetupError:
                    continue


class WidowFirst:
    """A ruleset of the spec with its widow dealt before the hands (NAP-4.2.3), which no
    ruleset of the spec does."""

    def __init__(self, ruleset: RulesetLike) -> None:
        self.ruleset = ruleset

    @property
    def id(self) -> str:
        return self.ruleset.id

    def option_values(self, choices: Mapping[str, str] | None = None) -> dict[str, str]:
        return self.ruleset.option_values(choices)

    def resolve(self, values: Mapping[str, str]) -> Mapping[str, object]:
        params = dict(self.ruleset.resolve(values))
        widow = params.get("widow")
        assert isinstance(widow, dict)
        params["widow"] = {**widow, "dealt": "before-hands"}
        return params


@cache
def layouts() -> list[Game]:
    """A game for each way the deal can lay out a pack: its packets, where the widow goes, the
    table size, the pack (what dealt_hands and apply_deal read); and each with a widow, its
    widow dealt first."""
    found: dict[object, Game] = {}
    for game in all_games():
        rules = game.rules
        dealt = rules.widow.dealt if rules.widow is not None else None
        found.setdefault((rules.packets, dealt, game.players, game.pack()), game)
        if dealt is not None:
            key = (rules.packets, "before-hands", game.players, game.pack())
            if key not in found:
                first = Game(WidowFirst(game.ruleset), game.players, game.options)
                assert first.rules.widow is not None
                assert first.rules.widow.dealt == "before-hands"
                found[key] = first
    return list(found.values())


def tables(game: Game, rng: random.Random) -> Iterator[HandState]:
    """Hands about to be dealt: each dealer with every seat in, and a few seats sitting out."""
    n = game.players
    for dealer in range(n):
        yield game.new_hand(dealer)
    for size in range(2, n):
        try:
            game.pack(size)
        except SetupError:  # no pack is given for so few players
            continue
        for _ in range(3):
            seats = tuple(sorted(rng.sample(range(n), size)))
            yield game.new_hand(rng.choice(seats), seats=seats)


def a_pack(state: HandState, rng: random.Random) -> tuple[int, ...]:
    # The pack of the players at the table, those sitting out included (NAP-2.2.1).
    cards = list(cards_of(hand_pack(state)))
    rng.shuffle(cards)
    return tuple(cards)


def test_randoms_draws_and_records_what_random_does() -> None:
    for seed in range(20):
        bulk, single = Choices(seed=seed), Choices(seed=seed)
        for n in (0, 1, 2, 52, 7, 500, 32):
            assert bulk.randoms(n) == [single.random() for _ in range(n)]
            assert bulk.randrange(10) == single.randrange(10)  # the next draw, too
        assert bulk.drawn == single.drawn
        # Replayed from the list, then past its end (zeros).
        replay, again = Choices(replay=bulk.drawn[:300]), Choices(replay=bulk.drawn[:300])
        for n in (52, 200, 100):
            assert replay.randoms(n) == [again.random() for _ in range(n)]
        assert replay.drawn == again.drawn == bulk.drawn[:300] + [0] * 52


def keyed_pack(state: HandState, rng: random.Random) -> tuple[int, ...]:
    """sample_deal as first written: the pack sorted by a call of rng.random() a card."""
    key = rng.random
    return tuple(sorted(cards_of(state.game.pack(len(state.order))), key=lambda _: key()))


def test_sample_deal_sorts_the_pack_by_a_random_key_a_card() -> None:
    for i, game in enumerate(layouts()):
        state = game.new_hand(i % game.players)
        plain, plain_twin = random.Random(i), random.Random(i)
        seeded, seeded_twin = Choices(seed=i), Choices(seed=i)
        for _ in range(5):
            assert sample_deal(state, plain).pack == keyed_pack(state, plain_twin)
            assert sample_deal(state, seeded).pack == keyed_pack(state, seeded_twin)
        assert plain.getstate() == plain_twin.getstate()
        assert seeded.drawn == seeded_twin.drawn


@pytest.mark.parametrize("replay", [[], [1, 0, 2, 0, 1] * 20, [5] * 60, list(range(60, 0, -1))])
def test_equal_keys_keep_card_order(replay: list[int]) -> None:
    # Replayed numbers that repeat give equal keys; none at all, every key 0.0.
    for game in layouts()[:20]:
        state = game.new_hand(0)
        assert (sample_deal(state, Choices(replay=replay)).pack
                == keyed_pack(state, Choices(replay=replay)))


def test_dealt_hands_are_the_hands_the_deal_deals() -> None:
    # Every layout in depth: every dealer, seats sitting out, packs in several orders.
    rng = random.Random(4)
    checked = 0
    for game in layouts():
        for state in tables(game, rng):
            for _ in range(3):
                pack = a_pack(state, rng)
                hands = state.apply(Deal(pack)).hands
                assert dealt_hands(state, pack) == [hands[s] for s in state.order], (game, pack)
                checked += 1
    assert checked > 1000
    assert {g.rules.widow.dealt if g.rules.widow else None for g in layouts()} == {
        None, "after-hands", "before-hands"}


def test_dealt_hands_for_every_game() -> None:
    # And every game of the spec once, with a drawn dealer and pack.
    rng = random.Random(5)
    for game in all_games():
        state = game.new_hand(rng.randrange(game.players))
        pack = a_pack(state, rng)
        hands = state.apply(Deal(pack)).hands
        assert dealt_hands(state, pack) == [hands[s] for s in state.order], (game, pack)


def first_strong_deal(state: HandState, rng: random.Random) -> Action:
    """strong_deal as first written: each pack applied, and the hands of the state weighed."""
    apply = APPLY[state.phase]
    best: tuple[float, Action] | None = None
    for _ in range(30):
        deal = state.sample_chance(rng)
        hands = apply(state, deal).hands
        worth = max([mask_worth(hands[s]) for s in state.order])
        if best is None or worth > best[0]:
            best = (worth, deal)
    assert best is not None
    return best[1]


def test_strong_deal_deals_and_draws_as_first_written() -> None:
    rng = random.Random(6)
    for i, game in enumerate(layouts()):
        for state in itertools.islice(tables(game, rng), 0, None, 3):
            plain, plain_twin = random.Random(i), random.Random(i)
            assert strong_deal(state, plain) == first_strong_deal(state, plain_twin)
            assert plain.getstate() == plain_twin.getstate()
            seeded, seeded_twin = Choices(seed=i), Choices(seed=i)
            assert strong_deal(state, seeded) == first_strong_deal(state, seeded_twin)
            assert seeded.drawn == seeded_twin.drawn


def test_strong_deal_is_for_the_deal_only() -> None:
    state = Game.create("pagat", 4).new_hand(0)
    dealt = state.apply(strong_deal(state, random.Random(1)))
    with pytest.raises(IllegalActionError, match=r"NAP-4\.2\.2"):
        strong_deal(dealt, random.Random(1))
