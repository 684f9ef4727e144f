// A developer's tool, not a test: one thread's summary of every log of a generated home against the bare
// read + JSON.parse of the same bytes. `tsx spec/bench/profile-summary.ts DIR [N]` (generates DIR if empty).
import { existsSync, readdirSync } from 'node:fs';
import { buildCatalog } from '../../server/data/catalog.ts';
import { sessionSummary } from '../../server/engine/sessions.ts';
import { generateHome } from '../../scripts/synth/home.ts';
import { bareParse, jsonlFiles } from './measure.ts';

const dir = process.argv[2] ?? '/tmp/prof/home';
const n = Number(process.argv[3] ?? 2000);
if (!existsSync(dir) || readdirSync(dir).length === 0) await generateHome({ dir, sessions: n, seed: 5, big: [] });
const files = jsonlFiles(dir);
const catalog = buildCatalog(dir);
for (let round = 0; round < 3; round++) {
  const bare = bareParse(files);
  const t0 = performance.now();
  let ok = 0;
  for (const f of catalog.sessions) {
    try {
      sessionSummary(f);
      ok++;
    } catch {
      // unreadable
    }
  }
  const ms = performance.now() - t0;
  console.log(`round ${round}: summaries ${ms.toFixed(0)} ms for ${ok} logs; bare ${bare.ms.toFixed(0)} ms for ${(bare.bytes / 1048576).toFixed(1)} MB (${bare.lines} lines): ${(ms / bare.ms).toFixed(2)}×`);
}
