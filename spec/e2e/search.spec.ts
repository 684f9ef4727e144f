// Search all sessions in a real browser: an order id from the fixture home is found, its session shown
// with the match marked and the count searched; the hit opens the session page with the find bar holding
// the phrase and its match counted.
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

search('an order id is found, and its hit opens the session at the match', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/search');
  await p.getByTestId('search-text').fill('#W41a');
  await p.getByTestId('search-text').press('Enter');
  await p.getByTestId('search-progress').filter({ hasText: /^12 of 12 sessions searched; 1 hold/ }).waitFor();
  assert.ok(new URL(p.url()).searchParams.get('text') === '#W41a');
  const hit = p.getByTestId('search-hit').first();
  assert.is((await hit.locator('mark').textContent())?.toLowerCase(), '#w41a');
  await hit.click();
  await p.waitForURL(/\/sessions\/20260928T020401\.117Z-14662\?find=/);
  await p.getByTestId('findbar').waitFor();
  assert.is(await p.getByTestId('findbar').locator('input').first().inputValue(), '#W41a');
  await p.getByTestId('find-count').filter({ hasText: /^1 of \d+$/ }).waitFor();
  ui.assertNoErrors();
});

search.run();
