import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { SettingsSchema } from '../../shared/settings.ts';
import { fixtureHome, repoRoot } from '../support/fixtures.ts';
import { launch } from '../support/launch.ts';

const settings = suite('settings api');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');

function sizes(dir: string, rel = ''): { rel: string; size: number }[] {
  const out: { rel: string; size: number }[] = [];
  for (const name of readdirSync(dir)) {
    const r = rel ? `${rel}/${name}` : name;
    const st = statSync(join(dir, name));
    if (st.isDirectory()) out.push(...sizes(join(dir, name), r));
    else out.push({ rel: r, size: st.size });
  }
  return out;
}

settings('settings give the disk by kind, the four binaries, the key as a boolean and the retention note', async () => {
  const c = await launch({ args: ['--engine', FAKE], env: { TYPESAFE_API_KEY: 'sk-very-secret-value' } });
  try {
    const res = await c.api('/api/settings');
    assert.is(res.status, 200);
    const text = await res.text();
    assert.not.match(text, 'sk-very-secret-value', 'the key is never answered');
    const s = v.parse(SettingsSchema, JSON.parse(text));
    const files = sizes(fixtureHome);
    const sum = (f: (r: string) => boolean) => files.filter((x) => f(x.rel)).reduce((n, x) => n + x.size, 0);
    assert.equal(s.disk, {
      logs_bytes: sum((r) => r.endsWith('.jsonl')),
      flows_bytes: sum((r) => r.endsWith('.flow.json')),
      cache_bytes: 0,
      other_bytes: sum((r) => !r.endsWith('.jsonl') && !r.endsWith('.flow.json')),
      total_bytes: sum(() => true),
    });
    assert.is(s.sessions, 12);
    assert.is(s.flows, 2);
    assert.is(s.key_set, true);
    assert.equal(s.binaries.map((b) => b.name), ['engine', 'engine-proxy', 'engine-procedure', 'engine-mcp-demo']);
    assert.equal(s.binaries[0], { name: 'engine', path: FAKE, version: 'engine 0.1.0' });
    assert.is(
      s.retention_note,
      'engine-proxy --retain-days N deletes, when it starts, the session logs (with the flow and confirmation logs beside them) and the cached answers older than N days in its --record and --oracle-cache directories. The console deletes nothing: a session or flow deleted here is moved to console/trash/ in the data directory, to empty when you choose. docs/privacy.md lists what each file holds.',
    );
    assert.is(s.read_only, false);
    assert.is(s.auth, true);
    assert.is(s.data_dir.length > 0, true);
  } finally {
    await c.stop();
  }
});

settings('without a key, key_set is false', async () => {
  const c = await launch({ args: ['--read-only'] });
  try {
    const s = v.parse(SettingsSchema, await (await c.api('/api/settings')).json());
    assert.is(s.key_set, false);
    assert.is(s.read_only, true);
  } finally {
    await c.stop();
  }
});

settings.run();
