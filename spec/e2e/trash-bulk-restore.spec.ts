// The Trash page's ticks, in a real browser: three sessions deleted together, one's path taken again; Tick all
// and Restore ticked bring two back, the third stays, ticked, saying why; the delete toast's Undo goes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, type Ui } from './support.ts';

const bulk = suite<{ ui: Ui }>('e2e trash bulk restore');

bulk.before(async (ctx) => {
  ctx.ui = await openUi();
});
bulk.after(async (ctx) => {
  await ctx.ui?.stop();
});

const KEYS = ['20260928T020400.548Z-14457', '20260928T020400.587Z-14486', '20260928T020400.618Z-14511'];
const TAKEN = KEYS[1]!;
const logOf = (key: string) => `logs/shop/${key}.jsonl`;

bulk('Restore ticked brings back the items it can and shows why on the one it cannot', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions');
  for (const k of KEYS) await p.getByRole('checkbox', { name: `Tick session ${k}` }).check();
  await p.getByTestId('bulk-trash').click();
  await p.getByTestId('bulk-trash-confirm').click();
  const deleted = p.locator('.toast', { hasText: 'Sessions moved to the trash' });
  await deleted.waitFor();
  writeFileSync(join(ui.console.dataDir, logOf(TAKEN)), '');

  await p.locator('.sidenav').getByRole('link', { name: 'Trash' }).click();
  const list = p.getByTestId('trash-list');
  const itemOf = (k: string) => list.locator('li', { hasText: `${k}.jsonl` });
  await itemOf(TAKEN).getByText(`Something is at ${logOf(TAKEN)} again`).waitFor();
  const bar = p.getByRole('group', { name: 'The ticked items' });
  await bar.getByText('0 items ticked').waitFor();
  assert.ok(await p.getByTestId('trash-restore-ticked').isDisabled(), 'nothing ticked: nothing to restore');

  // By keyboard: Tick all, then Space on one tick takes it off and puts it back.
  await p.getByTestId('trash-tick-all').focus();
  await p.keyboard.press('Enter');
  await bar.getByText('3 items ticked').waitFor();
  const tick = p.getByRole('checkbox', { name: `Tick session ${logOf(TAKEN)}` });
  await tick.focus();
  await p.keyboard.press('Space');
  await bar.getByText('2 items ticked').waitFor();
  await p.keyboard.press('Space');
  await bar.getByText('3 items ticked').waitFor();
  for (const k of KEYS) assert.ok(await p.getByRole('checkbox', { name: `Tick session ${logOf(k)}` }).isChecked(), k);

  assert.ok(await deleted.isVisible(), 'the delete toast still offers Undo before the restore');
  await p.getByTestId('trash-restore-ticked').click();
  await p.locator('.toast', { hasText: '2 items restored' }).waitFor();
  await p.locator('.toast', { hasText: '1 item not restored' }).waitFor();
  const problem = itemOf(TAKEN).getByTestId('trash-problem');
  assert.is((await problem.textContent())?.trim(), `${logOf(TAKEN)} exists again: move or delete it first, then restore`);
  await list.locator('li').filter({ hasText: KEYS[0]! }).waitFor({ state: 'detached' });
  await list.locator('li').filter({ hasText: KEYS[2]! }).waitFor({ state: 'detached' });
  assert.is(await list.locator('li').count(), 1, 'only the refused item is left');
  assert.ok(await tick.isChecked(), 'the refused item stays ticked');
  await bar.getByText('1 item ticked').waitFor();
  assert.is(await deleted.count(), 0, 'the delete toast went with the restore');

  for (const k of [KEYS[0]!, KEYS[2]!]) assert.is((await ui.console.api(`/api/sessions/${k}`)).status, 200, k);
  const trash = (await (await ui.console.api('/api/trash')).json()) as { items: { path: string }[] };
  assert.equal(trash.items.map((e) => e.path), [logOf(TAKEN)]);
  // The refused restore's answer is logged by the browser; it is the refusal this test asks for.
  ui.allowErrors(/status of 409/);
  await ui.check('trash-bulk-refused');

  await p.getByTestId('trash-untick').click();
  await bar.getByText('0 items ticked').waitFor();
  ui.assertNoErrors();
});

bulk.run();
