// The list's OTLP export over a log that kills its worker: the batch it was in is made again a session at a
// time, so every other session of that batch is exported, once and in order, and only the killer is left
// out: counted in the X-Engine-Skipped trailer and named on stderr, never dropped silently; alone, it makes an
// empty export that says so. It kills only when its answers are asked for (payloads=1): without them the
// export holds no answer, and the same log is exported whole.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'node:http';
import { join } from 'node:path';
import * as v from 'valibot';
import { SessionListSchema } from '../../shared/sessions.ts';
import { launch, type Launched } from '../support/launch.ts';
import { decodeJson } from '../support/otlp-decode.ts';
import { writeManyCalls, writeWorkerKiller } from '../support/heavy-log.ts';

const death = suite('otlp export: a worker dies on one log');
let c: Launched;
death.before(async () => {
  c = await launch();
  writeWorkerKiller(join(c.dataDir, 'logs', 'hostile'), HEAVY);
  writeManyCalls(join(c.dataDir, 'logs', 'hostile'), MANY);
});
death.after(async () => {
  await c.stop();
});

const HEAVY = 'heavy-otlp';
const MANY = 'many-calls-otlp';

/** GET with the token, the whole body and the trailers (fetch does not show trailers). */
function getWithTrailers(path: string): Promise<{ status: number; body: string; trailers: NodeJS.Dict<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${c.url}${path}`, { headers: { Authorization: `Bearer ${c.token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), trailers: res.trailers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const idOf = (line: string) => String(decodeJson(line).resources[0]!.spans[0]!.attributes['gen_ai.conversation.id']);

death('only the log that kills its worker is left out of its batch, counted in the trailer and named on stderr', async () => {
  const list = v.parse(SessionListSchema, await (await c.api('/api/sessions?limit=500')).json()).items.filter((s) => s.key !== HEAVY && s.key !== MANY);
  assert.ok(list.length >= 4, 'the fixture home has sessions around the heavy log');
  // The heavy log sits in the middle of one batch of ticked sessions.
  const half = Math.floor(list.length / 2);
  const keys = [...list.slice(0, half).map((s) => s.key), HEAVY, ...list.slice(half).map((s) => s.key)];
  const res = await getWithTrailers(`/api/sessions/otlp?payloads=1&keys=${keys.map(encodeURIComponent).join(',')}`);
  assert.is(res.status, 200);
  const lines = res.body.split('\n');
  assert.is(lines.pop(), '', 'each line ends in a newline');
  assert.equal(lines.map(idOf), list.map((s) => s.session_id), 'every other session once, in the order asked');
  assert.is(res.trailers['x-engine-skipped'], '1');
  const stderr = await c.stderrWith(`the OTLP export left out logs/hostile/${HEAVY}.jsonl`);
  assert.match(stderr, new RegExp(`left out logs/hostile/${HEAVY}\\.jsonl: reading it needs more than the 176 MB of heap a worker may use`));
  // The console and its pool still answer.
  assert.is((await c.api(`/api/sessions/otlp?keys=${list[0]!.key}`)).status, 200);
});

death('a batch of that one log alone is an empty export with one left out, not a cut answer', async () => {
  const res = await getWithTrailers(`/api/sessions/otlp?payloads=1&keys=${HEAVY}`);
  assert.is(res.status, 200);
  assert.is(res.body, '');
  assert.is(res.trailers['x-engine-skipped'], '1');
});

death('without payloads the same log is exported whole: its answers are never held', async () => {
  const res = await getWithTrailers(`/api/sessions/otlp?keys=${HEAVY}`);
  assert.is(res.status, 200);
  assert.is(res.trailers['x-engine-skipped'], '0');
  const lines = res.body.split('\n');
  assert.is(lines.pop(), '');
  assert.is(lines.length, 1);
  const spans = decodeJson(lines[0]!).resources[0]!.spans;
  assert.is(spans.filter((s) => s.attributes['mcp.method.name'] === 'tools/call').length, 250, 'a span for each of its calls');
});

death('a log whose trace outgrows a worker is refused by the guard and named, not a dead worker', async () => {
  const res = await getWithTrailers(`/api/sessions/otlp?keys=${MANY}`);
  assert.is(res.status, 200);
  assert.is(res.body, '');
  assert.is(res.trailers['x-engine-skipped'], '1');
  const stderr = await c.stderrWith(`the OTLP export left out logs/hostile/${MANY}.jsonl`);
  assert.match(stderr, new RegExp(`left out logs/hostile/${MANY}\\.jsonl: .*${MANY}\\.jsonl: its trace needs more than the \\d+ MB of heap a worker may use`));
});

death.run();
