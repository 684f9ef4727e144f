// A batch of logs whose worker dies (a log too big for its heap) is read again log by log: only the log
// that kills its worker is unreadable, with why; any other failure is not hidden.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { indexBatch } from '../../server/store/index-batch.ts';
import { type Pool, WorkerDied } from '../../server/workers/pool.ts';
import { type IndexItem, packResults, unpackItems } from '../../server/store/index-wire.ts';

const batch = suite('index batch');

const item = (key: string): IndexItem => ({ key, rel: `${key}.jsonl`, path: `/d/${key}.jsonl`, flowLog: null, confirmLog: null, known: null });

/** A pool whose worker dies on any batch that holds `deadly`, and answers the rest. */
function fakePool(deadly: string, calls: string[][]): Pool {
  return {
    threads: 2,
    destroy: async () => undefined,
    run: (async (_name: string, packed: Uint8Array) => {
      const items = unpackItems(packed).map((i) => ({ ...i, key: i.path.slice('/d/'.length, -'.jsonl'.length) }));
      calls.push(items.map((i) => i.key));
      if (items.some((i) => i.key === deadly)) throw new WorkerDied('reading it needs more than the heap');
      return packResults(items.map((i) => ({ stamp: `s:${i.key}`, mtimeMs: 1, unchanged: false, result: { ok: false, message: `fake ${i.key}` } })));
    }) as Pool['run'],
  };
}

batch('one deadly log fails alone; the others are read', async () => {
  const calls: string[][] = [];
  const out = await indexBatch(fakePool('b', calls), [item('a'), item('b'), item('c')], (i) => `now:${i.key}`);
  assert.equal(calls, [['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  assert.equal(out, [
    { stamp: 's:a', mtimeMs: 1, unchanged: false, result: { ok: false, message: 'fake a' } },
    { stamp: 'now:b', mtimeMs: 0, unchanged: false, result: { ok: false, message: 'reading it needs more than the heap' } },
    { stamp: 's:c', mtimeMs: 1, unchanged: false, result: { ok: false, message: 'fake c' } },
  ]);
});

batch('a batch that does not die is read once; another failure is thrown as it is', async () => {
  const calls: string[][] = [];
  assert.is((await indexBatch(fakePool('none', calls), [item('a'), item('b')], () => '')).length, 2);
  assert.equal(calls, [['a', 'b']]);
  const broken: Pool = { threads: 1, destroy: async () => undefined, run: (async () => { throw new Error('boom'); }) as Pool['run'] };
  try {
    await indexBatch(broken, [item('a')], () => '');
    assert.unreachable('no error');
  } catch (e) {
    assert.is((e as Error).message, 'boom');
  }
});

batch.run();
