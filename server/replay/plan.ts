// What a replay would read, said before it runs: the recorded tools of the chosen sessions, their calls, and
// which a recording marked as writing (the live server's own marks are known only once it runs).
import { REPLAY_CALLS_DEFAULT, type ReplayPlan } from '../../shared/replay.ts';
import { compareText } from '../engine/format.ts';
import { readRecording } from './recording.ts';

export async function replayPlan(logs: { key: string; path: string }[]): Promise<ReplayPlan> {
  const tools = new Map<string, { calls: number; recorded_write: boolean }>();
  let left = REPLAY_CALLS_DEFAULT;
  for (const log of logs) {
    if (left <= 0) break;
    const r = await readRecording(log.path, log.key, left);
    left -= r.calls.length;
    for (const c of r.calls) {
      const t = tools.get(c.tool) ?? { calls: 0, recorded_write: false };
      t.calls++;
      if (r.writes.has(c.tool)) t.recorded_write = true;
      tools.set(c.tool, t);
    }
  }
  const list = [...tools].map(([name, t]) => ({ name, ...t })).sort((a, b) => compareText(a.name, b.name));
  return { sessions: logs.map((l) => l.key), tools: list };
}
