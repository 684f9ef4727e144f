// Where a flow's decision shows in its session's log, for a link to `/sessions/<key>?line=<N>`. A decision
// itself is a line of the flow log, not of the session log: a lookup shows as the proxy's call it made (the
// call the outline pairs with the decision), a hand-back or a decision in shadow as the agent's call it was
// made after.
import { closeSync, openSync, readSync } from 'node:fs';
import type { CallOutline } from '../../../shared/session-views.ts';
import type { FlowDecision } from '../../../shared/sessions.ts';

/** The outline's call that shows the first decision at `site`; null when no decision or no call does. */
export function decisionCall(outline: { calls: readonly CallOutline[]; decisions: readonly FlowDecision[] }, site: string): number | null {
  const i = outline.decisions.findIndex((d) => d.site === site);
  const d = outline.decisions[i];
  if (d === undefined) return null;
  const made = d.action === 'lookup' && !d.shadow ? outline.calls.find((c) => c.decision === i) : undefined;
  // A lookup the log shows no call for (it could not be made) is shown, like a hand-back, by the call before it.
  const call = made ?? outline.calls.find((c) => c.by === 'agent' && c.id === d.after);
  return call?.n ?? null;
}

/** The number (from 1) of the line that starts at or holds byte `offset` of the file. */
export function lineAtOffset(path: string, offset: number): number {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let line = 1;
    let pos = 0;
    while (pos < offset) {
      const got = readSync(fd, chunk, 0, Math.min(chunk.length, offset - pos), pos);
      if (got === 0) break;
      for (let at = chunk.indexOf(0x0a, 0); at !== -1 && at < got; at = chunk.indexOf(0x0a, at + 1)) line++;
      pos += got;
    }
    return line;
  } finally {
    closeSync(fd);
  }
}
