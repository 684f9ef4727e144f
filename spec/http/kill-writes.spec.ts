// SIGKILL of the console while it writes: a client commits and rolls back the staged flow, runs jobs and
// changes the registry as fast as the console answers, and the console is killed at a random moment, many
// times over the same data directory. After each kill, every file the console writes is whole (old or new:
// the committed flow loads, every history record, job record and servers.json parses), its workers are gone,
// and the next console starts and serves them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadFlow } from '../../server/engine/flows.ts';
import { parseRegistry } from '../../server/data/registry.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { stageShop } from '../support/stage-fixtures.ts';

const kills = suite('kill mid-write');
const home = copyHome();
kills.after(() => home.cleanup());

const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');
const ROUNDS = 10;

const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

/** Writes through every route that writes, one after another, until the console stops answering. */
async function churn(c: Launched, round: number, warm: () => void): Promise<number> {
  let answered = 0;
  for (let i = 0; ; i++) {
    try {
      const calls = [
        c.api('/api/flows/shop/commit', json({ note: `round ${round}.${i}` })),
        c.api('/api/flows/shop/rollback', json({})),
        c.api('/api/jobs', json({ kind: 'doctor' })),
        c.api('/api/servers', json({ name: `s${round}-${i}`, upstream: { kind: 'stdio', command: ['x'] }, mode: 'record' })),
      ];
      for (const res of await Promise.all(calls)) {
        await res.arrayBuffer();
        answered++;
      }
      if (i === 0) warm();
    } catch {
      return answered;
    }
  }
}

/** Children of a process (its workers), by /proc. */
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

function checkWhole(dir: string): void {
  const committed = readFileSync(join(dir, 'shop.flow.json'), 'utf8');
  loadFlow(committed);
  const historyDir = join(dir, 'shop.history');
  if (existsSync(historyDir)) {
    for (const name of readdirSync(historyDir)) {
      if (name.startsWith('.')) continue;
      const text = readFileSync(join(historyDir, name), 'utf8');
      if (name.endsWith('.flow.json')) loadFlow(text);
      else if (name.endsWith('.json')) JSON.parse(text);
    }
  }
  const jobs = join(dir, 'console', 'jobs');
  if (existsSync(jobs)) {
    for (const name of readdirSync(jobs)) {
      if (!name.startsWith('.') && name.endsWith('.json')) JSON.parse(readFileSync(join(jobs, name), 'utf8'));
    }
  }
  parseRegistry(readFileSync(join(dir, 'servers.json'), 'utf8'));
}

kills('a console killed at random moments of its writes leaves every file whole, and no worker behind', async () => {
  stageShop(home.dir);
  let answeredInAll = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const c = await launch({ dataDir: home.dir, args: ['--engine', FAKE] });
    const pid = c.child.pid!;
    let warmed = () => {};
    const warm = new Promise<void>((r) => (warmed = r));
    const work = churn(c, round, warmed);
    // Kill once writes are under way (the workers have started), at a moment that differs each round.
    await Promise.race([warm, new Promise((r) => setTimeout(r, 5_000))]);
    await new Promise((r) => setTimeout(r, (round * 37) % 250));
    const workers = children(pid);
    c.child.kill('SIGKILL');
    await new Promise((r) => c.child.once('exit', r));
    answeredInAll += await work;
    checkWhole(home.dir);
    // The workers end with the console (their channel to it closed).
    for (let i = 0; i < 50 && workers.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(workers.filter(alive), [], `round ${round}: workers left behind`);
  }
  assert.ok(answeredInAll > ROUNDS, `only ${answeredInAll} writes were answered: the kills did not land among writes`);
  // Commits, rollbacks and job records were written indeed.
  assert.ok(readdirSync(join(home.dir, 'shop.history')).filter((n) => n.endsWith('.flow.json')).length > 1);
  assert.ok(readdirSync(join(home.dir, 'console', 'jobs')).filter((n) => n.endsWith('.json')).length > 1);
  // The next console starts over those files and serves them.
  const c = await launch({ dataDir: home.dir, args: ['--engine', FAKE] });
  try {
    assert.is((await c.api('/api/flows/shop')).status, 200);
    assert.is((await c.api('/api/jobs')).status, 200);
    assert.is((await c.api('/api/servers')).status, 200);
  } finally {
    await c.stop();
  }
});

kills.run();
