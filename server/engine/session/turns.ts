// The CLI's inference of the agent's LLM turns (session-format §3.5), fed one message at a time so that it
// runs inside the console's single pass over the log. MCP never says where a turn starts: calls sent while
// another of the turn is open share it; a call sent at most SAME_TURN_MS after the turn's last answer joins
// it too, unless something was said in between or it passes a value that only the turn's results held.
import { SESSION_SAME_TURN_MS } from '../../../shared/limits.ts';
import { given, has, idKey, isObject, jsonText } from './json.ts';

interface Pending {
  holdsTurn: boolean;
}

/** A piece of text not computed yet: the summary defers parsing an answer until a turn check needs it. */
export type LazyText = () => string;

/**
 * Text that only grows and is searched now and then, kept as UTF-8 in a buffer that doubles: a JS string
 * built with += is re-flattened (copied whole) by every search, which makes a long session quadratic. A match
 * of a needle's bytes is a match of its characters, since UTF-8 never matches inside a character. Lazy
 * pieces are computed, in order, only when the text is searched.
 */
class GrowingText {
  private buf = Buffer.alloc(0);
  private len = 0;
  private later: (string | LazyText)[] = [];

  get empty(): boolean {
    return this.len === 0 && this.later.length === 0;
  }

  append(s: string | LazyText): void {
    if (this.later.length > 0 || typeof s === 'function') this.later.push(s);
    else this.write(s);
  }

  appendText(other: GrowingText): void {
    if (other.len > 0) {
      if (this.later.length > 0) this.later.push(other.buf.toString('utf8', 0, other.len));
      else {
        this.reserve(other.len);
        this.len += other.buf.copy(this.buf, this.len, 0, other.len);
      }
    }
    for (const piece of other.later) this.later.push(piece);
  }

  clear(): void {
    this.len = 0;
    this.later = [];
  }

  includes(s: string): boolean {
    if (this.later.length > 0) {
      const pieces = this.later;
      this.later = [];
      for (const piece of pieces) this.write(typeof piece === 'string' ? piece : piece());
    }
    return this.len > 0 && this.buf.subarray(0, this.len).indexOf(s, 0, 'utf8') !== -1;
  }

  private write(s: string): void {
    if (s.length === 0) return;
    this.reserve(Buffer.byteLength(s, 'utf8'));
    this.len += this.buf.write(s, this.len, 'utf8');
  }

  private reserve(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.len + extra, this.buf.length * 2, 1024));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
}

export class TurnInference {
  /** The agent's turns in order: the number of calls of a tool-call turn, 0 for an agent message. */
  readonly turns: number[] = [];
  private current = -1;
  /** Only tool results came since the current tool-call turn started. */
  private onlyResults = false;
  private open = 0;
  private answeredAt: number | null = null;
  private readonly returned = new GrowingText();
  private readonly known = new GrowingText();
  private readonly pending = new Map<string, Pending>();

  /** A context message (any role); only user and assistant ones are events. */
  context(m: unknown): void {
    const text = isObject(m) && typeof m.content === 'string' ? m.content : '';
    const role = isObject(m) ? m.role : undefined;
    this.known.append(text);
    if (role === 'user') this.onlyResults = false;
    else if (role === 'assistant' && text !== '') {
      this.turns.push(0);
      this.onlyResults = false;
    }
  }

  /** A message with a string method from the client (or the proxy). */
  request(t: number, fromClient: boolean, m: Record<string, unknown>, method: string): void {
    const params = m.params;
    if (method === 'tools/call') {
      if (!given(m.id) || !isObject(params) || typeof params.name !== 'string') return;
      const key = idKey(m.id);
      const reused = this.pending.get(key);
      if (reused) {
        this.pending.delete(key);
        if (reused.holdsTurn) this.open--;
      }
      const args = has(params, 'arguments') ? params.arguments : {};
      const continues =
        fromClient &&
        this.answeredAt !== null &&
        Math.max(0, t - this.answeredAt) <= SESSION_SAME_TURN_MS &&
        this.onlyResults &&
        !this.usesNewValues(args);
      if ((this.open === 0 && !continues) || this.current === -1) {
        this.known.appendText(this.returned);
        this.returned.clear();
        this.answeredAt = null;
        this.turns.push(0);
        this.current = this.turns.length - 1;
        this.onlyResults = true;
      }
      this.known.append(jsonText(args));
      this.turns[this.current] = (this.turns[this.current] ?? 0) + 1;
      this.open++;
      this.pending.set(key, { holdsTurn: true });
    } else if (method === 'notifications/cancelled') {
      if (!isObject(params) || !has(params, 'requestId')) return;
      const p = this.pending.get(idKey(params.requestId));
      if (p && p.holdsTurn) {
        p.holdsTurn = false;
        this.open--;
      }
    }
  }

  /** Whether a response with this id key would be taken (the CLI's sense of a response is the caller's). */
  waitsFor(key: string): boolean {
    return this.pending.has(key);
  }

  /** A response from the server or the proxy, with its outcome content (or a way to compute it). */
  response(t: number, key: string, content: string | LazyText): void {
    const call = this.pending.get(key);
    if (!call) return;
    this.pending.delete(key);
    if (call.holdsTurn) {
      this.open--;
      if (this.open === 0) this.answeredAt = t;
    }
    this.returned.append(content);
  }

  /** Some value passed in `args` first appeared in what the turn returned (so the call came after it). */
  private usesNewValues(args: unknown): boolean {
    if (this.returned.empty) return false;
    const values: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') values.push(v);
      else if (typeof v === 'number') values.push(jsonText(v));
      else if (Array.isArray(v)) v.forEach(walk);
      else if (isObject(v)) Object.values(v).forEach(walk);
    };
    walk(args);
    return values.some(
      (s) => (s.length > 2 || [...s].length >= 2) && this.returned.includes(s) && !this.known.includes(s),
    );
  }
}
