// The sessions list, in a real browser over the fixture home plus 60 generated sessions (one a
// day from 2026-08-01): Older scrolls the list back to its top; filters and pages are history entries, so
// Back undoes them (12); columns sort; the header row stays in view (12); a UTC day range (14).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, fixtureHome } from '../support/fixtures.ts';
import { openUi, settle, type Ui } from './support.ts';

const list = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e ux sessions');
const DAY = 86_400_000;

list.before(async (ctx) => {
  ctx.home = copyHome();
  const source = readFileSync(join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl'), 'utf8').split('\n');
  const header = JSON.parse(source[0]!) as Record<string, unknown>;
  mkdirSync(join(ctx.home.dir, 'logs/extra'), { recursive: true });
  for (let i = 0; i < 60; i++) {
    const id = `x-${String(i).padStart(2, '0')}`;
    // The newest has a long agent name: its cell is cut with an ellipsis, in line with the column.
    const agent = i === 59 ? 'a-very-long-agent-model-name-that-goes-on-and-on-2026-09-29-preview-build' : null;
    const line = JSON.stringify({ ...header, session: id, domain: 'extra', agent_model: agent, started_unix_ms: Date.UTC(2026, 7, 1) + i * DAY + 3_600_000 });
    writeFileSync(join(ctx.home.dir, `logs/extra/${id}.jsonl`), [line, ...source.slice(1)].join('\n'));
  }
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
list.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

const firstRow = (ui: Ui) => ui.page.locator('.session-table tbody tr').first().locator('td').first().textContent();

list('Older scrolls to the top of the list; pages and filters are history entries that Back undoes', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions');
  await p.getByTestId('sessions-count').filter({ hasText: /^72 sessions$/ }).waitFor();
  const newest = await firstRow(ui);
  // Read to the end of the first page: the rows' frame at its bottom, the pager in view.
  await p.locator('.session-table').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await p.getByRole('button', { name: 'Older' }).scrollIntoViewIfNeeded();
  await p.getByRole('button', { name: 'Older' }).click();
  await p.waitForURL(/offset=50/);
  await settle(p);
  assert.is(await p.getByText(/^51–72 of 72 sessions$/).count(), 1);
  const top = await p.locator('.session-table').boundingBox();
  assert.ok(top !== null, 'the list is shown');
  assert.ok(top.y >= 0, `the list starts on screen (at ${top.y})`);
  assert.ok(top.y < 300, `the list starts on screen (at ${top.y})`);
  assert.is(await p.locator('.session-table').evaluate((el) => el.scrollTop), 0, 'the first rows of the page are shown');
  await p.goBack();
  await p.waitForURL((u) => u.pathname === '/sessions' && !u.search.includes('offset'));
  await settle(p);
  assert.is(await firstRow(ui), newest);

  await p.getByRole('radio', { name: 'Shadow' }).click();
  await p.waitForURL(/mode=shadow/);
  await p.getByTestId('sessions-count').filter({ hasText: /^3 sessions match$/ }).waitFor();
  await p.getByTestId('sessions-search').fill('14750');
  await p.waitForURL(/q=14750/);
  await p.getByTestId('sessions-count').filter({ hasText: /^1 session matches$/ }).waitFor();
  await p.goBack();
  await p.waitForURL((u) => u.search === '?mode=shadow');
  assert.is(await p.getByTestId('sessions-search').inputValue(), '');
  await p.getByTestId('sessions-count').filter({ hasText: /^3 sessions match$/ }).waitFor();
  await p.goBack();
  await p.waitForURL((u) => u.pathname === '/sessions' && u.search === '');
  await p.getByTestId('sessions-count').filter({ hasText: /^72 sessions$/ }).waitFor();
  assert.is(await p.getByRole('radio', { name: 'All' }).getAttribute('aria-checked'), 'true');
});

list('a column head sorts, both ways, and says so', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions?domain=shop');
  const calls = async () =>
    p.locator('.session-table table').evaluate((t) => {
      const i = [...t.querySelectorAll('thead th')].findIndex((th) => th.textContent?.trim() === 'Calls');
      return [...t.querySelectorAll('tbody tr')].map((r) => Number((r.children[i] as HTMLElement).innerText.replace(/,/g, '')));
    });
  await p.getByTestId('sessions-count').filter({ hasText: /^11 sessions match$/ }).waitFor();
  await p.getByTestId('sort-calls').click();
  await p.waitForURL((u) => u.searchParams.get('sort') === 'calls' && u.searchParams.get('order') === 'desc');
  await settle(p);
  const down = await calls();
  assert.equal(down, [...down].sort((a, b) => b - a));
  assert.ok(down[0]! > down[down.length - 1]!, 'calls differ');
  assert.is(await p.locator('th', { has: p.getByTestId('sort-calls') }).getAttribute('aria-sort'), 'descending');
  await p.getByTestId('sort-calls').click();
  await p.waitForURL(/order=asc/);
  await settle(p);
  const up = await calls();
  assert.equal(up, [...up].sort((a, b) => a - b));
  assert.is(await p.locator('th', { has: p.getByTestId('sort-calls') }).getAttribute('aria-sort'), 'ascending');
  await ui.check('ux-sessions-sorted');
  await p.selectOption('#domain-filter', '');
});

list('the header row stays in view while the rows scroll', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions');
  const wrap = p.locator('.session-table');
  await wrap.evaluate((el) => {
    el.scrollIntoView();
    el.scrollTop = 900;
  });
  await p.waitForTimeout(100);
  const head = (await p.locator('.session-table thead th').first().boundingBox())!;
  const frame = (await wrap.boundingBox())!;
  assert.ok(Math.abs(head.y - frame.y) <= 1.5, `the header row is at the frame's top (${head.y} vs ${frame.y})`);
  assert.ok((await wrap.evaluate((el) => el.scrollTop)) > 0, 'the rows scrolled');
  // The Agent column's cells line up with its head.
  const x = await p.evaluate(() => {
    const table = document.querySelector('.session-table table')!;
    const i = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent?.includes('Agent'));
    const th = table.querySelectorAll('thead th')[i]!.getBoundingClientRect();
    const td = table.querySelector('tbody tr')!.children[i]!.getBoundingClientRect();
    return [th.left, td.left, th.right, td.right];
  });
  assert.ok(Math.abs(x[0]! - x[1]!) < 1, `Agent head and cell left edges: ${x.join(', ')}`);
  assert.ok(Math.abs(x[2]! - x[3]!) < 1, `Agent head and cell right edges: ${x.join(', ')}`);
  await wrap.evaluate((el) => (el.scrollTop = 0));
  await ui.screenshot('ux-sessions-agent');
});

list('a UTC day range narrows the list and lives in the URL', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions');
  await p.getByTestId('sessions-from').fill('2026-09-01');
  await p.getByTestId('sessions-to').fill('2026-09-10');
  await p.waitForURL(/from=2026-09-01/);
  await p.waitForURL(/to=2026-09-10/);
  await p.getByTestId('sessions-count').filter({ hasText: /^10 sessions match from 2026-09-01 to 2026-09-10 \(UTC\)$/ }).waitFor();
  await ui.check('ux-sessions-range');
  await p.reload();
  await p.getByTestId('sessions-count').filter({ hasText: /^10 sessions match/ }).waitFor();
  assert.is(await p.getByTestId('sessions-from').inputValue(), '2026-09-01');
  await p.getByTestId('sessions-range-clear').click();
  await p.getByTestId('sessions-count').filter({ hasText: /^72 sessions$/ }).waitFor();
});

list.run();
