// Trace and span ids derived from the session, so that exporting the same session again gives the same ids
// and a trace store keeps one copy of a session sent twice. They are SHA-256 digests cut to the sizes W3C
// trace context requires (16 and 8 bytes, as hex), never all zeros.
import { hash } from 'node:crypto';

const TRACE_ID_HEX = 32;
const SPAN_ID_HEX = 16;

function digestHex(text: string, hex: number): string {
  const out = hash('sha256', text, 'hex').slice(0, hex);
  // An all-zero id is invalid in W3C trace context; a digest that starts so is vanishingly rare.
  return /^0+$/.test(out) ? `${out.slice(0, -1)}1` : out;
}

/** The trace id of a session: from its id (the proxy's start time and pid), not from where its log lies. */
export function traceIdOf(sessionId: string): string {
  return digestHex(`engine-session\u0000${sessionId}`, TRACE_ID_HEX);
}

/** A span id within a trace, from what the span stands for (`session`, `turn 3`, `request 12`, ...). */
export function spanIdOf(traceId: string, part: string): string {
  return digestHex(`${traceId}\u0000${part}`, SPAN_ID_HEX);
}

/** One trace's span ids, each digested once: a parent's id is asked for by every child. */
export function spanIds(traceId: string): (part: string) => string {
  const known = new Map<string, string>();
  return (part) => {
    let id = known.get(part);
    if (id === undefined) known.set(part, (id = spanIdOf(traceId, part)));
    return id;
  };
}
