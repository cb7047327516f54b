#!/usr/bin/env node
'use strict';
// napkit-adapter/1 (spec/conformance.md part 2) in front of a data-driven Nap engine
// (engine.js) that plays any ruleset of spec/rulesets/ (ruleset.js) and house files.
// Protocol code adapted from js-peep's adapter.js.

const { parse, MAX_SAFE } = require('./jsonline');
const { Hand, Match, Refusal, parseCard, SUIT_NAME } = require('./engine');
const RS = require('./ruleset');

const NAME = 'js-nap';
const VERSION = '1.0';
const MAX_LINE = 16 * 1024 * 1024;

let game = null;          // a Hand or a Match
let isMatch = false;

// Rulesets declared: every built-in one, and each house file given as `--house FILE` or
// `--ruleset-file FILE` on the command line. The environment variable JSNAP_RULESETS (comma
// separated ids) narrows the built-in ones.
const HOUSE = [];
let CHANCE = null;   // `--chance both` or `--chance program`: declare supports.chance (2.5)
for (let k = 2; k < process.argv.length; k++) {
  if ((process.argv[k] === '--house' || process.argv[k] === '--ruleset-file') && process.argv[k + 1]) HOUSE.push(process.argv[++k]);
  else if (process.argv[k] === '--chance' && process.argv[k + 1]) CHANCE = process.argv[++k];
}
function declared() {
  let ids = RS.builtinIds();
  if (process.env.JSNAP_RULESETS) ids = ids.filter((i) => process.env.JSNAP_RULESETS.split(',').includes(i));
  const out = {};
  for (const id of ids) out[id] = RS.load(id);
  for (const f of HOUSE) { const rs = RS.load(f); out[rs.id] = rs; }
  return out;
}
function hello() {
  const rulesets = {};
  for (const [id, rs] of Object.entries(declared())) {
    const options = {};
    for (const name of Object.keys(rs.options)) options[name] = '*';
    rulesets[id] = { options };
  }
  const kinds = (process.env.JSNAP_KINDS || 'legal,illegal,outcome,match').split(',');
  return {
    type: 'hello', protocol: 'napkit-adapter/1', name: NAME, version: VERSION,
    supports: { kinds, rulesets, state: true, ...(CHANCE ? { chance: CHANCE } : {}) },
  };
}

class BadRequest extends Error {}
function bad(msg) { throw new BadRequest(msg); }

const isWhole = (v) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= MAX_SAFE;

function checkFields(req, allowed) {
  for (const k of Object.keys(req)) if (!allowed.includes(k)) bad(`$.${k}: unknown field`);
  for (const k of allowed) if (!(k in req)) bad(`$: ${k} is missing`);
}

const SUITS = Object.values(SUIT_NAME);
const ACTION_FIELDS = {
  pass: [], bid: ['bid'], peek: [], buy: ['cards'], 'take-widow': [], 'leave-widow': [],
  discard: ['card'], 'name-trumps': ['suit'], play: ['card'], ante: [], 'sit-out': [],
  deal: ['pack'], reshuffle: ['stock'], 'choose-dealer': ['seat'], shuffle: ['pack'], cut: ['at'],
};
// action.schema.json
function checkAction(a) {
  if (a === null || typeof a !== 'object' || Array.isArray(a)) bad('$.action: not an object');
  if (typeof a.type !== 'string' || !(a.type in ACTION_FIELDS)) bad(`$.action.type: ${JSON.stringify(a.type)} is not an action`);
  const fields = ACTION_FIELDS[a.type];
  for (const k of Object.keys(a)) if (k !== 'type' && !fields.includes(k)) bad(`$.action.${k}: unknown field for ${a.type}`);
  for (const k of fields) if (!(k in a)) bad(`$.action: ${a.type} needs ${k}`);
  const cardList = (k, max) => {
    if (!Array.isArray(a[k])) bad(`$.action.${k}: not a list of cards`);
    if (max !== undefined && a[k].length > max) bad(`$.action.${k}: more than ${max} cards`);
    a[k].forEach((c, j) => { if (parseCard(c) === null) bad(`$.action.${k}[${j}]: ${JSON.stringify(c)} is not a card`); });
  };
  switch (a.type) {
    case 'bid': if (typeof a.bid !== 'string' || a.bid.length === 0) bad('$.action.bid: not a bid id'); break;
    case 'buy':
      cardList('cards', 5);
      // formats.md "Actions": a buy's cards are a set; a card listed twice is no action.
      if (new Set(a.cards.map(parseCard)).size !== a.cards.length) bad('$.action.cards: a card is listed twice');
      break;
    case 'discard': case 'play': if (parseCard(a.card) === null) bad(`$.action.card: ${JSON.stringify(a.card)} is not a card`); break;
    case 'name-trumps': if (!SUITS.includes(a.suit)) bad(`$.action.suit: ${JSON.stringify(a.suit)} is not a suit`); break;
    case 'deal': case 'shuffle': cardList('pack'); break;
    case 'reshuffle': cardList('stock'); break;
    case 'choose-dealer': if (!isWhole(a.seat) || a.seat < 0) bad('$.action.seat: not a seat'); break;
    case 'cut': if (!isWhole(a.at) || a.at < 1) bad('$.action.at: not a whole number from 1'); break;
  }
}

function checkGame(req) {
  if (typeof req.ruleset !== 'string') bad('$.ruleset: not a ruleset id');
  let rs;
  try { rs = RS.load(req.ruleset); } catch (e) { bad(`$.ruleset: ${e.message}`); }
  if (req.options === null || typeof req.options !== 'object' || Array.isArray(req.options)) bad('$.options: not an object');
  let r;
  try { r = RS.resolve(rs, req.options); } catch (e) { bad(e.message); }
  if (!isWhole(req.players) || !r.p.players.includes(req.players)) bad(`$.players: ${req.ruleset} with these options is for ${r.p.players.join(', ')} players (NAP-3.1.1), not ${req.players}`);
  return r;
}

function handle(req) {
  switch (req.type) {
    case 'hello':
      checkFields(req, ['id', 'type', 'protocol']);
      if (req.protocol !== 'napkit-adapter/1') bad(`$.protocol: ${JSON.stringify(req.protocol)} is not napkit-adapter/1`);
      return hello();
    case 'start-hand': {
      checkFields(req, ['id', 'type', 'ruleset', 'options', 'players', 'dealer', 'seats', 'pool', 'funds', 'stakes']);
      const rs = checkGame(req);
      const n = req.players;
      if (!isWhole(req.dealer) || req.dealer < 0 || req.dealer >= n) bad('$.dealer: not a seat of the table');
      if (!Array.isArray(req.seats) || req.seats.length < 2) bad('$.seats: needs two seats or more');
      req.seats.forEach((s, j) => { if (!isWhole(s) || s < 0 || s >= n) bad(`$.seats[${j}]: not a seat of the table`); });
      if (new Set(req.seats).size !== req.seats.length) bad('$.seats: a seat twice');
      if (!isWhole(req.pool) || req.pool < 0) bad('$.pool: not a whole number from 0');
      if (req.funds !== null) {
        if (!Array.isArray(req.funds) || req.funds.length !== n) bad(`$.funds: a list of ${n} whole numbers or null`);
        req.funds.forEach((f, j) => { if (!isWhole(f)) bad(`$.funds[${j}]: not a whole number`); });
      }
      if (!isWhole(req.stakes) || req.stakes < 1) bad('$.stakes: not a whole number from 1');
      game = new Hand(rs, req);
      isMatch = false;
      return { type: 'ok' };
    }
    case 'start-match': {
      checkFields(req, ['id', 'type', 'ruleset', 'options', 'players', 'hands', 'chips']);
      const rs = checkGame(req);
      if (req.hands !== null && (!isWhole(req.hands) || req.hands < 1)) bad('$.hands: a whole number from 1, or null');
      if (req.chips !== null && (!isWhole(req.chips) || req.chips < 1)) bad('$.chips: a whole number from 1, or null');
      game = new Match(rs, req);
      isMatch = true;
      return { type: 'ok' };
    }
    case 'legal': {
      checkFields(req, ['id', 'type']);
      if (!game) bad('$: no hand or match has been started');
      const turn = game.turn();
      const actions = (turn === 'chance' || turn === 'over') ? [] : game.legal();
      return { type: 'legal', turn, actions };
    }
    case 'apply': {
      checkFields(req, ['id', 'type', 'seat', 'action']);
      if (req.seat !== null && (!isWhole(req.seat) || req.seat < 0)) bad('$.seat: a seat (whole number from 0) or null');
      checkAction(req.action);
      if (!game) bad('$: no hand or match has been started');
      // A refused action changes nothing: apply to a copy, keep it only if accepted.
      const copy = clone(game);
      try {
        copy.apply(req.seat, req.action);
      } catch (e) {
        if (e instanceof Refusal) return { type: 'refused', rule: e.rule, reason: e.reason };
        throw e;
      }
      game = copy;
      return { type: 'accepted' };
    }
    case 'outcome': {
      checkFields(req, ['id', 'type']);
      if (!game) bad('$: no hand or match has been started');
      return { type: 'outcome', outcome: game.outcome() };
    }
    case 'state': {
      checkFields(req, ['id', 'type']);
      if (!game) bad('$: no hand or match has been started');
      return { type: 'state', state: game.state() };
    }
    case 'chance': {
      // conformance.md 2.5: make chance's next event, apply it, and say what it was.
      checkFields(req, ['id', 'type']);
      if (!game) bad('$: no hand or match has been started');
      if (game.turn() !== 'chance') bad('$: chance is not to act');
      const action = game.chanceEvent();
      game.apply(null, action);
      return { type: 'chance', action };
    }
    case 'bye':
      checkFields(req, ['id', 'type']);
      return { type: 'bye' };
    default:
      bad(`$.type: ${JSON.stringify(req.type)} is not a request`);
  }
}

// Deep copy of the engine's state (plain data, Sets, class instances).
function clone(v) {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Set) return new Set([...v].map(clone));
  if (Array.isArray(v)) return v.map(clone);
  const out = Object.create(Object.getPrototypeOf(v));
  for (const k of Object.keys(v)) out[k] = clone(v[k]);
  return out;
}

// ------------------------------------------------------------------ transport (2.1)
function send(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }
const decoder = new TextDecoder('utf-8', { fatal: true });
let done = false;

function answerLine(buf) {
  let text;
  try { text = decoder.decode(buf); } catch (e) { return send({ id: null, type: 'error', message: '$: the line is not UTF-8' }); }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (/^[ \t\r\n]*$/.test(text)) return;             // a line of whitespace is no request
  let parsed;
  try { parsed = parse(text); } catch (e) { return send({ id: null, type: 'error', message: `$: not JSON: ${e.message}` }); }
  const req = parsed.value;
  if (req === null || typeof req !== 'object' || Array.isArray(req)) return send({ id: null, type: 'error', message: '$: not a JSON object' });
  if (!Object.prototype.hasOwnProperty.call(req, 'id')) return send({ id: null, type: 'error', message: '$: no id' });
  if (parsed.problems.some((p) => p.startsWith('$.id: the key'))) return send({ id: null, type: 'error', message: '$.id: given twice' });
  const id = req.id;
  if (!isWhole(id) || id < 0 || parsed.problems.some((p) => p.startsWith('$.id:'))) return send({ id: null, type: 'error', message: '$.id: not a whole number from 0 to 2^53 - 1' });
  if (parsed.problems.length) return send({ id, type: 'error', message: parsed.problems[0] });
  let answer;
  try {
    answer = handle(req);
  } catch (e) {
    const msg = (e instanceof BadRequest ? e.message : `$: internal error: ${e && e.stack ? e.stack : e}`).replace(/[\r\n]+/g, ' | ');
    if (!(e instanceof BadRequest)) process.stderr.write(String(e && e.stack) + '\n');
    return send({ id, type: 'error', message: msg });
  }
  send({ id, ...answer });
  if (answer.type === 'bye') {
    done = true;
    process.stdout.write('', () => process.exit(0));
  }
}

let chunks = [];
let size = 0;
let tooLong = false;
process.stdin.on('data', (data) => {
  let start = 0;
  while (!done) {
    const nl = data.indexOf(10, start);
    const end = nl < 0 ? data.length : nl;
    if (!tooLong) {
      if (size + (end - start) > MAX_LINE) { tooLong = true; chunks = []; size = 0; }
      else if (end > start) { chunks.push(data.subarray(start, end)); size += end - start; }
    }
    if (nl < 0) break;
    if (tooLong) send({ id: null, type: 'error', message: `$: the line is longer than ${MAX_LINE} bytes` });
    else answerLine(Buffer.concat(chunks, size));
    chunks = []; size = 0; tooLong = false;
    start = nl + 1;
  }
});
process.stdin.on('end', () => {
  if (!done && (size > 0 || tooLong)) {
    if (tooLong) send({ id: null, type: 'error', message: `$: the line is longer than ${MAX_LINE} bytes` });
    else answerLine(Buffer.concat(chunks, size));
  }
});
