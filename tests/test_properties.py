"""Properties of random legal play, over every ruleset, every option choice and every legal
number of players (Hypothesis draws the game and the seed; the seed drives the play).

Each property is checked against an oracle written here from the law book, not read from the
engine: the winner of a trick (NAP-8.2.1), following suit (NAP-8.1.1, NAP-8.1.2), made or
defeated (NAP-5.2.3, NAP-8.3.2), conservation of cards (NAP-4.2.3) and of units (NAP-9),
the rotation of the deal (NAP-4.1.2), and exact replay of a recorded action sequence.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from napkit.engine.actions import (
    LEAVE_WIDOW,
    PASS,
    PEEK,
    TAKE_WIDOW,
    Action,
    Bid,
    Buy,
    Deal,
    Discard,
    NameTrumps,
    Play,
)
from napkit.engine.cards import cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE, NO_TRUMPS, POOL, RESHUFFLE
from napkit.errors import IllegalActionError
from napkit.formats.records import match_actions
from napkit.players.playout import play_out
from napkit.spec.catalog import default_spec
from napkit.strategies import Table, tables

SPEC = default_spec()
PLAY_RULES = {rule.id for rule in SPEC.lawbook if rule.kind == "play"}
# Random hands are cheap (well under a millisecond), so every property looks at a few hundred.
SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def states(game: Game, seed: int, dealer: int = 0, pool: int = 0) -> Iterator[HandState]:
    """Every state of one random hand, the first (waiting for the deal) to the last."""
    rng = random.Random(seed)
    state = game.new_hand(dealer % game.players, pool=pool)
    yield state
    while not state.is_over():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        yield state


def pack_of(state: HandState) -> tuple[int, ...]:
    for actor, action in state.history:
        if actor == CHANCE and isinstance(action, Deal):
            return action.pack
    raise AssertionError("no deal in the history")


def whereabouts(state: HandState) -> list[int]:
    """Every card of the hand wherever it lies, once for each place it is found."""
    cards: list[int] = []
    for hand in state.hands:
        cards += cards_of(hand)
    if state.widow >= 0:
        cards.append(state.widow)
    cards += state.stock + state.discards + state.trick
    for trick in state.tricks:
        cards += trick.cards
    if state.phase == RESHUFFLE:  # a buyer's discards wait apart for the reshuffle
        cards += cards_of(state.pending)
    return cards


def trick_winner_oracle(cards: tuple[int, ...], trumps: int) -> int:
    """NAP-8.2.1: the highest trump if any was played, else the highest card of the suit led."""
    trumps_played = [c for c in cards if c // 13 == trumps]
    if trumps_played:
        return cards.index(max(trumps_played))
    return cards.index(max(c for c in cards if c // 13 == cards[0] // 13))


@SETTINGS
@given(tables(), SEEDS)
# Found by Hypothesis in a fresh clone: a thrown-in hand of purchases, each bought before the
# auction and paid into the pool (NAP-6.2.1), which the thrown-in hand leaves paid.
@example(Table("pagat-purchase", 3, (("blucher", "off"), ("doubling", "none"), ("mis", "off"),
                                     ("mis-trumps", "first-card-led"), ("pack", "full"),
                                     ("packets", "2-3"), ("players", "three-to-seven"),
                                     ("pool-at-end", "split-equally"),
                                     ("reduced-beyond-five", "extend"), ("short-stock", "limit"),
                                     ("two", "off"))), 188)
def test_random_play_ends_in_a_settled_hand(table: Table, seed: int) -> None:
    game = table.game
    *_, last = states(game, seed)
    result = last.result
    assert last.is_over() and result is not None
    assert last.legal_actions() == ()
    if result.thrown_in:
        # NAP-5.3.2: unplayed, and no contract settled; what was paid before the auction ended
        # (looks at the widow, NAP-6.1.1; purchases, NAP-6.2.1) stays paid, and nothing else is.
        assert result.contract is None and result.made is None and last.tricks == ()
        assert {p.rule for p in result.payments} <= {"NAP-6.1.1", "NAP-6.2.1"}
        assert result.payments == last.ledger and all(p.payee == POOL for p in result.payments)
        return
    bid = game.rules.bids[game.bid_index[result.contract or ""]]
    assert len(last.tricks) == 5 and len(result.trick_winners) == 5  # NAP-8.3.1
    assert result.tricks == sum(w == result.declarer for w in result.trick_winners)
    expected = result.tricks == 0 if bid.misere else result.tricks >= bid.tricks
    assert result.made is expected  # NAP-5.2.3, NAP-8.3.2
    assert all(last.hands[s] == 0 for s in last.order)  # every card dealt was played


@SETTINGS
@given(tables(), SEEDS)
def test_each_trick_has_one_winner_by_the_law(table: Table, seed: int) -> None:
    game = table.game
    *_, last = states(game, seed)
    if not last.tricks:
        return
    seats = len(last.order)
    played = [(actor, action.card) for actor, action in last.history if isinstance(action, Play)]
    named = [a.suit for _, a in last.history if isinstance(a, NameTrumps)]
    bid = last.contract_bid
    assert bid is not None
    # How trumps were fixed (NAP-7.1): named, by the first card led, or none.
    if bid.trumps == "named":
        assert named == [last.trumps]
    elif bid.trumps == "first-card-led":
        assert last.trumps == played[0][1] // 13
    else:
        assert last.trumps == NO_TRUMPS
    leader = last.declarer  # NAP-7.2.1
    for i, trick in enumerate(last.tricks):
        plays = played[i * seats:(i + 1) * seats]
        assert trick.cards == tuple(card for _, card in plays)
        assert trick.leader == leader == plays[0][0]  # NAP-8.1.3: the winner leads next
        assert len({actor for actor, _ in plays}) == seats  # everyone plays once
        winner = plays[trick_winner_oracle(trick.cards, last.trumps)][0]
        assert trick.winner == winner
        leader = winner


@SETTINGS
@given(tables(), SEEDS)
def test_cards_are_conserved_and_follow_suit(table: Table, seed: int) -> None:
    game = table.game
    pack: tuple[int, ...] | None = None
    for state in states(game, seed):
        if not state.history:
            assert whereabouts(state) == []
            continue
        pack = pack or pack_of(state)
        cards = whereabouts(state)
        assert sorted(cards) == sorted(pack), "a card was lost, made up or is in two places"
        assert all(state.hands[s].bit_count() == 5 for s in state.order
                   if state.phase_name in ("auction", "naming"))
        if state.phase_name == "play" and state.trick:
            # NAP-8.1.1, NAP-8.1.2: holding the suit led, one must play it; else anything.
            hand = state.hands[state.turn]
            led = [c for c in cards_of(hand) if c // 13 == state.trick[0] // 13]
            legal = {a.card for a in state.legal_actions() if isinstance(a, Play)}
            assert legal == set(led or cards_of(hand))


@SETTINGS
@given(tables(), SEEDS, st.integers(0, 40))
def test_payments_balance(table: Table, seed: int, pool: int) -> None:
    game = table.game
    *_, last = states(game, seed, pool=pool if game.rules.pool else 0)
    result = last.result
    assert result is not None
    start = pool if game.rules.pool else 0
    into_pool = sum(p.amount for p in result.payments if p.payee == POOL)
    out_of_pool = sum(p.amount for p in result.payments if p.payer == POOL)
    assert result.pool == start + into_pool - out_of_pool >= 0
    assert sum(result.net) + result.pool - start == 0, "units were made or lost"
    assert all(p.amount > 0 and p.payer != p.payee for p in result.payments)
    assert all(p.rule in PLAY_RULES for p in result.payments)
    if not game.rules.pool:
        assert into_pool == out_of_pool == 0
    if not result.thrown_in:
        assert contract_payments(last, start) == sorted(
            (p.payer, p.payee, p.amount, p.rule) for p in result.payments
            if p.rule not in ("NAP-6.1.1", "NAP-6.2.1"))


def contract_payments(last: HandState, pool: int) -> list[tuple[int, int, int, str]]:
    """What the law book says a settled contract pays, from the bid's figures alone
    (no chip limits: every debt is paid in full, NAP-9.5.1)."""
    bid, declarer, rules = last.contract_bid, last.declarer, last.game.rules
    assert bid is not None and last.result is not None
    opponents = [s for s in last.order if s != declarer]
    pool += sum(p.amount for p in last.result.payments if p.payee == POOL
                and p.rule in ("NAP-6.1.1", "NAP-6.2.1"))  # looks and purchases before play
    owed: list[tuple[int, int, int, str]] = []
    if last.result.made:  # NAP-9.1.1, NAP-9.1.2
        owed += [(s, declarer, bid.win_each, "NAP-9.1.1") for s in opponents if bid.win_each]
        if bid.win_pool and pool:
            owed.append((POOL, declarer, pool, "NAP-9.1.2"))
    else:  # NAP-9.2.1, NAP-9.2.2, NAP-9.2.3
        owed += [(declarer, s, bid.lose_each, "NAP-9.2.1") for s in opponents if bid.lose_each]
        if bid.lose_pool_per_player:
            owed.append((declarer, POOL, bid.lose_pool_per_player * len(last.order), "NAP-9.2.2"))
        if bid.double_pool and (rules.pool is None or rules.pool.doubling == "bidder-matches-pool"):
            owed += [(declarer, POOL, pool, "NAP-9.2.3")] if pool else []
        elif bid.double_pool and rules.ante.amount:
            owed += [(s, POOL, rules.ante.amount, "NAP-9.2.3") for s in last.order]
    return sorted(owed)


@SETTINGS
@given(tables(), SEEDS)
def test_replaying_the_actions_gives_the_same_state(table: Table, seed: int) -> None:
    game = table.game
    all_states = list(states(game, seed))
    last = all_states[-1]
    replayed = game.new_hand(0)
    for i, (actor, action) in enumerate(last.history):
        assert actor == all_states[i].turn, "the history names who was to act"
        replayed = replayed.apply(action)
        assert replayed == all_states[i + 1]
    assert replayed == last


def universe(state: HandState) -> list[Action]:
    """A broad set of actions to try in any state: every card, bid, suit and call there is."""
    acts: list[Action] = [PASS, PEEK, TAKE_WIDOW, LEAVE_WIDOW, Bid("no-such-bid")]
    acts += [Bid(b.id) for b in state.game.rules.bids]
    acts += [Play(c) for c in range(52)] + [Discard(c) for c in range(52)]
    acts += [NameTrumps(s) for s in range(4)]
    if state.turn >= 0:
        hand = state.hands[state.turn]
        held = cards_of(hand)
        acts += [Buy(0), Buy(hand), Buy(1 << held[0] if held else 1)]
        foreign = [c for c in range(52) if not hand >> c & 1][:3]
        acts += [Buy((1 << held[0]) | (1 << c)) for c in foreign if held]
    return acts


@settings(SETTINGS, max_examples=60)
@given(tables(), SEEDS)
def test_legal_actions_are_exactly_the_accepted_ones(table: Table, seed: int) -> None:
    """Every listed action is accepted, and every other one is refused with a play rule's id."""
    game = table.game
    for state in states(game, seed):
        if state.is_chance() or state.is_over():
            continue
        legal = set(state.legal_actions())
        assert legal, "a player to act always has a legal action"
        for action in universe(state) + list(legal):
            try:
                state.apply(action)
            except IllegalActionError as error:
                assert action not in legal, f"{action} is listed as legal yet refused: {error}"
                assert error.rule in PLAY_RULES and error.message
            else:
                assert action in legal, f"{action} is accepted but not listed as legal"


# --- matches -------------------------------------------------------------------------------

def play_match(game: Game, seed: int, hands: int, chips: int | None) -> MatchState:
    return play_out(new_match(game, hands=hands, chips=chips), random.Random(seed))


@settings(SETTINGS, max_examples=100)
@given(tables(), SEEDS, st.integers(1, 8), st.integers(1, 12))
# Found by Hypothesis: a peep redeal without a fresh ante, after a thrown-in hand in which a
# player bought a look with their last chips, once went to one player only (NAP-10.3.1).
@example(Table("peep", 9, (("auction", "until-passes"), ("lowest-bid", "three"),
                           ("naming", "any-suit"), ("packets", "2-3"),
                           ("pot-at-end", "split-equally"),
                           ("pot-doubling", "bidder-matches-pool"),
                           ("short-payment", "pay-what-you-have"), ("sit-out", "may-sit-out"),
                           ("throw-in", "redeal-without-ante"))), 97367, 5, 3)
def test_matches_conserve_units_and_pass_the_deal(table: Table, seed: int, hands: int,
                                                  chips: int) -> None:
    game = table.game
    start = chips if game.rules.match.bankroll is not None else 0
    match = play_match(game, seed, hands, chips if game.rules.match.bankroll is not None else None)
    result = match.result
    assert result is not None
    # NAP-9.3.1: the pool belongs to no player; units only move between players and the pool.
    assert sum(result.balances) + result.pool == start * game.players
    assert result.winners and all(result.balances[w] == max(result.balances)
                                  for w in result.winners)  # NAP-10.4.3
    assert 1 <= result.hands <= hands  # NAP-10.4.1 (it ends sooner if one player has chips)
    out = 0
    for before, after in zip(match.hands, match.hands[1:], strict=False):
        assert before.result is not None
        rules = game.rules.match
        if rules.bankroll is not None and rules.short_payment == "pay-what-you-have":
            funds = after.funds
            assert funds is not None
            out |= sum(1 << s for s in range(game.players) if s not in after.order
                       and funds[s] <= 0)
        # NAP-4.1.2, NAP-10.4.2: the deal passes to the next seat on the left still in.
        seat = (before.dealer + 1) % game.players
        while out >> seat & 1:
            seat = (seat + 1) % game.players
        assert after.dealer == seat
    # Replaying the match's actions from the start gives the same match.
    replayed = new_match(game, hands=hands, chips=chips if game.rules.match.bankroll else None)
    for _, action in match_actions(match):
        replayed = replayed.apply(action)
    assert replayed == match
