// The runs' limits, with the limits set small: a run stopped at its cap (its server killed), and the answers
// kept over all runs bounded (the oldest runs' answers let go first, their verdicts and differences kept;
// a run bigger than the budget alone lets its own go). The logs are read directly here, not in the pool.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayRun, ReplaySummary } from '../../shared/replay.ts';
import { readRecordings } from '../../server/replay/recording.ts';
import { ReplayRuns, type RunsOptions } from '../../server/replay/runs.ts';
import { repoRoot, tempDir } from '../support/fixtures.ts';
import { alive } from '../support/process.ts';
import { writeSessionLog } from '../support/replay-logs.ts';

const runs = suite('replay runs: cap and kept answers');
const double = join(repoRoot, 'spec/support/mcp-replay-double.mjs');
const ro = { readOnlyHint: true };
const text = (value: unknown) => ({ result: { content: [{ type: 'text', text: JSON.stringify(value) }] } });
let tmp: { dir: string; cleanup: () => void };
let called = '';
const logs: Record<string, { key: string; path: string }> = {};

runs.before(() => {
  tmp = tempDir('replay-runs-');
  called = join(tmp.dir, 'called.txt');
  writeFileSync(called, '');
  const tools = [{ name: 'echo', annotations: ro }, { name: 'slow', annotations: ro }];
  const write = (session: string, calls: Parameters<typeof writeSessionLog>[0]['calls']) => ({
    key: session,
    path: writeSessionLog({ dir: tmp.dir, session, domain: 'dbl', startedMs: 1767225600000, tools, calls }),
  });
  logs.echo = write('echo', [
    { name: 'echo', arguments: { a: 1 }, answer: text({ a: 1 }) },
    { name: 'echo', arguments: { a: 2 }, answer: text({ a: 3 }) },
  ]);
  logs.slow = write('slow', [{ name: 'slow', arguments: { ms: 60_000 }, answer: text({ ms: 60_000 }) }]);
});

runs.after(() => tmp.cleanup());

/** Runs with the given limits; `ended` resolves with a run's last summary once it has ended. */
function makeRuns(limits: Pick<RunsOptions, 'capMs' | 'answersMaxBytes'>) {
  const seen: ReplaySummary[] = [];
  const waiters = new Map<string, (s: ReplaySummary) => void>();
  const r = new ReplayRuns({
    ...limits,
    now: () => Date.now(),
    read: readRecordings,
    publish: (s) => {
      seen.push(s);
      if (s.status !== 'queued' && s.status !== 'running') waiters.get(s.id)?.(s);
    },
  });
  const runToEnd = (log: { key: string; path: string }): Promise<ReplayRun> => {
    const run = r.start('dbl', [log.key], { upstream: { kind: 'stdio', command: [process.execPath, double, called], env: [] }, version: 'test', logs: [log], maxCalls: 10, ignore: [], flowSites: null });
    return new Promise((resolve) => waiters.set(run.id, () => resolve(run)));
  };
  return { runs: r, seen, runToEnd };
}

runs('a run that reaches its cap is stopped, says so, and its server is killed', async () => {
  const { runToEnd } = makeRuns({ capMs: 1_500 });
  const t = performance.now();
  const run = await runToEnd(logs.slow!);
  assert.ok(performance.now() - t < 10_000, 'stopped at the cap, long before the slow answer');
  assert.is(run.status, 'failed');
  assert.match(run.error ?? '', 'the run reached its cap of 1.5 s and was stopped');
  assert.is(run.calls.length, 0);
  const pids = readFileSync(called, 'utf8').split('\n').filter((l) => l.startsWith('pid ')).map((l) => Number(l.slice(4)));
  assert.ok(pids.length > 0);
  for (const pid of pids) assert.not.ok(alive(pid), `pid ${pid} was killed`);
});

runs('past the budget, the oldest runs\' answers are let go first; verdicts and differences stay', async () => {
  const measure = makeRuns({});
  const one = await measure.runToEnd(logs.echo!);
  const perRun = measure.runs.answersBytes;
  assert.ok(perRun > 0, 'a run\'s answers are counted');
  assert.ok(one.calls.every((c) => c.recorded !== null && c.live !== null));

  const { runs: r, seen, runToEnd } = makeRuns({ answersMaxBytes: Math.floor(perRun * 2.5) });
  const first = await runToEnd(logs.echo!);
  const second = await runToEnd(logs.echo!);
  assert.is(first.answers_dropped_unix_ms, null, 'two runs fit');
  const third = await runToEnd(logs.echo!);
  assert.type(first.answers_dropped_unix_ms, 'number');
  assert.ok(first.calls.every((c) => c.recorded === null && c.live === null), 'the oldest run\'s answers are gone');
  assert.equal(first.calls.map((c) => c.verdict), ['same', 'differs']);
  assert.equal(first.calls[1]?.diffs, [{ path: '/content/0/text#/a', recorded: 3, live: 2 }]);
  for (const kept of [second, third]) {
    assert.is(kept.answers_dropped_unix_ms, null);
    assert.ok(kept.calls.every((c) => c.recorded !== null && c.live !== null));
  }
  assert.ok(r.answersBytes <= perRun * 2.5, `${r.answersBytes} bytes kept`);
  assert.ok(seen.some((s) => s.id === first.id && s.answers_dropped_unix_ms !== null), 'the letting go is told to the event stream');
});

runs('a run bigger than the budget alone keeps its verdicts, not its answers', async () => {
  const { runs: r, runToEnd } = makeRuns({ answersMaxBytes: 10 });
  const run = await runToEnd(logs.echo!);
  assert.is(run.status, 'succeeded');
  assert.type(run.answers_dropped_unix_ms, 'number');
  assert.equal(run.calls.map((c) => [c.verdict, c.recorded, c.live]), [['same', null, null], ['differs', null, null]]);
  assert.is(r.answersBytes, 0);
});

runs.run();
