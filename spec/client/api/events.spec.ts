// client/src/api/events.ts, the client's only EventSource, against a fake one: topic listeners get the keys
// of `changed` events, job listeners parsed jobs, nothing malformed gets through, every open refreshes every
// listener, and a stream the browser gave up on re-checks the sign-in and reopens after the backoff.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import '../../support/solid-browser.ts';
import { FakeEventSource, installEventSource, runningJob, sleep } from '../../support/fake-browser.ts';
import type { Job } from '../../../shared/jobs.ts';

const { closeEvents, followStream, liveStatus, onChanged, onJob, onStreamOpen, openEvents, streamIsReady, streamOpens } = await import('../../../client/src/api/events.ts');

const events = suite('api events');
const job = runningJob('doctor');

let stop: (() => void)[] = [];
events.before.each(() => {
  installEventSource();
  stop = [];
});
events.after.each(() => {
  for (const s of stop) s();
  closeEvents();
});

/** The one stream opened so far. */
function stream(): FakeEventSource {
  assert.is(FakeEventSource.made.length, 1, 'one EventSource');
  return FakeEventSource.made[0]!;
}

events('opening makes one stream to /api/events with credentials, live once it opens', () => {
  assert.is(liveStatus(), 'off');
  openEvents(() => {});
  openEvents(() => {});
  const es = stream();
  assert.equal([es.url, es.init], ['/api/events', { withCredentials: true }]);
  assert.is(liveStatus(), 'connecting');
  es.open();
  assert.is(liveStatus(), 'live');
  closeEvents();
  assert.equal([es.readyState, liveStatus()], [FakeEventSource.CLOSED, 'off']);
});

events('a changed event reaches the listeners of its topic with its keys; none means []', () => {
  const got: string[] = [];
  stop.push(onChanged('sessions', (keys) => got.push(`sessions ${keys.join(',')}`)));
  stop.push(onChanged('flows', (keys) => got.push(`flows ${keys.join(',')}`)));
  openEvents(() => {});
  const es = stream();
  es.send('changed', { what: 'sessions', keys: ['a', 'b'] });
  es.send('changed', { what: 'flows' });
  assert.equal(got, ['sessions a,b', 'flows ']);
});

events('malformed events reach nobody', () => {
  let calls = 0;
  stop.push(onChanged('sessions', () => calls++));
  stop.push(onJob(() => calls++));
  openEvents(() => {});
  const es = stream();
  es.send('changed', '{');
  es.send('changed', { what: 'nothing', keys: [] });
  es.send('changed', { what: 'sessions', keys: 'a' });
  es.send('job', '{');
  es.send('job', { ...job, status: 'sleeping' });
  assert.is(calls, 0);
});

events('a job event reaches the job listeners as a parsed job; unsubscribing stops it', () => {
  const got: Job[] = [];
  const off = onJob((j) => got.push(j));
  openEvents(() => {});
  const es = stream();
  es.send('job', job);
  off();
  es.send('job', job);
  assert.equal(got, [job]);
});

events('each open is counted and told to the open listeners; changed listeners hear only changed events', () => {
  const got: string[] = [];
  stop.push(onChanged('servers', (keys) => got.push(`servers [${keys.join(',')}]`)));
  stop.push(onStreamOpen((n) => got.push(`open ${n}`)));
  const before = streamOpens();
  openEvents(() => {});
  assert.is(streamIsReady(), false, 'asked for, not answered');
  stream().open();
  assert.is(streamIsReady(), true);
  assert.equal(got, [`open ${before + 1}`]);
  assert.is(streamOpens(), before + 1);
});

events('a load that follows the stream runs once it is open, and again when it reopens after the load began', async () => {
  let runs = 0;
  openEvents(() => {});
  const follow = followStream(() => runs++);
  stop.push(follow.stop);
  assert.is(runs, 0, 'not before the stream answers');
  const es = stream();
  es.open();
  await sleep(0);
  assert.is(runs, 1, 'once it is open, and the opening does not run it twice');
  follow.run();
  assert.is(runs, 2, 'a changed event runs it at once');
  // The stream drops and is opened again: what changed meanwhile was announced to nobody.
  es.fail(true);
  await sleep(2_100);
  assert.is(FakeEventSource.made.length, 2, 'opened again after the backoff');
  FakeEventSource.made[1]!.open();
  assert.is(runs, 3);
  follow.stop();
  follow.run();
  assert.is(runs, 3, 'stopped');
});

events('a passing error only says reconnecting; a stream given up re-checks and reopens after 2 s', async () => {
  let rechecks = 0;
  openEvents(() => rechecks++);
  const first = stream();
  first.open();
  first.fail(false);
  assert.equal([liveStatus(), rechecks, FakeEventSource.made.length], ['reconnecting', 0, 1]);
  first.fail(true);
  assert.equal([liveStatus(), rechecks, FakeEventSource.made.length], ['reconnecting', 1, 1]);
  await sleep(1900);
  assert.is(FakeEventSource.made.length, 1, 'not before the backoff');
  await sleep(300);
  assert.is(FakeEventSource.made.length, 2, 'reopened');
  const second = FakeEventSource.made[1]!;
  assert.is(liveStatus(), 'reconnecting');
  second.open();
  assert.is(liveStatus(), 'live');
  // An error from the stream already replaced changes nothing.
  first.fail(true);
  assert.equal([rechecks, FakeEventSource.made.length], [1, 2]);
});

events('closing stops a pending reopen', async () => {
  openEvents(() => {});
  stream().fail(true);
  closeEvents();
  await sleep(2200);
  assert.is(FakeEventSource.made.length, 1);
  assert.is(liveStatus(), 'off');
});

events.run();
