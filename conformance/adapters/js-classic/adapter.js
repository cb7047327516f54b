#!/usr/bin/env node
// An independent implementation of napkit's `classic` ruleset (the game of the source
// 000_b90223f4596c033b.txt), with every choice of every option it has, behind the adapter
// protocol napkit-adapter/1 (spec/conformance.md, spec/schemas/adapter.schema.json).
//
// It is written from the law book (spec/lawbook/*.toml), the ruleset (spec/rulesets/classic.json)
// and the decisions it cites (spec/decisions.toml), not from napkit's Python engine: every rule
// it applies is marked with its law book id. Plain Node.js, no packages.
//
// Transport: one JSON object a line on stdin, one JSON object a line back on stdout, in order.
// Nothing a client sends makes it crash: a request it cannot serve is answered with
// {"type": "error", "message": ...} naming the JSON path of the problem.

'use strict';

const readline = require('readline');

const PROTOCOL = 'napkit-adapter/1';
const NAME = 'js-classic';
const VERSION = '1.2';  // 1.2: refusals name the rules of NAP-1.3 (spec/CHANGELOG.md)
const RULESET = 'classic';

// ---------------------------------------------------------------------------------------------
// The classic ruleset and its options (spec/rulesets/classic.json).

// Every option of the ruleset, its choices and its default (the first). Every choice is played.
const OPTIONS = {
  // NAP-2.2.1: the full pack or a reduced one (source L5, L24).
  pack: { default: '52', choices: ['52', '32', '28', '24'] },
  // NAP-2.2.2, DEC-002: a reduced pack too small for the table: refused, or the full pack.
  'small-pack': { default: 'within-capacity', choices: ['within-capacity', 'full-pack-beyond'] },
  // NAP-4.2.2, DEC-001: one card at a time, or in packets of three then two, or two then three.
  packets: { default: 'singly', choices: ['singly', '3-2', '2-3'] },
  // NAP-10.2.1 (L18): between hands the pack is usually gathered and cut, or always shuffled.
  'between-hands': { default: 'gather-and-cut', choices: ['gather-and-cut', 'shuffle'] },
  // NAP-10.2.1, DEC-003: the made contracts that bring a shuffle.
  'wellington-shuffle': { default: 'nap-and-wellington', choices: ['nap-and-wellington', 'nap-only'] },
  // NAP-10.2.3, DEC-004: after a throw-in, gather and cut, or shuffle.
  'throw-in-pack': { default: 'gather-and-cut', choices: ['gather-and-cut', 'shuffle'] },
};

// NAP-3.1.1: three to seven players (L3). Which of them a reduced pack serves is NAP-2.2.2's
// question (DEC-002, see tableFor).
const PLAYERS = [3, 4, 5, 6, 7];

// NAP-2.2.1: each pack as the lowest rank it keeps in every suit (L24: 24 cards ace to nine,
// 28 ace to eight, 32 ace to seven; L5: the standard 52).
const LOWEST_RANK = { 52: '2', 32: '7', 28: '8', 24: '9' };

// NAP-4.2.2 with DEC-001's alternatives: the packets of each round of the deal.
const PACKETS = { singly: [1, 1, 1, 1, 1], '3-2': [3, 2], '2-3': [2, 3] };

// NAP-5.2.2: the bids, lowest first (L29); NAP-5.2.3 what each undertakes; NAP-5.2.5 what a bid
// needs before it; NAP-9.1.1/NAP-9.2.1 what it wins or loses from/to each opponent (L43).
const BIDS = [
  { id: 'three', name: '3', tricks: 3, requires: [], win: 3, lose: 3 },
  { id: 'four', name: '4', tricks: 4, requires: [], win: 4, lose: 4 },
  { id: 'nap', name: 'Nap', tricks: 5, requires: [], win: 5, lose: 5 },
  { id: 'wellington', name: 'Wellington', tricks: 5, requires: [['nap']], win: 10, lose: 10 },
];
const BID_RANK = new Map(BIDS.map((b, i) => [b.id, i]));

// NAP-10.2.1 with DEC-003's alternatives: the made contracts after which the pack is shuffled
// (a made Nap, L18; a made Wellington too, or not).
const SHUFFLE_AFTER_MADE = {
  'nap-and-wellington': new Set(['nap', 'wellington']),
  'nap-only': new Set(['nap']),
};

// ---------------------------------------------------------------------------------------------
// Cards (NAP-2.1.1). A card is its notation, "10H"; ranks run 2 (0) to ace (12).

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const SUITS = ['S', 'H', 'D', 'C'];
const SUIT_NAMES = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const CARD_RE = /^(10|[2-9JQKA])([SHDC])$/;

function suitOf(card) {
  return card[card.length - 1];
}

function rankOf(card) {
  return RANKS.indexOf(card.slice(0, -1));
}

// Every card, in card order (spades, hearts, diamonds, clubs; two up to ace in each): the
// order of the cards still held when a hand is gathered (NAP-10.2.2, see gather()).
const ALL_CARDS = [];
for (const s of SUITS) for (const r of RANKS) ALL_CARDS.push(r + s);
const CARD_ORDER = new Map(ALL_CARDS.map((c, i) => [c, i]));

// NAP-2.2.1: the pack cut down from the top: every card from the ace down to `lowest`, in all
// four suits, four cards for every rank kept.
function packDownTo(lowest) {
  const floor = RANKS.indexOf(lowest);
  return ALL_CARDS.filter((c) => rankOf(c) >= floor);
}

const RANK_WORDS = { J: 'jack', Q: 'queen', K: 'king', A: 'ace' };

function cardWords(card) {
  const rank = card.slice(0, -1);
  return `${RANK_WORDS[rank] || rank} of ${SUIT_NAMES[suitOf(card)]}`;
}

// ---------------------------------------------------------------------------------------------
// Errors: a refusal carries a law book rule id (or null) and a reason; a bad request an error
// message naming the JSON path.

class Refusal {
  constructor(rule, reason) {
    this.rule = rule;
    this.reason = reason;
  }
}

class BadRequest extends Error {}

function refuse(rule, reason) {
  throw new Refusal(rule, reason);
}

function bad(path, message) {
  throw new BadRequest(`${path}: ${message}`);
}

// ---------------------------------------------------------------------------------------------
// Reading the JSON of requests and actions (the schemas, checked by hand).

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isSeatInt(v) {
  return Number.isSafeInteger(v) && v >= 0;
}

function describe(v) {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  const text = JSON.stringify(v);
  if (text === undefined) return String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function onlyFields(obj, path, allowed) {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) bad(`${path}.${key}`, `unexpected field (allowed: ${allowed.join(', ')})`);
  }
  for (const key of allowed) {
    if (!(key in obj)) bad(path, `missing field '${key}'`);
  }
}

function readCard(v, path) {
  if (typeof v !== 'string' || !CARD_RE.test(v)) {
    bad(path, `${describe(v)} is not a card (rank 2-10, J, Q, K, A then suit S, H, D, C, as "10H")`);
  }
  return v;
}

function readCards(v, path) {
  if (!Array.isArray(v)) bad(path, `${describe(v)} is not an array of cards`);
  const seen = new Set();
  return v.map((c, i) => {
    const card = readCard(c, `${path}[${i}]`);
    if (seen.has(card)) bad(`${path}[${i}]`, `${card} appears twice (cards must be unique)`);
    seen.add(card);
    return card;
  });
}

const SUIT_WORDS = ['spades', 'hearts', 'diamonds', 'clubs'];

// An action as action.schema.json has it: {"type": ..., fields}.
function readAction(v, path) {
  if (!isObject(v)) bad(path, `${describe(v)} is not an action object`);
  const type = v.type;
  switch (type) {
    case 'pass':
    case 'peek':
    case 'take-widow':
    case 'leave-widow':
    case 'ante':
    case 'sit-out':
      onlyFields(v, path, ['type']);
      return { type };
    case 'bid':
      onlyFields(v, path, ['type', 'bid']);
      if (typeof v.bid !== 'string' || v.bid.length === 0) bad(`${path}.bid`, 'a bid is a non-empty string');
      return { type, bid: v.bid };
    case 'buy':
      onlyFields(v, path, ['type', 'cards']);
      if (Array.isArray(v.cards) && v.cards.length > 5) bad(`${path}.cards`, 'at most 5 cards');
      return { type, cards: readCards(v.cards, `${path}.cards`) };
    case 'discard':
    case 'play':
      onlyFields(v, path, ['type', 'card']);
      return { type, card: readCard(v.card, `${path}.card`) };
    case 'name-trumps':
      onlyFields(v, path, ['type', 'suit']);
      if (!SUIT_WORDS.includes(v.suit)) bad(`${path}.suit`, `${describe(v.suit)} is not one of ${SUIT_WORDS.join(', ')}`);
      return { type, suit: v.suit };
    case 'deal':
    case 'shuffle':
      onlyFields(v, path, ['type', 'pack']);
      return { type, pack: readCards(v.pack, `${path}.pack`) };
    case 'reshuffle':
      onlyFields(v, path, ['type', 'stock']);
      return { type, stock: readCards(v.stock, `${path}.stock`) };
    case 'choose-dealer':
      onlyFields(v, path, ['type', 'seat']);
      if (!isSeatInt(v.seat)) bad(`${path}.seat`, `${describe(v.seat)} is not a seat (an integer from 0)`);
      return { type, seat: v.seat };
    case 'cut':
      onlyFields(v, path, ['type', 'at']);
      if (!Number.isSafeInteger(v.at) || v.at < 1) bad(`${path}.at`, `${describe(v.at)} is not an integer from 1`);
      return { type, at: v.at };
    default:
      return bad(`${path}.type`, `${describe(type)} is not an action type`);
  }
}

function describeAction(a) {
  switch (a.type) {
    case 'bid': return `bid ${a.bid}`;
    case 'play': return `play ${a.card}`;
    case 'discard': return `discard ${a.card}`;
    case 'name-trumps': return `name ${a.suit} trumps`;
    case 'cut': return `cut at ${a.at}`;
    case 'choose-dealer': return `choose seat ${a.seat} to deal`;
    default: return a.type;
  }
}

// ---------------------------------------------------------------------------------------------
// The game at a table: the ruleset resolved for its option choices and number of players.

// NAP-2.2.1, NAP-2.2.2 (DEC-002), NAP-4.2.2 (DEC-001), NAP-10.2.1 (DEC-003), NAP-10.2.3 (DEC-004).
// `options` holds a choice for every option. A reduced pack that cannot deal five cards to every
// player (24 cards for five or more, 28 for six or more, 32 for seven) is, with small-pack
// 'within-capacity', no game for that table at all (a bad request), and with 'full-pack-beyond'
// the full pack is used instead.
function tableFor(options, players) {
  let lowest = LOWEST_RANK[options.pack];
  let pack = packDownTo(lowest);
  if (pack.length < 5 * players) {
    if (options['small-pack'] === 'within-capacity') {
      const most = Math.floor(pack.length / 5);
      bad('$.players', `the ${pack.length}-card pack deals five cards to at most ${most} players, not ${players} (NAP-2.2.2; small-pack 'within-capacity', DEC-002: classic with pack ${options.pack} is played by 3 to ${most})`);
    }
    lowest = '2'; // 'full-pack-beyond': the full pack for this table
    pack = packDownTo(lowest);
  }
  const usual = options['between-hands'];
  return {
    options,
    players,
    lowest,
    pack, // in card order
    packSet: new Set(pack),
    packets: PACKETS[options.packets],
    // NAP-10.2.1: how the pack is usually made ready before a later deal.
    usual,
    shuffleAfterMade: SHUFFLE_AFTER_MADE[options['wellington-shuffle']],
    // NAP-10.2.3: after a throw-in. With 'between-hands' 'shuffle' every deal is shuffled, a
    // redeal included; otherwise DEC-004's choice (the ruleset's preparation.after_throw_in).
    afterThrowIn: usual === 'shuffle' ? 'shuffle' : options['throw-in-pack'],
  };
}

// ---------------------------------------------------------------------------------------------
// A hand (NAP-4 to NAP-9).

class Hand {
  // table: the game at the table (tableFor); dealer: the seat that deals; stakes: the stakes
  // multiplier.
  constructor(table, dealer, stakes) {
    const players = table.players;
    this.table = table;
    this.players = players;
    this.dealer = dealer;
    this.stakes = stakes;
    // NAP-1.2.1, NAP-4.2.2, NAP-5.1.1: everything goes clockwise from the dealer's left, the
    // dealer last.
    this.order = [];
    for (let i = 1; i <= players; i++) this.order.push((dealer + i) % players);
    this.phase = 'deal';
    this.hands = null; // seat -> cards held, in the order dealt
    this.stock = []; // NAP-4.2.3: the cards left over, in pack order
    this.speaker = 0; // index into order during the auction
    this.bidsMade = []; // every bid made, in order: {seat, bid}
    this.highest = null; // {seat, bid}
    this.declarer = null;
    this.contract = null;
    this.trumps = null;
    this.tricks = []; // {leader, winner, cards}
    this.trick = []; // the trick in progress: {seat, card}
    this.leader = null;
    this.toPlay = null;
    this.result = null;
  }

  turn() {
    if (this.phase === 'deal') return 'chance';
    if (this.phase === 'over') return 'over';
    if (this.phase === 'auction') return this.order[this.speaker];
    return this.toPlay;
  }

  // Every legal action of the seat to act (none for chance and when over).
  legal() {
    if (this.phase === 'auction') {
      // NAP-5.2.1: pass, or a bid ranking above the highest so far; NAP-5.2.5: a bid that
      // needs earlier bids only once one of each group has been made.
      const actions = [{ type: 'pass' }];
      for (const bid of this.biddable()) actions.push({ type: 'bid', bid: bid.id });
      return actions;
    }
    if (this.phase === 'play') {
      return this.playable(this.toPlay).map((card) => ({ type: 'play', card }));
    }
    return [];
  }

  biddable() {
    const floor = this.highest === null ? -1 : BID_RANK.get(this.highest.bid);
    return BIDS.filter((b, i) => i > floor && this.prerequisitesMet(b));
  }

  prerequisitesMet(bid) {
    const made = new Set(this.bidsMade.map((b) => b.bid));
    return bid.requires.every((group) => group.some((id) => made.has(id)));
  }

  // NAP-8.1.1 / NAP-8.1.2: a follower holding the suit led must play it; otherwise any card.
  // A leader may lead any card (NAP-7.2.2 "any" for every classic bid; NAP-8.1.3).
  playable(seat) {
    const held = this.hands[seat];
    if (this.trick.length === 0) return held.slice();
    const led = suitOf(this.trick[0].card);
    const follow = held.filter((c) => suitOf(c) === led);
    return follow.length > 0 ? follow : held.slice();
  }

  // The rule that says what the seat to act does now, for refusals of the wrong kind of action
  // in the play (NAP-1.3.4 (3)): not NAP-8.1.1 (following suit) for a lead.
  playRule() {
    if (this.trick.length > 0) return 'NAP-8.1.1'; // following to a trick
    return this.tricks.length === 0 ? 'NAP-7.2.1' : 'NAP-8.1.3'; // the opening lead, a later lead
  }

  // NAP-1.3.4: an action that breaks several rules is refused under the first it breaks:
  // (1) NAP-1.3.3, nothing after the end; (2) NAP-1.3.1, only the one to act; (3) the phase's
  // rule for the kind of action due (NAP-4.2.2 the deal, NAP-5.2.1 a call, NAP-7.2.1 / NAP-8.1.3
  // / NAP-8.1.1 a card to the trick); (4) NAP-1.3.2, only one's own cards; (5) the phase's other
  // rules in the law book's order. The checks below, and those of each phase, run in that order.
  apply(seat, action) {
    if (this.phase === 'over') {
      // NAP-1.3.3: the hand is over, thrown in (NAP-5.3.2) or played out (NAP-8.3.1); nothing
      // more is done in it, whoever offers it (chance too, and a seat that was never to act).
      if (this.result.thrown_in) return refuse('NAP-1.3.3', 'the hand was thrown in and is over; no action can be taken');
      return refuse('NAP-1.3.3', 'all five tricks have been played; no action can be taken');
    }
    inTurn(this.turn(), seat); // NAP-1.3.1
    switch (this.phase) {
      case 'deal': return this.applyDeal(seat, action);
      case 'auction': return this.applyAuction(seat, action);
      default: return this.applyPlay(seat, action);
    }
  }

  // NAP-4.2: the pack is dealt from the top, clockwise from the dealer's left, in the rounds of
  // the packets option (DEC-001: one card at a time, 3 then 2, or 2 then 3) until each has five
  // (NAP-4.2.1); the rest is the stock (NAP-4.2.3).
  // Chance must deal (NAP-4.2.2, the kind of action, NAP-1.3.4 (3)), from this hand's pack
  // (NAP-2.2.1).
  applyDeal(seat, action) {
    if (action.type !== 'deal') {
      return refuse('NAP-4.2.2', `the cards must be dealt first, not ${describeAction(action)}`);
    }
    checkPack(action.pack, this.table, 'NAP-2.2.1');
    this.dealFrom(action.pack);
    return null;
  }

  dealFrom(pack) {
    this.hands = {};
    for (const s of this.order) this.hands[s] = [];
    // NAP-4.2.2: in each round every player, from the dealer's left, receives that round's
    // packet at once, off the top of the pack.
    let next = 0;
    for (const size of this.table.packets) {
      for (const s of this.order) {
        this.hands[s].push(...pack.slice(next, next + size));
        next += size;
      }
    }
    this.stock = pack.slice(next);
    this.phase = 'auction';
    this.speaker = 0; // NAP-5.1.1: the player on the dealer's left speaks first
  }

  // NAP-5.1: one round (L27), each player speaks once, from the dealer's left. A call is due
  // (NAP-5.2.1, the kind of action, NAP-1.3.4 (3)); then a bid must be one of classic's
  // (NAP-5.2.2), rank above the highest so far (NAP-5.2.1) and have its earlier bids (NAP-5.2.5).
  applyAuction(seat, action) {
    if (action.type === 'bid') {
      const rank = BID_RANK.get(action.bid);
      if (rank === undefined) {
        return refuse('NAP-5.2.2', `'${action.bid}' is not a bid of classic Nap (its bids: ${BIDS.map((b) => b.id).join(', ')})`);
      }
      const bid = BIDS[rank];
      if (this.highest !== null && rank <= BID_RANK.get(this.highest.bid)) {
        const top = BIDS[BID_RANK.get(this.highest.bid)];
        return refuse('NAP-5.2.1', `${bid.name} does not rank above the highest bid so far, ${top.name}`);
      }
      if (!this.prerequisitesMet(bid)) {
        return refuse('NAP-5.2.5', `${bid.name} may be bid only after someone has bid ${bid.requires.map((g) => g.map((id) => BIDS[BID_RANK.get(id)].name).join(' or ')).join(' and ')}`);
      }
      this.bidsMade.push({ seat, bid: bid.id });
      this.highest = { seat, bid: bid.id };
    } else if (action.type !== 'pass') {
      return refuse('NAP-5.2.1', `seat ${seat} is to pass or bid, not to ${describeAction(action)}`);
    }
    this.speaker += 1;
    if (this.speaker < this.order.length) return null;
    if (this.highest === null) {
      // NAP-5.3.2: nobody bid; the hand is thrown in (L31).
      this.phase = 'over';
      this.result = this.settleThrowIn();
      return null;
    }
    // NAP-5.3.1: the highest bidder is the declarer; NAP-7.2.1: they lead first.
    this.declarer = this.highest.seat;
    this.contract = this.highest.bid;
    this.phase = 'play';
    this.leader = this.declarer;
    this.toPlay = this.declarer;
    return null;
  }

  applyPlay(seat, action) {
    if (action.type !== 'play') {
      return refuse(this.playRule(), `seat ${seat} is to play a card, not to ${describeAction(action)}`);
    }
    const card = action.card;
    const held = this.hands[seat];
    if (!held.includes(card)) {
      // NAP-1.3.2: only a card the player holds now (not another's, one already played, one of
      // the stock, or one outside this hand's pack). After the kind of action (NAP-1.3.4 (3)),
      // before following suit (NAP-1.3.4 (5)).
      const where = this.table.packSet.has(card) ? '' : ` (it is not in this hand's ${this.table.pack.length}-card pack)`;
      return refuse('NAP-1.3.2', `seat ${seat} does not hold the ${cardWords(card)}${where}`);
    }
    if (this.trick.length > 0) {
      const led = suitOf(this.trick[0].card);
      if (suitOf(card) !== led && held.some((c) => suitOf(c) === led)) {
        return refuse('NAP-8.1.1', `seat ${seat} must follow ${SUIT_NAMES[led]}: holds ${held.filter((c) => suitOf(c) === led).join(' ')}`);
      }
    }
    if (this.trumps === null) this.trumps = suitOf(card); // NAP-7.1.1: the first card led fixes trumps
    this.hands[seat] = held.filter((c) => c !== card);
    this.trick.push({ seat, card });
    const n = this.order.length;
    if (this.trick.length < n) {
      this.toPlay = this.order[(this.order.indexOf(seat) + 1) % n]; // NAP-8.1.1: clockwise
      return null;
    }
    const winner = this.trickWinner(this.trick);
    this.tricks.push({ leader: this.leader, winner, cards: this.trick.map((p) => p.card) });
    this.trick = [];
    if (this.tricks.length < 5) {
      this.leader = winner; // NAP-8.1.3: the winner leads next
      this.toPlay = winner;
      return null;
    }
    // NAP-8.3.1: all five tricks played.
    this.phase = 'over';
    this.toPlay = null;
    this.result = this.settle();
    return null;
  }

  // NAP-8.2.1: the highest trump, else the highest card of the suit led.
  trickWinner(trick) {
    const led = suitOf(trick[0].card);
    let best = trick[0];
    for (const p of trick.slice(1)) {
      const pt = suitOf(p.card) === this.trumps;
      const bt = suitOf(best.card) === this.trumps;
      if (pt && !bt) best = p;
      else if (pt === bt && suitOf(p.card) === suitOf(best.card) && rankOf(p.card) > rankOf(best.card)) best = p;
      else if (!pt && !bt && suitOf(p.card) === led && suitOf(best.card) !== led) best = p;
    }
    return best.seat;
  }

  // NAP-8.3.2, NAP-9.1.1, NAP-9.2.1 (NAP-3.2.1: tricks counted for the declarer only).
  settle() {
    const bid = BIDS[BID_RANK.get(this.contract)];
    const won = this.tricks.filter((t) => t.winner === this.declarer).length;
    const made = won >= bid.tricks; // NAP-5.2.3: more is allowed and earns nothing more
    // The opponents, clockwise from the declarer's left (NAP-1.2.1).
    const at = this.order.indexOf(this.declarer);
    const opponents = [];
    for (let i = 1; i < this.order.length; i++) opponents.push(this.order[(at + i) % this.order.length]);
    const payments = [];
    for (const s of opponents) {
      if (made) payments.push({ payer: s, payee: this.declarer, amount: bid.win * this.stakes, rule: 'NAP-9.1.1' });
      else payments.push({ payer: this.declarer, payee: s, amount: bid.lose * this.stakes, rule: 'NAP-9.2.1' });
    }
    const net = new Array(this.players).fill(0);
    for (const p of payments) {
      net[p.payer] -= p.amount;
      net[p.payee] += p.amount;
    }
    return {
      thrown_in: false,
      declarer: this.declarer,
      contract: this.contract,
      declarer_tricks: won,
      made,
      trick_winners: this.tricks.map((t) => t.winner),
      payments,
      pool: 0,
      net,
      tricks: this.tricks.map((t) => ({ leader: t.leader, winner: t.winner, cards: t.cards.slice() })),
    };
  }

  // NAP-5.3.2: a thrown-in hand settles nothing.
  settleThrowIn() {
    return {
      thrown_in: true,
      declarer: null,
      contract: null,
      declarer_tricks: 0,
      made: null,
      trick_winners: [],
      payments: [],
      pool: 0,
      net: new Array(this.players).fill(0),
      tricks: [],
    };
  }

  // NAP-10.2.2 (DEC-005): the pack gathered after the hand: the tricks in the order played, each
  // trick's cards in the order played; then the cards still held (a thrown-in hand), seat by
  // seat from the dealer's left, each player's cards in card order (spades, hearts, diamonds,
  // clubs; two up to ace); then the stock, top card first. Classic has no widow or discards.
  gather() {
    const pack = [];
    for (const t of this.tricks) pack.push(...t.cards);
    for (const p of this.trick) pack.push(p.card);
    for (const s of this.order) {
      pack.push(...this.hands[s].slice().sort((a, b) => CARD_ORDER.get(a) - CARD_ORDER.get(b)));
    }
    pack.push(...this.stock);
    return pack;
  }
}

// NAP-1.3.1: at every moment exactly one player is to act, or chance is (the deal; in a match
// the choice of the first dealer, a shuffle, a cut), or nobody is (the hand or match is over:
// NAP-1.3.3, checked before this). Each phase's rules say who is to act (NAP-4.2.2 the deal,
// NAP-5.1.1 and NAP-5.1.2 the auction, NAP-7.2.1, NAP-8.1.1 and NAP-8.1.3 the play, going round
// clockwise, NAP-1.2.1); an action by anyone else is refused under NAP-1.3.1, even one the one
// to act could take: a seat's when chance is to act, chance's when a seat is, another seat's.
function inTurn(turn, seat) {
  const expected = turn === 'chance' ? null : turn;
  if (seat !== expected) {
    const who = expected === null ? 'chance' : `seat ${expected}`;
    const by = seat === null ? 'chance' : `seat ${seat}`;
    refuse('NAP-1.3.1', `it is ${who}'s turn to act, not ${by}'s`);
  }
}

// NAP-2.2.1: a pack must be exactly the pack for the table: every card of it once (the cards
// of a request are already known to be unique).
function checkPack(pack, table, rule) {
  const given = new Set(pack);
  const missing = table.pack.filter((c) => !given.has(c));
  const extra = pack.filter((c) => !table.packSet.has(c));
  if (missing.length > 0 || extra.length > 0 || pack.length !== table.pack.length) {
    const parts = [];
    if (missing.length > 0) parts.push(`lacks ${missing.join(' ')}`);
    if (extra.length > 0) parts.push(`has cards not in the pack: ${extra.join(' ')}`);
    let which = `the ${table.pack.length} cards from the ace down to the ${table.lowest}s`;
    if (table.lowest === '2') which = 'the 52 cards';
    if (table.lowest === '2' && table.options.pack !== '52') which += ` (the ${table.options.pack}-card pack cannot deal ${table.players}: small-pack 'full-pack-beyond')`;
    refuse(rule, `the pack for ${table.players} players must be ${which}, each once: it ${parts.join('; ') || 'is not'}`);
  }
}

// ---------------------------------------------------------------------------------------------
// A match (NAP-10, with NAP-4.1 and NAP-5.3.2).

class Match {
  constructor(table, hands) {
    const players = table.players;
    this.table = table;
    this.players = players;
    this.limit = hands; // the agreed number of hands, or null (NAP-10.4.1: until they stop)
    this.phase = 'choose-dealer';
    this.dealer = null;
    this.balances = new Array(players).fill(0); // no stock of chips in classic: totals from 0
    this.played = 0;
    this.hand = null;
    this.pack = null; // the pack as gathered after the last hand
    this.shuffleNext = true; // NAP-10.2.1: the pack is shuffled before the first deal
    this.result = null;
  }

  turn() {
    if (this.phase === 'hand') return this.hand.turn();
    if (this.phase === 'over') return 'over';
    return 'chance';
  }

  legal() {
    return this.phase === 'hand' ? this.hand.legal() : [];
  }

  apply(seat, action) {
    switch (this.phase) {
      case 'choose-dealer': {
        // NAP-4.1.1: the first dealer is chosen by chance.
        inTurn('chance', seat);
        if (action.type !== 'choose-dealer') {
          return refuse('NAP-4.1.1', `the first dealer must be chosen, not ${describeAction(action)}`);
        }
        if (action.seat >= this.players) return refuse('NAP-4.1.1', `there is no seat ${action.seat} at a table of ${this.players}`);
        this.dealer = action.seat;
        this.phase = 'prepare';
        return null;
      }
      case 'prepare':
        return this.prepare(seat, action);
      case 'hand': {
        this.hand.apply(seat, action);
        if (this.hand.phase === 'over') this.afterHand();
        return null;
      }
      default:
        // NAP-1.3.3: the match is over (NAP-10.4.1); nothing more is done in it, whoever offers it.
        return refuse('NAP-1.3.3', `the match is over after ${this.played} hands; no action can be taken`);
    }
  }

  // NAP-10.2.1, NAP-10.2.2, NAP-10.2.3: shuffled (the first deal, and as afterHand found), else
  // gathered and cut by the player on the dealer's right: the cut lifts `at` cards off the top, at least
  // one and not all, and the rest goes on top of them. Then the hand is dealt from that pack.
  prepare(seat, action) {
    let pack;
    inTurn('chance', seat);
    if (this.shuffleNext) {
      if (action.type !== 'shuffle') {
        return refuse('NAP-10.2.1', `the pack must be shuffled before this deal, not ${describeAction(action)}`);
      }
      // A shuffle is of the pack for the table: a wrong pack breaks NAP-2.2.1, as a deal's does.
      checkPack(action.pack, this.table, 'NAP-2.2.1');
      pack = action.pack;
    } else {
      if (action.type !== 'cut') {
        return refuse('NAP-10.2.2', `the pack must be gathered and cut before this deal, not ${describeAction(action)}`);
      }
      if (action.at >= this.pack.length) {
        return refuse('NAP-10.2.2', `a cut lifts between 1 and ${this.pack.length - 1} cards, not ${action.at}`);
      }
      pack = this.pack.slice(action.at).concat(this.pack.slice(0, action.at));
    }
    this.hand = new Hand(this.table, this.dealer, 1);
    this.hand.dealFrom(pack);
    this.phase = 'hand';
    return null;
  }

  afterHand() {
    const hand = this.hand;
    const r = hand.result;
    for (let s = 0; s < this.players; s++) this.balances[s] += r.net[s];
    this.played += 1; // NAP-10.4.1: every deal counts, a thrown-in one included
    this.pack = hand.gather();
    // How the pack is made ready for the next deal: after a throw-in as NAP-10.2.3 gives
    // (DEC-004, or always a shuffle with 'between-hands' 'shuffle'); after a made contract of a
    // bid that brings a shuffle (NAP-10.2.1, DEC-003) shuffled; otherwise as usual (NAP-10.2.1:
    // gathered and cut, or with 'between-hands' 'shuffle' shuffled).
    const t = this.table;
    if (r.thrown_in) this.shuffleNext = t.afterThrowIn === 'shuffle';
    else if (r.made === true && t.shuffleAfterMade.has(r.contract)) this.shuffleNext = true;
    else this.shuffleNext = t.usual === 'shuffle';
    this.dealer = (this.dealer + 1) % this.players; // NAP-4.1.2: the deal passes to the left
    this.hand = null;
    if (this.limit !== null && this.played >= this.limit) {
      this.phase = 'over';
      // NAP-10.4.3 (DEC-005): the highest balance wins; ties share the win.
      const best = Math.max(...this.balances);
      this.result = {
        balances: this.balances.slice(),
        pool: 0,
        winners: this.balances.map((b, s) => (b === best ? s : -1)).filter((s) => s >= 0),
        hands: this.played,
        out: [], // no stock of chips: nobody is knocked out (NAP-10.4.2 not in force)
      };
    } else {
      this.phase = 'prepare';
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The protocol.

let game = null; // a Hand or a Match

// The game a start request names: the ruleset, every option's choice (the default for one not
// given) and the table, resolved by tableFor.
function readGame(req) {
  if (req.ruleset !== RULESET) {
    if (typeof req.ruleset !== 'string') bad('$.ruleset', 'a ruleset id (a string) is required');
    bad('$.ruleset', `this program plays only the '${RULESET}' ruleset, not '${req.ruleset}'`);
  }
  if (!isObject(req.options)) bad('$.options', 'the options are an object of option name to choice');
  const options = Object.fromEntries(Object.entries(OPTIONS).map(([name, o]) => [name, o.default]));
  for (const [name, choice] of Object.entries(req.options)) {
    if (!Object.prototype.hasOwnProperty.call(OPTIONS, name)) bad(`$.options.${name}`, `classic has no option '${name}' (its options: ${Object.keys(OPTIONS).join(', ')})`);
    if (!OPTIONS[name].choices.includes(choice)) bad(`$.options.${name}`, `option ${name} has no choice ${describe(choice)} (its choices: ${OPTIONS[name].choices.join(', ')})`);
    options[name] = choice;
  }
  if (!Number.isSafeInteger(req.players)) bad('$.players', `${describe(req.players)} is not an integer`);
  if (!PLAYERS.includes(req.players)) bad('$.players', `classic is played by 3 to 7 players (NAP-3.1.1), not ${req.players}`);
  return tableFor(options, req.players);
}

function startHand(req) {
  onlyFields(req, '$', ['id', 'type', 'ruleset', 'options', 'players', 'dealer', 'seats', 'pool', 'funds', 'stakes']);
  const table = readGame(req);
  const players = table.players;
  if (!isSeatInt(req.dealer) || req.dealer >= players) bad('$.dealer', `${describe(req.dealer)} is not a seat of a table of ${players}`);
  if (!Array.isArray(req.seats)) bad('$.seats', 'the seats dealt in are an array of seats');
  const seats = req.seats.slice().sort((a, b) => a - b);
  const all = Array.from({ length: players }, (_, i) => i);
  if (seats.length !== players || seats.some((s, i) => s !== i)) {
    bad('$.seats', `classic deals every player in (no ante, sitting out or knock-out): expected ${describe(all)}, got ${describe(req.seats)}`);
  }
  if (req.pool !== 0) bad('$.pool', `classic keeps no pool (NAP-9.3.1 is not in force): it must be 0, not ${describe(req.pool)}`);
  if (req.funds !== null) bad('$.funds', `classic plays from no stock of chips: funds must be null, not ${describe(req.funds)}`);
  if (!Number.isSafeInteger(req.stakes) || req.stakes < 1) bad('$.stakes', `${describe(req.stakes)} is not a stakes multiplier (an integer from 1)`);
  game = new Hand(table, req.dealer, req.stakes);
}

function startMatch(req) {
  onlyFields(req, '$', ['id', 'type', 'ruleset', 'options', 'players', 'hands', 'chips']);
  const table = readGame(req);
  if (req.hands !== null && (!Number.isSafeInteger(req.hands) || req.hands < 1)) bad('$.hands', `${describe(req.hands)} is not a number of hands (an integer from 1, or null)`);
  if (req.chips !== null && (!Number.isSafeInteger(req.chips) || req.chips < 1)) bad('$.chips', `${describe(req.chips)} is not a number of chips (an integer from 1, or null)`);
  // classic plays from no stock of chips: balances are running totals from 0, and any agreed
  // starting chips have nothing to apply to.
  game = new Match(table, req.hands);
}

function handle(req) {
  if (!isObject(req)) bad('$', 'a request is a JSON object');
  if (!isSeatInt(req.id)) bad('$.id', `${describe(req.id)} is not a request id (an integer from 0)`);
  const id = req.id;
  switch (req.type) {
    case 'hello':
      onlyFields(req, '$', ['id', 'type', 'protocol']);
      if (req.protocol !== PROTOCOL) bad('$.protocol', `this program speaks ${PROTOCOL}, not ${describe(req.protocol)}`);
      return {
        id,
        type: 'hello',
        protocol: PROTOCOL,
        name: NAME,
        version: VERSION,
        supports: {
          kinds: ['legal', 'illegal', 'outcome', 'match'],
          rulesets: {
            [RULESET]: {
              options: Object.fromEntries(Object.entries(OPTIONS).map(([name, o]) => [name, o.choices.slice()])),
              players: PLAYERS,
            },
          },
        },
      };
    case 'start-hand':
      startHand(req);
      return { id, type: 'ok' };
    case 'start-match':
      startMatch(req);
      return { id, type: 'ok' };
    case 'legal': {
      onlyFields(req, '$', ['id', 'type']);
      if (game === null) bad('$', 'no hand or match has been started');
      return { id, type: 'legal', turn: game.turn(), actions: game.legal() };
    }
    case 'apply': {
      onlyFields(req, '$', ['id', 'type', 'seat', 'action']);
      if (req.seat !== null && !isSeatInt(req.seat)) bad('$.seat', `${describe(req.seat)} is not a seat (an integer from 0) or null (chance)`);
      const action = readAction(req.action, '$.action');
      if (game === null) bad('$', 'no hand or match has been started');
      try {
        game.apply(req.seat, action);
      } catch (e) {
        if (e instanceof Refusal) return { id, type: 'refused', rule: e.rule, reason: e.reason };
        throw e;
      }
      return { id, type: 'accepted' };
    }
    case 'outcome': {
      onlyFields(req, '$', ['id', 'type']);
      if (game === null) bad('$', 'no hand or match has been started');
      return { id, type: 'outcome', outcome: game.result === null ? null : game.result };
    }
    case 'bye':
      onlyFields(req, '$', ['id', 'type']);
      return { id, type: 'bye' };
    default:
      return bad('$.type', `${describe(req.type)} is not a request type (hello, start-hand, start-match, legal, apply, outcome, bye)`);
  }
}

// A refused action must change nothing (spec/conformance.md 2.3): the game is copied before an
// apply and put back if anything but acceptance comes of it.
function snapshot(g) {
  if (g === null) return null;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(g)), structuredClone({ ...g }));
  if (g instanceof Match && g.hand !== null) copy.hand = snapshot(g.hand);
  return copy;
}

function respond(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { id: null, type: 'error', message: `not JSON: ${e.message}` };
  }
  // A line whose id cannot be read is answered with id null (spec/conformance.md 2.1).
  const id = isObject(req) && isSeatInt(req.id) ? req.id : null;
  const saved = isObject(req) && req.type === 'apply' ? snapshot(game) : game;
  try {
    const res = handle(req);
    if (res.type === 'refused') game = saved;
    return res;
  } catch (e) {
    game = saved;
    if (e instanceof BadRequest) return { id, type: 'error', message: e.message };
    return { id, type: 'error', message: `internal error: ${e && e.stack ? e.stack.split('\n')[0] : String(e)}` };
  }
}

function main() {
  process.stdout.on('error', () => process.exit(0)); // the harness went away
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let done = false;
  rl.on('line', (line) => {
    if (done || line.trim() === '') return;
    const res = respond(line);
    process.stdout.write(`${JSON.stringify(res)}\n`);
    if (res.type === 'bye') {
      done = true;
      rl.close();
      process.stdout.write('', () => process.exit(0));
    }
  });
  rl.on('close', () => {
    process.stdout.write('', () => process.exit(0));
  });
}

main();
