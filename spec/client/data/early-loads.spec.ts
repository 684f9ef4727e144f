// client/src/data/early-loads.ts: which address is loaded early, and that its load is taken once, by its
// session's page only, against a fake fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import '../../support/solid-browser.ts';
import { installFetch, json } from '../../support/fake-browser.ts';

const { sessionKeyOfPath, startEarlyLoads, takeEarlyOutline } = await import('../../../client/src/data/early-loads.ts');
const { streamOpens } = await import('../../../client/src/api/events.ts');

const early = suite('early loads');
const realFetch = globalThis.fetch;
early.after.each(() => {
  Object.assign(globalThis, { fetch: realFetch });
});

early('a session page is known by its path; other pages and the compare page are not', () => {
  assert.is(sessionKeyOfPath('/sessions/20261110T001235.043Z-2250'), '20261110T001235.043Z-2250');
  assert.is(sessionKeyOfPath('/sessions/a%20b/'), 'a b');
  assert.is(sessionKeyOfPath('/sessions/compare'), null);
  assert.is(sessionKeyOfPath('/sessions'), null);
  assert.is(sessionKeyOfPath('/sessions/a/raw'), null);
  assert.is(sessionKeyOfPath('/flows/shop'), null);
  assert.is(sessionKeyOfPath('/sessions/%E0%A4%A'), null, 'a broken escape is no key');
});

early("a session page's outline is asked for at once and taken once, by that session only", async () => {
  const calls = installFetch(() => json(404, { error: 'no session "s1"' }));
  startEarlyLoads('/sessions/s1');
  assert.equal(calls.map((c) => c.url), ['/api/sessions/s1/outline']);
  assert.is(takeEarlyOutline('s2'), undefined, 'another session does not take it');
  const load = takeEarlyOutline('s1');
  assert.ok(load, 'its own page takes it');
  assert.is(load!.opens, streamOpens(), 'with the stream\'s opens when it began');
  await load!.value.then(
    () => assert.unreachable('a 404 is a failure'),
    (e: unknown) => assert.match(String((e as Error).message), 'no session'),
  );
  assert.is(takeEarlyOutline('s1'), undefined, 'taken once');
  startEarlyLoads('/flows/shop');
  assert.is(calls.length, 1, 'other pages load nothing early');
});

early.run();
