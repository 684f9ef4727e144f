// Sessions in a real browser: delete one through its dialog (it leaves the list, the API answers 404 and
// the log is in console/trash), and a session whose tool names, descriptions, arguments, results and
// conversation carry HTML, script and javascript: payloads shows them as text, running none of them.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { axe, openUi, settle, type Ui } from './support.ts';

const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=2</script>';
const LINK = 'javascript:window.__pwned=3';
const MD_LINK = `[click me](${LINK})`;
const EVIL_ID = '20261001T000000.000Z-666';

/** A session log in the format of session-format.md §2, with hostile strings wherever a server or a person writes. */
function hostileLog(): string {
  const tool = `evil_${IMG}`;
  const lines: unknown[] = [
    { engine_mcp_log: 2, session: EVIL_ID, started_unix_ms: 1790812800000, server_command: ['evil-mcp', SCRIPT], domain: 'evil', agent_model: `agent ${SCRIPT}` },
    { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `client ${IMG}`, version: '1' } } } },
    { t_ms: 2, from: 'server', message: { jsonrpc: '2.0', id: 1, result: { capabilities: { tools: {} }, protocolVersion: '2025-06-18', serverInfo: { name: 'evil', version: '1' } } } },
    { t_ms: 3, from: 'client', message: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} } },
    {
      t_ms: 4,
      from: 'server',
      message: {
        jsonrpc: '2.0',
        id: 2,
        result: {
          tools: [
            { name: tool, description: `Reads things. ${SCRIPT} ${MD_LINK} ${IMG}`, annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
            { name: `drop_${SCRIPT}`, description: LINK, annotations: { readOnlyHint: false }, inputSchema: { type: 'object', properties: {} } },
          ],
        },
      },
    },
    { t_ms: 5, from: 'context', message: { role: 'user', content: `Hello ${IMG} ${SCRIPT} ${MD_LINK}` } },
    { t_ms: 6, from: 'client', message: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: tool, arguments: { q: `${IMG}${LINK}` } } } },
    { t_ms: 8, from: 'server', message: { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: `found ${SCRIPT} and ${IMG} and ${MD_LINK}` }], isError: false } } },
    { t_ms: 600, from: 'client', message: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: `drop_${SCRIPT}`, arguments: { link: LINK } } } },
    { t_ms: 602, from: 'server', message: { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: JSON.stringify({ html: IMG, href: LINK }) }], isError: true } } },
    { t_ms: 700, from: 'context', message: { role: 'assistant', content: `Done ${SCRIPT}` } },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

const sessions = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e sessions');

sessions.before(async (ctx) => {
  ctx.home = copyHome();
  mkdirSync(join(ctx.home.dir, 'logs/evil'), { recursive: true });
  writeFileSync(join(ctx.home.dir, `logs/evil/${EVIL_ID}.jsonl`), hostileLog());
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
sessions.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

sessions('a hostile session shows every payload as text and runs none of them', async ({ ui }) => {
  await ui.goto('/sessions?q=666');
  const p = ui.page;
  await p.getByRole('link', { name: EVIL_ID }).click();
  await p.getByRole('heading', { name: EVIL_ID }).waitFor();
  await settle(p);
  await p.getByRole('button', { name: 'Expand all' }).click();
  for (const tab of ['Timeline', 'Decisions', 'Raw log', 'Tools']) {
    await p.getByRole('tab', { name: new RegExp(tab) }).click();
    if (tab === 'Raw log') {
      await p.getByRole('radio', { name: 'JSON lines' }).click();
      await p.getByTestId('raw-lines').waitFor();
      await p.locator('[data-testid="raw-lines"] .ln').nth(6).click();
    }
    await settle(p);
    const found = await p.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
      imgs: document.querySelectorAll('img').length,
      scripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
      jsLinks: [...document.querySelectorAll('a')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
      text: document.body.innerText,
    }));
    assert.is(found.pwned, null, `nothing ran on the ${tab} tab`);
    assert.is(found.imgs, 0, `no <img> element on the ${tab} tab`);
    assert.is(found.scripts, 0, `no inline <script> element on the ${tab} tab`);
    assert.is(found.jsLinks, 0, `no javascript: link on the ${tab} tab`);
    if (tab === 'Timeline') {
      assert.match(found.text, `evil_${IMG}`, 'the hostile tool name shows as text');
      assert.match(found.text, `Hello ${IMG} ${SCRIPT}`, 'the conversation shows as text');
    }
    if (tab === 'Tools') assert.match(found.text, `Reads things. ${SCRIPT} ${MD_LINK}`, 'the description shows as text');
  }
  await ui.check('session-hostile');
  // The palette lists it by name, as text too.
  await p.keyboard.press('Control+k');
  await p.getByTestId('palette-input').fill('666');
  await p.getByRole('option', { name: new RegExp(EVIL_ID) }).waitFor();
  assert.is(await p.evaluate(() => document.querySelectorAll('img').length), 0);
  await p.keyboard.press('Escape');
  ui.assertNoErrors();
});

sessions('deleting a session moves it to the trash: it leaves the list and the API answers 404', async ({ ui }) => {
  const key = '20260928T020400.548Z-14457';
  await ui.goto(`/sessions/${key}`);
  const p = ui.page;
  await p.getByRole('button', { name: 'Delete' }).click();
  const dialog = p.getByRole('dialog', { name: 'Delete this session?' });
  await dialog.waitFor();
  await ui.screenshot('session-delete-dialog');
  const violations = await axe(p);
  assert.equal(violations.map((v) => v.id), [], 'axe on the delete dialog');
  await dialog.getByRole('button', { name: 'Move to the trash' }).click();
  await p.waitForURL((u) => u.pathname === '/sessions');
  await p.getByText('Session moved to the trash').waitFor();
  await p.getByTestId('sessions-count').filter({ hasText: /^12 sessions$/ }).waitFor();
  assert.is(await p.getByRole('link', { name: key }).count(), 0);
  const res = await ui.console.api(`/api/sessions/${key}`);
  assert.is(res.status, 404);
  const trash = join(ui.console.dataDir, 'console/trash');
  const stamps = readdirSync(trash);
  assert.ok(stamps.some((s) => existsSync(join(trash, s, `logs/shop/${key}.jsonl`))), 'the log is in console/trash/<time>/logs/shop/');
  ui.assertNoErrors();
});

sessions.run();
