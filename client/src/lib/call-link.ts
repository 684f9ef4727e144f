// Addresses of one call of a session, `/sessions/<key>?line=<N>` (N: the log's line of the call's request,
// from 1), and which call such an address points at.

export function callHref(sessionKey: string, line: number): string {
  return `/sessions/${encodeURIComponent(sessionKey)}?line=${line}`;
}

/** The `line` of the address, when it is a line number. */
export function lineParam(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v !== undefined && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : null;
}

/**
 * The call a line points at: the one whose request is on it, else the last call before it (the line of its
 * answer, or of what the log holds about it); null when the line is before every call.
 */
export function callAtLine(lines: readonly (number | null)[], line: number): number | null {
  let best: number | null = null;
  let bestLine = 0;
  lines.forEach((l, n) => {
    if (l !== null && l <= line && l >= bestLine) {
      best = l === bestLine && best !== null ? best : n;
      bestLine = l;
    }
  });
  return best;
}
