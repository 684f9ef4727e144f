// server/data/cache.ts: a value is served only while its file's stamp is the one it was stored with, and
// `retain` keeps exactly the paths the latest scan still has.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { StampCache } from '../../server/data/cache.ts';

const cache = suite('stamp cache');

cache('a value comes back under the stamp it was stored with, and under no other', () => {
  const c = new StampCache<{ n: number }>();
  const value = { n: 1 };
  c.set('/d/a.jsonl', '10:1', value);
  assert.is(c.get('/d/a.jsonl', '10:1'), value);
  assert.is(c.get('/d/a.jsonl', '11:1'), undefined, 'the file grew');
  assert.is(c.get('/d/a.jsonl', '10:2'), undefined, 'the file was touched');
  assert.is(c.get('/d/b.jsonl', '10:1'), undefined, 'another path with the same stamp');
});

cache('a later set replaces the entry: the old stamp no longer answers', () => {
  const c = new StampCache<string>();
  c.set('/d/a.jsonl', '10:1', 'old');
  c.set('/d/a.jsonl', '12:2', 'new');
  assert.is(c.get('/d/a.jsonl', '10:1'), undefined);
  assert.is(c.get('/d/a.jsonl', '12:2'), 'new');
  assert.is(c.size, 1);
});

cache('a stored falsy value is still a hit', () => {
  const c = new StampCache<number | string | null>();
  c.set('/zero', 's', 0);
  c.set('/empty', 's', '');
  c.set('/null', 's', null);
  assert.equal([c.get('/zero', 's'), c.get('/empty', 's'), c.get('/null', 's')], [0, '', null]);
});

cache('retain drops the paths the scan no longer has and keeps the rest', () => {
  const c = new StampCache<string>();
  for (const p of ['/a', '/b', '/c']) c.set(p, '1:1', p);
  c.retain(new Set(['/a', '/c', '/new']));
  assert.is(c.size, 2);
  assert.equal([c.get('/a', '1:1'), c.get('/b', '1:1'), c.get('/c', '1:1')], ['/a', undefined, '/c']);
  c.retain(new Set());
  assert.is(c.size, 0);
});

cache.run();
