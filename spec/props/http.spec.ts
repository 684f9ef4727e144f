// Properties of the API over HTTP, on the built console and a temp copy of the fixture home: for any path
// parameter (`..`, encoded, absolute, `~`, NUL, very long), any query and any body, every endpoint answers
// below 500, an error is `{"error": "..."}`, and no answer shows or removes a file outside the data
// directory (a sentinel beside it holds a marker that must never come back, and must still be there).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { launch, type Launched } from '../support/launch.ts';
import { tempDir } from '../support/fixtures.ts';
import { check } from './check.ts';

const props = suite('props: the API');
let c: Launched;
const outside = tempDir('engine-outside-');
const MARKER = 'SENTINEL-7f3a9c-outside-the-data-directory';
const sentinels = [join(outside.dir, 'secret.jsonl'), join(outside.dir, 'secret.flow.json'), join(outside.dir, 'logs', 'secret.jsonl')];
let toOutside = '';

props.before(async () => {
  mkdirSync(join(outside.dir, 'logs'), { recursive: true });
  const header = JSON.stringify({ engine_mcp_log: 2, session: MARKER, started_unix_ms: 1, server_command: [MARKER], domain: MARKER, agent_model: null });
  for (const p of sentinels) writeFileSync(p, p.endsWith('.jsonl') ? `${header}\n` : JSON.stringify({ engine_flow: 1, marker: MARKER }));
  // Without an engine CLI, a job that parses is refused or fails; nothing runs.
  c = await launch({ env: { PATH: dirname(process.execPath) } });
  toOutside = relative(c.dataDir, outside.dir);
});
props.after(async () => {
  await c.stop();
  outside.cleanup();
});

const realKeys = ['20260928T020400.548Z-14457', 'shop', 'shop.promoted', 'orders', 'nope', '1', '0'];

/** Path parameters as a hostile client sends them (already encoded for the URL). */
const segment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...realKeys),
  fc.constantFrom('..', '.', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%2Fetc%2Fpasswd', '~', '~%2F.ssh', '%00', 'a%00b', '%', '%zz', '%C0%AF', '%FF', '%EF%BB%BF'),
  fc.constant(null).map(() => encodeURIComponent(`../${toOutside}/secret`)),
  fc.constant(null).map(() => encodeURIComponent(`${toOutside}/logs/secret`)),
  fc.constant(null).map(() => encodeURIComponent(join(dirname(c.dataDir), relative(dirname(c.dataDir), outside.dir), 'secret'))),
  fc.nat({ max: 20_000 }).map((n) => 'a'.repeat(n)),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '?'))),
);

const QUERY_KEYS = ['limit', 'offset', 'mode', 'domain', 'q', 'threshold', 'from', 'to', 'tolerance', 'window', 'host', 'whole', 'tail', 'x'];
const queryValue = fc.oneof(
  fc.constantFrom('', '0', '-1', '1', '0.5', '1e400', 'NaN', 'Infinity', '500', '501', '99999999999999999999', 'served', 'shadow', 'shop', 'claude', 'true'),
  segment,
);
const query: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

const serverInput = fc.record(
  {
    name: fc.oneof(fc.constantFrom('shop', 'orders', 'new-one', ''), fc.string({ maxLength: 80 })),
    description: fc.oneof(fc.string(), fc.constant(null), fc.nat()),
    upstream: fc.oneof(
      fc.record({ kind: fc.constant('stdio'), command: fc.array(fc.string(), { maxLength: 3 }), env: fc.array(fc.string(), { maxLength: 2 }) }, { requiredKeys: ['kind'] }),
      fc.record({ kind: fc.constant('http'), url: fc.oneof(fc.webUrl(), fc.string()), headers: fc.array(fc.record({ name: fc.string(), env: fc.string() }), { maxLength: 2 }) }, { requiredKeys: ['kind'] }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    mode: fc.constantFrom('record', 'shadow', 'serve', 'x'),
    flow: fc.oneof(fc.constantFrom('shop.flow.json', '../x.flow.json', '/etc/passwd', '~/x.flow.json'), fc.string(), fc.constant(null)),
    record_dir: fc.oneof(fc.constantFrom('served/shop', '..', '/tmp', '~'), fc.string(), fc.constant(null)),
    decider: fc.oneof(fc.constantFrom('arbiter', 'habit', 'reach', 'x'), fc.constant(null)),
    threshold: fc.oneof(fc.double(), fc.constant(null), fc.string()),
  },
  { requiredKeys: [] },
);

const jobInput = fc.record(
  {
    kind: fc.constantFrom('learn', 'promote', 'audit', 'stage', 'redact', 'doctor', 'x'),
    domain: fc.oneof(fc.constant('shop'), fc.string()),
    sessions: fc.oneof(fc.constantFrom('logs/shop', '..', '/etc', '~/x', ''), fc.string()),
    flow: fc.oneof(fc.constantFrom('shop.flow.json', '../../x', '/etc/passwd'), fc.string()),
    out: fc.oneof(fc.constantFrom('out.flow.json', '../../escape.flow.json', '/tmp/x', '~/x'), fc.string()),
    overwrite: fc.oneof(fc.boolean(), fc.string()),
    window: fc.oneof(fc.nat(), fc.double(), fc.string()),
    threshold: fc.oneof(fc.double(), fc.string()),
    hash_fields: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.string()),
  },
  { requiredKeys: ['kind'] },
);

const body: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }).map((j) => JSON.stringify(j)),
  serverInput.map((b) => JSON.stringify(b)),
  jobInput.map((b) => JSON.stringify(b)),
  fc.record({ note: fc.oneof(fc.string(), fc.nat()), version: fc.oneof(fc.nat(), fc.string()) }, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('{', '[]', 'null', '"x"', '{"name":"\\ud800"}', '{"a":1,"a":2}', '\uFEFF{}', `{"pad":"${'p'.repeat(1_100_000)}"}`),
  // Deep nesting, at the top and inside fields the routes read.
  fc.constantFrom('['.repeat(50_000) + ']'.repeat(50_000), `{"note":${'['.repeat(50_000)}${']'.repeat(50_000)},"name":{"a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}}`),
);

type Endpoint = [method: string, template: string];
const ENDPOINTS: Endpoint[] = [
  ['GET', '/api/sessions'],
  ['GET', '/api/sessions/:a'],
  ['GET', '/api/sessions/:a/raw'],
  ['DELETE', '/api/sessions/:a'],
  ['GET', '/api/flows'],
  ['GET', '/api/flows/diff'],
  ['GET', '/api/flows/:a'],
  ['GET', '/api/flows/:a/raw'],
  ['DELETE', '/api/flows/:a'],
  ['GET', '/api/flows/:a/stage'],
  ['POST', '/api/flows/:a/commit'],
  ['POST', '/api/flows/:a/rollback'],
  ['GET', '/api/servers'],
  ['POST', '/api/servers'],
  ['PUT', '/api/servers/:a'],
  ['DELETE', '/api/servers/:a'],
  ['GET', '/api/servers/:a/config'],
  ['GET', '/api/jobs'],
  ['POST', '/api/jobs'],
  ['GET', '/api/jobs/:a'],
  ['POST', '/api/jobs/:a/cancel'],
  ['GET', '/api/jobs/:a/artifacts/:b'],
  ['GET', '/api/overview'],
  ['GET', '/api/settings'],
  ['GET', '/api/meta'],
  ['GET', '/api/health'],
  ['POST', '/api/logout'],
  ['GET', '/api/:a'],
  ['PATCH', '/api/sessions/:a'],
];

const request = fc.record({
  endpoint: fc.constantFrom(...ENDPOINTS),
  a: segment,
  b: segment,
  query,
  body,
  jsonType: fc.boolean(),
});

props('any path parameter, query and body: below 500, errors as {"error"}, nothing outside the data directory', async () => {
  await check(
    fc.asyncProperty(request, async ({ endpoint: [method, template], a, b, query: q, body: text, jsonType }) => {
      const path = template.replace(':a', a).replace(':b', b) + q;
      const withBody = method !== 'GET' && method !== 'DELETE' && text !== undefined;
      const res = await c.api(path, {
        method,
        ...(withBody ? { body: text, headers: { 'Content-Type': jsonType ? 'application/json' : 'text/plain' } } : {}),
      });
      const answer = Buffer.from(await res.arrayBuffer()).toString('utf8');
      assert.ok(res.status < 500, `${method} ${path} answered ${res.status}: ${answer.slice(0, 300)}`);
      if (res.status >= 400) {
        const parsed = JSON.parse(answer) as { error?: unknown };
        assert.is(typeof parsed.error, 'string', `${method} ${path}: ${answer.slice(0, 300)}`);
      }
      assert.not.match(answer, MARKER, `${method} ${path} showed a file outside the data directory`);
    }),
    300,
  );
  for (const p of sentinels) assert.ok(existsSync(p), `${p} was removed`);
  assert.is((await c.api('/api/health')).status, 200);
});

props.run();
