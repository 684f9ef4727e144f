// The project's own sources parsed by the TypeScript compiler (its server and client projects), for the
// architecture specs that check the shape of functions and declarations.
import { join } from 'node:path';
import type { Node, SourceFile } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';
import { repoRoot } from './fixtures.ts';
import { sourceFiles } from './source-files.ts';

const PROJECTS = ['tsconfig.json', 'client/tsconfig.json'];

/** Every source file (as `sourceFiles()` lists them) parsed, by repository-relative path. */
export function parsedSources(): Map<string, SourceFile> {
  const wanted = new Set(sourceFiles());
  const out = new Map<string, SourceFile>();
  const api = new API({ cwd: repoRoot });
  try {
    const snapshot = api.updateSnapshot({ openProjects: PROJECTS.map((p) => join(repoRoot, p)) });
    for (const project of snapshot.getProjects()) {
      for (const name of project.program.getSourceFileNames()) {
        const rel = name.startsWith(`${repoRoot}/`) ? name.slice(repoRoot.length + 1) : name;
        if (!wanted.has(rel) || out.has(rel)) continue;
        const file = project.program.getSourceFile(name);
        if (file) out.set(rel, file);
      }
    }
  } finally {
    api.close();
  }
  return out;
}

/** Calls `visit` on every node of the file, depth first. */
export function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  node.forEachChild((child) => {
    walk(child, visit);
    return undefined;
  });
}

/** The 1-based line a position is on. */
export function lineOf(file: SourceFile, pos: number): number {
  return file.getLineAndCharacterOfPosition(pos).line + 1;
}
