// Error pages offer the actions that fit: a session in the trash says so, since when, and restores; "Try
// again" shows only for errors that can pass (the network, a 5xx), never for a 404 or a 422.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { axe, openUi, type Ui } from './support.ts';

const errors = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e error page actions');

const BAD = '20261105T000000.000Z-8180';

errors.before(async (ctx) => {
  ctx.home = copyHome();
  mkdirSync(join(ctx.home.dir, 'logs/shop'), { recursive: true });
  writeFileSync(join(ctx.home.dir, 'logs/shop', `${BAD}.jsonl`), 'this is not a session log\n');
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
errors.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

const tryAgain = (ui: Ui) => ui.page.getByRole('button', { name: 'Try again' });

errors('a session in the trash says so, since when, and Restore brings it back', async ({ ui }) => {
  const key = '20260928T020401.195Z-14715';
  assert.is((await ui.console.api(`/api/sessions/${key}`, { method: 'DELETE' })).status, 200);
  await ui.page.goto(`${ui.console.url}/sessions/${key}`);
  const p = ui.page;
  const gone = p.getByTestId('session-in-trash');
  await gone.getByText('This session is in the trash').waitFor();
  assert.match((await gone.textContent()) ?? '', /served\/shop\/20260928T020401\.195Z-14715\.jsonl was moved to the trash (just now|\d+ min ago)/);
  assert.is(await tryAgain(ui).count(), 0);
  assert.is(await p.getByText('404').count(), 0, 'no bare status code');
  assert.equal(await axe(p), [], 'axe finds nothing on the page');
  await gone.getByRole('button', { name: 'Restore' }).click();
  await p.getByRole('tab', { name: /Timeline/ }).waitFor();
  assert.is((await ui.console.api(`/api/sessions/${key}`)).status, 200);
  ui.allowErrors(/404/);
  ui.assertNoErrors();
});

errors('no such session: no Try again, a way to the list', async ({ ui }) => {
  await ui.page.goto(`${ui.console.url}/sessions/20200101T000000.000Z-1`);
  const p = ui.page;
  await p.getByRole('heading', { name: 'No such session' }).waitFor();
  assert.is(await tryAgain(ui).count(), 0);
  await p.getByRole('link', { name: 'All sessions' }).waitFor();
  ui.allowErrors(/404/);
  ui.assertNoErrors();
});

errors('a log that does not read (422): no Try again', async ({ ui }) => {
  assert.is((await ui.console.api(`/api/sessions/${BAD}`)).status, 422);
  await ui.page.goto(`${ui.console.url}/sessions/${BAD}`);
  const p = ui.page;
  await p.locator('.error-state').waitFor();
  assert.is(await tryAgain(ui).count(), 0);
  ui.allowErrors(/422/);
  ui.assertNoErrors();
});

errors('a server error (503) offers Try again, which loads the page once it passes', async ({ ui }) => {
  const p = ui.page;
  const key = '20260928T020401.117Z-14662';
  let failing = true;
  await p.route(`**/api/sessions/${key}/outline*`, (route) => (failing ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"busy"}' }) : route.fallback()));
  await p.goto(`${ui.console.url}/sessions/${key}`);
  await tryAgain(ui).waitFor();
  failing = false;
  await tryAgain(ui).click();
  await p.getByRole('tab', { name: /Timeline/ }).waitFor();
  await p.unroute(`**/api/sessions/${key}/outline*`);
  ui.allowErrors(/503/);
  ui.assertNoErrors();
});

errors.run();
