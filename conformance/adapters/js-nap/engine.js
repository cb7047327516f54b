'use strict';
// A data-driven Nap engine: every behaviour hangs on a resolved ruleset's parameters
// (ruleset.js). Written from spec/ alone. Each function names the law-book rules it implements.

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
function parseCard(s) {
  if (typeof s !== 'string') return null;
  const m = /^(10|[2-9TJQKA])([SHDC])$/.exec(s);
  if (!m) return null;
  return (m[1] === 'T' ? '10' : m[1]) + m[2];
}
const suitOf = (c) => c[c.length - 1];
const rankOf = (c) => c.slice(0, -1);
const valueOf = (c) => RANK_VALUE[rankOf(c)];
// Card order of NAP-10.2.2: spades, hearts, diamonds, clubs, each from the two up to the ace.
const cardOrder = (a, b) => (SUITS.indexOf(suitOf(a)) - SUITS.indexOf(suitOf(b))) || (valueOf(a) - valueOf(b));

// NAP-2.2.1: the pack for a number of players, from the ruleset's pack table.
function packFor(p, n) {
  const entry = p.pack.find((e) => e.players.includes(n));
  if (!entry) return null;
  const low = RANK_VALUE[entry.lowest_rank];
  const out = [];
  for (const s of SUITS) for (const r of RANKS) if (RANK_VALUE[r] >= low) out.push(r + s);
  return out;
}
// NAP-2.2.1 refusals `deal`, `shuffle-pack`: the pack must be exactly the pack, each card once.
function checkPack(p, n, pack, what) {
  const want = packFor(p, n);
  if (!Array.isArray(pack)) refuse('NAP-2.2.1', `${what} needs a pack`);
  const cards = pack.map(parseCard);
  const set = new Set(cards);
  const wantSet = new Set(want);
  if (cards.some((c) => c === null || !wantSet.has(c)) || set.size !== cards.length || cards.length !== want.length) {
    refuse('NAP-2.2.1', `${what}: the pack for ${n} players is ${want.length} cards (ace down to ${rankOf(want[want.length - 1])}), each once`);
  }
  return cards;
}

// The subsets of a list (for the purchases' legal actions), each in the list's order.
function subsets(list) {
  const out = [];
  for (let m = 0; m < (1 << list.length); m++) out.push(list.filter((_, k) => m & (1 << k)));
  return out;
}

// A shuffled copy (chance events a program makes itself, conformance.md 2.5).
function shuffled(list) {
  const a = [...list];
  for (let k = a.length - 1; k > 0; k--) { const j = Math.floor(Math.random() * (k + 1)); [a[k], a[j]] = [a[j], a[k]]; }
  return a;
}

// ------------------------------------------------------------------ a hand
class Hand {
  // NAP-4.2.2, NAP-6.2.2: chance's next event, drawn at random.
  chanceEvent() {
    if (this.phase === 'deal') return { type: 'deal', pack: shuffled(packFor(this.p, this.packPlayers)) };
    return { type: 'reshuffle', stock: shuffled(this.discards) };
  }
  // rs: {id, options, p}; start: {players, dealer, seats, pool, funds, stakes}
  constructor(rs, start) {
    this.rs = rs;
    this.p = rs.p;
    this.players = start.players;
    this.dealer = start.dealer;
    const n = this.players;
    // NAP-1.2.1, NAP-4.2.2, NAP-5.1.1: the hand's order runs from the dealer's left to the dealer.
    const dist = (s) => (s - this.dealer - 1 + 2 * n) % n;
    this.order = [...start.seats].sort((a, b) => dist(a) - dist(b));
    this.pool = start.pool;
    this.funds = start.funds ? [...start.funds] : null;
    this.stakes = start.stakes;
    this.net = new Array(n).fill(0);
    this.score = new Array(n).fill(0);
    this.payments = [];
    this.phase = 'deal';
    this.thrownIn = false;
    // NAP-2.2.1: the pack is the one for the players at the table (conformance.md 2.4 `seats`).
    this.packPlayers = start.packPlayers || (this.funds === null ? n
      : [...Array(n).keys()].filter((s) => this.order.includes(s) || this.funds[s] > 0).length);
    this.discards = [];
  }

  // NAP-3.2.1, NAP-1.2.1: seats in the hand and clockwise order among them
  inHand(seat) { return this.order.includes(seat); }
  next(seat) { const k = this.order.indexOf(seat); return this.order[(k + 1) % this.order.length]; }
  othersFrom(seat) {
    const k = this.order.indexOf(seat);
    const out = [];
    for (let j = 1; j < this.order.length; j++) out.push(this.order[(k + j) % this.order.length]);
    return out;
  }
  // NAP-9.5.1: a fixed stock of chips where players pay only what they have.
  shortPay() {
    const b = this.p.match && this.p.match.bankroll;
    return this.funds !== null && (!b || b.short_payment !== 'debt');
  }
  pointsSheet() { return !!(this.p.scoring && this.p.scoring.sheet === 'points'); }

  // NAP-1.3.1: who is to act
  turn() {
    if (this.phase === 'over') return 'over';
    if (this.phase === 'deal' || this.phase === 'reshuffle') return 'chance';
    return this.toAct;
  }

  // ---------------------------------------------------------------- the deal
  // NAP-4.2.1, NAP-4.2.2 (packets), NAP-4.2.3 (stock), NAP-4.3.1 (widow), NAP-2.2.1 (pack)
  deal(pack) {
    const cards = checkPack(this.p, this.packPlayers, pack, 'the deal');
    this.hands = {};
    for (const s of this.order) this.hands[s] = [];
    let k = 0;
    this.widow = null;
    const w = this.p.widow;
    if (w && w.dealt === 'before-hands') this.widow = cards[k++];
    for (const size of this.p.packets) {
      for (const s of this.order) for (let j = 0; j < size; j++) this.hands[s].push(cards[k++]);
    }
    if (w && w.dealt !== 'before-hands') this.widow = cards[k++];
    this.stock = cards.slice(k);
    this.dealt = {};
    for (const s of this.order) this.dealt[s] = [...this.hands[s]];
    this.seen = new Set();
    // NAP-6.1.2: the dealer's free look
    if (this.widow && this.p.peek && this.p.peek.dealer === 'free' && this.inHand(this.dealer)) this.seen.add(this.dealer);
    if (this.p.purchase) {                            // NAP-6.2.1: purchases before the auction
      this.phase = 'purchase';
      this.buyIndex = 0;
      this.toAct = this.order[0];
      return;
    }
    this.startAuction();
  }

  // NAP-5.1.1: the auction begins on the dealer's left.
  startAuction() {
    this.phase = 'auction';
    this.passed = new Set();
    this.high = -1;
    this.highBidder = null;
    this.bidsMade = [];
    this.round = 1;
    this.speakIndex = 0;
    this.bidders1 = new Set();
    this.passRun = 0;
    this.toAct = this.order[0];
  }

  // ---------------------------------------------------------------- legal actions
  // Every action the player to act may take: NAP-6.2.1 (buy), NAP-5.2.1 (pass or bid),
  // NAP-6.1.1 (peek), NAP-5.3.3 (stuck), NAP-6.3.1 (exchange), NAP-7.1.2 (naming),
  // NAP-7.2.2 / NAP-8.1.1 / NAP-8.1.3 (play).
  legal() {
    const seat = this.toAct;
    switch (this.phase) {
      case 'purchase': return this.buyable(seat).map((cards) => ({ type: 'buy', cards }));
      case 'auction': {
        const acts = [];
        if (this.canPeek(seat)) acts.push({ type: 'peek' });
        if (!this.stuck(seat)) acts.push({ type: 'pass' });
        for (const b of this.biddable(seat)) acts.push({ type: 'bid', bid: b.id });
        return acts;
      }
      case 'exchange':
        return [{ type: 'take-widow' }, { type: 'leave-widow' }];
      case 'discard': return this.discardable(seat).map((c) => ({ type: 'discard', card: c }));
      case 'name': return this.nameable(seat).map((s) => ({ type: 'name-trumps', suit: SUIT_NAME[s] }));
      case 'play': return this.playable(seat).map((c) => ({ type: 'play', card: c }));
      default: return [];
    }
  }

  // ---------------------------------------------------------------- purchases (NAP-6.2)
  // NAP-6.2.1, NAP-6.2.2: what a player may discard to buy; [] is declining.
  canPay(seat, cost) { return !this.shortPay() || this.funds[seat] >= cost; }
  buyMax() {
    const ps = this.p.purchase;
    if (ps.short_stock === 'limit') return this.stock.length;
    return this.stock.length + this.discards.length;
  }
  buyable(seat) {
    if (!this.canPay(seat, this.p.purchase.cost)) return [[]];
    const hand = [...this.hands[seat]].sort(cardOrder);
    const max = this.buyMax();
    return subsets(hand).filter((s) => s.length <= max);
  }
  applyPurchase(seat, action) {
    if (action.type !== 'buy') refuse('NAP-6.2.1', `seat ${seat} is to buy cards or decline, not ${action.type}`);
    const cards = action.cards.map(parseCard);
    const hand = this.hands[seat];
    for (const c of cards) if (!hand.includes(c)) refuse('NAP-1.3.2', `seat ${seat} does not hold ${c}`);
    if (cards.length > 0) {
      if (!this.canPay(seat, this.p.purchase.cost)) refuse('NAP-6.2.1', `seat ${seat} cannot pay ${this.p.purchase.cost} for a purchase and may only decline`);
      if (cards.length > this.buyMax()) refuse('NAP-6.2.2', `the stock can replace at most ${this.buyMax()} cards`);
      this.pay(seat, 'pool', this.p.purchase.cost, 'NAP-6.2.1');
      this.hands[seat] = hand.filter((c) => !cards.includes(c));
      const fromStock = Math.min(cards.length, this.stock.length);
      this.hands[seat].push(...this.stock.splice(0, fromStock));
      if (fromStock < cards.length) {
        // NAP-6.2.2 reshuffle-discards: the earlier discards become a new stock (chance).
        // NAP-6.2.2, NAP-10.2.2: a purchase's cards go among the discards in card order.
        this.pendingBuy = { seat, need: cards.length - fromStock, discarded: [...cards].sort(cardOrder) };
        this.phase = 'reshuffle';
        return;
      }
      this.discards.push(...[...cards].sort(cardOrder)); // NAP-10.2.2: in card order
    }
    this.nextBuyer();
  }
  // NAP-6.2.2: chance's reshuffle of the discards into a new stock.
  applyReshuffle(action) {
    if (action.type !== 'reshuffle') refuse('NAP-6.2.2', `chance is to reshuffle the discards, not ${action.type}`);
    const st = action.stock.map(parseCard);
    const want = new Set(this.discards);
    if (st.length !== this.discards.length || new Set(st).size !== st.length || st.some((c) => !want.has(c))) {
      refuse('NAP-6.2.2', 'the new stock must be the discards of this hand before this purchase, each once');
    }
    this.stock = st;
    this.discards = [];
    const pb = this.pendingBuy;
    this.hands[pb.seat].push(...this.stock.splice(0, pb.need));
    this.discards.push(...pb.discarded);
    this.pendingBuy = null;
    this.phase = 'purchase';
    this.nextBuyer();
  }
  nextBuyer() {
    this.buyIndex++;
    if (this.buyIndex >= this.order.length) return this.startAuction();
    this.toAct = this.order[this.buyIndex];
  }

  // ---------------------------------------------------------------- the auction (NAP-5)
  // NAP-6.1.1: a paid look, once, where the ruleset sells them.
  canPeek(seat) {
    if (!this.p.peek || !this.widow) return false;
    if (this.seen.has(seat)) return false;
    if (this.shortPay() && this.funds[seat] < this.p.peek.cost) return false;
    return true;
  }
  // NAP-5.2.5: every group of `requires` met by a bid made earlier in this auction.
  requiresMet(b) {
    return (b.requires || []).every((g) => g.some((id) => this.bidsMade.includes(id)));
  }
  // NAP-5.2.4: seen-only keeps bids with the widow to those who have seen it.
  withAllowed(seat, b) {
    return !(b.widow === 'with' && this.p.peek && this.p.peek.with_bids === 'seen-only' && !this.seen.has(seat));
  }
  // NAP-5.2.1, NAP-5.2.2, NAP-5.2.4, NAP-5.2.5: the bids a player may make now.
  biddable(seat) {
    if (!this.maySpeakBid(seat)) return [];
    const out = [];
    for (let k = this.high + 1; k < this.p.bids.length; k++) {
      const b = this.p.bids[k];
      if (this.requiresMet(b) && this.withAllowed(seat, b)) out.push(b);
    }
    return out;
  }
  maySpeakBid() { return true; }
  // NAP-5.3.3: the dealer (or the last to speak) stuck when nobody has bid.
  stuck(seat) {
    const a = this.p.auction || {};
    if (!a.dealer_must_bid) return false;
    if (this.round !== 1 || this.highBidder !== null) return false;
    const last = this.order[this.order.length - 1];
    if (seat !== last) return false;
    if (!this.order.filter((s) => s !== last).every((s) => this.passed.has(s))) return false;
    return this.biddable(seat).length > 0;
  }
  applyAuction(seat, action) {
    const t = action.type;
    if (t === 'peek') {
      if (!this.p.peek || !this.widow) refuse('NAP-5.2.1', 'this game sells no looks at the widow');
      if (this.seen.has(seat)) refuse('NAP-6.1.1', `seat ${seat} has already seen the widow`);
      if (this.shortPay() && this.funds[seat] < this.p.peek.cost) refuse('NAP-6.1.1', `seat ${seat} cannot pay ${this.p.peek.cost} for a look`);
      this.seen.add(seat);
      this.pay(seat, 'pool', this.p.peek.cost, 'NAP-6.1.1');
      return;
    }
    if (t === 'bid') {
      const k = this.p.bids.findIndex((b) => b.id === action.bid);
      if (k < 0) refuse('NAP-5.2.2', `${JSON.stringify(action.bid)} is not a bid of this game`);
      const b = this.p.bids[k];
      if (k <= this.high) refuse('NAP-5.2.1', `${b.id} does not rank above ${this.p.bids[this.high].id}`);
      if (!this.withAllowed(seat, b)) refuse('NAP-5.2.4', `seat ${seat} has not seen the widow and may bid only without it`);
      if (!this.requiresMet(b)) refuse('NAP-5.2.5', `${b.id} needs an earlier bid of ${b.requires.map((g) => g.join(' or ')).join(' and ')}`);
      this.high = k;
      this.highBidder = seat;
      this.bidsMade.push(b.id);
      if (this.round === 1) this.bidders1.add(seat);
      this.passRun = 0;
    } else if (t === 'pass') {
      if (this.stuck(seat)) refuse('NAP-5.3.3', 'the dealer is stuck: nobody has bid, so the dealer must bid');
      this.passed.add(seat);
      this.passRun++;
    } else {
      refuse('NAP-5.2.1', `seat ${seat} is to pass or bid, not ${t}`);
    }
    this.advanceAuction(seat);
  }
  // NAP-5.1.2, NAP-5.4.1: who speaks next, and when the auction ends.
  advanceAuction(seat) {
    const rounds = (this.p.auction && this.p.auction.rounds) || 'single';
    const n = this.order.length;
    if (rounds === 'single' || rounds === 'single-then-raise') {
      this.speakIndex++;
      if (this.round === 1 && this.speakIndex >= n) {
        if (rounds === 'single' || this.highBidder === null) return this.endAuction();
        // NAP-5.4.1: the raising round
        this.round = 2;
        const who = this.p.auction.raising === 'everyone' ? null : this.bidders1;
        this.raisers = this.order.filter((s) => who === null || who.has(s));
        this.speakIndex = 0;
        if (this.raisers.length === 0) return this.endAuction();
        this.toAct = this.raisers[0];
        return;
      }
      if (this.round === 2) {
        if (this.speakIndex >= this.raisers.length) return this.endAuction();
        this.toAct = this.raisers[this.speakIndex];
        return;
      }
      this.toAct = this.order[this.speakIndex];
      return;
    }
    if (rounds === 'until-passes') {
      const others = this.order.filter((s) => s !== this.highBidder);
      if (this.highBidder !== null && others.every((s) => this.passed.has(s))) return this.endAuction();
      if (this.highBidder === null && this.order.every((s) => this.passed.has(s))) return this.endAuction();
      let s = this.next(seat);
      while (this.passed.has(s)) s = this.next(s);
      if (this.order.indexOf(s) <= this.order.indexOf(seat)) this.round++;
      this.toAct = s;
      return;
    }
    // reopening: round the table, everyone, until a full round of passes since the last bid.
    if (this.highBidder !== null && this.passRun >= n - 1) return this.endAuction();
    if (this.highBidder === null && this.passRun >= n) return this.endAuction();
    const s = this.next(seat);
    if (this.order.indexOf(s) <= this.order.indexOf(seat)) this.round++;
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
    this.contract = this.p.bids[this.high];
    this.toAct = this.declarer;
    // NAP-6.3.1: who is entitled to the exchange
    const ex = this.p.exchange;
    if (ex && this.widow && (ex.when === 'any-contract' || this.contract.widow === 'with')) {
      this.phase = 'exchange';
      // must-take-widow: the take is no decision (conformance.md 5.1 "each one decision of one
      // player"), so it is made at once and the declarer's first action is the discard.
      // See README, spec question 1.
      if (ex.take === 'must-take-widow') this.takeWidow(this.declarer);
      return;
    }
    this.afterExchange();
  }
  afterExchange() {
    this.toAct = this.declarer;
    if (this.contract.trumps === 'named') { this.phase = 'name'; return; }   // NAP-7.1.2
    this.trumps = this.contract.trumps === 'none' ? 'none' : null;           // NAP-7.1.1, NAP-7.1.3
    this.startPlay();
  }

  // ---------------------------------------------------------------- the exchange (NAP-6.3)
  applyExchange(seat, action) {
    if (action.type === 'name-trumps' && this.contract.trumps === 'named') refuse('NAP-6.3.2', 'trumps are named after the exchange: take or leave the widow first');
    if (action.type === 'take-widow') return this.takeWidow(seat);
    if (action.type === 'leave-widow' && this.p.exchange.take !== 'must-take-widow') { this.afterExchange(); return; }
    refuse('NAP-6.3.1', this.p.exchange.take === 'must-take-widow'
      ? `the declarer must take the widow, not ${action.type}` : `the declarer is to take the widow or leave it, not ${action.type}`);
  }
  takeWidow(seat) {
    this.hands[seat].push(this.widow);
    this.taken = this.widow;
    this.seen.add(seat);
    this.widow = null;
    this.phase = 'discard';
  }
  discardable(seat) {
    const h = this.hands[seat];
    return this.p.exchange.take === 'must-take-widow' ? h.filter((c) => c !== this.taken) : [...h];
  }
  applyDiscard(seat, action) {
    if (action.type === 'name-trumps' && this.contract.trumps === 'named') refuse('NAP-6.3.2', 'trumps are named after the exchange: discard first');
    if (action.type !== 'discard') refuse('NAP-6.3.1', `the declarer is to discard a card after taking the widow, not ${action.type}`);
    const c = parseCard(action.card);
    const k = this.hands[seat].indexOf(c);
    if (k < 0) refuse('NAP-1.3.2', `seat ${seat} does not hold ${action.card}`);
    if (!this.discardable(seat).includes(c)) refuse('NAP-6.3.1', `the declarer must discard one of the five cards dealt, not the widow ${c}`);
    this.hands[seat].splice(k, 1);
    this.discards.push(c);                           // NAP-4.2.3: face down, out of the hand
    this.afterExchange();
  }

  // ---------------------------------------------------------------- naming (NAP-7.1.2, NAP-7.1.4)
  nameable(seat) {
    const hand = this.hands[seat];
    const held = SUITS.filter((s) => hand.some((c) => suitOf(c) === s));
    const naming = this.p.naming || {};
    // NAP-7.1.4: a one-suited hand under a duty to lead a non-trump names another suit.
    if (naming.non_trump_duty === 'binds' && this.contract.lead === 'lowest-non-trump' && held.length === 1) {
      return SUITS.filter((s) => s !== held[0]);
    }
    if (naming.void_suit === 'not-allowed') return held;
    return [...SUITS];
  }
  applyName(seat, action) {
    if (action.type !== 'name-trumps') refuse('NAP-7.1.2', `the declarer is to name trumps before leading, not ${action.type}`);
    const s = NAME_SUIT[action.suit];
    if (!this.nameable(seat).includes(s)) {
      const naming = this.p.naming || {};
      const held = SUITS.filter((x) => this.hands[seat].some((c) => suitOf(c) === x));
      if (naming.non_trump_duty === 'binds' && this.contract.lead === 'lowest-non-trump' && held.length === 1) {
        refuse('NAP-7.1.4', `seat ${seat} holds only ${action.suit} and must lead a non-trump: name another suit`);
      }
      refuse('NAP-7.1.2', `seat ${seat} holds no ${action.suit} and may only name a suit they hold`);
    }
    this.trumps = s;
    this.startPlay();
  }

  // ---------------------------------------------------------------- play (NAP-7.2, NAP-8)
  startPlay() {
    this.phase = 'play';
    this.trick = [];
    this.tricks = [];
    this.toAct = this.declarer;                      // NAP-7.2.1
  }
  // NAP-7.2.2, NAP-7.2.3, NAP-7.2.4: the cards the first lead's obligation allows.
  firstLeads(hand) {
    const lead = this.contract.lead || 'any';
    const how = this.contract.trumps;
    const lowest = (cards) => {
      if (!cards.length) return [];
      const v = Math.min(...cards.map(valueOf));
      return cards.filter((c) => valueOf(c) === v);
    };
    let allowed;
    switch (lead) {
      case 'any': allowed = hand; break;
      case 'trump':
        if (how === 'named') allowed = hand.filter((c) => suitOf(c) === this.trumps);
        else allowed = hand;                         // first-card-led: any card; none: lapses
        break;
      case 'lowest-trump':
        if (how === 'named') allowed = lowest(hand.filter((c) => suitOf(c) === this.trumps));
        else if (how === 'first-card-led') allowed = SUITS.flatMap((s) => lowest(hand.filter((c) => suitOf(c) === s)));
        else allowed = hand;
        break;
      case 'lowest-non-trump':
        if (how === 'named') allowed = lowest(hand.filter((c) => suitOf(c) !== this.trumps));
        else allowed = lowest(hand);
        break;
      case 'lowest-card': allowed = lowest(hand); break;
      default: allowed = hand;
    }
    return allowed.length ? allowed : hand;          // NAP-7.2.4
  }
  playable(seat) {
    const hand = this.hands[seat];
    if (this.trick.length === 0) {
      if (this.tricks.length === 0) return [...this.firstLeads(hand)];
      return [...hand];                              // NAP-8.1.3
    }
    const led = suitOf(this.trick[0].card);
    const follow = hand.filter((c) => suitOf(c) === led);   // NAP-8.1.1
    return follow.length ? follow : [...hand];              // NAP-8.1.2
  }
  applyPlay(seat, action) {
    if (action.type !== 'play') {
      const rule = this.trick.length ? 'NAP-8.1.1' : this.tricks.length ? 'NAP-8.1.3' : 'NAP-7.2.1';
      refuse(rule, `seat ${seat} is to play a card, not ${action.type}`);
    }
    const c = parseCard(action.card);
    const hand = this.hands[seat];
    if (!hand.includes(c)) refuse('NAP-1.3.2', `seat ${seat} does not hold ${action.card}`);
    if (!this.playable(seat).includes(c)) {
      if (this.trick.length === 0) refuse('NAP-7.2.2', `the contract's first lead must be ${this.contract.lead}`);
      refuse('NAP-8.1.1', `seat ${seat} must follow ${SUIT_NAME[suitOf(this.trick[0].card)]}`);
    }
    if (this.trick.length === 0 && this.tricks.length === 0 && this.trumps === null) this.trumps = suitOf(c);  // NAP-7.1.1
    hand.splice(hand.indexOf(c), 1);
    this.trick.push({ seat, card: c });
    if (this.trick.length < this.order.length) { this.toAct = this.next(seat); return; }
    const winner = this.trickWinner(this.trick);
    this.tricks.push({ leader: this.trick[0].seat, winner, cards: this.trick.map((x) => x.card) });
    this.trick = [];
    this.toAct = winner;                             // NAP-8.1.3
    if (this.tricks.length === 5) this.settle();     // NAP-8.3.1
  }
  // NAP-8.2.1
  trickWinner(trick) {
    const led = suitOf(trick[0].card);
    const tr = this.trumps === 'none' ? null : this.trumps;
    let best = trick[0];
    for (const x of trick.slice(1)) {
      const xs = suitOf(x.card), bs = suitOf(best.card);
      if (xs === tr && bs !== tr) best = x;
      else if (xs === bs && (xs === led || xs === tr) && valueOf(x.card) > valueOf(best.card)) best = x;
    }
    return best.seat;
  }

  // ---------------------------------------------------------------- apply
  // NAP-1.3.1 to NAP-1.3.4: the order in which a refusal's rule is found.
  apply(seat, action) {
    const t = action.type;
    if (this.phase === 'over') {
      refuse('NAP-1.3.3', this.thrownIn ? 'the hand was thrown in: nothing is taken in it' : 'the hand is over: all five tricks have been played');
    }
    const chanceTurn = this.phase === 'deal' || this.phase === 'reshuffle';
    if (seat === null) {
      if (!chanceTurn) refuse('NAP-1.3.1', `it is seat ${this.toAct}'s turn, not chance's`);
    } else {
      if (chanceTurn) refuse('NAP-1.3.1', `it is chance's turn, not seat ${seat}'s`);
      if (seat !== this.toAct) refuse('NAP-1.3.1', `it is seat ${this.toAct}'s turn, not seat ${seat}'s`);
    }
    switch (this.phase) {
      case 'deal':
        if (t !== 'deal') refuse('NAP-4.2.2', `chance is to deal, not ${t}`);
        return this.deal(action.pack);
      case 'reshuffle': return this.applyReshuffle(action);
      case 'purchase': return this.applyPurchase(seat, action);
      case 'auction': return this.applyAuction(seat, action);
      case 'exchange': return this.applyExchange(seat, action);
      case 'discard': return this.applyDiscard(seat, action);
      case 'name': return this.applyName(seat, action);
      case 'play': return this.applyPlay(seat, action);
    }
    throw new Error(`internal: no phase ${this.phase}`);
  }

  // ---------------------------------------------------------------- settlement (NAP-9)
  // NAP-9.3.1: one payment, recorded as made
  pay(payer, payee, amount, rule) {
    if (amount <= 0) return;
    if (payer === 'pool') this.pool -= amount; else { this.net[payer] -= amount; if (this.funds) this.funds[payer] -= amount; }
    if (payee === 'pool') this.pool += amount; else { this.net[payee] += amount; if (this.funds) this.funds[payee] += amount; }
    this.payments.push({ payer, payee, amount, rule });
  }
  // NAP-9.5.1: one payer's debts, in full, or (pay what you have) one unit at a time to the
  // payees clockwise from the payer's left, the pool last in each round.
  payDebts(payer, debts) {
    if (!this.shortPay()) {
      for (const d of debts) this.pay(payer, d.payee, d.amount, d.rule);
      return;
    }
    const clockwise = this.othersFrom(payer);
    const payees = [];
    for (const d of debts) if (!payees.includes(d.payee)) payees.push(d.payee);
    payees.sort((a, b) => (a === 'pool' ? 1000 : clockwise.indexOf(a)) - (b === 'pool' ? 1000 : clockwise.indexOf(b)));
    const left = debts.map((d) => d.amount);
    const paid = debts.map(() => 0);
    let have = Math.max(0, this.funds[payer]);
    while (have > 0 && left.some((x) => x > 0)) {
      for (const pe of payees) {
        if (have <= 0) break;
        const k = debts.findIndex((d, j) => d.payee === pe && left[j] > 0);
        if (k < 0) continue;
        left[k]--; paid[k]++; have--;
      }
    }
    for (let k = 0; k < debts.length; k++) this.pay(payer, debts[k].payee, paid[k], debts[k].rule);
  }
  // NAP-3.2.1, NAP-8.3.2, NAP-9.1.1, NAP-9.1.2, NAP-9.2.1, NAP-9.2.2, NAP-9.2.3, NAP-9.4.1,
  // NAP-9.6.1 to NAP-9.6.4
  settle() {
    const bid = this.contract;
    const d = this.declarer;
    this.declarerTricks = this.tricks.filter((x) => x.winner === d).length;
    this.made = bid.misere ? this.declarerTricks === 0 : this.declarerTricks >= bid.tricks;
    const opps = this.othersFrom(d);
    const win = bid.win || {};
    const lose = bid.lose || {};
    if (this.pointsSheet()) {
      const sc = this.p.scoring;
      const pts = (bid.points !== undefined ? bid.points : (win.each || 0)) * this.stakes;
      if (this.made) this.score[d] += pts;
      else if (sc.defeated === 'each-opponent') for (const o of opps) this.score[o] += pts;
      else if (sc.defeated === 'off-declarer') this.score[d] -= pts;
      this.phase = 'over';
      return;
    }
    if (this.made) {
      if (win.each) for (const o of opps) this.payDebts(o, [{ payee: d, amount: win.each * this.stakes, rule: 'NAP-9.1.1' }]);
      if (win.pool && this.pool > 0) this.pay('pool', d, this.pool, 'NAP-9.1.2');
    } else {
      const poolBefore = this.pool;
      const debts = [];
      if (lose.each) for (const o of opps) debts.push({ payee: o, amount: lose.each * this.stakes, rule: 'NAP-9.2.1' });
      if (lose.pool_per_player) debts.push({ payee: 'pool', amount: lose.pool_per_player * this.order.length * this.stakes, rule: 'NAP-9.2.2' });
      const doubling = (this.p.pool && this.p.pool.doubling) || 'bidder-matches-pool';
      if (lose.double_pool && doubling === 'bidder-matches-pool' && poolBefore > 0) debts.push({ payee: 'pool', amount: poolBefore, rule: 'NAP-9.2.3' });
      if (lose.double_pool && doubling === 'players-re-ante') {
        const ante = (this.p.ante && this.p.ante.amount) || 0;
        debts.push({ payee: 'pool', amount: ante, rule: 'NAP-9.2.3' });
        this.payDebts(d, debts);
        for (const o of opps) this.payDebts(o, [{ payee: 'pool', amount: ante, rule: 'NAP-9.2.3' }]);
      } else {
        this.payDebts(d, debts);
      }
    }
    this.phase = 'over';
  }

  // NAP-5.3.2, NAP-8.3.2, NAP-9.6.1: the hand's outcome (conformance.md 2.4)
  outcome() {
    if (this.phase !== 'over') return null;
    const o = this.thrownIn
      ? { thrown_in: true, declarer: null, contract: null, declarer_tricks: 0, made: null,
        trick_winners: [], payments: this.payments, pool: this.pool, net: this.net, tricks: [] }
      : { thrown_in: false, declarer: this.declarer, contract: this.contract.id,
        declarer_tricks: this.declarerTricks, made: this.made,
        trick_winners: this.tricks.map((x) => x.winner), payments: this.payments,
        pool: this.pool, net: this.net, tricks: this.tricks };
    if (this.pointsSheet()) o.score = this.score;
    return o;
  }

  // conformance.md 2.3 `state`
  state() {
    const tricks = new Array(this.players).fill(0);
    for (const x of this.tricks || []) tricks[x.winner]++;
    let trumps = null;
    if (this.trumps === 'none') trumps = 'none';
    else if (this.trumps) trumps = SUIT_NAME[this.trumps];
    return {
      contract: this.contract && !this.thrownIn ? { declarer: this.declarer, bid: this.contract.id } : null,
      trumps,
      trick: (this.trick || []).map((x) => ({ seat: x.seat, card: x.card })),
      tricks,
      turn: this.turn(),
    };
  }

  // NAP-10.2.2: the cards of the hand gathered in a fixed order, top first.
  gather() {
    const out = [];
    for (const x of this.tricks || []) out.push(...x.cards);
    for (const x of this.trick || []) out.push(x.card);
    for (const s of this.order) out.push(...[...(this.hands[s] || [])].sort(cardOrder));
    if (this.widow) out.push(this.widow);
    out.push(...this.discards);
    out.push(...this.stock);
    return out;
  }
}

// ------------------------------------------------------------------ a match (NAP-10)
class Match {
  constructor(rs, start) {
    this.rs = rs;
    this.p = rs.p;
    this.players = start.players;
    this.limit = start.hands;                        // NAP-10.1.1
    const b = this.p.match && this.p.match.bankroll;
    this.bankroll = !!b;
    const chips = b ? (start.chips === null || start.chips === undefined ? b.start : start.chips) : 0;  // NAP-10.1.2
    this.balances = new Array(this.players).fill(chips);
    this.scores = new Array(this.players).fill(0);
    this.inMatch = new Set([...Array(this.players).keys()]);
    this.out = [];
    this.pool = 0;
    this.handsPlayed = 0;
    this.phase = 'choose-dealer';                    // NAP-4.1.1
    this.dealer = null;
    this.lastHand = null;
    this.throwRun = 0;
    this.hand = null;
  }
  debt() { return this.bankroll && this.p.match.bankroll.short_payment === 'debt'; }
  clockwiseFrom(seat, set) {
    const out = [];
    for (let j = 1; j <= this.players; j++) { const s = (seat + j) % this.players; if (set.has(s)) out.push(s); }
    return out;
  }
  turn() {
    switch (this.phase) {
      case 'over': return 'over';
      case 'choose-dealer': case 'shuffle': case 'cut': return 'chance';
      case 'ante': return this.anteOrder[this.anteIndex];
      case 'hand': return this.hand.turn();
    }
    return 'over';
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
  // NAP-10.3.1: nobody may sit out where that would leave fewer than two to ante.
  maySitOut() {
    const after = this.anteOrder.length - this.anteIndex - 1;
    return this.anted.length + after >= 2;
  }
  packPlayers() { return this.inMatch.size; }

  // NAP-1.3.3 (match-over), NAP-1.3.1, NAP-4.1.1, NAP-10.2.1, NAP-10.2.2, NAP-10.3.1, NAP-2.2.1
  apply(seat, action) {
    const t = action.type;
    if (this.phase === 'over') refuse('NAP-1.3.3', 'the match is over');
    if (this.phase === 'hand') return this.applyHand(seat, action);
    if (this.phase === 'choose-dealer' || this.phase === 'shuffle' || this.phase === 'cut') {
      if (seat !== null) refuse('NAP-1.3.1', `it is chance's turn (${this.phase}), not seat ${seat}'s`);
      if (this.phase === 'choose-dealer') {
        if (t !== 'choose-dealer') refuse('NAP-4.1.1', `the first dealer must be chosen first, not ${t}`);
        if (!this.inMatch.has(action.seat)) refuse('NAP-4.1.1', `there is no seat ${action.seat} at this table`);
        this.dealer = action.seat;
        this.phase = 'shuffle';
        return;
      }
      if (this.phase === 'shuffle') {
        if (t !== 'shuffle') refuse('NAP-10.2.1', `the pack is to be shuffled before this deal, not ${t}`);
        this.pack = checkPack(this.p, this.packPlayers(), action.pack, 'the shuffle');
        return this.startAntes();
      }
      if (t !== 'cut') refuse('NAP-10.2.2', `the gathered pack is to be cut before this deal, not ${t}`);
      if (action.at < 1 || action.at >= this.gathered.length) refuse('NAP-10.2.2', `a cut lifts at least one card and not all ${this.gathered.length}`);
      this.pack = [...this.gathered.slice(action.at), ...this.gathered.slice(0, action.at)];
      return this.startAntes();
    }
    if (this.phase === 'ante') {
      const who = this.anteOrder[this.anteIndex];
      if (seat !== who) refuse('NAP-1.3.1', `it is seat ${who}'s turn to ante or sit out`);
      if (t === 'ante') { this.payAnte(seat); this.anted.push(seat); }
      else if (t === 'sit-out') {
        if (!this.maySitOut()) refuse('NAP-10.3.1', 'a player may not sit out where that would leave fewer than two to ante');
      } else refuse('NAP-10.3.1', `seat ${seat} is to ante or sit out, not ${t}`);
      this.anteIndex++;
      if (this.anteIndex >= this.anteOrder.length) this.startHand(this.anted);
    }
  }
  // NAP-10.3.1, NAP-10.4.2: an ante; one who cannot pay in full pays what they have.
  payAnte(seat) {
    let amount = this.p.ante.amount;
    if (this.bankroll && !this.debt()) amount = Math.min(amount, Math.max(0, this.balances[seat]));
    this.balances[seat] -= amount;
    this.pool += amount;
  }
  // NAP-10.3.1
  startAntes() {
    const ante = this.p.ante;
    const hasAnte = ante && ante.amount > 0;
    const redeal = this.lastHand && this.lastHand.thrownIn;
    if (!hasAnte || (redeal && ante.on_redeal === false)) {
      let seats;
      if (redeal && hasAnte) {
        seats = this.lastHand.order.filter((s) => this.inMatch.has(s));
        if (seats.length < 2) seats = [...this.inMatch];
      } else seats = [...this.inMatch];
      return this.startHand(seats);
    }
    const order = this.clockwiseFrom(this.dealer, this.inMatch);
    if (ante.sit_out) {
      this.phase = 'ante';
      this.anteOrder = order;
      this.anteIndex = 0;
      this.anted = [];
      return;
    }
    for (const s of order) this.payAnte(s);
    return this.startHand(order);
  }
  // NAP-9.4.1: the stakes after a run of throw-ins.
  stakes() {
    const how = (this.p.throw_in && this.p.throw_in.stakes) || 'unchanged';
    if (how === 'double-next') return this.throwRun > 0 ? 2 : 1;
    if (how === 'double-cumulative') return 2 ** this.throwRun;
    return 1;
  }
  startHand(seats) {
    this.hand = new Hand(this.rs, {
      players: this.players, dealer: this.dealer, seats: [...seats].sort((a, b) => a - b),
      pool: this.pool, funds: this.bankroll ? [...this.balances] : null, stakes: this.stakes(),
      packPlayers: this.packPlayers(),
    });
    this.hand.deal(this.pack);
    this.phase = 'hand';
  }
  applyHand(seat, action) {
    this.hand.apply(seat, action);
    if (this.hand.phase !== 'over') return;
    const h = this.hand;
    for (let s = 0; s < this.players; s++) { this.balances[s] += this.bankroll ? 0 : h.net[s]; this.scores[s] += h.score[s]; }
    if (this.bankroll) this.balances = h.funds;
    this.pool = h.pool;
    this.handsPlayed++;
    this.throwRun = h.thrownIn ? this.throwRun + 1 : 0;
    this.lastHand = h;
    const packBefore = this.inMatch.size;
    // NAP-10.4.2: knocked out
    if (this.bankroll && !this.debt()) {
      for (const s of [...this.inMatch]) if (this.balances[s] <= 0) { this.inMatch.delete(s); this.out.push(s); }
    }
    // NAP-10.4.1, NAP-10.4.5
    const end = this.p.match.end;
    const byHands = this.limit !== null && this.limit !== undefined && this.handsPlayed >= this.limit &&
      ['agreed', 'agreed-hands', 'last-with-chips-or-agreed-hands'].includes(end);
    const byChips = this.bankroll && !this.debt() && this.inMatch.size <= 1;
    const sc = this.p.scoring;
    const byTarget = !!(sc && sc.sheet === 'points' && sc.target !== null && sc.target !== undefined &&
      this.scores.some((x) => x >= sc.target));
    if (byHands || byChips || byTarget) return this.end(byChips);
    // NAP-4.1.2: the deal passes to the left among those still in
    this.dealer = this.clockwiseFrom(this.dealer, this.inMatch)[0];
    // NAP-10.2.1, NAP-10.2.3: shuffle, or gather and cut
    const prep = this.p.preparation || {};
    let how;
    if (h.thrownIn) how = prep.after_throw_in || prep.usual;
    else if (h.made && (prep.shuffle_after_made || []).includes(h.contract.id)) how = 'shuffle';
    else how = prep.usual;
    if (packBefore !== this.inMatch.size) {
      const a = packFor(this.p, packBefore), b = packFor(this.p, this.inMatch.size);
      if (!a || !b || a.length !== b.length) how = 'shuffle';
    }
    if (how === 'gather-and-cut') { this.gathered = h.gather(); this.phase = 'cut'; }
    else this.phase = 'shuffle';
  }
  // NAP-9.3.2, NAP-10.4.3, NAP-10.4.4
  end(byChips) {
    const atEnd = this.p.pool && this.p.pool.at_match_end;
    if (atEnd === 'split-equally' && this.inMatch.size > 0 && this.pool > 0) {
      const share = Math.floor(this.pool / this.inMatch.size);
      for (const s of this.inMatch) this.balances[s] += share;
      this.pool -= share * this.inMatch.size;
    }
    const sc = this.p.scoring;
    if (sc && sc.sheet === 'points') {
      const best = Math.max(...this.scores);
      this.winners = [...this.scores.keys()].filter((s) => this.scores[s] === best);
    } else if (byChips && this.inMatch.size === 1) this.winners = [...this.inMatch];
    else {
      const pool = this.inMatch.size ? [...this.inMatch] : [...Array(this.players).keys()];
      const best = Math.max(...pool.map((s) => this.balances[s]));
      this.winners = pool.filter((s) => this.balances[s] === best).sort((a, b) => a - b);
    }
    this.phase = 'over';
  }
  outcome() {
    if (this.phase !== 'over') return null;
    const o = { balances: this.balances, pool: this.pool, winners: this.winners, hands: this.handsPlayed,
      out: [...this.out].sort((a, b) => a - b) };
    if (this.p.scoring && this.p.scoring.sheet === 'points') o.scores = this.scores;
    return o;
  }
  // NAP-4.1.1, NAP-10.2.1, NAP-10.2.2: chance's next event in a match, drawn at random.
  chanceEvent() {
    if (this.phase === 'choose-dealer') return { type: 'choose-dealer', seat: Math.floor(Math.random() * this.players) };
    if (this.phase === 'shuffle') return { type: 'shuffle', pack: shuffled(packFor(this.p, this.packPlayers())) };
    if (this.phase === 'cut') return { type: 'cut', at: 1 + Math.floor(Math.random() * (this.gathered.length - 1)) };
    return this.hand.chanceEvent();
  }
  state() { return this.phase === 'hand' && this.hand.phase !== 'over' ? this.hand.state() : null; }
}

module.exports = { Hand, Match, Refusal, parseCard, SUIT_NAME, packFor, SUITS, RANKS };
