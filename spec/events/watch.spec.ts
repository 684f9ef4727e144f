import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from '../../server/data/catalog.ts';
import { changes, snapshot, type Snapshot } from '../../server/events/watch.ts';
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

watch.run();
