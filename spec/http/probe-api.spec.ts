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
  assert.is(flood.error, 'the server did not answer within 15 s');
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

probeApi.run();
