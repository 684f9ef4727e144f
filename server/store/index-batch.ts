// Indexing a batch of session logs in the pool, so that one log never fails the others: a log whose summary
// needs more than a worker's heap kills its worker, and with it the batch; the batch is then read again one
// log at a time, and only that log is unreadable (with why).
import { type Pool, WorkerDied } from '../workers/pool.ts';
import { type IndexItem, type IndexResult, packItems, unpackResults } from './index-wire.ts';

export async function indexBatch(pool: Pool, items: IndexItem[], stampNow: (item: IndexItem) => string): Promise<IndexResult[]> {
  try {
    return unpackResults(await pool.run('indexSessionsPackedTask', packItems(items), 'index'));
  } catch (err) {
    if (!(err instanceof WorkerDied)) throw err;
  }
  return Promise.all(
    items.map(async (item): Promise<IndexResult> => {
      try {
        const [r] = unpackResults(await pool.run('indexSessionsPackedTask', packItems([item]), 'index'));
        if (r) return r;
        throw new Error('the worker gave no answer');
      } catch (err) {
        if (!(err instanceof WorkerDied)) throw err;
        return { stamp: stampNow(item), mtimeMs: 0, unchanged: false, result: { ok: false, message: err.message } };
      }
    }),
  );
}
