// The CLI's inference of the agent's LLM turns (session-format §3.5), fed one message at a time so that it
// runs inside the console's single pass over the log. MCP never says where a turn starts: calls sent while
// another of the turn is open share it; a call sent at most SAME_TURN_MS after the turn's last answer joins
// it too, unless something was said in between or it passes a value that only the turn's results held.
import { SESSION_SAME_TURN_MS } from '../../../shared/limits.ts';
import { given, has, idKey, isObject, jsonText } from './json.ts';

interface Pending {
  holdsTurn: boolean;
}

export class TurnInference {
  /** The agent's turns in order: the number of calls of a tool-call turn, 0 for an agent message. */
  readonly turns: number[] = [];
  private current = -1;
  /** Only tool results came since the current tool-call turn started. */
  private onlyResults = false;
  private open = 0;
  private answeredAt: number | null = null;
  private returned = '';
  private known = '';
  private readonly pending = new Map<string, Pending>();

  /** A context message (any role); only user and assistant ones are events. */
  context(m: unknown): void {
    const text = isObject(m) && typeof m.content === 'string' ? m.content : '';
    const role = isObject(m) ? m.role : undefined;
    this.known += text;
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
        this.known += this.returned;
        this.returned = '';
        this.answeredAt = null;
        this.turns.push(0);
        this.current = this.turns.length - 1;
        this.onlyResults = true;
      }
      this.known += jsonText(args);
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

  /** A response from the server or the proxy, with its outcome content. */
  response(t: number, key: string, content: string): void {
    const call = this.pending.get(key);
    if (!call) return;
    this.pending.delete(key);
    if (call.holdsTurn) {
      this.open--;
      if (this.open === 0) this.answeredAt = t;
    }
    this.returned += content;
  }

  /** Some value passed in `args` first appeared in what the turn returned (so the call came after it). */
  private usesNewValues(args: unknown): boolean {
    if (this.returned === '') return false;
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
