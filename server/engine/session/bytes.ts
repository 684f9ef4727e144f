// UTF-8 bytes built piece by piece into fixed-size chunks, for the single-session view: a big log's view is
// tens of MB of JSON, and making it as one string, then encoding that string, kept three copies alive at
// once (values, text, bytes). Pieces of text are encoded straight into the current chunk; each chunk owns
// its whole ArrayBuffer, so the chunks can be moved (not copied) to another thread.

/** Bytes per chunk: big enough that a view is a few dozen chunks, small enough to send as one write. */
export const BYTE_CHUNK = 1 << 20;

export class ByteBuilder {
  private readonly done: Uint8Array[] = [];
  private buf: Buffer;
  private pos = 0;
  private total = 0;

  private readonly chunk: number;

  constructor(chunk = BYTE_CHUNK) {
    // A chunk holds at least two characters of any size.
    this.chunk = Math.max(chunk, 8);
    this.buf = Buffer.allocUnsafeSlow(this.chunk);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.total + this.pos;
  }

  /** Appends the UTF-8 encoding of a well-formed string (no lone surrogates, as JSON.stringify writes). */
  text(s: string): void {
    let i = 0;
    while (i < s.length) {
      // Each UTF-16 unit takes at most 3 bytes: write as many units as surely fit in what is left.
      let n = Math.min(s.length - i, Math.floor((this.buf.length - this.pos) / 3));
      if (n < 2 && n < s.length - i) {
        this.next();
        continue;
      }
      // Never split a surrogate pair between two writes.
      const last = s.charCodeAt(i + n - 1);
      if (last >= 0xd800 && last <= 0xdbff && i + n < s.length) n--;
      this.pos += this.buf.write(n === s.length && i === 0 ? s : s.slice(i, i + n), this.pos, 'utf8');
      i += n;
    }
  }

  private next(): void {
    if (this.pos > 0) {
      this.done.push(this.buf.subarray(0, this.pos));
      this.total += this.pos;
      this.buf = Buffer.allocUnsafeSlow(this.chunk);
      this.pos = 0;
    }
  }

  /** The chunks in order (none empty); the builder must not be used afterwards. */
  finish(): Uint8Array[] {
    this.next();
    return this.done;
  }
}

/**
 * Writes `JSON.stringify(value)` for a plain object of plain data, one top-level field at a time and one
 * array element at a time; each array element written is dropped from its array (set to null), so what it
 * held can be collected while the rest is written. The bytes equal those of JSON.stringify.
 */
export function writeJsonConsuming(out: ByteBuilder, value: Record<string, unknown>): void {
  out.text('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    out.text(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (Array.isArray(v)) {
      out.text('[');
      for (let i = 0; i < v.length; i++) {
        const piece = JSON.stringify(v[i]) as string | undefined;
        out.text(i > 0 ? `,${piece ?? 'null'}` : (piece ?? 'null'));
        v[i] = null;
      }
      out.text(']');
    } else out.text(JSON.stringify(v));
  }
  out.text('}');
}
