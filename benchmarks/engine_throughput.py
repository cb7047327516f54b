"""Engine throughput: random full hands per second through napkit's public API, against a bare
loop that plays the same random hands with plain integers.

Run from the repository root::

    .venv/bin/python benchmarks/engine_throughput.py            # a few seconds per loop
    .venv/bin/python benchmarks/engine_throughput.py --seconds 1 --repeats 3

Both loops draw from ``random.Random`` in exactly the same way (the same shuffle of the same pack,
then one ``rng.choice`` over the same legal choices in the same order at every decision), so for
one seed they play the very same hands; ``tests/test_benchmarks_run.py`` checks that they agree.
The bare loop is the least any engine must do for these rulesets: deal in packets, a one-round
auction (with paid looks at the floater where the ruleset has them), the floater exchange and the
naming of trumps, following suit, the first-lead obligations, the trick winner, and settlement.
It keeps no history, builds no states and checks nothing it did not choose itself.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from napkit.engine.game import Game
from napkit.engine.state import CHANCE

# (declarer or -1, trick winners, each seat's net gain): what both loops record of a hand.
Outcome = tuple[int, tuple[int, ...], tuple[int, ...]]

CASES: tuple[tuple[str, str, int], ...] = (
    ("4-player Nap", "pagat", 4),
    ("7-player floater Nap", "pagat-floater", 7),
)


# --- the public API ------------------------------------------------------------------------

def api_hands(game: Game, hands: int, seed: int, out: list[Outcome] | None = None) -> int:
    """Play ``hands`` random hands through the public API; return how many finished."""
    rng = random.Random(seed)
    choice = rng.choice
    players = game.players
    finished = 0
    for i in range(hands):
        s = game.new_hand(dealer=i % players)
        while not s.is_over():
            if s.turn == CHANCE:
                s = s.apply(s.sample_chance(rng))
            else:
                s = s.apply(choice(s.legal_actions()))
        result = s.result
        if result is not None:
            finished += 1
            if out is not None:
                out.append((result.declarer, result.trick_winners, result.net))
    return finished


# --- the bare loop -------------------------------------------------------------------------

@dataclass(frozen=True)
class BareBid:
    tricks: int
    misere: bool
    requires: tuple[int, ...]  # bid-index masks, one a group, as in napkit.engine.game.BidRule
    named: bool  # the declarer names trumps (else the first card led fixes them)
    no_trumps: bool
    lead: str  # the first-lead obligation
    exchange: bool  # a declarer of this bid takes or leaves the widow
    win_each: int
    win_pool: bool
    lose_each: int
    lose_pool_per_player: int


@dataclass(frozen=True)
class BareRules:
    """What the bare loop needs of a ruleset, read once (outside the timing) from its Game."""

    players: int
    pack: tuple[int, ...]  # the hand's pack, in card order
    packets: tuple[int, ...]
    widow: bool
    peek_cost: int  # 0: no paid looks
    bids: tuple[BareBid, ...]

    @classmethod
    def of(cls, game: Game) -> BareRules:
        r = game.rules
        if (r.auction.rounds != "single"
                or (r.widow is not None and r.widow.dealt != "after-hands")
                or r.purchase is not None or (r.peek is not None and r.peek.dealer_free)
                or not r.naming_void_allowed
                or (r.exchange is not None and r.exchange.take != "may")
                or any(b.double_pool for b in r.bids)):
            raise ValueError(f"the bare loop does not play {game.id}'s rules")
        mask = game.pack()
        bids = tuple(
            BareBid(
                tricks=b.tricks, misere=b.misere, requires=b.requires, named=b.trumps == "named",
                no_trumps=b.trumps == "none", lead=b.lead,
                exchange=r.widow is not None and r.exchange is not None and (
                    r.exchange.when == "any-contract"
                    or (r.exchange.when == "bid-with" and b.widow == "with")),
                win_each=b.win_each, win_pool=b.win_pool, lose_each=b.lose_each,
                lose_pool_per_player=b.lose_pool_per_player)
            for b in r.bids)
        return cls(players=game.players, pack=tuple(c for c in range(52) if mask >> c & 1),
                   packets=r.packets, widow=r.widow is not None,
                   peek_cost=r.peek.cost if r.peek is not None else 0, bids=bids)


PEEK, PASS = -2, -1  # auction calls; a bid is its index
TAKE, LEAVE = 0, 1
SUITS = (0, 1, 2, 3)


def _first_lead(hand: list[int], lead: str, trumps: int) -> list[int]:
    """The cards the declarer may lead to the first trick (NAP-7.2.2 to 7.2.4)."""
    if lead == "trump":
        allowed = [c for c in hand if c // 13 == trumps] if 0 <= trumps < 4 else hand
    elif lead == "lowest-trump":
        if 0 <= trumps < 4:
            allowed = [c for c in hand if c // 13 == trumps][:1]
        else:
            allowed = [c for c in hand if not any(d // 13 == c // 13 for d in hand if d < c)]
    elif lead in ("lowest-non-trump", "lowest-card"):
        outside = [c for c in hand if c // 13 != trumps] if lead == "lowest-non-trump" else hand
        low = min((c % 13 for c in outside), default=-1)
        allowed = [c for c in outside if c % 13 == low]
    else:
        allowed = hand
    return allowed or hand


def bare_hands(  # noqa: PLR0915 (one function on purpose: no calls the engine need not make)
        rules: BareRules, hands: int, seed: int, out: list[Outcome] | None = None) -> int:
    """Play ``hands`` random hands with plain integers; return how many finished."""
    rng = random.Random(seed)
    choice = rng.choice
    rand = rng.random
    n = rules.players
    pack = rules.pack
    packets = rules.packets
    has_widow = rules.widow
    peek_cost = rules.peek_cost
    bids = rules.bids
    nbids = len(bids)
    finished = 0
    for i in range(hands):
        dealer = i % n
        order = [(dealer + 1 + k) % n for k in range(n)]
        # The deal: the same shuffle as the engine's sample_deal, then packets from the left.
        deck = sorted(pack, key=lambda _: rand())
        held: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for p in packets:
            for seat in order:
                held[seat] += deck[pos:pos + p]
                pos += p
        widow = deck[pos] if has_widow else -1
        for h in held:
            h.sort()
        net = [0] * n
        pool = 0
        # The auction: one round from the dealer's left.
        high = high_seat = -1
        made = seen = 0
        for seat in order:
            while True:
                calls = [PEEK, PASS] if peek_cost and widow >= 0 and not seen >> seat & 1 \
                    else [PASS]
                for b in range(high + 1, nbids):
                    req = bids[b].requires
                    if all(made & group for group in req):
                        calls.append(b)
                call = choice(calls)
                if call != PEEK:
                    break
                seen |= 1 << seat
                pool += peek_cost
                net[seat] -= peek_cost
            if call >= 0:
                high, high_seat = call, seat
                made |= 1 << call
        if high < 0:  # thrown in
            finished += 1
            if out is not None:
                out.append((-1, (), tuple(net)))
            continue
        declarer, bid = high_seat, bids[high]
        hand = held[declarer]
        if bid.exchange and choice((TAKE, LEAVE)) == TAKE:
            hand.append(widow)
            hand.sort()
            hand.remove(choice(hand))
        trumps = choice(SUITS) if bid.named else 4 if bid.no_trumps else -1
        # The play.
        leader = declarer
        won = 0
        winners = []
        for t in range(5):
            h = held[leader]
            card = choice(h if t or bid.lead == "any" else _first_lead(h, bid.lead, trumps))
            h.remove(card)
            if trumps < 0:
                trumps = card // 13
            led = card // 13
            best, top = 0, card
            seat = leader
            for k in range(1, n):
                seat = (seat + 1) % n
                h = held[seat]
                card = choice([c for c in h if c // 13 == led] or h)
                h.remove(card)
                if card // 13 == top // 13:
                    if card > top:
                        best, top = k, card
                elif card // 13 == trumps:
                    best, top = k, card
            leader = (leader + best) % n
            winners.append(leader)
            if leader == declarer:
                won += 1
        # Settlement (stakes 1).
        if won == 0 if bid.misere else won >= bid.tricks:
            for s in order:
                if s != declarer:
                    net[s] -= bid.win_each
                    net[declarer] += bid.win_each
            if bid.win_pool and pool > 0:
                net[declarer] += pool
                pool = 0
        else:
            for s in order:
                if s != declarer:
                    net[s] += bid.lose_each
                    net[declarer] -= bid.lose_each
            net[declarer] -= bid.lose_pool_per_player * n
            pool += bid.lose_pool_per_player * n
        finished += 1
        if out is not None:
            out.append((declarer, tuple(winners), tuple(net)))
    return finished


# --- timing --------------------------------------------------------------------------------

def _size(run: Callable[[int], int], seconds: float) -> int:
    """How many hands take about ``seconds``."""
    start = time.perf_counter()
    run(20)
    per_hand = max(time.perf_counter() - start, 1e-9) / 20
    return max(20, int(seconds / per_hand))


def rates(runs: Sequence[Callable[[int], int]], seconds: float, repeats: int) -> list[float]:
    """Best hands per second of each loop over ``repeats`` timings of about ``seconds`` each.

    The loops take turns within each repeat, so that a busy spell on a shared machine slows
    them alike rather than one of them.
    """
    sizes = [_size(run, seconds) for run in runs]
    best = [0.0] * len(runs)
    for _ in range(repeats):
        for i, (run, hands) in enumerate(zip(runs, sizes, strict=True)):
            start = time.perf_counter()
            done = run(hands)
            best[i] = max(best[i], done / (time.perf_counter() - start))
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timing")
    parser.add_argument("--repeats", type=int, default=5, help="timings per loop; best reported")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    print(f"{'case':<22} {'API hands/s':>12} {'bare hands/s':>13} {'API/bare':>9}")
    print(f"{'':<22} {'':>12} {'':>13} {'(time)':>9}")
    for label, ruleset, players in CASES:
        game = Game.create(ruleset, players)
        bare = BareRules.of(game)
        api_rate, bare_rate = rates(
            [partial(api_hands, game, seed=args.seed), partial(bare_hands, bare, seed=args.seed)],
            args.seconds, args.repeats)
        print(f"{label:<22} {api_rate:>12,.0f} {bare_rate:>13,.0f} {bare_rate / api_rate:>8.2f}x")


if __name__ == "__main__":
    main()
