// client/src/lib/trash-restore.ts: restoring ticked trash items one by one, a refusal kept on its item.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TrashEntry } from '../../shared/trash.ts';
import { restoredPaths, restoreEach, tickedEntries } from '../../client/src/lib/trash-restore.ts';

const bulk = suite('client trash bulk restore');

const entry = (id: string, ...paths: string[]): TrashEntry => ({
  id,
  deleted_unix_ms: Number(id),
  kind: 'session',
  path: paths[0]!,
  files: paths.map((path) => ({ path, size_bytes: 1, taken: false })),
});
const A = entry('3', 'shop/a.jsonl', 'shop/a.flow.jsonl');
const B = entry('2', 'shop/b.jsonl');
const C = entry('1', 'shop/c.jsonl');

bulk('ticked items keep the list order; ticks on items gone are dropped', () => {
  assert.equal(tickedEntries([A, B, C], ['1', '9', '3']), [A, C]);
  assert.equal(tickedEntries([A, B, C], []), []);
});

bulk('a refused item keeps its reason and the others are still restored, in order', async () => {
  const asked: string[] = [];
  const outcome = await restoreEach([A, B, C], async (id) => {
    asked.push(id);
    if (id === '2') throw new Error('shop/b.jsonl exists again: move or delete it first, then restore');
    return { ok: true };
  });
  assert.equal(asked, ['3', '2', '1']);
  assert.equal(outcome.restored, [A, C]);
  assert.equal(outcome.refused, { '2': 'shop/b.jsonl exists again: move or delete it first, then restore' });
});

bulk('the restored paths include each item’s companions', () => {
  assert.equal(restoredPaths([A, C]), ['shop/a.jsonl', 'shop/a.flow.jsonl', 'shop/c.jsonl']);
});

bulk.run();
