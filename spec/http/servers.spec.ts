// The servers API over HTTP on a temp copy of the fixture home: the list with proxy argv, sessions, issues
// and discovered upstreams; add, change (rename), remove; the host configuration byte for byte; every status
// (400, 404, 409, 500) and the read-only refusal (403).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema, OkSchema } from '../../shared/common.ts';
import { HostConfigSchema, ServerListSchema, ServerViewSchema } from '../../shared/servers.ts';
import { tempDir } from '../support/fixtures.ts';
import { cleanEnv, launch, type Launched } from '../support/launch.ts';
import { holds, startsWith } from '../support/assert.ts';

const servers = suite('servers api');
let c: Launched;
let data: string;
let bin: { dir: string; cleanup: () => void };

servers.before(async () => {
  // A PATH with engine-proxy (and engine-mcp-demo) on it, so the proxy command and the PATH issue are known.
  bin = tempDir('servers-bin-');
  for (const name of ['engine-proxy', 'engine-mcp-demo']) {
    writeFileSync(join(bin.dir, name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin.dir, name), 0o755);
  }
  c = await launch({ env: { PATH: `${bin.dir}:${cleanEnv().PATH ?? ''}`, HOME: '/nonexistent-home-for-tests' } });
  data = realpathSync(c.dataDir);
});
servers.after(async () => {
  await c.stop();
  bin.cleanup();
});

async function error(res: Response, status: number): Promise<string> {
  assert.is(res.status, status);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

const entry = (over: Record<string, unknown> = {}) => ({
  name: 'notes',
  description: 'My notes',
  upstream: { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'notes'] },
  mode: 'record',
  ...over,
});

servers('the list has both fixture servers with their proxy argv, sessions and issues', async () => {
  const res = await c.api('/api/servers');
  assert.is(res.status, 200);
  const list = v.parse(ServerListSchema, await res.json());
  assert.equal(list.items.map((s) => s.name), ['shop', 'orders']);
  const [shop, orders] = list.items;
  assert.equal(shop!.proxy_args, [
    '--record', `${data}/served/shop`, '--domain', 'shop', '--flow', `${data}/shop.flow.json`, '--flow-decider', 'reach',
    '--', 'engine-mcp-demo', '--world', 'retail',
  ]);
  assert.is(shop!.sessions, 11);
  assert.is(shop!.last_session_unix_ms, 1790561041278);
  assert.equal(shop!.issues, []);
  assert.is(shop!.flow_summary?.key, 'shop');
  assert.is(shop!.flow_summary?.decider, 'reach');
  assert.equal(shop!.flow_summary?.served_by, ['shop']);
  assert.equal(orders!.proxy_args, [
    '--record', `${data}/logs/orders`, '--domain', 'orders',
    '--upstream', 'https://mcp.example.com/orders/mcp', '--upstream-header', 'Authorization=ORDERS_AUTH',
  ]);
  assert.is(orders!.sessions, 0);
  assert.is(orders!.last_session_unix_ms, null);
  assert.is(orders!.flow_summary, null);
  assert.equal(orders!.issues, []);
  assert.equal(
    list.discovered.map((d) => [d.domain, d.sessions, d.last_seen_unix_ms, d.registered]),
    [
      ['retail', 1, 1790561041312, false],
      ['shop', 11, 1790561041278, true],
    ],
  );
  assert.equal(list.discovered[0]!.upstream, { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'retail'] });
});

servers('a server is added, answered with its view, and listed', async () => {
  const res = await c.api('/api/servers', json('POST', entry({ description: '  My notes  ', flow: ' ' })));
  assert.is(res.status, 200);
  const view = v.parse(ServerViewSchema, await res.json());
  assert.is(view.description, 'My notes');
  assert.is(view.flow, null);
  assert.equal(view.upstream, { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'notes'], env: [] });
  assert.equal(view.issues, []);
  assert.equal(view.proxy_args.slice(0, 4), ['--record', `${data}/logs/notes`, '--domain', 'notes']);
  const file = JSON.parse(readFileSync(join(c.dataDir, 'servers.json'), 'utf8')) as { servers: { name: string }[] };
  assert.equal(file.servers.map((s) => s.name), ['shop', 'orders', 'notes']);
});

servers('a stdio program the host cannot find, and a flow that is missing, are issues', async () => {
  const res = await c.api(
    '/api/servers',
    json('POST', entry({ name: 'lost', mode: 'serve', flow: 'nowhere.flow.json', upstream: { kind: 'stdio', command: ['no-such-mcp-server-xyz'] } })),
  );
  const view = v.parse(ServerViewSchema, await res.json());
  assert.equal(view.issues, [`flow not found: ${data}/nowhere.flow.json`, "no-such-mcp-server-xyz is not found on the console's PATH: the host must find it"]);
  holds(view.proxy_args, 'reach', 'a flow that does not load is served with reach');
  assert.is((await c.api('/api/servers/lost', { method: 'DELETE' })).status, 200);
});

servers('adding a name that is taken is a conflict', async () => {
  const msg = await error(await c.api('/api/servers', json('POST', entry({ name: 'shop' }))), 409);
  assert.is(msg, 'a server named "shop" is registered already');
});

servers('bad bodies are refused with a message that names the field', async () => {
  startsWith((await error(await c.api('/api/servers', json('POST', entry({ name: 'Bad Name' }))), 400)), 'name "Bad Name": ');
  assert.is(await error(await c.api('/api/servers', json('POST', entry({ mode: 'loud' }))), 400), 'mode: expected record, shadow or serve');
  assert.is(await error(await c.api('/api/servers', json('POST', { mode: 'record' })), 400), 'name: required');
  assert.is(
    await error(await c.api('/api/servers', json('POST', entry({ upstream: { kind: 'ftp' } }))), 400),
    'upstream.kind: expected stdio or http',
  );
  assert.is(await error(await c.api('/api/servers', json('POST', entry({ threshold: 2 }))), 400), 'threshold 2: a probability, from 0 to 1');
  startsWith((await error(await c.api('/api/servers', json('POST', entry({ flow: '../../etc/passwd' }))), 400)), 'flow: ');
  startsWith((await error(await c.api('/api/servers', json('POST', entry({ record_dir: '/etc' }))), 400)), 'record_dir: /etc is outside');
  const bad = await c.api('/api/servers', { method: 'POST', body: '{"name": ', headers: { 'Content-Type': 'application/json' } });
  assert.is(bad.status, 400);
});

servers('credentials in a command or a URL are refused and never echoed', async () => {
  const cases: unknown[] = [
    { kind: 'stdio', command: ['srv', '--api-key=sk-live-123'] },
    { kind: 'stdio', command: ['srv', '--token', 'sk-live-123'] },
    { kind: 'stdio', command: ['env', 'FOO_SECRET=sk-live-123', 'srv'] },
    { kind: 'http', url: 'https://u:sk-live-123@host/mcp' },
    { kind: 'http', url: 'https://host/mcp?access_token=sk-live-123' },
  ];
  for (const upstream of cases) {
    const msg = await error(await c.api('/api/servers', json('POST', entry({ name: 'leaky', upstream }))), 400);
    assert.not.match(msg, 'sk-live-123', msg);
    assert.match(msg, /credential|user or a password/);
  }
  const file = readFileSync(join(c.dataDir, 'servers.json'), 'utf8');
  assert.not.match(file, 'sk-live-123');
});

servers('a PUT changes a server, and a new name renames it; taken names conflict and unknown names are 404', async () => {
  const res = await c.api('/api/servers/notes', json('PUT', entry({ name: 'notes2', mode: 'shadow', flow: 'shop.flow.json', threshold: 0.5 })));
  assert.is(res.status, 200);
  const view = v.parse(ServerViewSchema, await res.json());
  assert.is(view.name, 'notes2');
  holds(view.proxy_args, '--flow-shadow');
  assert.equal(view.proxy_args.slice(0, 10), [
    '--record', `${data}/shadow/notes2`, '--domain', 'notes2', '--flow', `${data}/shop.flow.json`,
    '--flow-decider', 'reach', '--flow-threshold', '0.5',
  ]);
  holds(view.issues, "the flow's domain is shop, not notes2: learn it from this server's sessions");
  assert.is(await error(await c.api('/api/servers/notes2', json('PUT', entry({ name: 'orders' }))), 409), 'a server named "orders" is registered already');
  assert.is(await error(await c.api('/api/servers/nope', json('PUT', entry())), 404), 'no server "nope"');
  assert.match(await error(await c.api('/api/servers/nope', json('PUT', entry({ name: 'BAD' }))), 400), /^name "BAD"/);
});

servers('a DELETE removes a server; an unknown name is 404', async () => {
  const res = await c.api('/api/servers/notes2', { method: 'DELETE' });
  assert.is(res.status, 200);
  v.parse(OkSchema, await res.json());
  assert.is(await error(await c.api('/api/servers/notes2', { method: 'DELETE' }), 404), 'no server "notes2"');
});

/** init-doctor-stage.md §1.6, case A (record mode), for the orders entry and its HTTP upstream. */
function recordSteps(host: string): string {
  const rerun = `engine init --host ${host} --domain orders`;
  const upstream = '--upstream https://mcp.example.com/orders/mcp --upstream-header Authorization=ORDERS_AUTH';
  return `Next steps (docs/walkthrough.md runs them on a real server):

1. Use the agent as usual. The proxy records each session in ${data}/logs/orders.

2. Learn a flow from the sessions, with no key:
     engine learn --sessions ${data}/logs/orders --domain orders --habit-only --out ~/.engine/orders.flow.json

3. Review what it may do: the tools it may call, the lookups it may make and where their arguments come from:
     engine flow-show ~/.engine/orders.flow.json

4. Run it in shadow: it decides and logs, but looks nothing up. Replace the configuration above with what this prints:
     ${rerun} --flow ~/.engine/orders.flow.json --shadow ${upstream}

5. Keep the flow to the calls where its lookups were the agent's own:
     engine promote --flow ~/.engine/orders.flow.json --sessions ~/.engine/shadow/orders --decider reach --out ~/.engine/orders-promoted.flow.json

6. Serve it: after each of the agent's calls, the flow's lookups ride in the same result. Replace the configuration with what this prints:
     ${rerun} --flow ~/.engine/orders-promoted.flow.json ${upstream}
`;
}

servers('the host configuration equals what engine init prints, for each host', async () => {
  const args = `"--record", "${data}/logs/orders", "--domain", "orders", "--upstream", "https://mcp.example.com/orders/mcp", "--upstream-header", "Authorization=ORDERS_AUTH"`;
  const expected = {
    'claude-code': `claude mcp add orders -- engine-proxy --record ${data}/logs/orders --domain orders --upstream https://mcp.example.com/orders/mcp --upstream-header Authorization=ORDERS_AUTH\n`,
    'claude-desktop': `{\n  "mcpServers": {\n    "orders": {\n      "command": "${bin.dir}/engine-proxy",\n      "args": [${args}]\n    }\n  }\n}\n`,
    cursor: `{\n  "mcpServers": {\n    "orders": {\n      "command": "engine-proxy",\n      "args": [${args}]\n    }\n  }\n}\n`,
    vscode: `{\n  "servers": {\n    "orders": {\n      "type": "stdio",\n      "command": "engine-proxy",\n      "args": [${args}]\n    }\n  }\n}\n`,
  };
  for (const [host, snippet] of Object.entries(expected)) {
    const res = await c.api(`/api/servers/orders/config?host=${host}`);
    assert.is(res.status, 200);
    const config = v.parse(HostConfigSchema, await res.json());
    assert.is(config.host, host);
    assert.is(config.language, host === 'claude-code' ? 'shell' : 'json');
    assert.fixture(config.snippet, snippet);
    assert.fixture(config.next_steps, recordSteps(host));
  }
  const byDefault = v.parse(HostConfigSchema, await (await c.api('/api/servers/orders/config')).json());
  assert.is(byDefault.host, 'claude-code');
});

servers('the served shop flow gets the serve next steps', async () => {
  const config = v.parse(HostConfigSchema, await (await c.api('/api/servers/shop/config?host=cursor')).json());
  assert.fixture(
    config.next_steps,
    `Next steps (docs/walkthrough.md runs them on a real server):

1. Use the agent as usual. After each of its calls, the flow's lookups ride in the same result. The proxy records each session in ${data}/served/shop, and next to it each of the flow's decisions (<session>.flow.jsonl).

2. When the agent, its prompts or the server change, learn again and review what changed (flow-diff exits with 1 when a change needs review):
     engine learn --sessions ${data}/served/shop --domain shop --habit-only --out ~/.engine/shop-new.flow.json
     engine flow-diff ${data}/shop.flow.json ~/.engine/shop-new.flow.json
`,
  );
});

servers('another host is a 400 checked before the lookup, and an unknown server is 404', async () => {
  assert.is(
    await error(await c.api('/api/servers/nope/config?host=emacs'), 400),
    'host "emacs": expected claude-code, claude-desktop, cursor or vscode',
  );
  assert.is(await error(await c.api('/api/servers/nope/config?host=cursor'), 404), 'no server "nope"');
  assert.is(await error(await c.api('/api/servers/nope/probe', { method: 'POST' }), 404), 'no server "nope"');
});

servers('a registry that does not load is a 422 with its reason (its content is at fault), and is not rewritten', async () => {
  const path = join(c.dataDir, 'servers.json');
  const before = readFileSync(path, 'utf8');
  writeFileSync(path, '{"engine_servers": 9, "servers": []}');
  try {
    assert.is(await error(await c.api('/api/servers'), 422), 'servers.json is format 9; this build reads 1');
    assert.is(await error(await c.api('/api/servers', json('POST', entry({ name: 'x' }))), 422), 'servers.json is format 9; this build reads 1');
    assert.is(readFileSync(path, 'utf8'), '{"engine_servers": 9, "servers": []}');
  } finally {
    writeFileSync(path, before);
  }
});

servers('the later policy fields: a spec-field PUT keeps them, they show in the list and argv, and bad ones are 400', async () => {
  const path = join(c.dataDir, 'servers.json');
  const before = readFileSync(path, 'utf8');
  const file = JSON.parse(before) as { servers: Record<string, unknown>[] } & Record<string, unknown>;
  const retail = {
    name: 'retail', description: 'guarded', upstream: { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'retail'], env: [] },
    mode: 'record', flow: null, record_dir: null, decider: null, threshold: null,
    guards: true, retain_days: 30, commit: true, listen: { addr: '0.0.0.0:8931' }, mine: 1, created_unix_ms: 1, updated_unix_ms: 1,
  };
  writeFileSync(path, `${JSON.stringify({ ...file, servers: [...file.servers, retail], hand: 'kept' }, null, 2)}\n`);
  try {
    const put = await c.api('/api/servers/retail', json('PUT', entry({ name: 'retail', description: 'edited', upstream: retail.upstream })));
    assert.is(put.status, 200);
    const view = v.parse(ServerViewSchema, await put.json());
    assert.equal([view.guards, view.retain_days, view.commit, view.listen], [true, 30, true, { addr: '0.0.0.0:8931' }]);
    assert.equal(view.proxy_args, [
      '--record', `${data}/logs/retail`, '--domain', 'retail', '--retain-days', '30', '--guards', '--commit',
      '--listen', '0.0.0.0:8931', '--', 'engine-mcp-demo', '--world', 'retail',
    ]);
    const after = JSON.parse(readFileSync(path, 'utf8')) as { servers: Record<string, unknown>[]; hand: string };
    assert.is(after.hand, 'kept');
    assert.equal(after.servers[2], { ...retail, description: 'edited', updated_unix_ms: after.servers[2]!.updated_unix_ms });
    const config = v.parse(HostConfigSchema, await (await c.api('/api/servers/retail/config?host=cursor')).json());
    assert.is(config.snippet, '{\n  "mcpServers": {\n    "retail": {\n      "url": "http://127.0.0.1:8931/mcp"\n    }\n  }\n}\n');
    assert.match(config.next_steps, 'engine init --host cursor --domain retail --retain-days 30 --guards --commit --listen 0.0.0.0:8931 --flow');
    const bad = (over: Record<string, unknown>) => c.api('/api/servers/retail', json('PUT', entry({ name: 'retail', ...over })));
    assert.is(await error(await bad({ retain_days: 0 }), 400), 'retain_days: at least one day');
    assert.is(await error(await bad({ guards: 'yes' }), 400), 'guards: true or false');
    assert.is(await error(await bad({ name: 'other', guards: true }), 400), 'guards: there are no policy guards for other; retail and airline have them');
    assert.is(await error(await bad({ guards: false, judge: { mode: 'log', context: 'c.jsonl' } }), 400), 'the confirmation judge asks about the writes the guards check: turn the guards on');
    assert.is(await error(await bad({ surprise: { kind: 'threshold', nats: 0 } }), 400), 'surprise 0: a threshold in nats, above 0');
    assert.is(await error(await bad({ flow_tools: ['a b'] }), 400), 'flow_tools: "a b" is not a tool\'s name');
  } finally {
    writeFileSync(path, before);
  }
});

servers("a server's flow is read again when its file changes", async () => {
  const flowPath = join(c.dataDir, 'shop.flow.json');
  const original = readFileSync(flowPath);
  const shopIssues = async () => v.parse(ServerListSchema, await (await c.api('/api/servers')).json()).items.find((s) => s.name === 'shop')!.issues;
  const before = await shopIssues();
  assert.not.ok(before.some((i) => i.startsWith('the flow does not load')), before.join('; '));
  try {
    writeFileSync(flowPath, '{"not a flow": ');
    const broken = await shopIssues();
    assert.ok(broken.some((i) => i.startsWith('the flow does not load: ')), `a flow that stopped loading is an issue at once: ${broken.join('; ')}`);
  } finally {
    writeFileSync(flowPath, original);
  }
  assert.equal(await shopIssues(), before);
});

servers.run();

const readOnly = suite('servers api, read-only');
let r: Launched;
readOnly.before(async () => {
  r = await launch({ args: ['--read-only'] });
});
readOnly.after(async () => {
  await r.stop();
});

readOnly('every change and the probe are refused with 403, and reads still answer', async () => {
  const before = readFileSync(join(r.dataDir, 'servers.json'), 'utf8');
  for (const [path, init] of [
    ['/api/servers', json('POST', entry())],
    ['/api/servers/shop', json('PUT', entry({ name: 'shop' }))],
    ['/api/servers/shop', { method: 'DELETE' }],
    ['/api/servers/shop/probe', { method: 'POST' }],
  ] as [string, RequestInit][]) {
    const res = await r.api(path, init);
    assert.is(res.status, 403, `${init.method} ${path}`);
    v.parse(ErrorBodySchema, await res.json());
  }
  assert.is((await r.api('/api/servers')).status, 200);
  assert.is((await r.api('/api/servers/shop/config?host=vscode')).status, 200);
  assert.is(readFileSync(join(r.dataDir, 'servers.json'), 'utf8'), before);
});

readOnly.run();
