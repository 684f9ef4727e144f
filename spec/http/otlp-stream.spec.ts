// Streaming ended sessions to a collector: a receiver started here on loopback gets every ended session
// once, and after a restart only the session that is new (what was sent is remembered in the cache
// directory, not the data directory), and a session again when its flow log alone changed; a receiver that is
// down keeps the queue's sessions until it is back, and those past the bound wait, counted as dropped, until
// the queue has room; a log too big for a worker is skipped and counted, never holding up the rest; a
// session of tens of thousands of calls is encoded in a worker, so /api/health answers fast while it is
// sent; http/json is posted as OTLP/JSON. GET /api/otlp reports it all, never a header's value.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { OtlpStatusSchema, type OtlpStatus } from '../../shared/otlp.ts';
import { SessionListSchema } from '../../shared/sessions.ts';
import { copyHome, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { startReceiver } from '../support/otlp-receiver.ts';
import { writeManyCalls } from '../support/heavy-log.ts';
import { healthPoller } from '../support/health-poller.ts';

const stream = suite('otlp stream');
const SERVED = '20260928T020401.117Z-14662';
const HEAVY = 'heavy-otlp';

async function status(c: Launched): Promise<OtlpStatus> {
  return v.parse(OtlpStatusSchema, await (await c.api('/api/otlp')).json());
}
/** The listed sessions' ids once every log is indexed (a big log is read after the first page answers). */
async function readableIds(c: Launched): Promise<string[]> {
  for (let i = 0; ; i++) {
    const list = v.parse(SessionListSchema, await (await c.api('/api/sessions?limit=500')).json());
    if (list.indexing === undefined || i === 600) return list.items.map((s) => s.session_id);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const counts = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());

stream('every ended session reaches the receiver once, and a restart sends only the new one', async () => {
  const home = copyHome();
  const cache = tempDir('engine-cache-');
  const receiver = await startReceiver();
  const opts = {
    dataDir: home.dir,
    args: ['--otlp-endpoint', receiver.url, '--otlp-since', '2026-01-01', '--otlp-ended-after', '0'],
    env: { XDG_CACHE_HOME: cache.dir, OTEL_EXPORTER_OTLP_HEADERS: 'x-team-key=s3cret' },
  };
  try {
    let c = await launch(opts);
    const ids = await readableIds(c);
    await receiver.until(() => new Set(receiver.sessions).size === ids.length);
    const first = await status(c);
    assert.equal([first.endpoint, first.header_names, first.dropped], [`${receiver.url}/v1/traces`, ['x-team-key'], 0]);
    assert.not.match(JSON.stringify(first), /s3cret/);
    await c.stop();
    assert.equal(readdirSync(join(cache.dir, 'engine-console')).filter((n) => n.startsWith('otlp-sent-')).length, 1);

    // A new session (another id) while the console was stopped, older than every other: sessions are offered
    // newest first and sent in turn, so any sent again would arrive before it.
    const src = join(home.dir, 'logs/shop/20260928T020400.548Z-14457.jsonl');
    const NEW = '20260601T000000.000Z-1';
    const text = readFileSync(src, 'utf8').replace('20260928T020400.548Z-14457', NEW).replace(/"started_unix_ms":\d+/, `"started_unix_ms":${Date.UTC(2026, 5, 1)}`);
    writeFileSync(join(home.dir, 'logs/shop', `${NEW}.jsonl`), text);
    c = await launch(opts);
    assert.is((await readableIds(c)).at(-1), NEW, 'the new session is the last offered');
    await receiver.until(() => receiver.sessions.includes(NEW));
    const after = await status(c);
    await c.stop();
    assert.equal([after.sent, after.queued, after.dropped], [1, 0, 0]);
    const got = counts(receiver.sessions);
    assert.equal([...got.values()].filter((n) => n !== 1), [], 'no session twice');
    assert.equal([...got.keys()].sort(), [...ids, NEW].sort());
    assert.ok(receiver.contentTypes.every((t) => t === 'application/x-protobuf'));
  } finally {
    await receiver.close();
    home.cleanup();
    cache.cleanup();
  }
});

stream('a receiver that is down loses nothing: past the bound, sessions wait as dropped and are sent once the queue has room', async () => {
  const cache = tempDir('engine-cache-');
  const receiver = await startReceiver();
  receiver.down = true;
  const c = await launch({
    args: ['--otlp-ended-after', '0', '--otlp-since', '2026-01-01', '--otlp-queue', '4'],
    env: { XDG_CACHE_HOME: cache.dir, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  });
  try {
    const total = (await readableIds(c)).length;
    await receiver.until(() => receiver.refused >= 1);
    const waiting = await status(c);
    assert.equal([waiting.queued, waiting.dropped, waiting.sent], [4, total - 4, 0]);
    receiver.down = false;
    // As each send makes room, a waiting session takes it: all of them arrive without a restart.
    await receiver.until(() => new Set(receiver.sessions).size === total);
    const done = await status(c);
    assert.equal([done.sent, done.queued, done.dropped], [total, 0, 0]);
    assert.is(receiver.sessions.length, total, 'no session twice');
    assert.ok(receiver.contentTypes.every((t) => t.startsWith('application/json')));
  } finally {
    await c.stop();
    await receiver.close();
    cache.cleanup();
  }
});

stream('a log too big for a worker is counted as failed and skipped: the sessions behind it are still sent, and a restart does not try it again', async () => {
  const home = copyHome();
  const cache = tempDir('engine-cache-');
  const receiver = await startReceiver();
  writeManyCalls(join(home.dir, 'logs/hostile'), HEAVY);
  const opts = {
    dataDir: home.dir,
    args: ['--otlp-endpoint', receiver.url, '--otlp-since', '2026-01-01', '--otlp-ended-after', '0'],
    env: { XDG_CACHE_HOME: cache.dir },
  };
  let c = await launch(opts);
  try {
    const ids = await readableIds(c);
    assert.ok(ids.includes(HEAVY), 'the heavy log is listed, so the stream offers it');
    const others = ids.filter((id) => id !== HEAVY);
    await receiver.until(() => new Set(receiver.sessions).size === others.length);
    assert.equal([...receiver.sessions].sort(), [...others].sort(), 'every other session once');
    const st = await status(c);
    assert.equal([st.sent, st.queued, st.failed], [others.length, 0, 1]);
    assert.match(st.last_error ?? '', new RegExp(`^logs/hostile/${HEAVY}\\.jsonl (cannot be sent|is not a session log engine can read): .*needs more than the \\d+ MB of heap a worker may use`));
    await c.stop();
    // Unchanged, it is counted as failed again at once, with no new attempt (an attempt would set last_error).
    c = await launch(opts);
    let again = await status(c);
    for (let i = 0; i < 600 && again.failed === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await status(c);
    }
    assert.equal([again.sent, again.failed, again.last_error], [0, 1, null]);
    assert.is(new Set(receiver.sessions).size, others.length, 'nothing sent twice');
  } finally {
    await c.stop();
    await receiver.close();
    home.cleanup();
    cache.cleanup();
  }
});

stream('a new line in a flow log alone sends its session again', async () => {
  const home = copyHome();
  const cache = tempDir('engine-cache-');
  const receiver = await startReceiver();
  const c = await launch({
    dataDir: home.dir,
    args: ['--otlp-endpoint', receiver.url, '--otlp-since', '2026-01-01', '--otlp-ended-after', '0'],
    env: { XDG_CACHE_HOME: cache.dir },
  });
  try {
    const ids = await readableIds(c);
    await receiver.until(() => new Set(receiver.sessions).size === ids.length);
    const before = receiver.sessions.length;
    const flow = join(home.dir, 'served/shop', `${SERVED}.flow.jsonl`);
    const lines = readFileSync(flow, 'utf8').trimEnd().split('\n');
    appendFileSync(flow, `${lines[lines.length - 1]}\n`);
    await receiver.until(() => receiver.sessions.length > before);
    assert.equal(receiver.sessions.slice(before), [SERVED], 'only the session whose flow log changed');
    assert.is((await status(c)).sent, ids.length + 1);
  } finally {
    await c.stop();
    await receiver.close();
    home.cleanup();
    cache.cleanup();
  }
});

stream('a session of 40,000 calls is encoded off the event loop: /api/health answers fast while it is sent', async () => {
  const home = tempDir('engine-otlp-big-');
  const cache = tempDir('engine-cache-');
  const receiver = await startReceiver();
  writeManyCalls(join(home.dir, 'logs/shop'), 'many-calls', 40_000);
  const c = await launch({
    dataDir: home.dir,
    args: ['--otlp-endpoint', receiver.url, '--otlp-since', '2026-01-01', '--otlp-ended-after', '0'],
    env: { XDG_CACHE_HOME: cache.dir },
  });
  try {
    const poller = healthPoller(`${c.url}/api/health`, 10);
    try {
      await receiver.until(() => receiver.sessions.includes('many-calls'), 60_000);
    } finally {
      const latencies = await poller.stop();
      const max = Math.max(...latencies);
      console.log(`    /api/health while a 40,000-call session was sent: max ${max.toFixed(0)} ms over ${latencies.length}`);
      // Generous for a loaded CI machine: encoded on the event loop, such a session held it far longer.
      assert.ok(max < 250, `/api/health waited ${max.toFixed(0)} ms`);
    }
  } finally {
    await c.stop();
    await receiver.close();
    home.cleanup();
    cache.cleanup();
  }
});

stream.run();
