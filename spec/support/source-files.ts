// The project's own TypeScript sources (server/, shared/, client/, bin/) and their relative imports, read as
// text: the architecture specs check the shape of the code without loading it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from './fixtures.ts';

export const SOURCE_ROOTS = ['server', 'shared', 'client/src', 'client/build', 'bin'];

/** Every .ts/.tsx file under the source roots, as paths relative to the repository. */
export function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(repoRoot, full));
    }
  };
  for (const root of SOURCE_ROOTS) {
    const full = join(repoRoot, root);
    try {
      if (statSync(full).isDirectory()) walk(full);
    } catch {
      // a root that is not there has no files
    }
  }
  return out;
}

export function sourceText(rel: string): string {
  return readFileSync(join(repoRoot, rel), 'utf8');
}

// Static imports and re-exports (type-only ones too: a type cycle is a cycle of layers) and dynamic imports.
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The repository-relative files this file imports by a relative path. */
export function importsOf(rel: string, text: string = sourceText(rel)): string[] {
  const out = new Set<string>();
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (!spec || !spec.startsWith('.')) continue;
    out.add(relative(repoRoot, resolve(join(repoRoot, dirname(rel)), spec)));
  }
  return [...out];
}
