// A directory's entries kept as sorted names with changes beside them answer as a map of them would, whatever
// comes, goes or changes kind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import type { EntryKind } from '../../server/store/listing.ts';
import { TreeEntries } from '../../server/store/tree-entries.ts';
import { check } from '../props/check.ts';

const test = suite('store: a directory\'s entries');

const nameArb = fc.constantFrom('a.jsonl', 'a.flow.jsonl', 'b.jsonl', 'c', 'd', 'é.jsonl', 'Z.jsonl', 'sub');
const kindArb = fc.constantFrom<EntryKind>('file', 'dir');
const opArb = fc.oneof(
  fc.record({ op: fc.constant('set' as const), name: nameArb, kind: kindArb }),
  fc.record({ op: fc.constant('delete' as const), name: nameArb }),
);

test('sorted names with changes beside them answer as a map does', async () => {
  await check(
    fc.property(fc.uniqueArray(fc.tuple(nameArb, kindArb), { selector: ([n]) => n }), fc.array(opArb, { maxLength: 30 }), (start, ops) => {
      const map = new Map<string, EntryKind>(start);
      const sorted = start.map(([n]) => n).sort();
      const entries = new TreeEntries(sorted, new Set(start.filter(([, k]) => k === 'dir').map(([n]) => n)));
      for (const o of ops) {
        if (o.op === 'set') {
          map.set(o.name, o.kind);
          entries.set(o.name, o.kind);
        } else {
          map.delete(o.name);
          entries.delete(o.name);
        }
        for (const name of ['a.jsonl', 'a.flow.jsonl', 'b.jsonl', 'c', 'd', 'é.jsonl', 'Z.jsonl', 'sub', 'none']) assert.is(entries.get(name), map.get(name), name);
      }
      const byName = (a: [string, EntryKind], b: [string, EntryKind]) => (a[0] < b[0] ? -1 : 1);
      assert.equal([...entries].sort(byName), [...map].sort(byName));
      assert.equal([...entries.keys()].sort(), [...map.keys()].sort());
      const asSorted = entries.sortedNames();
      assert.equal(asSorted.names, [...map.keys()].sort());
      assert.equal(asSorted.dirs, [...map].filter(([, k]) => k === 'dir').map(([n]) => n).sort());
      const ending: [string, EntryKind][] = [];
      entries.endingWith('.jsonl', (name, kind) => ending.push([name, kind]));
      assert.equal(ending.sort(byName), [...map].filter(([n]) => n.endsWith('.jsonl')).sort(byName));
    }),
    200,
  );
});

test.run();
