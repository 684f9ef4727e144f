// JSON helpers for reading session logs the way the CLI does: values re-serialized with sorted keys
// (session-format §6.9), JSON-RPC ids as match keys and display strings, cuts by code point and by UTF-8
// byte, and a small scanner of an object's top-level fields. The scanner exists because JSON.parse hides
// what the CLI rejects (a duplicate field, `5.0` for an integer) and because a huge line can be peeked at
// (its id, its method) without parsing it.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function has(v: unknown, key: string): boolean {
  return isObject(v) && Object.prototype.hasOwnProperty.call(v, key);
}

/** Present and not null (the JSON-RPC sense of "has an id"). */
export function given(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** Compares strings by Unicode code point (UTF-8 byte order), not by UTF-16 unit. */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates stand for code points above U+FFFF: move them above U+E000..U+FFFF.
    if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
    if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    return x - y;
  }
  return a.length - b.length;
}

/** The value with every object's keys in code-point order, recursively (what the CLI writes back out). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort(byCodePoint)) out[k] = sortKeys(v[k]);
  return out;
}

class Enough extends Error {}

interface Out {
  parts: string[];
  size: number;
  budget: number;
}

function put(out: Out, s: string): void {
  out.parts.push(s);
  out.size += s.length;
  if (out.size > out.budget) throw new Enough();
}

function write(out: Out, x: unknown): void {
  if (typeof x === 'string') put(out, JSON.stringify(x));
  else if (typeof x === 'number') put(out, Number.isFinite(x) ? String(x) : 'null');
  else if (typeof x === 'boolean') put(out, x ? 'true' : 'false');
  else if (Array.isArray(x)) {
    put(out, '[');
    for (let i = 0; i < x.length; i++) {
      if (i > 0) put(out, ',');
      write(out, x[i]);
    }
    put(out, ']');
  } else if (isObject(x)) {
    put(out, '{');
    const keys = Object.keys(x).sort(byCodePoint);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      put(out, i > 0 ? `,${JSON.stringify(k)}:` : `${JSON.stringify(k)}:`);
      write(out, x[k]);
    }
    put(out, '}');
  } else put(out, 'null');
}

/**
 * Whether the value is plain JSON data whose objects all list their keys in code-point order already (as
 * most messages do): JSON.stringify then writes exactly the sorted text, much faster than `write`.
 */
function inOrder(v: unknown): boolean {
  if (v === null) return true;
  const type = typeof v;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (type !== 'object') return false;
  if (Array.isArray(v)) {
    for (const x of v) if (!inOrder(x)) return false;
    return true;
  }
  const o = v as Record<string, unknown>;
  if (Object.getPrototypeOf(o) !== Object.prototype) return false;
  let prev: string | null = null;
  for (const k of Object.keys(o)) {
    if (prev !== null && byCodePoint(prev, k) >= 0) return false;
    if (!inOrder(o[k])) return false;
    prev = k;
  }
  return true;
}

/**
 * The compact JSON text of a value with sorted keys. `budget` (UTF-16 units) stops early on huge values,
 * for texts that are cut short anyway; the result is then a prefix longer than the budget.
 */
export function jsonText(v: unknown, budget = Infinity): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (budget === Infinity && inOrder(v)) return JSON.stringify(v);
  const out: Out = { parts: [], size: 0, budget };
  try {
    write(out, v);
  } catch (e) {
    if (!(e instanceof Enough)) throw e;
  }
  return out.parts.join('');
}

/** The console's `compact`: like jsonText, but null (or absent) is the empty string. */
export function compact(v: unknown, budget = Infinity): string {
  return v === null || v === undefined ? '' : jsonText(v, budget);
}

/** The id as a match key: its JSON text, so the number 1 and the string "1" differ. */
export function idKey(id: unknown): string {
  return jsonText(id);
}

/** The id for display: a string as is, anything else as its JSON text. */
export function idString(id: unknown): string {
  return typeof id === 'string' ? id : jsonText(id);
}

/**
 * A copy of the string that holds no reference to a bigger one. V8 keeps a substring (and a string
 * JSON.parse took from its input) as a view into its parent, so a 200-character short form could keep a
 * 400 KB answer line alive; what the detail keeps goes through here.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8');
}

/** Keeps the first `max` code points and appends `…` when there were more. */
export function cutChars(s: string, max: number): string {
  // Fast path: a string of at most `max` UTF-16 units has at most `max` code points.
  if (s.length <= max) return s;
  let units = 0;
  let points = 0;
  while (units < s.length && points < max) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length ? 2 : 1;
    points++;
  }
  return units >= s.length ? s : `${s.slice(0, units)}…`;
}

/** Cuts to at most `max` bytes of UTF-8 on a character boundary; says whether it cut. */
export function cutBytes(s: string, max: number): { text: string; cut: boolean } {
  if (s.length * 3 <= max || Buffer.byteLength(s, 'utf8') <= max) return { text: s, cut: false };
  // Each UTF-16 unit is at most 3 bytes, so the first `max` units hold all we can keep.
  const bytes = Buffer.from(s.slice(0, max), 'utf8');
  let end = Math.min(max, bytes.length);
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), cut: true };
}

// Rust's char::is_whitespace (Unicode White_Space): JS's \s without U+FEFF, plus U+0085.
const RUST_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const RUST_SPACE_END = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/;
const RUST_NOT_SPACE = /[^\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Removes trailing whitespace as Rust's trim_end does. */
export function trimEnd(s: string): string {
  if (s.length === 0 || !RUST_SPACE.test(s[s.length - 1] ?? '')) return s;
  return s.replace(RUST_SPACE_END, '');
}

/** Whether the line is empty or whitespace only (Rust's sense of whitespace). */
export function isBlank(s: string): boolean {
  return !RUST_NOT_SPACE.test(s);
}

const LONE_SURROGATE = /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/;
/** Whether a JSON text escapes a lone surrogate (`"\ud83d"`), which the CLI's parser rejects. */
export function escapesLoneSurrogate(text: string): boolean {
  return text.includes('\\u') && LONE_SURROGATE.test(text);
}

/** A field of an object as it stands in the text: its key and the span of its value. */
export interface FieldSpan {
  key: string;
  start: number;
  end: number;
}

const STRUCTURE = /["[\]{}]/g;

function skipSpace(t: string, i: number): number {
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** The index just past the string that opens at t[i] (a `"`), or -1. */
function stringEnd(t: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = t.indexOf('"', j);
    if (q === -1) return -1;
    let slashes = 0;
    for (let k = q - 1; k > i && t.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The index just past the value that starts at t[i], or -1 when it is not well framed. */
function valueEnd(t: string, i: number): number {
  const c = t[i];
  if (c === '"') return stringEnd(t, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    STRUCTURE.lastIndex = i;
    for (;;) {
      const m = STRUCTURE.exec(t);
      if (!m) return -1;
      const ch = m[0];
      if (ch === '"') {
        const e = stringEnd(t, m.index);
        if (e === -1) return -1;
        STRUCTURE.lastIndex = e;
      } else if (ch === '{' || ch === '[') depth++;
      else if (--depth === 0) return m.index + 1;
    }
  }
  let j = i;
  while (j < t.length) {
    const ch = t[j];
    if (ch === ',' || ch === '}' || ch === ']' || ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') break;
    j++;
  }
  return j === i ? -1 : j;
}

/**
 * The top-level fields of the object whose `{` is at or after `from` (after whitespace), in text order
 * (duplicates kept), or null when the text there is not an object's frame. Values are not checked.
 */
export function objectFields(t: string, from = 0, to = t.length): FieldSpan[] | null {
  let i = skipSpace(t, from);
  if (t[i] !== '{') return null;
  const out: FieldSpan[] = [];
  i = skipSpace(t, i + 1);
  if (t[i] === '}') return out;
  for (;;) {
    if (t[i] !== '"') return null;
    const ke = stringEnd(t, i);
    if (ke === -1 || ke > to) return null;
    const raw = t.slice(i + 1, ke - 1);
    let key = raw;
    if (raw.includes('\\')) {
      try {
        key = JSON.parse(t.slice(i, ke)) as string;
      } catch {
        return null;
      }
    }
    i = skipSpace(t, ke);
    if (t[i] !== ':') return null;
    i = skipSpace(t, i + 1);
    const ve = valueEnd(t, i);
    if (ve === -1 || ve > to) return null;
    out.push({ key, start: i, end: ve });
    i = skipSpace(t, ve);
    if (t[i] === ',') {
      i = skipSpace(t, i + 1);
      continue;
    }
    if (t[i] === '}') return out;
    return null;
  }
}

/** The first key of `keys` that occurs more than once among the fields, if any. */
export function duplicateOf(fields: FieldSpan[], keys: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const f of fields) {
    if (!keys.includes(f.key)) continue;
    if (seen.has(f.key)) return f.key;
    seen.add(f.key);
  }
  return null;
}

/** Whether a number token is an integer token (no fraction, no exponent). */
export function isIntegerToken(token: string): boolean {
  return /^-?\d+$/.test(token);
}

/**
 * The leading top-level fields of the object at `from`, read until a key of `stopBefore` (whose value is
 * not read, so a huge result costs nothing). Null when the text there is not an object's frame.
 */
export function leadingFields(
  t: string,
  from: number,
  stopBefore: readonly string[],
): { fields: FieldSpan[]; stoppedAt: string | null } | null {
  let i = skipSpace(t, from);
  if (t[i] !== '{') return null;
  const fields: FieldSpan[] = [];
  i = skipSpace(t, i + 1);
  if (t[i] === '}') return { fields, stoppedAt: null };
  for (;;) {
    if (t[i] !== '"') return null;
    const ke = stringEnd(t, i);
    if (ke === -1) return null;
    let key = t.slice(i + 1, ke - 1);
    if (key.includes('\\')) {
      try {
        key = JSON.parse(t.slice(i, ke)) as string;
      } catch {
        return null;
      }
    }
    if (stopBefore.includes(key)) return { fields, stoppedAt: key };
    i = skipSpace(t, ke);
    if (t[i] !== ':') return null;
    i = skipSpace(t, i + 1);
    const ve = valueEnd(t, i);
    if (ve === -1) return null;
    fields.push({ key, start: i, end: ve });
    i = skipSpace(t, ve);
    if (t[i] === ',') {
      i = skipSpace(t, i + 1);
      continue;
    }
    return t[i] === '}' ? { fields, stoppedAt: null } : null;
  }
}
