// A delete toast's Undo goes once the item is back another way (Restore on the Trash page): it would only fail.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, type Ui } from './support.ts';

const stale = suite<{ ui: Ui }>('e2e undo toast after a restore from the trash');

stale.before(async (ctx) => {
  ctx.ui = await openUi();
});
stale.after(async (ctx) => {
  await ctx.ui?.stop();
});

stale('restoring from the Trash page takes the delete toast away', async ({ ui }) => {
  const key = '20260928T020401.117Z-14662';
  await ui.goto(`/sessions/${key}`);
  const p = ui.page;
  await p.getByRole('button', { name: 'Delete' }).click();
  await p.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Move to the trash' }).click();
  await p.waitForURL((u) => u.pathname === '/sessions');
  const deleted = p.locator('.toast', { hasText: 'Session moved to the trash' });
  await deleted.waitFor();
  await p.locator('.sidenav').getByRole('link', { name: 'Trash' }).click();
  const item = p.getByTestId('trash-list').locator('li', { hasText: `${key}.jsonl` });
  const restore = item.getByRole('button', { name: /^Restore/ });
  await restore.waitFor();
  assert.ok(await deleted.isVisible(), 'the delete toast still offers Undo before the restore');
  await restore.click();
  await p.locator('.toast', { hasText: 'Session restored' }).waitFor();
  assert.is(await deleted.count(), 0, 'the delete toast went with the restore');
  assert.is((await ui.console.api(`/api/sessions/${key}`)).status, 200);
  ui.assertNoErrors();
});

stale.run();
