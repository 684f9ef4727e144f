// A flow file that does not load keeps the actions that work on a file (Download, Delete) and shows none of
// those that need a flow that loads (Promote, Audit); a flow that is not there offers nothing.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const broken = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e flow that does not load');

broken.before(async (ctx) => {
  ctx.home = copyHome();
  writeFileSync(join(ctx.home.dir, 'broken.flow.json'), '{"engine_flow": 1, "manifest": ');
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
broken.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

broken('its page offers Download and Delete, explains why, and shows no Promote or Audit; Delete moves it to the trash', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/broken');
  await p.getByTestId('flow-broken').waitFor();
  ui.allowErrors(/422|Unprocessable/);
  assert.match((await p.getByTestId('flow-broken').textContent()) ?? '', /does not load as a flow: .+ promote and audit need a flow that loads/);
  const header = p.locator('.page-header');
  assert.is(await header.getByRole('link', { name: 'Download' }).count(), 1, 'Download is offered');
  assert.is(await header.getByText('Promote').count(), 0, 'no Promote');
  assert.is(await header.getByText('Audit').count(), 0, 'no Audit');
  const del = p.getByTestId('flow-delete');
  assert.ok(await del.isEnabled(), 'Delete is enabled');
  await ui.check('flow-broken-actions');
  await del.click();
  await p.getByRole('button', { name: 'Move to the trash' }).click();
  await p.waitForURL(/\/flows$/);
  assert.not.ok(existsSync(join(ui.console.dataDir, 'broken.flow.json')), 'the file moved to the trash');
  ui.allowErrors(/422|Unprocessable/);
});

broken('a flow that is not there shows no action at all', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/no-such-flow');
  await p.getByText('No such flow').first().waitFor();
  const header = p.locator('.page-header');
  for (const name of ['Download', 'Promote', 'Audit']) assert.is(await header.getByText(name).count(), 0, `no ${name}`);
  assert.is(await p.getByTestId('flow-delete').count(), 0, 'no Delete');
  ui.allowErrors(/404|Not Found/);
});

broken.run();
