// The `changed` events of flows, jobs and the registry come from the store's tree, like the sessions': one
// event per kind and tick, whatever number of notifications a write makes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangedEvent } from '../../shared/events.ts';
import { Hub } from '../../server/events/hub.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { repoRoot, tempDir } from '../support/fixtures.ts';

const test = suite('store: flow, job and registry events');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A store over a fresh data directory with two flows and a job record, and the file events it publishes. */
async function opened(watch: boolean) {
  const t = tempDir();
  mkdirSync(join(t.dir, 'logs/shop'), { recursive: true });
  mkdirSync(join(t.dir, 'console/jobs'), { recursive: true });
  writeFileSync(join(t.dir, 'shop.flow.json'), '{}');
  writeFileSync(join(t.dir, 'cart.flow.json'), '{}');
  writeFileSync(join(t.dir, 'console/jobs/1.json'), '{}');
  const hub = new Hub();
  const store = new Store({ dataDir: t.dir, pool, hub, watch });
  const seen: ChangedEvent[] = [];
  hub.subscribe((e) => {
    const data = e.data as ChangedEvent;
    if (e.event === 'changed' && data.what !== 'sessions') seen.push(data);
  }, () => {});
  await store.open();
  return {
    dir: t.dir,
    seen,
    close() {
      store.close();
      t.cleanup();
    },
  };
}

test('a flow written is announced once, from the tree, by its key', async () => {
  const s = await opened(true);
  try {
    // Several notifications: the write, two appends.
    writeFileSync(join(s.dir, 'shop.flow.json'), '{"a":1}');
    appendFileSync(join(s.dir, 'shop.flow.json'), ' ');
    appendFileSync(join(s.dir, 'shop.flow.json'), ' ');
    await until('the flow announced', () => s.seen.length > 0);
    // A later change of another kind: once it is announced, any second announcement of the flow would be in.
    writeFileSync(join(s.dir, 'servers.json'), '{}');
    await until('the registry announced', () => s.seen.some((e) => e.what === 'servers'));
    assert.equal(s.seen, [
      { what: 'flows', keys: ['shop'] },
      { what: 'servers', keys: ['servers.json'] },
    ]);
  } finally {
    s.close();
  }
});

test('a stage file stands for its flow, a job record for its id (not a temporary file), a removed flow for its key', async () => {
  const s = await opened(true);
  try {
    writeFileSync(join(s.dir, 'cart.stage.json'), '{}');
    writeFileSync(join(s.dir, 'console/jobs/.2.json.tmp'), '{}');
    renameSync(join(s.dir, 'console/jobs/.2.json.tmp'), join(s.dir, 'console/jobs/2.json'));
    rmSync(join(s.dir, 'shop.flow.json'));
    await until('flows and jobs announced', () => s.seen.some((e) => e.what === 'jobs') && s.seen.some((e) => e.what === 'flows'));
    const flows = s.seen.filter((e) => e.what === 'flows').flatMap((e) => e.keys).sort();
    const jobs = s.seen.filter((e) => e.what === 'jobs').flatMap((e) => e.keys);
    assert.equal(flows, ['cart', 'shop']);
    assert.equal(jobs, ['2']);
  } finally {
    s.close();
  }
});

test('the job records\' directory made after the start is watched once it is there', async () => {
  const s = await opened(true);
  try {
    rmSync(join(s.dir, 'console'), { recursive: true });
    await until('the removed record announced', () => s.seen.some((e) => e.what === 'jobs'));
    s.seen.length = 0;
    mkdirSync(join(s.dir, 'console/jobs'), { recursive: true });
    writeFileSync(join(s.dir, 'console/jobs/3.json'), '{}');
    await until('the new record announced', () => s.seen.some((e) => e.what === 'jobs' && e.keys.includes('3')));
    s.seen.length = 0;
    appendFileSync(join(s.dir, 'console/jobs/3.json'), ' ');
    await until('the changed record announced', () => s.seen.some((e) => e.what === 'jobs' && e.keys.includes('3')));
  } finally {
    s.close();
  }
});

test('without notifications, a flow whose stamp moved is announced', async () => {
  const s = await opened(false);
  try {
    // The first tick takes the polled files' stamps; a change before it would go unseen, so wait for one.
    writeFileSync(join(s.dir, 'servers.json'), '{}');
    await until('the registry announced', () => s.seen.some((e) => e.what === 'servers'));
    appendFileSync(join(s.dir, 'cart.flow.json'), '  ');
    await until('the flow announced', () => s.seen.some((e) => e.what === 'flows'));
    assert.equal(s.seen.find((e) => e.what === 'flows'), { what: 'flows', keys: ['cart'] });
  } finally {
    s.close();
  }
});

test.run();
