// client/src/data/createApiResource.ts with Solid's browser build (spec/support/solid-browser.ts): under
// node's server build its effect never runs and it would never load. The fetcher is a set of promises the
// test settles by hand; events come through the fake EventSource, as in the page.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import '../../support/solid-browser.ts';
import { FakeEventSource, installEventSource, runningJob, sleep } from '../../support/fake-browser.ts';

const { createEffect, createRoot, createSignal } = await import('solid-js');
const { createApiResource } = await import('../../../client/src/data/createApiResource.ts');
const { COALESCE_MS } = await import('../../../client/src/data/resource-refreshes.ts');
const { markRemoving } = await import('../../../client/src/data/removing.ts');
const { ApiError } = await import('../../../client/src/api/client.ts');
const { closeEvents, openEvents, STREAM_READY_CAP_MS } = await import('../../../client/src/api/events.ts');
const { dismiss, toasts } = await import('../../../client/src/stores/toasts.ts');

type ApiResource<T> = ReturnType<typeof createApiResource<string, T>>;

interface Load {
  source: string;
  signal: AbortSignal;
  resolve: (value: string) => void;
  reject: (e: unknown) => void;
}

const resource = suite('createApiResource');
let loads: Load[] = [];
let disposers: (() => void)[] = [];
/** Dispose every resource made so far. */
const dispose = () => {
  for (const d of disposers.splice(0)) d();
};

resource.before.each(() => {
  loads = [];
  installEventSource();
  for (const t of toasts()) dismiss(t.id);
});
resource.after.each(() => {
  dispose();
  closeEvents();
});

const fetcher = (source: string, signal: AbortSignal) =>
  new Promise<string>((resolve, reject) => loads.push({ source, signal, resolve, reject }));

/** A resource over a source signal, in a root the test disposes. */
function make(first: string | null, options: Parameters<typeof createApiResource<string, string>>[2] = {}) {
  const [source, setSource] = createSignal<string | null>(first);
  const r = createRoot((d): ApiResource<string> => {
    disposers.push(d);
    return createApiResource(source, fetcher, options);
  });
  return { r, setSource };
}

const settled = () => sleep(0);
const state = (r: ApiResource<string>) => ({
  data: r.data(),
  error: r.error() ? `${r.error()!.status} ${r.error()!.message}` : undefined,
  loading: r.loading(),
  refreshing: r.refreshing(),
});

/** The one stream, opened: resources refresh on its events. */
function live(): FakeEventSource {
  const es = connecting();
  es.open();
  return es;
}

/** The one stream, asked for and not answered yet. */
function connecting(): FakeEventSource {
  openEvents(() => {});
  return FakeEventSource.made[0]!;
}

resource('the first load shows skeletons, then the data', async () => {
  const { r } = make('shop');
  assert.equal(loads.map((l) => l.source), ['shop']);
  assert.equal(state(r), { data: undefined, error: undefined, loading: true, refreshing: false });
  loads[0]!.resolve('shop data');
  await settled();
  assert.equal(state(r), { data: 'shop data', error: undefined, loading: false, refreshing: false });
});

resource('no source loads nothing; the same source again does not reload', async () => {
  const { setSource } = make(null);
  assert.is(loads.length, 0);
  setSource('a');
  setSource('a');
  assert.equal(loads.map((l) => l.source), ['a']);
});

resource('a source that goes away and comes back loads again and follows its events again', async () => {
  const es = live();
  const { r, setSource } = make('a', { topics: ['sessions'] });
  loads[0]!.resolve('v1');
  await settled();
  setSource(null);
  es.send('changed', { what: 'sessions', keys: [] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 1, 'no source: events load nothing');
  setSource('a');
  assert.equal(loads.map((l) => l.source), ['a', 'a'], 'back: it loads again');
  loads[1]!.resolve('v2');
  await settled();
  assert.is(r.data(), 'v2');
  es.send('changed', { what: 'sessions', keys: [] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 3, 'and its events refresh it again');
});

resource('a new source aborts the load in flight, and its late answer is dropped', async () => {
  const { r, setSource } = make('a');
  setSource('b');
  assert.equal(loads.map((l) => [l.source, l.signal.aborted]), [['a', true], ['b', false]]);
  loads[1]!.resolve('b data');
  loads[0]!.resolve('a data');
  await settled();
  assert.is(r.data(), 'b data');
});

resource("a first load's error is the page's error; anything not an ApiError becomes a 500", async () => {
  const { r } = make('a');
  loads[0]!.reject(new ApiError(404, 'no session "a"'));
  await settled();
  assert.equal(state(r), { data: undefined, error: '404 no session "a"', loading: false, refreshing: false });
  r.refetch();
  assert.equal(state(r), { data: undefined, error: undefined, loading: true, refreshing: false });
  loads[1]!.reject(new Error('boom'));
  await settled();
  assert.is(state(r).error, '500 boom');
});

resource('a 401 leaves no error behind: the shell shows the sign-in screen', async () => {
  const { r } = make('a');
  loads[0]!.reject(new ApiError(401, 'sign in'));
  await settled();
  assert.equal(state(r), { data: undefined, error: undefined, loading: false, refreshing: false });
});

resource('a refresh keeps the data on screen, dimmed; if it fails the data stays and a toast says so', async () => {
  const { r } = make('a');
  loads[0]!.resolve('old');
  await settled();
  r.refresh();
  assert.equal(state(r), { data: 'old', error: undefined, loading: false, refreshing: true });
  loads[1]!.reject(new ApiError(500, 'disk full'));
  await settled();
  assert.equal(state(r), { data: 'old', error: undefined, loading: false, refreshing: false });
  assert.equal(toasts().map((t) => [t.kind, t.title, t.message]), [['error', 'Could not refresh', 'disk full']]);
});

resource('a refresh that brings equal data keeps the value it had (views over it are not rebuilt); other data replaces it', async () => {
  const [source] = createSignal('a');
  const objectLoads: ((v: { rows: number[] }) => void)[] = [];
  let runs = 0;
  const r = createRoot((d) => {
    disposers.push(d);
    const res = createApiResource(source, () => new Promise<{ rows: number[] }>((resolve) => objectLoads.push(resolve)));
    createEffect(() => {
      res.data();
      runs++;
    });
    return res;
  });
  objectLoads[0]!({ rows: [1, 2] });
  await settled();
  const first = r.data();
  const runsAfterFirst = runs;
  r.refresh();
  objectLoads[1]!({ rows: [1, 2] });
  await settled();
  assert.ok(r.data() === first, 'the same object');
  assert.is(runs, runsAfterFirst, 'nothing that reads it ran again');
  assert.is(r.refreshing(), false);
  r.refresh();
  objectLoads[2]!({ rows: [1, 2, 3] });
  await settled();
  assert.equal(r.data(), { rows: [1, 2, 3] });
  assert.is(runs, runsAfterFirst + 1);
});

resource('changed events of its topic refresh it once per burst, unless they name only other keys', async () => {
  const es = live();
  const { r } = make('a', { topics: ['sessions'], key: (s) => s });
  loads[0]!.resolve('v1');
  await settled();
  es.send('changed', { what: 'sessions', keys: ['other'] });
  es.send('changed', { what: 'flows', keys: [] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 1, 'another key and another topic: no refresh');
  es.send('changed', { what: 'sessions', keys: ['a'] });
  es.send('changed', { what: 'sessions', keys: [] });
  assert.is(loads.length, 1, 'not before the burst is over');
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 2, 'one refresh for the burst');
  loads[1]!.resolve('v2');
  await settled();
  assert.is(r.data(), 'v2');
});

/** A resource of item `a` over the open stream, its first load answered. */
async function loadedA(options: Parameters<typeof make>[1]): Promise<FakeEventSource> {
  const es = live();
  make('a', options);
  loads[0]!.resolve('v1');
  await settled();
  return es;
}

/** `body` runs while `key` is marked as being moved to the trash (unmarked after, whatever it throws). */
async function whileRemoving(key: string, body: () => Promise<void>): Promise<void> {
  const unmark = markRemoving(key);
  try {
    await body();
  } finally {
    unmark();
  }
}

resource('an item being moved to the trash is not refreshed by the events that name it, and is again once unmarked', async () => {
  const es = await loadedA({ topics: ['flows'], key: (s) => s });
  await whileRemoving('a', async () => {
    es.send('changed', { what: 'flows', keys: ['a'] });
    await sleep(COALESCE_MS + 50);
    assert.is(loads.length, 1, 'its own delete does not reload it');
  });
  es.send('changed', { what: 'flows', keys: ['a'] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 2);
});

resource('one that follows the events of every item but shows one is not refreshed while that one is moved to the trash', async () => {
  const es = await loadedA({ topics: ['sessions', 'flows'], about: (s) => s });
  es.send('changed', { what: 'sessions', keys: ['some-session'] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 2, "another item's event refreshes it");
  loads[1]!.resolve('v2');
  await settled();
  await whileRemoving('a', async () => {
    es.send('changed', { what: 'flows', keys: ['a'] });
    await sleep(COALESCE_MS + 50);
    assert.is(loads.length, 2, 'its own delete does not reload it');
  });
  es.send('changed', { what: 'flows', keys: ['a'] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 3);
});

resource('a refresh asked for just before its item is moved to the trash does not fire while it is', async () => {
  const es = await loadedA({ topics: ['sessions', 'flows'], about: (s) => s });
  // Another item's event, then the delete begins before the coalesced refresh fires.
  es.send('changed', { what: 'sessions', keys: ['some-session'] });
  await whileRemoving('a', async () => {
    await sleep(COALESCE_MS + 50);
    assert.is(loads.length, 1, 'the refresh scheduled before the delete does not ask for it');
  });
});

resource('a load begun before the stream opened is not done again when it opens while its item is moved to the trash', async () => {
  const opening = connecting();
  make('b', { topics: ['flows'], key: (s) => s });
  await sleep(STREAM_READY_CAP_MS + 50);
  assert.is(loads.length, 1, 'it loads without the stream after a while');
  loads[0]!.resolve('v1');
  await settled();
  await whileRemoving('b', async () => {
    opening.open();
    await sleep(COALESCE_MS + 50);
    assert.is(loads.length, 1, 'the stream opening does not reload an item being removed');
  });
});

resource('a refresh asked for during the first load is dropped if its item is moved to the trash before that load ends', async () => {
  const es = live();
  make('a', { topics: ['flows'], key: (s) => s });
  es.send('changed', { what: 'flows', keys: ['a'] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 1, 'it waits for the first load');
  await whileRemoving('a', async () => {
    loads[0]!.resolve('v1');
    await settled();
    assert.is(loads.length, 1, 'not asked for once the item is being removed');
  });
});

resource('job events refresh it when asked, filtered by the predicate', async () => {
  const es = live();
  make('a', { jobs: (j) => j.kind === 'learn' });
  loads[0]!.resolve('v1');
  await settled();
  es.send('job', runningJob('doctor'));
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 1);
  es.send('job', runningJob('learn'));
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 2);
});

resource('a refresh during the first load does not cut it short: the first answer shows, then the refresh follows it', async () => {
  const es = live();
  const { r } = make('a', { topics: ['sessions'], key: (s) => s });
  assert.is(loads.length, 1);
  es.send('changed', { what: 'sessions', keys: ['a'] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 1, 'no second fetch while the first is in flight');
  assert.not.ok(loads[0]!.signal.aborted, 'the first load goes on');
  loads[0]!.resolve('first answer');
  await settled();
  assert.is(r.data(), 'first answer');
  // Then the refresh the event asked for.
  assert.is(loads.length, 2);
  assert.is(r.refreshing(), true);
  loads[1]!.resolve('fresh');
  await settled();
  assert.equal(state(r), { data: 'fresh', error: undefined, loading: false, refreshing: false });
  // A first load that fails still lets the refresh after it try again.
  dispose();
  const { r: r2 } = make('b', { topics: ['sessions'] });
  es.send('changed', { what: 'sessions', keys: [] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 3);
  loads[2]!.reject(new ApiError(503, 'busy'));
  await settled();
  assert.is(loads.length, 4);
  loads[3]!.resolve('b data');
  await settled();
  assert.is(r2.data(), 'b data');
});

resource('a first load waits for the stream\'s first answer, and is not done again when it comes', async () => {
  const es = connecting();
  const { r } = make('a', { topics: ['sessions'] });
  const plain = make('p');
  assert.equal(loads.map((l) => l.source), ['p'], 'a resource no event refreshes does not wait');
  assert.is(r.loading(), true);
  es.open();
  await settled();
  assert.equal(loads.map((l) => l.source), ['p', 'a'], 'it loads once the stream is open');
  loads[1]!.resolve('v1');
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 2, 'and the opening does not load it again');
  assert.is(r.data(), 'v1');
  assert.is(plain.r.loading(), true);
});

resource('a load begun before the stream opened (it waited its while) is done again when it opens', async () => {
  const es = connecting();
  const { r } = make('a', { topics: ['sessions'] });
  assert.is(loads.length, 0);
  await sleep(STREAM_READY_CAP_MS + 50);
  assert.is(loads.length, 1, 'it loads without the stream after a while');
  loads[0]!.resolve('v1');
  await settled();
  es.open();
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 2, 'what changed before the stream opened is not missed');
  assert.is(r.refreshing(), true);
  loads[1]!.resolve('v2');
  await settled();
  assert.is(r.data(), 'v2');
});

resource('disposing aborts the load in flight and unsubscribes', async () => {
  const es = live();
  make('a', { topics: ['sessions'] });
  dispose();
  assert.is(loads[0]!.signal.aborted, true);
  es.send('changed', { what: 'sessions', keys: [] });
  await sleep(COALESCE_MS + 50);
  assert.is(loads.length, 1);
});

resource('mutate replaces the data on screen', async () => {
  const { r } = make('a');
  loads[0]!.resolve('server');
  await settled();
  r.mutate('local');
  assert.is(r.data(), 'local');
});

resource('a load begun early is taken at once, without waiting for the stream, and done again when the stream opens', async () => {
  const es = connecting();
  let settle: (v: string) => void = () => {};
  const early = { value: new Promise<string>((resolve) => (settle = resolve)), opens: 0 };
  const taken: string[] = [];
  const { r, setSource } = make('a', {
    topics: ['sessions'],
    early: (s) => {
      taken.push(s);
      return s === 'a' ? early : undefined;
    },
  });
  assert.is(loads.length, 0, 'no fetch of its own');
  assert.is(r.loading(), true);
  settle('early data');
  await settled();
  assert.equal(state(r), { data: 'early data', error: undefined, loading: false, refreshing: false });
  es.open();
  await sleep(COALESCE_MS + 50);
  assert.equal(loads.map((l) => l.source), ['a'], 'begun before the stream opened: loaded again when it opens');
  loads[0]!.resolve('fresh');
  await settled();
  assert.is(r.data(), 'fresh');
  setSource('b');
  assert.equal(loads.map((l) => l.source), ['a', 'b'], 'a source without an early load fetches');
  assert.equal(taken, ['a', 'b'], 'asked for the first load of each source only');
});

resource("an early load's failure is the first load's error", async () => {
  live();
  const { r } = make('a', { early: () => ({ value: Promise.reject(new ApiError(404, 'no session "a"')), opens: 1 }) });
  await settled();
  assert.equal(state(r), { data: undefined, error: '404 no session "a"', loading: false, refreshing: false });
  assert.is(loads.length, 0);
});

resource.run();
