// The summary format's version: a hash of the code that makes, carries and saves the index's summaries
// (server/store/summary-sources.json), so a saved index made by other code is never trusted. Used by the
// build (injected) and, when the console runs from source, at start.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function filesUnder(root, rel) {
  const path = join(root, rel);
  if (!statSync(path).isDirectory()) return [rel];
  return readdirSync(path).sort().flatMap((name) => filesUnder(root, `${rel}/${name}`));
}

/** `root`: the repository. */
export function summaryFormat(root) {
  const sources = JSON.parse(readFileSync(join(root, 'server/store/summary-sources.json'), 'utf8'));
  const hash = createHash('sha256');
  for (const rel of sources.flatMap((s) => filesUnder(root, s)).sort()) {
    hash.update(`${rel}\u0000`);
    hash.update(readFileSync(join(root, rel)));
    hash.update('\u0000');
  }
  return hash.digest('hex').slice(0, 32);
}
