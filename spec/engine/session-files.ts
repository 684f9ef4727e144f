// Helpers of the sessions specs (not a spec itself): the files of a session log as the catalogue gives
// them, and every session log of the fixture home.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionFiles } from '../../server/engine/sessions.ts';
import { fixtureHome, requireFixtures } from '../support/fixtures.ts';

/** The files of the session log at `rel` under `home`, with its companions when they exist. */
export function filesAt(home: string, rel: string): SessionFiles {
  const path = join(home, rel);
  const stem = path.slice(0, -'.jsonl'.length);
  const companion = (suffix: string) => (existsSync(stem + suffix) ? stem + suffix : null);
  return {
    key: rel.split('/').pop()!.slice(0, -'.jsonl'.length),
    rel,
    path,
    flowLog: companion('.flow.jsonl'),
    confirmLog: companion('.confirm.jsonl'),
  };
}

/** Every session log of the fixture home (its keys are its stems: no two are equal). */
export function fixtureSessions(): SessionFiles[] {
  requireFixtures();
  const out: SessionFiles[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(fixtureHome, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.jsonl') && !entry.name.endsWith('.flow.jsonl') && !entry.name.endsWith('.confirm.jsonl')) {
        out.push(filesAt(fixtureHome, child));
      }
    }
  };
  walk('');
  return out;
}
