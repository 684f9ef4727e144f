// q finds a session by its id in one search of the ids' text: whatever ids rows get, lose or get again, and
// however far the rows reach past the text's chunks (made as their rows are first set, and grown), the rows it
// marks are those whose lowercased id holds q.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { IdText } from '../../server/store/id-text.ts';
import { check } from '../props/check.ts';

const s = suite('id text');

// Rows on both sides of the chunks' edges (65,536 rows a chunk), and ids of every kind: an engine's, one as
// long as a slot, one with a newline, one a lowercasing lengthens.
const ROWS = [0, 1, 1_023, 1_024, 65_535, 65_536, 65_537, 131_071, 131_072, 200_000];
const IDS = ['20261127T100000.000Z-1', '20261127T100000.000Z-12', 'X'.repeat(31), 'Y'.repeat(32), 'line\nbreak', 'İd', 'ABC', 'abc-İ'];
const NEEDLES = ['z-1', '0z-12', 'x', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'y'.repeat(32), 'line\nb', 'i̇', 'abc', 'c-', '\n', 'nowhere'];

type Op = { row: number; id: string | null };
const opArb: fc.Arbitrary<Op> = fc.record({ row: fc.constantFrom(...ROWS), id: fc.option(fc.constantFrom(...IDS)) });

s('marks exactly the rows whose lowercased id holds the needle, as the text grows by chunks', async () => {
  await check(
    fc.property(fc.array(opArb, { maxLength: 30 }), fc.constantFrom(...NEEDLES), (ops, needle) => {
      const text = new IdText();
      let rows = 1_024;
      const model = new Map<number, string>();
      for (const { row, id } of ops) {
        // The columns grow by half again until the row fits, as they do; the text makes its chunks as rows are set.
        while (row >= rows) rows = Math.ceil(rows * 1.5);
        if (id === null) {
          text.clear(row);
          model.delete(row);
        } else {
          text.set(row, id);
          model.set(row, id.toLowerCase());
        }
      }
      const hits = new Uint8Array(rows);
      text.mark(needle, hits);
      const want = [...model].filter(([, lower]) => lower.includes(needle)).map(([row]) => row).sort((a, b) => a - b);
      const got = [...hits.keys()].filter((row) => hits[row] === 1);
      assert.equal(got, want, needle);
    }),
    300,
  );
});

s.run();
