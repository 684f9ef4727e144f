import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from '../../server/data/catalog.ts';
import { changes, snapshot, startWatch, type Snapshot } from '../../server/events/watch.ts';
import { Hub } from '../../server/events/hub.ts';
import { frame } from '../../server/events/sse.ts';
import { tempDir } from '../support/fixtures.ts';

const watch = suite('watch');

const empty = (): Snapshot => ({ flows: new Map(), jobs: new Map(), servers: '' });

watch('no change gives no events', () => {
  const a = empty();
  a.flows.set('x', '1:1|');
  const b = empty();
  b.flows.set('x', '1:1|');
  assert.equal(changes(a, b), []);
});

watch('added, changed and removed keys come sorted, in the order flows, jobs, servers', () => {
  const a = empty();
  a.flows.set('b', '1:1|').set('gone', '1:1|');
  a.jobs.set('j0', '1:1');
  const b = empty();
  b.flows.set('b', '2:2|').set('a', '1:1|');
  b.jobs.set('j0', '1:1');
  b.jobs.set('j1', '5:5');
  b.servers = '10:10';
  assert.equal(changes(a, b), [
    { what: 'flows', keys: ['a', 'b', 'gone'] },
    { what: 'jobs', keys: ['j1'] },
    { what: 'servers', keys: ['servers.json'] },
  ]);
});

watch('a snapshot sees a changed flow, a stage file, and a job record', () => {
  const t = tempDir();
  try {
    mkdirSync(join(t.dir, 'logs/shop'), { recursive: true });
    writeFileSync(join(t.dir, 'shop.flow.json'), '{}');
    writeFileSync(join(t.dir, 'cart.flow.json'), '{}');
    const before = snapshot(t.dir, buildCatalog(t.dir));
    appendFileSync(join(t.dir, 'shop.flow.json'), ' ');
    writeFileSync(join(t.dir, 'cart.stage.json'), '{}');
    mkdirSync(join(t.dir, 'console/jobs'), { recursive: true });
    writeFileSync(join(t.dir, 'console/jobs/42.json'), '{}');
    writeFileSync(join(t.dir, 'console/jobs/.42.json.tmp'), '{}');
    const after = snapshot(t.dir, buildCatalog(t.dir));
    assert.equal(changes(before, after), [
      { what: 'flows', keys: ['cart', 'shop'] },
      { what: 'jobs', keys: ['42'] },
    ]);
  } finally {
    t.cleanup();
  }
});

watch('an event is framed as event, data and a blank line', () => {
  assert.is(frame({ event: 'changed', data: { what: 'sessions', keys: ['copy'] } }), 'event: changed\ndata: {"what":"sessions","keys":["copy"]}\n\n');
});

watch('a file written between a listener arriving and the first tick is announced (the baseline is taken on arrival)', async () => {
  const t = tempDir();
  const hub = new Hub();
  const stop = startWatch(t.dir, () => buildCatalog(t.dir), hub);
  try {
    writeFileSync(join(t.dir, 'shop.flow.json'), '{}');
    const seen: unknown[] = [];
    hub.subscribe((e) => seen.push(e.data), () => {});
    // Right after the listener arrived, before any tick could take a snapshot of its own.
    writeFileSync(join(t.dir, 'cart.flow.json'), '{}');
    mkdirSync(join(t.dir, 'console/jobs'), { recursive: true });
    writeFileSync(join(t.dir, 'console/jobs/7.json'), '{}');
    const end = Date.now() + 3_000;
    while (seen.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen, [
      { what: 'flows', keys: ['cart'] },
      { what: 'jobs', keys: ['7'] },
    ]);
  } finally {
    stop();
    t.cleanup();
  }
});

watch.run();
