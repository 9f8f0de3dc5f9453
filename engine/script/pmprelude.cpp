// Postman's `pm` API as scripts use it, in JavaScript: run once in a
// runtime's shared realm, whose code (and the JIT's work on it) every virtual
// user's realm then shares; __pmInstall(global) gives a user's global its
// own pm, console, require, CryptoJS, btoa and atob, and its [call, end].
// A run is one call, its facts and the script's function as arguments; the
// variables, the request, the answer's headers and body are asked of the
// host (JsRuntime::PmHost, through natives) only when the script first reads
// them; each pm.test and console.log line goes to the host as it happens;
// end gives back, as JSON, only what the script changed ("" when nothing).
// What a user's script can reach of the shared realm is frozen, as is its
// global: one user cannot change what another's API does.
#include "builtins.h"

namespace stampede::script {

const char* pmPreludeSource()
{
    return R"JS(
(() => {
  // (the shared realm's prototypes are frozen below: a name is on the prototype, not set on each error)
  class AssertionError extends Error {}
  AssertionError.prototype.name = 'AssertionError';
  // what a value is, across realms (a user's RegExp, Map or Set is not an instance of this realm's)
  const tagOf = (v) => Object.prototype.toString.call(v);
  const isMapOrSet = (v) => v !== null && typeof v === 'object' && (tagOf(v) === '[object Map]' || tagOf(v) === '[object Set]');
  // A value in an assertion's message as chai shows it (its objDisplay over loupe's inspect: 40 characters at
  // most, what does not fit counted as "…(n)"), written here after their documented output.
  const ELLIPSIS = '\u2026';
  const cut = (text, n) => {
    text = String(text);
    if (ELLIPSIS.length > n && text.length > ELLIPSIS.length) return ELLIPSIS;
    return text.length > n && text.length > ELLIPSIS.length ? text.slice(0, n - ELLIPSIS.length) + ELLIPSIS : text;
  };
  const escapes = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', "'": "\\'", '\\': '\\\\' };
  const unprintable = /['\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0604\u070f\u17b4\u17b5\u200c-\u200f\u2028-\u202f\u2060-\u206f\ufeff\ufff0-\uffff]/g;
  const escapeChar = (c) => escapes[c] || '\\u' + ('0000' + c.charCodeAt(0).toString(16)).slice(-4);
  // a list's items while they fit in o.truncate, the rest as "…(n)" (loupe's inspectList)
  const inspectList = (items, o, one = inspect, sep = ', ') => {
    const size = items.length;
    if (size === 0) return '';
    const room = o.truncate;
    let out = '', next = '', rest = '';
    for (let i = 0; i < size; i += 1) {
      const last = i + 1 === size, secondLast = i + 2 === size;
      rest = ELLIPSIS + '(' + (size - i) + ')';
      o.truncate = room - out.length - (last ? 0 : sep.length);
      const text = next || one(items[i], o) + (last ? '' : sep);
      const length = out.length + text.length, withRest = length + rest.length;
      if (last && length > room && out.length + rest.length <= room) break;
      if (!last && !secondLast && withRest > room) break;
      next = last ? '' : one(items[i + 1], o) + (secondLast ? '' : sep);
      if (!last && secondLast && withRest > room && length + next.length > room) break;
      out += text;
      if (!last && !secondLast && length + next.length >= room) { rest = ELLIPSIS + '(' + (size - i - 1) + ')'; break; }
      rest = '';
    }
    return out + rest;
  };
  const inspectPair = ([key, value], o) => {
    o.truncate -= 2;
    if (typeof key === 'string')
      key = /^[a-zA-Z_][a-zA-Z_0-9]*$/.test(key) ? key : "'" + JSON.stringify(key).slice(1, -1).replace(/'/g, "\\'").replace(/\\"/g, '"') + "'";
    else if (typeof key !== 'number') key = '[' + inspect(key, o) + ']';
    o.truncate -= String(key).length;
    return key + ': ' + inspect(value, o);
  };
  const inspectObject = (v, o) => {
    const keys = Object.getOwnPropertyNames(v);
    if (keys.length === 0) return '{}';
    o.truncate -= 4;
    if (o.seen.includes(v)) return '[Circular]';
    o.seen.push(v);
    const text = inspectList(keys.map((k) => [k, v[k]]), o, inspectPair);
    o.seen.pop();
    return '{ ' + text + ' }';
  };
  const inspectNumber = (v, o) => Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity'
                                : v === 0 ? (1 / v === Infinity ? '+0' : '-0') : cut(v, o.truncate);
  const inspectTyped = {
    Array: (v, o) => {
      const extra = Object.keys(v).slice(v.length);
      if (!v.length && !extra.length) return '[]';
      o.truncate -= 4;
      const items = inspectList(v, o);
      o.truncate -= items.length;
      const more = extra.length ? inspectList(extra.map((k) => [k, v[k]]), o, inspectPair) : '';
      return '[ ' + items + (more ? ', ' + more : '') + ' ]';
    },
    Date: (v, o) => {
      const json = v.toJSON();
      if (json === null) return 'Invalid Date';
      const [day, time] = json.split('T');
      return day + 'T' + cut(time, o.truncate - day.length - 1);
    },
    Map: (v, o) => {
      if (v.size - 1 <= 0) return 'Map{}'; // loupe's: a map of one shows so
      o.truncate -= 7;
      return 'Map{ ' + inspectList([...v.entries()], o, ([k, x], p) => {
        p.truncate -= 4; const key = inspect(k, p); p.truncate -= key.length; return key + ' => ' + inspect(x, p);
      }) + ' }';
    },
    Set: (v, o) => { if (v.size === 0) return 'Set{}'; o.truncate -= 7; return 'Set{ ' + inspectList([...v], o) + ' }'; },
    RegExp: (v, o) => { const flags = v.toString().split('/').pop(); return '/' + cut(v.source, o.truncate - (2 + flags.length)) + '/' + flags; },
    Error: (v, o) => {
      o.truncate -= v.name.length;
      const message = typeof v.message === 'string' && v.message ? ': ' + cut(v.message, o.truncate) : '';
      return v.name + message;
    },
    Number: (v, o) => inspectNumber(Number(v), o),
    Boolean: (v) => String(Boolean(v)),
  };
  const inspect = (v, o) => {
    if (v === null) return 'null';
    switch (typeof v) {
    case 'undefined': return 'undefined';
    case 'boolean': return String(v);
    case 'number': return inspectNumber(v, o);
    case 'bigint': { const t = cut(v.toString(), o.truncate - 1); return t === ELLIPSIS ? t : t + 'n'; }
    case 'string': return "'" + cut(v.replace(unprintable, escapeChar), o.truncate - 2) + "'";
    case 'symbol': return v.toString();
    case 'function': return v.name ? '[Function ' + cut(v.name, o.truncate - 11) + ']' : '[Function]';
    }
    const tag = Object.prototype.toString.call(v).slice(8, -1);
    if (inspectTyped[tag]) return inspectTyped[tag](v, o);
    const proto = Object.getPrototypeOf(v); // a plain object of any realm (the user's has its own Object)
    if (proto === null || Object.getPrototypeOf(proto) === null || !('constructor' in v))
      return inspectObject(v, o);
    let name = (typeof Symbol.toStringTag === 'symbol' && v[Symbol.toStringTag]) || v.constructor.name;
    if (!name || name === '_class') name = '<Anonymous Class>';
    o.truncate -= name.length;
    return name + inspectObject(v, o);
  };
  // a value console.log writes: whole (as JSON where it can be), not cut as an assertion's message cuts it
  const logText = (v) => {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return show(v);
    try { return JSON.stringify(v) ?? String(v); } catch (e) { return String(v); }
  };
  const show = (v) => {
    let text;
    try { text = inspect(v, { truncate: 40, seen: [] }); } catch (e) { return String(v); }
    if (text.length < 40) return text;
    const tag = Object.prototype.toString.call(v);
    if (tag === '[object Function]') return v.name ? '[Function: ' + v.name + ']' : '[Function]';
    if (tag === '[object Array]') return '[ Array(' + v.length + ') ]';
    if (tag === '[object Object]') {
      const keys = Object.keys(v);
      return '{ Object (' + (keys.length > 2 ? keys.splice(0, 2).join(', ') + ', ...' : keys.join(', ')) + ') }';
    }
    return text;
  };
  const deepEqual = (a, b) => {
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  };
  const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : tagOf(v) === '[object RegExp]' ? 'regexp' : typeof v);
  const sizeOf = (v) => (isMapOrSet(v) ? v.size : v == null ? undefined : v.length);

  // chai's BDD chain: words that read, flags (not, deep), and assertions
  class Assertion {
    constructor(value, message) { this._v = value; this._not = false; this._deep = false; this._msg = message; }
    // `plain`: `what` says the negation itself ("to be falsy", as chai's)
    _check(ok, what, plain) {
      if (plain ? !ok : Boolean(ok) === this._not)
        throw new AssertionError((this._msg ? this._msg + ': ' : '') + 'expected ' + show(this._v) +
                                 (this._not && !plain ? ' to not ' : ' to ') + what);
      return this;
    }
    get not() { this._not = !this._not; return this; }
    get deep() { this._deep = true; return this; }
    get nested() { this._nested = true; return this; }
    get own() { this._own = true; return this; }
    get all() { this._all = true; return this; }
    get any() { this._any = true; return this; }
    get ordered() { return this; }
    // lengthOf(n), and a chain to a length's bound (.lengthOf.above(2)) as chai's chainable method
    get lengthOf() {
      const a = this;
      const f = (n) => a._check(sizeOf(a._v) === n, 'have a length of ' + show(n) + (a._not ? '' : ' but got ' + show(sizeOf(a._v))));
      for (const w of ['above', 'below', 'least', 'most', 'within', 'gt', 'lt', 'gte', 'lte', 'greaterThan', 'lessThan'])
        f[w] = (...x) => { a._len = true; return a[w](...x); };
      return f;
    }
    get length() { return this.lengthOf; }
    // a bound of the value, or of its length after .lengthOf: chai's messages for each
    _bound(ok, words, n) {
      if (!this._len) return this._check(ok(this._v), 'be ' + words + ' ' + show(n));
      const size = sizeOf(this._v);
      return this._check(ok(size), 'have a length ' + words + ' ' + show(n) + (this._not ? '' : ' but got ' + show(size)));
    }
    get ok() { return this._check(this._not ? !this._v : this._v, this._not ? 'be falsy' : 'be truthy', true); }
    get true() { return this._check(this._v === true, 'be true'); }
    get false() { return this._check(this._v === false, 'be false'); }
    get null() { return this._check(this._v === null, 'be null'); }
    get undefined() { return this._check(this._v === undefined, 'be undefined'); }
    get NaN() { return this._check(Number.isNaN(this._v), 'be NaN'); }
    get exist() { return this._check(this._v != null, 'exist'); }
    get empty() {
      const v = this._v;
      const empty = typeof v === 'string' || Array.isArray(v) ? v.length === 0
                  : isMapOrSet(v) ? v.size === 0
                  : v !== null && typeof v === 'object' ? Object.keys(v).length === 0 : false;
      if (this._not && empty) // chai's own word order for this one
        throw new AssertionError((this._msg ? this._msg + ': ' : '') + 'expected ' + show(v) + ' not to be empty');
      return this._check(empty, 'be empty');
    }
    equal(x) {
      return this._check(this._deep ? deepEqual(this._v, x) : this._v === x, (this._deep ? 'deeply equal ' : 'equal ') + show(x));
    }
    eql(x) { return this._check(deepEqual(this._v, x), 'deeply equal ' + show(x)); }
    a(type) {
      const t = String(type).toLowerCase();
      return this._check(typeName(this._v) === t, (/^[aeiou]/.test(t) ? 'be an ' : 'be a ') + t);
    }
    include(x) {
      const v = this._v;
      let ok;
      if (typeof v === 'string') ok = v.includes(x);
      else if (Array.isArray(v) || tagOf(v) === '[object Set]' || tagOf(v) === '[object Map]')
        ok = [...(tagOf(v) === '[object Map]' ? v.values() : v)].some((e) => (this._deep ? deepEqual(e, x) : e === x));
      else if (x !== Object(x)) { // chai's: a value only a string, an array, a map or a set can include
        const t = typeName(x);
        throw new AssertionError((this._msg ? this._msg + ': ' : '') + 'the given combination of arguments (' +
                                 typeName(v) + ' and ' + t + ') is invalid for this assertion. You can use an array, ' +
                                 'a map, an object, a set, a string, or a weakset instead of a ' + t);
      } else if (v !== null && typeof v === 'object')
        ok = Object.keys(x).every((k) => (this._deep ? deepEqual(v[k], x[k]) : v[k] === x[k]));
      else ok = false;
      return this._check(ok, 'include ' + show(x));
    }
    property(name, ...value) {
      const v = this._v;
      let has, got;
      if (this._nested) { // "a.b[1].c", as chai's pathval reads it
        const parts = String(name).replace(/\[/g, '.[').split('.').filter((p) => p !== '')
          .map((p) => (/^\[\d+\]$/.test(p) ? Number(p.slice(1, -1)) : p.replace(/\\([.[\]])/g, '$1')));
        let o = v;
        has = true;
        for (const p of parts) {
          if (o === null || o === undefined || !(p in Object(o))) { has = false; o = undefined; break; }
          o = o[p];
        }
        got = o;
      } else {
        has = v !== null && v !== undefined &&
              (this._own ? Object.prototype.hasOwnProperty.call(v, name)
                         : typeof v === 'object' || typeof v === 'function' ? name in v : Object(v)[name] !== undefined);
        got = has ? v[name] : undefined;
      }
      const descriptor = (this._deep ? 'deep ' : '') + (this._nested ? 'nested ' : '') + (this._own ? 'own ' : '') + 'property ';
      if (value.length === 0) {
        this._check(has, 'have ' + descriptor + show(name));
      } else {
        const ok = has && (this._deep ? deepEqual(got, value[0]) : got === value[0]);
        this._check(ok, 'have ' + descriptor + show(name) + ' of ' + show(value[0]) + (this._not ? '' : ', but got ' + show(got)));
      }
      if (!this._not) this._v = got; // chai goes on with the property's value
      return this;
    }
    closeTo(expected, delta) {
      return this._check(Math.abs(this._v - expected) <= delta, 'be close to ' + show(expected) + ' +/- ' + show(delta));
    }
    above(n) { return this._bound((x) => x > n, 'above', n); }
    least(n) { return this._bound((x) => x >= n, 'at least', n); }
    below(n) { return this._bound((x) => x < n, 'below', n); }
    most(n) { return this._bound((x) => x <= n, 'at most', n); }
    within(a, b) {
      const range = show(a) + '..' + show(b);
      if (!this._len) return this._check(this._v >= a && this._v <= b, 'be within ' + range);
      const size = sizeOf(this._v);
      return this._check(size >= a && size <= b, 'have a length within ' + range);
    }
    match(re) { return this._check(re.test(String(this._v)), 'match ' + re); }
    // chai-postman's jsonSchema: the value (a response's JSON body) valid by the schema, by ajv (require('ajv'))
    jsonSchema(schema, options) { schemaAssert(this._v, schema, options, this._not, this._msg); return this; }
    // chai-postman's assertions on a response (pm.expect(pm.response), or pm.sendRequest's answer)
    _response(name, args) { new ResponseHave(this._v, this._not)[name](...args); return this; }
    status(...a) { return this._response('status', a); }
    header(...a) { return this._response('header', a); }
    jsonBody(...a) { return this._response('jsonBody', a); }
    // chai's throw: the function throws; with an Error type, a text (contained in the message) or a RegExp, that one
    throw(expected) {
      if (typeof this._v !== 'function')
        throw new AssertionError('expected ' + show(this._v) + ' to be a function');
      let thrown = false, error;
      try { this._v(); } catch (e) { thrown = true; error = e; }
      const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
      const ok = thrown && (expected === undefined ? true
        : typeof expected === 'function' ? error instanceof expected
        : tagOf(expected) === '[object RegExp]' ? expected.test(message) : message.includes(String(expected)));
      const what = expected === undefined ? 'throw an error'
        : typeof expected === 'function' ? 'throw ' + (expected.name || 'the error type')
        : 'throw an error matching ' + show(expected);
      if (ok === this._not)
        throw new AssertionError((this._msg ? this._msg + ': ' : '') + 'expected [Function] to ' + (this._not ? 'not ' : '') +
                                 what + (thrown && !ok ? ' but ' + show(message) + ' was thrown' : ''));
      return this;
    }
    string(s) { return this._check(typeof this._v === 'string' && this._v.includes(s), 'contain ' + show(s)); }
    oneOf(list) { return this._check(list.some((e) => (this._deep ? deepEqual(e, this._v) : e === this._v)), 'be one of ' + show(list)); }
    members(list) {
      const v = [...(this._v || [])];
      const same = v.length === list.length && list.every((e) => {
        const i = v.findIndex((x) => (this._deep ? deepEqual(x, e) : x === e));
        if (i < 0) return false;
        v.splice(i, 1);
        return true;
      });
      return this._check(same, 'have the same members as ' + show(list));
    }
    // keys: all of them and no other (the default, .all), or .any of them; chai's message names them
    keys(...names) {
      let list = names.length === 1 && Array.isArray(names[0]) ? names[0]
               : names.length === 1 && names[0] !== null && typeof names[0] === 'object' ? Object.keys(names[0]) : names;
      list = list.map(String);
      const v = this._v;
      const own = isMapOrSet(v) ? [...v.keys()].map(String) : v !== null && typeof v === 'object' ? Object.keys(v) : [];
      const any = this._any && !this._all;
      const ok = any ? list.some((k) => own.includes(k)) : list.every((k) => own.includes(k)) && own.length === list.length;
      const shown = list.map(show);
      const last = shown.pop();
      const text = shown.length ? shown.join(', ') + (any ? ', or ' : ', and ') + last : last;
      return this._check(ok, 'have ' + (list.length > 1 ? 'keys ' : 'key ') + text);
    }
    instanceOf(type) { return this._check(this._v instanceof type, 'be an instance of ' + (type && type.name)); }
    satisfy(fn) { return this._check(fn(this._v), 'satisfy ' + (fn.name || 'the function')); }
  }
  for (const word of ['to', 'be', 'been', 'is', 'that', 'which', 'and', 'has', 'have', 'with', 'at', 'of', 'same', 'but', 'does', 'still', 'also'])
    Object.defineProperty(Assertion.prototype, word, { get() { return this; } });
  const aliases = { equals: 'equal', eq: 'equal', eqls: 'eql', an: 'a', includes: 'include', contain: 'include',
                    contains: 'include', gt: 'above', greaterThan: 'above', gte: 'least',
                    lt: 'below', lessThan: 'below', lte: 'most', matches: 'match', instanceof: 'instanceOf',
                    approximately: 'closeTo',
                    key: 'keys', satisfies: 'satisfy', haveOwnProperty: 'property', ownProperty: 'property',
                    throws: 'throw', Throw: 'throw' };
  for (const [alias, name] of Object.entries(aliases))
    Object.defineProperty(Assertion.prototype, alias, { value: Assertion.prototype[name], writable: true });
  const expect = (value, message) => new Assertion(value, message);

  // the host's natives, kept here and taken off the global
  const host = { variables: __pmVariables, request: __pmRequest, headers: __pmHeaders, body: __pmBody,
                 jsonDoc: __pmJsonDoc, jsonValue: __pmJsonValue, test: __pmTest, change: __pmChange, log: __pmLog,
                 module: __pmModule, hold: __pmHold, randomBytes: __pmRandomBytes, modulesGlobal: __pmModulesGlobal,
                              cookies: __pmCookies, sendRequest: __pmSendRequest, trailers: __pmTrailers,
                              shared: __pmShared };
  for (const name of ['__pmVariables', '__pmRequest', '__pmHeaders', '__pmCookies', '__pmTrailers', '__pmBody', '__pmJsonDoc',
                      '__pmJsonValue',
                      '__pmTest', '__pmChange', '__pmLog', '__pmModule', '__pmHold', '__pmRandomBytes',
                      '__pmModulesGlobal', '__pmSendRequest', '__pmShared'])
    delete globalThis[name];
  const own = (o, key) => Object.prototype.hasOwnProperty.call(o, key);
  // What the script sets, unsets and clears goes to the host as it does it (a value not a string as its JSON),
  // and into the run's variables when they were read; the data row's are the run's own. (Value undefined:
  // unset; key undefined too: clear. A key is defined, not assigned: "toString" or "__proto__" is a name
  // like any other.)
  const reported = { globals: 0, collectionVariables: 1, environment: 2, variables: 3 };
  const apply = (v, name, key, value) => {
    if (key === undefined) v[name] = {};
    else if (value === undefined) delete v[name][key];
    else Object.defineProperty(v[name], key, { value, writable: true, enumerable: true, configurable: true });
  };
  const replaceIn = (text, lookup) =>
    text.replace(/\{\{\s*([^{}]+?)\s*\}\}|\$\{([A-Za-z0-9_.-]+)\}/g, (all, key, dollar) => {
      const v = lookup(key === undefined ? dollar : key); return v === undefined ? all : String(v); });
  // headers as Postman's list: made once per run and only when read, methods on the prototype
  const lower = (name) => String(name).toLowerCase();
  class HeaderList {
    constructor(pairs) { this._p = pairs; }
    // a name given more than once: get() is its last value, toObject() all of them in order (as newman's)
    get(name) {
      const n = lower(name);
      for (let i = this._p.length - 1; i >= 0; --i) if (this._p[i][0].toLowerCase() === n) return this._p[i][1];
      return undefined;
    }
    has(name, value) { const n = lower(name); return this._p.some(([k, v]) => k.toLowerCase() === n && (value === undefined || v === value)); }
    add(h) { this._p.push([h.key, String(h.value)]); }
    upsert(h) {
      const n = lower(h.key);
      const i = this._p.findIndex(([k]) => k.toLowerCase() === n);
      if (i >= 0) this._p[i] = [this._p[i][0], String(h.value)]; else this._p.push([h.key, String(h.value)]);
    }
    remove(name) { const n = lower(name); for (let i = this._p.length - 1; i >= 0; --i) if (this._p[i][0].toLowerCase() === n) this._p.splice(i, 1); }
    toObject() {
      const o = {};
      for (const [k, v] of this._p) {
        const n = k.toLowerCase();
        Object.defineProperty(o, n, { value: !own(o, n) ? v : [].concat(o[n], v), writable: true, enumerable: true,
                                      configurable: true });
      }
      return o;
    }
    each(fn) { this._p.forEach(([key, value]) => fn({ key, value })); }
    count() { return this._p.length; }
    all() { return this._p.map(([key, value]) => ({ key, value })); }
    idx(i) { const p = this._p[i]; return p ? { key: p[0], value: p[1] } : undefined; }
  }
  const headerList = (pairs) => new HeaderList(pairs);
  // pm.cookies: the cookies the user's jar holds for the request's URL once the answer came (as Postman's
  // cookie list: by name, case as written)
  class CookieList {
    constructor(pairs) { this._c = pairs.map(([name, value]) => ({ name, value })); }
    one(name) { return this._c.find((c) => c.name === String(name)); }
    get(name) { const c = this.one(name); return c ? c.value : undefined; }
    has(name, value) { const c = this.one(name); return c !== undefined && (value === undefined || c.value === value); }
    all() { return this._c.map((c) => ({ ...c })); }
    toObject() { return Object.fromEntries(this._c.map((c) => [c.name, c.value])); }
    each(fn) { this._c.forEach((c) => fn({ ...c })); }
    count() { return this._c.length; }
    idx(i) { const c = this._c[i]; return c ? { ...c } : undefined; }
  }
  const reasons = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently',
                    302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
                    404: 'Not Found', 409: 'Conflict', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
                    500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };
  // pm.response.to.have.* and to.be.*: assertions on the answer; under to.not, each the other way round; each
  // message as chai-postman's (newman's reports give them)
  class ResponseHave {
    constructor(response, negate, of) { this._s = response; this._n = negate; this._of = of || 'response'; }
    // chai's assert: `ok` or it throws `yes` (`no` when negated)
    _assert(ok, yes, no) { if (Boolean(ok) === this._n) throw new AssertionError(this._n ? no : yes); }
    _check(ok, what, got) {
      this._assert(ok, 'expected ' + this._of + ' to ' + what + (got === undefined ? '' : ' but got ' + got),
                   'expected ' + this._of + ' to not ' + what);
    }
    _code(c) {
      const r = this._s;
      if (r.code === undefined) // no answer: chai-postman finds no code, negated or not (it shows the response so)
        throw new AssertionError("expected PostmanResponse{ \u2026(5) } to have property 'code'");
      this._assert(r.code === Number(c), 'expected response to have status code ' + show(Number(c)) + ' but got ' + show(r.code),
                   'expected response to not have status code ' + show(r.code));
    }
    _reason(text) {
      const r = this._s;
      this._assert(r.status === text, 'expected response to have status reason ' + show(text) + ' but got ' + show(r.status),
                   'expected response to not have status reason ' + show(r.status));
    }
    status(s) { return typeof s === 'number' ? this._code(s) : this._reason(s); }
    statusCode(c) { this._code(c); }
    statusReason(r) { this._reason(String(r)); }
    statusCodeClass(c) {
      const code = this._s.code;
      this._assert(Math.floor(code / 100) === c, 'expected response code to be ' + show(c) + 'XX but found ' + show(code),
                   'expected response code to not be ' + show(c) + 'XX');
    }
    header(name, value) {
      const headers = this._s.headers, key = String(name);
      this._assert(headers.has(name), 'expected ' + this._of + " to have header with key '" + key + "'",
                   'expected ' + this._of + " to not have header with key '" + key + "'");
      if (arguments.length < 2) return;
      const got = headers.get(name);
      this._assert(got === value, "expected '" + key + "' " + this._of + ' header to be ' + show(value) + ' but got ' + show(got),
                   "expected '" + key + "' " + this._of + ' header to not be ' + show(got));
    }
    body(text) {
      const regexp = tagOf(text) === '[object RegExp]'; // the user's realm's RegExp is not this one's
      if (arguments.length && text !== null && typeof text === 'object' && !regexp) {
        let json;
        try { json = JSON.parse(this._s.text()); } catch (e) { /* undefined, as chai-postman's */ }
        return this._assert(deepEqual(json, text), 'expected response body json to equal ' + show(text) + ' but got ' + show(json),
                            'expected response body json to not equal ' + show(text) + ' but got ' + show(json));
      }
      const b = this._s.text();
      if (!arguments.length)
        return this._assert(typeof b === 'string' && b.length, 'expected response to have content in body',
                            'expected response to not have content in body');
      if (regexp)
        return this._assert(text.exec(b) !== null, 'expected response body text to match ' + String(text) + ' but got ' + show(b),
                            'expected response body text ' + show(b) + ' to not match ' + String(text));
      this._assert(deepEqual(b, text), 'expected ' + this._of + ' body to equal ' + show(text) + ' but got ' + show(b),
                   'expected ' + this._of + ' body to not equal ' + show(text));
    }
    jsonSchema(schema, options) {
      let body;
      try { body = JSON.parse(this._s.text()); } catch (e) { return this._check(false, 'have a JSON body'); }
      schemaAssert(body, schema, options, this._n);
    }
    jsonBody(path, value) {
      let body, error;
      try { body = JSON.parse(this._s.text()); } catch (e) { error = e.name + ': ' + e.message; }
      if (!arguments.length)
        return this._assert(!error, 'expected response body to be a valid json but got error ' + error,
                            'expected response body not to be a valid json');
      if (typeof path !== 'string') return; // chai-postman judges a path only
      const has = (o, keys) => keys.every((k) => { if (o == null || !Object.prototype.hasOwnProperty.call(Object(o), k)) return false; o = o[k]; return true; });
      const keys = path.split('.');
      this._assert(has(body, keys), 'expected ' + show(body) + ' in response to contain property ' + show(path),
                   'expected ' + show(body) + ' in response to not contain property ' + show(path));
      if (arguments.length < 2) return;
      const v = keys.reduce((o, k) => (o == null ? undefined : o[k]), body);
      this._assert(deepEqual(v, value), 'expected response body json at "' + path + '" to contain ' + show(value) + ' but got ' + show(v),
                   'expected response body json at "' + path + '" to not contain ' + show(value) + ' but got ' + show(v));
    }
  }
  class ResponseBe {
    constructor(response, negate, of) { this._s = response; this._h = new ResponseHave(response, negate, of); }
    get json() { return this._h.jsonBody(); }
    // to.be.a.postmanRequest, .postmanResponse, .postmanRequestOrResponse (chai-postman's)
    get a() {
      const h = this._h, request = h._of === 'request';
      return { get postmanRequest() { h._check(request, 'be a postman request'); },
               get postmanResponse() { h._check(!request, 'be a postman response'); },
               get postmanRequestOrResponse() { h._check(true, 'be a postman request or response'); } };
    }
    get an() { return this.a; }
    // to.be.ok: a request is truthy; an answer's reason is OK and its code 200 (chai-postman's)
    get ok() {
      if (this._h._of === 'request') return this._h._check(true, 'be truthy');
      this._named('OK', 200);
    }
    // the answer's reason (as upper case) and code, as chai-postman's named statuses judge them
    _named(reason, code) {
      const got = String(this._s.status).toUpperCase(), want = reason.toUpperCase();
      this._h._assert(got === want, 'expected response to have status reason ' + show(want) + ' but got ' + show(got),
                      'expected response to not have status reason ' + show(got));
      this._h._code(code);
    }
  }
  for (const [name, cls] of [['info', 1], ['success', 2], ['redirection', 3], ['clientError', 4], ['serverError', 5]])
    Object.defineProperty(ResponseBe.prototype, name, { get() { this._h.statusCodeClass(cls); } });
  Object.defineProperty(ResponseBe.prototype, 'error', { get() {
    const code = this._s.code, cls = Math.floor(code / 100);
    this._h._assert(cls === 4 || cls === 5, 'expected response code to be 4XX or 5XX but found ' + show(code),
                    'expected response code to not be 4XX or 5XX');
  } });
  for (const [name, code, reason] of [['accepted', 202, 'Accepted'], ['withoutContent', 204, 'No Content'],
                                      ['badRequest', 400, 'Bad Request'], ['unauthorised', 401, 'Unauthorised'],
                                      ['unauthorized', 401, 'Unauthorized'], ['forbidden', 403, 'Forbidden'],
                                      ['notFound', 404, 'Not Found'], ['notAcceptable', 406, 'Acceptable'],
                                      ['rateLimited', 429, 'Too Many Requests']])
    Object.defineProperty(ResponseBe.prototype, name, { get() { this._named(reason, code); } });
  // the answer: its headers and body asked of the host when first read (by the user's run's own object only:
  // `user` is the user's state, below)
  class Response {
    #u;
    constructor(user, code, status, responseTime, responseSize) {
      this.#u = user;
      if (code === 0) { // no answer (not sent, or the transport failed): as newman's, no code, no body
        this._b = undefined;
        this._none = true;
        this.responseTime = responseTime;
        return;
      }
      this.code = code;
      this.status = status || reasons[code] || '';
      this.responseTime = responseTime;
      this.responseSize = responseSize;
    }
    get headers() {
      return (this._h ??= headerList(this.#u.run.response === this && !this._none ? JSON.parse(host.headers()) : []));
    }
    get cookies() {
      return (this._k ??= new CookieList(this.#u.run.response === this ? JSON.parse(host.cookies()) : []));
    }
    text() { return this._none ? undefined : (this._b ??= this.#u.run.response === this ? host.body() : ''); }
    // the body parsed once, each call's objects fresh, the user's realm's, and made when first looked at
    // (the user's JSON.parse's when the fast reader does not take the text: it says what is wrong)
    json() {
      const u = this.#u;
      // no answer (the request failed): newman's JSON.parse(undefined), with Node's words
      if (this._none) throw new SyntaxError('"undefined" is not valid JSON');
      if (u.run.response !== this) return u.parse(this.text());
      if (this._j === undefined) this._j = host.jsonDoc();
      return this._j === null ? u.parse(this.text()) : host.jsonValue(this._j);
    }
    get to() {
      return (this._to ??= { have: new ResponseHave(this, false), be: new ResponseBe(this, false),
                             not: { have: new ResponseHave(this, true), be: new ResponseBe(this, true) } });
    }
  }
  // A gRPC call's messages (pm.request.messages, pm.response.messages): Postman's PropertyList of
  // { data, timestamp }
  class MessageList {
    constructor(list) { this._m = list; }
    idx(i) { return this._m[i]; }
    count() { return this._m.length; }
    all() { return this._m.slice(); }
    each(fn) { this._m.forEach((m) => fn(m)); }
    map(fn) { return this._m.map((m) => fn(m)); }
    filter(fn) { return this._m.filter((m) => fn(m)); }
    find(fn) { return this._m.find((m) => fn(m)); }
    toJSON() { return this._m.slice(); }
  }
  // pm.response.to.have.* and to.be.* of a gRPC answer (Postman's gRPC assertions): statusCode, metadata,
  // trailer, responseTime; to.be.ok is status 0
  class GrpcHave {
    constructor(response, negate) { this._s = response; this._n = negate; }
    _assert(ok, yes, no) { if (Boolean(ok) === this._n) throw new AssertionError(this._n ? no : yes); }
    statusCode(c) {
      const got = this._s.statusCode;
      this._assert(got === Number(c), 'expected response to have status code ' + show(Number(c)) + ' but got ' + show(got),
                   'expected response to not have status code ' + show(got));
    }
    _pair(list, what, name, value, given) {
      const key = String(name);
      this._assert(list.has(key), 'expected response to have ' + what + " with key '" + key + "'",
                   'expected response to not have ' + what + " with key '" + key + "'");
      if (!given) return;
      const got = list.get(key);
      this._assert(got === value, "expected '" + key + "' response " + what + ' to be ' + show(value) + ' but got ' + show(got),
                   "expected '" + key + "' response " + what + ' to not be ' + show(got));
    }
    metadata(name, value) { this._pair(this._s.metadata, 'metadata', name, value, arguments.length > 1); }
    trailer(name, value) { this._pair(this._s.trailers, 'trailer', name, value, arguments.length > 1); }
    get responseTime() {
      const t = this._s.responseTime, have = this;
      const judge = (negate, ok, word, n) => {
        if (Boolean(ok) !== negate) return;
        throw new AssertionError('expected response time ' + show(t) + (negate ? ' to not be ' : ' to be ') + word + ' ' + show(n));
      };
      const on = (negate) => ({ below: (n) => judge(negate, t < Number(n), 'below', n),
                                above: (n) => judge(negate, t > Number(n), 'above', n) });
      return Object.assign(on(have._n), { not: on(!have._n) });
    }
  }
  class GrpcResponse {
    #u;
    constructor(user, code, codeName, responseTime, responseSize) {
      this.#u = user;
      this.statusCode = code;
      this.status = codeName;
      this.responseTime = responseTime;
      this.responseSize = responseSize;
    }
    get metadata() { return (this._h ??= headerList(this.#u.run.response === this ? JSON.parse(host.headers()) : [])); }
    get trailers() { return (this._t ??= headerList(this.#u.run.response === this ? JSON.parse(host.trailers()) : [])); }
    text() { return (this._b ??= this.#u.run.response === this ? host.body() : ''); }
    json() { return this.#u.parse(this.text() || 'null'); }
    // the message the step judged (a streaming call's last awaited one; a run keeps no others)
    get messages() {
      if (this._m) return this._m;
      const text = this.text();
      return (this._m = new MessageList(text ? [{ data: this.json(), timestamp: new Date() }] : []));
    }
    get to() {
      const self = this, be = (negate) => ({ get ok() { new GrpcHave(self, negate).statusCode(0); } });
      return (this._to ??= { have: new GrpcHave(this, false), be: be(false),
                             not: { have: new GrpcHave(this, true), be: be(true) } });
    }
  }
  // pm.request.url: Postman's Url (postman-collection's), its parts read from the request's text when asked and
  // each change written back into it (the text is what is sent): protocol, host and path as lists of segments,
  // port, query (a list of {key, value}), hash; getHost(), getPath(), getQueryString(), getPathWithQuery(),
  // getRemote(), getRaw(), update(), addQueryParams(), removeQueryParams(), toString(), toJSON()
  const splitUrl = (text) => {
    let rest = String(text ?? '');
    const u = { protocol: undefined, auth: undefined, host: '', port: undefined, path: '', query: [], hash: undefined };
    const hashAt = rest.indexOf('#');
    if (hashAt >= 0) { u.hash = rest.slice(hashAt + 1); rest = rest.slice(0, hashAt); }
    const queryAt = rest.indexOf('?');
    if (queryAt >= 0) { u.query = parseQuery(rest.slice(queryAt + 1)); rest = rest.slice(0, queryAt); }
    const scheme = rest.match(/^([A-Za-z][A-Za-z0-9+.-]*):\/\//);
    if (scheme) { u.protocol = scheme[1]; rest = rest.slice(scheme[0].length); }
    const slash = rest.indexOf('/');
    let authority = slash < 0 ? rest : rest.slice(0, slash);
    u.path = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) { u.auth = authority.slice(0, at); authority = authority.slice(at + 1); }
    const port = authority.match(/:([0-9]*|\{\{[^{}]*\}\})$/);
    if (port) { u.port = port[1]; authority = authority.slice(0, -port[0].length); }
    u.host = authority;
    return u;
  };
  const parseQuery = (text) => String(text).split('&').filter((p) => p !== '').map((p) => {
    const eq = p.indexOf('=');
    return eq < 0 ? { key: p, value: null } : { key: p.slice(0, eq), value: p.slice(eq + 1) };
  });
  const paramText = (p) => String(p.key ?? '') + (p.value === null || p.value === undefined ? '' : '=' + p.value);
  const queryText = (list) => list.filter((p) => p && !p.disabled).map(paramText).join('&');
  const joinUrl = (u) => {
    const query = queryText(u.query);
    return (u.protocol ? u.protocol + '://' : '') + (u.auth !== undefined ? u.auth + '@' : '') + u.host +
           (u.port !== undefined ? ':' + u.port : '') + u.path + (query ? '?' + query : '') +
           (u.hash !== undefined ? '#' + u.hash : '');
  };
  // a parameter as Postman takes one: {key, value[, disabled]}, or "key=value"
  const paramOf = (p) => (typeof p === 'string' ? parseQuery(p)[0] ?? { key: '', value: null }
                                                : { key: String(p.key ?? ''), value: p.value === undefined ? null : p.value,
                                                    ...(p.disabled ? { disabled: true } : {}) });
  const paramsOf = (ps) => (typeof ps === 'string' ? parseQuery(ps) : [].concat(ps ?? []).map(paramOf));
  // url.query: Postman's PropertyList of query parameters, by key
  class QueryList {
    constructor(url) { this._u = url; }
    get _p() { return this._u._parts().query; }
    _change(fn) { const u = this._u._parts(); fn(u.query); this._u._write(u); }
    get members() { return this.all(); }
    all() { return this._p.map((p) => ({ ...p })); }
    count() { return this._p.length; }
    idx(i) { const p = this._p[i]; return p ? { ...p } : undefined; }
    one(key) { const p = this._p.filter((x) => x.key === String(key)); return p.length ? { ...p[p.length - 1] } : undefined; }
    get(key) { const p = this.one(key); return p ? p.value : undefined; }
    has(key, value) { return this._p.some((p) => p.key === String(key) && (value === undefined || p.value === value)); }
    indexOf(key) { return this._p.findIndex((p) => p.key === String(typeof key === 'object' ? key.key : key)); }
    each(fn) { this._p.forEach((p) => fn({ ...p })); }
    map(fn) { return this._p.map((p) => fn({ ...p })); }
    filter(fn) { return this._p.filter((p) => fn({ ...p })).map((p) => ({ ...p })); }
    find(fn) { const p = this._p.find((x) => fn({ ...x })); return p ? { ...p } : undefined; }
    toObject() {
      const o = {};
      for (const p of this._p)
        if (!p.disabled)
          Object.defineProperty(o, p.key, { value: p.value, writable: true, enumerable: true, configurable: true });
      return o;
    }
    toString() { return queryText(this._p); }
    add(p) { this._change((q) => q.push(paramOf(p))); }
    append(p) { this.add(p); }
    populate(ps) { this._change((q) => q.push(...paramsOf(ps))); }
    repopulate(ps) { this._change((q) => q.splice(0, q.length, ...paramsOf(ps))); }
    clear() { this._change((q) => q.splice(0, q.length)); }
    upsert(p) {
      const made = paramOf(p);
      this._change((q) => { const i = q.findIndex((x) => x.key === made.key); if (i >= 0) q[i] = made; else q.push(made); });
    }
    // by key, by a parameter's key, or by a function of a parameter
    remove(what) {
      const gone = typeof what === 'function' ? (p) => what({ ...p })
        : (p) => p.key === String(what && typeof what === 'object' ? what.key : what);
      this._change((q) => { for (let i = q.length - 1; i >= 0; --i) if (gone(q[i])) q.splice(i, 1); });
    }
  }
  const segments = (text, by) => (text === '' ? undefined : text.split(by));
  class Url {
    constructor(request) { this._q = request; }
    _parts() { return splitUrl(this._q.urlText); }
    _write(u) { this._q.urlText = joinUrl(u); }
    _set(part, v) { const u = this._parts(); u[part] = v; this._write(u); }
    get raw() { return this._q.urlText; }
    get protocol() { return this._parts().protocol; }
    set protocol(v) { this._set('protocol', v ? String(v).replace(/:(\/\/)?$/, '') : undefined); }
    get host() { return segments(this._parts().host, '.'); }
    set host(v) { this._set('host', Array.isArray(v) ? v.join('.') : String(v ?? '')); }
    get port() { return this._parts().port; }
    set port(v) { this._set('port', v === undefined || v === null || v === '' ? undefined : String(v)); }
    get path() { return segments(this._parts().path.replace(/^\//, ''), '/'); }
    set path(v) { const p = Array.isArray(v) ? v.join('/') : String(v ?? ''); this._set('path', p === '' ? '' : '/' + p.replace(/^\//, '')); }
    get hash() { return this._parts().hash; }
    set hash(v) { this._set('hash', v === undefined || v === null ? undefined : String(v)); }
    get query() { return (this._ql ??= new QueryList(this)); }
    set query(v) { this.query.repopulate(v); }
    getHost() { return this._parts().host; }
    getPath() { const p = this._parts().path; return p.startsWith('/') ? p : '/' + p; }
    getQueryString() { return queryText(this._parts().query); }
    getPathWithQuery() { const q = this.getQueryString(); return this.getPath() + (q ? '?' + q : ''); }
    getRemote(forcePort) {
      const u = this._parts();
      const port = u.port !== undefined ? u.port : forcePort ? (u.protocol === 'https' ? '443' : '80') : undefined;
      return u.host + (port !== undefined ? ':' + port : '');
    }
    getRaw() { return this._q.urlText; }
    toString() { return this._q.urlText; }
    update(v) { this._q.urlText = typeof v === 'string' ? v : urlOf(v); }
    addQueryParams(ps) { this.query.populate(ps); }
    removeQueryParams(ps) {
      const keys = (typeof ps === 'string' ? [ps] : [].concat(ps ?? [])).map((p) => (typeof p === 'object' ? p.key : p));
      this.query.remove((p) => keys.includes(p.key));
    }
    toJSON() {
      const u = this._parts();
      const out = { raw: this._q.urlText };
      if (u.protocol !== undefined) out.protocol = u.protocol;
      if (this.host) out.host = this.host;
      if (u.port !== undefined) out.port = u.port;
      if (this.path) out.path = this.path;
      if (u.query.length) out.query = u.query.map((p) => ({ ...p }));
      if (u.hash !== undefined) out.hash = u.hash;
      return out;
    }
  }
  // pm.request: the request as written, its URL settable, its headers a list
  const requestOf = (q) => {
    const headers = (q.headers || []).map(([k, v]) => [k, v]);
    // body: the raw text, or a form's fields as Postman lists them (body.mode, body.urlencoded, body.formdata)
    const body = { raw: q.body, mode: q.mode || 'raw' };
    if (q.mode) body[q.mode] = (q.form || []).map(([key, value]) => ({ key, value }));
    const request = { method: q.method, urlText: q.url, headers: headerList(headers), body, _pairs: headers,
                      description: q.description ?? '', _form: q.form || [] };
    const url = new Url(request);
    Object.defineProperty(request, 'url', { get: () => url, enumerable: true,
      set: (v) => { request.urlText = urlOf(v) || String(v); } });
    Object.defineProperty(request, '_pairs', { enumerable: false });
    Object.defineProperty(request, '_form', { enumerable: false });
    if (q.methodPath !== undefined) { // a gRPC call's: package.Service.Method, its metadata and messages as written
      request.methodPath = q.methodPath;
      request.metadata = request.headers;
      let messages;
      Object.defineProperty(request, 'messages', { enumerable: true, get: () => (messages ??= new MessageList(
        (q.messages || []).map((m) => { let data = m; try { data = JSON.parse(m); } catch (e) { /* as written */ }
                                        return { data, timestamp: new Date() }; }))) });
    }
    // pm.request.to.have.header(name[, value]) and .body(text), as the answer's
    const subject = { get headers() { return request.headers; }, text: () => String(request.body.raw ?? '') };
    Object.defineProperty(request, 'to', { get: () => ({
      have: new ResponseHave(subject, false, 'request'), be: new ResponseBe(subject, false, 'request'),
      not: { have: new ResponseHave(subject, true, 'request'), be: new ResponseBe(subject, true, 'request') } }) });
    return request;
  };
  // pm.sendRequest's request as the host sends it: a URL, or Postman's request object (url as text or {raw},
  // header as a list, an object or "K: V" lines, body raw, urlencoded or formdata), nothing resolved in it
  // a URL as text, pm.request.url, or the SDK's parts ({protocol, host, port, path, query}: its `raw` alone is not
  // read, as newman's "request url is empty")
  const urlOf = (u) => {
    if (typeof u === 'string') return u;
    if (!u || typeof u !== 'object') return '';
    if (u instanceof Url || Object.prototype.hasOwnProperty.call(u, 'toString')) return String(u);
    const host = Array.isArray(u.host) ? u.host.join('.') : String(u.host ?? '');
    if (!host) return '';
    const path = Array.isArray(u.path) ? u.path.join('/') : String(u.path ?? '');
    const query = (Array.isArray(u.query) ? u.query : []).filter((p) => p && !p.disabled)
      .map((p) => p.key + (p.value === null || p.value === undefined ? '' : '=' + p.value)).join('&');
    return (u.protocol ? String(u.protocol).replace(/:(\/\/)?$/, '') + '://' : '') + host + (u.port ? ':' + u.port : '') +
           (path ? '/' + path.replace(/^\//, '') : '') + (query ? '?' + query : '');
  };
  const outgoing = (req) => {
    if (typeof req === 'string') return { method: 'GET', url: req, headers: [], body: '' };
    if (req === null || typeof req !== 'object') throw new TypeError('pm.sendRequest takes a URL or a request');
    const url = urlOf(req.url);
    const h = req.header ?? req.headers;
    let headers = [];
    if (Array.isArray(h)) headers = h.filter((x) => x && !x.disabled).map((x) => [String(x.key), String(x.value ?? '')]);
    else if (typeof h === 'string')
      headers = h.split('\n').map((l) => l.trim()).filter((l) => l.includes(':'))
        .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]);
    else if (h && typeof h === 'object')
      headers = Object.entries(typeof h.toObject === 'function' ? h.toObject() : h).map(([k, v]) => [k, String(v)]);
    const typed = () => headers.some(([k]) => k.toLowerCase() === 'content-type');
    const b = req.body;
    let body = '';
    if (typeof b === 'string') body = b;
    else if (b && typeof b === 'object') {
      const mode = b.mode ?? 'raw';
      const fields = mode === 'raw' ? [] : (Array.isArray(b[mode]) ? b[mode] : []).filter((p) => p && !p.disabled && p.type !== 'file');
      if (mode === 'raw') body = typeof b.raw === 'string' ? b.raw : b.raw === undefined ? '' : JSON.stringify(b.raw);
      else if (mode === 'urlencoded') {
        body = fields.map((p) => encodeURIComponent(p.key) + '=' + encodeURIComponent(p.value ?? '')).join('&');
        if (!typed()) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
      } else if (mode === 'formdata') {
        const boundary = 'stampede-form-boundary-7d1f3a';
        body = fields.map((p) => '--' + boundary + '\r\nContent-Disposition: form-data; name="' + p.key + '"\r\n\r\n' +
                                 (p.value ?? '') + '\r\n').join('') + '--' + boundary + '--\r\n';
        if (!typed()) headers.push(['Content-Type', 'multipart/form-data; boundary=' + boundary]);
      }
    }
    return { method: String(req.method ?? 'GET').toUpperCase(), url, headers, body };
  };
  // pm.sendRequest(request[, callback]): sent by the engine when called (the host counts it), the callback
  // called after the script's own code, as Postman's; without one, a Promise of the answer
  const sendRequestFor = (user) => (req, callback) => {
    const got = JSON.parse(host.sendRequest(JSON.stringify(outgoing(req))));
    let error = null, response;
    if (got.error !== undefined) error = new Error(got.error);
    else {
      response = new Response(user, got.code, got.status, got.time, got.size);
      response._h = headerList(got.headers);
      response._b = got.body;
    }
    if (typeof callback === 'function') {
      Promise.resolve().then(() => callback(error, response));
      return undefined;
    }
    return error ? Promise.reject(error) : Promise.resolve(response);
  };
  // pm.shared: the run's shared data, held by the controller for every user of every engine (core/shareddata.h);
  // each call waits for its answer. A value that is not a string is kept as its JSON; a refused op throws.
  const sharedOp = (kind, name, key, value, by) => {
    if (typeof key !== 'string' || key === '') throw new TypeError('pm.shared.' + name + ' takes a key (a string)');
    const text = value === undefined ? undefined : (typeof value === 'string' ? value : JSON.stringify(value));
    const got = JSON.parse(host.shared(kind, key, text, by));
    if (got.error !== undefined) throw new Error('pm.shared.' + name + '(' + JSON.stringify(key) + '): ' + got.error);
    return got;
  };
  const shared = Object.freeze({
    get: (key) => { const got = sharedOp(0, 'get', key); return got.found ? got.value : undefined; },
    has: (key) => sharedOp(0, 'get', key).found,
    set: (key, value) => { sharedOp(1, 'set', key, value === undefined ? '' : value); },
    increment: (key, by = 1) => {
      if (!Number.isSafeInteger(Number(by))) throw new TypeError('pm.shared.increment takes an integer step');
      return sharedOp(2, 'increment', key, undefined, Number(by)).number;
    },
    push: (key, value) => sharedOp(3, 'push', key, value === undefined ? '' : value).number,
    pop: (key) => { const got = sharedOp(4, 'pop', key); return got.found ? got.value : undefined; },
    length: (key) => sharedOp(5, 'length', key).number,
    unset: (key) => { sharedOp(6, 'unset', key); },
  });
  // the modules Postman's sandbox has that are built in here; any other is named
  const modules = { 'crypto-js': CryptoJS, btoa: globalThis.btoa, atob: globalThis.atob };
  // Debian's node-* packages (nodemodules.h), as CommonJS: each file run once per thread, in a realm of their
  // own (modulesGlobal), its exports shared by every user (as Postman's sandbox shares its libraries); loading
  // is not the run's time. Their browser forms take the system's random source as crypto.getRandomValues.
  let modulesRealm;
  const modulesGlobal = () => {
    if (modulesRealm) return modulesRealm;
    modulesRealm = host.modulesGlobal();
    const randomBytes = host.randomBytes;
    modulesRealm.crypto = { getRandomValues(a) {
      new Uint8Array(a.buffer, a.byteOffset, a.byteLength).set(randomBytes(a.byteLength)); return a; } };
    return modulesRealm;
  };
  const loaded = new Map();
  // node's timers, as a module that the packages may require (xml2js does): a job after the script's own code
  const immediate = (fn, ...args) => { Promise.resolve().then(() => fn(...args)); return {}; };
  const internal = { timers: { setImmediate: immediate, clearImmediate: () => {} } };
  const load = (spec, from) => {
    const [path, dir, source] = host.module(String(spec), from);
    const known = loaded.get(path);
    if (known) return known.exports;
    // its exports an object of the modules' realm (this realm's prototypes are frozen: `exports.toString = f`,
    // as cheerio writes, would fail here)
    const realm = modulesGlobal();
    const module = { exports: new realm.Object(), id: path, filename: path, loaded: false };
    loaded.set(path, module);
    host.hold(true);
    try {
      if (path.endsWith('.json')) module.exports = realm.JSON.parse(source);
      else new realm.Function('exports', 'require', 'module', '__filename', '__dirname', source)
        .call(module.exports, module.exports, (s) => (own(internal, s) ? internal[s] : load(s, dir)), module, path, dir);
      module.loaded = true;
    } catch (e) {
      loaded.delete(path);
      throw e;
    } finally {
      host.hold(false);
    }
    return module.exports;
  };
  const require = (name) => (own(modules, name) ? modules[name] : load(name, ''));
  // jsonSchema's ajv: made once per thread for chai-postman's options (its meta-schema compiled once; making
  // it is the sandbox's time, not the run's), a new one for other options
  // (chai-postman's messages; `negate`: to.not)
  let sharedAjv;
  const schemaAssert = (data, schema, options, negate, message) => {
    const Ajv = load('ajv', '');
    let ajv = sharedAjv;
    if (options !== undefined || !ajv) {
      host.hold(true);
      try { ajv = new Ajv(Object.assign({ allErrors: true, logger: false }, options)); } finally { host.hold(false); }
      if (options === undefined) sharedAjv = ajv;
    }
    const valid = Boolean(ajv.validate(schema, data) && !ajv.errors);
    if (valid === Boolean(negate))
      throw new AssertionError((message ? message + ': ' : '') +
                               (negate ? 'expected data to not satisfy schema'
                                       : 'expected data to satisfy schema but found following errors: \n' + ajv.errorsText()));
  };
  // tv4 (Postman's older sandbox: validate, validateResult, validateMultiple, error), on ajv: a schema's
  // $schema is not read (tv4 validates any draft by the same rules)
  const tv4Errors = (data, schema) => {
    const ajv = sharedAjv || (schemaAssert(null, {}), sharedAjv);
    const plain = schema && typeof schema === 'object' ? Object.assign({}, schema) : schema;
    if (plain && typeof plain === 'object') delete plain.$schema;
    if (ajv.validate(plain, data) && !ajv.errors) return [];
    // a path as tv4 writes it, a JSON pointer ('.a[0]' as '/a/0')
    const pointer = (p) => String(p || '').replace(/\[['"]?([^\]'"]*)['"]?\]/g, '/$1').replace(/\.([^./]+)/g, '/$1');
    return (ajv.errors || []).map((e) => ({ message: e.message, dataPath: pointer(e.dataPath), schemaPath: e.schemaPath || '',
                                             params: e.params, code: 0 }));
  };
  const tv4 = {
    error: null,
    validate(data, schema) { const errors = tv4Errors(data, schema); tv4.error = errors[0] || null; return !errors.length; },
    validateResult(data, schema) { const errors = tv4Errors(data, schema); return { valid: !errors.length, error: errors[0] || null, missing: [] }; },
    validateMultiple(data, schema) { const errors = tv4Errors(data, schema); return { valid: !errors.length, errors, missing: [] }; },
  };
  modules.tv4 = tv4;
  // csv-parse's synchronous parse, as Postman's sandbox has it (require('csv-parse/lib/sync')), written here:
  // Debian has no node-csv-parse. RFC 4180 fields (quotes, "" in them, line breaks inside them); options:
  // delimiter, quote, columns (true: the first row names them; a list: these names), skip_empty_lines, trim,
  // ltrim, rtrim, from_line, relax_column_count (else a row of another length than the columns throws).
  const csvParse = (input, options) => {
    const o = options || {};
    const text = String(input ?? '');
    const delimiter = String(o.delimiter ?? ','), quote = o.quote === undefined ? '"' : String(o.quote || '');
    const rows = [];
    let row = [], field = '', quoted = false, wasQuoted = false, i = 0;
    const endField = () => {
      let f = field;
      if (!wasQuoted && (o.trim || o.ltrim)) f = f.replace(/^\s+/, '');
      if (!wasQuoted && (o.trim || o.rtrim)) f = f.replace(/\s+$/, '');
      row.push(f);
      field = '';
      wasQuoted = false;
    };
    const endRow = () => { endField(); rows.push(row); row = []; };
    while (i < text.length) {
      const c = text[i];
      if (quoted) {
        if (c === quote && text[i + 1] === quote) { field += quote; i += 2; }
        else if (c === quote) { quoted = false; i += 1; }
        else { field += c; i += 1; }
      } else if (quote && c === quote && field.trim() === '') { quoted = wasQuoted = true; field = ''; i += 1; }
      else if (text.startsWith(delimiter, i)) { endField(); i += delimiter.length; }
      else if (c === '\r' && text[i + 1] === '\n') { endRow(); i += 2; }
      else if (c === '\n' || c === '\r') { endRow(); i += 1; }
      else { field += c; i += 1; }
    }
    if (quoted) throw new Error('Quote Not Closed: the parsing is finished with an opening quote');
    if (field !== '' || row.length) endRow();
    let out = rows.slice(Math.max(0, (Number(o.from_line) || 1) - 1));
    if (o.skip_empty_lines) out = out.filter((r) => !(r.length === 1 && r[0] === ''));
    if (!o.columns) return out;
    const names = Array.isArray(o.columns) ? o.columns : out.shift() || [];
    return out.map((r, n) => {
      if (r.length !== names.length && !o.relax_column_count)
        throw new Error('Invalid Record Length: columns length is ' + names.length + ', got ' + r.length +
                        ' on record ' + (n + 1));
      const record = {};
      names.forEach((name, k) => { if (k < r.length) record[name] = r[k]; });
      return record;
    });
  };
  modules['csv-parse/lib/sync'] = csvParse;
  modules['csv-parse/sync'] = { parse: csvParse };
  // xml2Json: XML as Postman reads it (xml2js, one child as an object, not a list; text trimmed)
  const xml2Json = (text) => {
    let out;
    load('xml2js', '').parseString(String(text), { explicitArray: false, async: false, trim: true, mergeAttrs: false },
                                   (error, result) => { out = error ? undefined : result; });
    return out;
  };
  const logLimit = 100;

  // Postman's sandbox still carries Sugar's extensions of the built-in prototypes, which older collections use
  // ('responseBody.has("x")'): the common ones, written here after Sugar 1.x's documented behaviour (Debian has no
  // Sugar), on the user's own String, Array, Number and Function (the shared realm's stay as they are).
  const isRegExp = (v) => Object.prototype.toString.call(v) === '[object RegExp]'; // a user's realm's too
  const escapeRegExp = (s) => String(s).replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&');
  const underscore = (s) => String(s).replace(/[-\s]+/g, '_').replace(/([A-Z\d]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase();
  const matches = (el, f, i, a) => (typeof f === 'function' ? Boolean(f(el, i, a))
    : isRegExp(f) ? f.test(String(el)) : (typeof f === 'object' && f !== null ? deepEqual(el, f) : el === f));
  const sugar = {
    String: {
      has(find) { return String(this).search(isRegExp(find) ? find : escapeRegExp(find)) !== -1; },
      camelize(first) {
        return underscore(this).replace(/(^|_)([^_]+)/g, (m, pre, word, index) =>
          (first !== false || index > 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word));
      },
      underscore() { return underscore(this); },
      dasherize() { return underscore(this).replace(/_/g, '-'); },
      spacify() { return underscore(this).replace(/_/g, ' '); },
      capitalize() { const s = String(this); return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(); },
      shift(n) { return Array.from(String(this), (c) => String.fromCharCode(c.charCodeAt(0) + Number(n))).join(''); },
      isBlank() { return String(this).trim().length === 0; },
    },
    Array: {
      any(f) { return Array.prototype.some.call(this, (el, i, a) => matches(el, f, i, a)); },
      none(f) { return !Array.prototype.some.call(this, (el, i, a) => matches(el, f, i, a)); },
      all(f) { return Array.prototype.every.call(this, (el, i, a) => matches(el, f, i, a)); },
      average() { return this.length ? this.reduce((s, v) => s + Number(v), 0) / this.length : 0; },
      sum() { return this.reduce((s, v) => s + Number(v), 0); },
      first(n) { return n === undefined ? this[0] : this.slice(0, n); },
      last(n) { return n === undefined ? this[this.length - 1] : this.slice(Math.max(0, this.length - n)); },
      unique() { return this.filter((v, i, a) => a.findIndex((w) => deepEqual(v, w)) === i); },
      compact() { return this.filter((v) => v !== null && v !== undefined && !Number.isNaN(v)); },
    },
    Number: {
      hex(pad) { return Math.round(Number(this)).toString(16).padStart(Number(pad) || 1, '0'); },
      isEven() { return Number.isInteger(Number(this)) && Number(this) % 2 === 0; },
      isOdd() { return Number.isInteger(Number(this)) && Math.abs(Number(this) % 2) === 1; },
      ordinalize() {
        const n = Math.abs(Number(this)), t = n % 100, u = n % 10;
        return String(this) + (t >= 11 && t <= 13 ? 'th' : u === 1 ? 'st' : u === 2 ? 'nd' : u === 3 ? 'rd' : 'th');
      },
      format(place, thousands = ',', decimal = '.') {
        const n = Number(this);
        const [whole, fraction] = (place === undefined ? String(Math.abs(n)) : Math.abs(n).toFixed(place)).split('.');
        return (n < 0 ? '-' : '') + whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands) + (fraction ? decimal + fraction : '');
      },
    },
    Function: {
      once() {
        const fn = this;
        let done = false, value;
        return function (...args) { if (!done) { done = true; value = fn.apply(this, args); } return value; };
      },
    },
  };
  const addSugar = (g) => {
    for (const [type, methods] of Object.entries(sugar))
      for (const [name, value] of Object.entries(methods))
        if (!(name in g[type].prototype))
          Object.defineProperty(g[type].prototype, name, { value, writable: true, configurable: true });
  };

  // A user's global `g` gets its own pm, console and the built-ins; its state (the run going on) is its own.
  // Returns the user's [call, end].
  const install = (g) => {
    const user = { run: null, parse: g.JSON.parse };
    addSugar(g);
    // postman.setNextRequest: the request to go to after this one, by name (null: the iteration ends there);
    // the last call wins, the test script's over the pre-request script's
    const setNext = (next) => {
      user.run.next = next === null || next === undefined ? null : String(next);
      user.run.jump = true;
    };
    // Postman's older sandbox: lodash as the global _, loaded when first used
    Object.defineProperty(g, '_', { get: () => require('lodash'), configurable: true });
    // Node's Buffer, as Postman's sandbox has it (feross' buffer, Debian's node-buffer), loaded when first used
    Object.defineProperty(g, 'Buffer', { get: () => require('buffer').Buffer, configurable: true });
    // the variables, asked of the host when first read (the host has what the script did before that)
    // A value set that is not a string (a number, a boolean, an object) is read back as it was set, as Postman
    // keeps it, while the host still has its text (the host keeps text: what a request sends).
    const typed = { globals: {}, collectionVariables: {}, environment: {}, variables: {} };
    const vars = () => {
      if (user.run.vars) return user.run.vars;
      const v = JSON.parse(host.variables());
      for (const [name, kept] of Object.entries(typed))
        for (const [key, [text, value]] of Object.entries(kept))
          if (own(v[name], key) && v[name][key] === text) v[name][key] = typeof value === 'object' ? JSON.parse(text) : value;
      return (user.run.vars = v);
    };
    const change = (name, key, value) => {
      if (name === 'iterationData') return apply(vars(), name, key, value);
      if (user.run.vars) apply(user.run.vars, name, key, value);
      const text = typeof value === 'string' || value === undefined ? value : JSON.stringify(value);
      if (key === undefined) typed[name] = {};
      else if (typeof value === 'string' || value === undefined || text === undefined) delete typed[name][key];
      else Object.defineProperty(typed[name], key, { value: [text, value], writable: true, enumerable: true, configurable: true });
      host.change(reported[name], key, text);
    };
    const scope = (name) => {
      const get = (key) => { const v = vars()[name]; return own(v, key) ? v[key] : undefined; };
      return {
        get,
        set: (key, value) => { change(name, String(key), value); },
        unset: (key) => { change(name, String(key), undefined); },
        has: (key) => own(vars()[name], key),
        clear: () => { change(name, undefined, undefined); },
        toObject: () => ({ ...vars()[name] }),
        replaceIn: (text) => replaceIn(String(text), get),
      };
    };
    // pm.variables: the local values, then the data row, the environment, the collection's, the globals
    const resolve = (key) => {
      const v = vars();
      for (const name of ['variables', 'iterationData', 'environment', 'collectionVariables', 'globals'])
        if (own(v[name], key)) return v[name][key];
      return undefined;
    };
    const pm = {
      test: (name, fn) => {
        let error;
        try {
          fn();
        } catch (e) {
          error = (e && e.message) || String(e);
        }
        host.test(String(name), error === undefined, error ?? '');
        return pm;
      },
      expect,
      environment: scope('environment'),
      collectionVariables: scope('collectionVariables'),
      globals: scope('globals'),
      iterationData: scope('iterationData'),
      variables: { ...scope('variables'), get: resolve, has: (key) => resolve(key) !== undefined,
                   replaceIn: (text) => replaceIn(String(text), resolve),
                   toObject: () => { const v = vars(); return { ...v.globals, ...v.collectionVariables, ...v.environment, ...v.iterationData, ...v.variables }; } },
      execution: { skipRequest: () => { user.run.skip = true; }, setNextRequest: (next) => setNext(next) },
    };
    // a skipped test is listed without running, as passed (Postman's sandbox reports it so: passed, skipped)
    pm.test.skip = (name) => { host.test(String(name), true, ''); return pm; };
    Object.defineProperty(pm, 'info', { get: () => user.run.info, enumerable: true });
    Object.defineProperty(pm, 'response', { get: () => user.run.response, enumerable: true });
    Object.defineProperty(pm, 'cookies', {
      get: () => (user.run.response ? user.run.response.cookies : new CookieList([])), enumerable: true });
    Object.defineProperty(pm, 'request', {
      get: () => (user.run.request ??= requestOf(JSON.parse(host.request()))),
      enumerable: true });
    pm.sendRequest = sendRequestFor(user);
    pm.shared = shared;
    const log = (...parts) => {
      if (user.run.logs < logLimit) {
        user.run.logs += 1;
        host.log(parts.map((p) => (typeof p === 'string' ? p : logText(p))).join(' '));
      }
    };
    Object.defineProperty(g, 'pm', { value: pm, writable: true, configurable: true });
    Object.defineProperty(g, 'CryptoJS', { value: CryptoJS, writable: true, configurable: true });
    Object.defineProperty(g, 'tv4', { value: tv4, writable: true, configurable: true });
    g.xml2Json = xml2Json;
    g.btoa = modules.btoa;
    g.atob = modules.atob;
    g.console = { log, info: log, warn: log, error: log, debug: log };
    g.require = require;
    // Postman's older sandbox API, as newman still runs it: each name read when the script reads it, its
    // run's own; a script that assigns one (`data = JSON.parse(responseBody)`) has its value for that run
    const legacy = {
      tests: () => (user.run.tests ??= {}),
      responseBody: () => (user.run.response ? user.run.response.text() : undefined),
      responseCode: () => { const r = user.run.response; return r ? { code: r.code, name: r.status, detail: r.status } : undefined; },
      responseHeaders: () => { const r = user.run.response; return r ? Object.fromEntries(r.headers._p) : undefined; },
      responseTime: () => (user.run.response ? user.run.response.responseTime : undefined),
      responseCookies: () => (user.run.response ? user.run.response.cookies.all() : []),
      iteration: () => user.run.info.iteration,
      environment: () => ({ ...vars().environment }),
      globals: () => ({ ...vars().globals }),
      data: () => ({ ...vars().iterationData }),
      request: () => {
        const q = pm.request;
        // data: a form's fields (a name given twice: its values as a list), else the raw body
        const data = {};
        for (const [k, v] of q._form)
          data[k] = own(data, k) ? [].concat(data[k], v) : v;
        return { url: String(q.urlText), method: q.method, headers: q.headers.toObject(),
                 data: q._form.length || !q.body.raw ? data : q.body.raw, name: user.run.info.requestName,
                 description: q.description };
      },
    };
    for (const [name, read] of Object.entries(legacy))
      Object.defineProperty(g, name, { configurable: true,
        get: () => (own(user.run.assigned, name) ? user.run.assigned[name] : read()),
        set: (v) => { user.run.assigned[name] = v; } });
    const scopeOf = (name) => pm[name];
    // the older API keeps a value as its text, unless it is falsy (0, null, '' stay as they are; false is 'false')
    const legacyValue = (v) => ((v === false || v) && typeof (v && v.toString) === 'function' ? v.toString() : v);
    g.postman = {
      setNextRequest: setNext,
      setEnvironmentVariable: (k, v) => scopeOf('environment').set(k, legacyValue(v)),
      getEnvironmentVariable: (k) => scopeOf('environment').get(k),
      clearEnvironmentVariable: (k) => scopeOf('environment').unset(k),
      clearEnvironmentVariables: () => scopeOf('environment').clear(),
      setGlobalVariable: (k, v) => scopeOf('globals').set(k, legacyValue(v)),
      getGlobalVariable: (k) => scopeOf('globals').get(k),
      clearGlobalVariable: (k) => scopeOf('globals').unset(k),
      clearGlobalVariables: () => scopeOf('globals').clear(),
      getResponseHeader: (name) => (user.run.response ? user.run.response.headers.get(name) : undefined),
      getResponseCookie: (name) => (user.run.response ? user.run.response.cookies.all().find((c) => c.name === String(name)) : undefined),
    };
    // what tests[name] says after the script: a test each, as newman reports them
    const legacyTests = () => {
      const t = user.run.tests;
      if (t)
        for (const [name, passed] of Object.entries(t))
          host.test(String(name), Boolean(passed), passed ? '' : 'expected ' + String(passed) + ' to be truthy');
    };

    // what changed beside what the host was told, as JSON: skip, the request (when it was read) as the script
    // left it and resolved; "" when nothing (or no run began)
    const end = () => {
      const r = user.run;
      if (r && !r.told) {
        r.told = true;
        legacyTests(); // once, whether the script ended or threw
      }
      const q = r && r.hasRequest ? r.request : undefined; // a test script's changes to the request are not sent
      if (!r || (!r.skip && !q && !r.jump)) return '';
      const out = {};
      if (r.skip) out.skip = true;
      if (r.jump) out.next = r.next;
      if (q) {
        out.request = { method: q.method, url: String(q.urlText), headers: q._pairs, body: q.body.raw };
        out.resolved = { url: replaceIn(String(q.urlText), resolve), headers: q._pairs.map(([k, v]) => [k, replaceIn(String(v), resolve)]),
                         body: replaceIn(String(q.body.raw ?? ''), resolve) };
      }
      return JSON.stringify(out);
    };
    // a run: its facts, the script's function (its `this` the user's global), what it changed
    const call = (fn, requestName, iteration, hasRequest, code, status, responseTime, responseSize, requestId, grpc) => {
      user.run = null; // (end() after a failure here reports nothing, not the run before)
      user.run = { vars: undefined, info: { requestName, requestId, iteration, eventName: hasRequest ? 'prerequest' : 'test' },
                   skip: false, jump: false, next: null, logs: 0, hasRequest, request: undefined, response: undefined, tests: undefined,
                   assigned: {} };
      if (code >= 0 && grpc) user.run.response = new GrpcResponse(user, code, status, responseTime, responseSize);
      else if (code >= 0) user.run.response = new Response(user, code, status, responseTime, responseSize);
      fn.call(g);
      return ''; // the host asks end() once the run's jobs ran (and also when it failed)
    };
    return [call, end];
  };

  // What a user's script can reach of this realm cannot be changed: the standard classes, their prototypes,
  // this prelude's classes, the global itself (a function made from one of its Function's would see it).
  Object.defineProperty(globalThis, '__pmInstall', { value: install });
  const harden = (v) => {
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null) return;
    Object.freeze(v);
    if (typeof v === 'function' && own(v, 'prototype')) Object.freeze(v.prototype);
  };
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if ('value' in d) harden(d.value);
  }
  for (const v of [Assertion, AssertionError, HeaderList, CookieList, ResponseHave, ResponseBe, Response, MessageList,
                   GrpcHave, GrpcResponse, CryptoJS.lib.WordArray,
                   Object.getPrototypeOf(function* () {}), Object.getPrototypeOf(async () => {}),
                   Object.getPrototypeOf([][Symbol.iterator]()), Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
                   Object.getPrototypeOf(new Map()[Symbol.iterator]()), Object.getPrototypeOf(new Set()[Symbol.iterator]()),
                   Object.getPrototypeOf(''[Symbol.iterator]()), Object.getPrototypeOf(/a/[Symbol.matchAll](''))])
    harden(v);
  Object.freeze(globalThis);
})();
)JS";
}

} // namespace stampede::script
