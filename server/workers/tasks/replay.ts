// Worker task of replays: reading the recorded calls (and each recording's tools/list) out of session logs,
// which may be big, off the event loop.
import { errorText } from '../../../shared/error-text.ts';
import { readRecordings, type Recordings } from '../../replay/recording.ts';
import { failure, ok, type Result } from '../../result.ts';

export async function replayRecordingsTask(input: { logs: { key: string; path: string }[]; maxCalls: number }): Promise<Result<Recordings>> {
  try {
    return ok(await readRecordings(input.logs, input.maxCalls));
  } catch (e) {
    return failure(`reading the recorded calls: ${errorText(e)}`);
  }
}
