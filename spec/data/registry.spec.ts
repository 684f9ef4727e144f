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
import { pathLookup } from '../../server/path-search.ts';
import type { SessionSummary } from '../../shared/sessions.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { endsWith, startsWith } from '../support/assert.ts';

const registry = suite('registry');

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
  startsWith(refused('nope'), 'servers.json is not a server registry: ');
  startsWith(refused('{"servers": []}'), 'servers.json is not a server registry: ');
  startsWith(refused('{"engine_servers": 1, "servers": [{"name": 1}]}'), 'servers.json: ');
});

registry('a value nested past 128 levels is refused, as the engine refuses it; 128 levels read and write back', () => {
  // A later field the console keeps and writes back: thousands of levels deep, JSON.stringify overflowed.
  const withLater = (levels: number) =>
    `{"engine_servers": 1, "servers": [{"name": "a", "upstream": {"kind": "stdio", "command": ["x"]}, "mode": "record", "later": ${'['.repeat(levels - 3)}${']'.repeat(levels - 3)}}]}`;
  for (const levels of [129, 8_000]) {
    try {
      parseRegistry(withLater(levels));
      throw new Error(`${levels} levels were read`);
    } catch (e) {
      assert.instance(e, RegistryError);
      assert.is((e as Error).message, 'servers.json is not a server registry: a value nests deeper than 128 levels');
    }
  }
  const once = registryText(parseRegistry(withLater(128)));
  assert.ok(once.includes('"later": ['), 'the later field is written back');
  assert.is(registryText(parseRegistry(once)), once);
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
  startsWith(validateInput(input({ name: 'Notes' }), ctx), 'name "Notes": the name is the server\'s');
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
  startsWith(secret, 'argument 3 of the command looks like a credential');
  assert.not.match(secret ?? '', 'hunter2');
  assert.match(validateInput(input({ upstream: { kind: 'stdio', command: ['srv'], env: ['BAD-NAME'] } }), ctx) ?? '', '"BAD-NAME"');
  assert.match(validateInput(input({ upstream: { kind: 'http', url: 'https://u:p@h/mcp', headers: [] } }), ctx) ?? '', 'user or a password');
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
    startsWith(validateInput(input({ flow: '../x.flow.json' }), ctx), 'flow: ../x.flow.json: .. climbs out of');
    startsWith(validateInput(input({ record_dir: '/etc' }), ctx), 'record_dir: /etc is outside the data directory');
    symlinkSync('/etc', join(home.dir, 'out'));
    assert.match(validateInput(input({ record_dir: 'out/x' }), ctx) ?? '', 'a symbolic link leads out of');
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
    assert.equal(results.filter((r) => !r.ok), []);
    const removals = await Promise.all(names.slice(0, 10).map((name) => removeServer(name, ctx)));
    assert.equal(removals.filter((r) => !r.ok), []);
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
      for (;;) {
        const r = await addServer({ name: 'k' + process.pid + '-' + i++, description: 'x'.repeat(900), upstream: { kind: 'stdio', command: ['srv'], env: [] }, mode: 'record', flow: null, record_dir: null, decider: null, threshold: null }, ctx);
        if (!r.ok) throw new Error(r.message);
        // Ready once a registry exists: a kill before the first write would leave nothing to check.
        if (i === 1) process.stdout.write('ready\\n');
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
      endsWith(text, '}\n');
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
  const ctx = { dataDir: data, home: '/home/me', lookup: pathLookup(''), proxyBeside: null, flowFacts: async () => facts };
  const view = await serverView(entry, { count: 0, last_unix_ms: null }, async () => null, ctx);
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
    { count: 0, last_unix_ms: null },
    async () => null,
    ctx,
  );
  assert.equal(broken.issues, ["the flow's path cannot be used: ~root/x"]);
  const unloaded = await serverView({ ...entry, mode: 'serve', decider: null }, { count: 0, last_unix_ms: null }, async () => null, {
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

// A registry a later engine wrote, with a person's own notes: every write keeps what it does not set, in place.
const laterRetail = {
  name: 'retail',
  description: 'The retail shop, guarded',
  upstream: { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'retail'], env: [], cwd_hint: '/srv' },
  mode: 'serve',
  flow: 'retail.flow.json',
  record_dir: null,
  decider: null,
  threshold: 0.4,
  surprise: { kind: 'threshold', nats: 2.5 },
  flow_tools: ['get_order_details', 'get_user_details'],
  guards: true,
  judge: { mode: 'log', context: '~/.engine/context/retail.jsonl' },
  commit: true,
  retain_days: 30,
  listen: { addr: '127.0.0.1:8931', token_file: '~/.engine/proxy-token' },
  owner: 'ops team',
  created_unix_ms: 1000,
  updated_unix_ms: 2000,
};
const laterNotes = {
  name: 'notes',
  description: null,
  upstream: { kind: 'http', url: 'https://h.example/mcp', headers: [{ name: 'Authorization', env: 'NOTES_AUTH' }] },
  mode: 'record',
  flow: null,
  record_dir: null,
  decider: null,
  threshold: null,
  created_unix_ms: 3000,
  updated_unix_ms: 3000,
  x_reviewed: { by: 'me', on: '2026-11-01' },
};
const laterRegistry = () => ({ engine_servers: 1, written_by: 'engine 0.9', servers: [laterRetail, laterNotes], notes: ['keep me'] });
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A temp data dir holding the later registry; `check` gets its dir and the file's text after each write. */
async function withLaterRegistry(work: (dir: string, text: () => string) => Promise<void>) {
  const t = tempDir();
  try {
    writeFileSync(join(t.dir, 'servers.json'), pretty(laterRegistry()));
    await work(t.dir, () => readFileSync(join(t.dir, 'servers.json'), 'utf8'));
  } finally {
    t.cleanup();
  }
}

/** The request body the spec names, from a stored entry: its own values, none of the later fields. */
const specBody = (e: Record<string, unknown>, over: Partial<ServerInput> = {}): ServerInput => {
  const { name, description, mode, flow, record_dir, decider, threshold } = e as unknown as ServerInput;
  const up = e.upstream as Record<string, unknown>;
  const upstream =
    up.kind === 'stdio'
      ? { kind: 'stdio' as const, command: up.command as string[], env: up.env as string[] }
      : { kind: 'http' as const, url: up.url as string, headers: up.headers as { name: string; env: string }[] };
  return { name, description, upstream, mode, flow, record_dir, decider, threshold, ...over };
};

registry('a rewrite that changes nothing is byte for byte the file a later engine wrote', async () => {
  await withLaterRegistry(async (_dir, text) => {
    assert.fixture(registryText(parseRegistry(text())), pretty(laterRegistry()));
  });
});

registry('adding a server keeps every other entry, field and top-level key in place', async () => {
  await withLaterRegistry(async (dir, text) => {
    const added = await addServer(input({ name: 'fresh' }), { dataDir: dir, home: null, nowMs: 9 });
    assert.ok(added.ok);
    const fresh = {
      name: 'fresh', description: null, upstream: input().upstream, mode: 'record', flow: null, record_dir: null, decider: null,
      threshold: null, created_unix_ms: 9, updated_unix_ms: 9,
    };
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [laterRetail, laterNotes, fresh] }));
  });
});

registry("changing a description with the spec's fields keeps the policy, the unknown fields and their places", async () => {
  await withLaterRegistry(async (dir, text) => {
    const changed = await replaceServer('retail', specBody(laterRetail, { description: 'Guarded still' }), { dataDir: dir, home: null, nowMs: 7 });
    assert.ok(changed.ok);
    const want = { ...laterRetail, description: 'Guarded still', updated_unix_ms: 7 };
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [want, laterNotes] }));
  });
});

registry('a PUT that leaves fields out keeps them; one that sets a policy field changes only it', async () => {
  await withLaterRegistry(async (dir, text) => {
    const ctx = { dataDir: dir, home: null, nowMs: 7 };
    const bare = { name: 'retail', upstream: specBody(laterRetail).upstream, mode: 'serve' as const };
    assert.ok((await replaceServer('retail', bare, ctx)).ok);
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [{ ...laterRetail, updated_unix_ms: 7 }, laterNotes] }));
    assert.ok((await replaceServer('retail', { ...bare, retain_days: 7, guards: false, judge: null }, ctx)).ok);
    const want = { ...laterRetail, guards: false, judge: null, retain_days: 7, updated_unix_ms: 7 };
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [want, laterNotes] }));
  });
});

registry('renaming keeps every field of the entry in place', async () => {
  await withLaterRegistry(async (dir, text) => {
    // airline has policy guards too, so the entry stays valid under its new name.
    const renamed = await replaceServer('retail', specBody(laterRetail, { name: 'airline' }), { dataDir: dir, home: null, nowMs: 8 });
    assert.ok(renamed.ok);
    const want = { ...laterRetail, name: 'airline', updated_unix_ms: 8 };
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [want, laterNotes] }));
    // Under a name without guards, the kept guards refuse the rename, and nothing is written.
    const refused = await replaceServer('airline', specBody(laterRetail, { name: 'shop' }), { dataDir: dir, home: null, nowMs: 9 });
    assert.equal(refused, { ok: false, reason: 'invalid', message: 'guards: there are no policy guards for shop; retail and airline have them' });
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [want, laterNotes] }));
  });
});

registry('removing another entry keeps the rest byte for byte', async () => {
  await withLaterRegistry(async (dir, text) => {
    assert.equal(await removeServer('notes', { dataDir: dir, home: null, nowMs: 1 }), { ok: true });
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [laterRetail] }));
    assert.equal(await removeServer('retail', { dataDir: dir, home: null, nowMs: 1 }), { ok: true });
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [] }));
  });
});

registry('an entry without the later fields is written without them, even when a body sends their defaults', async () => {
  await withLaterRegistry(async (dir, text) => {
    const body = { ...specBody(laterNotes, { description: 'n' }), surprise: null, flow_tools: [], guards: false, judge: null, commit: false, retain_days: null, listen: null };
    assert.ok((await replaceServer('notes', body, { dataDir: dir, home: null, nowMs: 5 })).ok);
    assert.fixture(text(), pretty({ ...laterRegistry(), servers: [laterRetail, { ...laterNotes, description: 'n', updated_unix_ms: 5 }] }));
  });
});

registry('a new server with policy fields writes them after threshold, in the later order, trimmed', async () => {
  const t = tempDir();
  try {
    const body = {
      ...input({ name: 'retail' }),
      listen: { addr: ' 0.0.0.0:8931 ', token_file: '  ' },
      commit: true,
      flow_tools: [' get_order '],
      guards: true,
      judge: { mode: 'enforce' as const, context: ' ctx.jsonl ' },
      retain_days: 14,
    };
    assert.ok((await addServer(body, { dataDir: t.dir, home: null, nowMs: 1 })).ok);
    const written = JSON.parse(readFileSync(join(t.dir, 'servers.json'), 'utf8')).servers[0];
    assert.equal(Object.keys(written), [
      'name', 'description', 'upstream', 'mode', 'flow', 'record_dir', 'decider', 'threshold',
      'flow_tools', 'guards', 'judge', 'commit', 'retain_days', 'listen', 'created_unix_ms', 'updated_unix_ms',
    ]);
    assert.equal(written.flow_tools, ['get_order']);
    assert.equal(written.judge, { mode: 'enforce', context: 'ctx.jsonl' });
    assert.equal(written.listen, { addr: '0.0.0.0:8931' });
  } finally {
    t.cleanup();
  }
});

registry('the policy fields are refused with what is wrong', () => {
  const ctx = { dataDir: '/data', home: '/home/me' };
  const retail = (over: Partial<ServerInput>) => validateInput(input({ name: 'retail', ...over }), ctx);
  assert.is(retail({ surprise: { kind: 'threshold', nats: 0 } }), 'surprise 0: a threshold in nats, above 0');
  assert.is(retail({ surprise: { kind: 'threshold', nats: -1.5 } }), 'surprise -1.5: a threshold in nats, above 0');
  assert.is(retail({ surprise: { kind: 'threshold', nats: Infinity } }), 'surprise inf: a threshold in nats, above 0');
  assert.is(retail({ surprise: { kind: 'threshold', nats: 2.5 } }), null);
  assert.is(retail({ surprise: { kind: 'off' } }), null);
  assert.is(retail({ flow_tools: Array.from({ length: 257 }, (_, i) => `t${i}`) }), 'flow_tools: at most 256 tools');
  assert.is(retail({ flow_tools: Array.from({ length: 256 }, (_, i) => `t${i}`) }), null);
  for (const bad of ['', 'a,b', 'two words', 'x\ny', 'x'.repeat(129)]) {
    assert.is(retail({ flow_tools: ['ok', bad] }), `flow_tools: ${JSON.stringify(bad).replace('\\n', '\\n')} is not a tool's name`, bad);
  }
  assert.is(validateInput(input({ name: 'shop', guards: true }), ctx), 'guards: there are no policy guards for shop; retail and airline have them');
  assert.is(retail({ guards: true }), null);
  assert.is(validateInput(input({ name: 'airline', guards: true }), ctx), null);
  const judge = { mode: 'log' as const, context: '~/.engine/context/retail.jsonl' };
  assert.is(retail({ guards: false, judge }), 'the confirmation judge asks about the writes the guards check: turn the guards on');
  assert.is(retail({ guards: true, judge }), null);
  for (const context of ['', '  ', 'a\nb', 'x'.repeat(4097)]) {
    assert.is(retail({ guards: true, judge: { mode: 'enforce', context } }), "the judge's context: the file the host appends the conversation to");
  }
  assert.is(retail({ retain_days: 0 }), 'retain_days: at least one day');
  assert.is(retail({ retain_days: 1.5 }), 'retain_days 1.5: a whole number of days, at least one');
  assert.is(retail({ retain_days: -3 }), 'retain_days -3: a whole number of days, at least one');
  assert.is(retail({ retain_days: 1 }), null);
  for (const addr of ['127.0.0.1:8931', '0.0.0.0:1', '[::]:8931', 'localhost:65535']) assert.is(retail({ listen: { addr } }), null, addr);
  for (const addr of ['', '8931', 'localhost', 'a b:1', 'h:0', 'h:70000', 'http://h:1']) {
    assert.is(
      retail({ listen: { addr } }),
      `listen: ${JSON.stringify(addr)} is not an address to listen on: give a host and a port, such as 127.0.0.1:8931`,
      addr,
    );
  }
  assert.is(
    retail({ listen: { addr: '127.0.0.1:1', token_file: 'a\u0007b' } }),
    'listen: the token file is the path of the file that holds the token hosts send',
  );
});

registry.run();
