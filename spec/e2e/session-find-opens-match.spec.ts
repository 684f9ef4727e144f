// Find in a big session shows the match itself: a word deep in a call's answer (past the short line a
// collapsed call shows) opens that call, scrolls it into view and marks the word; Enter and the arrows move
// to the next match and open it, and the call left behind shuts again.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { copyHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const KEY = '20261104T000000.000Z-7170';
const CALLS = 150;
/** The calls whose answers end with the word (call ids are n + 10). */
const DEEP = [40, 120];

function deepLog(): string {
  const lines: unknown[] = [
    { engine_mcp_log: 2, session: KEY, started_unix_ms: 1793750400000, server_command: ['shop-mcp'], domain: 'shop', agent_model: 'agent' },
    { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
    { t_ms: 2, from: 'server', message: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'read_page', annotations: { readOnlyHint: true } }] } } },
  ];
  for (let n = 0; n < CALLS; n++) {
    const t = 1000 + n * 1000;
    lines.push({ t_ms: t, from: 'client', message: { jsonrpc: '2.0', id: n + 10, method: 'tools/call', params: { name: 'read_page', arguments: { page: n } } } });
    const text = DEEP.includes(n) ? `${'filler words of a long page\n'.repeat(200)}the zebracorn is here` : `page ${n}: nothing special`;
    lines.push({ t_ms: t + 30, from: 'server', message: { jsonrpc: '2.0', id: n + 10, result: { content: [{ type: 'text', text }], isError: false } } });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

const opened = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e session find opens the match');

opened.before(async (ctx) => {
  ctx.home = copyHome();
  mkdirSync(join(ctx.home.dir, 'logs/shop'), { recursive: true });
  writeFileSync(join(ctx.home.dir, 'logs/shop', `${KEY}.jsonl`), deepLog());
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
opened.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

/** Waits until the call is open and its marked word is on screen (inside its scrolling panel too). */
async function markShown(p: Page, callId: number): Promise<void> {
  const call = `[data-testid="call-${callId}"]`;
  await p.locator(`${call} > .call-head[aria-expanded="true"]`).waitFor();
  await p.waitForFunction((sel) => {
    const mark = document.querySelector(`${sel} pre mark`);
    if (!mark || mark.textContent !== 'zebracorn') return false;
    const r = mark.getBoundingClientRect();
    const pre = mark.closest('pre')!.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.top >= pre.top && r.bottom <= pre.bottom;
  }, call);
}

const countIs = (p: Page, text: string) => p.getByTestId('find-count').filter({ hasText: new RegExp(`^${text}$`) }).waitFor();

opened('the match deep in an answer is opened, in view and marked; Enter and the arrows move and open', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/sessions/${KEY}`);
  await p.locator('h1').click();
  await p.keyboard.press('Control+f');
  const box = p.getByRole('searchbox', { name: /Find in this session/ });
  await box.fill('zebracorn');
  await countIs(p, '1 of 2');
  await markShown(p, DEEP[0]! + 10);

  await box.press('ArrowDown');
  await countIs(p, '2 of 2');
  await markShown(p, DEEP[1]! + 10);
  assert.is(await p.locator('[data-testid="timeline"] .call-head[aria-expanded="true"]').count(), 1, 'the call left behind shuts');

  await box.press('ArrowUp');
  await countIs(p, '1 of 2');
  await markShown(p, DEEP[0]! + 10);
  await box.press('Enter');
  await countIs(p, '2 of 2');
  await markShown(p, DEEP[1]! + 10);
  ui.assertNoErrors();
});

opened.run();
