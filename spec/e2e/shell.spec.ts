// The shell's states and live data in a real browser: lists refresh when the data dir changes (the event
// stream), a 401 anywhere returns to sign-in, a console that does not answer shows its card, the domain
// filter narrows the overview, and --read-only disables every write with its reason.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, fixtureHome, tempDir } from '../support/fixtures.ts';
import { axe, openUi, type Ui } from './support.ts';

const shell = suite<{ ui: Ui }>('e2e shell');

shell.before(async (ctx) => {
  ctx.ui = await openUi();
});
shell.after(async (ctx) => {
  await ctx.ui?.stop();
});

shell('a session written while the list is open appears without a reload', async ({ ui }) => {
  await ui.goto('/sessions');
  const p = ui.page;
  await p.getByTestId('live').filter({ hasText: 'Live' }).waitFor();
  await p.getByTestId('sessions-count').filter({ hasText: /^12 sessions$/ }).waitFor();
  const src = join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl');
  mkdirSync(join(ui.console.dataDir, 'logs/copied'), { recursive: true });
  copyFileSync(src, join(ui.console.dataDir, 'logs/copied/20260928T020400.548Z-14457.jsonl'));
  await p.getByTestId('sessions-count').filter({ hasText: /^13 sessions$/ }).waitFor({ timeout: 15_000 });
  ui.assertNoErrors();
});

shell('the domain filter narrows the overview cards and is kept across a reload', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  await p.locator('article.dc').first().waitFor();
  const all = await p.locator('article.dc').count();
  assert.ok(all > 1);
  await p.getByTestId('domain-filter').selectOption('retail');
  // The totals and the chart follow the domain too (issue 15).
  await p.getByText('The totals, the chart and the newest sessions cover domain retail.', { exact: true }).waitFor();
  assert.is(await p.locator('article.dc').count(), 1);
  await p.reload();
  await p.locator('article.dc').first().waitFor();
  assert.is(await p.getByTestId('domain-filter').inputValue(), 'retail');
  await p.getByTestId('domain-filter').selectOption('');
  await p.waitForFunction((n) => document.querySelectorAll('article.dc').length === n, all);
  ui.assertNoErrors();
});

shell('a 401 on any request shows the sign-in screen', async ({ ui }) => {
  await ui.goto('/');
  await ui.context.clearCookies();
  await ui.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Jobs', exact: true }).click();
  await ui.page.getByTestId('sign-in').waitFor();
  ui.allowErrors(/401/);
  ui.assertNoErrors();
  // Sign in again for the tests after this one.
  await ui.page.goto(`${ui.console.url}/?token=${ui.console.token}`);
  await ui.page.locator('h1').first().waitFor();
});

shell('a console that does not answer shows its card, and Try again recovers', async ({ ui }) => {
  const p = ui.page;
  await p.route('**/api/meta', (r) => r.abort());
  await p.goto(`${ui.console.url}/`);
  await p.getByRole('heading', { name: 'The console server did not answer' }).waitFor();
  const violations = await axe(p);
  assert.equal(violations.map((v) => v.id), [], 'axe on the unreachable card');
  await ui.screenshot('unreachable');
  await p.unroute('**/api/meta');
  await p.getByRole('button', { name: 'Try again' }).click();
  await p.getByRole('heading', { name: 'Overview' }).waitFor();
  ui.allowErrors(/ERR_FAILED|net::/);
  ui.assertNoErrors();
});

shell.run();

const readOnly = suite<{ ui: Ui }>('e2e read-only');

readOnly.before(async (ctx) => {
  ctx.ui = await openUi({ args: ['--read-only'] });
});
readOnly.after(async (ctx) => {
  await ctx.ui?.stop();
});

readOnly('read-only shows its pill and disables every write with the reason', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  await p.getByTestId('read-only').waitFor();
  const add = p.getByRole('button', { name: 'Add a server' }).first();
  assert.ok(await add.isDisabled());
  assert.is(await add.getAttribute('title'), 'The console is read-only');
  await ui.check('overview-read-only');
  await ui.goto('/jobs/new');
  assert.ok(await p.getByTestId('job-start').isDisabled());
  await ui.goto('/sessions/20260928T020401.117Z-14662');
  assert.ok(await p.getByRole('button', { name: 'Delete' }).isDisabled());
  await p.keyboard.press('Control+k');
  await p.getByTestId('palette-input').fill('job');
  assert.is(await p.getByRole('option', { name: /New learn job/ }).count(), 0, 'the palette hides write actions');
  await p.keyboard.press('Escape');
  ui.assertNoErrors();
});

readOnly.run();

const empty = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e first run');

empty.before(async (ctx) => {
  ctx.home = tempDir('engine-empty-home-');
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
empty.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

empty('an empty data dir shows the first-run steps and each list its empty state', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  await p.getByRole('heading', { name: 'Get started' }).waitFor();
  await p.getByText('No domains yet').waitFor();
  await p.getByText('No tool calls in these 14 days').waitFor();
  await ui.check('overview-first-run');
  await ui.goto('/sessions');
  await p.getByRole('heading', { name: 'No sessions recorded yet' }).waitFor();
  await ui.check('sessions-empty');
});

empty.run();

const paging = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e sessions paging');

paging.before(async (ctx) => {
  // 55 more sessions: copies of a fixture log under their own ids, one minute apart.
  ctx.home = copyHome();
  const source = readFileSync(join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl'), 'utf8').split('\n');
  const header = JSON.parse(source[0]!) as { session: string; started_unix_ms: number };
  mkdirSync(join(ctx.home.dir, 'logs/bulk'), { recursive: true });
  for (let i = 0; i < 55; i++) {
    const id = `bulk-${String(i).padStart(2, '0')}`;
    const head = JSON.stringify({ ...header, session: id, started_unix_ms: header.started_unix_ms - (i + 1) * 60_000, domain: 'bulk' });
    writeFileSync(join(ctx.home.dir, `logs/bulk/${id}.jsonl`), [head, ...source.slice(1)].join('\n'));
  }
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
paging.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

paging('the sessions list pages by 50, with the offset in the URL', async ({ ui }) => {
  await ui.goto('/sessions');
  const p = ui.page;
  const pager = p.getByRole('navigation', { name: 'Pages' }).filter({ hasText: 'sessions' });
  await pager.getByText('1–50 of 67 sessions').waitFor();
  assert.ok(await pager.getByRole('button', { name: 'Newer' }).isDisabled());
  // While the next page loads, the pager still names the rows on screen.
  let answer: () => void = () => {};
  const held = new Promise<void>((r) => (answer = r));
  await p.route(/\/api\/sessions\?.*offset=50/, async (route) => {
    await held;
    await route.continue();
  });
  await pager.getByRole('button', { name: 'Older' }).click();
  await p.waitForURL(/offset=50/);
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.ok(await pager.getByText('1–50 of 67 sessions').isVisible());
  assert.is(await p.locator('.session-table tbody tr').count(), 50);
  answer();
  await pager.getByText('51–67 of 67 sessions').waitFor();
  await p.unroute(/\/api\/sessions\?.*offset=50/);
  assert.match(p.url(), /offset=50/);
  assert.ok(await pager.getByRole('button', { name: 'Older' }).isDisabled());
  assert.is(await p.locator('.session-table tbody tr').count(), 17);
  await p.getByTestId('domain-filter').selectOption('bulk');
  await p.getByTestId('sessions-count').filter({ hasText: '55 sessions match' }).waitFor();
  assert.match(p.url(), /domain=bulk/);
  assert.not.match(p.url(), /offset=/);
  await ui.check('sessions-paged');
});

paging.run();
