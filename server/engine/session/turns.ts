// The CLI's inference of the agent's LLM turns (session-format §3.5), fed one message at a time so that it
// runs inside the console's single pass over the log. MCP never says where a turn starts: calls sent while
// another of the turn is open share it; a call sent at most SAME_TURN_MS after the turn's last answer joins
// it too, unless something was said in between or it passes a value that only the turn's results held.
import { SESSION_SAME_TURN_MS } from '../../../shared/limits.ts';
import { given, has, idKey, isObject, jsonText } from './json.ts';

interface Pending {
  holdsTurn: boolean;
}

/** A piece of text not kept in memory: the answer it comes from is read again from the file if needed. */
export type LazyText = () => string;

/** Read-again pieces are kept once read, up to this many UTF-16 units in all. */
const KEEP_READ_UNITS = 8 << 20;

/**
 * Text that only grows, searched now and then for a value. It is kept as a list of pieces and searched
 * piece by piece (and across each seam), stopping at the first match: a JS string built with += would be
 * re-flattened (copied whole) by every search, which makes a long session quadratic, and a big answer can
 * stay on disk until a search actually reaches it.
 */
class PieceText {
  private pieces: (string | LazyText)[] = [];
  private kept = 0;

  get empty(): boolean {
    return this.pieces.length === 0;
  }

  append(piece: string | LazyText): void {
    if (piece !== '') this.pieces.push(piece);
  }

  /** Moves every piece of `other` to the end of this text. */
  take(other: PieceText): void {
    for (const piece of other.pieces) this.pieces.push(piece);
    other.pieces = [];
  }

  includes(needle: string): boolean {
    const seam = needle.length - 1;
    let tail = '';
    for (let i = 0; i < this.pieces.length; i++) {
      const piece = this.pieces[i] as string | LazyText;
      let text: string;
      if (typeof piece === 'string') text = piece;
      else {
        text = piece();
        if (this.kept + text.length <= KEEP_READ_UNITS) {
          this.kept += text.length;
          this.pieces[i] = text;
        }
      }
      if (text.includes(needle)) return true;
      if (seam > 0 && tail !== '' && (tail + text.slice(0, seam)).includes(needle)) return true;
      tail = seam > 0 ? (tail + text.slice(-seam)).slice(-seam) : '';
    }
    return false;
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
  private readonly returned = new PieceText();
  private readonly known = new PieceText();
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
        this.known.take(this.returned);
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
