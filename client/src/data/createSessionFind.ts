// Find in a session, on the server (see findInSession in server/data/session-views.ts for why): the matches
// of the text, asked 250 ms after the last key; a newer text aborts the request in flight.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { FindMatch } from '../../../shared/session-views.ts';
import { errorText } from '../../../shared/error-text.ts';
import { findInSession } from '../api/endpoints.ts';

/** The find request waits this long after the last key. */
const FIND_DEBOUNCE_MS = 250;

interface SessionFind {
  /** null while there is no text to find. */
  matches: Accessor<FindMatch[] | null>;
  finding: Accessor<boolean>;
  error: Accessor<string | null>;
}

export function createSessionFind(sessionKey: Accessor<string>, text: Accessor<string>): SessionFind {
  const [matches, setMatches] = createSignal<FindMatch[] | null>(null);
  const [finding, setFinding] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let ctrl: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ask = (q: string) => {
    const mine = new AbortController();
    ctrl = mine;
    findInSession(sessionKey(), q, { signal: mine.signal }).then(
      (r) => {
        if (mine.signal.aborted) return;
        setMatches(r.matches);
        setError(null);
        setFinding(false);
      },
      (e: unknown) => {
        if (mine.signal.aborted) return;
        setError(errorText(e));
        setFinding(false);
      },
    );
  };
  createEffect(
    on(text, (q) => {
      ctrl?.abort();
      clearTimeout(timer);
      if (q.trim() === '') {
        setMatches(null);
        setFinding(false);
        setError(null);
        return;
      }
      setFinding(true);
      timer = setTimeout(() => ask(q), FIND_DEBOUNCE_MS);
    }),
  );
  onCleanup(() => {
    ctrl?.abort();
    clearTimeout(timer);
  });
  return { matches, finding, error };
}
