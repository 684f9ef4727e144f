// The shared fixtures, read in place from ../shared/fixtures (never copied into the repo). Tests that write
// get a temp copy. Under CI a missing fixture tree is a failure, not a skip.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const fixturesDir = resolve(repoRoot, '../shared/fixtures');
export const fixtureHome = join(fixturesDir, 'home');
export const referenceDir = resolve(repoRoot, '../shared/reference');

export function requireFixtures(): void {
  if (!existsSync(fixtureHome)) {
    throw new Error(`the shared fixtures are missing at ${fixturesDir}: clone with ../shared beside the repo`);
  }
}

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = 'engine-console-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A temp copy of ../shared/fixtures/home, to test anything that writes. */
export function copyHome(): { dir: string; cleanup: () => void } {
  requireFixtures();
  const t = tempDir('engine-home-');
  cpSync(fixtureHome, t.dir, { recursive: true });
  return t;
}

/** The CLI's printed texts (flow-show, flow-diff, promote, audit) from cli-outputs/texts.json. */
export async function cliTexts(): Promise<Record<string, unknown>> {
  requireFixtures();
  return JSON.parse(readFileSync(join(fixturesDir, 'cli-outputs/texts.json'), 'utf8')) as Record<string, unknown>;
}

/** An expected text of our own, from spec/fixtures (see its README for where each one comes from). */
export function expectedText(rel: string): string {
  return readFileSync(join(repoRoot, 'spec/fixtures', rel), 'utf8');
}
