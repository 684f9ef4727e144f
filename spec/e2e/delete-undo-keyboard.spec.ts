// Undo after a delete is one key away: the toast's Undo takes the focus (Enter restores), `u` undoes the last
// delete while its toast shows, `g t` opens the trash, and the keyboard help lists both.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, type Ui } from './support.ts';

const undo = suite<{ ui: Ui }>('e2e delete undo by keyboard');

undo.before(async (ctx) => {
  ctx.ui = await openUi();
});
undo.after(async (ctx) => {
  await ctx.ui?.stop();
});

async function deleteSession(ui: Ui, key: string): Promise<void> {
  await ui.goto(`/sessions/${key}`);
  const p = ui.page;
  await p.getByRole('button', { name: 'Delete' }).click();
  await p.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Move to the trash' }).click();
  await p.waitForURL((u) => u.pathname === '/sessions');
  await p.locator('.toast', { hasText: 'Session moved to the trash' }).waitFor();
}

undo('the delete toast\'s Undo has the focus: Enter brings the session back', async ({ ui }) => {
  const key = '20260928T020401.117Z-14662';
  await deleteSession(ui, key);
  const p = ui.page;
  await p.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'toast-action');
  assert.is(await p.evaluate(() => document.activeElement?.textContent?.trim()), 'Undo');
  await p.keyboard.press('Enter');
  await p.waitForURL((u) => u.pathname === `/sessions/${key}`);
  await p.locator('.toast', { hasText: 'Session restored' }).waitFor();
  assert.is((await ui.console.api(`/api/sessions/${key}`)).status, 200);
  ui.assertNoErrors();
});

undo('u undoes the last delete while its toast shows', async ({ ui }) => {
  const key = '20260928T020401.195Z-14715';
  await deleteSession(ui, key);
  const p = ui.page;
  assert.is((await ui.console.api(`/api/sessions/${key}`)).status, 404);
  // Away from the toast's Undo, as a click on the page would: main takes the focus (a click at a point of it
  // may land on the sticky top bar once the list has scrolled).
  await p.locator('main').focus();
  await p.keyboard.press('u');
  await p.waitForURL((u) => u.pathname === `/sessions/${key}`);
  await p.locator('.toast', { hasText: 'Session restored' }).waitFor();
  assert.is((await ui.console.api(`/api/sessions/${key}`)).status, 200);
  ui.assertNoErrors();
});

undo('g t opens the trash, and the keyboard help lists it and u', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  await p.locator('body').click({ position: { x: 5, y: 800 } });
  await p.keyboard.press('g');
  await p.keyboard.press('t');
  await p.waitForURL((u) => u.pathname === '/trash');
  await p.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
  await p.keyboard.press('Shift+?');
  const help = p.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.getByText('Go to the trash').waitFor();
  await help.getByText('Undo the last delete, while its toast shows').waitFor();
  await p.keyboard.press('Escape');
  ui.assertNoErrors();
});

undo.run();
