// POST /api/servers/:name/probe over HTTP: server-everything (a real MCP server we did not write) over stdio
// and over Streamable HTTP, the flow's warnings, and hostile servers of our own (never answers, garbage,
// exits at once, floods) while /api/health keeps answering. The never-answering one runs the full 15 s.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ProbeResultSchema, type ProbeResult } from '../../shared/servers.ts';
import { repoRoot, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { alive, freePort } from '../support/process.ts';
import { holds } from '../support/assert.ts';
import { createServer, type ServerResponse } from 'node:http';
import { overBudgetText } from '../../server/probe/budget.ts';
import { busyText } from '../../server/probe/slots.ts';
import { PROBE_READ_MAX_BYTES, PROBE_RUNNING_MAX } from '../../shared/limits.ts';

const node = process.execPath;
const everything = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const support = (name: string) => join(repoRoot, 'spec/support', name);

const probeApi = suite('probe api');
let c: Launched;
let httpServer: ChildProcess | null = null;
let httpUrl = '';
let pids: { dir: string; cleanup: () => void };


async function register(name: string, upstream: unknown, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await c.api('/api/servers', {
    method: 'POST',
    body: JSON.stringify({ name, upstream, mode: 'record', ...extra }),
  });
  assert.is(res.status, 200, `${name}: ${await res.clone().text()}`);
}

async function probe(name: string): Promise<ProbeResult> {
  const res = await c.api(`/api/servers/${name}/probe`, { method: 'POST' });
  assert.is(res.status, 200);
  return v.parse(ProbeResultSchema, await res.json());
}

probeApi.before(async () => {
  pids = tempDir('probe-pids-');
  const port = await freePort();
  httpServer = spawn(node, [everything, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  httpUrl = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  c = await launch({ env: { PROBE_API_TEST_HEADER: 'hello' } });
  await register('everything', { kind: 'stdio', command: [node, everything, 'stdio'] });
  await register('everything-http', { kind: 'http', url: httpUrl, headers: [{ name: 'X-Probe-Test', env: 'PROBE_API_TEST_HEADER' }] });
  await register('unset-header', { kind: 'http', url: httpUrl, headers: [{ name: 'X-Probe-Test', env: 'PROBE_API_TEST_UNSET' }] });
  await register('silent', { kind: 'stdio', command: [node, support('mcp-silent.mjs'), join(pids.dir, 'silent')] });
  await register('garbage', { kind: 'stdio', command: [node, support('mcp-garbage.mjs'), 'never'] });
  await register('exits', { kind: 'stdio', command: [node, support('mcp-exit.mjs')] });
  await register('flood', { kind: 'stdio', command: [node, support('mcp-flood.mjs')] });
  await register('crash', { kind: 'stdio', command: [node, support('mcp-crash.mjs')] });
  await register('linger', { kind: 'stdio', command: [node, support('mcp-linger.mjs'), join(pids.dir, 'linger')] });
  await register('chatty', { kind: 'stdio', command: [node, support('mcp-garbage.mjs')] });
  await register('complains', { kind: 'stdio', command: [node, support('mcp-stderr.mjs')] });
  await register('hello', { kind: 'stdio', command: [node, support('mcp-hello.mjs')] });
});

probeApi.after(async () => {
  await c.stop();
  httpServer?.kill('SIGKILL');
  pids.cleanup();
});

probeApi('server-everything over stdio answers with its tools and their kinds', async () => {
  const result = await probe('everything');
  assert.is(result.error, null);
  assert.ok(result.ok);
  assert.type(result.server_name, 'string');
  assert.ok(result.tools.length > 3);
  holds(result.tools.map((t) => t.name), 'echo');
  assert.equal(result.flow_warnings, []);
});

probeApi('server-everything over Streamable HTTP answers the same, and the header value is never returned', async () => {
  const stdio = await probe('everything');
  const http = await probe('everything-http');
  assert.is(http.error, null);
  assert.equal(http.tools.map((t) => t.name), stdio.tools.map((t) => t.name));
  const unset = await probe('unset-header');
  assert.is(unset.error, "PROBE_API_TEST_UNSET is not set in the console's environment, so the X-Probe-Test header cannot be sent");
  assert.not.match(JSON.stringify(http), 'hello');
  assert.not.match(c.stderr(), 'hello');
});

probeApi('the tools are told against the server flow', async () => {
  // The fixture's shop server, pointed at a server that lists tools the flow does not look up.
  const res = await c.api('/api/servers/shop', {
    method: 'PUT',
    body: JSON.stringify({ name: 'shop', upstream: { kind: 'stdio', command: [node, support('mcp-garbage.mjs')] }, mode: 'serve', flow: 'shop.flow.json' }),
  });
  assert.is(res.status, 200);
  const result = await probe('shop');
  assert.ok(result.ok);
  assert.equal(result.flow_warnings, [
    'the flow looks up `get_order_details`, which the server does not list',
    'the flow looks up `get_user_details`, which the server does not list',
  ]);
});

probeApi('hostile servers fail with their reason, processes are gone, and health answers all along', async () => {
  let stop = false;
  let healthAnswers = 0;
  const health = (async () => {
    while (!stop) {
      const res = await fetch(`${c.url}/api/health`);
      assert.is(res.status, 200);
      await res.json();
      healthAnswers++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const [silent, garbage, exits, flood] = await Promise.all([probe('silent'), probe('garbage'), probe('exits'), probe('flood')]);
  stop = true;
  await health;
  assert.is(silent.error, 'the server did not answer within 15 s');
  assert.ok(silent.ms >= 15_000);
  assert.is(garbage.error, 'the server did not answer within 15 s');
  assert.is(flood.error, overBudgetText(PROBE_READ_MAX_BYTES));
  assert.is(exits.error, 'the server closed its output before answering initialize (it exited with exit status: 3)');
  for (const r of [silent, garbage, exits, flood]) {
    assert.not.ok(r.ok);
    assert.equal(r.tools, []);
  }
  assert.ok(healthAnswers > 1, 'health answered during the probes');
  const [serverPid, childPid] = readFileSync(join(pids.dir, 'silent'), 'utf8').trim().split('\n').map(Number);
  for (let i = 0; i < 40 && (alive(serverPid!) || alive(childPid!)); i++) await new Promise((r) => setTimeout(r, 50));
  assert.not.ok(alive(serverPid!), 'the server is gone');
  assert.not.ok(alive(childPid!), 'its child is gone');
});

probeApi('servers that crash mid-way, answer through garbage or never close end quickly, whole groups gone, stderr clean', async () => {
  const before = c.stderr();
  const started = Date.now();
  const [crash, linger, chatty] = await Promise.all([probe('crash'), probe('linger'), probe('chatty')]);
  // None of them needs the 15 s cut: each ends as soon as its answers (or its crash) are in.
  assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  assert.not.ok(crash.ok);
  assert.match(crash.error ?? '', /exit status: 1/);
  assert.equal([linger.ok, linger.tools.map((t) => t.name)], [true, ['stay']]);
  assert.equal([chatty.ok, chatty.tools.map((t) => t.name)], [true, ['alpha', 'zeta']]);
  const [serverPid, childPid] = readFileSync(join(pids.dir, 'linger'), 'utf8').trim().split('\n').map(Number);
  for (let i = 0; i < 40 && (alive(serverPid!) || alive(childPid!)); i++) await new Promise((r) => setTimeout(r, 50));
  assert.not.ok(alive(serverPid!), 'the lingering server is gone');
  assert.not.ok(alive(childPid!), 'its child is gone');
  // A server's own stderr (the crash's stack) is not the console's.
  assert.is(c.stderr().slice(before.length), '');
  assert.is((await c.api('/api/health')).status, 200);
});

probeApi("a failed stdio test carries the tail of the server's stderr; a passing one has none", async () => {
  const failed = await probe('complains');
  assert.is(failed.error, 'the server closed its output before answering initialize (it exited with exit status: 1)');
  const lines = Array.from({ length: 19 }, (_, i) => `starting: step ${12 + i}`);
  assert.is(failed.stderr_tail, [...lines, 'Error: ACME_API_KEY is not set'].join('\n'));
  const ok = await probe('everything');
  assert.not.ok('stderr_tail' in ok);
});

probeApi('an unset header variable can take a one-off value for one test: sent, never stored, logged or returned', async () => {
  const secret = 'one-off-value-7f3a9';
  const res = await c.api('/api/servers/unset-header/probe', { method: 'POST', body: JSON.stringify({ env: { PROBE_API_TEST_UNSET: secret, OTHER: 'x' } }) });
  assert.is(res.status, 200);
  const text = await res.text();
  const result = v.parse(ProbeResultSchema, JSON.parse(text));
  assert.is(result.error, null);
  assert.ok(result.ok);
  assert.not.match(text, secret);
  assert.not.match(c.stderr(), secret);
  const registry = await (await c.api('/api/servers')).text();
  assert.not.match(registry, secret);
  // The next test without it fails as before: nothing was kept.
  assert.is((await probe('unset-header')).error, "PROBE_API_TEST_UNSET is not set in the console's environment, so the X-Probe-Test header cannot be sent");
  const bad = await c.api('/api/servers/unset-header/probe', { method: 'POST', body: JSON.stringify({ env: { PROBE_API_TEST_UNSET: 5 } }) });
  assert.is(bad.status, 400);
  assert.not.match((await bad.text()), secret);
});

/** The console's peak resident memory so far, in MiB (VmHWM). */
function peakMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) / 1024;
}

probeApi('an HTTP upstream whose event never ends is stopped at the read budget, and the console stays small', async () => {
  const chunk = Buffer.from('data: {"jsonrpc":"2.0","padding":"xxxxxxxxxxxxxxxxxxxxxxxx"}\n'.repeat(4096));
  const upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.on('error', () => undefined);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  try {
    await register('endless-events', { kind: 'http', url: `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`, headers: [] });
    const before = peakMiB(c.child.pid!);
    const result = await probe('endless-events');
    assert.is(result.error, overBudgetText(PROBE_READ_MAX_BYTES));
    const grew = peakMiB(c.child.pid!) - before;
    assert.ok(grew < 160, `the console's peak memory grew by ${Math.round(grew)} MiB`);
  } finally {
    upstream.closeAllConnections();
    upstream.close();
  }
});

probeApi('one test more than the most at once is refused with 429 and a reason; a slot frees when a test ends', async () => {
  const held: ServerResponse[] = [];
  let arrived = 0;
  let notify = () => undefined as void;
  const upstream = createServer((req, res) => {
    req.resume();
    held.push(res);
    arrived++;
    notify();
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  try {
    await register('held', { kind: 'http', url: `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`, headers: [] });
    const running = Array.from({ length: PROBE_RUNNING_MAX }, () => probe('held'));
    await new Promise<void>((resolve) => {
      notify = () => void (arrived === PROBE_RUNNING_MAX && resolve());
      notify();
    });
    const refused = await c.api('/api/servers/held/probe', { method: 'POST' });
    assert.is(refused.status, 429);
    assert.equal(await refused.json(), { error: busyText });
    for (const res of held) res.writeHead(503).end();
    for (const r of await Promise.all(running)) assert.is(r.error, 'the server answered initialize with HTTP 503 Service Unavailable');
    held.length = 0;
    const after = probe('held');
    await new Promise<void>((resolve) => {
      notify = () => void (arrived === PROBE_RUNNING_MAX + 1 && resolve());
      notify();
    });
    held[0]!.writeHead(503).end();
    assert.is((await after).error, 'the server answered initialize with HTTP 503 Service Unavailable');
  } finally {
    upstream.closeAllConnections();
    upstream.close();
  }
});

probeApi('a server that prints something else and exits: the answer says its exit status and what it printed', async () => {
  const result = await probe('hello');
  assert.is(result.error, 'the server closed its output before answering initialize (it exited with exit status: 0); instead of JSON-RPC it printed "hello"');
});

probeApi('values of the named variables, the model key and one-off values never come back in what a server wrote', async () => {
  const model = 'sk-live-model-key-0123456789';
  const orders = 'orders-auth-value-0123456789';
  const oneOff = 'one-off-value-0123456789';
  const echo = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -1, message: `refused ${String(req.headers['x-orders-auth'])}` } }));
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const own = await launch({ env: { TYPESAFE_API_KEY: model, PROBE_API_ORDERS_AUTH: orders } });
  try {
    const add = async (name: string, upstream: unknown) =>
      assert.is((await own.api('/api/servers', { method: 'POST', body: JSON.stringify({ name, upstream, mode: 'record' }) })).status, 200);
    await add('printenv', { kind: 'stdio', command: [node, support('mcp-printenv.mjs')], env: ['PROBE_API_ORDERS_AUTH'] });
    await add('echo', { kind: 'http', url: `http://127.0.0.1:${(echo.address() as { port: number }).port}/mcp`, headers: [{ name: 'X-Orders-Auth', env: 'PROBE_API_ONE_OFF' }] });
    const printenv = await own.api('/api/servers/printenv/probe', { method: 'POST', body: JSON.stringify({ env: { PROBE_API_ORDERS_AUTH: oneOff } }) });
    const text = await printenv.text();
    const tail = v.parse(ProbeResultSchema, JSON.parse(text)).stderr_tail ?? '';
    for (const value of [model, orders]) assert.not.match(text, value);
    holds(tail.split('\n'), 'TYPESAFE_API_KEY=••••');
    holds(tail.split('\n'), 'PROBE_API_ORDERS_AUTH=••••');
    const echoed = await own.api('/api/servers/echo/probe', { method: 'POST', body: JSON.stringify({ env: { PROBE_API_ONE_OFF: oneOff } }) });
    const answer = v.parse(ProbeResultSchema, await echoed.json());
    assert.is(answer.error, 'the server answered initialize with an error: refused ••••');
  } finally {
    await own.stop();
    echo.close();
  }
});

probeApi.run();
