// The servers pages walked as a first-time user would (issue 15's server items) and the later engine's policy
// fields (issue 14), in a real browser against the real console over a temp copy of the fixture home: the
// proxy's policy in the form, on the page and in the host configuration; renaming from the edit form; a
// credential in a command, hidden and replaced by advice the registry accepts; next steps that point at
// another data directory; a failed test's stderr and one-off header values; own-domain flows only; Claude
// Desktop's env block; remove dialogs that start on Cancel. axe in both themes and 390 px on each.
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { repoRoot } from '../support/fixtures.ts';
import { openUi, settle, uiBuilt, type Ui } from './support.ts';
import { holds } from '../support/assert.ts';

const walk = suite('e2e servers walk');
let ui: Ui;
let httpServer: ChildProcess | null = null;
let httpUrl = '';

const node = process.execPath;
const everything = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

async function register(body: Record<string, unknown>): Promise<void> {
  const res = await ui.console.api('/api/servers', { method: 'POST', body: JSON.stringify({ mode: 'record', ...body }) });
  assert.is(res.status, 200, await res.text());
}

walk.before(async () => {
  if (!uiBuilt()) throw new Error('build the UI and the server first: npm run build');
  // A Streamable HTTP server on a free port, for the one-off header value.
  const port = 20000 + Math.floor(Math.random() * 20000);
  httpServer = spawn(node, [everything, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  httpUrl = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  ui = await openUi();
  ui.allowErrors(/api\/overview/);
});

walk.after(async () => {
  await ui?.stop();
  httpServer?.kill('SIGKILL');
});

walk("the proxy's policy: set in the form, previewed in the proxy's order, shown on the page and in each host's configuration", async () => {
  await ui.goto('/servers/new');
  const { page } = ui;
  await page.getByTestId('server-name').fill('retail');
  await page.getByTestId('server-command').fill('engine-mcp-demo --world retail');
  await page.getByLabel('Keep sessions for').fill('0');
  await page.getByLabel('Keep sessions for').blur();
  await page.getByText('Keep sessions a whole number of days, at least one.').waitFor();
  await page.getByLabel('Keep sessions for').fill('30');
  await page.getByLabel('Policy guards').check();
  await page.getByLabel('Offer engine_commit').check();
  await page.getByLabel('Listen at').fill('0.0.0.0:8931');
  const preview = (await page.getByTestId('server-preview').locator('pre').textContent()) ?? '';
  assert.match(preview, / --domain retail --retain-days 30 --guards --commit --listen 0\.0\.0\.0:8931 -- engine-mcp-demo --world retail$/);
  await ui.check('server-policy-form');
  await page.getByTestId('server-save').click();
  await page.getByText('Server retail added').waitFor();
  await page.waitForURL(/\/servers\/retail$/);
  const policy = page.getByTestId('server-policy');
  await policy.waitFor();
  const text = (await policy.textContent()) ?? '';
  assert.match(text, /Policy guardson: calls that break the domain’s policy are refused/);
  assert.match(text, /Keeps sessions30 days/);
  assert.match(text, /Listens at0\.0\.0\.0:8931/);
  await page.getByRole('tab', { name: 'Cursor' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="host-snippet"]')?.textContent?.includes('"url": "http://127.0.0.1:8931/mcp"'));
  await page.getByText('The proxy listens on every address').waitFor();
  await settle(page);
  await ui.check('server-policy-page');
  // A name without guards cannot keep them: the form says so before sending.
  await ui.goto('/servers/retail/edit');
  assert.ok(await page.getByLabel('Policy guards').isChecked());
  await page.getByTestId('server-name').fill('shop2');
  await page.getByTestId('server-save').click();
  await page.getByText('There are no policy guards for shop2: retail and airline have them.').waitFor();
});

walk('a server is renamed from its edit form, which says what renaming does', async () => {
  await ui.goto('/servers/orders/edit');
  const { page } = ui;
  const name = page.getByTestId('server-name');
  assert.not.ok(await name.isDisabled());
  await page.getByText(/^Renaming changes the name hosts know the server by/).waitFor();
  await name.fill('shop');
  await name.blur();
  await page.getByText('A server named shop exists.').waitFor();
  await name.fill('orders-v2');
  await page.getByTestId('rename-notice').waitFor();
  assert.match((await page.getByTestId('rename-notice').textContent()) ?? '', /Saving renames orders to orders-v2/);
  await ui.check('server-rename');
  await page.getByTestId('server-save').click();
  await page.getByText('Server orders renamed to orders-v2').waitFor();
  await page.waitForURL(/\/servers\/orders-v2$/);
  await page.getByText('https://mcp.example.com/orders/mcp').first().waitFor();
  await ui.goto('/servers');
  await page.getByTestId('server-orders-v2').waitFor();
  assert.is(await page.getByTestId('server-orders').count(), 0);
});

walk('a credential in the command is hidden in the preview, and the advice given is one the registry accepts', async () => {
  await ui.goto('/servers/new');
  const { page } = ui;
  await page.getByTestId('server-name').fill('acme');
  await page.getByTestId('server-command').fill('acme-mcp --api-key sk-live-123');
  await page.getByTestId('server-command').blur();
  await page.getByText(/^Word 3 of the command looks like a credential/).waitFor();
  const preview = (await page.getByTestId('server-preview').locator('pre').textContent()) ?? '';
  assert.match(preview, /-- acme-mcp --api-key <credential hidden>$/);
  assert.not.match((await page.locator('main').innerText()), 'sk-live-123', 'the secret is shown nowhere but in the box it was typed in');
  const advice = page.getByTestId('credential-advice');
  await advice.waitFor();
  assert.match((await page.getByTestId('advice-script').textContent()) ?? '', /exec acme-mcp --api-key "\$ACME_MCP_API_KEY"/);
  await ui.check('server-credential-advice');
  await page.getByTestId('advice-one-line').click();
  assert.is(await page.getByTestId('server-command').inputValue(), `sh -c 'exec acme-mcp --api-key "$ACME_MCP_API_KEY"'`);
  await page.locator('.chip', { hasText: 'ACME_MCP_API_KEY' }).first().waitFor();
  assert.is(await advice.count(), 0);
  await page.getByTestId('server-save').click();
  await page.getByText('Server acme added').waitFor();
  await page.waitForURL(/\/servers\/acme$/);
});

walk("next steps say when they write outside the console's data dir, and their learn step runs here as a job", async () => {
  await ui.goto('/servers/shop');
  const { page } = ui;
  await page.getByText('Next steps from here').click();
  const note = page.getByTestId('data-dir-note');
  await note.waitFor();
  const dataDir = realpathSync(ui.console.dataDir);
  assert.match(((await note.textContent()) ?? ''), `This console serves ${dataDir}`, (await note.textContent()) ?? '');
  await ui.check('server-next-steps');
  await page.getByTestId('step-job-learn').click();
  await page.waitForURL(/\/jobs\/new\?kind=learn&domain=shop&sessions=served%2Fshop$/);
  await page.locator('#job-sessions').waitFor();
  assert.is(await page.locator('#job-sessions').inputValue(), 'served/shop');
  assert.is(await page.getByTestId('learn-domain').inputValue(), 'shop');
});

walk("a failed test shows the server's stderr; an unset header variable takes a one-off value that is never shown back", async () => {
  await register({ name: 'complains', upstream: { kind: 'stdio', command: [node, join(repoRoot, 'spec/support/mcp-stderr.mjs')], env: [] } });
  await ui.goto('/servers/complains');
  const { page } = ui;
  await page.getByTestId('probe').click();
  await page.getByTestId('probe-failed').waitFor({ timeout: 20_000 });
  assert.match((await page.getByTestId('probe-stderr').textContent()) ?? '', /Error: ACME_API_KEY is not set$/);
  await ui.check('server-probe-stderr');

  await register({ name: 'remote', upstream: { kind: 'http', url: httpUrl, headers: [{ name: 'X-Walk', env: 'WALK_E2E_UNSET' }] } });
  await ui.goto('/servers/remote');
  await page.getByTestId('probe').click();
  await page.getByText("WALK_E2E_UNSET is not set in the console's environment", { exact: false }).waitFor({ timeout: 20_000 });
  await page.getByText('Test with values typed here').click();
  const secret = 'walk-one-off-4e1c';
  await page.getByLabel('X-Walk from WALK_E2E_UNSET').fill(secret);
  await ui.check('server-probe-one-off');
  const bodies: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/probe')) void r.text().then((t) => bodies.push(t));
  });
  await page.getByTestId('probe').click();
  await page.getByTestId('probe-ok').waitFor({ timeout: 20_000 });
  await page.waitForTimeout(100);
  assert.ok(bodies.length > 0);
  assert.not.match(bodies.join('\n'), secret, 'the answer never holds the value');
  assert.not.match((await page.locator('main').innerText()), secret);
  assert.not.match((await (await ui.console.api('/api/servers')).text()), secret, 'the registry never holds it');
});

walk("a server's flow picker offers only its own domain's flows, and another domain's flow is warned about before saving", async () => {
  await ui.goto('/servers/new');
  const { page } = ui;
  await page.getByTestId('server-name').fill('tickets');
  await page.getByTestId('server-command').fill('engine-mcp-demo --world tickets');
  await page.locator('label.radio-card', { hasText: 'Shadow' }).click();
  const options = await page.getByTestId('server-flow').locator('option').allTextContents();
  assert.equal(options, ['Choose a flow', 'Another path…']);
  await page.getByText('No flow of domain tickets yet: learn one from this server’s recorded sessions first.').waitFor();
  await page.getByTestId('server-flow').selectOption({ label: 'Another path…' });
  await page.getByTestId('server-flow').fill('shop.flow.json');
  const warning = page.getByTestId('flow-domain-warning');
  await warning.waitFor();
  assert.match((await warning.textContent()) ?? '', /^shop is a flow of domain shop, not tickets: /);
  await ui.check('server-flow-warning');
  await ui.goto('/servers/shop/edit');
  const own = await page.getByTestId('server-flow').locator('option').allTextContents();
  holds(own, 'shop');
  assert.is(await page.getByTestId('flow-domain-warning').count(), 0);
});

walk("Claude Desktop's snippet stays the CLI's, and the env block it needs is explained beside it", async () => {
  await register({ name: 'envy', upstream: { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'retail'], env: ['ENVY_API_KEY'] } });
  await ui.goto('/servers/envy');
  const { page } = ui;
  await page.getByRole('tab', { name: 'Claude Desktop' }).click();
  const note = page.getByTestId('desktop-env-note');
  await note.waitFor();
  assert.match((await note.textContent()) ?? '', /"env": \{ "ENVY_API_KEY": "…" \}/);
  const snippet = (await page.getByTestId('host-snippet').textContent()) ?? '';
  assert.not.match(snippet, '"env"', 'the snippet is what engine init prints, without an env block');
  await ui.check('server-desktop-env');
  await page.getByRole('tab', { name: 'Cursor' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="host-snippet"]')?.textContent?.includes('"mcpServers"'));
  assert.is(await page.getByTestId('desktop-env-note').count(), 0);
});

walk('a remove dialog starts on Cancel, so Enter keeps the server', async () => {
  await ui.goto('/servers/envy');
  const { page } = ui;
  await page.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove envy from the registry?' });
  await dialog.waitFor();
  assert.is(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Cancel');
  await ui.check('server-remove-dialog');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  assert.is((await ui.console.api('/api/servers/envy/config')).status, 200, 'the server is still registered');
  ui.assertNoErrors();
});

walk('leaving a filled server form asks first; a saved one just goes', async () => {
  await ui.goto('/servers/new');
  const { page } = ui;
  await page.getByTestId('server-name').fill('leavetest');
  await page.locator('.sidenav').getByRole('link', { name: 'Servers' }).click();
  const dialog = page.getByTestId('leave-dialog');
  await dialog.getByText('Leave this form?').waitFor();
  assert.is(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? ''), 'leave-stay');
  await page.keyboard.press('Enter');
  await dialog.getByText('Leave this form?').waitFor({ state: 'hidden' });
  assert.match(page.url(), /\/servers\/new/);
  assert.is(await page.getByTestId('server-name').inputValue(), 'leavetest');
  // Saved: the page moves on without asking.
  await page.getByTestId('server-command').fill('engine-mcp-demo --world leavetest');
  await page.getByTestId('server-save').click();
  await page.waitForURL(/\/servers\/leavetest$/);
  await settle(page);
  assert.is(await page.getByTestId('leave-dialog').isVisible(), false);
});

walk.run();
