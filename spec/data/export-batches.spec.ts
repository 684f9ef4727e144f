// The list export's batch sizes (data/export-batches.ts): every session is given once, the first batches as
// big as they were, the bulk in big ones, the last ones small so the workers end together.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { BATCH_MAX, BATCH_MIN, FIRST_BATCH, batchSize } from '../../server/data/export-batches.ts';
import { check } from '../props/check.ts';

const test = suite('data: export batches');

function sizes(total: number, running: number): number[] {
  const out: number[] = [];
  for (let left = total; left > 0; left -= out.at(-1)!) out.push(batchSize(left, running, out.length));
  return out;
}

test('the sizes add up to every session, each within its bounds, the first ones no bigger than FIRST_BATCH', async () => {
  await check(
    fc.property(fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 1, max: 32 }), (total, running) => {
      const s = sizes(total, running);
      assert.is(s.reduce((a, b) => a + b, 0), total);
      s.forEach((n, i) => {
        assert.ok(n >= 1 && n <= (i < running ? FIRST_BATCH : BATCH_MAX));
        if (n < BATCH_MIN) assert.is(n, total - s.slice(0, i).reduce((a, b) => a + b, 0), 'only the last batch is under the minimum');
      });
    }),
    300,
  );
});

test('10,000 sessions over four running tasks go in about half as many batches as at 128 each, ending small', () => {
  const s = sizes(10_000, 4);
  assert.equal(s.slice(0, 4), [128, 128, 128, 128]);
  assert.ok(s.length < 10_000 / 128 / 1.5, `${s.length} batches`);
  assert.ok(s.includes(BATCH_MAX));
  assert.ok(s.slice(-4).every((n) => n <= BATCH_MIN));
});

test.run();
