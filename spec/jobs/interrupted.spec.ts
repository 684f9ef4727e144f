// A job the console stopped during (found queued or running at the next start) lists only what changed
// since it started, lists nothing if it never started, and a file it had set aside comes back when nothing
// took its place.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readFileSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../shared/jobs.ts';
import { JobRunner } from '../../server/jobs/runner.ts';
import { saveJob } from '../../server/jobs/store.ts';
import { copyHome } from '../support/fixtures.ts';

const interrupted = suite('interrupted jobs');
let R = '';
let cleanup = () => {};

interrupted.before(() => {
  const h = copyHome();
  cleanup = h.cleanup;
  R = realpathSync(h.dir);
});
interrupted.after(() => cleanup());

const base = (id: string, over: Partial<Job>): Job => ({
  id, kind: 'learn', title: 'Learn', params: { kind: 'learn' }, status: 'running', created_unix_ms: 1, started_unix_ms: null,
  finished_unix_ms: null, exit_code: null, alarm: false, output: '', artifacts: [], defaults: [], replaced: [], ...over,
});

interrupted('at the next start, an interrupted job keeps only what it changed, and what it set aside comes back', async () => {
  const started = Date.now() - 60_000;
  writeFileSync(join(R, 'old.flow.json'), '{}');
  const past = new Date(started - 60_000);
  utimesSync(join(R, 'old.flow.json'), past, past);
  writeFileSync(join(R, 'new.md'), '# new');
  mkdirSync(join(R, 'console/trash/5/sub'), { recursive: true });
  writeFileSync(join(R, 'console/trash/5/sub/kept.flow.json'), 'the old bytes');
  await saveJob(R, base('20260101T000000.000Z-aaaa', {
    started_unix_ms: started,
    artifacts: [
      { kind: 'flow', path: 'old.flow.json', key: null },
      { kind: 'report', path: 'new.md', key: null },
      { kind: 'report', path: 'missing.md', key: null },
    ],
    replaced: [{ path: 'sub/kept.flow.json', trash_id: '5' }],
  }));
  await saveJob(R, base('20260101T000000.000Z-bbbb', { status: 'queued', created_unix_ms: 2, artifacts: [{ kind: 'report', path: 'new.md', key: null }] }));

  const runner = await JobRunner.open({
    dataDir: R, home: null, readOnly: false, engine: null, now: () => Date.now(), publish: () => {}, flowKeyAt: async () => null,
  });
  const ran = (await runner.get('20260101T000000.000Z-aaaa'))!;
  assert.is(ran.status, 'failed');
  assert.equal(ran.artifacts.map((a) => a.path), ['new.md']);
  assert.equal(ran.replaced, []);
  assert.is(readFileSync(join(R, 'sub/kept.flow.json'), 'utf8'), 'the old bytes');
  assert.ok(!existsSync(join(R, 'console/trash/5')), 'the emptied trash folder is gone');
  const queued = (await runner.get('20260101T000000.000Z-bbbb'))!;
  assert.is(queued.status, 'failed');
  assert.equal(queued.artifacts, []);
  await runner.stop();
});

interrupted.run();
