// The CLI's number and JSON formatting, shared by every byte-exact text (flow-show, flow-diff, the stage
// report, flow-log). The CLI is Rust: fixed decimals round the exact binary value with ties to even
// (0.125 → "0.12"), floats never print with an exponent, and the JSON we write sorts its keys. JavaScript's
// toFixed rounds ties away from zero and String() switches to exponents, so neither is used as is.

/** The exact value of a finite double as `num / 2^shift` (num a BigInt, shift ≥ 0). */
function exactParts(x: number): { num: bigint; shift: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // value = mantissa × 2^(e), e = exponent − 1075 (normal) or −1074 (subnormal)
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const e = exponent === 0 ? -1074 : exponent - 1075;
  if (e >= 0) return { num: mantissa << BigInt(e), shift: 0n };
  return { num: mantissa, shift: BigInt(-e) };
}

function nonFinite(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  return x > 0 ? 'inf' : '-inf';
}

/** Rust `{x:.d}`: fixed-point with `digits` decimals, exact ties to even, sign kept for negatives. */
export function fixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const negative = x < 0 || Object.is(x, -0);
  const { num, shift } = exactParts(x);
  const scaled = num * 10n ** BigInt(digits);
  const denominator = 1n << shift;
  let q = scaled / denominator;
  const rem = scaled % denominator;
  const twice = rem * 2n;
  if (twice > denominator || (twice === denominator && q % 2n === 1n)) q += 1n;
  let text = q.toString();
  if (digits > 0) {
    text = text.padStart(digits + 1, '0');
    text = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  }
  return negative ? `-${text}` : text;
}

/** Expand JavaScript's shortest round-trip digits ("1.5e-7") into plain decimal digits ("0.00000015"). */
function plainDigits(abs: number): string {
  const s = String(abs);
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = (m[1] ?? '') + (m[2] ?? '');
  const point = (m[1] ?? '').length + Number(m[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Rust `{x}` (Display) of an f64: shortest round-trip digits, never an exponent, no ".0" for integers. */
export function display(x: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const negative = x < 0 || Object.is(x, -0);
  const text = plainDigits(Math.abs(x));
  return negative ? `-${text}` : text;
}

/** Rust `{x:?}` of an f64 (the program printer's float literals): always a ".0" or an exponent. */
export function debugFloat(x: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const abs = Math.abs(x);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    const [mantissa = '', exp = '0'] = abs.toExponential().split('e');
    return `${sign}${mantissa}e${Number(exp)}`;
  }
  const text = plainDigits(abs);
  return sign + (text.includes('.') ? text : `${text}.0`);
}

/** An integer with "," every three digits from the right: 4513 → "4,513". */
export function thousands(n: number): string {
  const rounded = Math.round(n);
  const negative = rounded < 0;
  const digits = String(Math.abs(rounded));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return negative ? `-${out}` : out;
}

/** `{100·x:.0}%`, multiplied first in double precision: 7/9 → "78%". */
export function percent(x: number): string {
  return `${fixed(100 * x, 0)}%`;
}

/** JSON with every object's keys sorted (code-point order), compact. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareText)) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** Rust's `String` order: by code point (JS `<` compares UTF-16 units, which differs above U+FFFF). */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** Rust `{s:?}` of a string: quoted, with `"`, `\` and control characters escaped. */
export function debugString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\0') out += '\\0';
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}
