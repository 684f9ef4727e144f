// The one place the stream reaches the store: which sessions have ended since the last look. Work grows with
// what changed, not with the directory: once the index is complete, one pass (in slices, off the event
// loop's critical path) keeps the sessions that may end after the start or that --otlp-since asks for; after
// that only the sessions the store names in its `changed` events are looked at again. When a file last
// changed is read off the stamps the index keeps (store/stamp.ts), never from a stat.
import type { SessionFile } from '../data/catalog.ts';
import { sessionSummaries } from '../data/sessions.ts';
import type { State } from '../state.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface EndedSession {
  file: SessionFile;
  /** What it is sent as: `size:mtimeMs` of the log, then `+size:mtimeMs` of its flow log when it has one. */
  stamp: string;
}

/** `size:mtimeMs` of a file's index stamp (`dev:ino:size:mtime ns`), mtimeMs as fs.Stats computes it. */
function sizeAndMs(exact: string): { text: string; ms: number } | null {
  const parts = exact.split(':');
  if (parts.length !== 4 || !/^\d+$/.test(parts[3]!)) return null;
  const ns = BigInt(parts[3]!);
  // fs.Stats: seconds × 1e3 + the rest in ns ÷ 1e6, so a stamp remembered from a stat compares equal.
  const ms = Number(ns / 1_000_000_000n) * 1e3 + Number(ns % 1_000_000_000n) / 1e6;
  return { text: `${parts[2]}:${ms}`, ms };
}

/** The log's and flow log's send stamp and newest change from the index's stamp (`log|flow log|confirm log`). */
export function sendStamp(indexStamp: string, hasFlowLog: boolean): { stamp: string; changedMs: number } | null {
  const [log, flow] = indexStamp.split('|');
  const l = log === undefined ? null : sizeAndMs(log);
  if (l === null) return null;
  if (!hasFlowLog) return { stamp: l.text, changedMs: l.ms };
  const f = flow === undefined ? null : sizeAndMs(flow);
  if (f === null) return null;
  return { stamp: `${l.text}+${f.text}`, changedMs: Math.max(l.ms, f.ms) };
}

/** Entries looked at between two turns of the event loop in the first pass. */
const SLICE = 2_000;

export class EndedSessions {
  /** Keys of the sessions that may still be sent once they end. */
  private readonly watched = new Set<string>();
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(
    private readonly state: State,
    private readonly rule: { startedMs: number; endedAfterMs: number; sinceMs: number | null },
  ) {
    this.unsubscribe = state.hub.subscribe((e) => {
      if (e.event !== 'changed') return;
      const d = e.data as { what?: unknown; keys?: unknown };
      if (d.what === 'sessions' && Array.isArray(d.keys)) for (const k of d.keys) if (typeof k === 'string') this.watched.add(k);
    }, () => undefined);
    void state.store.coldIndexDone.then(() => this.firstPass());
  }

  /** Every session once, after the cold index: those that may end after the start, and --otlp-since's. */
  private async firstPass(): Promise<void> {
    const keys = (await sessionSummaries(this.state)).entries.map((e) => e.key);
    for (let at = 0; at < keys.length && !this.stopped; at += SLICE) {
      for (const key of keys.slice(at, at + SLICE)) if (this.mayBeWanted(key)) this.watched.add(key);
      await nextTurn();
    }
  }

  private mayBeWanted(key: string): boolean {
    const e = this.state.store.sessions.byKey.get(key);
    const st = e?.readable && e.stamp !== null ? sendStamp(e.stamp, e.flowLog !== null) : null;
    return st !== null && this.wanted(e!.started_unix_ms, st.changedMs);
  }

  /** Ended after the start, or started on or after --otlp-since. */
  private wanted(startedUnixMs: number, changedMs: number): boolean {
    const { startedMs, endedAfterMs, sinceMs } = this.rule;
    return changedMs + endedAfterMs >= startedMs || (sinceMs !== null && startedUnixMs >= sinceMs);
  }

  /**
   * The watched sessions that have ended by `now` and are wanted, no longer watched. One that is gone, not
   * read yet or not readable is dropped too: the store names it again once it reads it.
   */
  take(now: number): EndedSession[] {
    const out: EndedSession[] = [];
    for (const key of this.watched) {
      const e = this.state.store.sessions.byKey.get(key);
      const st = e?.readable && e.stamp !== null ? sendStamp(e.stamp, e.flowLog !== null) : null;
      if (e === undefined || st === null) {
        this.watched.delete(key);
        continue;
      }
      if (now - st.changedMs < this.rule.endedAfterMs) continue;
      this.watched.delete(key);
      if (this.wanted(e.started_unix_ms, st.changedMs)) out.push({ file: e, stamp: st.stamp });
    }
    return out;
  }

  /** Whether the log at `rel` is still in the data directory. */
  has(rel: string): boolean {
    return this.state.store.sessions.byRel.has(rel);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
  }
}
