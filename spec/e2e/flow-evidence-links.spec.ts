// A flow's evidence rows link to the exact decision: /sessions/<key>?line=<N>, N the line of the session's
// log that shows the flow's first decision at the site.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, type Ui } from './support.ts';

const evidence = suite<{ ui: Ui }>('e2e flow evidence links');

evidence.before(async (ctx) => {
  ctx.ui = await openUi();
});
evidence.after(async (ctx) => {
  await ctx.ui?.stop();
});

evidence('each row links to its decision’s line, as the API names it', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop?tab=evidence&site=get_order_details');
  const card = p.getByTestId('evidence-get_order_details');
  await card.getByTestId('evidence-line').first().waitFor();
  const hrefs = await card.getByTestId('evidence-line').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  const sessionLinks = await card.locator('td.idcell a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.includes('/sessions/20260928T020401.117Z-14662?line=14'), hrefs.join(' '));
  assert.equal(sessionLinks, hrefs, 'the session id links there too');
  await ui.check('flow-evidence-links');
  await card.getByTestId('evidence-line').filter({ hasText: 'line 14' }).last().click();
  await p.waitForURL(/\/sessions\/20260928T020401\.117Z-14662\?line=14$/);
});

evidence.run();
