'use strict';
// The ruleset loader: spec/rulesets/ID.json with its `extends` chain, decision options from
// spec/decisions.toml, house files (spec/README.md "House rulesets"), and resolution of the
// parameters under a choice of options ("Options and by_option"). Written from spec/ alone.

const fs = require('fs');
const path = require('path');

const SPEC = path.resolve(__dirname, '..', '..', '..', 'spec');
const RULESETS = path.join(SPEC, 'rulesets');

// ------------------------------------------------------------------ the decisions register
// Only what options need: each decision's alternatives (in order) and default. The register is
// TOML; its `alternatives` are one-line inline tables (`{ a = "...", b = "..." }`).
let DECISIONS = null;
function parseInlineTableKeys(text) {
  // text: the inside of `{ ... }`; returns the keys in order.
  const keys = [];
  let k = 0;
  const n = text.length;
  while (k < n) {
    while (k < n && /[\s,]/.test(text[k])) k++;
    if (k >= n) break;
    let key;
    if (text[k] === '"') {
      let j = k + 1; let s = '';
      while (j < n && text[j] !== '"') { if (text[j] === '\\') { s += text[j + 1]; j += 2; } else s += text[j++]; }
      key = s; k = j + 1;
    } else {
      let j = k; while (j < n && /[A-Za-z0-9_-]/.test(text[j])) j++;
      key = text.slice(k, j); k = j;
    }
    while (k < n && text[k] !== '=') k++;
    k++;
    while (k < n && /\s/.test(text[k])) k++;
    // the value: a basic string
    if (text[k] === '"') {
      let j = k + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      k = j + 1;
    } else {
      while (k < n && text[k] !== ',') k++;
    }
    keys.push(key);
  }
  return keys;
}
function decisions() {
  if (DECISIONS) return DECISIONS;
  DECISIONS = {};
  const text = fs.readFileSync(path.join(SPEC, 'decisions.toml'), 'utf8');
  for (const block of text.split(/^\[\[decisions\]\]\s*$/m).slice(1)) {
    const id = /^id\s*=\s*"([^"]+)"/m.exec(block);
    if (!id) continue;
    const alt = /^alternatives\s*=\s*\{(.*)\}\s*$/m.exec(block);
    const def = /^default\s*=\s*"([^"]*)"/m.exec(block);
    const title = /^title\s*=\s*"([^"]*)"/m.exec(block);
    const rule = /^rule\s*=\s*"([^"]*)"/m.exec(block);
    DECISIONS[id[1]] = {
      choices: alt ? parseInlineTableKeys(alt[1]) : [],
      default: def ? def[1] : null,
      title: title ? title[1] : id[1],
      rule: rule ? rule[1] : null,
    };
  }
  return DECISIONS;
}

class SpecError extends Error {}

// An option as {choices: [...], default}: a variation option's own, or a decision's.
function optionOf(name, opt) {
  if (opt && opt.decision) {
    const d = decisions()[opt.decision];
    if (!d) throw new SpecError(`option ${name}: no decision ${opt.decision}`);
    return { choices: [...d.choices], default: d.default, rule: d.rule };
  }
  return { choices: Object.keys(opt.choices), default: opt.default, rule: opt.rule };
}

// ------------------------------------------------------------------ extends (built-in)
// spec/README.md "Inheritance": rules, options: key by key, null removes; params: top-level
// keys replace whole.
const BUILTIN = {};
function builtinIds() {
  return fs.readdirSync(RULESETS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}
function loadBuiltin(id) {
  if (BUILTIN[id]) return BUILTIN[id];
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id)) throw new SpecError(`no ruleset ${JSON.stringify(id)}`);
  const file = path.join(RULESETS, id + '.json');
  if (!fs.existsSync(file)) throw new SpecError(`no ruleset ${JSON.stringify(id)}`);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  let rs;
  if (raw.extends) {
    const parent = loadBuiltin(raw.extends);
    rs = { id: raw.id, title: raw.title, rules: { ...parent.rules }, options: { ...parent.options }, params: { ...parent.params } };
    for (const [k, v] of Object.entries(raw.rules || {})) { if (v === null) delete rs.rules[k]; else rs.rules[k] = v; }
    for (const [k, v] of Object.entries(raw.options || {})) { if (v === null) delete rs.options[k]; else rs.options[k] = optionOf(k, v); }
    for (const [k, v] of Object.entries(raw.params || {})) rs.params[k] = v;
  } else {
    rs = { id: raw.id, title: raw.title, rules: { ...(raw.rules || {}) }, options: {}, params: { ...(raw.params || {}) } };
    for (const [k, v] of Object.entries(raw.options || {})) rs.options[k] = optionOf(k, v);
  }
  BUILTIN[id] = rs;
  return rs;
}

// ------------------------------------------------------------------ house files
// spec/README.md "House rulesets": options narrowed (`choices`, `default`); params merged
// deeply (objects key by key; anything else replaces whole); by-option switches for dropped
// choices lose those cases.
function isPlainObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v) && !('by_option' in v); }
function deepMerge(base, over) {
  if (isPlainObject(base) && isPlainObject(over)) {
    const out = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = k in base ? deepMerge(base[k], v) : v;
    return out;
  }
  return over;
}
function loadHouse(file) {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (raw.house !== true) throw new SpecError(`${file}: not a house ruleset ("house": true)`);
  if (builtinIds().includes(raw.id)) throw new SpecError(`${file}: $.id: ${raw.id} is a built-in ruleset`);
  const parent = loadBuiltin(raw.extends);
  const rs = { id: raw.id, title: raw.title, house: true, rules: { ...parent.rules }, options: {}, params: {} };
  for (const [k, v] of Object.entries(parent.options)) rs.options[k] = { ...v, choices: [...v.choices] };
  for (const [k, v] of Object.entries(raw.options || {})) {
    const o = rs.options[k];
    if (!o) throw new SpecError(`${file}: $.options.${k}: ${parent.id} has no option ${k}`);
    if (v.choices) {
      for (const c of v.choices) if (!o.choices.includes(c)) throw new SpecError(`${file}: $.options.${k}: no choice ${c}`);
      o.choices = [...v.choices];
    }
    if (v.default !== undefined) o.default = v.default;
    else if (!o.choices.includes(o.default)) o.default = o.choices[0];
  }
  rs.params = { ...parent.params };
  for (const [k, v] of Object.entries(raw.params || {})) rs.params[k] = k in rs.params ? deepMerge(rs.params[k], v) : v;
  return rs;
}

// ------------------------------------------------------------------ resolving
// Replace every {by_option, cases} by the case of the chosen option; drop bids whose
// only_when does not hold (NAP-5.2.2).
function resolveValue(v, chosen) {
  if (Array.isArray(v)) return v.map((x) => resolveValue(x, chosen));
  if (v !== null && typeof v === 'object') {
    if ('by_option' in v && 'cases' in v) {
      const c = chosen[v.by_option];
      if (!(c in v.cases)) throw new SpecError(`switch on ${v.by_option} has no case ${c}`);
      return resolveValue(v.cases[c], chosen);
    }
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = resolveValue(x, chosen);
    return out;
  }
  return v;
}

// Returns {id, options: chosen, p: resolved params}. `given`: option -> choice (every option
// of the ruleset may be given; those left out take their default).
function resolve(rs, given) {
  const chosen = {};
  for (const [k, o] of Object.entries(rs.options)) chosen[k] = o.default;
  for (const [k, v] of Object.entries(given || {})) {
    if (!(k in rs.options)) throw new SpecError(`$.options.${k}: ${rs.id} has no option ${JSON.stringify(k)}`);
    if (!rs.options[k].choices.includes(v)) throw new SpecError(`$.options.${k}: ${JSON.stringify(v)} is not a choice of ${k} (${rs.options[k].choices.join(', ')})`);
    chosen[k] = v;
  }
  const params = {};
  for (const [k, v] of Object.entries(rs.params)) {
    if (k === 'bids') continue;
    params[k] = resolveValue(v, chosen);
  }
  params.bids = [];
  for (const b of rs.params.bids || []) {
    if (b.only_when && !b.only_when.choices.includes(chosen[b.only_when.option])) continue;
    params.bids.push(resolveValue(b, chosen));
  }
  return { id: rs.id, options: chosen, p: params };
}

const cache = {};
function load(idOrPath) {
  if (cache[idOrPath]) return cache[idOrPath];
  let rs;
  if (idOrPath.endsWith('.json') || idOrPath.includes('/')) rs = loadHouse(idOrPath);
  else rs = loadBuiltin(idOrPath);
  cache[idOrPath] = rs;
  if (rs.house) cache[rs.id] = rs;
  return rs;
}

module.exports = { load, resolve, builtinIds, SpecError, loadHouse };
