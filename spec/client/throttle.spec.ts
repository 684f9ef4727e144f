import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { throttle } from '../../client/src/lib/throttle.ts';

const t = suite('throttle');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t('the first call runs at once, a burst after it once when its time comes, a cancelled one never', async () => {
  let runs = 0;
  const f = throttle(() => runs++, 80);
  f();
  assert.is(runs, 1);
  f();
  f();
  f();
  assert.is(runs, 1, 'not before its time');
  await sleep(120);
  assert.is(runs, 2, 'the burst ran once');
  await sleep(100);
  f();
  assert.is(runs, 3, 'past its time: at once');
  f();
  f.cancel();
  await sleep(120);
  assert.is(runs, 3, 'cancelled');
});

t.run();
