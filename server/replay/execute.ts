// One replay run's work: read the recorded calls, start the live server, and for each call decide whether it
// may be sent (never a write), send it and compare. The run object is changed in place; `moved` is told.
import type { ReplayCall, ReplayRun } from '../../shared/replay.ts';
import type { Upstream } from '../../shared/servers.ts';
import { errorText } from '../../shared/error-text.ts';
import { LiveServer } from './live.ts';
import { readRecording, type RecordedCall } from './recording.ts';
import { countsOf, verdictOf, volatilePaths } from './verdict.ts';

export interface RunInput {
  upstream: Upstream;
  version: string;
  /** Session keys with their log paths, in the order to replay. */
  logs: { key: string; path: string }[];
  maxCalls: number;
  ignore: readonly string[];
}

/** The recorded answer as a call keeps it: `{result}` or `{error}`, or null when the log holds none. */
function recordedAnswer(call: RecordedCall): unknown {
  const a = call.answer;
  if (a === null) return null;
  return a.error !== undefined && a.error !== null ? { error: a.error } : { result: a.result ?? null };
}

function decided(call: RecordedCall, verdict: ReplayCall['verdict'], error: string | null, live: unknown = null): ReplayCall {
  return { session: call.session, line: call.line, tool: call.tool, arguments: call.arguments, verdict, diffs: [], error, recorded: recordedAnswer(call), live };
}

async function recordedCalls(input: RunInput): Promise<{ calls: RecordedCall[]; writes: Set<string> }> {
  const calls: RecordedCall[] = [];
  const writes = new Set<string>();
  for (const log of input.logs) {
    if (calls.length >= input.maxCalls) break;
    const r = await readRecording(log.path, log.key, input.maxCalls - calls.length);
    calls.push(...r.calls);
    for (const w of r.writes) writes.add(`${log.key}\u0000${w}`);
  }
  return { calls, writes };
}

/** Sends one call when the rules let it, and judges the answer. */
async function replayOne(server: LiveServer, call: RecordedCall, recordedWrite: boolean, ignore: readonly string[]): Promise<ReplayCall> {
  const live = server.tools.find((t) => t.name === call.tool);
  if (!live) return decided(call, 'gone', 'the live server no longer lists this tool');
  if (live.read_only_hint !== true) return decided(call, 'skipped_write', 'the live server does not mark this tool readOnlyHint: true, so it was not called');
  if (recordedWrite) return decided(call, 'skipped_write', 'the recording\'s tools/list marked this tool as writing, so it was not called');
  const recorded = recordedAnswer(call);
  if (recorded === null) return decided(call, 'error', 'recorded: the log holds no answer to this call');
  const answer = await server.call(call.tool, call.arguments);
  const liveValue = answer.ok ? answer.answer : null;
  const v = verdictOf(recorded, liveValue, answer.ok ? null : answer.failure, ignore);
  return { ...decided(call, v.verdict, v.error, liveValue), diffs: v.diffs };
}

function finish(run: ReplayRun, status: ReplayRun['status'], error: string | null, now: number): void {
  run.status = status;
  run.error = error;
  run.ended_unix_ms = now;
  run.counts = countsOf(run.calls);
  run.volatile = volatilePaths(run.calls);
}

/** Runs the replay; never throws. `signal` aborts on cancel or at the run's cap (`stopReason` says which). */
export async function executeRun(run: ReplayRun, input: RunInput, signal: AbortSignal, stopReason: () => string | null, moved: () => void, now: () => number): Promise<void> {
  run.status = 'running';
  run.started_unix_ms = now();
  moved();
  let server: LiveServer | null = null;
  try {
    const { calls, writes } = await recordedCalls(input);
    run.progress.total = calls.length;
    moved();
    server = await LiveServer.open(input.upstream, input.version, signal);
    for (const call of calls) {
      if (signal.aborted) break;
      const done = await replayOne(server, call, writes.has(`${call.session}\u0000${call.tool}`), input.ignore);
      if (signal.aborted) break;
      run.calls.push(done);
      run.counts[done.verdict]++;
      run.progress.done++;
      moved();
    }
  } catch (e) {
    const reason = stopReason();
    if (reason === null) finish(run, 'failed', errorText(e), now());
  } finally {
    await server?.close();
  }
  const reason = stopReason();
  if (run.ended_unix_ms === null) {
    if (reason === 'cancelled') finish(run, 'cancelled', 'cancelled', now());
    else if (reason !== null) finish(run, 'failed', reason, now());
    else finish(run, 'succeeded', null, now());
  }
  moved();
}
