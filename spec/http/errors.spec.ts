// The error middleware's mapping of faults that are not the console's: a worker that died on a file is a
// 422 with its message, and a client that left mid-answer is not an error to report.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Context } from 'koa';
import { clientWentAway, renderErrors } from '../../server/http/errors.ts';
import { WorkerDied } from '../../server/workers/pool.ts';

const errors = suite('error mapping');

errors('a worker that died on a file is a 422 with its message, and is not reported', async () => {
  const reported: unknown[] = [];
  const ctx = { status: 200, type: '', body: '' as unknown, set: () => undefined } as unknown as Context;
  await renderErrors((e) => reported.push(e))(ctx, async () => {
    throw new WorkerDied('reading it needs more than the 176 MB of heap a worker may use');
  });
  assert.equal([ctx.status, ctx.body], [422, '{"error":"reading it needs more than the 176 MB of heap a worker may use"}']);
  assert.equal(reported, []);
});

errors('a client that left is told from a failure by its code', () => {
  for (const code of ['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']) {
    assert.ok(clientWentAway(Object.assign(new Error('gone'), { code })), code);
  }
  assert.not.ok(clientWentAway(Object.assign(new Error('disk'), { code: 'EIO' })));
  assert.not.ok(clientWentAway(new Error('plain')));
  assert.not.ok(clientWentAway('text'));
});

errors.run();
