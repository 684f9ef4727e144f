// What a replay would read, said before it runs: the recorded tools of the chosen sessions, their calls, and
// which a recording marked as writing (the live server's own marks are known only once it runs).
import { REPLAY_CALLS_DEFAULT, type ReplayPlan } from '../../shared/replay.ts';
import { compareText } from '../engine/format.ts';
import { writeKey, type ReadRecordings } from './read.ts';

export async function replayPlan(read: ReadRecordings, logs: { key: string; path: string }[]): Promise<ReplayPlan> {
  const r = await read(logs, REPLAY_CALLS_DEFAULT);
  const writes = new Set(r.writes.map(([session, tool]) => writeKey(session, tool)));
  const tools = new Map<string, { calls: number; recorded_write: boolean }>();
  for (const c of r.calls) {
    const t = tools.get(c.tool) ?? { calls: 0, recorded_write: false };
    t.calls++;
    if (writes.has(writeKey(c.session, c.tool))) t.recorded_write = true;
    tools.set(c.tool, t);
  }
  const list = [...tools].map(([name, t]) => ({ name, ...t })).sort((a, b) => compareText(a.name, b.name));
  return { sessions: logs.map((l) => l.key), tools: list };
}
