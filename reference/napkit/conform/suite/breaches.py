"""Breaking one rule on purpose: where in a hand or a match each refusal of the law book can be
tried, and which actions do it (spec/conformance.md 1.1 and 1.2).

Each refusal the law book defines (its rules' ``refusals``, NAP-1.3) has a finder here under
the same id. A finder offers only actions that break that one rule: lifted (the turn given to
the actor, the card given to the holder: :func:`lift_turn`, :func:`lift_card`), each would be
legal; tests/test_one_rule.py checks that for the suite. The generator of the suite
(:mod:`napkit.conform.suite.generate`) writes its illegal cases with them, and ``napkit fuzz``
tries them on a program at random points of random play and expects each refused under its
rule.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from napkit.conform.suite.starts import HandStart
from napkit.engine.acting import act
from napkit.engine.actions import (
    LEAVE_WIDOW,
    PASS,
    PEEK,
    PLAYS,
    SIT_OUT,
    Action,
    Bid,
    Buy,
    ChooseDealer,
    Cut,
    Deal,
    Discard,
    NameTrumps,
    Peek,
    Play,
    Reshuffle,
    Shuffle,
)
from napkit.engine.cards import SUIT_BITS, cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.phases.auction import bids_blind, dealer_stuck
from napkit.engine.phases.deal import hand_pack
from napkit.engine.phases.play import playable
from napkit.engine.phases.purchase import _limit as purchase_limit
from napkit.engine.phases.trumps import nameable, opening_leads
from napkit.engine.rules import KeptParams
from napkit.engine.state import (
    AUCTION,
    DEAL,
    DISCARD,
    EXCHANGE,
    NAMING,
    PLAY,
    PURCHASE,
    RESHUFFLE,
    Phase,
    replace,
)
from napkit.errors import RuleError
from napkit.spec.catalog import default_spec
from napkit.spec.lawbook import Refusal
from napkit.spec.loading import JSONObject
from napkit.spec.rulesets import NEED, Ruleset, can_meet


def refusal(state: HandState | MatchState, seat: int | None,
            action: Action) -> tuple[str | None, str]:
    """Whether ``seat`` may take ``action`` now, as the harness asks it of a program: the rule
    id and reason of a refusal, or (None, "") if accepted. Play already over is refused as
    such (NAP-1.3.3, whoever asks); otherwise an action by anyone but the one whose turn it is
    (chance is ``None``) is out of turn (NAP-1.3.1); otherwise the engine decides."""
    try:
        act(state, seat, action)
    except RuleError as exc:
        return exc.rule, exc.message
    return None, ""


# --- illegal actions, each chosen to break one rule -----------------------------------------------
# Each refusal the law book defines (its rules' ``refusals``, NAP-1.3) has a finder here, under
# the same id: where in a hand it can be tried, and which actions do it. A finder offers only
# actions that break that one rule: lifted (the turn given to the actor, the card given to the
# holder, see lift_turn and lift_card), each would be legal; tests/test_one_rule.py checks it.
Candidates = list[tuple[int | None, Action]]


@dataclass(frozen=True)
class Breach:
    """A way to break one rule, as the law book names it: where it can be tried, and what."""

    name: str
    find: Callable[[HandState, random.Random], Candidates] | None
    # How the hand's start is changed so that the breach can arise (chips run out, say).
    prepare: Callable[[HandStart, random.Random], HandStart] | None = None
    # A breach of a match's own steps (the first dealer, the shuffle or cut, the antes) is
    # found in a match played out instead of a hand.
    in_match: Callable[[MatchState, random.Random], Candidates] | None = None

    @property
    def refusal(self) -> Refusal:
        return default_spec().lawbook.refusals[self.name][1]

    @property
    def rule(self) -> str:
        return default_spec().lawbook.refusals[self.name][0].id

    @property
    def words(self) -> str:
        text = self.refusal.text
        return text[0].lower() + text[1:].rstrip(".")


_HANDS = HandState._fields.index("hands")


def _hand(state: HandState) -> int:
    return state.hands[state.turn]


def lift_turn(state: HandState, seat: int) -> HandState:
    """The hand as if ``seat`` were to act: the one change that NAP-1.3.1 forbids."""
    return replace(state, turn=seat)


def lift_card(state: HandState, seat: int, card: int, instead: int) -> HandState:
    """The hand as if ``seat`` held ``card`` in place of ``instead``: the one change that
    NAP-1.3.2 forbids."""
    hands = list(state.hands)
    hands[seat] = hands[seat] & ~(1 << instead) | 1 << card
    return replace(state, hands=tuple(hands))


def _later_players(state: HandState) -> list[int]:
    """The seats that will act later in this round of the auction, or later in this trick
    (after the first lead): acting now, they act only out of turn."""
    if state.phase == AUCTION:
        return [s for s in state.auction.queue[1:] if s != state.turn]
    if state.phase == PLAY and (state.trick or state.tricks):
        order = state.order
        at = order.index(state.turn)
        left = len(order) - len(state.trick) - 1
        return [order[(at + k) % len(order)] for k in range(1, left + 1)]
    return []


def _out_of_turn(state: HandState, rng: random.Random) -> Candidates:
    out: Candidates = []
    if state.phase == PLAY:
        # Past the first lead (where later players are found), the turn lifted to a seat
        # lists the plays of the engine's playable mask of that seat's hand: the suit led
        # where the hand holds it, else every card (NAP-8.1.1, NAP-8.1.3), and every card at
        # the lead of a later trick; each the engine's own Play, in card order, as
        # legal_plays lists them. Told here without the lifted hand being built (a play asks
        # this at every card); tests/test_prober_speed.py compares the two.
        led = SUIT_BITS[state.trick[0] // 13] if state.trick else 0
        for seat in _later_players(state):
            hand = state.hands[seat]
            out += [(seat, PLAYS[card]) for card in cards_of(hand & led or hand)]
        return out
    for seat in _later_players(state):
        lifted = lift_turn(state, seat)
        out += [(seat, a) for a in lifted.legal_actions() if not isinstance(a, Peek)]
    return out


def _not_held_as(state: HandState, make: Callable[[int], Action], phase: Phase,
                 keep: int = 0) -> Candidates:
    """Actions ``make(card)`` by the player to act with a card they do not hold that would be
    legal had they held it in place of a card of theirs of the same suit (not one of
    ``keep``)."""
    if state.phase != phase:
        return []
    seat = state.turn
    hand = state.hands[seat]
    others = hand_pack(state) & ~hand
    out: Candidates = []
    # A card is legal in the play when the engine's mask of playable cards holds it, which is
    # what the play's apply checks (and nothing after it refuses): no next state is built.
    plays = phase == PLAY and make is Play
    if plays and (state.trick or state.tricks
                  or state.game.rules.bids[state.contract].lead == "any"):
        # Past the first lead that mask is the suit led where the hand holds it, else every
        # card (playable: NAP-8.1.1, NAP-8.1.3); at the first lead (the declarer's) of a
        # contract that sets no lead, every card (opening_leads: NAP-7.2.2). A card lifted in
        # for one of its own suit leaves the hand holding the suit led or not, so it is
        # playable whichever card it replaces, and each suit is told apart once instead of
        # every pair being lifted (a play asks this at every card); tests/test_breaches_speed.py
        # and tests/test_prober_speed.py compare the two. The cards come suit by suit, each in
        # card order, as below (cards_of's order), each the engine's own Play of it (equal to
        # make(card), and not built anew).
        led = SUIT_BITS[state.trick[0] // 13] if state.trick else 0
        follows = hand & led
        suits = 0
        for suit in SUIT_BITS:
            if hand & suit & ~keep and (not follows or suit == led):
                suits |= suit
        return [(seat, PLAYS[card]) for card in cards_of(others & suits)]
    # The lifted hands are built as lift_card builds them, from one list of the state's
    # fields and one of its hands, changed in place: a play asks this at every card.
    fields = list(state)
    held = list(state.hands)
    cls = type(state)
    for suit in SUIT_BITS:  # suit by suit, each card in card order: cards_of's order
        insteads = cards_of(hand & suit & ~keep)
        if not insteads:
            continue
        for card in cards_of(others & suit):
            bit = 1 << card
            for instead in insteads:
                held[seat] = hand & ~(1 << instead) | bit
                fields[_HANDS] = tuple(held)
                lifted: HandState = tuple.__new__(cls, fields)
                if playable(lifted) & bit if plays else lifted.is_legal(make(card)):
                    out.append((seat, make(card)))
                    break
    return out


def _not_held(state: HandState, rng: random.Random) -> Candidates:
    return _not_held_as(state, Play, PLAY)


def _discard_not_held(state: HandState, rng: random.Random) -> Candidates:
    return _not_held_as(state, Discard, DISCARD, keep=state.pending)


def _buy_not_held(state: HandState, rng: random.Random) -> Candidates:
    """A purchase of one card not held (as _not_held_as finds them). A buy of one card the
    buyer holds is refused only for chips they cannot pay or a stock too short (NAP-6.2.1,
    NAP-6.2.2), and what follows it (the next buyer, a reshuffle, or the auction) reads no
    card of the hand: so either every card of a suit the buyer holds, lifted in for any card
    of its suit, may be bought, or none, and one lift tells which instead of every pair
    being lifted and bought (tests/test_prober_speed.py compares the two)."""
    if state.phase != PURCHASE:
        return []
    seat = state.turn
    hand = state.hands[seat]
    suits = 0
    for suit in SUIT_BITS:
        if hand & suit:
            suits |= suit
    cards = cards_of(hand_pack(state) & ~hand & suits)
    if not cards:
        return []
    card = cards[0]
    instead = cards_of(hand & SUIT_BITS[card // 13])[0]
    if not lift_card(state, seat, card, instead).is_legal(Buy(1 << card)):
        return []
    return [(seat, Buy(1 << card)) for card in cards]


def _revoke(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != PLAY or not state.trick:
        return []
    hand = _hand(state)
    led = SUIT_BITS[state.trick[0] // 13]
    if not hand & led or not hand & ~led:
        return []
    return [(state.turn, Play(c)) for c in cards_of(hand & ~led)]


def _first_lead(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != PLAY or state.tricks or state.trick:
        return []
    hand = _hand(state)
    return [(state.turn, Play(c)) for c in cards_of(hand & ~opening_leads(state))]


def _bid_not_higher(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != AUCTION or state.auction.high < 0:
        return []
    bids = state.game.rules.bids[:state.auction.high + 1]
    return [(state.turn, Bid(b.id)) for b in bids]


def _dealer_passes_stuck(state: HandState, rng: random.Random) -> Candidates:
    """A pass by the dealer where every other player has passed and nobody has bid, in a game
    that sticks the dealer (NAP-5.3.3)."""
    if state.phase != AUCTION or not dealer_stuck(state):
        return []
    return [(state.turn, PASS)]


def _bid_prerequisite(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != AUCTION:
        return []
    made = state.auction.made
    blind = bids_blind(state)
    return [(state.turn, Bid(b.id)) for b in state.game.rules.bids[state.auction.high + 1:]
            if b.requires and not all(made & group for group in b.requires)
            and not (blind and b.widow == "with")]


def _with_unseen(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != AUCTION or not bids_blind(state):
        return []
    made = state.auction.made
    return [(state.turn, Bid(b.id)) for b in state.game.rules.bids[state.auction.high + 1:]
            if b.widow == "with" and all(made & group for group in b.requires)]


def _unknown_bid(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != AUCTION:
        return []
    present = state.game.bid_index
    return [(state.turn, Bid(b)) for b in _spec_tables()[1] if b not in present]


def _not_a_call(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != AUCTION:
        return []
    return [(state.turn, Play(c)) for c in cards_of(_hand(state))]


def _look(state: HandState, rng: random.Random) -> Candidates:
    """A second look at the widow, by a player who could pay for it."""
    if state.phase != AUCTION or state.game.rules.peek is None or state.widow < 0:
        return []
    seat = state.turn
    cost = state.game.rules.peek.cost
    if state.seen >> seat & 1 and (state.funds is None or state.funds[seat] >= cost):
        return [(seat, PEEK)]
    return []


def _look_no_chips(state: HandState, rng: random.Random) -> Candidates:
    """A first look at the widow by a player whose chips cannot pay for it."""
    if state.phase != AUCTION or state.game.rules.peek is None or state.widow < 0:
        return []
    seat = state.turn
    if (not state.seen >> seat & 1 and state.funds is not None
            and state.funds[seat] < state.game.rules.peek.cost):
        return [(seat, PEEK)]
    return []


def _broke(start: HandStart, rng: random.Random) -> HandStart:
    """A start where one seat has no chips left (its ante took its last), so cannot pay for a
    look."""
    if start.funds is None:
        return start
    funds = list(start.funds)
    funds[rng.choice(start.seats)] = 0
    return dataclasses.replace(start, funds=tuple(funds))


def _no_looks(state: HandState, rng: random.Random) -> Candidates:
    """A look asked for in a game that has no paid looks: the player is to pass or bid."""
    if state.phase != AUCTION or state.game.rules.peek is not None:
        return []
    return [(state.turn, PEEK)]


def _exchange(state: HandState, rng: random.Random) -> Candidates:
    """Something other than taking or leaving the widow, or than discarding: not naming
    trumps, which has a refusal of its own (naming-before-exchange)."""
    seat = state.turn
    hand = state.hands[seat] if seat >= 0 else 0
    if state.phase == EXCHANGE:
        return [(seat, Play(c)) for c in cards_of(hand)] + [
            (seat, Discard(c)) for c in cards_of(hand)]
    if state.phase == DISCARD:
        return [(seat, LEAVE_WIDOW), (seat, Play(rng.choice(cards_of(hand))))]
    return []


def _discard_taken(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != DISCARD:
        return []
    return [(state.turn, Discard(c)) for c in cards_of(state.pending)]


def _naming_before_exchange(state: HandState, rng: random.Random) -> Candidates:
    if state.phase not in (EXCHANGE, DISCARD) or state.contract_bid is None or (
            state.contract_bid.trumps != "named"):
        return []
    return [(state.turn, NameTrumps(s)) for s in range(4)]


def _naming(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != NAMING:
        return []
    return [(state.turn, Play(c)) for c in cards_of(state.hands[state.turn])]


def _naming_void(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != NAMING or state.game.rules.naming_void_allowed:
        return []
    hand = state.hands[state.turn]
    # Not where NAP-7.1.4 lets a one-suit declarer name a void suit (it prevails).
    allowed = nameable(state)
    return [(state.turn, NameTrumps(s)) for s in range(4)
            if not hand & SUIT_BITS[s] and not allowed >> s & 1]


def _naming_one_suit(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != NAMING:
        return []
    hand = state.hands[state.turn]
    held = [s for s in range(4) if hand & SUIT_BITS[s]]
    if len(held) != 1 or not state.game.rules.naming_non_trump_binds or (
            state.contract_bid is None or state.contract_bid.lead != "lowest-non-trump"):
        return []
    return [(state.turn, NameTrumps(held[0]))]


def _buy(state: HandState, rng: random.Random) -> Candidates:
    """Something other than a purchase (of no cards or some) at one's turn to buy."""
    if state.phase != PURCHASE:
        return []
    seat = state.turn
    return [(seat, Bid(state.game.rules.bids[0].id)), (seat, PASS),
            (seat, Play(rng.choice(cards_of(state.hands[seat]))))]


def _buy_limit(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != PURCHASE:
        return []
    seat = state.turn
    purchase = state.game.rules.purchase
    cost = purchase.cost if purchase is not None else 0
    if state.funds is not None and state.funds[seat] < cost:
        return []
    limit = purchase_limit(state)
    mine = cards_of(state.hands[seat])
    if limit >= len(mine):
        return []
    return [(seat, Buy(sum(1 << c for c in rng.sample(mine, k))))
            for k in range(limit + 1, len(mine) + 1)]


def _deal(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != DEAL:
        return []
    cards = list(cards_of(hand_pack(state)))
    rng.shuffle(cards)
    out: Candidates = [(None, Deal(tuple(cards[:-1])))]  # a card short
    outside = [c for c in range(52) if c not in cards]
    if outside:  # a card from outside this pack in place of one of it
        out.append((None, Deal((rng.choice(outside), *cards[1:]))))
    return out


def _deal_first(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != DEAL:
        return []
    cards = list(cards_of(hand_pack(state)))
    rng.shuffle(cards)
    return [(None, Reshuffle(tuple(cards)))]


def _reshuffle(state: HandState, rng: random.Random) -> Candidates:
    if state.phase != RESHUFFLE:
        return []
    stock = list(state.discards)
    rng.shuffle(stock)
    return [(None, Reshuffle(tuple(stock[:-1])))] if stock else []


def _over(state: HandState, rng: random.Random) -> Candidates:
    """An action after the fifth trick of a hand played out."""
    if not state.is_over() or not state.tricks:
        return []
    seat = state.tricks[-1].winner
    return [(seat, Play(rng.choice(state.tricks[-1].cards)))]


def _thrown_in(state: HandState, rng: random.Random) -> Candidates:
    """An action in a hand that was thrown in, which is not played at all."""
    if not (state.is_over() and state.result is not None and state.result.thrown_in):
        return []
    seat = state.order[0]
    return [(seat, Bid(state.game.rules.bids[0].id)), (seat, PASS)]


def _pack(match: MatchState, rng: random.Random) -> list[int]:
    """The table's pack, shuffled: its size set by the players still in the match."""
    # A match won by the last player with chips has one player left, for whom no pack is
    # given: the table's whole pack then (only a try after the end uses it).
    left = match.game.players - match.out.bit_count()
    cards = list(cards_of(match.game.pack(left if left >= 2 else None)))
    rng.shuffle(cards)
    return cards


def _first_dealer(match: MatchState, rng: random.Random) -> Candidates:
    """Chance, due to choose the first dealer, shuffles instead, or names a seat not there."""
    if match.phase_name != "first-dealer":
        return []
    return [(None, Shuffle(tuple(_pack(match, rng)))), (None, ChooseDealer(match.game.players))]


def _shuffle(match: MatchState, rng: random.Random) -> Candidates:
    if match.phase_name != "prepare" or not match.shuffle_next:
        return []
    return [(None, Cut(1)), (None, ChooseDealer(0))]


def _shuffle_pack(match: MatchState, rng: random.Random) -> Candidates:
    if match.phase_name != "prepare" or not match.shuffle_next:
        return []
    cards = _pack(match, rng)
    out: Candidates = [(None, Shuffle(tuple(cards[:-1])))]  # a card short
    outside = [c for c in range(52) if c not in cards]
    if outside:
        out.append((None, Shuffle((rng.choice(outside), *cards[1:]))))
    return out


def _cut(match: MatchState, rng: random.Random) -> Candidates:
    if match.phase_name != "prepare" or match.shuffle_next:
        return []
    return [(None, Cut(len(match.pack))),
            (None, Shuffle(tuple(_pack(match, rng))))]


def _ante(match: MatchState, rng: random.Random) -> Candidates:
    if match.phase_name != "ante":
        return []
    seat = match.turn
    return [(seat, PASS), (seat, Bid(match.game.rules.bids[0].id))]


def _sit_out_last(match: MatchState, rng: random.Random) -> Candidates:
    if match.phase_name != "ante" or SIT_OUT in match.legal_actions():
        return []
    return [(match.turn, SIT_OUT)]


def _match_over(match: MatchState, rng: random.Random) -> Candidates:
    if not match.is_over():
        return []
    return [(None, Shuffle(tuple(_pack(match, rng)))), (0, PASS)]


BREACHES = (
    Breach("revoke", _revoke),
    Breach("not-held", _not_held),
    Breach("discard-not-held", _discard_not_held),
    Breach("buy-not-held", _buy_not_held),
    Breach("first-lead", _first_lead),
    Breach("bid-not-higher", _bid_not_higher),
    Breach("bid-prerequisite", _bid_prerequisite),
    Breach("dealer-passes-stuck", _dealer_passes_stuck),
    Breach("with-unseen", _with_unseen),
    Breach("unknown-bid", _unknown_bid),
    Breach("not-a-call", _not_a_call),
    Breach("out-of-turn", _out_of_turn),
    Breach("look", _look),
    Breach("look-no-chips", _look_no_chips, _broke),
    Breach("no-looks", _no_looks),
    Breach("exchange", _exchange),
    Breach("discard-taken", _discard_taken),
    Breach("naming-before-exchange", _naming_before_exchange),
    Breach("naming", _naming),
    Breach("naming-void", _naming_void),
    Breach("naming-one-suit", _naming_one_suit),
    Breach("buy", _buy),
    Breach("buy-limit", _buy_limit),
    Breach("deal", _deal),
    Breach("deal-first", _deal_first),
    Breach("reshuffle", _reshuffle),
    Breach("over", _over),
    Breach("thrown-in", _thrown_in),
    Breach("match-over", None, in_match=_match_over),
    Breach("first-dealer", None, in_match=_first_dealer),
    Breach("shuffle", None, in_match=_shuffle),
    Breach("shuffle-pack", None, in_match=_shuffle_pack),
    Breach("cut", None, in_match=_cut),
    Breach("ante", None, in_match=_ante),
    Breach("sit-out-last", None, in_match=_sit_out_last),
)
BREACH_BY_NAME = {b.name: b for b in BREACHES}


def all_bid_ids() -> list[str]:
    """Every bid id of every ruleset, under any options."""
    return list(_spec_tables()[1])


def possible(breach: Breach, game: Game) -> bool:
    """Whether a breach can occur at all in a game (else it is not tried): its rule is in
    force in the game's ruleset, and the game's parameters offer what the law book says the
    refusal needs."""
    return any(b.name == breach.name for b in possible_breaches(game))


def possible_breaches(game: Game) -> tuple[Breach, ...]:
    """Every breach that can occur in ``game`` (see :func:`possible`), worked out once per
    game, from the parameters the game resolved."""
    found = game.memo.get(_POSSIBLE)
    if found is None:
        # A house ruleset (napkit.spec) is its own object; a built-in one is found by id.
        ruleset = (game.ruleset if isinstance(game.ruleset, Ruleset)
                   else default_spec().rulesets[game.id])
        # The parameters the game resolved: ruleset.resolve(dict(game.options)).
        found = game.memo[_POSSIBLE] = _possible(ruleset, cast(JSONObject, game.params))
    return found


_POSSIBLE = ("conform.breaches", "possible")  # a key of Game.memo


def _possible(ruleset: Ruleset, params: JSONObject) -> tuple[Breach, ...]:
    """The breaches whose rule the ruleset has in force and whose needs ``params`` meet.

    A fuzzer plays a game of its own at nearly every episode, but games of a ruleset differ
    little in what the needs read. Parameters that Ruleset.resolve_kept gave (KeptParams,
    never changed) share each value with every game of the same choices of the options it
    reads: the answer is kept by the identity of the ruleset and of the top-level values the
    needs read, so that games differing only in options no need reads find it without the
    values being read whole (as text, that cost more than the answer kept saved). The objects
    are kept with the answer, so that no other takes their ids meanwhile: a key found is the
    same objects, and equal values that are other objects are only worked out again. Each
    need is kept so too, by the one value it reads (_meets). Other parameters, which their
    caller may change, are read afresh, as compile_rules reads them."""
    table, _, heads, head_of = _spec_tables()
    kept = type(params) is KeptParams
    if heads is None or not kept:
        return tuple(b for b, rule, needs in table if rule in ruleset.rules
                     and all(can_meet(params, need) for need in needs))
    read = tuple([params.get(head) for head in heads])
    key = (id(ruleset), *[id(value) for value in read])
    known = _KEPT.get(key)
    if known is not None and known[0] is table:
        return known[1]
    # can_meet reads the parameters whole only where they are a switch themselves (by_option
    # and cases are keys of theirs); else a need reads the one value at the head of its path.
    whole = "by_option" in params or "cases" in params
    found = tuple(b for b, rule, needs in table if rule in ruleset.rules
                  and all(can_meet(params, need) if whole else
                          _meets(params, need, head_of[need]) for need in needs))
    if len(_KEPT) >= POSSIBLE_KEPT:
        _KEPT.clear()
    _KEPT[key] = (table, found, ruleset, read)
    return found


def _meets(params: JSONObject, need: str, head: str) -> bool:
    """can_meet(params, need) where the need reads ``params[head]`` alone, kept by the need
    and that value's identity (as _possible keeps its answers): several refusals share a need,
    and games of one ruleset most values."""
    value = params.get(head)
    key = (need, id(value))
    known = _MET.get(key)
    if known is not None:
        return known[0]
    answer = can_meet(params, need)
    if len(_MET) >= POSSIBLE_KEPT:
        _MET.clear()
    _MET[key] = (answer, value)  # the value kept, so that no other takes its id meanwhile
    return answer


#: How many answers _possible and _meets keep, each: emptied when full, so that a campaign's
#: memory stays flat.
POSSIBLE_KEPT = 4096

# _possible's answers by the ids of the ruleset and of the values read, with the spec's table
# they were found with and the objects whose ids the key holds (fill-once and pure: threads
# may fill one at once, each alike).
_KEPT: dict[tuple[int, ...], tuple[object, tuple[Breach, ...], Ruleset, tuple[object, ...]]] = {}
# _meets's answers by the need and the id of the value it read, with that value (the same).
_MET: dict[tuple[str, int], tuple[bool, object]] = {}

BreachNeeds = tuple[tuple[Breach, str, tuple[str, ...]], ...]
SpecTables = tuple[BreachNeeds, tuple[str, ...], tuple[str, ...] | None, dict[str, str]]


def _spec_tables() -> SpecTables:
    """What the spec says of the breaches, read once per spec loaded: each breach with the id
    of its rule and its refusal's needs; every bid id of every ruleset, sorted; the top-level
    parameters the needs read (None if a need cannot be read: can_meet will say so); the one
    each need read reads, by need (those that can be read)."""
    spec = default_spec()
    loaded, tables = _TABLES
    if loaded is not spec:
        bid_ids: set[str] = set()
        for ruleset in spec.rulesets.values():
            bids = ruleset.params.get("bids")
            for bid in bids if isinstance(bids, list) else []:
                ident = bid.get("id") if isinstance(bid, dict) else None
                if isinstance(ident, str):
                    bid_ids.add(ident)
        needs = tuple((b, b.rule, b.refusal.needs) for b in BREACHES)
        # can_meet walks the parameters from the head of a need's path (the whole of them is
        # looked at only to see whether it is a switch itself: by_option and cases).
        heads: set[str] | None = {"by_option", "cases"}
        head_of: dict[str, str] = {}
        for _, _, wanted in needs:
            for need in wanted:
                match = NEED.match(need)
                if match is None or heads is None:
                    heads = None
                    continue
                head_of[need] = match.group(2).split(".")[0].removesuffix("[*]")
                heads.add(head_of[need])
        tables = (needs, tuple(sorted(bid_ids)), None if heads is None else tuple(sorted(heads)),
                  head_of)
        _set_tables(spec, tables)
    return tables


def _set_tables(spec: object, tables: SpecTables) -> None:
    global _TABLES  # noqa: PLW0603
    _TABLES = (spec, tables)  # one store: a thread reads the old pair or this one, whole


_TABLES: tuple[object, SpecTables] = (None, ((), (), None, {}))
