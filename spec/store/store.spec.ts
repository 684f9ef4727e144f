import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, closeSync, copyFileSync, readFileSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from '../../server/data/catalog.ts';
import { sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { listSessions } from '../../server/engine/session-list.ts';
import { Hub } from '../../server/events/hub.ts';
import type { DetailBytes } from '../../server/store/detail-cache.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';
import { sessionsQuery } from '../support/sessions-query.ts';

const store = suite('store');

let pool: Pool;
store.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
store.after(async () => {
  await pool.destroy();
});

async function opened(dir: string, watch = true): Promise<{ s: Store; hub: Hub; events: { what: string; keys: string[] }[] }> {
  const hub = new Hub();
  const events: { what: string; keys: string[] }[] = [];
  hub.subscribe((e) => {
    if (e.event === 'changed') events.push(e.data as { what: string; keys: string[] });
  }, () => {});
  const s = new Store({ dataDir: dir, pool, hub, watch });
  await s.open();
  await s.warm(30_000);
  return { s, hub, events };
}

async function until(what: string, check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A fixture log that reads, for copies under new names. */
function aLog(dir: string): string {
  return join(dir, 'logs/shop', readdirSync(join(dir, 'logs/shop')).find((n) => n.endsWith('.jsonl') && !n.includes('.flow.') && !n.includes('.confirm.'))!);
}

store('keys, summaries and the list agree with a one-shot scan and the engine', async () => {
  const home = copyHome();
  const { s } = await opened(home.dir);
  try {
    const scanned = buildCatalog(home.dir);
    const catalog = s.catalog();
    assert.equal(
      catalog.sessions.map((f) => [f.key, f.rel, f.flowLog, f.confirmLog]),
      scanned.sessions.map((f) => [f.key, f.rel, f.flowLog, f.confirmLog]).sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
    );
    assert.equal(catalog.flows, scanned.flows);
    assert.is(catalog.sessionCount, scanned.sessionCount);
    assert.is(catalog.sessionCount, scanned.sessions.length);
    const engine = scanned.sessions.flatMap((f) => {
      try {
        return [sessionSummary(f)];
      } catch {
        return [];
      }
    });
    for (const fields of [{ limit: 50, offset: 0 }, { limit: 2, offset: 1 }, { limit: 0, offset: 0 }, { limit: 5, offset: 10_000 }, { q: 'SHOP', limit: 50, offset: 0 }, { mode: 'served' as const, limit: 50, offset: 0 }]) {
      const query = sessionsQuery(fields);
      assert.equal(JSON.stringify(s.sessions.list(query)), JSON.stringify(listSessions(engine, query)), JSON.stringify(query));
    }
    assert.ok(engine.length > 3, 'the fixtures hold sessions');
    assert.is(s.progress(), null);
  } finally {
    s.close();
    home.cleanup();
  }
});

for (const watch of [true, false]) {
  const how = watch ? 'with notifications' : 'polling';
  store(`${how}: a new log is seen by the next request and announced by the next tick`, async () => {
    const home = copyHome();
    const { s, events } = await opened(home.dir, watch);
    try {
      const before = s.sessions.size;
      copyFileSync(aLog(home.dir), join(home.dir, 'logs/shop/fresh-one.jsonl'));
      await s.sync();
      assert.is(s.sessions.size, before + 1);
      assert.ok(s.sessions.byKey.get('fresh-one')?.summary, 'summarized before the request answers');
      await until('the changed event', () => events.some((e) => e.what === 'sessions' && e.keys.includes('fresh-one')), 3_000);
    } finally {
      s.close();
      home.cleanup();
    }
  });

  store(`${how}: an append, a companion and a removal move the summary`, async () => {
    const home = copyHome();
    const { s, events } = await opened(home.dir, watch);
    try {
      const path = join(home.dir, 'logs/shop/grow.jsonl');
      copyFileSync(aLog(home.dir), path);
      await s.sync();
      const e = s.sessions.byKey.get('grow')!;
      const size = e.summary!.size_bytes;
      appendFileSync(path, '\n');
      await until('the append', () => s.sessions.byKey.get('grow')?.summary?.size_bytes === size + 1, 15_000);
      writeFileSync(join(home.dir, 'logs/shop/grow.flow.jsonl'), '');
      await until('the companion', () => s.sessions.byKey.get('grow')?.summary?.has_flow_log === true, 15_000);
      renameSync(path, join(home.dir, 'grow-moved.txt'));
      await s.sync();
      assert.is(s.sessions.byKey.get('grow'), undefined);
      await until('the removal event', () => events.some((ev) => ev.keys.includes('grow') && s.sessions.byKey.get('grow') === undefined), 3_000);
    } finally {
      s.close();
      home.cleanup();
    }
  });
}

store('what the console itself just moved or wrote is in the catalog once touched() resolves, while other notices are pending', async () => {
  const home = copyHome();
  const { s } = await opened(home.dir);
  try {
    const shop = join(home.dir, 'logs/shop');
    // A notice of another entry in the same directory is pending, and the console's own write follows it at
    // once: the tree looks at the notified entry alone and takes the directory's stamp as seen, so the own
    // write must have been let in first.
    writeFileSync(join(shop, 'other-new.jsonl'), readFileSync(aLog(home.dir)));
    copyFileSync(aLog(home.dir), join(shop, 'own-write.jsonl'));
    renameSync(join(shop, 'own-write.jsonl'), join(shop, 'own-moved.jsonl'));
    await s.touched();
    const catalog = s.catalog();
    assert.ok(catalog.session('own-moved'), 'the own move is seen at once');
    assert.ok(catalog.session('other-new'));
    assert.is(catalog.session('own-write'), undefined);
  } finally {
    s.close();
    home.cleanup();
  }
});

store('a second log with the same stem re-keys both, and a reserved stem takes a hash', async () => {
  const home = copyHome();
  const { s, events } = await opened(home.dir);
  try {
    copyFileSync(aLog(home.dir), join(home.dir, 'logs/shop/twin.jsonl'));
    await s.sync();
    assert.ok(s.sessions.byKey.get('twin'));
    mkdirSync(join(home.dir, 'logs/other'), { recursive: true });
    copyFileSync(aLog(home.dir), join(home.dir, 'logs/other/twin.jsonl'));
    copyFileSync(aLog(home.dir), join(home.dir, 'logs/other/compare.jsonl'));
    await s.sync();
    assert.is(s.sessions.byKey.get('twin'), undefined);
    const scanned = buildCatalog(home.dir);
    const twins = scanned.sessions.filter((f) => f.rel.endsWith('/twin.jsonl')).map((f) => f.key).sort();
    assert.is(twins.length, 2);
    assert.equal([...s.sessions.byKey.keys()].filter((k) => k.startsWith('twin~')).sort(), twins);
    assert.match(scanned.sessions.find((f) => f.rel.endsWith('/compare.jsonl'))!.key, /^compare~[0-9a-f]{8}$/);
    assert.ok(s.sessions.byKey.get(scanned.sessions.find((f) => f.rel.endsWith('/compare.jsonl'))!.key));
    await until('the re-key event', () => events.some((e) => e.keys.includes('twin') && e.keys.includes(twins[0]!)), 3_000);
  } finally {
    s.close();
    home.cleanup();
  }
});

store('a log that is not a session log is listed as unreadable, in scan order', async () => {
  const home = copyHome();
  const { s } = await opened(home.dir);
  try {
    writeFileSync(join(home.dir, 'logs/shop/zz-bad.jsonl'), 'not json\n');
    writeFileSync(join(home.dir, 'logs/aa-bad.jsonl'), '{"x":1}\n');
    await s.sync();
    assert.equal(s.sessions.unreadable().map((e) => e.rel), ['logs/aa-bad.jsonl', 'logs/shop/zz-bad.jsonl']);
    assert.is(s.sessions.byKey.get('zz-bad')!.summary, null);
  } finally {
    s.close();
    home.cleanup();
  }
});

store('details: one parse for concurrent requests, and the cache stays within its bound', async () => {
  const home = copyHome();
  const { s } = await opened(home.dir);
  try {
    const entry = [...s.sessions.byKey.values()].find((e) => e.summary !== null)!;
    const stamp = entry.stamp!;
    const [a, b] = await Promise.all([s.details.get(entry, stamp), s.details.get(entry, stamp)]);
    assert.ok(a.ok);
    assert.ok(b.ok);
    assert.is(s.details.parses, 1, 'concurrent requests share one parse');
    assert.is(s.details.size, 1);
    const again = await s.details.get(entry, stamp);
    assert.is(s.details.parses, 1, 'a second request is answered from the spool');
    // Each answer reads the same bytes through its own descriptor.
    const read = (r: DetailBytes) => (r.ok ? readFileSync(r.fd, 'utf8') : '');
    const text = read(a);
    assert.is(read(b), text);
    assert.is(read(again), text);
    for (const r of [a, b, again]) if (r.ok) closeSync(r.fd);
    assert.is(text, JSON.stringify(sessionDetail(entry)));
  } finally {
    s.close();
    home.cleanup();
  }
});

store('a session is found by its key while the start-up still lists logs, once its key is settled; a head log\'s only once all are listed', async () => {
  const home = copyHome();
  try {
    const { s: first } = await opened(home.dir, false);
    // The newest log is in the walk's first slice (or the head); the oldest in its last.
    const newest = first.sessions.readable[0]!;
    first.close();
    const order: string[] = [];
    const fromWalk = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, head: false, listSlice: 1 });
    const opening = fromWalk.open();
    const found = fromWalk.sessionWhileListing(newest.key).then((e) => {
      order.push('found');
      return e;
    });
    void fromWalk.listed.then(() => order.push('listed'));
    await opening;
    assert.is((await found)?.rel, newest.rel);
    assert.equal(order, ['found', 'listed']);
    assert.is(await fromWalk.sessionWhileListing(newest.key), undefined, 'once every log is listed, the catalog answers');
    fromWalk.close();

    const order2: string[] = [];
    const withHead = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, listSlice: 1 });
    const opening2 = withHead.open();
    const waited = withHead.sessionWhileListing(newest.key).then((e) => {
      order2.push('answered');
      return e;
    });
    void withHead.listed.then(() => order2.push('listed'));
    await opening2;
    assert.is(await waited, undefined);
    assert.equal(order2, ['listed', 'answered']);
    withHead.close();
  } finally {
    home.cleanup();
  }
});

store.run();
