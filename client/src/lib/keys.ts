// Keyboard shortcut matching (ui.md §3.5) and the reconnect backoff, as pure functions.

export interface KeyLike {
  key: string;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
}

export interface Shortcut {
  key: string;
  mod?: boolean;
  inInputs?: boolean;
}

/** Whether a key event matches a shortcut; `inInput` says whether focus is in a text control. */
export function matches(e: KeyLike, s: Shortcut, inInput: boolean): boolean {
  if (e.key.toLowerCase() !== s.key.toLowerCase()) return false;
  if (s.mod) {
    if (!(e.metaKey || e.ctrlKey)) return false;
  } else if (e.metaKey || e.ctrlKey || e.altKey) return false;
  if (inInput && !s.inInputs) return false;
  return true;
}

/** Two-key sequences such as "g o": given the previous key (and when it came), what to do now. */
export const SEQUENCES: Record<string, string> = {
  o: '/',
  s: '/sessions',
  f: '/flows',
  j: '/jobs',
  v: '/servers',
  e: '/settings',
  n: '/jobs/new',
  t: '/trash',
};

export function sequenceTarget(previous: { key: string; at: number } | null, key: string, now: number): string | null {
  if (!previous || previous.key !== 'g' || now - previous.at > 1500) return null;
  return SEQUENCES[key.toLowerCase()] ?? null;
}

/** Reopen delay after the browser gave up on the stream: 2 s, 4 s, … capped at 30 s. */
export function backoffMs(attempts: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(Math.max(1, attempts), 5));
}
