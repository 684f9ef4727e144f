// Ticked sessions in the list, all at once: download as one archive, move to the trash after a confirmation,
// and one Undo in the toast brings them all back.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const bulk = suite<{ ui: Ui }>('e2e sessions bulk actions');

bulk.before(async (ctx) => {
  ctx.ui = await openUi();
});
bulk.after(async (ctx) => {
  await ctx.ui?.stop();
});

const KEYS = ['20260928T020400.548Z-14457', '20260928T020400.587Z-14486', '20260928T020400.618Z-14511'];
const total = async (ui: Ui) => ((await (await ui.console.api('/api/sessions')).json()) as { total: number }).total;

async function tickAll(ui: Ui): Promise<void> {
  for (const k of KEYS) await ui.page.getByRole('checkbox', { name: `Tick session ${k}` }).check();
  await ui.page.getByTestId('bulk-actions').getByText('3 sessions ticked').waitFor();
}

bulk('Download gives the ticked sessions as one archive', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions');
  await tickAll(ui);
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('bulk-download').click()]);
  assert.is(download.suggestedFilename(), 'sessions-3.tar');
  const bytes = readFileSync((await download.path())!);
  const first = bytes.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
  assert.is(first, `${KEYS[0]}/${KEYS[0]}.jsonl`);
  for (const k of KEYS) assert.ok(bytes.includes(Buffer.from(`${k}/${k}.jsonl`)), k);
  await p.getByRole('button', { name: 'Untick all' }).click();
  assert.is(await p.getByTestId('bulk-actions').count(), 0);
  ui.assertNoErrors();
});

bulk('Move to the trash takes them all; one Undo brings them all back', async ({ ui }) => {
  const p = ui.page;
  const before = await total(ui);
  await ui.goto('/sessions');
  await tickAll(ui);
  await ui.check('sessions-bulk-ticked');
  await p.getByTestId('bulk-trash').click();
  await p.getByRole('dialog', { name: 'Move 3 sessions to the trash?' }).waitFor();
  await p.getByTestId('bulk-trash-confirm').click();
  const toast = p.locator('.toast', { hasText: 'Sessions moved to the trash' });
  await toast.waitFor();
  for (const k of KEYS) assert.is((await ui.console.api(`/api/sessions/${k}`)).status, 404, k);
  assert.is(await total(ui), before - 3);
  await p.getByTestId('sessions-count').filter({ hasText: new RegExp(`^${before - 3} sessions$`) }).waitFor();
  assert.is(await p.getByTestId('bulk-actions').count(), 0, 'nothing stays ticked');

  await toast.getByRole('button', { name: 'Undo' }).click();
  await p.locator('.toast', { hasText: 'Sessions restored' }).waitFor();
  for (const k of KEYS) assert.is((await ui.console.api(`/api/sessions/${k}`)).status, 200, k);
  await p.getByTestId('sessions-count').filter({ hasText: new RegExp(`^${before} sessions$`) }).waitFor();
  await settle(p);
  ui.assertNoErrors();
});

bulk.run();
