import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { repoRoot } from '../support/fixtures.ts';

const test = suite('worker pool');

const builtPool = () => createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });

async function assertRefused(pool: Pool): Promise<void> {
  try {
    await pool.run('stampTask', []);
    assert.unreachable('a destroyed pool ran a task');
  } catch (err) {
    assert.match(String(err), /worker pool is closed/);
  }
}

test('runs a task on first use, and refuses tasks once destroyed', async () => {
  const pool = builtPool();
  const missing = join(repoRoot, 'no-such-dir/x.jsonl');
  assert.equal(await pool.run('stampTask', [{ path: missing, flowLog: null, confirmLog: null }]), ['-|-|-']);
  await pool.destroy();
  await assertRefused(pool);
});

test('a pool destroyed before any task refuses tasks', async () => {
  const pool = builtPool();
  await pool.destroy();
  await assertRefused(pool);
});

test.run();
