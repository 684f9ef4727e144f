// Job trust in a real browser: the new-job page shows the command the server plans, and the job runs that
// command byte for byte; a promote that writes over a flow says what it replaced and links to the old file
// in the trash, where it can be restored; the parameters say which values are defaults.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const trust = suite<{ ui: Ui }>('e2e job trust');

trust.before(async (ctx) => {
  ctx.ui = await openUi();
});
trust.after(async (ctx) => {
  await ctx.ui?.stop();
});

trust('the command shown is the command the job runs, and a replaced flow waits in the trash', async ({ ui }) => {
  const p = ui.page;
  const R = ui.console.dataDir;
  const old = readFileSync(join(R, 'shop.promoted.flow.json'), 'utf8');
  await ui.goto('/jobs/new?kind=promote&flow=shop');
  await p.getByLabel('Replace an existing flow').check();
  const command = p.getByTestId('job-command').filter({ hasText: '--report' });
  await command.waitFor();
  const shown = (await command.textContent()) ?? '';
  assert.match(shown, /^engine promote --flow \S+\/shop\.flow\.json --sessions \S+\/shadow\/shop --oracle-cache \S+\/oracle-cache --threshold 0\.3 /);
  assert.match(shown, / --report \S+\/console\/jobs\/\S+\.promote\.md$/);
  await settle(p);
  await ui.check('job-trust-preview');

  await p.getByTestId('job-start').click();
  await p.waitForURL(/\/jobs\/[^/]+$/);
  await p.getByRole('heading', { name: /Succeeded/ }).waitFor({ timeout: 15_000 });
  // A promote that succeeded opens on its report: the output is read as the page's API gives it.
  const jobId = decodeURIComponent(p.url().split('/').pop() ?? '');
  const output = ((await (await ui.console.api(`/api/jobs/${jobId}`)).json()) as { output: string }).output;
  assert.ok(output.startsWith(`$ ${shown}\n`), `the output's first line is the command shown:\n${shown}\n${output.slice(0, 400)}`);

  // What it replaced, with the old file's place in the trash.
  const replaced = p.getByTestId('job-replaced');
  await replaced.waitFor();
  assert.match((await replaced.textContent()) ?? '', /shop\.promoted\.flow\.jsonThe old file is in the trash, as console\/trash\/\d+\/shop\.promoted\.flow\.json: restore it from there\./);
  // Parameters: defaults say so, and the cache left empty is not listed.
  const params = p.getByTestId('job-params');
  assert.match((await params.textContent()) ?? '', /threshold0\.3 default/);
  assert.not.match((await params.textContent()) ?? '', /oracle_cache/);
  await ui.check('job-trust-replaced');

  // The new flow deleted, the trash restores the old one.
  assert.is((await ui.console.api('/api/flows/shop.promoted', { method: 'DELETE' })).status, 200);
  await replaced.getByRole('link').click();
  await p.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
  const id = /\/trash#trash-(\d+)$/.exec(p.url())?.[1];
  assert.ok(id, p.url());
  const item = p.getByTestId(`trash-${id}`);
  await item.getByRole('button', { name: /^Restore/ }).click();
  await p.locator('.toast', { hasText: 'Flow restored' }).waitFor();
  assert.is(readFileSync(join(R, 'shop.promoted.flow.json'), 'utf8'), old, 'the old flow is back, byte for byte');
  ui.assertNoErrors();
});

trust('a request the console would refuse says why where the command would be', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/jobs/new?kind=promote&flow=shop');
  await p.getByTestId('job-preview-refused').filter({ hasText: 'shop.promoted.flow.json exists: choose another path, or overwrite it' }).waitFor();
  assert.is(await p.getByTestId('job-command').count(), 0, 'no command is shown for a job that would not run');
  ui.assertNoErrors();
});

trust.run();
