// What a request and a list see of a new or changed log: a new log is announced once, when its summary is
// in (a list refetched on the event finds it); a request waits for what was written before it, not the whole queue.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, copyFileSync, linkSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Hub } from '../../server/events/hub.ts';
import { unpackItems } from '../../server/store/index-wire.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';

const test = suite('store: announcements and waits');

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

const logsOf = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.jsonl') && !n.includes('.flow.') && !n.includes('.confirm.'));

test('a new log is announced once its summary is in, never before', async () => {
  const home = copyHome();
  const hub = new Hub();
  const s = new Store({ dataDir: home.dir, pool, hub });
  const rel = 'logs/shop/20991231T000000.000Z-1.jsonl';
  const seen: boolean[] = [];
  hub.subscribe((e) => {
    if (e.event !== 'changed') return;
    const entry = s.sessions.byRel.get(rel);
    if (entry && (e.data as { keys: string[] }).keys.includes(entry.key)) seen.push(entry.summary !== null);
  }, () => {});
  try {
    await s.open();
    await s.warm(30_000);
    const shop = join(home.dir, 'logs/shop');
    copyFileSync(join(shop, logsOf(shop)[0]!), join(home.dir, rel));
    await until('the new log announced', () => seen.length > 0);
    assert.equal(seen, [true]);
  } finally {
    s.close();
    home.cleanup();
  }
});

test('a request waits for the logs written before it, not for the sweep\'s re-reads', async () => {
  const home = copyHome();
  const elsewhere = tempDir();
  let slowAsked = false;
  const held = new Set<string>();
  let open = (): void => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  // The pool, with the reads of held logs kept waiting until the gate opens.
  const gated: Pool = {
    threads: pool.threads,
    destroy: async () => {},
    run(name, input) {
      const hold = input instanceof Uint8Array && unpackItems(input).some((item) => held.has(item.path));
      slowAsked ||= hold;
      const wait = hold ? gate : Promise.resolve();
      return wait.then(() => pool.run(name, input));
    },
  };
  const s = new Store({ dataDir: home.dir, pool: gated, hub: new Hub() });
  let opened = false;
  const safety = setTimeout(() => {
    opened = true;
    open();
  }, 20_000);
  try {
    await s.open();
    await s.warm(30_000);
    const shop = join(home.dir, 'logs/shop');
    const slow = s.sessions.byRel.get(`logs/shop/${logsOf(shop)[0]!}`)!;
    held.add(slow.path);
    // Written through a hard link outside the data directory: no notification, the sweep finds it.
    const outside = join(elsewhere.dir, 'same.jsonl');
    linkSync(slow.path, outside);
    appendFileSync(outside, '\n');
    await until('the sweep to read the changed log', () => slowAsked);
    const rel = 'logs/shop/20991231T000000.000Z-2.jsonl';
    copyFileSync(join(shop, logsOf(shop)[1]!), join(home.dir, rel));
    await s.sync(60_000);
    assert.is(opened, false, 'the request waited for the sweep\'s re-read');
    assert.ok(s.sessions.byRel.get(rel)?.summary, 'the new log is summarized when the request goes on');
    assert.is(slow.stamp !== null && s.sessions.byRel.get(slow.rel) === slow, true);
  } finally {
    clearTimeout(safety);
    open();
    s.close();
    elsewhere.cleanup();
    home.cleanup();
  }
});

test.run();
