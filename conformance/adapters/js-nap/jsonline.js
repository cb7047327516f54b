'use strict';
// A strict JSON reader for one line of napkit-adapter/1 (spec/conformance.md 2.1,
// spec/formats.md "The JSON napkit reads"): UTF-8, no NaN/Infinity, whole numbers only within
// +-(2^53 - 1), a key once per object, nesting at most 100 deep.
//
// parse(text) returns {value, problems} where problems is a list of "PATH: WHAT" strings for
// things that are JSON but not napkit JSON (a key twice, 1.0, a number out of range, too
// deep), or throws a SyntaxError for text that is not JSON at all. The parser is iterative, so
// a very deep line cannot overflow the stack.

const MAX_DEPTH = 100;
const MAX_SAFE = 9007199254740991;

function pathKey(path, key) {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function parse(text) {
  let i = 0;
  const n = text.length;
  const problems = [];
  const note = (where, what) => { if (problems.length < 10) problems.push(`${where()}: ${what}`); };
  // Paths are built only when a problem is noted: a frame knows its parent and its key.
  const pathOf = (frame, key) => {
    const keys = [];
    if (key !== undefined) keys.push(key);
    for (let f = frame; f && f.parent !== undefined; f = f.parent) keys.push(f.keyInParent);
    let out = '$';
    for (let j = keys.length - 1; j >= 0; j--) out = pathKey(out, keys[j]);
    return out;
  };
  // Each stack frame: {kind: 'obj'|'arr', value, path, key (pending for obj), keys:Set, state}
  const stack = [];
  let root;
  let haveRoot = false;

  function fail(msg) {
    const e = new SyntaxError(`column ${i + 1}: ${msg}`);
    throw e;
  }
  function ws() {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  }
  function readString() {
    // text[i] === '"'
    i++;
    let out = '';
    let start = i;
    while (true) {
      if (i >= n) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) { out += text.slice(start, i); i++; return out; }
      if (c < 0x20) fail('control character in a string');
      if (c === 0x5c) {
        out += text.slice(start, i);
        i++;
        if (i >= n) fail('unterminated string');
        const e = text[i];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const h = text.slice(i + 1, i + 5);
            if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('bad \\u escape');
            out += String.fromCharCode(parseInt(h, 16));
            i += 4;
            break;
          }
          default: fail('bad escape');
        }
        i++;
        start = i;
        continue;
      }
      i++;
    }
  }
  function readNumber(where) {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' ) fail('bad number');
    // a number longer than 400 characters: take the whole run
    let raw = m[0];
    if (raw.length === 400 || (i + raw.length < n && /[0-9.eE+-]/.test(text[i + raw.length]))) {
      let j = i;
      while (j < n && /[0-9.eE+-]/.test(text[j])) j++;
      raw = text.slice(i, j);
      if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(raw)) fail('bad number');
    }
    i += raw.length;
    if (raw.includes('.') || /[eE]/.test(raw)) {
      note(where, `${raw} is not a whole number written without a point or an exponent`);
      return Number(raw);
    }
    const v = Number(raw);
    const big = BigInt(raw);
    if (big > BigInt(MAX_SAFE) || big < -BigInt(MAX_SAFE)) {
      note(where, `${raw} is outside -(2^53 - 1) .. 2^53 - 1`);
    }
    return v;
  }
  function readLiteral() {
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    fail('unexpected character ' + JSON.stringify(text[i]));
  }

  // Read a value at position i; containers push a frame and return a marker.
  const OPEN = {};
  let tooDeep = false;
  function readValue(parent, key, depth) {
    const where = () => pathOf(parent, key);
    ws();
    if (i >= n) fail('unexpected end of input');
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth > MAX_DEPTH && !tooDeep) {
        tooDeep = true;
        note(where, `nested more than ${MAX_DEPTH} deep`);
      }
      i++;
      const frame = c === '{'
        ? { kind: 'obj', value: {}, parent, keyInParent: key, keys: new Set(), key: null, count: 0, depth }
        : { kind: 'arr', value: [], parent, keyInParent: key, count: 0, depth };
      stack.push(frame);
      return OPEN;
    }
    if (c === '"') return readString();
    if (c === '-' || (c >= '0' && c <= '9')) return readNumber(where);
    return readLiteral();
  }
  function attach(v) {
    if (stack.length === 0) { root = v; haveRoot = true; return; }
    const f = stack[stack.length - 1];
    if (f.kind === 'arr') f.value.push(v);
    else {
      if (f.keys.has(f.key)) {
        const k = f.key;
        note(() => pathOf(f, k), `the key ${JSON.stringify(k)} is given twice`);
        f.dup = f.dup || new Set();
        f.dup.add(f.key);
      } else {
        f.keys.add(f.key);
        Object.defineProperty(f.value, f.key, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    f.count++;
  }

  let v = readValue(undefined, undefined, 1);
  if (v !== OPEN) attach(v);
  while (stack.length) {
    const f = stack[stack.length - 1];
    ws();
    if (i >= n) fail('unexpected end of input');
    if (f.kind === 'arr') {
      if (text[i] === ']') {
        i++; stack.pop(); attach(f.value); continue;
      }
      if (f.count > 0) {
        if (text[i] !== ',') fail('expected , or ]');
        i++;
      }
      const val = readValue(f, f.count, f.depth + 1);
      if (val !== OPEN) attach(val);
    } else {
      if (text[i] === '}') {
        i++; stack.pop(); attach(f.value); continue;
      }
      if (f.count > 0) {
        if (text[i] !== ',') fail('expected , or }');
        i++;
        ws();
      }
      if (text[i] !== '"') fail('expected a key');
      f.key = readString();
      ws();
      if (text[i] !== ':') fail('expected :');
      i++;
      const val = readValue(f, f.key, f.depth + 1);
      if (val !== OPEN) attach(val);
    }
  }
  ws();
  if (i < n) fail('text after the JSON value');
  if (!haveRoot) fail('no value');
  return { value: root, problems, dupKeysAtTop: null };
}

module.exports = { parse, MAX_SAFE };
