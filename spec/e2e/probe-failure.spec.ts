// A failed connection test on the server page, in a real browser: a server that printed something other than
// JSON-RPC and exited says how it exited and what it printed; a server that printed its environment shows
// its stderr with the registry's variables masked.
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { repoRoot } from '../support/fixtures.ts';
import { openUi, uiBuilt, type Ui } from './support.ts';

const failure = suite('e2e probe failure');
let ui: Ui;
const node = process.execPath;
const secret = 'e2e-orders-auth-8c41d9';

async function register(name: string, script: string, env: string[] = []): Promise<void> {
  const upstream = { kind: 'stdio', command: [node, join(repoRoot, 'spec/support', script)], env };
  const res = await ui.console.api('/api/servers', { method: 'POST', body: JSON.stringify({ name, upstream, mode: 'record' }) });
  assert.is(res.status, 200, await res.text());
}

failure.before(async () => {
  if (!uiBuilt()) throw new Error('build the UI and the server first: npm run build');
  ui = await openUi({ env: { E2E_ORDERS_AUTH: secret } });
  ui.allowErrors(/api\/overview/);
});

failure.after(async () => {
  await ui?.stop();
});

failure('a server that printed hello and exited: the page says its exit status and what it printed', async () => {
  await register('hello', 'mcp-hello.mjs');
  await ui.goto('/servers/hello');
  const { page } = ui;
  await page.getByTestId('probe').click();
  const failed = page.getByTestId('probe-failed');
  await failed.waitFor({ timeout: 20_000 });
  const text = (await failed.textContent()) ?? '';
  assert.match(text, 'exited with exit status: 0', text);
  assert.match(text, 'instead of JSON-RPC it printed "hello"', text);
  await ui.check('server-probe-printed');
});

failure("a server that printed its environment: the named variable's value is masked in the stderr shown", async () => {
  await register('printenv', 'mcp-printenv.mjs', ['E2E_ORDERS_AUTH']);
  await ui.goto('/servers/printenv');
  const { page } = ui;
  await page.getByTestId('probe').click();
  const stderr = page.getByTestId('probe-stderr');
  await stderr.waitFor({ timeout: 20_000 });
  assert.match((await stderr.textContent()) ?? '', 'E2E_ORDERS_AUTH=••••');
  assert.not.match(await page.locator('main').innerText(), secret);
});

failure.run();
