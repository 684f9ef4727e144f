// Removing a server, in a real browser, as sessions and flows are deleted: the toast's Undo puts it back into
// the registry and opens its page again; the Trash page lists a removed server by name, says when a server of
// that name is registered again (the restore refused), and restores it once the name is free.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, type Ui } from './support.ts';

const undo = suite<{ ui: Ui }>('e2e server remove undo');

undo.before(async (ctx) => {
  ctx.ui = await openUi();
});
undo.after(async (ctx) => {
  await ctx.ui?.stop();
});

async function removeFromPage(ui: Ui, name: string): Promise<void> {
  const p = ui.page;
  await ui.goto(`/servers/${name}`);
  await p.getByRole('button', { name: 'Remove', exact: true }).click();
  await p.getByRole('dialog', { name: `Remove ${name} from the registry?` }).getByRole('button', { name: 'Remove', exact: true }).click();
  await p.waitForURL((u) => u.pathname === '/servers');
}

undo('Undo in the remove toast puts the server back and opens it again', async ({ ui }) => {
  const p = ui.page;
  await removeFromPage(ui, 'shop');
  const toast = p.locator('.toast', { hasText: 'Server shop removed from the registry' });
  await toast.waitFor();
  assert.is((await ui.console.api('/api/servers/shop/config')).status, 404);
  await toast.getByRole('button', { name: 'Undo' }).click();
  await p.waitForURL((u) => u.pathname === '/servers/shop');
  await p.locator('.toast', { hasText: 'Server restored' }).waitFor();
  assert.is((await ui.console.api('/api/servers/shop/config')).status, 200);
  ui.assertNoErrors();
});

undo('the Trash page lists a removed server by name, refuses while the name is taken, then restores it', async ({ ui }) => {
  const p = ui.page;
  await removeFromPage(ui, 'orders');
  await p.locator('.sidenav').getByRole('link', { name: 'Trash' }).click();
  await p.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
  const item = p.getByTestId('trash-list').locator('li', { hasText: 'orders' });
  await item.waitFor();
  assert.match((await item.textContent()) ?? '', /^Serverordersdeleted /);
  await ui.check('server-trash');

  // Registered again: the page says so and the restore is refused.
  const again = { name: 'orders', mode: 'record', upstream: { kind: 'stdio', command: ['engine-mcp-demo'], env: [] } };
  assert.is((await ui.console.api('/api/servers', { method: 'POST', body: JSON.stringify(again) })).status, 200);
  await p.reload();
  await item.getByText('A server named orders is registered again: remove or rename it first, then restore.').waitFor();
  assert.ok(await item.getByRole('button', { name: /^Restore/ }).isDisabled());

  assert.is((await ui.console.api('/api/servers/orders', { method: 'DELETE' })).status, 200);
  await p.reload();
  const first = p.getByTestId('trash-list').locator('li', { hasText: 'orders' }).last();
  await first.getByRole('button', { name: /^Restore/ }).click();
  await p.locator('.toast', { hasText: 'Server restored' }).waitFor();
  const config = await ui.console.api('/api/servers/orders/config');
  assert.is(config.status, 200);
  const body = (await config.text());
  assert.match(body, '--upstream https://mcp.example.com/orders/mcp', 'the first orders (HTTP) is back, not the one registered later');
  ui.assertNoErrors();
});

undo.run();
