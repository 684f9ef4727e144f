// Search all sessions in a real browser: an order id from the fixture home is found, its session shown
// with the match marked and the count searched; the hit opens the session page at its line with the find
// bar holding the phrase; the tool and part controls; the sessions list's and the palette's way in.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, type Ui } from './support.ts';

const search = suite<{ ui: Ui }>('e2e search');

search.before(async (ctx) => {
  ctx.ui = await openUi();
});
search.after(async (ctx) => {
  await ctx.ui?.stop();
});

search('an order id is found, and its hit opens the session at the call, with the find bar holding the phrase', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/search');
  await p.getByTestId('search-text').fill('#W41a');
  await p.getByTestId('search-text').press('Enter');
  await p.getByTestId('search-progress').filter({ hasText: /^12 of 12 sessions searched; 1 hold/ }).waitFor();
  assert.ok(new URL(p.url()).searchParams.get('text') === '#W41a');
  const hit = p.getByTestId('search-hit').first();
  assert.is((await hit.locator('mark').textContent())?.toLowerCase(), '#w41a');
  // The first hit is the answer to the flow's get_user_details lookup, line 11 of the fixture's log.
  assert.match((await hit.textContent()) ?? '', /^line 11 · result · get_user_details /);
  await ui.check('search-results');
  await hit.click();
  await p.waitForURL(/\/sessions\/20260928T020401\.117Z-14662\?line=11&find=%23W41a$/);
  await p.getByTestId('findbar').waitFor();
  assert.is(await p.getByTestId('findbar').locator('input').first().inputValue(), '#W41a');
  await p.getByTestId('find-count').filter({ hasText: /^1 of \d+$/ }).waitFor();
  ui.assertNoErrors();
});

search('the tool and part controls narrow the hits and stay in the address', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/search?text=%23W41a');
  await p.getByTestId('search-in').selectOption('arguments');
  await p.waitForURL((u) => u.searchParams.get('in') === 'arguments');
  await p.getByTestId('search-progress').filter({ hasText: /^12 of 12 sessions searched; 1 hold/ }).waitFor();
  assert.match((await p.getByTestId('search-hit').first().textContent()) ?? '', /^line 12 · arguments · get_order_details /);
  await p.getByTestId('search-tool').fill('cancel_pending_order');
  await p.getByTestId('search-tool').press('Enter');
  await p.waitForURL((u) => u.searchParams.get('tool') === 'cancel_pending_order');
  await p.getByTestId('search-progress').filter({ hasText: /^12 of 12 sessions searched; 1 hold/ }).waitFor();
  const lines = await p.getByTestId('search-hit').allTextContents();
  assert.equal(lines.map((t) => t.split(' #')[0]!.trim()), ['line 19 · arguments · cancel_pending_order']);
  await p.getByTestId('search-tool').fill('no_such_tool');
  await p.getByTestId('search-tool').press('Enter');
  await p.getByTestId('search-progress').filter({ hasText: /^12 of 12 sessions searched; 0 hold/ }).waitFor();
  ui.assertNoErrors();
});

search('the sessions list and the palette offer the words searched inside calls', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions');
  await p.getByTestId('sessions-search').fill('W41a');
  await p.getByTestId('search-inside').click();
  await p.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('text') === 'W41a');
  await p.getByTestId('search-progress').filter({ hasText: /; 1 hold “W41a”/ }).waitFor();
  await p.keyboard.press('Control+k');
  await p.getByTestId('palette-input').fill('order #W41b');
  await p.getByRole('option', { name: /Search inside calls for “order #W41b”/ }).click();
  await p.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('text') === 'order #W41b');
  await p.getByTestId('search-progress').filter({ hasText: /^12 of 12 sessions searched; 0 hold/ }).waitFor();
  ui.assertNoErrors();
});

search.run();
