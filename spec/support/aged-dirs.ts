// A home whose directories last changed a while ago, as one the proxy has not written to lately: the saved index
// keeps such directories (saved-tree.ts), where one copied just now is too fresh to be kept.
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** Every directory under `dir` (and itself) dated a minute back. */
export function ageDirs(dir: string): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) if (d.isDirectory()) ageDirs(join(dir, d.name));
  const past = new Date(Date.now() - 60_000);
  utimesSync(dir, past, past);
}
