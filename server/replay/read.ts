// How a replay reads its recorded calls: through the worker pool in the console (a log may be big), directly
// in a test. A log that cannot be read fails the run with why, or the plan with a 422.
import type { Pool } from '../workers/pool.ts';
import type { Recordings } from './recording.ts';

export type ReadRecordings = (logs: { key: string; path: string }[], maxCalls: number) => Promise<Recordings>;

export class RecordingsUnreadable extends Error {}

export function pooledRecordings(pool: Pool): ReadRecordings {
  return async (logs, maxCalls) => {
    const r = await pool.run('replayRecordingsTask', { logs, maxCalls });
    if (!r.ok) throw new RecordingsUnreadable(r.message);
    return r.value;
  };
}

/** A tool a session's recording marked as writing, as a set key. */
export const writeKey = (session: string, tool: string) => `${session}\u0000${tool}`;
