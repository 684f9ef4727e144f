// Streaming ended sessions to a collector. The rule: a session has ended when neither its log nor its flow
// log has changed for `endedAfterMs` (default 5 minutes). Each tick takes the sessions that ended from those
// ended-sessions.ts watches (the ones that changed, and after the cold index those the rule may want) and
// offers the queue those were not sent with both files as they are now (memory.ts: a new
// decision line alone sends the session again), and either ended after the console started or started on
// or after --otlp-since. Sessions a full queue refused wait here, counted as dropped, and are offered again
// as each send makes room. A log that does not read, or kills its worker, is counted as failed and skipped,
// and remembered so, until it changes.
import type { TraceRequest } from '../engine/otlp/encode.ts';
import type { Result } from '../result.ts';
import type { State } from '../state.ts';
import { WorkerDied } from '../workers/pool.ts';
import { VERSION } from '../version.ts';
import { traceSender } from './exporter.ts';
import { EndedSessions } from './ended-sessions.ts';
import { SentMemory } from './memory.ts';
import { SendQueue, Unsendable } from './queue.ts';
import type { OtlpStreamer } from './running-stream.ts';
import type { OtlpSettings } from './settings.ts';

interface Offered {
  rel: string;
  stamp: string;
  path: string;
  flowLog: string | null;
}

/** How often the sessions are looked at: often enough for a short rule, never more than once a second. */
const tickMs = (endedAfterMs: number) => Math.max(1_000, Math.min(30_000, Math.floor(endedAfterMs / 2)));

export async function startOtlpStreamer(state: State, s: OtlpSettings): Promise<OtlpStreamer> {
  const startedMs = Date.now();
  const memory = new SentMemory(s.sentFile);
  await memory.load();
  if (memory.refused !== null) process.stderr.write(`engine-console: what the OTLP stream sends is not remembered between runs: ${memory.refused}\n`);
  const sender = traceSender(s);
  const seen = new Map<string, string>();
  // Sessions the full queue refused, by relative path, in the order they were refused.
  const waiting = new Map<string, Offered>();
  const offer = (o: Offered): boolean => {
    if (!queue.offer(o)) return false;
    seen.set(o.rel, o.stamp);
    waiting.delete(o.rel);
    return true;
  };
  const queue: SendQueue<Offered> = new SendQueue<Offered>(
    s.queueMax,
    async (o) => {
      let r: Result<TraceRequest>;
      try {
        const files = { rel: o.rel, path: o.path, flowLog: o.flowLog };
        r = await state.pool.run('sessionRequestTask', { files, options: { payloads: false, version: VERSION }, protocol: s.protocol });
      } catch (err) {
        if (err instanceof WorkerDied) throw new Unsendable(`${o.rel} cannot be sent: ${err.message}`);
        throw err;
      }
      if (!r.ok) throw new Unsendable(`${o.rel} is not a session log engine can read: ${r.message}`);
      await sender.send(r.value);
    },
    (o, sent) => {
      // An unsendable log is tried again only once it changes (`seen` keeps its stamp; the memory, across restarts).
      if (sent) memory.remember(o.rel, o.stamp);
      else memory.rememberUnsendable(o.rel, o.stamp);
      void memory.flush();
      // The send made room: the longest-waiting session takes it.
      const next = waiting.values().next();
      if (!next.done) offer(next.value);
    },
  );

  // Logs an earlier run could not send, unchanged since: counted as failed, not tried again.
  let knownUnsendable = 0;
  const ended = new EndedSessions(state, { startedMs, endedAfterMs: s.endedAfterMs, sinceMs: s.sinceMs });
  const tick = () => {
    for (const { file, stamp } of ended.take(Date.now())) {
      if (seen.get(file.rel) === stamp || memory.has(file.rel, stamp)) continue;
      if (memory.unsendable(file.rel, stamp)) {
        seen.set(file.rel, stamp);
        knownUnsendable++;
        continue;
      }
      const o = { rel: file.rel, stamp, path: file.path, flowLog: file.flowLog };
      if (!offer(o)) waiting.set(file.rel, o);
    }
    // A log that went away no longer waits.
    for (const rel of waiting.keys()) if (!ended.has(rel)) waiting.delete(rel);
  };
  const timer = setInterval(tick, tickMs(s.endedAfterMs));
  timer.unref();

  return {
    status: () => ({
      endpoint: s.url,
      protocol: s.protocol,
      header_names: Object.keys(s.headers).sort(),
      ended_after_ms: s.endedAfterMs,
      sent: queue.counts.sent,
      queued: queue.counts.queued,
      failed: queue.counts.failed + knownUnsendable,
      dropped: waiting.size,
      last_error: queue.counts.lastError,
    }),
    async stop() {
      clearInterval(timer);
      ended.stop();
      queue.stop();
      await memory.flush();
      await sender.shutdown().catch(() => undefined);
    },
  };
}
