// Every figure of the Overview and every bar of its chart opens exactly the sessions behind it: the list's
// count (or, for a sum, the list's sum) equals the figure, with the domain and the day range carried along.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const figures = suite<{ ui: Ui }>('e2e overview figures open their sessions');

figures.before(async (ctx) => {
  ctx.ui = await openUi();
});
figures.after(async (ctx) => {
  await ctx.ui?.stop();
});

const RANGE = '?from=2026-09-20&to=2026-09-30';

/** A stat's exact value (its title), from the Overview. */
async function statValue(ui: Ui, label: string): Promise<number> {
  const t = await ui.page.locator('.stat', { has: ui.page.locator('.stat-label', { hasText: new RegExp(`^${label}$`) }) }).locator('.stat-value').getAttribute('title');
  return Number((t ?? '').replace(/,/g, ''));
}

/** The list's count line once it has loaded. */
async function countLine(ui: Ui): Promise<string> {
  const c = ui.page.getByTestId('sessions-count').filter({ hasText: /session/ });
  await c.waitFor();
  await settle(ui.page);
  return ((await c.textContent()) ?? '').trim();
}

const leading = (line: string) => Number((/^([\d,]+) session/.exec(line)?.[1] ?? 'NaN').replace(/,/g, ''));
const summed = (line: string, words: string) => Number((new RegExp(`· ([\\d,]+) ${words}`).exec(line)?.[1] ?? 'NaN').replace(/,/g, ''));

async function openStat(ui: Ui, label: string): Promise<string> {
  await ui.page.locator('a.stat', { has: ui.page.locator('.stat-label', { hasText: new RegExp(`^${label}$`) }) }).click();
  await ui.page.waitForURL((u) => u.pathname === '/sessions');
  return countLine(ui);
}

figures('each total, in a range, lists its sessions: the count or the sum equals the figure, the range kept', async ({ ui }) => {
  const cases: [string, (line: string) => number][] = [
    ['Sessions', leading],
    ['Tool calls', (l) => summed(l, 'tool calls?')],
    ['Lookups served', (l) => summed(l, 'lookups? served')],
    ['Shadow decisions', (l) => summed(l, 'shadow decisions?')],
  ];
  for (const [label, read] of cases) {
    await ui.goto(`/${RANGE}`);
    const figure = await statValue(ui, label);
    const line = await openStat(ui, label);
    assert.is(read(line), figure, `${label}: ${line}`);
    const u = new URL(ui.page.url());
    assert.is(u.searchParams.get('from'), '2026-09-20', label);
    assert.is(u.searchParams.get('to'), '2026-09-30', label);
  }
  ui.assertNoErrors();
});

figures('with a domain chosen, the figures list that domain’s sessions', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/');
  await p.selectOption('#domain-filter', 'shop');
  await p.getByTestId('overview-scope').filter({ hasText: 'cover domain shop' }).waitFor();
  await settle(p);
  const calls = await statValue(ui, 'Tool calls');
  const line = await openStat(ui, 'Tool calls');
  assert.is(summed(line, 'tool calls?'), calls, line);
  assert.is(new URL(p.url()).searchParams.get('domain'), 'shop');
  await p.selectOption('#domain-filter', '');
  ui.assertNoErrors();
});

figures('Sessions this week lists the sessions of the last 7 days', async ({ ui }) => {
  await ui.goto('/');
  const figure = await statValue(ui, 'Sessions this week');
  const line = await openStat(ui, 'Sessions this week');
  assert.is(leading(line), figure, line);
  assert.ok(new URL(ui.page.url()).searchParams.has('since'));
  ui.assertNoErrors();
});

figures('a domain card’s count and its modes list their sessions, in the range', async ({ ui }) => {
  const p = ui.page;
  for (const [testid, label] of [['domain-sessions', 'sessions'], ['domain-mode-served', 'served'], ['domain-mode-shadow', 'shadow'], ['domain-mode-recorded', 'recorded']] as const) {
    await ui.goto(`/${RANGE}`);
    const card = p.locator('.dc', { hasText: 'shop' });
    const figure = Number(((await card.getByTestId(testid).textContent()) ?? '').match(/\d+/)?.[0]);
    await card.getByTestId(testid).click();
    await p.waitForURL((u) => u.pathname === '/sessions');
    const line = await countLine(ui);
    assert.is(leading(line), figure, `${label}: ${line}`);
    assert.is(new URL(p.url()).searchParams.get('from'), '2026-09-20', label);
  }
  ui.assertNoErrors();
});

figures('a chart bar opens its day’s sessions: as many as its tooltip says', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/${RANGE}`);
  const bar = p.getByTestId('chart-day-2026-09-28');
  await bar.hover();
  const tip = ((await p.locator('.chart-tip').textContent()) ?? '').match(/(\d+) sessions?/)?.[1];
  assert.ok(tip !== undefined && Number(tip) > 0, 'the tooltip counts the day’s sessions');
  await bar.click();
  await p.waitForURL((u) => u.pathname === '/sessions');
  const line = await countLine(ui);
  assert.is(leading(line), Number(tip), line);
  const u = new URL(p.url());
  assert.is(u.searchParams.get('from'), '2026-09-28');
  assert.is(u.searchParams.get('to'), '2026-09-28');
  ui.assertNoErrors();
});

figures.run();
