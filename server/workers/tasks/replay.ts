// Worker tasks of replays: reading the recorded calls (and each recording's tools/list) out of session logs,
// which may be big, and the site names of the server's flow, off the event loop.
import { readFileSync } from 'node:fs';
import { errorText } from '../../../shared/error-text.ts';
import { loadFlow, siteKeys, siteName } from '../../engine/flows.ts';
import { readRecordings, type Recordings } from '../../replay/recording.ts';
import { attempt, failure, ok, type Result } from '../../result.ts';

export async function replayRecordingsTask(input: { logs: { key: string; path: string }[]; maxCalls: number }): Promise<Result<Recordings>> {
  try {
    return ok(await readRecordings(input.logs, input.maxCalls));
  } catch (e) {
    return failure(`reading the recorded calls: ${errorText(e)}`);
  }
}

/** The flow's site names in its order; a failure when it does not read or load. */
export function replayFlowSitesTask(input: { path: string }): Result<string[]> {
  return attempt(() => siteKeys(loadFlow(readFileSync(input.path, 'utf8'))).map(siteName));
}
