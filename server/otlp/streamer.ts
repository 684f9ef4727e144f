// Streaming ended sessions to a collector. The rule: a session has ended when its log has had no new line
// for `endedAfterMs` (default 5 minutes). Each tick looks at every readable session and offers the queue
// those that ended, were not sent with the log as it is now (memory.ts), and either ended after the console
// started or started on or after --otlp-since. A session dropped from a full queue is offered again only
// after a restart, so the dropped count is sessions, not attempts.
import { stat } from 'node:fs/promises';
import type { OtlpStatus } from '../../shared/otlp.ts';
import { readableSpans } from '../engine/otlp/readable.ts';
import type { State } from '../state.ts';
import { VERSION } from '../version.ts';
import { traceSender } from './exporter.ts';
import { loggedSessions } from './ended-sessions.ts';
import { SentMemory } from './memory.ts';
import { SendQueue } from './queue.ts';
import type { OtlpSettings } from './settings.ts';

interface Offered {
  rel: string;
  stamp: string;
  path: string;
  flowLog: string | null;
}

/** How often the sessions are looked at: often enough for a short rule, never more than once a second. */
const tickMs = (endedAfterMs: number) => Math.max(1_000, Math.min(30_000, Math.floor(endedAfterMs / 2)));

export interface OtlpStreamer {
  status(): OtlpStatus;
  stop(): Promise<void>;
}

export async function startOtlpStreamer(state: State, s: OtlpSettings): Promise<OtlpStreamer> {
  const startedMs = Date.now();
  const memory = new SentMemory(s.sentFile);
  await memory.load();
  const sender = traceSender(s);
  const seen = new Map<string, string>();
  const queue = new SendQueue<Offered>(
    s.queueMax,
    async (o) => {
      const r = await state.pool.run('sessionTraceTask', { files: { rel: o.rel, path: o.path, flowLog: o.flowLog }, options: { payloads: false, version: VERSION } });
      if (!r.ok) throw new Error(`${o.rel} is not a session log engine can read: ${r.message}`);
      await sender.send(readableSpans(r.value));
    },
    (o) => {
      memory.remember(o.rel, o.stamp);
      void memory.flush();
    },
  );

  let ticking = false;
  const tick = async () => {
    if (ticking) return;
    ticking = true;
    try {
      const now = Date.now();
      for (const { file, startedMs: began } of await loggedSessions(state)) {
        const st = await stat(file.path).catch(() => null);
        if (st === null || now - st.mtimeMs < s.endedAfterMs) continue;
        const recent = st.mtimeMs + s.endedAfterMs >= startedMs;
        const wanted = recent || (s.sinceMs !== null && began >= s.sinceMs);
        const stamp = `${st.size}:${st.mtimeMs}`;
        if (!wanted || seen.get(file.rel) === stamp || memory.has(file.rel, stamp)) continue;
        seen.set(file.rel, stamp);
        queue.offer({ rel: file.rel, stamp, path: file.path, flowLog: file.flowLog });
      }
    } catch {
      // The next tick looks again; the store answers what it has.
    } finally {
      ticking = false;
    }
  };
  const timer = setInterval(() => void tick(), tickMs(s.endedAfterMs));
  timer.unref();
  void tick();

  return {
    status: () => ({
      endpoint: s.url,
      protocol: s.protocol,
      header_names: Object.keys(s.headers).sort(),
      ended_after_ms: s.endedAfterMs,
      sent: queue.counts.sent,
      queued: queue.counts.queued,
      failed: queue.counts.failed,
      dropped: queue.counts.dropped,
      last_error: queue.counts.lastError,
    }),
    async stop() {
      clearInterval(timer);
      queue.stop();
      await memory.flush();
      await sender.shutdown().catch(() => undefined);
    },
  };
}
