import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dismiss, toast, toasts } from '../../client/src/stores/toasts.ts';

const toastsSuite = suite('toasts');

toastsSuite('at most four toasts show, the oldest going first', () => {
  for (const t of toasts()) dismiss(t.id);
  for (let i = 1; i <= 6; i++) toast({ kind: 'info', title: `t${i}`, timeout: 0 });
  assert.equal(toasts().map((t) => t.title), ['t3', 't4', 't5', 't6']);
  for (const t of toasts()) dismiss(t.id);
  assert.is(toasts().length, 0);
});

toastsSuite('the same kind, title and message replaces the older toast instead of stacking', () => {
  toast({ kind: 'error', title: 'The request failed', message: 'x', timeout: 0 });
  toast({ kind: 'info', title: 'The request failed', message: 'x', timeout: 0 });
  const id = toast({ kind: 'error', title: 'The request failed', message: 'x', timeout: 0 });
  assert.equal(
    toasts().map((t) => [t.kind, t.id === id]),
    [
      ['info', false],
      ['error', true],
    ],
  );
  for (const t of toasts()) dismiss(t.id);
});

toastsSuite.run();
