import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { history, stagePaths, type StagePaths } from '../../server/engine/stage.ts';
import { build } from 'esbuild';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { stageShop } from '../support/stage-fixtures.ts';

const kill = suite('stage-kill');

// The child is bundled once (esbuild) so each of the many short runs starts as plain node, not through tsx.
let bundle = { dir: '', cleanup: () => {} };
let churnScript = '';
kill.before(async () => {
  bundle = tempDir('stage-churn-');
  churnScript = join(bundle.dir, 'stage-churn.mjs');
  await build({
    entryPoints: [join(repoRoot, 'spec/support/stage-churn.ts')],
    outfile: churnScript,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
});
kill.after(() => bundle.cleanup());

/** Self-kills after write 1, 2, …: the first commit keeps a found version (2 writes), then its own (2), then
 *  writes the committed flow (1); the rollback after it writes 3 more. */
const BOUNDARIES = 8;
/** Records on disk after each of those writes (1.flow.json, 1.json, 2.flow.json, 2.json, committed, 3.flow.json, 3.json, committed). */
const RECORDS_AFTER = [0, 1, 1, 2, 2, 2, 3, 3];
/** Kills from outside, at a moment the child is in the middle of its next step. */
const OUTSIDE = 4;

/**
 * Run the churn child until it is killed: by itself after `killAfter` writes, or by us with SIGKILL once it
 * has finished `steps` steps and started the next (a few ms later, so the kill lands inside a step).
 */
async function churn(committed: string, how: { killAfter: number } | { steps: number; delayMs: number }): Promise<void> {
  const args = [churnScript, committed];
  if ('killAfter' in how) args.push(String(how.killAfter));
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  if ('steps' in how) {
    let done = 0;
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        done += c.split('\n').filter((l) => l === 'done').length;
        if (done >= how.steps) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the churn child exited (${code}) before it was killed:\n${err}`)));
    });
    await new Promise((r) => setTimeout(r, how.delayMs));
    child.kill('SIGKILL');
  } else {
    child.stdout.resume();
  }
  const signal = await exited;
  assert.is(signal, 'SIGKILL', `the churn child was not killed:\n${err}`);
}

/** Every file is whole: the committed flow and each version's flow are the old or the new bytes, and every
 *  record parses; the versions run 1..N without a gap. */
async function checkWhole(paths: StagePaths, old: Buffer, staged: Buffer, when: string): Promise<number> {
  const whole = (bytes: Buffer) => bytes.equals(old) || bytes.equals(staged);
  assert.ok(whole(readFileSync(paths.committed)), `${when}: the committed flow is partial`);
  const names = existsSync(paths.history) ? readdirSync(paths.history) : [];
  for (const name of names.filter((n) => !n.startsWith('.'))) {
    const bytes = readFileSync(join(paths.history, name));
    if (name.endsWith('.flow.json')) assert.ok(whole(bytes), `${when}: ${name} is partial`);
    else JSON.parse(bytes.toString('utf8'));
  }
  const versions = await history(paths);
  for (const r of versions) assert.ok(whole(readFileSync(join(paths.history, `${r.version}.flow.json`))));
  assert.equal(
    versions.map((r) => r.version),
    versions.map((_, i) => i + 1),
    `${when}: the versions have a gap`,
  );
  return versions.length;
}

kill('a kill between any two files of a commit or rollback leaves every file whole', async () => {
  for (let n = 1; n <= BOUNDARIES; n++) {
    const { dir, cleanup } = copyHome();
    try {
      const paths = stagePaths(join(dir, 'shop.flow.json'));
      const old = readFileSync(paths.committed);
      const staged = stageShop(dir);
      await churn(paths.committed, { killAfter: n });
      const versions = await checkWhole(paths, old, staged, `killed after write ${n}`);
      // Exactly the files written before the kill are there: the records written, and the committed flow
      // replaced only by the last write of a step.
      assert.is(versions, RECORDS_AFTER[n - 1], `killed after write ${n}`);
      const committed = readFileSync(paths.committed);
      const replaced = n >= 5 && n < 8;
      assert.is(committed.toString('utf8'), (replaced ? staged : old).toString('utf8'), `killed after write ${n}: the committed flow`);
    } finally {
      cleanup();
    }
  }
});

kill('a kill in the middle of a commit or rollback leaves the committed flow and history whole', async () => {
  const { dir, cleanup } = copyHome();
  try {
    const paths = stagePaths(join(dir, 'shop.flow.json'));
    const old = readFileSync(paths.committed);
    const staged = stageShop(dir);
    let before = 0;
    for (let round = 0; round < OUTSIDE; round++) {
      await churn(paths.committed, { steps: 1 + (round % 2), delayMs: round * 3 });
      const now = await checkWhole(paths, old, staged, `round ${round}`);
      // The round finished at least one step, so the history grew.
      assert.ok(now > before, `round ${round}: no new version`);
      before = now;
    }
  } finally {
    cleanup();
  }
});

kill.run();
