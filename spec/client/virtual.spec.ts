// client/src/lib/virtual.ts: the rows a virtual list renders for a band of the page, and the row at a point.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { indicesFrom, rowAt, rowOffsets, visibleRange } from '../../client/src/lib/virtual.ts';

const virtual = suite('client virtual');

// Rows of 10, 20, 30 and 40 px: tops at 0, 10, 30, 60, and 100 in all.
const o = rowOffsets(4, (i) => (i + 1) * 10);

virtual('offsets are the rows’ tops, then the total', () => {
  assert.equal([...o], [0, 10, 30, 60, 100]);
});

virtual('a band renders the rows it touches, and no more than the most', () => {
  assert.equal(visibleRange(o, 4, 15, 35, 60), { start: 1, end: 3 });
  assert.equal(visibleRange(o, 4, -800, 900, 60), { start: 0, end: 4 });
  assert.equal(visibleRange(o, 4, -800, 900, 2), { start: 0, end: 2 });
  assert.equal(visibleRange(o, 4, 200, 300, 60), { start: 4, end: 4 });
});

virtual('the row at a point, the last past the end, the first of none', () => {
  assert.is(rowAt(o, 4, 0), 0);
  assert.is(rowAt(o, 4, 10), 1);
  assert.is(rowAt(o, 4, 59.5), 2);
  assert.is(rowAt(o, 4, 500), 3);
  assert.is(rowAt(rowOffsets(0, () => 10), 0, 5), 0);
});

virtual('indices run from start up to end', () => {
  assert.equal(indicesFrom(2, 5), [2, 3, 4]);
  assert.equal(indicesFrom(3, 3), []);
});

virtual.run();
