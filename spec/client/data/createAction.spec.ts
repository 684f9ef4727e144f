// client/src/data/createAction.ts: busy while it runs and no second run meanwhile, the failure kept in
// error() and toasted under the caller's title, a success toast and the `after` hook on success.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import '../../support/solid-browser.ts';
import { sleep } from '../../support/fake-browser.ts';

const { createAction } = await import('../../../client/src/data/createAction.ts');
const { ApiError } = await import('../../../client/src/api/client.ts');
const { dismiss, toasts } = await import('../../../client/src/stores/toasts.ts');

const action = suite('createAction');
action.before.each(() => {
  for (const t of toasts()) dismiss(t.id);
});

const shown = () => toasts().map((t) => [t.kind, t.title, t.message]);

action('busy while the task runs; the answer, a success toast and `after` when it ends', async () => {
  let finish = (_: string) => {};
  const after: string[] = [];
  const a = createAction((name: string) => new Promise<string>((resolve) => (finish = resolve)), {
    success: (answer, name) => ({ title: `Saved ${name}`, message: answer }),
    after: (answer, name) => after.push(`${name}: ${answer}`),
  });
  assert.is(a.busy(), false);
  const running = a.run('shop');
  assert.is(a.busy(), true);
  finish('version 2');
  assert.is(await running, 'version 2');
  assert.is(a.busy(), false);
  assert.equal(after, ['shop: version 2']);
  assert.equal(shown(), [['success', 'Saved shop', 'version 2']]);
});

action('a second run while busy does nothing and answers undefined', async () => {
  let calls = 0;
  const a = createAction(async () => {
    calls++;
    await sleep(10);
    return calls;
  });
  const first = a.run();
  assert.is(await a.run(), undefined);
  assert.is(await first, 1);
  assert.is(calls, 1);
  assert.is(await a.run(), 2, 'free again once it ended');
});

action('a failure is kept in error() and toasted under the title, from the arguments when a function', async () => {
  const a = createAction(
    async (name: string): Promise<string> => {
      throw new ApiError(409, `a server named "${name}" is registered already`);
    },
    { failure: (name) => `Could not save ${name}` },
  );
  assert.is(await a.run('orders'), undefined);
  assert.is(a.busy(), false);
  assert.is(a.error(), 'a server named "orders" is registered already');
  assert.equal(shown(), [['error', 'Could not save orders', 'a server named "orders" is registered already']]);
  a.clearError();
  assert.is(a.error(), null);
});

action('without a failure title the error is only kept, for the caller to show; a new run clears it', async () => {
  let fail = true;
  const after: number[] = [];
  const a = createAction(
    async () => {
      if (fail) throw new Error('no');
      return 1;
    },
    { after: (n) => after.push(n) },
  );
  await a.run();
  assert.equal([a.error(), shown(), after], ['no', [], []]);
  fail = false;
  const again = a.run();
  assert.is(a.error(), null, 'cleared as it starts');
  assert.is(await again, 1);
  assert.equal([a.error(), shown(), after], [null, [], [1]]);
});

action.run();
