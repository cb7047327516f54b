"""The mutants: each a small, plausible bug in the reference engine, named after what it gets
wrong, with the rule id it breaks and the rulesets whose play it changes.

Each is written as an install function that makes the change through a
:class:`~conformance.mutants.patching.Patcher`: by replacing one engine function with a
wrapper around the original (or a one-line variant of it), or by changing the rules data the
engine compiles a ruleset into. The engine's files are never edited. The docstring of each
install function is the mutant's description.

Every mutant must change the engine's answers (legal actions, refusals, outcomes) on random
hands or matches of each ruleset it names (``tests/test_mutants.py`` checks that in-process),
and the conformance suite must catch every one through the adapter protocol.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from napkit.engine import cards, match
from napkit.engine import state as hand_state
from napkit.engine.actions import Action, Bid, Buy, Cut, Pass
from napkit.engine.cards import SUIT_BITS, lowest_cards
from napkit.engine.game import BidRule, Rules
from napkit.engine.hand import HandState
from napkit.engine.match import FINISHED, MatchState
from napkit.engine.phases import auction, deal, play, purchase, settlement, trumps, widow
from napkit.engine.state import NAMING, NOBODY, PLAY
from napkit.errors import IllegalActionError

from conformance.mutants.base import mutant
from conformance.mutants.patching import Patcher

FLOATER = ("pagat-floater", "pagat-aylesbury", "pagat-dorset", "pagat-teesside")
EVERY = ("classic", "napoleon", "pagat", "pagat-purchase", *FLOATER, "peep", "pub-floater")
WIDOW = (*FLOATER, "peep", "pub-floater")  # a widow or floater is dealt
POOLED = (*FLOATER, "pagat-purchase", "peep", "pub-floater")  # a pool, kitty or pot
ANTED = (*FLOATER, "peep")  # an ante into the pool before each deal
CUT = ("classic", "pagat", "pagat-purchase", *FLOATER)  # the pack gathered and cut as usual
FIRST_CARD_LED = ("classic", "napoleon", "pagat", "pagat-purchase", "pub-floater")


def _rules(p: Patcher, **fields: Any) -> None:
    """Set fields of every compiled ruleset (the same values whatever the ruleset)."""
    p.rules(lambda r: replace(r, **fields))


# --- the deal (NAP-2.2, NAP-4.2, NAP-4.3) ----------------------------------------------------
@mutant("packets-reversed", rule="NAP-4.2.2", phase="deal",
        rulesets=("pagat", "pagat-purchase", *FLOATER, "peep"))
def _packets_reversed(p: Patcher) -> None:
    """The packets are dealt in the reverse order: three then two is dealt as two then three
    (and the other way round)."""
    p.rules(lambda r: replace(r, packets=r.packets[::-1]))


@mutant("deal-starts-with-dealer", rule="NAP-4.2.2", phase="deal", rulesets=EVERY)
def _deal_starts_with_dealer(p: Patcher) -> None:
    """Dealing starts with the dealer instead of the player on the dealer's left: the dealer
    gets the first packet, everyone else the packet meant for their left-hand neighbour."""
    original = deal._layout

    def layout(game: Any, players: int) -> Any:
        getters, widow_place, stock_from = original(game, players)
        return getters[1:] + getters[:1], widow_place, stock_from

    p.function(deal, "_layout", layout)


@mutant("widow-dealt-first", rule="NAP-4.3.1", phase="deal", rulesets=WIDOW)
def _widow_dealt_first(p: Patcher) -> None:
    """The widow (floater) is dealt from the top of the pack before the hands, instead of
    after them."""
    p.rules(lambda r: replace(r, widow=replace(
        r.widow, dealt="after-hands" if r.widow.dealt == "before-hands" else "before-hands"))
        if r.widow is not None else r)


@mutant("pack-one-rank-too-many", rule="NAP-2.2.1", phase="deal",
        rulesets=(*FLOATER, "pub-floater"))
def _pack_one_rank_too_many(p: Patcher) -> None:
    """A reduced pack keeps one rank too many (the nines with the tens for three players):
    every pack but the full one is a rank too large, so the right pack is refused."""
    p.rules(lambda r: replace(r, pack=tuple((counts, max(rank - 1, 0))
                                            for counts, rank in r.pack)))


@mutant("stock-drawn-from-bottom", rule="NAP-4.2.3", phase="deal", rulesets=("pagat-purchase",))
def _stock_drawn_from_bottom(p: Patcher) -> None:
    """The stock is kept upside down: purchases are dealt from the bottom of the undealt cards
    instead of the top."""
    original = deal.apply_deal

    def apply_deal(state: HandState, action: Action) -> HandState:
        dealt = original(state, action)
        return dealt._replace(stock=dealt.stock[::-1]) if dealt.stock else dealt

    p.function(deal, "apply_deal", apply_deal)


@mutant("anticlockwise-play", rule="NAP-1.2.1", phase="deal", rulesets=EVERY)
def _anticlockwise_play(p: Patcher) -> None:
    """The deal, the auction and the play go round anticlockwise (from the dealer's right)
    instead of clockwise."""
    original = hand_state.seating

    def seating(players: int, dealer: int, seats: tuple[int, ...] | None) -> Any:
        order, _ = original(players, dealer, seats)
        backwards = (*order[-2::-1], order[-1]) if order[-1] == dealer else order[::-1]
        turned = [-1] * players
        for i, seat in enumerate(backwards):
            turned[seat] = backwards[(i + 1) % len(backwards)]
        return backwards, tuple(turned)

    p.function(hand_state, "seating", seating)


# --- the auction (NAP-5) ---------------------------------------------------------------------
@mutant("auction-opens-with-dealer", rule="NAP-5.1.1", phase="auction", rulesets=EVERY)
def _auction_opens_with_dealer(p: Patcher) -> None:
    """The auction opens with the dealer and goes on clockwise, instead of opening on the
    dealer's left with the dealer speaking last."""
    original = auction.start

    def start(state: HandState) -> HandState:
        started = original(state)
        order = state.order
        queue = (order[-1], *order[:-1])
        return started._replace(turn=queue[0], auction=started.auction._replace(queue=queue))

    p.function(auction, "start", start)


@mutant("auction-ends-before-dealer", rule="NAP-5.1.2", phase="auction", rulesets=EVERY)
def _auction_ends_before_dealer(p: Patcher) -> None:
    """The first round of the auction ends one seat early: the dealer never speaks."""
    original = auction.start

    def start(state: HandState) -> HandState:
        started = original(state)
        return started._replace(auction=started.auction._replace(queue=state.order[:-1]))

    p.function(auction, "start", start)


@mutant("equal-bid-allowed", rule="NAP-5.2.1", phase="auction", rulesets=EVERY)
def _equal_bid_allowed(p: Patcher) -> None:
    """A bid equal to the highest so far may be made (and takes the contract), instead of only
    a higher one."""
    met = auction._requirements_met
    original_apply = auction.apply_call

    def biddable(state: HandState) -> list[BidRule]:
        a = state.auction
        return [b for b in state.game.rules.bids[max(a.high, 0):] if met(b, a.made)]

    def apply_call(state: HandState, action: Action) -> HandState:
        a = state.auction
        if (isinstance(action, Bid) and a.high >= 0
                and state.game.bid_index.get(action.bid) == a.high):
            return original_apply(state._replace(auction=a._replace(high=a.high - 1)), action)
        return original_apply(state, action)

    p.function(auction, "biddable", biddable)
    p.function(auction, "apply_call", apply_call)


@mutant("wellington-without-nap", rule="NAP-5.2.5", phase="auction",
        rulesets=("classic", "napoleon", "pagat", "pagat-purchase"))
def _wellington_without_nap(p: Patcher) -> None:
    """A bid that needs an earlier bid (Wellington after Nap, Blücher after Wellington) may be
    made without it."""
    def met(bid: BidRule, made: int) -> bool:
        return True

    p.function(auction, "_requirements_met", met)


@mutant("requires-any-group", rule="NAP-5.2.5", phase="auction", rulesets=("napoleon",))
def _requires_any_group(p: Patcher) -> None:
    """A bid that names several groups of earlier bids is allowed once any one group is met,
    instead of all of them: Blücher may follow Napoleon without Wellington."""
    def met(bid: BidRule, made: int) -> bool:
        return not bid.requires or any(made & group for group in bid.requires)

    p.function(auction, "_requirements_met", met)


@mutant("raising-round-skipped", rule="NAP-5.4.1", phase="auction", rulesets=("pub-floater",))
def _raising_round_skipped(p: Patcher) -> None:
    """The auction ends after the first round where the ruleset has a raising round."""
    p.rules(lambda r: replace(r, auction=replace(r.auction, rounds="single"))
            if r.auction.rounds == "single-then-raise" else r)


@mutant("raising-round-open-to-all", rule="NAP-5.4.1", phase="auction",
        rulesets=("pub-floater",))
def _raising_round_open_to_all(p: Patcher) -> None:
    """The raising round is open to everyone where only the first round's bidders may raise
    (and to the bidders only where everyone may)."""
    p.rules(lambda r: replace(r, auction=replace(
        r.auction, raising="everyone" if r.auction.raising == "bidders" else "bidders")))


@mutant("with-without-inverted", rule="NAP-5.2.2", phase="auction",
        rulesets=(*FLOATER, "pub-floater"))
def _with_without_inverted(p: Patcher) -> None:
    """Each bid 'with' the floater ranks above the same bid 'without' it, instead of below."""
    def invert(r: Rules) -> Rules:
        bids = list(r.bids)
        i = 0
        while i + 1 < len(bids):
            a, b = bids[i], bids[i + 1]
            if (a.widow, b.widow) == ("with", "without") and (a.tricks, a.misere) == (
                    b.tricks, b.misere):
                bids[i], bids[i + 1] = b, a
                i += 2
            else:
                i += 1
        moved = {b.index: k for k, b in enumerate(bids)}

        def remap(mask: int) -> int:
            return sum(1 << moved[j] for j in moved if mask >> j & 1)

        return replace(r, bids=tuple(
            replace(b, index=k, requires=tuple(remap(m) for m in b.requires))
            for k, b in enumerate(bids)))

    p.rules(invert)


def _dealer_stuck(state: HandState) -> bool:
    a = state.auction
    return (a.high < 0 and a.round == 1 and state.turn == state.dealer
            and state.game.rules.auction.rounds != "until-passes")


@mutant("dealer-may-not-pass", rule="NAP-5.3.2", phase="auction", rulesets=EVERY)
def _dealer_may_not_pass(p: Patcher) -> None:
    """When everyone else has passed, the dealer must bid (a 'stuck dealer'), instead of the
    hand being thrown in if the dealer passes too."""
    original_legal = auction.legal_calls
    original_apply = auction.apply_call

    def legal_calls(state: HandState) -> tuple[Action, ...]:
        calls = original_legal(state)
        if _dealer_stuck(state):
            return tuple(c for c in calls if not isinstance(c, Pass))
        return calls

    def apply_call(state: HandState, action: Action) -> HandState:
        if isinstance(action, Pass) and _dealer_stuck(state):
            raise IllegalActionError("NAP-5.3.2", "the dealer may not pass when nobody has bid")
        return original_apply(state, action)

    p.function(auction, "legal_calls", legal_calls)
    p.function(auction, "apply_call", apply_call)


# --- looks at the widow (NAP-6.1) ------------------------------------------------------------
@mutant("look-costs-nothing", rule="NAP-6.1.1", phase="looks", rulesets=WIDOW)
def _look_costs_nothing(p: Patcher) -> None:
    """A paid look at the widow is taken without its cost being paid into the pool."""
    original = widow.peek

    def peek(state: HandState) -> HandState:
        looked = original(state)
        paid = looked.ledger[-1]
        funds = looked.funds
        if funds is not None:
            seat = paid.payer
            funds = funds[:seat] + (funds[seat] + paid.amount,) + funds[seat + 1:]
        return looked._replace(ledger=looked.ledger[:-1], pool=looked.pool - paid.amount,
                               funds=funds)

    p.function(widow, "peek", peek)


@mutant("dealer-free-look-missing", rule="NAP-6.1.2", phase="looks", rulesets=("pub-floater",))
def _dealer_free_look_missing(p: Patcher) -> None:
    """The dealer gets no free look at the widow and must buy one like everyone else."""
    p.rules(lambda r: replace(r, peek=replace(r.peek, dealer_free=False))
            if r.peek is not None else r)


@mutant("dealer-look-always-free", rule="NAP-6.1.2", phase="looks", rulesets=FLOATER)
def _dealer_look_always_free(p: Patcher) -> None:
    """The dealer sees the widow free where the ruleset makes the dealer pay for a look."""
    p.rules(lambda r: replace(r, peek=replace(r.peek, dealer_free=True))
            if r.peek is not None else r)


# --- purchases (NAP-6.2) ---------------------------------------------------------------------
def _buys(state: HandState) -> int:
    count, node = 0, state.log
    while node:
        node, (_, action) = node
        count += isinstance(action, Buy)
    return count


@mutant("purchases-twice-round", rule="NAP-6.2.1", phase="purchase",
        rulesets=("pagat-purchase",))
def _purchases_twice_round(p: Patcher) -> None:
    """Purchases go round the table twice, instead of once: each player may buy again."""
    original = purchase._next_buyer

    def next_buyer(state: HandState) -> HandState:
        if state.turn == state.order[-1] and _buys(state) < 2 * len(state.order):
            return state._replace(turn=state.order[0])
        return original(state)

    p.function(purchase, "_next_buyer", next_buyer)


@mutant("purchase-cost-per-card", rule="NAP-6.2.1", phase="purchase",
        rulesets=("pagat-purchase",))
def _purchase_cost_per_card(p: Patcher) -> None:
    """A purchase costs the unit once per card bought, instead of once whatever the count."""
    original = purchase.apply_buy

    def apply_buy(state: HandState, action: Action) -> HandState:
        bought = original(state, action)
        if not (isinstance(action, Buy) and action.cards.bit_count() > 1):
            return bought
        at = len(state.ledger)
        paid = bought.ledger[at]
        extra = paid.amount * (action.cards.bit_count() - 1)
        funds = bought.funds
        if funds is not None:
            seat = paid.payer
            funds = funds[:seat] + (funds[seat] - extra,) + funds[seat + 1:]
        ledger = (*bought.ledger[:at], paid._replace(amount=paid.amount + extra),
                  *bought.ledger[at + 1:])
        return bought._replace(ledger=ledger, pool=bought.pool + extra, funds=funds)

    p.function(purchase, "apply_buy", apply_buy)


@mutant("stock-limit-ignored", rule="NAP-6.2.2", phase="purchase", rulesets=("pagat-purchase",))
def _stock_limit_ignored(p: Patcher) -> None:
    """Where a buyer may take no more cards than the stock holds, the limit is not kept: the
    earlier discards are reshuffled to make up the shortfall."""
    p.rules(lambda r: replace(r, purchase=replace(r.purchase, short_stock="reshuffle-discards"))
            if r.purchase is not None and r.purchase.short_stock == "limit" else r)


@mutant("stock-not-reshuffled", rule="NAP-6.2.2", phase="purchase", rulesets=("pagat-purchase",),
        options={"pagat-purchase": {"short-stock": "reshuffle-discards"}})
def _stock_not_reshuffled(p: Patcher) -> None:
    """Where the earlier discards are reshuffled when the stock runs short, they are not: a
    buyer is limited to what the stock holds."""
    p.rules(lambda r: replace(r, purchase=replace(r.purchase, short_stock="limit"))
            if r.purchase is not None and r.purchase.short_stock == "reshuffle-discards" else r)


# --- the exchange (NAP-6.3) ------------------------------------------------------------------
@mutant("exchange-after-without-bid", rule="NAP-6.3.1", phase="exchange",
        rulesets=(*FLOATER, "pub-floater"))
def _exchange_after_without_bid(p: Patcher) -> None:
    """Every declarer may exchange with the floater, even one whose bid was made without it."""
    p.rules(lambda r: replace(r, exchange=replace(r.exchange, when="any-contract"))
            if r.exchange is not None and r.exchange.when == "bid-with" else r)


@mutant("must-take-made-optional", rule="NAP-6.3.1", phase="exchange", rulesets=("pub-floater",))
def _must_take_made_optional(p: Patcher) -> None:
    """A declarer who must take the floating card may leave it."""
    p.rules(lambda r: replace(r, exchange=replace(r.exchange, take="may"))
            if r.exchange is not None and r.exchange.take == "must-take-widow" else r)


def _entitled(state: HandState) -> bool:
    rules = state.game.rules
    bid = rules.bids[state.contract]
    exchange = rules.exchange
    return exchange is not None and state.widow >= 0 and (exchange.when == "any-contract" or (
        exchange.when == "bid-with" and bid.widow == "with"))


@mutant("trumps-named-before-exchange", rule="NAP-6.3.2", phase="exchange",
        rulesets=(*FLOATER, "peep"))
def _trumps_named_before_exchange(p: Patcher) -> None:
    """A declarer who names trumps and exchanges with the widow names trumps first and
    exchanges after, instead of the other way round."""
    original_exchange = widow.start_exchange
    original_start = trumps.start
    original_name = trumps.apply_name

    def named_first(state: HandState) -> bool:
        return state.game.rules.bids[state.contract].trumps == "named" and _entitled(state)

    def start_exchange(state: HandState) -> HandState:
        if named_first(state) and state.trumps < 0:
            return state._replace(phase=NAMING, turn=state.declarer)
        return original_exchange(state)

    def apply_name(state: HandState, action: Action) -> HandState:
        named = original_name(state, action)
        return original_exchange(named) if named_first(state) else named

    def start(state: HandState) -> HandState:
        if state.game.rules.bids[state.contract].trumps == "named" and state.trumps >= 0:
            return state._replace(phase=PLAY, turn=state.declarer, leader=state.declarer)
        return original_start(state)

    p.function(widow, "start_exchange", start_exchange)
    p.function(trumps, "apply_name", apply_name)
    p.function(trumps, "start", start)


# --- trumps (NAP-7.1) ------------------------------------------------------------------------
@mutant("trumps-fixed-by-last-card", rule="NAP-7.1.1", phase="trumps", rulesets=FIRST_CARD_LED)
def _trumps_fixed_by_last_card(p: Patcher) -> None:
    """Where the first card led fixes trumps, they are fixed by the last card played to the
    first trick instead."""
    original = play.apply_play

    def apply_play(state: HandState, action: Action) -> HandState:
        after = original(state, action)
        if state.trumps < 0 and after.phase == PLAY and not after.tricks:
            return after._replace(trumps=-1)
        return after

    p.function(play, "apply_play", apply_play)


@mutant("void-suit-named", rule="NAP-7.1.2", phase="trumps", rulesets=("peep",))
def _void_suit_named(p: Patcher) -> None:
    """The declarer may name a suit they do not hold as trumps where the ruleset forbids it."""
    _rules(p, naming_void_allowed=True)


@mutant("no-trumps-played-with-trumps", rule="NAP-7.1.3", phase="trumps",
        rulesets=("napoleon", "pagat", "pagat-purchase"),
        options={"napoleon": {"misery-trumps": "none"},
                 "pagat": {"mis": "on", "mis-trumps": "none"},
                 "pagat-purchase": {"mis": "on", "mis-trumps": "none"}})
def _no_trumps_played_with_trumps(p: Patcher) -> None:
    """A contract played without trumps has its trumps fixed by the first card led."""
    p.bids(lambda b: {"trumps": "first-card-led"} if b.trumps == "none" else {})


# --- the opening lead (NAP-7.2) --------------------------------------------------------------
def _lead_changed(p: Patcher, lead: str, allowed: Any) -> None:
    original = trumps.opening_leads

    def opening_leads(state: HandState) -> int:
        if state.game.rules.bids[state.contract].lead == lead:
            return int(allowed(state.hands[state.declarer]))
        return original(state)

    p.function(trumps, "opening_leads", opening_leads)


@mutant("lowest-trump-lead-ignored", rule="NAP-7.2.2", phase="lead",
        rulesets=("napoleon", "pagat-floater", "pagat-aylesbury", "pagat-teesside"))
def _lowest_trump_lead_ignored(p: Patcher) -> None:
    """A declarer bound to lead their lowest trump to the first trick may lead any card."""
    _lead_changed(p, "lowest-trump", lambda hand: hand)


@mutant("lowest-non-trump-counts-trumps", rule="NAP-7.2.2", phase="lead",
        rulesets=("napoleon", "pagat-floater", "pagat-teesside"))
def _lowest_non_trump_counts_trumps(p: Patcher) -> None:
    """A declarer bound to lead their lowest card outside trumps must lead their lowest card,
    trumps included."""
    _lead_changed(p, "lowest-non-trump", lowest_cards)


@mutant("trump-lead-not-required", rule="NAP-7.2.2", phase="lead", rulesets=("peep",))
def _trump_lead_not_required(p: Patcher) -> None:
    """A declarer bound to lead a trump to the first trick may lead any card."""
    _lead_changed(p, "trump", lambda hand: hand)


@mutant("lowest-tie-broken-by-suit", rule="NAP-7.2.3", phase="lead",
        rulesets=("napoleon", "pagat-floater", "pagat-teesside"))
def _lowest_tie_broken_by_suit(p: Patcher) -> None:
    """Where cards of several suits tie for the lowest, only the first of them in suit order
    (spades, hearts, diamonds, clubs) may be led, instead of any of them."""
    original = cards.lowest_cards

    def lowest(mask: int) -> int:
        bits = original(mask)
        return bits & -bits

    p.function(cards, "lowest_cards", lowest, only=(trumps,))


@mutant("eldest-hand-leads", rule="NAP-7.2.1", phase="lead", rulesets=EVERY)
def _eldest_hand_leads(p: Patcher) -> None:
    """The player on the dealer's left leads to the first trick, instead of the declarer (and,
    not being the declarer, may lead any card)."""
    original_start = play.start
    original_playable = play.playable

    def start(state: HandState) -> HandState:
        started = original_start(state)
        return started._replace(turn=state.order[0], leader=state.order[0])

    def playable(state: HandState) -> int:
        if not state.trick and not state.tricks and state.turn != state.declarer:
            return int(state.hands[state.turn])
        return int(original_playable(state))

    p.function(play, "start", start)
    p.function(play, "playable", playable)


# --- the play (NAP-8) ------------------------------------------------------------------------
@mutant("revoke-allowed", rule="NAP-8.1.1", phase="play", rulesets=EVERY)
def _revoke_allowed(p: Patcher) -> None:
    """A player who holds the suit led need not follow it: any card may be played."""
    original = play.playable

    def playable(state: HandState) -> int:
        return state.hands[state.turn] if state.trick else original(state)

    p.function(play, "playable", playable)


def _must_trump(state: HandState) -> int:
    """The trumps a player void in the suit led holds (0 if they are not void, or hold none,
    or trumps are not yet fixed)."""
    trick, trump = state.trick, state.trumps
    if not trick or not 0 <= trump < 4:
        return 0
    hand = state.hands[state.turn]
    return 0 if hand & SUIT_BITS[trick[0] // 13] else hand & SUIT_BITS[trump]


@mutant("must-trump-when-void", rule="NAP-8.1.2", phase="play", rulesets=EVERY)
def _must_trump_when_void(p: Patcher) -> None:
    """A player who cannot follow suit must play a trump if they hold one."""
    original = play.playable
    original_refusal = play.refusal

    def playable(state: HandState) -> int:
        return _must_trump(state) or original(state)

    def refusal(state: HandState, card: object) -> IllegalActionError:
        trumps_held = _must_trump(state)
        if (trumps_held and type(card) is int and 0 <= card < 52
                and state.hands[state.turn] >> card & 1):
            return IllegalActionError("NAP-8.1.2", "unable to follow suit, must play a trump")
        return original_refusal(state, card)

    p.function(play, "playable", playable)
    p.function(play, "refusal", refusal)


@mutant("highest-card-wins", rule="NAP-8.2.1", phase="play", rulesets=EVERY)
def _highest_card_wins(p: Patcher) -> None:
    """The trick goes to the highest-ranking card whatever its suit (the first played of equal
    ranks), instead of the highest trump or the highest card of the suit led."""
    def winning_card(trick: tuple[int, ...], trump: int) -> int:
        best = 0
        for i, card in enumerate(trick):
            if card % 13 > trick[best] % 13:
                best = i
        return best

    p.function(play, "winning_card", winning_card)


@mutant("trumps-do-not-win", rule="NAP-8.2.1", phase="play", rulesets=EVERY)
def _trumps_do_not_win(p: Patcher) -> None:
    """A trick goes to the highest card of the suit led even when it was trumped."""
    original = play.winning_card

    def winning_card(trick: tuple[int, ...], trump: int) -> int:
        return int(original(trick, -1))

    p.function(play, "winning_card", winning_card)


@mutant("winner-does-not-lead", rule="NAP-8.1.3", phase="play", rulesets=EVERY)
def _winner_does_not_lead(p: Patcher) -> None:
    """The next trick is led by the player on the last leader's left, instead of by the
    trick's winner."""
    original = play.apply_play

    def apply_play(state: HandState, action: Action) -> HandState:
        after = original(state, action)
        if after.turn != NOBODY and len(after.tricks) > len(state.tricks):
            nxt = state.ring[state.leader]
            return after._replace(turn=nxt, leader=nxt)
        return after

    p.function(play, "apply_play", apply_play)


@mutant("partner-tricks-counted", rule="NAP-3.2.1", phase="play", rulesets=EVERY)
def _partner_tricks_counted(p: Patcher) -> None:
    """The declarer is credited with the tricks won by the player two seats to their left, as
    if that opponent were their partner (a partnership game's counting)."""
    original = settlement.settle

    def settle(state: HandState) -> HandState:
        partner = state.ring[state.ring[state.declarer]]
        won = sum(1 for t in state.tricks if t.winner in (state.declarer, partner))
        return original(state._replace(won=won))

    p.function(settlement, "settle", settle)


@mutant("misere-made-with-one-trick", rule="NAP-5.2.3", phase="play",
        rulesets=("napoleon", "pagat-teesside"))
def _misere_made_with_one_trick(p: Patcher) -> None:
    """A misère is made with one trick or none, instead of with none."""
    def fulfilled(self: BidRule, tricks: int) -> bool:
        return tricks <= 1 if self.misere else tricks >= self.tricks

    p.setattr(BidRule, "fulfilled", fulfilled)


@mutant("play-stops-when-decided", rule="NAP-8.3.1", phase="play", rulesets=EVERY)
def _play_stops_when_decided(p: Patcher) -> None:
    """Play stops, and the hand is settled, as soon as the contract is made or beaten, instead
    of all five tricks being played."""
    original = play.apply_play

    def apply_play(state: HandState, action: Action) -> HandState:
        after = original(state, action)
        if after.turn == NOBODY or after.trick or len(after.tricks) == len(state.tricks):
            return after
        bid = after.game.rules.bids[after.contract]
        lost = len(after.tricks) - after.won
        if after.won > 0 if bid.misere else (after.won >= bid.tricks or lost > 5 - bid.tricks):
            return after._replace(turn=NOBODY)  # nobody plays on: the hand is settled
        return after

    p.function(play, "apply_play", apply_play)


# --- settlement (NAP-9) ----------------------------------------------------------------------
@mutant("failed-contract-paid-to-players", rule="NAP-9.2.2", phase="settlement",
        rulesets=FLOATER)
def _failed_contract_paid_to_players(p: Patcher) -> None:
    """A defeated declarer who owes the kitty pays each opponent the amount instead."""
    p.bids(lambda b: {"lose_each": b.lose_pool_per_player, "lose_pool_per_player": 0}
           if b.lose_pool_per_player else {})


@mutant("payments-doubled", rule="NAP-9.1.1", phase="settlement", rulesets=EVERY)
def _payments_doubled(p: Patcher) -> None:
    """The opponents pay a made contract's winnings twice over."""
    original = settlement.debts

    def debts(state: HandState, made: bool) -> list[tuple[int, int, int, str]]:
        return [(a, b, n * 2 if r == "NAP-9.1.1" else n, r) for a, b, n, r in
                original(state, made)]

    p.function(settlement, "debts", debts)


@mutant("loss-paid-once", rule="NAP-9.2.1", phase="settlement",
        rulesets=("classic", "napoleon", "pagat", "pagat-purchase", "peep", "pub-floater"))
def _loss_paid_once(p: Patcher) -> None:
    """A defeated declarer pays the loss to the first opponent only, instead of to each."""
    original = settlement.debts

    def debts(state: HandState, made: bool) -> list[tuple[int, int, int, str]]:
        owed = original(state, made)
        first = next((i for i, d in enumerate(owed) if d[3] == "NAP-9.2.1"), None)
        return [d for i, d in enumerate(owed) if d[3] != "NAP-9.2.1" or i == first]

    p.function(settlement, "debts", debts)


@mutant("pool-not-won", rule="NAP-9.1.2", phase="settlement", rulesets=POOLED)
def _pool_not_won(p: Patcher) -> None:
    """A made contract that wins the pool (Nap and above) leaves it where it is."""
    p.bids(lambda b: {"win_pool": False})


@mutant("pool-doubling-flipped", rule="NAP-9.2.3", phase="settlement", rulesets=("peep",))
def _pool_doubling_flipped(p: Patcher) -> None:
    """A defeated Nap doubles the pot the other way: the players ante again where the
    declarer should match the pot, and the other way round."""
    p.rules(lambda r: replace(r, pool=replace(
        r.pool, doubling="players-re-ante" if r.pool.doubling == "bidder-matches-pool"
        else "bidder-matches-pool")) if r.pool is not None else r)


@mutant("short-payments-not-limited", rule="NAP-9.5.1", phase="settlement", rulesets=("peep",))
def _short_payments_not_limited(p: Patcher) -> None:
    """A player who owes more chips than they hold pays it all, going below zero, where they
    should pay only what they have."""
    original = settlement.pay

    def pay(state: HandState, owed: list[tuple[int, int, int, str]]) -> Any:
        if state.funds is None:
            return original(state, owed)
        extra = sum(d[2] for d in owed) + 1
        payments, funds, pool = original(
            state._replace(funds=tuple(f + extra for f in state.funds)), owed)
        assert funds is not None
        return payments, tuple(f - extra for f in funds), pool

    p.function(settlement, "pay", pay)


@mutant("stakes-ignored", rule="NAP-9.4.1", phase="settlement", rulesets=("pub-floater",))
def _stakes_ignored(p: Patcher) -> None:
    """A hand's raised stakes (after throw-ins) are not applied: it is paid at single stakes."""
    original = settlement.debts

    def debts(state: HandState, made: bool) -> list[tuple[int, int, int, str]]:
        return list(original(state._replace(stakes=1), made))

    p.function(settlement, "debts", debts)


# --- the match (NAP-4.1, NAP-9.3, NAP-9.4, NAP-10) -------------------------------------------
@mutant("stakes-not-doubled", rule="NAP-9.4.1", phase="match", scope="match",
        rulesets=("pub-floater",))
def _stakes_not_doubled(p: Patcher) -> None:
    """The stakes are not doubled after a throw-in."""
    def stakes(m: MatchState) -> int:
        return 1

    p.function(match, "stakes", stakes)


@mutant("stakes-doubled-once", rule="NAP-9.4.1", phase="match", scope="match",
        rulesets=("pub-floater",))
def _stakes_doubled_once(p: Patcher) -> None:
    """Where the stakes double again after each further throw-in, they are doubled once only."""
    p.rules(lambda r: replace(r, throw_in_stakes="double-next")
            if r.throw_in_stakes == "double-cumulative" else r)


@mutant("dealer-passes-right", rule="NAP-4.1.2", phase="match", scope="match", rulesets=EVERY)
def _dealer_passes_right(p: Patcher) -> None:
    """The deal passes to the right after each hand, instead of to the left."""
    original = match._after_hand

    def after_hand(m: MatchState, hand: HandState) -> MatchState:
        nxt = original(m, hand)
        if nxt.phase == FINISHED:
            return nxt
        others = [s for s in match._seats_in(nxt, m.dealer) if s != m.dealer]
        return nxt._replace(dealer=others[-1]) if others else nxt

    p.function(match, "_after_hand", after_hand)


@mutant("dealer-skips-a-seat", rule="NAP-4.1.2", phase="match", scope="match", rulesets=EVERY)
def _dealer_skips_a_seat(p: Patcher) -> None:
    """The deal passes two seats to the left after each hand (an off-by-one), instead of one."""
    original = match._after_hand

    def after_hand(m: MatchState, hand: HandState) -> MatchState:
        nxt = original(m, hand)
        if nxt.phase == FINISHED:
            return nxt
        seats = match._seats_in(nxt, nxt.dealer)
        return nxt._replace(dealer=seats[0]) if seats else nxt

    p.function(match, "_after_hand", after_hand)


@mutant("first-dealer-off-by-one", rule="NAP-4.1.1", phase="match", scope="match",
        rulesets=EVERY)
def _first_dealer_off_by_one(p: Patcher) -> None:
    """The seat drawn for the first deal is taken as the first to speak: the first dealer is
    the seat on its right."""
    original = match._choose_dealer

    def choose_dealer(m: MatchState, action: Action) -> MatchState:
        chosen = original(m, action)
        return chosen._replace(dealer=(chosen.dealer - 1) % m.game.players)

    p.function(match, "_choose_dealer", choose_dealer)


@mutant("starting-chips-ignored", rule="NAP-10.1.2", phase="match", scope="match",
        rulesets=("peep",))
def _starting_chips_ignored(p: Patcher) -> None:
    """The stock of chips agreed for the match is ignored: everyone starts with the ruleset's
    own figure."""
    original = match.new_match

    def new_match(game: Any, hands: int | None = None, chips: int | None = None) -> MatchState:
        return original(game, hands)

    p.function(match, "new_match", new_match)


@mutant("pool-not-carried", rule="NAP-9.3.1", phase="match", scope="match", rulesets=POOLED)
def _pool_not_carried(p: Patcher) -> None:
    """What is left in the pool after a hand is not carried into the next: each hand's pool
    starts empty."""
    original = match._after_hand

    def after_hand(m: MatchState, hand: HandState) -> MatchState:
        nxt = original(m, hand)
        return nxt if nxt.phase == FINISHED else nxt._replace(pool=0)

    p.function(match, "_after_hand", after_hand)


@mutant("ante-not-taken", rule="NAP-10.3.1", phase="match", scope="match", rulesets=ANTED)
def _ante_not_taken(p: Patcher) -> None:
    """The ante is not taken before the deal."""
    def pay_antes(m: MatchState, seats: list[int]) -> MatchState:
        return m._replace(taking_part=sum(1 << s for s in seats), ante_paid=True)

    p.function(match, "_pay_antes", pay_antes)


@mutant("no-ante-on-redeal", rule="NAP-10.3.1", phase="match", scope="match", rulesets=ANTED)
def _no_ante_on_redeal(p: Patcher) -> None:
    """The deal after a throw-in takes no fresh ante where the ruleset takes one."""
    p.rules(lambda r: replace(r, ante=replace(r.ante, on_redeal=False)))


@mutant("knocked-out-kept-in", rule="NAP-10.4.2", phase="match", scope="match",
        rulesets=("peep",))
def _knocked_out_kept_in(p: Patcher) -> None:
    """A player left without chips is not knocked out: they stay in the match."""
    original = match._after_hand

    def after_hand(m: MatchState, hand: HandState) -> MatchState:
        limited = match._limited
        match._limited = lambda game: False  # the knock-out is skipped for this hand only
        try:
            return original(m, hand)
        finally:
            match._limited = limited

    p.function(match, "_after_hand", after_hand)


@mutant("match-ends-one-hand-late", rule="NAP-10.4.1", phase="match", scope="match",
        rulesets=EVERY)
def _match_ends_one_hand_late(p: Patcher) -> None:
    """A match of an agreed number of hands plays one hand more."""
    original = match._ended

    def ended(m: MatchState) -> bool:
        return bool(original(m._replace(played=m.played - 1)))

    p.function(match, "_ended", ended)


@mutant("pool-shared-at-end", rule="NAP-9.3.2", phase="match", scope="match", rulesets=POOLED)
def _pool_shared_at_end(p: Patcher) -> None:
    """What is left in the pool when the match ends is shared out where it should be left
    unclaimed (and left where it should be shared)."""
    p.rules(lambda r: replace(r, pool=replace(
        r.pool, at_end="split-equally" if r.pool.at_end == "unclaimed" else "unclaimed"))
        if r.pool is not None else r)


@mutant("tie-not-shared", rule="NAP-10.4.3", phase="match", scope="match", rulesets=EVERY)
def _tie_not_shared(p: Patcher) -> None:
    """Players tied for the highest balance do not share the win: the first seat of them wins
    alone."""
    original = match._finish

    def finish(m: MatchState) -> MatchState:
        done = original(m)
        assert done.result is not None
        return done._replace(result=done.result._replace(winners=done.result.winners[:1]))

    p.function(match, "_finish", finish)


@mutant("always-shuffled", rule="NAP-10.2.1", phase="match", scope="match", rulesets=CUT)
def _always_shuffled(p: Patcher) -> None:
    """The pack is shuffled before every deal where it should be gathered and cut."""
    p.rules(lambda r: replace(r, preparation=replace(r.preparation, usual="shuffle")))


@mutant("no-shuffle-after-nap", rule="NAP-10.2.1", phase="match", scope="match", rulesets=CUT)
def _no_shuffle_after_nap(p: Patcher) -> None:
    """The pack is not shuffled after a made Nap (or the other contracts the ruleset names):
    it is gathered and cut as usual."""
    p.rules(lambda r: replace(r, preparation=replace(r.preparation,
                                                     shuffle_after_made=frozenset())))


@mutant("only-wellington-shuffles", rule="NAP-10.2.1", phase="match", scope="match",
        rulesets=CUT)
def _only_wellington_shuffles(p: Patcher) -> None:
    """A made Nap (of any kind) no longer brings a shuffle; the other contracts the ruleset
    names still do (a program that shuffles after Wellington alone)."""
    p.rules(lambda r: replace(r, preparation=replace(r.preparation, shuffle_after_made=frozenset(
        b for b in r.preparation.shuffle_after_made if not b.startswith("nap")))))


@mutant("throw-in-pack-as-usual", rule="NAP-10.2.3", phase="match", scope="match",
        rulesets=("pagat", "pagat-purchase"))
def _throw_in_pack_as_usual(p: Patcher) -> None:
    """After a throw-in the pack is made ready as usual (gathered and cut) where it should be
    shuffled."""
    p.rules(lambda r: replace(r, preparation=replace(
        r.preparation, after_throw_in=r.preparation.usual)))


@mutant("cut-from-bottom", rule="NAP-10.2.2", phase="match", scope="match", rulesets=CUT)
def _cut_from_bottom(p: Patcher) -> None:
    """A cut of N cards lifts them from the bottom of the pack instead of the top."""
    original = match._prepare

    def prepare(m: MatchState, action: Action) -> MatchState:
        if (isinstance(action, Cut) and not m.shuffle_next and type(action.at) is int
                and 1 <= action.at < len(m.pack)):
            action = Cut(len(m.pack) - action.at)
        return original(m, action)

    p.function(match, "_prepare", prepare)
