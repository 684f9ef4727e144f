// The index finds an entry by its log's path through the keys (no map by path): whatever logs come and go,
// with stems that share a key base (the same name in two directories, names that differ only in characters a
// key replaces, reserved names), it finds exactly the logs it holds, each under its path, and counts them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { SessionIndex } from '../../server/store/session-index.ts';
import { check } from '../props/check.ts';

const s = suite('store: entries by path');

// Few directories and stems, so that bases are shared often: `a b` and `a_b` share the base `a_b`.
const DIRS = ['logs/shop', 'logs/retail', 'served/shop', 'shadow'];
const STEMS = ['20261127T100000.000Z-1', '20261127T100000.000Z-2', 'a b', 'a_b', 'a+b', 'compare', 'otlp', 'é', '_', '..x'];

const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), logs: fc.array(fc.record({ dir: fc.constantFrom(...DIRS), stem: fc.constantFrom(...STEMS) }), { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('remove' as const), dir: fc.constantFrom(...DIRS), stem: fc.constantFrom(...STEMS) }),
);

s('an entry is found by its path exactly while it is in the index, whatever shares its key base', async () => {
  await check(
    fc.property(fc.array(op, { maxLength: 40 }), fc.boolean(), (ops, oneByOne) => {
      const index = new SessionIndex();
      // The model: each path held, with its entry once the index made one.
      const held = new Set<string>();
      for (const o of ops) {
        if (o.kind === 'add') {
          const logs = o.logs.map(({ dir, stem }) => ({ rel: `${dir}/${stem}.jsonl`, name: `${stem}.jsonl`, flowLog: false, confirmLog: false }));
          if (oneByOne) for (const log of logs) (held.has(log.rel) ? null : index.addUnlisted('/home', log.rel, false, false), held.add(log.rel));
          else {
            index.add('/home', logs);
            for (const log of logs) held.add(log.rel);
          }
        } else {
          const rel = `${o.dir}/${o.stem}.jsonl`;
          const gone = index.remove(rel);
          assert.is(gone !== null, held.has(rel), `remove ${rel}`);
          assert.is(gone?.inIndex ?? false, false);
          held.delete(rel);
        }
        assert.is(index.size, held.size);
        for (const dir of DIRS) {
          for (const stem of STEMS) {
            const rel = `${dir}/${stem}.jsonl`;
            const e = index.byRel.get(rel);
            assert.is(e?.rel, held.has(rel) ? rel : undefined, rel);
            assert.is(index.byRel.has(rel), held.has(rel));
            if (e) assert.is(index.byKey.get(e.key), e, `${rel} is under its key`);
          }
        }
        assert.equal([...index.byRel.keys()].sort(), [...held].sort());
        assert.equal(new Set(index.byRel.values()).size, held.size);
      }
      // Not a log's path: found by no key.
      assert.is(index.byRel.get('logs/shop'), undefined);
      assert.is(index.byRel.get('logs/shop/20261127T100000.000Z-1.flow.jsonl'), undefined);
    }),
    300,
  );
});

s.run();
