// The session page's find bar in a real browser: Ctrl F opens it, matches count "n of m" across rows that
// are not even rendered (the timeline is virtualized), Enter and Shift+Enter move between them and scroll
// each into view, highlighted; the tool, failed and flow filters combine with it; and the URL carries the
// state, so a link opens the same view. Axe and 390 px on the page with the bar open.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { copyHome } from '../support/fixtures.ts';
import { LONG_CALLS, LONG_ID, MAGIC_CALL, writeLogs } from './session-logs.ts';
import { openUi, settle, type Ui } from './support.ts';

const find = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e session find');

find.before(async (ctx) => {
  ctx.home = copyHome();
  writeLogs(ctx.home.dir);
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
find.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

const count = (p: Page) => p.getByTestId('find-count');
async function countIs(p: Page, text: string): Promise<void> {
  await count(p).filter({ hasText: new RegExp(`^${text}$`) }).waitFor();
}
/** Whether the element is inside the viewport, below the sticky bars. */
const inView = (p: Page, selector: string) =>
  p.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.top >= 60 && r.bottom <= window.innerHeight;
  }, selector);

find('Ctrl F opens the bar; n of m, Enter and Shift+Enter move and scroll; the URL keeps the state', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/sessions/${LONG_ID}`);
  await p.getByRole('heading', { name: /^Turn 1\b/ }).waitFor();
  // Virtualized: far fewer rows exist than the session has.
  const rows = await p.locator('[data-testid="timeline"] > li').count();
  assert.ok(rows < LONG_CALLS / 2, `${rows} rows rendered`);
  await p.locator('h1').click();
  await p.keyboard.press('Control+f');
  const box = p.getByRole('searchbox', { name: /Find in this session/ });
  await box.waitFor();
  assert.is(await box.evaluate((el) => el === document.activeElement), true, 'the find box has focus');
  await box.fill('magic');
  await countIs(p, '1 of 2');
  assert.ok(await inView(p, '.current-match'), 'the first match (the customer message) is in view');
  assert.is(await p.locator('.current-match mark').first().textContent(), 'magic');

  await box.press('Enter');
  await countIs(p, '2 of 2');
  const magic = `[data-testid="call-${MAGIC_CALL + 10}"]`;
  await p.locator(`${magic}.current-match`).waitFor();
  await p.waitForFunction((sel) => {
    const r = document.querySelector(sel)!.getBoundingClientRect();
    return r.top >= 60 && r.bottom <= window.innerHeight;
  }, magic);
  assert.is(await p.locator(`${magic} mark`).first().textContent(), 'MAGIC');
  assert.is(new URL(p.url()).searchParams.get('find'), 'magic');
  assert.is(new URL(p.url()).searchParams.get('match'), '2');

  await box.press('Shift+Enter');
  await countIs(p, '1 of 2');
  await box.press('Shift+Enter');
  await countIs(p, '2 of 2');

  // A link with the state opens the same view.
  await ui.goto(`/sessions/${LONG_ID}?find=magic&match=2`);
  await countIs(p, '2 of 2');
  await p.locator(`${magic}.current-match`).waitFor();
  assert.ok(await inView(p, magic), 'the linked match is in view');
  await ui.check('session-find');
  ui.assertNoErrors();
});

find('the filters combine with the text: a tool, failed only', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/sessions/${LONG_ID}?find=magic`);
  await countIs(p, '1 of 2');
  const tool = p.getByRole('combobox', { name: 'Tool' });
  await tool.selectOption('get_order');
  await countIs(p, 'No matches');
  assert.is(new URL(p.url()).searchParams.get('tool'), 'get_order');
  const tools = await p.locator('[data-testid="timeline"] .call-head .tool').allTextContents();
  assert.ok(tools.length > 0);
  assert.equal([...new Set(tools)], ['get_order']);
  await tool.selectOption('cancel_order');
  await countIs(p, '1 of 1');

  await tool.selectOption('');
  await p.getByRole('searchbox').fill('');
  await p.getByRole('checkbox', { name: 'Failed only' }).check();
  await p.waitForFunction(() => new URL(location.href).searchParams.get('failed') === '1');
  await settle(p);
  const calls = p.locator('[data-testid="timeline"] .call');
  const shown = await calls.count();
  assert.ok(shown > 0);
  assert.is(await p.locator('[data-testid="timeline"] .call.failed').count(), shown, 'only failed calls show');
  await p.getByRole('searchbox').fill('RESULT 93');
  await countIs(p, '1 of 1');
  ui.assertNoErrors();
});

find('the flow filter keeps the calls the flow decided after', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions/20260928T020401.117Z-14662?flow=1');
  await p.getByTestId('findbar').waitFor();
  const tools = await p.locator('[data-testid="timeline"] .call-head .tool').allTextContents();
  assert.equal(tools, ['find_user_id_by_email', 'cancel_pending_order']);
  await p.getByRole('searchbox').fill('get_order_details');
  await countIs(p, '1 of 2');
  assert.is(await p.locator('.decision.current-match').count(), 1, 'a lookup is the current match');
  await ui.check('session-find-flow');
  ui.assertNoErrors();
});

find.run();
