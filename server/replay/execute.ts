// One replay run's work: read the recorded calls (in the pool), start the live server, and for each call decide
// whether it may be sent (never a write), send it and compare. The run object is changed in place; `moved` is
// told, and `keep` decides whether the call's answers are kept (the runs' memory is bounded).
import type { ReplayCall, ReplayRun } from '../../shared/replay.ts';
import type { Upstream } from '../../shared/servers.ts';
import { errorText } from '../../shared/error-text.ts';
import { LiveServer } from './live.ts';
import { writeKey, type ReadRecordings } from './read.ts';
import type { RecordedCall } from './recording.ts';
import { siteName } from '../engine/flows.ts';
import { answerError, countsOf, verdictOf, volatilePaths } from './verdict.ts';

export interface RunInput {
  upstream: Upstream;
  version: string;
  /** Session keys with their log paths, in the order to replay. */
  logs: { key: string; path: string }[];
  maxCalls: number;
  ignore: readonly string[];
  /** The sites of the server's flow, or null without one that loads. */
  flowSites: string[] | null;
}

/** The site a call feeds by this answer (`{result}` or `{error}`), or null without one. */
const siteOf = (tool: string, answer: unknown): string | null => (answer === null ? null : siteName([tool, answerError(answer) !== null]));

/** The recorded answer as a call keeps it: `{result}` or `{error}`, or null when the log holds none. */
function recordedAnswer(call: RecordedCall): unknown {
  const a = call.answer;
  if (a === null) return null;
  return a.error !== undefined && a.error !== null ? { error: a.error } : { result: a.result ?? null };
}

function decided(call: RecordedCall, verdict: ReplayCall['verdict'], error: string | null, live: unknown = null): ReplayCall {
  const recorded = recordedAnswer(call);
  const { session, line, tool } = call;
  return { session, line, tool, arguments: call.arguments, verdict, diffs: [], error, site: siteOf(tool, recorded), live_site: siteOf(tool, live), recorded, live };
}

/** Sends one call when the rules let it, and judges the answer. */
async function replayOne(server: LiveServer, call: RecordedCall, recordedWrite: boolean, ignore: readonly string[]): Promise<{ call: ReplayCall; bytes: number }> {
  const kept = (done: ReplayCall, liveBytes = 0) => ({ call: done, bytes: call.answerBytes + liveBytes });
  const live = server.tools.find((t) => t.name === call.tool);
  if (!live) return kept(decided(call, 'gone', 'the live server no longer lists this tool'));
  if (live.read_only_hint !== true) return kept(decided(call, 'skipped_write', 'the live server does not mark this tool readOnlyHint: true, so it was not called'));
  if (recordedWrite) return kept(decided(call, 'skipped_write', 'the recording\'s tools/list marked this tool as writing, so it was not called'));
  const recorded = recordedAnswer(call);
  if (recorded === null) return kept(decided(call, 'error', 'recorded: the log holds no answer to this call'));
  const answer = await server.call(call.tool, call.arguments);
  const liveValue = answer.ok ? answer.answer : null;
  const v = verdictOf(recorded, liveValue, answer.ok ? null : answer.failure, ignore);
  return kept({ ...decided(call, v.verdict, v.error, liveValue), diffs: v.diffs }, answer.ok ? answer.bytes : 0);
}

function finish(run: ReplayRun, status: ReplayRun['status'], error: string | null, now: number): void {
  run.status = status;
  run.error = error;
  run.ended_unix_ms = now;
  run.counts = countsOf(run.calls);
  run.volatile = volatilePaths(run.calls);
}

/** What a run is told with and tells. */
export interface RunHooks {
  read: ReadRecordings;
  /** Aborts on cancel or at the run's cap (`stopReason` says which). */
  signal: AbortSignal;
  stopReason(): string | null;
  moved(): void;
  /** The call as the run keeps it: with its answers, or without once the run's answers were let go. */
  keep(call: ReplayCall, bytes: number): ReplayCall;
  now(): number;
}

/** Runs the replay; never throws. */
export async function executeRun(run: ReplayRun, input: RunInput, hooks: RunHooks): Promise<void> {
  const { signal, stopReason, moved, now } = hooks;
  run.status = 'running';
  run.started_unix_ms = now();
  moved();
  let server: LiveServer | null = null;
  try {
    const { calls, writes } = await hooks.read(input.logs, input.maxCalls);
    const written = new Set(writes.map(([session, tool]) => writeKey(session, tool)));
    run.progress.total = calls.length;
    moved();
    server = await LiveServer.open(input.upstream, input.version, signal);
    for (const call of calls) {
      if (signal.aborted) break;
      const replayed = await replayOne(server, call, written.has(writeKey(call.session, call.tool)), input.ignore);
      if (signal.aborted) break;
      const done = hooks.keep(replayed.call, replayed.bytes);
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
