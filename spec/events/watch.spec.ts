import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from '../../server/data/catalog.ts';
import { changes, snapshot, type Snapshot } from '../../server/events/watch.ts';
import { frame } from '../../server/events/sse.ts';
import { tempDir } from '../support/fixtures.ts';

const watch = suite('watch');

const empty = (): Snapshot => ({ sessions: new Map(), flows: new Map(), jobs: new Map(), servers: '' });

watch('no change gives no events', () => {
  const a = empty();
  a.sessions.set('x', '1:1||');
  const b = empty();
  b.sessions.set('x', '1:1||');
  assert.equal(changes(a, b), []);
});

watch('added, changed and removed keys come sorted, in the order sessions, flows, jobs, servers', () => {
  const a = empty();
  a.sessions.set('b', '1:1||').set('gone', '1:1||');
  a.flows.set('f', '1:1|');
  const b = empty();
  b.sessions.set('b', '2:2||').set('a', '1:1||');
  b.flows.set('f', '1:1|');
  b.jobs.set('j1', '5:5');
  b.servers = '10:10';
  assert.equal(changes(a, b), [
    { what: 'sessions', keys: ['a', 'b', 'gone'] },
    { what: 'jobs', keys: ['j1'] },
    { what: 'servers', keys: ['servers.json'] },
  ]);
});

watch('a snapshot sees a new log, an append to a flow log, and a job record', () => {
  const t = tempDir();
  try {
    mkdirSync(join(t.dir, 'logs/shop'), { recursive: true });
    writeFileSync(join(t.dir, 'logs/shop/a.jsonl'), 'x\n');
    writeFileSync(join(t.dir, 'logs/shop/a.flow.jsonl'), 'x\n');
    const before = snapshot(t.dir, buildCatalog(t.dir));
    writeFileSync(join(t.dir, 'logs/shop/b.jsonl'), 'y\n');
    appendFileSync(join(t.dir, 'logs/shop/a.flow.jsonl'), 'more\n');
    mkdirSync(join(t.dir, 'console/jobs'), { recursive: true });
    writeFileSync(join(t.dir, 'console/jobs/42.json'), '{}');
    writeFileSync(join(t.dir, 'console/jobs/.42.json.tmp'), '{}');
    const after = snapshot(t.dir, buildCatalog(t.dir), Date.now() + 1_000);
    assert.equal(changes(before, after), [
      { what: 'sessions', keys: ['a', 'b'] },
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
