// A focused figure, not part of `npm run bench`: the biggest session's outline (what its first turn waits
// for) asked for right after start, while the cold index runs, and /api/health polled meanwhile. Shows
// whether a request's pool work waits behind index batches.
//   tsx spec/bench/interactive-first.ts [--sessions N] [--big MB] [--home DIR (kept, generated once)] [--runs N]
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { generateHome } from '../../scripts/synth/home.ts';
import { launch } from '../support/launch.ts';
import { tempDir } from '../support/fixtures.ts';
import { jsonlFiles } from './measure.ts';

const { values } = parseArgs({ options: { sessions: { type: 'string' }, big: { type: 'string' }, home: { type: 'string' }, runs: { type: 'string' } } });
const sessions = Number(values.sessions ?? 10_000);
const bigMb = Number(values.big ?? 50);
const runs = Number(values.runs ?? 3);
const home = values.home ?? tempDir('engine-lanes-').dir;

if (!existsSync(`${home}/logs`)) {
  const t = performance.now();
  await generateHome({ dir: home, sessions, big: [bigMb] });
  console.log(`generated ${sessions} sessions and a ${bigMb} MB log in ${((performance.now() - t) / 1000).toFixed(1)} s at ${home}`);
}
const biggest = jsonlFiles(home)
  .map((path) => ({ path, bytes: statSync(path).size }))
  .sort((a, b) => b.bytes - a.bytes)[0]!;
const key = basename(biggest.path, '.jsonl');

for (let run = 0; run < runs; run++) {
  const c = await launch({ dataDir: home });
  let healthMax = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const t = performance.now();
      await (await c.api('/api/health')).arrayBuffer();
      healthMax = Math.max(healthMax, performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t = performance.now();
  const res = await c.api(`/api/sessions/${encodeURIComponent(key)}/outline`);
  await res.arrayBuffer();
  const outlineMs = performance.now() - t;
  const list = (await (await c.api('/api/sessions?limit=1')).json()) as { indexing?: { indexed: number; total: number } };
  polling = false;
  await poller;
  const indexing = list.indexing ? `index still running (${list.indexing.indexed}/${list.indexing.total})` : 'index done';
  console.log(`run ${run + 1}: outline of ${key} (${(biggest.bytes / 1e6).toFixed(0)} MB) ${res.status} in ${outlineMs.toFixed(0)} ms, ${indexing}; /api/health max ${healthMax.toFixed(0)} ms; load ${loadavg()[0]!.toFixed(1)}`);
  await c.stop();
}
