import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { history, stagePaths } from '../../server/engine/stage.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';
import { stageShop } from '../support/stage-fixtures.ts';

const kill = suite('stage-kill');

const ROUNDS = 8;

/** Start the churn child, let it run a little, kill it with SIGKILL, and wait until it is gone. */
async function churnAndKill(committed: string, afterMs: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'spec/support/stage-churn.ts'), committed], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      if (c.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the churn child exited (${code}) before it was killed:\n${err}`)));
  });
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill('SIGKILL');
  await exited;
}

kill('a kill during commit or rollback leaves the committed flow and every version whole', async () => {
  const { dir, cleanup } = copyHome();
  try {
    const paths = stagePaths(join(dir, 'shop.flow.json'));
    const old = readFileSync(paths.committed);
    const staged = stageShop(dir);
    const whole = (bytes: Buffer) => bytes.equals(old) || bytes.equals(staged);
    let seen = 0;
    let mid = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Spread the kills over the first writes and well into the loop.
      await churnAndKill(paths.committed, (round * 37) % 160);
      assert.ok(whole(readFileSync(paths.committed)), `round ${round}: the committed flow is partial`);
      const names = existsSync(paths.history) ? readdirSync(paths.history) : [];
      for (const name of names.filter((n) => !n.startsWith('.'))) {
        const bytes = readFileSync(join(paths.history, name));
        if (name.endsWith('.flow.json')) assert.ok(whole(bytes), `round ${round}: ${name} is partial`);
        else JSON.parse(bytes.toString('utf8'));
      }
      // Every record parses, and its version's flow is there and whole.
      const versions = await history(paths);
      for (const r of versions) assert.ok(whole(readFileSync(join(paths.history, `${r.version}.flow.json`))));
      assert.equal(
        versions.map((r) => r.version),
        versions.map((_, i) => i + 1),
        `round ${round}: the versions have a gap`,
      );
      seen = versions.length;
      // Killed between writing a version and the committed flow: the CLI's files allow it (unrecorded).
      const latest = versions.at(-1);
      if (latest && !readFileSync(join(paths.history, `${latest.version}.flow.json`)).equals(readFileSync(paths.committed))) mid++;
    }
    // The children did work between the kills: the test would prove nothing otherwise.
    assert.ok(seen >= ROUNDS, `only ${seen} versions after ${ROUNDS} rounds`);
    if (process.env.STAGE_KILL_VERBOSE) console.log(`${seen} versions; ${mid} kills between a version and the committed flow`);
  } finally {
    cleanup();
  }
});

kill.run();
