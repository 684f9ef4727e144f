import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  addServer,
  loadRegistry,
  parseRegistry,
  registryText,
  removeServer,
  replaceServer,
  validateInput,
  RegistryError,
  discoveredUpstreams,
  hostDisplay,
  serverView,
} from '../../server/data/registry.ts';
import type { ServerInput } from '../../shared/servers.ts';
import type { SessionSummary } from '../../shared/sessions.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';

const registry = suite('data/registry');

const input = (over: Partial<ServerInput> = {}): ServerInput => ({
  name: 'notes',
  description: null,
  upstream: { kind: 'stdio', command: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: [] },
  mode: 'record',
  flow: null,
  record_dir: null,
  decider: null,
  threshold: null,
  ...over,
});

registry('the fixture registry loads with both servers, in file order', async () => {
  const home = copyHome();
  try {
    const loaded = await loadRegistry(home.dir);
    assert.equal(loaded.servers.map((s) => s.name), ['shop', 'orders']);
    assert.equal(loaded.servers[1]!.upstream, {
      kind: 'http',
      url: 'https://mcp.example.com/orders/mcp',
      headers: [{ name: 'Authorization', env: 'ORDERS_AUTH' }],
    });
  } finally {
    home.cleanup();
  }
});

registry('a missing file is an empty registry', async () => {
  const t = tempDir();
  try {
    assert.equal((await loadRegistry(t.dir)).servers, []);
  } finally {
    t.cleanup();
  }
});

registry('a registry of another format or shape is refused with a message', () => {
  const refused = (text: string) => {
    try {
      parseRegistry(text);
    } catch (e) {
      assert.instance(e, RegistryError);
      return (e as Error).message;
    }
    throw new Error('expected a refusal');
  };
  assert.is(refused('{"engine_servers": 2, "servers": []}'), 'servers.json is format 2; this build reads 1');
  assert.ok(refused('nope').startsWith('servers.json is not a server registry: '));
  assert.ok(refused('{"servers": []}').startsWith('servers.json is not a server registry: '));
  assert.ok(refused('{"engine_servers": 1, "servers": [{"name": 1}]}').startsWith('servers.json: '));
});

registry('reading is lenient: absent optional fields default, and later fields survive a rewrite', () => {
  const text = JSON.stringify({
    engine_servers: 1,
    servers: [{ name: 'a', upstream: { kind: 'stdio', command: ['x'] }, mode: 'record', guards: true }],
  });
  const loaded = parseRegistry(text);
  const entry = loaded.servers[0]!;
  assert.is(entry.description, null);
  assert.is(entry.threshold, null);
  assert.equal(entry.upstream, { kind: 'stdio', command: ['x'], env: [] });
  const again = JSON.parse(registryText(loaded)) as { servers: Record<string, unknown>[] };
  assert.is(again.servers[0]!.guards, true);
  // A later field keeps its place: after threshold, before the timestamps, as a later engine writes it.
  assert.equal(Object.keys(again.servers[0]!), [
    'name', 'description', 'upstream', 'mode', 'flow', 'record_dir', 'decider', 'threshold', 'guards', 'created_unix_ms', 'updated_unix_ms',
  ]);
});

registry('the file is pretty JSON with a final newline', () => {
  const text = registryText({ servers: [] });
  assert.is(text, '{\n  "engine_servers": 1,\n  "servers": []\n}\n');
});

registry('validation refuses in the CLI order with its messages', () => {
  const ctx = { dataDir: '/data', home: '/home/me' };
  assert.ok(validateInput(input({ name: 'Notes' }), ctx)?.startsWith('name "Notes": the name is the server\'s'));
  assert.ok(validateInput(input({ name: '-x' }), ctx));
  assert.ok(validateInput(input({ name: 'a'.repeat(65) }), ctx));
  assert.is(validateInput(input({ name: 'a'.repeat(64) }), ctx), null);
  assert.is(validateInput(input({ description: 'é'.repeat(1001) }), ctx), 'the description is longer than 1,000 characters');
  assert.is(validateInput(input({ description: 'é'.repeat(1000) }), ctx), null);
  assert.is(validateInput(input({ upstream: { kind: 'stdio', command: [], env: [] } }), ctx), "the server's command is empty");
  assert.is(validateInput(input({ upstream: { kind: 'stdio', command: [' '], env: [] } }), ctx), "the server's command is empty");
  assert.is(
    validateInput(input({ upstream: { kind: 'stdio', command: ['x', 'a\0b'], env: [] } }), ctx),
    "the server's command has too many or too long arguments",
  );
  assert.is(
    validateInput(input({ upstream: { kind: 'stdio', command: Array(257).fill('x'), env: [] } }), ctx),
    "the server's command has too many or too long arguments",
  );
  const secret = validateInput(input({ upstream: { kind: 'stdio', command: ['srv', '--token', 'hunter2'], env: [] } }), ctx);
  assert.ok(secret?.startsWith('argument 3 of the command looks like a credential'));
  assert.not.ok(secret?.includes('hunter2'));
  assert.ok(validateInput(input({ upstream: { kind: 'stdio', command: ['srv'], env: ['BAD-NAME'] } }), ctx)?.includes('"BAD-NAME"'));
  assert.ok(validateInput(input({ upstream: { kind: 'http', url: 'https://u:p@h/mcp', headers: [] } }), ctx)?.includes('user or a password'));
  assert.ok(
    validateInput(input({ upstream: { kind: 'http', url: 'https://h/mcp', headers: [{ name: 'a b', env: 'X' }] } }), ctx),
  );
  assert.ok(validateInput(input({ upstream: { kind: 'http', url: 'https://h/mcp', headers: [{ name: 'X-A', env: '1' }] } }), ctx));
  assert.is(validateInput(input({ threshold: 1.5 }), ctx), 'threshold 1.5: a probability, from 0 to 1');
  assert.is(validateInput(input({ threshold: -0.1 }), ctx), 'threshold -0.1: a probability, from 0 to 1');
  assert.is(validateInput(input({ threshold: 1 }), ctx), null);
});

registry('flow and record_dir go through the request-path rule, named in the message', () => {
  const home = copyHome();
  try {
    const ctx = { dataDir: home.dir, home: '/nonexistent-home' };
    assert.is(validateInput(input({ flow: '  shop.flow.json  ', record_dir: 'served/shop' }), ctx), null);
    assert.ok(validateInput(input({ flow: '../x.flow.json' }), ctx)?.startsWith('flow: ../x.flow.json: .. climbs out of'));
    assert.ok(validateInput(input({ record_dir: '/etc' }), ctx)?.startsWith('record_dir: /etc is outside the data directory'));
    symlinkSync('/etc', join(home.dir, 'out'));
    assert.ok(validateInput(input({ record_dir: 'out/x' }), ctx)?.includes('a symbolic link leads out of'));
    assert.is(validateInput(input({ flow: '   ' }), ctx), null);
  } finally {
    home.cleanup();
  }
});

registry('add, rename, conflict, remove: each change is written and the file stays a registry', async () => {
  const home = copyHome();
  try {
    const ctx = { dataDir: home.dir, home: null, nowMs: 1_800_000_000_000 };
    const added = await addServer(input({ description: '  my notes  ', flow: '  ' }), ctx);
    assert.ok(added.ok);
    if (added.ok) {
      assert.is(added.entry.description, 'my notes');
      assert.is(added.entry.flow, null);
      assert.is(added.entry.created_unix_ms, ctx.nowMs);
    }
    const again = await addServer(input(), ctx);
    assert.equal(again, { ok: false, reason: 'taken', message: 'a server named "notes" is registered already' });
    const taken = await replaceServer('notes', input({ name: 'shop' }), ctx);
    assert.is(taken.ok ? null : taken.reason, 'taken');
    const missing = await replaceServer('nope', input(), ctx);
    assert.equal(missing, { ok: false, reason: 'missing', message: 'no server "nope"' });
    const invalid = await replaceServer('nope', input({ name: 'BAD' }), ctx);
    assert.is(invalid.ok ? null : invalid.reason, 'invalid');
    const renamed = await replaceServer('notes', input({ name: 'notes2' }), { ...ctx, nowMs: ctx.nowMs + 5 });
    assert.ok(renamed.ok);
    if (renamed.ok) {
      assert.is(renamed.entry.created_unix_ms, ctx.nowMs);
      assert.is(renamed.entry.updated_unix_ms, ctx.nowMs + 5);
    }
    assert.equal((await loadRegistry(home.dir)).servers.map((s) => s.name), ['shop', 'orders', 'notes2']);
    assert.equal(await removeServer('notes2', ctx), { ok: true });
    assert.equal(await removeServer('notes2', ctx), { ok: false, message: 'no server "notes2"' });
    assert.equal((await loadRegistry(home.dir)).servers.map((s) => s.name), ['shop', 'orders']);
    assert.equal(readdirSync(home.dir).filter((n) => n.endsWith('.tmp')), []);
  } finally {
    home.cleanup();
  }
});

registry('changes made at the same moment never lose an update', async () => {
  const t = tempDir();
  try {
    const ctx = { dataDir: t.dir, home: null, nowMs: 1 };
    const names = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const results = await Promise.all(names.map((name) => addServer(input({ name }), ctx)));
    assert.ok(results.every((r) => r.ok));
    const removals = await Promise.all(names.slice(0, 10).map((name) => removeServer(name, ctx)));
    assert.ok(removals.every((r) => r.ok));
    const kept = (await loadRegistry(t.dir)).servers.map((s) => s.name).sort();
    assert.equal(kept, names.slice(10).sort());
  } finally {
    t.cleanup();
  }
});

registry('a process killed in the middle of writes leaves servers.json whole, old or new', async () => {
  const t = tempDir();
  try {
    const dataDir = join(t.dir, 'data');
    mkdirSync(dataDir);
    const moduleUrl = pathToFileURL(join(repoRoot, 'server/data/registry.ts')).href;
    // The child rewrites a large registry as fast as it can; each round it grows by one server.
    const code = `
      const { addServer } = await import(${JSON.stringify(moduleUrl)});
      let i = 0;
      const ctx = { dataDir: ${JSON.stringify(dataDir)}, home: null, nowMs: 1 };
      process.stdout.write('ready\\n');
      for (;;) {
        const r = await addServer({ name: 'k' + process.pid + '-' + i++, description: 'x'.repeat(900), upstream: { kind: 'stdio', command: ['srv'], env: [] }, mode: 'record', flow: null, record_dir: null, decider: null, threshold: null }, ctx);
        if (!r.ok) throw new Error(r.message);
      }`;
    let sawServers = 0;
    for (let round = 0; round < 12; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (c) => reject(new Error(`the writer exited early (${c})`)));
      });
      await new Promise((r) => setTimeout(r, 20 + round * 7));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      const text = readFileSync(join(dataDir, 'servers.json'), 'utf8');
      const loaded = parseRegistry(text);
      assert.ok(text.endsWith('}\n'));
      assert.ok(loaded.servers.length >= sawServers, 'the registry never goes back');
      sawServers = loaded.servers.length;
    }
    assert.ok(sawServers > 0, 'the writers wrote something');
  } finally {
    t.cleanup();
  }
});

registry('a registry that is not one is never rewritten by a change', async () => {
  const t = tempDir();
  try {
    writeFileSync(join(t.dir, 'servers.json'), '{"engine_servers": 3}');
    let refused: unknown;
    try {
      await addServer(input(), { dataDir: t.dir, home: null, nowMs: 1 });
    } catch (e) {
      refused = e;
    }
    assert.instance(refused, RegistryError);
    assert.is(readFileSync(join(t.dir, 'servers.json'), 'utf8'), '{"engine_servers": 3}');
  } finally {
    t.cleanup();
  }
});

registry('the view shows the fields it understands, never unknown keys, and lists flow issues in order', async () => {
  const loaded = parseRegistry(
    JSON.stringify({
      engine_servers: 1,
      servers: [
        {
          name: 'notes', upstream: { kind: 'stdio', command: ['/bin/sh'] }, mode: 'record', flow: 'other.flow.json',
          decider: 'arbiter', guards: true, note: 'mine',
        },
      ],
    }),
  );
  const entry = loaded.servers[0]!;
  const facts = { file: true, error: null, domain: 'other', arbiter: false, reach: false };
  const t = tempDir();
  const data = realpathSync(t.dir);
  const ctx = { dataDir: data, home: '/home/me', searchPath: '', proxyBeside: null, flowFacts: async () => facts };
  const view = await serverView(entry, [], async () => null, ctx);
  assert.is(view.guards, true);
  assert.not.ok('note' in view);
  assert.not.ok('raw' in view);
  assert.equal(view.issues, [
    "the flow's domain is other, not notes: learn it from this server's sessions",
    'decider is arbiter, but the flow has no arbiter',
    'mode is record, so the flow is not run: choose shadow or serve',
  ]);
  assert.equal(view.proxy_args, ['--record', `${data}/logs/notes`, '--domain', 'notes', '--guards', '--', '/bin/sh']);
  const broken = await serverView(
    { ...entry, mode: 'shadow', decider: 'reach', flow: '~root/x' },
    [],
    async () => null,
    ctx,
  );
  assert.equal(broken.issues, ["the flow's path cannot be used: ~root/x"]);
  const unloaded = await serverView({ ...entry, mode: 'serve', decider: null }, [], async () => null, {
    ...ctx,
    flowFacts: async () => ({ ...facts, error: 'flow format 7 is not supported (this build reads 1 and 2)' }),
  });
  assert.equal(unloaded.issues, ['the flow does not load: flow format 7 is not supported (this build reads 1 and 2)']);
  assert.equal(unloaded.proxy_args.slice(4, 8), ['--flow', `${data}/other.flow.json`, '--flow-decider', 'reach']);
  t.cleanup();
});

registry('a path under home is shown to the host with ~', () => {
  assert.is(hostDisplay('/home/me/.engine/logs/x', '/home/me'), '~/.engine/logs/x');
  assert.is(hostDisplay('/home/me', '/home/me'), '~');
  assert.is(hostDisplay('/home/meta/x', '/home/me'), '/home/meta/x');
  assert.is(hostDisplay('/data/x', null), '/data/x');
});

registry('discovered upstreams are grouped by domain and upstream, newest first', () => {
  const s = (domain: string | null, command: string[], started: number) =>
    ({ domain, upstream: { kind: 'stdio', command }, started_unix_ms: started }) as unknown as SessionSummary;
  const found = discoveredUpstreams(
    [s('a', ['x'], 5), s('a', ['x'], 9), s('a', ['y'], 9), s('b', ['x'], 7), s(null, ['x'], 99)],
    new Set(['b']),
  );
  assert.equal(
    found.map((d) => [d.domain, d.upstream, d.sessions, d.last_seen_unix_ms, d.registered]),
    [
      ['a', { kind: 'stdio', command: ['x'] }, 2, 9, false],
      ['a', { kind: 'stdio', command: ['y'] }, 1, 9, false],
      ['b', { kind: 'stdio', command: ['x'] }, 1, 7, true],
    ],
  );
});

registry.run();
