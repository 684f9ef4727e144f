// The index's entries by key are split over several maps: whatever keys are set and deleted, it answers as one
// Map would, and the keys the engine names its logs with (and hashed keys) spread over the maps, so none of
// them grows much past its share.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { createHash } from 'node:crypto';
import { KeyedMap, SHARDS, shardOf } from '../../server/store/keyed-map.ts';
import { check } from '../props/check.ts';

const s = suite('store: entries by key, over several maps');

const key = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('a', 'a~1f2e', '20261127T100000.000Z-1', '20261127T100000.000Z-12', 'é', ''));
const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
);

s('answers as one Map: get, has, size, and every entry once', async () => {
  await check(
    fc.property(fc.array(op, { maxLength: 60 }), fc.array(key, { maxLength: 10 }), (ops, probes) => {
      const keyed = new KeyedMap<number>();
      const model = new Map<string, number>();
      for (const o of ops) {
        if (o.kind === 'set') {
          keyed.set(o.key, o.value);
          model.set(o.key, o.value);
        } else assert.is(keyed.delete(o.key), model.delete(o.key), `delete ${JSON.stringify(o.key)}`);
      }
      assert.is(keyed.size, model.size);
      for (const k of [...probes, ...model.keys()]) {
        assert.is(keyed.get(k), model.get(k), `get ${JSON.stringify(k)}`);
        assert.is(keyed.has(k), model.has(k));
      }
      const sorted = <T>(xs: Iterable<[string, T]>) => [...xs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      assert.equal(sorted(keyed.entries()), sorted(model.entries()));
      assert.equal(sorted(keyed), sorted(model.entries()));
      assert.equal([...keyed.keys()].sort(), [...model.keys()].sort());
      assert.equal([...keyed.values()].sort(), [...model.values()].sort());
      const seen: [string, number][] = [];
      keyed.forEach((v, k) => seen.push([k, v]));
      assert.equal(sorted(seen), sorted(model.entries()));
    }),
    300,
  );
});

s("a million engine-named logs' keys, and hashed keys, spread over the maps", () => {
  const spread = (keys: Iterable<string>) => {
    const counts = new Array<number>(SHARDS).fill(0);
    let n = 0;
    for (const k of keys) {
      counts[shardOf(k)]!++;
      n++;
    }
    return Math.max(...counts) / (n / SHARDS);
  };
  // As the engine names them: start time, then the proxy's process id; a busy proxy writes many a second.
  function* engineKeys(): Generator<string> {
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 1_000_000; i++) {
      const t = new Date(start + i * 31_536).toISOString().replace(/[-:]/g, '');
      yield `${t}-${1_000 + ((i * 7_919) % 60_000)}`;
    }
  }
  function* hashedKeys(): Generator<string> {
    for (let i = 0; i < 50_000; i++) yield `20261127T100000.000Z-1~${createHash('sha256').update(`logs/d${i}/x.jsonl`).digest('hex').slice(0, 12)}`;
  }
  // No map holds more than 1.25 times its share.
  const engine = spread(engineKeys());
  assert.ok(engine < 1.25, `engine-named keys: the largest map holds ${engine.toFixed(2)}× its share`);
  const hashed = spread(hashedKeys());
  assert.ok(hashed < 1.25, `hashed keys: the largest map holds ${hashed.toFixed(2)}× its share`);
});

s.run();
