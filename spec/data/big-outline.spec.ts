// The session page's outline of a big log before the index lane made it (a first start: the cold index puts
// the big logs' outlines off until it is done): the page makes it once and keeps it, and the index lane does
// not make it again; one being made is waited for, not made a second time.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { sessionIndex, type OutlineContext } from '../../server/data/session-views.ts';
import { DataCaches } from '../../server/data/data-caches.ts';
import { sessionIndex as parsedIndex } from '../../server/engine/session/views.ts';
import { Hub } from '../../server/events/hub.ts';
import type { SessionEntry } from '../../server/store/session-index.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Lane, type Pool, type TaskInput, type TaskName, type TaskOutput } from '../../server/workers/pool.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';

const test = suite('big outline');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

/**
 * The pool, with the logs whose outline file it was asked to make, in order, and on which lane; `gate` may
 * hold back the making of one (the task starts once the promise it answers resolves).
 */
function counting(gate: (path: string, lane: Lane) => Promise<void> | undefined = () => undefined): { pool: Pool; outlines: { path: string; lane: Lane }[]; parses: string[] } {
  const outlines: { path: string; lane: Lane }[] = [];
  const parses: string[] = [];
  return {
    outlines,
    parses,
    pool: {
      threads: pool.threads,
      destroy: () => Promise.resolve(),
      run: async <K extends TaskName>(name: K, input: TaskInput<K>, lane?: Lane): Promise<TaskOutput<K>> => {
        if (name === 'sessionOutlineFileTask') {
          const path = (input as TaskInput<'sessionOutlineFileTask'>).files.path;
          outlines.push({ path, lane: lane ?? 'interactive' });
          await gate(path, lane ?? 'interactive');
        }
        if (name === 'sessionIndexTask') parses.push((input as TaskInput<'sessionIndexTask'>).path);
        return pool.run(name, input, lane);
      },
    },
  };
}

/** A promise and what resolves it. */
function opening(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(ok(), what);
}

/** The page's answer, checked to wait (still pending 300 ms on) until `open` lets what it waits for end. */
async function waitedFor<T>(asked: Promise<T>, open: () => void): Promise<T> {
  let answered = false;
  void asked.then(() => (answered = true), () => (answered = true));
  await new Promise((r) => setTimeout(r, 300));
  assert.not.ok(answered, 'the page waits for the outline being made');
  open();
  return asked;
}

const fileOf = (e: SessionEntry) => ({ key: e.key, rel: e.rel, path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog });

/** A store whose every log is big, its cold index done and its put-off outlines held back (released by the caller). */
async function heldStore(p: Pool, dir: string): Promise<{ store: Store; release: () => void }> {
  const store = new Store({ dataDir: dir, pool: p, hub: new Hub(), watch: false, bigLogBytes: 1 });
  const release = store.putOff.hold();
  await store.open();
  await store.warm(30_000);
  assert.is(store.progress(), null);
  return { store, release };
}

type Counted = ReturnType<typeof counting>;

/** Runs `body` over a held store (heldStore) on a copy of the fixture home, with the pool counted (and gated). */
async function withHeldStore(gate: Parameters<typeof counting>[0], body: (t: { store: Store; release: () => void; c: Counted; page: OutlineContext }) => Promise<void>): Promise<void> {
  const home = copyHome();
  const c = counting(gate);
  const { store, release } = await heldStore(c.pool, home.dir);
  try {
    await body({ store, release, c, page: { store, pool: c.pool, caches: new DataCaches() } });
  } finally {
    store.close();
    home.cleanup();
  }
}

test('a page asking first makes the outline once, in the request lane, and keeps it; the index lane skips that log', () =>
  withHeldStore(undefined, async ({ store, release, c, page }) => {
    const e = store.sessions.readable[0]!;
    const index = await sessionIndex(page, fileOf(e));
    assert.equal(JSON.parse(JSON.stringify(index)), JSON.parse(JSON.stringify(parsedIndex(e))));
    assert.equal(c.outlines, [{ path: e.path, lane: 'interactive' }]);
    assert.equal(c.parses, [], 'the log is not parsed a second time for the page');
    assert.ok(store.bigOutlines.find(e.path, e.stamp!), 'the outline is kept');
    release();
    await store.outlined();
    const others = store.sessions.readable.filter((x) => x !== e);
    assert.ok(others.length > 0);
    assert.equal(c.outlines.filter((o) => o.path === e.path).length, 1, 'the index lane did not make it again');
    assert.equal(c.outlines.slice(1).map((o) => o.lane), others.map(() => 'index'));
    for (const x of others) assert.ok(store.bigOutlines.find(x.path, x.stamp!), x.rel);
  }));

test('a page asking while the outline is being made waits for it and reads what was kept', () =>
  withHeldStore(undefined, async ({ store, release, c, page }) => {
    const e = store.sessions.readable[0]!;
    // Made as the index lane makes it, finished only when the door opens.
    const door = opening();
    const making = (async () => {
      const out = store.bigOutlines.file();
      const r = await pool.run('sessionOutlineFileTask', { files: fileOf(e), out }, 'index');
      await door.opened;
      if (!r.ok) throw new Error(r.message);
      store.bigOutlines.keep(e.path, e.stamp!, out, r.value.bytes);
    })();
    store.bigOutlines.whileMaking(e.path, e.stamp!, making);
    const index = await waitedFor(sessionIndex(page, fileOf(e)), door.open);
    assert.equal(JSON.parse(JSON.stringify(index)), JSON.parse(JSON.stringify(parsedIndex(e))));
    assert.equal(c.outlines, [], 'the page made no outline of its own');
    assert.equal(c.parses, []);
    release();
    await store.outlined();
    assert.not.ok(c.outlines.some((o) => o.path === e.path), 'nor did the index lane, once it was kept');
  }));

const door = opening();
let first = '';
test('the index lane waits for an outline a page is making, and does not make it again', () =>
  withHeldStore((path, lane) => (lane === 'interactive' && path === first ? door.opened : undefined), async ({ store, release, c, page }) => {
    const e = store.sessions.readable[0]!;
    first = e.path;
    const asked = sessionIndex(page, fileOf(e));
    await until('the page started making it', () => c.outlines.length === 1);
    release();
    const others = store.sessions.readable.length - 1;
    // Time for the index lane to reach that log (it then waits for the page's, and the logs after it with it).
    await new Promise((r) => setTimeout(r, 500));
    door.open();
    await asked;
    await store.outlined();
    assert.equal(c.outlines.filter((o) => o.path === e.path), [{ path: e.path, lane: 'interactive' }]);
    assert.equal(c.outlines.filter((o) => o.path !== e.path).map((o) => o.lane), Array.from({ length: others }, () => 'index'));
    assert.is(store.bigOutlines.size, others + 1);
  }));

const indexDoor = opening();
test('a page asking while the index lane makes the outline waits for it', () =>
  // The index lane's outlines are held until the door opens.
  withHeldStore((_, lane) => (lane === 'index' ? indexDoor.opened : undefined), async ({ store, release, c, page }) => {
    release();
    await until('the index lane started its first outline', () => c.outlines.length === 1);
    const e = store.sessions.readable.find((x) => x.path === c.outlines[0]!.path)!;
    const index = await waitedFor(sessionIndex(page, fileOf(e)), indexDoor.open);
    assert.equal(JSON.parse(JSON.stringify(index)), JSON.parse(JSON.stringify(parsedIndex(e))));
    await store.outlined();
    assert.equal(c.outlines.filter((o) => o.path === e.path).map((o) => o.lane), ['index'], 'the page made no outline of its own');
    assert.equal(c.parses, []);
  }));

test.run();
