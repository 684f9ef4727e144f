// The heap's settling once the cold index is in (bin/memory.ts): one full collection at that moment, and no
// `gc` left behind for code to call. Run in a child process: it changes V8's flags for the whole process.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../support/fixtures.ts';

const test = suite('launcher: heap settling');

const probe = (settle: string) => `
  import { PerformanceObserver, constants } from 'node:perf_hooks';
  const { settleHeap } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'bin/memory.ts')).href)});
  let major = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
  }).observe({ entryTypes: ['gc'] });
  await new Promise((r) => setTimeout(r, 50));
  major = 0;
  ${settle}
  await new Promise((r) => setTimeout(r, 50));
  console.log(JSON.stringify({ major, gc: typeof globalThis.gc }));
`;

function run(settle: string): { major: number; gc: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe(settle)], { cwd: repoRoot, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { major: number; gc: string };
}

test('settling runs one full collection and leaves no gc exposed', () => {
  const quiet = run('');
  assert.is(quiet.major, 0, 'a quiet process makes no full collection in the window');
  const settled = run('settleHeap();');
  assert.ok(settled.major >= 1, `a full collection when the heap is settled (saw ${settled.major})`);
  assert.is(settled.gc, 'undefined');
});

test('a heap built from the saved index is settled without a full collection', () => {
  const settled = run('settleHeap({ collect: false });');
  assert.is(settled.major, 0, `no full collection (saw ${settled.major})`);
  assert.is(settled.gc, 'undefined');
});

test.run();
