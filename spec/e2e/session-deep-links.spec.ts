// An address of one call or decision of a session, `/sessions/<key>?line=<N>` (N: the log's line of the
// call), opens the page there, expanded, in view and outlined; each call and decision row copies its own.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { copyHome } from '../support/fixtures.ts';
import { LONG_ID, writeLogs } from './session-logs.ts';
import { openUi, type Ui } from './support.ts';

const links = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e session deep links');

links.before(async (ctx) => {
  ctx.home = copyHome();
  writeLogs(ctx.home.dir);
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
  await ctx.ui.context.grantPermissions(['clipboard-read', 'clipboard-write']);
});
links.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

async function callLines(ui: Ui, key: string): Promise<(number | null)[]> {
  const res = await ui.console.api(`/api/sessions/${key}/call-lines`);
  assert.is(res.status, 200);
  return ((await res.json()) as { lines: (number | null)[] }).lines;
}

/** Waits until the call is open, outlined, and its head on screen. */
async function shownOpen(p: Page, callId: string): Promise<void> {
  const call = `[data-testid="call-${callId}"]`;
  await p.locator(`${call}.current-match .call-head[aria-expanded="true"]`).waitFor();
  await p.waitForFunction((sel) => {
    const r = document.querySelector(`${sel} .call-head`)!.getBoundingClientRect();
    return r.top >= 60 && r.bottom <= window.innerHeight;
  }, call);
}

links('?line= of a call deep in a long session opens it there, expanded; its answer\'s line does too', async ({ ui }) => {
  const lines = await callLines(ui, LONG_ID);
  const n = 100;
  const line = lines[n]!;
  await ui.goto(`/sessions/${LONG_ID}?line=${line}`);
  await shownOpen(ui.page, String(n + 10));
  await ui.goto(`/sessions/${LONG_ID}?line=${line + 1}`);
  await shownOpen(ui.page, String(n + 10));
  ui.assertNoErrors();
});

links('a call row copies its address, which opens that call', async ({ ui }) => {
  const p = ui.page;
  const lines = await callLines(ui, LONG_ID);
  await ui.goto(`/sessions/${LONG_ID}`);
  const call = p.getByTestId('call-15');
  await call.getByRole('button', { name: 'Copy link to this call' }).click();
  await p.locator('.toast', { hasText: 'link to this call copied' }).waitFor();
  const copied = await p.evaluate(() => navigator.clipboard.readText());
  assert.is(copied, `${ui.console.url}/sessions/${LONG_ID}?line=${lines[5]}`);
  await p.goto(copied);
  await shownOpen(p, '15');
  ui.assertNoErrors();
});

links('a decision row copies the address of the call that shows it', async ({ ui }) => {
  const p = ui.page;
  const key = '20260928T020401.117Z-14662';
  const lines = await callLines(ui, key);
  const outline = (await (await ui.console.api(`/api/sessions/${key}/outline`)).json()) as { calls: { n: number; by: string; decision: number | null }[] };
  const lookup = outline.calls.find((c) => c.by === 'flow' && c.decision !== null)!;
  await ui.goto(`/sessions/${key}`);
  const row = p.locator('[data-testid="decision-made"]').first();
  await row.getByRole('button', { name: 'Copy link to this decision' }).click();
  const copied = await p.evaluate(() => navigator.clipboard.readText());
  assert.is(copied, `${ui.console.url}/sessions/${key}?line=${lines[lookup.n]}`);
  await p.goto(copied);
  await p.locator(`.decision.current-match[data-key="c${lookup.n}"]`).waitFor();
  await ui.check('session-deep-link-decision');
  ui.assertNoErrors();
});

links.run();
