// Deleting and restoring, in a real browser: a deleted session comes back with the toast's Undo; the Trash page lists
// a deleted flow, restores it, says when its path is taken again (and the restore is refused), and empties.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const trash = suite<{ ui: Ui }>('e2e ux trash');

trash.before(async (ctx) => {
  ctx.ui = await openUi();
});
trash.after(async (ctx) => {
  await ctx.ui?.stop();
});

trash('Undo in the delete toast puts a session back, with its flow log, and opens it again', async ({ ui }) => {
  const key = '20260928T020401.117Z-14662';
  await ui.goto(`/sessions/${key}`);
  const p = ui.page;
  await p.getByRole('button', { name: 'Delete' }).click();
  await p.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Move to the trash' }).click();
  await p.waitForURL((u) => u.pathname === '/sessions');
  const toast = p.locator('.toast', { hasText: 'Session moved to the trash' });
  await toast.waitFor();
  assert.is((await ui.console.api(`/api/sessions/${key}`)).status, 404);
  await toast.getByRole('button', { name: 'Undo' }).click();
  await p.waitForURL((u) => u.pathname === `/sessions/${key}`);
  await p.locator('.toast', { hasText: 'Session restored' }).waitFor();
  assert.is((await ui.console.api(`/api/sessions/${key}`)).status, 200);
  assert.ok(existsSync(join(ui.console.dataDir, `served/shop/${key}.flow.jsonl`)), 'the flow log came back too');
  ui.assertNoErrors();
});

trash('the Trash page restores a deleted flow, refuses over a taken path, and empties', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop.promoted');
  await p.getByRole('button', { name: 'Delete the flow' }).click();
  await p.getByRole('dialog', { name: 'Delete this flow?' }).getByRole('button', { name: 'Move to the trash' }).click();
  await p.waitForURL(/\/flows$/);
  await p.locator('.sidenav').getByRole('link', { name: 'Trash' }).click();
  await p.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
  const item = p.getByTestId('trash-list').locator('li', { hasText: 'shop.promoted.flow.json' });
  await item.waitFor();
  assert.match((await item.textContent()) ?? '', /^Flowshop\.promoted\.flow\.jsondeleted .* · 1 file · /);
  await ui.check('ux-trash');

  // Something at the path again: the restore says so and is refused.
  const taken = join(ui.console.dataDir, 'shop.promoted.flow.json');
  writeFileSync(taken, '{}');
  await p.reload();
  await item.getByText('Something is at shop.promoted.flow.json again: restoring would write over it.').waitFor();
  assert.ok(await item.getByRole('button', { name: /^Restore/ }).isDisabled());
  rmSync(taken);
  await p.reload();
  await item.getByRole('button', { name: /^Restore/ }).click();
  await p.locator('.toast', { hasText: 'Flow restored' }).waitFor();
  assert.is((await ui.console.api('/api/flows/shop.promoted')).status, 200);

  // Delete the session again, then empty the trash through its dialog.
  await ui.console.api('/api/sessions/20260928T020401.195Z-14715', { method: 'DELETE' });
  await p.reload();
  await settle(p);
  await p.getByTestId('trash-empty').click();
  const dialog = p.getByTestId('trash-empty-dialog');
  await dialog.getByText('Empty the trash?').waitFor();
  assert.is(await p.evaluate(() => document.activeElement?.textContent?.trim() ?? ''), 'Keep them');
  await p.getByTestId('trash-empty-confirm').click();
  await p.getByText('The trash is empty').waitFor();
  assert.equal(((await (await ui.console.api('/api/trash')).json()) as { items: unknown[] }).items, []);
  ui.assertNoErrors();
});

trash.run();
