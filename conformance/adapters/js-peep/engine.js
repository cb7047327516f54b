'use strict';
// Peep Nap (ruleset `peep`, source 001) from the law book, written from spec/ alone.
// Each function names the law-book rules it implements.

// ------------------------------------------------------------------ refusals' rule ids
// NAP-1.3 (acting): a refusal names the first rule broken in the order of NAP-1.3.4:
// (1) NAP-1.3.3 nothing after the end, (2) NAP-1.3.1 only the player to act, (3) the phase's
// rule for the kind of action due, (4) NAP-1.3.2 only one's own cards, (5) the phase's others.
const RULE = {
  outOfTurn: 'NAP-1.3.1',
  notHeld: 'NAP-1.3.2',
  over: 'NAP-1.3.3',
};

class Refusal extends Error {
  constructor(rule, reason) { super(reason); this.rule = rule; this.reason = reason; }
}
function refuse(rule, reason) { throw new Refusal(rule, reason); }

// ------------------------------------------------------------------ cards (NAP-2.1.1)
const SUITS = ['S', 'H', 'D', 'C'];
const SUIT_NAME = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const NAME_SUIT = { spades: 'S', hearts: 'H', diamonds: 'D', clubs: 'C' };
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const RANK_VALUE = Object.fromEntries(RANKS.map((r, k) => [r, k + 2]));

// Parse a card string ('10H', 'TH', 'AS'); null when it is not a card.
function parseCard(s) {
  if (typeof s !== 'string') return null;
  const m = /^(10|[2-9TJQKA])([SHDC])$/.exec(s);
  if (!m) return null;
  const rank = m[1] === 'T' ? '10' : m[1];
  return rank + m[2];
}
const suitOf = (c) => c[c.length - 1];
const rankOf = (c) => c.slice(0, -1);
const valueOf = (c) => RANK_VALUE[rankOf(c)];

// NAP-2.2.1: peep's pack table gives lowest rank 2 for every table: the full 52 cards.
function fullPack() {
  const p = [];
  for (const s of SUITS) for (const r of RANKS) p.push(r + s);
  return p;
}
const PACK = new Set(fullPack());

// ------------------------------------------------------------------ the ruleset, resolved
// spec/rulesets/peep.json with its options (decision options DEC-010..DEC-021).
const OPTIONS = {
  'lowest-bid': ['one', 'two', 'three'],                      // DEC-010
  'auction': ['single', 'until-passes'],                       // DEC-011
  'sit-out': ['everyone', 'may-sit-out'],                      // DEC-012
  'packets': ['2-3', '3-2'],                                   // DEC-013
  'naming': ['held-suit', 'any-suit'],                         // DEC-015
  'pot-doubling': ['bidder-matches-pool', 'players-re-ante'],  // DEC-017
  'throw-in': ['redeal-with-ante', 'redeal-without-ante'],     // DEC-018
  'short-payment': ['pay-what-you-have', 'debt'],              // DEC-019
  'pot-at-end': ['unclaimed', 'split-equally'],                // DEC-021
};
const PLAYERS = [2, 3, 4, 5, 6, 7, 8, 9, 10];

function resolve(options) {
  const o = {};
  for (const [name, choices] of Object.entries(OPTIONS)) o[name] = choices[0];
  for (const [name, choice] of Object.entries(options || {})) {
    if (!(name in OPTIONS)) throw new Error(`$.options.${name}: peep has no option ${JSON.stringify(name)}`);
    if (!OPTIONS[name].includes(choice)) throw new Error(`$.options.${name}: ${JSON.stringify(choice)} is not a choice of ${name}`);
    o[name] = choice;
  }
  const allBids = [
    { id: 'one', tricks: 1, win: 1, lose: 1, when: ['one'] },
    { id: 'two', tricks: 2, win: 2, lose: 2, when: ['one', 'two'] },
    { id: 'three', tricks: 3, win: 3, lose: 3 },
    { id: 'four', tricks: 4, win: 4, lose: 4 },
    { id: 'nap', tricks: 5, win: 5, lose: 5, winPool: true, doublePool: true },
  ];
  return {
    options: o,
    packets: o.packets === '2-3' ? [2, 3] : [3, 2],           // NAP-4.2.2
    ante: 1,                                                   // NAP-10.3.1 ante.amount
    anteOnRedeal: o['throw-in'] === 'redeal-with-ante',        // ante.on_redeal
    sitOut: o['sit-out'] === 'may-sit-out',                    // ante.sit_out
    doubling: o['pot-doubling'],                               // pool.doubling
    atMatchEnd: o['pot-at-end'],                               // pool.at_match_end
    rounds: o.auction,                                         // auction.rounds
    peekCost: 1,                                               // peek.cost (dealer: pays)
    voidSuit: o.naming === 'any-suit',                         // naming.void_suit
    bids: allBids.filter((b) => !b.when || b.when.includes(o['lowest-bid'])),   // NAP-5.2.2
    bankroll: 20,                                              // match.bankroll.start
    shortPayment: o['short-payment'],                          // match.bankroll.short_payment
  };
}

// ------------------------------------------------------------------ a hand
class Hand {
  // start: {players, dealer, seats, pool, funds, stakes}
  constructor(rs, start) {
    this.rs = rs;
    this.players = start.players;
    this.dealer = start.dealer;
    // NAP-1.2.1, NAP-4.2.2: clockwise is increasing seat number; the order of the hand runs
    // from the dealer's left and ends with the dealer.
    const n = this.players;
    this.order = [...start.seats].sort((a, b) => ((a - this.dealer - 1 + 2 * n) % n) - ((b - this.dealer - 1 + 2 * n) % n));
    this.pool = start.pool;
    this.funds = start.funds ? [...start.funds] : null;
    this.stakes = start.stakes;
    this.net = new Array(n).fill(0);
    this.payments = [];
    this.phase = 'deal';
    this.thrownIn = false;
  }

  inHand(seat) { return this.order.includes(seat); }
  next(seat) { const k = this.order.indexOf(seat); return this.order[(k + 1) % this.order.length]; }
  // The others, clockwise from `seat`'s left.
  othersFrom(seat) {
    const k = this.order.indexOf(seat);
    const out = [];
    for (let j = 1; j < this.order.length; j++) out.push(this.order[(k + j) % this.order.length]);
    return out;
  }
  shortPay() { return this.funds !== null && this.rs.shortPayment === 'pay-what-you-have'; }

  turn() {
    if (this.phase === 'over') return 'over';
    if (this.phase === 'deal') return 'chance';
    return this.toAct;
  }

  // ---------------------------------------------------------------- the deal (NAP-4.2, NAP-4.3)
  deal(pack) {
    // NAP-2.2.1: the pack for the table is the full 52; every card once.
    if (!Array.isArray(pack)) refuse('NAP-2.2.1', 'the deal needs a pack');
    const cards = pack.map(parseCard);
    if (cards.some((c) => c === null)) refuse('NAP-2.2.1', 'the pack holds something that is not a card');
    const seen = new Set(cards);
    if (cards.length !== 52 || seen.size !== 52 || [...seen].some((c) => !PACK.has(c))) {
      refuse('NAP-2.2.1', `the pack for ${this.players} players is the 52 cards, each once; got ${cards.length} cards, ${seen.size} different`);
    }
    this.hands = {};
    for (const s of this.order) this.hands[s] = [];
    let k = 0;
    for (const size of this.rs.packets) {            // NAP-4.2.2 packets
      for (const s of this.order) {
        for (let j = 0; j < size; j++) this.hands[s].push(cards[k++]);
      }
    }
    this.widow = cards[k++];                         // NAP-4.3.1: widow dealt after the hands
    this.stock = cards.slice(k);                     // NAP-4.2.3
    this.seen = new Set();                           // who has seen the widow (NAP-4.3.2)
    // NAP-5.1.1: the auction begins on the dealer's left
    this.phase = 'auction';
    this.passed = new Set();
    this.spoken = new Set();
    this.high = -1;
    this.highBidder = null;
    this.bidsMade = [];
    this.toAct = this.order[0];
    this.speakIndex = 0;
  }

  // ---------------------------------------------------------------- legal actions
  legal() {
    const seat = this.toAct;
    switch (this.phase) {
      case 'auction': {
        const acts = [];
        if (this.canPeek(seat)) acts.push({ type: 'peek' });
        acts.push({ type: 'pass' });
        for (let b = this.high + 1; b < this.rs.bids.length; b++) acts.push({ type: 'bid', bid: this.rs.bids[b].id });
        return acts;
      }
      case 'exchange': return [{ type: 'take-widow' }, { type: 'leave-widow' }];
      case 'discard': return this.hands[seat].map((c) => ({ type: 'discard', card: c }));
      case 'name': return this.nameable(seat).map((s) => ({ type: 'name-trumps', suit: SUIT_NAME[s] }));
      case 'play': return this.playable(seat).map((c) => ({ type: 'play', card: c }));
      default: return [];
    }
  }

  // NAP-6.1.1: a paid look, once, by one who has not seen the widow. Only where players pay
  // what they have (NAP-9.5.1) must they be able to pay for it; under debt a look may be
  // bought whatever the balance (NAP-6.1.1 as revised, DEC-019).
  canPeek(seat) {
    if (this.seen.has(seat)) return false;
    if (this.shortPay() && this.funds[seat] < this.rs.peekCost) return false;
    return true;
  }
  // NAP-7.1.2 with naming.void_suit
  nameable(seat) {
    if (this.rs.voidSuit) return [...SUITS];
    return SUITS.filter((s) => this.hands[seat].some((c) => suitOf(c) === s));
  }
  playable(seat) {
    const hand = this.hands[seat];
    if (this.trick.length === 0) {
      if (this.tricks.length === 0 && seat === this.declarer) {
        // NAP-7.2.2 lead: trump; NAP-7.2.4 the obligation lapses with no trump
        const trumps = hand.filter((c) => suitOf(c) === this.trumps);
        if (trumps.length) return trumps;
      }
      return [...hand];                              // NAP-8.1.3
    }
    const led = suitOf(this.trick[0].card);
    const follow = hand.filter((c) => suitOf(c) === led);   // NAP-8.1.1
    return follow.length ? follow : [...hand];              // NAP-8.1.2
  }

  // ---------------------------------------------------------------- apply
  apply(seat, action) {
    const t = action.type;
    if (this.phase === 'over') {
      if (this.thrownIn) refuse(RULE.over, 'the hand was thrown in (NAP-5.3.2): nothing is taken in it');
      refuse(RULE.over, 'the hand is over: all five tricks have been played');
    }
    if (seat === null) {
      if (this.phase !== 'deal') refuse(RULE.outOfTurn, `it is seat ${this.toAct}'s turn, not chance's`);
      if (t !== 'deal') refuse('NAP-4.2.2', `chance is to deal, not ${t}`);
      return this.deal(action.pack);
    }
    if (this.phase === 'deal') refuse(RULE.outOfTurn, `it is chance's turn (the deal), not seat ${seat}'s`);
    if (seat !== this.toAct) refuse(RULE.outOfTurn, `it is seat ${this.toAct}'s turn, not seat ${seat}'s`);
    // A chance-type action (deal, shuffle ...) sent by the player to act breaks no part of
    // NAP-1.3.1 (the actor is the player to act, not chance): by NAP-1.3.4 (3) it is refused
    // under the phase's rule for the kind of action due, in the phase handlers below.
    switch (this.phase) {
      case 'auction': return this.applyAuction(seat, action);
      case 'exchange': return this.applyExchange(seat, action);
      case 'discard': return this.applyDiscard(seat, action);
      case 'name': return this.applyName(seat, action);
      case 'play': return this.applyPlay(seat, action);
    }
    // Unreachable: every phase is handled above. An internal error, never a refusal without a rule.
    throw new Error(`internal: no phase ${this.phase}`);
  }

  // NAP-5.1.1, NAP-5.1.2, NAP-5.2.1, NAP-5.2.2, NAP-6.1.1
  applyAuction(seat, action) {
    const t = action.type;
    if (t === 'peek') {
      if (this.seen.has(seat)) refuse('NAP-6.1.1', `seat ${seat} has already seen the widow`);
      if (this.shortPay() && this.funds[seat] < this.rs.peekCost) refuse('NAP-6.1.1', `seat ${seat} cannot pay ${this.rs.peekCost} for a look`);
      this.seen.add(seat);
      this.pay(seat, 'pool', this.rs.peekCost, 'NAP-6.1.1');
      return;
    }
    if (t === 'bid') {
      const k = this.rs.bids.findIndex((b) => b.id === action.bid);
      if (k < 0) refuse('NAP-5.2.2', `${JSON.stringify(action.bid)} is not a bid of this game`);
      if (k <= this.high) refuse('NAP-5.2.1', `${action.bid} does not rank above ${this.rs.bids[this.high].id}`);
      this.high = k;
      this.highBidder = seat;
      this.bidsMade.push(action.bid);
    } else if (t === 'pass') {
      this.passed.add(seat);
    } else {
      refuse('NAP-5.2.1', `seat ${seat} is to pass or bid, not ${t}`);
    }
    this.spoken.add(seat);
    this.advanceAuction(seat);
  }

  advanceAuction(seat) {
    if (this.rs.rounds === 'single') {
      this.speakIndex++;
      if (this.speakIndex >= this.order.length) return this.endAuction();
      this.toAct = this.order[this.speakIndex];
      return;
    }
    // until-passes (NAP-5.1.2)
    const others = this.order.filter((s) => s !== this.highBidder);
    if (this.highBidder !== null && others.every((s) => this.passed.has(s))) return this.endAuction();
    if (this.highBidder === null && this.order.every((s) => this.passed.has(s))) return this.endAuction();
    let s = this.next(seat);
    while (this.passed.has(s)) s = this.next(s);
    this.toAct = s;
  }

  // NAP-5.3.1, NAP-5.3.2
  endAuction() {
    if (this.highBidder === null) {
      this.thrownIn = true;
      this.phase = 'over';
      return;
    }
    this.declarer = this.highBidder;
    this.contract = this.rs.bids[this.high];
    this.toAct = this.declarer;
    this.phase = 'exchange';                         // NAP-6.3.1 exchange.when any-contract
  }

  // NAP-6.3.1 (take: may)
  applyExchange(seat, action) {
    if (action.type === 'take-widow') {
      this.hands[seat].push(this.widow);
      this.seen.add(seat);
      this.widow = null;
      this.phase = 'discard';
      return;
    }
    if (action.type === 'leave-widow') {
      this.phase = 'name';                           // NAP-6.3.2: exchange first, then trumps
      return;
    }
    if (action.type === 'name-trumps') refuse('NAP-6.3.2', 'trumps are named after the exchange: take or leave the widow first');
    refuse('NAP-6.3.1', `the declarer is to take the widow or leave it, not ${action.type}`);
  }
  applyDiscard(seat, action) {
    if (action.type === 'name-trumps') refuse('NAP-6.3.2', 'trumps are named after the exchange: discard first');
    if (action.type !== 'discard') refuse('NAP-6.3.1', `the declarer is to discard a card after taking the widow, not ${action.type}`);
    const c = parseCard(action.card);
    const k = this.hands[seat].indexOf(c);
    if (k < 0) refuse(RULE.notHeld, `seat ${seat} does not hold ${action.card}`);
    this.hands[seat].splice(k, 1);
    this.discarded = c;                              // NAP-4.2.3: face down, out of the hand
    this.phase = 'name';
  }
  // NAP-7.1.2
  applyName(seat, action) {
    if (action.type !== 'name-trumps') refuse('NAP-7.1.2', `the declarer is to name trumps before leading, not ${action.type}`);
    const s = NAME_SUIT[action.suit];
    if (!this.nameable(seat).includes(s)) refuse('NAP-7.1.2', `seat ${seat} holds no ${action.suit} and may only name a suit they hold`);
    this.trumps = s;
    this.phase = 'play';
    this.trick = [];
    this.tricks = [];
    this.toAct = this.declarer;                      // NAP-7.2.1
  }

  // NAP-7.2.2, NAP-7.2.4, NAP-8.1.x, NAP-8.2.1, NAP-8.3.x
  applyPlay(seat, action) {
    if (action.type !== 'play') {
      const rule = this.trick.length ? 'NAP-8.1.1' : this.tricks.length ? 'NAP-8.1.3' : 'NAP-7.2.1';
      refuse(rule, `seat ${seat} is to play a card, not ${action.type}`);
    }
    const c = parseCard(action.card);
    const hand = this.hands[seat];
    if (!hand.includes(c)) refuse(RULE.notHeld, `seat ${seat} does not hold ${action.card}`);
    if (!this.playable(seat).includes(c)) {
      if (this.trick.length === 0) refuse('NAP-7.2.2', `the first lead must be a trump (${SUIT_NAME[this.trumps]})`);
      refuse('NAP-8.1.1', `seat ${seat} must follow ${SUIT_NAME[suitOf(this.trick[0].card)]}`);
    }
    hand.splice(hand.indexOf(c), 1);
    this.trick.push({ seat, card: c });
    if (this.trick.length < this.order.length) {
      this.toAct = this.next(seat);
      return;
    }
    const winner = this.trickWinner(this.trick);
    this.tricks.push({ leader: this.trick[0].seat, winner, cards: this.trick.map((p) => p.card) });
    this.trick = [];
    this.toAct = winner;                             // NAP-8.1.3
    if (this.tricks.length === 5) this.settle();     // NAP-8.3.1
  }
  trickWinner(trick) {
    const led = suitOf(trick[0].card);
    let best = trick[0];
    for (const p of trick.slice(1)) {
      const ps = suitOf(p.card), bs = suitOf(best.card);
      if (ps === this.trumps && bs !== this.trumps) best = p;
      else if (ps === bs && valueOf(p.card) > valueOf(best.card) && (ps === led || ps === this.trumps)) best = p;
    }
    return best.seat;
  }

  // ---------------------------------------------------------------- settlement (NAP-9)
  // Record one payment as is (no limit).
  pay(payer, payee, amount, rule) {
    if (amount <= 0) return;
    if (payer === 'pool') this.pool -= amount; else { this.net[payer] -= amount; if (this.funds) this.funds[payer] -= amount; }
    if (payee === 'pool') this.pool += amount; else { this.net[payee] += amount; if (this.funds) this.funds[payee] += amount; }
    this.payments.push({ payer, payee, amount, rule });
  }
  // NAP-9.5.1: one payer's debts [{payee, amount, rule}], paid in full, or (pay what you
  // have) one unit at a time to the payees in turn clockwise from the payer's left, the pool
  // after the players in each round, until the payer has nothing left.
  payDebts(payer, debts) {
    if (!this.shortPay()) {
      for (const d of debts) this.pay(payer, d.payee, d.amount, d.rule);
      return;
    }
    const clockwise = this.othersFrom(payer);
    const sorted = [...debts].sort((a, b) => rank(a.payee) - rank(b.payee));
    function rank(p) { return p === 'pool' ? 1000 : clockwise.indexOf(p); }
    const left = sorted.map((d) => d.amount);
    const paid = sorted.map(() => 0);
    let have = Math.max(0, this.funds[payer]);
    while (have > 0 && left.some((x) => x > 0)) {
      for (let k = 0; k < sorted.length && have > 0; k++) {
        if (left[k] > 0) { left[k]--; paid[k]++; have--; }
      }
    }
    for (let k = 0; k < sorted.length; k++) this.pay(payer, sorted[k].payee, paid[k], sorted[k].rule);
  }
  settle() {
    const bid = this.contract;
    const d = this.declarer;
    this.declarerTricks = this.tricks.filter((t) => t.winner === d).length;   // NAP-3.2.1
    this.made = this.declarerTricks >= bid.tricks;                             // NAP-8.3.2
    const opps = this.othersFrom(d);
    if (this.made) {
      for (const o of opps) this.payDebts(o, [{ payee: d, amount: bid.win * this.stakes, rule: 'NAP-9.1.1' }]);
      if (bid.winPool && this.pool > 0) this.pay('pool', d, this.pool, 'NAP-9.1.2');
    } else {
      const poolAtSettlement = this.pool;
      const debts = opps.map((o) => ({ payee: o, amount: bid.lose * this.stakes, rule: 'NAP-9.2.1' }));
      if (bid.doublePool && this.rs.doubling === 'bidder-matches-pool' && poolAtSettlement > 0) {
        debts.push({ payee: 'pool', amount: poolAtSettlement, rule: 'NAP-9.2.3' });
      }
      if (bid.doublePool && this.rs.doubling === 'players-re-ante') {
        debts.push({ payee: 'pool', amount: this.rs.ante, rule: 'NAP-9.2.3' });
        this.payDebts(d, debts);
        for (const o of opps) this.payDebts(o, [{ payee: 'pool', amount: this.rs.ante, rule: 'NAP-9.2.3' }]);
      } else {
        this.payDebts(d, debts);
      }
    }
    this.phase = 'over';
  }

  outcome() {
    if (this.phase !== 'over') return null;
    if (this.thrownIn) {
      return { thrown_in: true, declarer: null, contract: null, declarer_tricks: 0, made: null,
        trick_winners: [], payments: this.payments, pool: this.pool, net: this.net, tricks: [] };
    }
    return {
      thrown_in: false, declarer: this.declarer, contract: this.contract.id,
      declarer_tricks: this.declarerTricks, made: this.made,
      trick_winners: this.tricks.map((t) => t.winner), payments: this.payments,
      pool: this.pool, net: this.net, tricks: this.tricks,
    };
  }
}

// ------------------------------------------------------------------ a match (NAP-10)
class Match {
  constructor(rs, start) {
    this.rs = rs;
    this.players = start.players;
    this.limit = start.hands;                        // NAP-10.4.1 agreed hands (or null)
    const chips = start.chips === null || start.chips === undefined ? rs.bankroll : start.chips;  // NAP-10.1.2
    this.balances = new Array(this.players).fill(chips);
    this.inMatch = new Set([...Array(this.players).keys()]);
    this.out = [];
    this.pool = 0;
    this.handsPlayed = 0;
    this.phase = 'choose-dealer';                    // NAP-4.1.1
    this.dealer = null;
    this.lastThrownIn = false;
    this.lastSeats = null;
    this.hand = null;
  }
  debt() { return this.rs.shortPayment === 'debt'; }
  clockwiseFrom(seat, set) {
    // seats of `set`, clockwise from seat's left
    const out = [];
    for (let j = 1; j <= this.players; j++) {
      const s = (seat + j) % this.players;
      if (set.has(s)) out.push(s);
    }
    return out;
  }

  turn() {
    switch (this.phase) {
      case 'over': return 'over';
      case 'choose-dealer': case 'shuffle': return 'chance';
      case 'ante': return this.anteOrder[this.anteIndex];
      case 'hand': return this.hand.turn();
    }
  }
  legal() {
    if (this.phase === 'ante') {
      const acts = [{ type: 'ante' }];
      if (this.maySitOut()) acts.push({ type: 'sit-out' });
      return acts;
    }
    if (this.phase === 'hand') return this.hand.legal();
    return [];
  }
  // NAP-10.3.1: a player may not sit out where that would leave fewer than two to ante.
  maySitOut() {
    const after = this.anteOrder.length - this.anteIndex - 1;
    return this.anted.length + after >= 2;
  }

  apply(seat, action) {
    const t = action.type;
    if (this.phase === 'over') refuse(RULE.over, 'the match is over');
    if (this.phase === 'hand') return this.applyHand(seat, action);
    if (this.phase === 'choose-dealer' || this.phase === 'shuffle') {
      if (seat !== null) refuse(RULE.outOfTurn, `it is chance's turn (${this.phase}), not seat ${seat}'s`);
      if (this.phase === 'choose-dealer') {
        if (t !== 'choose-dealer') refuse('NAP-4.1.1', `the first dealer must be chosen first, not ${t}`);
        if (!this.inMatch.has(action.seat)) refuse('NAP-4.1.1', `there is no seat ${action.seat} at this table`);
        this.dealer = action.seat;
        this.phase = 'shuffle';
        return;
      }
      // NAP-10.2.1, NAP-10.2.3: peep shuffles before every deal
      if (t !== 'shuffle') refuse('NAP-10.2.1', `the pack is shuffled before every deal in this game, not ${t}`);
      const cards = (action.pack || []).map(parseCard);
      const set = new Set(cards);
      if (cards.some((c) => c === null) || cards.length !== 52 || set.size !== 52) refuse('NAP-2.2.1', 'the pack is the 52 cards, each once');
      this.pack = action.pack;
      return this.startAntes();
    }
    if (this.phase === 'ante') {
      const who = this.anteOrder[this.anteIndex];
      if (seat !== who) refuse(RULE.outOfTurn, seat === null ? `it is seat ${who}'s turn to ante, not chance's` : `it is seat ${who}'s turn to ante, not seat ${seat}'s`);
      if (t === 'ante') {
        this.payAnte(seat);
        this.anted.push(seat);
      } else if (t === 'sit-out') {
        if (!this.maySitOut()) refuse('NAP-10.3.1', 'a player may not sit out where that would leave fewer than two to ante');
      } else {
        refuse('NAP-10.3.1', `seat ${seat} is to ante or sit out, not ${t}`);
      }
      this.anteIndex++;
      if (this.anteIndex >= this.anteOrder.length) this.startHand(this.anted);
    }
  }

  // NAP-10.3.1 antes; NAP-10.4.2 a player who cannot pay it in full pays what they have.
  payAnte(seat) {
    let amount = this.rs.ante;
    if (!this.debt()) amount = Math.min(amount, Math.max(0, this.balances[seat]));
    this.balances[seat] -= amount;
    this.pool += amount;
  }
  startAntes() {
    const fresh = !(this.lastThrownIn && !this.rs.anteOnRedeal);
    if (!fresh) {
      let seats = this.lastSeats.filter((s) => this.inMatch.has(s));
      if (seats.length < 2) seats = [...this.inMatch];
      return this.startHand(seats);
    }
    const order = this.clockwiseFrom(this.dealer, this.inMatch);
    if (this.rs.sitOut) {
      this.phase = 'ante';
      this.anteOrder = order;
      this.anteIndex = 0;
      this.anted = [];
      return;
    }
    for (const s of order) this.payAnte(s);
    return this.startHand(order);
  }
  startHand(seats) {
    this.hand = new Hand(this.rs, {
      players: this.players, dealer: this.dealer, seats: [...seats].sort((a, b) => a - b),
      pool: this.pool, funds: [...this.balances], stakes: 1,
    });
    this.hand.deal(this.pack);
    this.phase = 'hand';
  }
  applyHand(seat, action) {
    this.hand.apply(seat, action);
    if (this.hand.phase !== 'over') return;
    // the hand is settled: carry balances and the pool (NAP-9.3.1)
    this.balances = this.hand.funds;
    this.pool = this.hand.pool;
    this.handsPlayed++;
    this.lastThrownIn = this.hand.thrownIn;
    this.lastSeats = this.hand.order;
    // NAP-10.4.2 knocked out
    if (!this.debt()) {
      for (const s of [...this.inMatch]) {
        if (this.balances[s] <= 0) { this.inMatch.delete(s); this.out.push(s); }
      }
    }
    // NAP-10.4.1 last-with-chips-or-agreed-hands
    const byHands = this.limit !== null && this.limit !== undefined && this.handsPlayed >= this.limit;
    const byChips = !this.debt() && this.inMatch.size <= 1;
    if (byHands || byChips) return this.end(byChips);
    // NAP-4.1.2, NAP-10.4.2: the deal passes to the left among those still in
    this.dealer = this.clockwiseFrom(this.dealer, this.inMatch)[0];
    this.phase = 'shuffle';
  }
  end(byChips) {
    // NAP-9.3.2 the pot at match end
    if (this.rs.atMatchEnd === 'split-equally' && this.inMatch.size > 0 && this.pool > 0) {
      const share = Math.floor(this.pool / this.inMatch.size);
      for (const s of this.inMatch) this.balances[s] += share;
      this.pool -= share * this.inMatch.size;
    }
    // NAP-10.4.3 the winner(s)
    if (byChips && this.inMatch.size === 1) this.winners = [...this.inMatch];
    else {
      const pool = this.inMatch.size ? [...this.inMatch] : [...Array(this.players).keys()];
      const best = Math.max(...pool.map((s) => this.balances[s]));
      this.winners = pool.filter((s) => this.balances[s] === best).sort((a, b) => a - b);
    }
    this.phase = 'over';
  }
  outcome() {
    if (this.phase !== 'over') return null;
    return { balances: this.balances, pool: this.pool, winners: this.winners, hands: this.handsPlayed,
      out: [...this.out].sort((a, b) => a - b) };
  }
}

module.exports = { Hand, Match, Refusal, resolve, OPTIONS, PLAYERS, parseCard, RULE, SUIT_NAME };
