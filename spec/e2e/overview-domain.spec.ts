// The overview by domain (and the chart's axis), in a real browser: with a domain chosen the overview's
// totals, chart and newest sessions are that domain's; a UTC day range narrows them and draws its days; the
// flows list leaves out other domains' files that do not load, and says so; the last day label is not cut.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { openUi, settle, type Ui } from './support.ts';

const overview = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e ux overview');

overview.before(async (ctx) => {
  ctx.home = copyHome();
  writeFileSync(join(ctx.home.dir, 'broken.flow.json'), '{"engine_flow": 7}\n');
  writeFileSync(join(ctx.home.dir, 'retail.old.flow.json'), '{"engine_flow": 7}\n');
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
overview.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

const statValue = (ui: Ui, label: string) => ui.page.locator('.stat', { hasText: label }).locator('.stat-value').textContent();

overview('with a domain chosen, the totals, the chart and the newest sessions are that domain’s', async ({ ui }) => {
  const p = ui.page;
  const all = (await (await ui.console.api('/api/overview')).json()) as { totals: { tool_calls: number } };
  const retail = (await (await ui.console.api('/api/overview?domain=retail')).json()) as { totals: { tool_calls: number } };
  assert.ok(retail.totals.tool_calls < all.totals.tool_calls);
  await ui.goto('/');
  assert.is(await statValue(ui, 'Tool calls'), String(all.totals.tool_calls));
  await p.selectOption('#domain-filter', 'retail');
  await p.getByTestId('overview-scope').filter({ hasText: 'cover domain retail' }).waitFor();
  await settle(p);
  assert.is(await statValue(ui, 'Tool calls'), String(retail.totals.tool_calls));
  const rows = await p.locator('.grid-2 .session-table tbody tr').count();
  assert.is(rows, 1, 'one retail session among the newest');
  await ui.check('ux-overview-retail');
  await p.selectOption('#domain-filter', '');
});

overview('a UTC day range narrows the totals and the chart draws its days', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/?from=2026-09-20&to=2026-09-29');
  await p.getByTestId('overview-scope').filter({ hasText: 'from 2026-09-20 to 2026-09-29 (UTC)' }).waitFor();
  assert.is(await statValue(ui, 'Sessions'), '12');
  await p.getByRole('button', { name: 'Table', exact: true }).click();
  const days = await p.locator('.chart table tbody tr').count();
  assert.is(days, 10);
  await p.getByRole('button', { name: 'Chart', exact: true }).click();
  await ui.goto('/?from=2026-09-29&to=2026-09-30');
  await p.getByTestId('overview-scope').filter({ hasText: 'from 2026-09-29 to 2026-09-30' }).waitFor();
  await settle(p);
  assert.is(await statValue(ui, 'Sessions'), '0');
  await ui.check('ux-overview-range');
});

overview('on a phone the chart’s last day label stays inside the chart', async ({ ui }) => {
  const p = ui.page;
  await p.setViewportSize({ width: 390, height: 844 });
  try {
    await ui.goto('/');
    await p.locator('.chart-box svg').waitFor();
    await p.waitForTimeout(300);
    const [right, width] = await p.evaluate(() => {
      const svg = document.querySelector('.chart-box svg')!;
      const labels = [...svg.querySelectorAll('[data-testid="chart-day-label"]')] as SVGTextElement[];
      const box = svg.getBoundingClientRect();
      return [Math.max(...labels.map((l) => l.getBoundingClientRect().right)) - box.left, box.width];
    });
    assert.ok(right <= width + 0.5, `the last label ends at ${right} of ${width}`);
  } finally {
    await p.setViewportSize({ width: 1440, height: 900 });
  }
});

overview('the flows list of a domain leaves out other domains’ files that do not load, and says so', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows');
  await p.getByTestId('flow-broken').waitFor();
  await p.selectOption('#domain-filter', 'retail');
  await p.getByTestId('flows-hidden-broken').waitFor();
  assert.is(await p.getByTestId('flow-broken').count(), 0);
  assert.is(await p.getByTestId('flow-retail.old').count(), 1, 'a file named for the domain stays');
  assert.match((await p.getByTestId('flows-hidden-broken').textContent()) ?? '', /^1 flow file that does not load is not listed here/);
  await p.selectOption('#domain-filter', '');
  await p.getByTestId('flow-broken').waitFor();
  ui.allowErrors(/api\/overview/);
  ui.assertNoErrors();
});

overview.run();
