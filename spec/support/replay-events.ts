// The replay tests wait for a run's end on the event stream (subscribed before the run starts), not by polling.
import * as v from 'valibot';
import { ReplaySummarySchema, type ReplaySummary } from '../../shared/replay.ts';
import type { Launched } from './launch.ts';

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

export interface ReplayWatch {
  /** Every `replay` event seen so far. */
  seen: ReplaySummary[];
  /** Resolves with the run's last event once it has ended. */
  ended(id: string): Promise<ReplaySummary>;
  close(): void;
}

export async function watchReplays(c: Launched): Promise<ReplayWatch> {
  const abort = new AbortController();
  const res = await c.api('/api/events', { signal: abort.signal });
  const body = res.body;
  if (!body) throw new Error('the event stream has no body');
  const seen: ReplaySummary[] = [];
  const waiters = new Map<string, (s: ReplaySummary) => void>();
  const check = (s: ReplaySummary) => {
    if (ENDED.has(s.status)) waiters.get(s.id)?.(s);
  };
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.startsWith('event: replay\n')) continue;
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const s = v.parse(ReplaySummarySchema, JSON.parse(data.slice(6)));
          seen.push(s);
          check(s);
        }
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    seen,
    ended: (id) =>
      new Promise((resolve) => {
        waiters.set(id, resolve);
        for (const s of seen) if (s.id === id) check(s);
      }),
    close: () => abort.abort(),
  };
}
