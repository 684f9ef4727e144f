// The sessions list's agent, tool, with-errors and surprised filters in a real browser: each goes into the
// address, combines with the others and the date range, survives a reload, and Back undoes it; the count is
// the API's for the same query.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const more = suite<{ ui: Ui }>('e2e sessions more filters');

more.before(async (ctx) => {
  ctx.ui = await openUi();
});
more.after(async (ctx) => {
  await ctx.ui?.stop();
});

async function apiTotal(ui: Ui, query: string): Promise<number> {
  return ((await (await ui.console.api(`/api/sessions?${query}`)).json()) as { total: number }).total;
}

async function countIs(ui: Ui, n: number): Promise<void> {
  await ui.page.getByTestId('sessions-count').filter({ hasText: new RegExp(`^${n} sessions? match`) }).waitFor();
  await settle(ui.page);
}

const param = (ui: Ui, k: string) => new URL(ui.page.url()).searchParams.get(k);

more('agent, errors and tool narrow the list together, in the address, and Back undoes each', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions');
  await p.getByTestId('filter-agent').fill('fixtures');
  await p.getByTestId('filter-agent').press('Enter');
  await countIs(ui, await apiTotal(ui, 'agent=fixtures'));
  assert.is(param(ui, 'agent'), 'fixtures');

  await p.getByTestId('filter-errors').check();
  const both = await apiTotal(ui, 'agent=fixtures&has=errors');
  assert.ok(both < (await apiTotal(ui, 'agent=fixtures')), 'errors narrows it');
  await countIs(ui, both);
  assert.is(param(ui, 'has'), 'errors');

  await p.reload();
  await countIs(ui, both);
  assert.ok(await p.getByTestId('filter-errors').isChecked());
  assert.is(await p.getByTestId('filter-agent').inputValue(), 'fixtures');

  await p.goBack();
  await countIs(ui, await apiTotal(ui, 'agent=fixtures'));
  assert.is(param(ui, 'has'), null);

  await p.getByTestId('filter-agent').fill('');
  await p.getByTestId('filter-agent').press('Enter');
  await p.getByTestId('filter-tool').fill('cancel_pending_order');
  await p.getByTestId('filter-tool').press('Enter');
  const tool = await apiTotal(ui, 'tool=cancel_pending_order');
  assert.ok(tool > 0 && tool < (await apiTotal(ui, '')), 'the tool narrows the list');
  await countIs(ui, tool);
  assert.is(param(ui, 'tool'), 'cancel_pending_order');
  assert.is(param(ui, 'agent'), null);
  await ui.check('sessions-more-filters');
});

more('the filters combine with the date range and the surprised filter', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions?from=2026-09-28&to=2026-09-28&agent=quickstart');
  await countIs(ui, await apiTotal(ui, 'from=2026-09-28&to=2026-09-28&agent=quickstart'));
  await p.getByTestId('filter-surprised').check();
  await p.getByTestId('sessions-count').filter({ hasText: /^0 sessions match/ }).waitFor();
  assert.is(await apiTotal(ui, 'from=2026-09-28&to=2026-09-28&agent=quickstart&has=surprised'), 0);
  assert.is(param(ui, 'has'), 'surprised');
  assert.is(param(ui, 'from'), '2026-09-28');
  await p.getByRole('button', { name: 'Clear the filters' }).click();
  await p.getByTestId('sessions-count').filter({ hasText: /^\d+ sessions$/ }).waitFor();
  assert.is(param(ui, 'agent'), null);
  assert.is(param(ui, 'has'), null);
  ui.assertNoErrors();
});

more.run();
