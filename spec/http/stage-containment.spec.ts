// Staged learning stays inside the data directory: with NAME.history (or a file in it) a symbolic link that
// leads out, the stage view reads nothing from there (422), a rollback or commit writes nothing there and
// installs none of its bytes as the committed flow (422), and a stage job is refused (400).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { stageShop } from '../support/stage-fixtures.ts';

const contained = suite('stage containment');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');
let c: Launched;
let R = '';
let outside = '';
const cleanups: (() => void)[] = [];

const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

async function error(res: Response, status: number): Promise<string> {
  assert.is(res.status, status, await res.clone().text());
  return v.parse(ErrorBodySchema, await res.json()).error;
}

/** Every file under `dir` with its bytes, to show nothing there changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = readFileSync(join(dir, name), 'utf8');
  return out;
}

contained.before(async () => {
  const h = copyHome();
  const t = tempDir('engine-outside-');
  cleanups.push(h.cleanup, t.cleanup);
  R = realpathSync(h.dir);
  outside = realpathSync(t.dir);
  c = await launch({ dataDir: R, args: ['--engine', FAKE] });
  // A real history of two versions (the flow as found, then the staged one committed), made by the console.
  stageShop(R);
  assert.is((await c.api('/api/flows/shop/commit', post({ note: 'first' }))).status, 200);
});
contained.after(async () => {
  await c?.stop();
  cleanups.forEach((f) => f());
});

contained('a history that is a link out of the data directory is neither read nor written', async () => {
  const hist = join(outside, 'hist');
  cpSync(join(R, 'shop.history'), hist, { recursive: true });
  // The outside copy's version 1 holds other bytes: a rollback through the link would install them.
  writeFileSync(join(hist, '1.flow.json'), readFileSync(join(R, 'shop.promoted.flow.json')));
  rmSync(join(R, 'shop.history'), { recursive: true });
  symlinkSync(hist, join(R, 'shop.history'));
  const committed = readFileSync(join(R, 'shop.flow.json'), 'utf8');
  const before = snapshot(hist);

  assert.match(await error(await c.api('/api/flows/shop/stage'), 422), 'shop.history is a symbolic link that leads out of the data directory');
  assert.match(await error(await c.api('/api/flows/shop.staged/stage'), 422), 'shop.history');
  assert.match(await error(await c.api('/api/flows/shop/rollback', post({})), 422), 'shop.history');
  assert.match(await error(await c.api('/api/flows/shop/rollback', post({ to: 1 })), 422), 'shop.history');
  assert.match(await error(await c.api('/api/flows/shop/commit', post({})), 422), 'shop.history');
  const job = await error(await c.api('/api/jobs', post({ kind: 'stage', flow: 'shop', sessions: 'logs/shop' })), 400);
  assert.match(job, /^flow: shop\.history is a symbolic link/);

  assert.equal(snapshot(hist), before, 'nothing was written outside');
  assert.is(readFileSync(join(R, 'shop.flow.json'), 'utf8'), committed, 'the committed flow is as it was');
  rmSync(join(R, 'shop.history'));
  renameSync(hist, join(R, 'shop.history'));
});

contained('a version file that is a link out is refused, and one that stays inside is read', async () => {
  const v1 = join(R, 'shop.history', '1.flow.json');
  const original = readFileSync(v1);
  const elsewhere = join(outside, 'v1.flow.json');
  writeFileSync(elsewhere, readFileSync(join(R, 'shop.promoted.flow.json')));
  rmSync(v1);
  symlinkSync(elsewhere, v1);
  const committed = readFileSync(join(R, 'shop.flow.json'), 'utf8');
  assert.match(await error(await c.api('/api/flows/shop/rollback', post({ to: 1 })), 422), 'shop.history/1.flow.json is a symbolic link');
  assert.is(readFileSync(join(R, 'shop.flow.json'), 'utf8'), committed);
  assert.equal(readdirSync(join(R, 'shop.history')).sort(), ['1.flow.json', '1.json', '2.flow.json', '2.json']);

  // A link that stays inside is no escape: the view answers.
  rmSync(v1);
  const inside = join(R, 'v1-kept.flow.json.bak');
  writeFileSync(inside, original);
  symlinkSync(inside, v1);
  assert.is((await c.api('/api/flows/shop/stage')).status, 200);
});

contained('a staged flow or state that is a dangling link is refused, since writing through it would land outside', async () => {
  const staged = join(R, 'shop.staged.flow.json');
  const bytes = readFileSync(staged);
  rmSync(staged);
  symlinkSync(join(outside, 'nowhere', 'x.flow.json'), staged);
  assert.match(await error(await c.api('/api/flows/shop/stage'), 422), 'shop.staged.flow.json is a symbolic link');
  rmSync(staged);
  writeFileSync(staged, bytes);
  symlinkSync(join(outside, 'state.json'), join(R, 'shop.stage.json'));
  assert.match(await error(await c.api('/api/flows/shop/stage'), 422), 'shop.stage.json is a symbolic link');
  rmSync(join(R, 'shop.stage.json'));
  assert.is((await c.api('/api/flows/shop/stage')).status, 200);
});

contained.run();
