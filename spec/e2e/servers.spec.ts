// The servers pages in a real browser against the real console over a temp copy of the fixture home: the
// list and discovered upstreams, adding a server through the form (validation, preview), its host
// configuration per host with copy, the connection test against @modelcontextprotocol/server-everything,
// editing, removing, read-only, and a hostile server whose tool names and descriptions carry markup and
// javascript: payloads that must stay text. axe in both themes and 390 px checks, screenshots under test-results/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { repoRoot, tempDir } from '../support/fixtures.ts';
import { openUi, settle, uiBuilt, type Ui } from './support.ts';

const serversE2e = suite('e2e servers');
let ui: Ui;
let scratch: { dir: string; cleanup: () => void };

const everything = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');


// An MCP server over stdio whose every text is an attack on the page that shows it.
const HOSTILE = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: {
    protocolVersion: '2025-06-18', capabilities: { tools: {} },
    serverInfo: { name: '<img src=x onerror="window.__pwned=1">', version: '<script>window.__pwned=2</script>' },
    instructions: '[click](javascript:window.__pwned=3) <b>bold</b>' } });
  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [
    { name: '<img src=x onerror="window.__pwned=4">', description: '<script>window.__pwned=5</script> javascript:window.__pwned=6',
      inputSchema: { type: 'object', properties: { '<b>q</b>': { type: 'string' } }, required: ['<b>q</b>'] }, annotations: { readOnlyHint: true } },
    { name: 'javascript:window.__pwned=7', description: '<a href="javascript:window.__pwned=8">click me</a>', annotations: { readOnlyHint: false } },
  ] } });
});
`;

serversE2e.before(async () => {
  if (!uiBuilt()) throw new Error('build the UI and the server first: npm run build');
  scratch = tempDir('engine-servers-e2e-');
  writeFileSync(join(scratch.dir, 'hostile.mjs'), HOSTILE);
  ui = await openUi();
  ui.allowErrors(/api\/overview/);
  await ui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.console.url });
});

serversE2e.after(async () => {
  await ui?.stop();
  scratch?.cleanup();
});

serversE2e('the list shows each server with its mode, flow and issues, and the upstreams sessions came through', async () => {
  await ui.goto('/servers');
  const { page } = ui;
  const shop = page.getByTestId('server-shop');
  await shop.waitFor();
  assert.match((await shop.textContent()) ?? '', /Serving/);
  assert.match((await shop.textContent()) ?? '', /engine-mcp-demo --world retail/);
  assert.match((await page.getByTestId('server-orders').textContent()) ?? '', /https:\/\/mcp\.example\.com\/orders\/mcp/);
  assert.match((await page.getByTestId('discovered-shop').textContent()) ?? '', /registered/);
  ui.allowErrors(/api\/overview/);
  await ui.check('servers');
  await page.getByTestId('discovered-retail').getByRole('link', { name: 'Add' }).click();
  await page.waitForURL(/\/servers\/new\?domain=retail/);
  await page.getByTestId('server-command').waitFor();
  assert.is(await page.getByTestId('server-name').inputValue(), 'retail');
  assert.is(await page.getByTestId('server-command').inputValue(), 'engine-mcp-demo --world retail');
  assert.ok(await page.getByRole('list', { name: 'The command, word by word' }).isVisible());
});

serversE2e('the form checks what the registry checks, previews the command line, and adds the server', async () => {
  await ui.goto('/servers/new?domain=shop');
  const { page } = ui;
  await page.getByTestId('server-save').click();
  await page.getByText('A server named shop exists.').waitFor();
  await ui.goto('/servers/new');
  await page.getByTestId('server-save').click();
  await page.getByText('Give the server a name.').waitFor();
  await page.getByText('Give the command that starts the server.').waitFor();
  assert.is(await page.evaluate(() => document.activeElement?.id), 'server-name', 'the first invalid field has the focus');
  await page.getByTestId('server-name').fill('Demo');
  await page.getByText('Use lowercase letters, digits, - and _.').waitFor();
  await page.getByTestId('server-name').fill('demo');
  await page.getByTestId('server-command').fill('srv --api-key abc');
  await page.getByText(/^Word 3 of the command looks like a credential/).waitFor();
  await page.getByTestId('server-command').fill(`${process.execPath} ${everything} stdio`);
  const preview = (await page.getByTestId('server-preview').locator('pre').textContent()) ?? '';
  assert.match(preview, /^engine-proxy --record \S+\/logs\/demo --domain demo -- \S+ \S+server-everything\/dist\/index\.js stdio$/);
  await page.locator('label.radio-card', { hasText: 'Serve' }).click();
  await page.getByTestId('server-flow').waitFor();
  await page.getByTestId('server-save').click();
  await page.getByText('Serving runs a flow: choose one.').waitFor();
  await page.locator('label.radio-card', { hasText: 'Record' }).first().click();
  await ui.check('server-new');
  await page.getByTestId('server-save').click();
  await page.getByText('Server demo added').waitFor();
  await page.waitForURL(/\/servers\/demo$/);
});

serversE2e('an HTTP server: the URL and header checks, a flow in shadow mode, and the issues the server finds', async () => {
  await ui.goto('/servers/new');
  const { page } = ui;
  await page.getByTestId('server-name').fill('tickets');
  await page.getByRole('radio', { name: 'A URL (Streamable HTTP)' }).click();
  await page.getByTestId('server-url').fill('https://u:p@desk.example.com/mcp');
  await page.getByTestId('server-url').blur();
  await page.getByText('Leave credentials out of the URL: send them in a header from a variable.').waitFor();
  await page.getByTestId('server-url').fill('https://desk.example.com/mcp');
  await page.getByRole('button', { name: 'Add a header' }).click();
  await page.getByLabel('Header 1: name').fill('Bad Name');
  await page.getByLabel('Header 1: variable').fill('TICKETS_AUTH');
  await page.getByTestId('server-save').click();
  await page.getByText('Bad Name is not a header name.').waitFor();
  await page.getByLabel('Header 1: name').fill('Authorization');
  await page.locator('label.radio-card', { hasText: 'Shadow' }).click();
  // The picker offers only tickets' own flows (none yet): another path is typed, and warned about before saving.
  await page.getByTestId('server-flow').selectOption({ label: 'Another path…' });
  await page.getByTestId('server-flow').fill('shop.flow.json');
  await page.getByTestId('flow-domain-warning').waitFor();
  const preview = (await page.getByTestId('server-preview').locator('pre').textContent()) ?? '';
  assert.match(preview, /--domain tickets --flow \S+\/shop\.flow\.json --flow-shadow --upstream https:\/\/desk\.example\.com\/mcp --upstream-header Authorization=TICKETS_AUTH$/);
  await page.getByTestId('server-save').click();
  await page.getByText('Server tickets added').waitFor();
  await page.waitForURL(/\/servers\/tickets$/);
  await page.getByText('Authorization ← $TICKETS_AUTH').waitFor();
  await page.getByText("the flow's domain is shop, not tickets: learn it from this server's sessions").waitFor();
  await ui.check('server-http');
});

serversE2e('the server page gives each host its configuration, copies it, and remembers the host', async () => {
  await ui.goto('/servers/demo');
  const { page } = ui;
  const snippet = page.getByTestId('host-snippet');
  await snippet.waitFor();
  assert.match((await snippet.textContent()) ?? '', /^claude mcp add demo -- engine-proxy --record /);
  await page.getByRole('tab', { name: 'Cursor' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="host-snippet"]')?.textContent?.includes('"mcpServers"'));
  await page.getByRole('tab', { name: 'VS Code' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="host-snippet"]')?.textContent?.includes('"servers"'));
  await page.locator('.host-config').getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Configuration copied').waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /"servers"/);
  await page.reload();
  await page.getByTestId('host-snippet').waitFor();
  assert.is(await page.getByRole('tab', { name: 'VS Code' }).getAttribute('aria-selected'), 'true');
});

serversE2e('the connection test starts the server and lists its tools with their kinds', async () => {
  await ui.goto('/servers/demo');
  const { page } = ui;
  await page.getByTestId('probe').click();
  const ok = page.getByTestId('probe-ok');
  await ok.waitFor({ timeout: 20_000 });
  assert.match((await ok.textContent()) ?? '', /Connected in .*protocol .*\d+ tools/);
  const rows = await page.getByTestId('probe-tool').count();
  assert.ok(rows > 1, `${rows} tools listed`);
  await settle(page);
  await ui.check('server-probe');
});

serversE2e('a connection test that fails says why', async () => {
  await ui.goto('/servers/orders');
  const { page } = ui;
  await page.getByTestId('probe').click();
  const failed = page.getByTestId('probe-failed');
  await failed.waitFor({ timeout: 20_000 });
  assert.match((await failed.textContent()) ?? '', /^Could not connect \(.+\): ORDERS_AUTH is not set in the console's environment, so the Authorization header cannot be sent$/);
  await ui.check('server-probe-failed');
});

serversE2e('editing keeps the name and saves the change', async () => {
  await ui.goto('/servers/demo/edit');
  const { page } = ui;
  assert.not.ok(await page.getByTestId('server-name').isDisabled(), 'the name can be changed (renaming is explained beside it)');
  assert.match(await page.getByTestId('server-command').inputValue(), /server-everything\/dist\/index\.js stdio$/);
  await page.getByLabel('Description').fill('Every MCP feature, for tests');
  await page.getByTestId('server-save').click();
  await page.getByText('Server demo saved').waitFor();
  await page.waitForURL(/\/servers\/demo$/);
  await page.getByText('Every MCP feature, for tests').first().waitFor();
});

serversE2e('removing asks first, then the server is gone from the list', async () => {
  await ui.goto('/servers/demo');
  const { page } = ui;
  await page.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove demo from the registry?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page.getByText('Server demo removed from the registry').waitFor();
  await page.waitForURL(/\/servers$/);
  await settle(page);
  assert.is(await page.getByTestId('server-demo').count(), 0);
  await ui.goto('/servers/demo');
  await page.getByText('No server named demo').waitFor();
  ui.allowErrors(/api\/overview/);
  ui.assertNoErrors();
});

serversE2e('a hostile server: its names, descriptions and instructions are shown as text and nothing runs', async () => {
  const res = await ui.console.api('/api/servers', {
    method: 'POST',
    body: JSON.stringify({ name: 'hostile', description: '<img src=x onerror="window.__pwned=9">', upstream: { kind: 'stdio', command: [process.execPath, join(scratch.dir, 'hostile.mjs')], env: [] }, mode: 'record' }),
  });
  assert.is(res.status, 200, await res.text());
  await ui.goto('/servers/hostile');
  const { page } = ui;
  await page.getByTestId('probe').click();
  const ok = page.getByTestId('probe-ok');
  await ok.waitFor({ timeout: 20_000 });
  const okText = (await ok.textContent()) ?? '';
  assert.match(okText, /<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2<\/script>/);
  assert.match(okText, /\[click\]\(javascript:window.__pwned=3\) <b>bold<\/b>/);
  const tools = page.getByTestId('probe-tools');
  assert.match((await tools.textContent()) ?? '', /<img src=x onerror="window.__pwned=4">/);
  assert.match((await tools.textContent()) ?? '', /<script>window.__pwned=5<\/script> javascript:window.__pwned=6/);
  assert.match((await tools.textContent()) ?? '', /<a href="javascript:window.__pwned=8">click me<\/a>/);
  assert.match((await page.locator('.page-header').textContent()) ?? '', /<img src=x onerror="window.__pwned=9">/);
  assert.is(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no payload ran');
  assert.is(await page.locator('main img, main script, main b').count(), 0, 'no element came from the texts');
  assert.is(await page.locator('a[href^="javascript:"]').count(), 0, 'no javascript: link');
  await ui.screenshot('server-hostile');
  await page.goto(`${ui.console.url}/servers`);
  await page.getByTestId('server-hostile').waitFor();
  assert.is(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  ui.allowErrors(/api\/overview/);
  ui.assertNoErrors();
});

serversE2e('read-only: every write is a disabled button with its reason', async () => {
  const ro = await openUi({ args: ['--read-only'] });
  try {
    ro.allowErrors(/api\/overview/);
    await ro.goto('/servers');
    const add = ro.page.getByRole('button', { name: 'Add a server' });
    await add.waitFor();
    assert.ok(await add.isDisabled());
    assert.is(await add.getAttribute('title'), 'The console is read-only');
    await ro.goto('/servers/shop');
    assert.ok(await ro.page.getByTestId('probe').isDisabled());
    assert.ok(await ro.page.getByRole('button', { name: 'Edit' }).isDisabled());
    assert.ok(await ro.page.getByRole('button', { name: 'Remove' }).isDisabled());
    ro.allowErrors(/api\/overview/);
    await ro.check('server-read-only');
  } finally {
    await ro.stop();
  }
});

serversE2e('an empty data dir: both lists say what to do first', async () => {
  const empty = tempDir('engine-empty-home-');
  const fresh = await openUi({ dataDir: empty.dir });
  try {
    fresh.allowErrors(/api\/overview/);
    await fresh.goto('/servers');
    await fresh.page.getByRole('heading', { name: 'No servers yet' }).waitFor();
    await fresh.page.getByText('Nothing discovered yet').waitFor();
    assert.ok(await fresh.page.getByRole('link', { name: 'Add a server' }).first().isVisible());
    await fresh.check('servers-empty');
    await fresh.goto('/flows');
    await fresh.page.getByRole('heading', { name: 'No flows yet' }).waitFor();
    assert.is(await fresh.page.getByRole('link', { name: 'Learn a flow' }).first().getAttribute('href'), '/jobs/new?kind=learn');
    fresh.allowErrors(/api\/overview/);
    await fresh.check('flows-empty');
  } finally {
    await fresh.stop();
    empty.cleanup();
  }
});

serversE2e.run();
