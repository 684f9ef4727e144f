// Every page of part 1 in a real browser against the real console over a copy of the fixture home:
// headings and key texts, axe (WCAG 2.1 A/AA) in both themes, no sideways scroll at 390 px, no console
// error, a screenshot of each under test-results/; the palette, the shortcuts, the theme and sign-in.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { axe, openUi, settle, type Ui } from './support.ts';

const pages = suite<{ ui: Ui }>('e2e pages');

pages.before(async (ctx) => {
  ctx.ui = await openUi();
});
pages.after(async (ctx) => {
  await ctx.ui?.stop();
});

pages('the overview shows the totals, the chart, health and the domains of the data dir', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  assert.is(await p.title(), 'Overview · engine console');
  await p.getByRole('img', { name: /^Tool calls per day over the last 14 days/ }).waitFor();
  assert.ok(await p.getByText('read ahead by flows, every session').isVisible());
  assert.ok(await p.getByRole('link', { name: 'shop', exact: false }).first().isVisible());
  assert.is(await p.getByRole('heading', { name: 'Get started' }).count(), 0, 'a populated data dir shows no first-run steps');
  await p.getByRole('button', { name: 'Table', exact: true }).click();
  assert.is(await p.locator('figure table tbody tr').count(), 14);
  await p.getByRole('button', { name: 'Chart', exact: true }).click();
  await ui.check('overview');
});

pages('the sidebar reaches every page and marks the current one', async ({ ui }) => {
  await ui.goto('/');
  const nav = ui.page.getByRole('navigation', { name: 'Pages' });
  for (const [name, path] of [['Sessions', '/sessions'], ['Jobs', '/jobs'], ['Settings', '/settings'], ['Overview', '/']] as const) {
    await nav.getByRole('link', { name, exact: true }).click();
    await ui.page.waitForURL((u) => u.pathname === path);
    assert.is(await nav.getByRole('link', { name, exact: true }).getAttribute('aria-current'), 'page');
  }
  ui.assertNoErrors();
});

pages('the sessions list filters by mode and text, keeps them in the URL, and pages', async ({ ui }) => {
  await ui.goto('/sessions');
  const p = ui.page;
  await p.getByTestId('sessions-count').filter({ hasText: '12 sessions' }).waitFor();
  await p.getByRole('radio', { name: 'Shadow' }).click();
  await p.getByTestId('sessions-count').filter({ hasText: '3 sessions match' }).waitFor();
  assert.match(p.url(), /mode=shadow/);
  await p.getByRole('radio', { name: 'All' }).click();
  await p.getByTestId('sessions-search').fill('14662');
  await p.getByTestId('sessions-count').filter({ hasText: '1 session matches' }).waitFor();
  assert.match(p.url(), /q=14662/);
  await p.getByTestId('sessions-search').fill('no-such-thing');
  await p.getByRole('heading', { name: 'No sessions match' }).waitFor();
  await p.getByRole('button', { name: 'Clear the filters' }).click();
  await p.getByTestId('sessions-count').filter({ hasText: '12 sessions' }).waitFor();
  await ui.check('sessions');
});

pages('a served session shows its timeline with the flow lookups, and its other tabs', async ({ ui }) => {
  await ui.goto('/sessions');
  const p = ui.page;
  await p.getByRole('link', { name: '20260928T020401.117Z-14662' }).click();
  await p.getByRole('heading', { name: '20260928T020401.117Z-14662' }).waitFor();
  await settle(p);
  assert.is(await p.title(), '20260928T020401.117Z-14662 · engine console');
  assert.ok(await p.getByText('Read ahead by engine: 3 lookups').isVisible());
  assert.is(await p.getByTestId('decision-made').count(), 3);
  assert.ok(await p.getByText('Hi, I\u2019m c41@example.com', { exact: false }).or(p.getByText("Hi, I'm c41@example.com", { exact: false })).first().isVisible());
  await p.getByRole('button', { name: 'Expand all' }).click();
  await p.getByRole('button', { name: 'Collapse all' }).waitFor();
  await ui.check('session');
  await p.getByRole('radio', { name: 'Conversation' }).click();
  assert.is(await p.locator('[data-testid^="call-"]').count(), 0, 'the conversation alone has no call cards');
  assert.ok((await p.locator('.bubble').count()) > 0);
  await p.getByRole('radio', { name: /Failed or unanswered \(0\)/ }).click();
  await p.getByText('Nothing of this kind in the session.').waitFor();
  await p.getByRole('radio', { name: 'Everything' }).click();
  await p.getByRole('tab', { name: /Decisions/ }).click();
  assert.match(p.url(), /tab=decisions/);
  assert.match((await p.locator('tr.decision-row').first().textContent()) ?? '', /looks up/);
  await p.getByRole('heading', { name: 'Flow runs' }).waitFor();
  await p.getByRole('tab', { name: /Raw log/ }).click();
  await p.getByRole('radio', { name: 'JSON lines' }).click();
  await p.getByTestId('raw-lines').waitFor();
  assert.match((await p.locator('[data-testid="raw-lines"] li').first().textContent()) ?? '', /engine_mcp_log/);
  await p.getByRole('tab', { name: /Tools/ }).click();
  await p.getByRole('cell', { name: 'cancel_pending_order' }).waitFor();
  await ui.check('session-tools');
});

pages('a session with a confirmation log lists each judgment', async ({ ui }) => {
  await ui.goto('/sessions/20260928T020401.312Z-14780?tab=confirmations');
  const p = ui.page;
  assert.is(await p.getByRole('tab', { name: /Confirmations/ }).getAttribute('aria-selected'), 'true');
  await p.getByText('logged only').waitFor();
  assert.ok(await p.getByRole('tabpanel').getByText('cancel_pending_order').first().isVisible());
  await ui.check('session-confirmations');
});

pages('a shadow session says what the flow would have read ahead', async ({ ui }) => {
  await ui.goto('/sessions/20260928T020401.240Z-14750');
  const p = ui.page;
  await p.getByText('In shadow: what the flow would have read ahead').first().waitFor();
  assert.ok((await p.getByTestId('decision-shadow').count()) > 0);
  ui.assertNoErrors();
});

pages('a session that is not there says so', async ({ ui }) => {
  await ui.goto('/sessions/no-such-session');
  await ui.page.getByRole('heading', { name: 'No such session' }).waitFor();
  ui.allowErrors(/404/);
  ui.assertNoErrors();
});

pages('the jobs list, the new job form and settings pass their checks', async ({ ui }) => {
  await ui.goto('/jobs');
  await ui.page.getByRole('heading', { name: 'No jobs yet' }).waitFor();
  await ui.check('jobs-empty');
  await ui.goto('/jobs/new?kind=learn&domain=notes');
  const p = ui.page;
  assert.is(await p.getByTestId('learn-domain').inputValue(), 'notes');
  await p.getByTestId('job-preview-refused').filter({ hasText: 'sessions: logs/notes is not a directory' }).waitFor();
  await ui.check('job-new');
  await ui.goto('/settings');
  await p.getByText('Session logs').first().waitFor();
  await ui.check('settings');
});

pages('an unknown address shows Not found', async ({ ui }) => {
  await ui.goto('/no/such/page');
  await ui.page.getByText('Nothing is at this address').waitFor();
  assert.is(await ui.page.title(), 'Not found · engine console');
  await ui.check('not-found');
});

pages('the command palette opens with Ctrl-K, finds a session and opens it', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  await p.keyboard.press('Control+k');
  const input = p.getByTestId('palette-input');
  await input.waitFor();
  const violations = await axe(p);
  assert.equal(violations.map((v) => v.id), [], 'axe on the open palette');
  await ui.screenshot('palette');
  await input.fill('14715');
  await p.getByRole('option', { name: /20260928T020401\.195Z-14715/ }).waitFor();
  await p.keyboard.press('ArrowDown');
  await p.keyboard.press('ArrowUp');
  await input.fill('14715');
  await p.getByRole('option', { name: /20260928T020401\.195Z-14715/ }).click();
  await p.waitForURL(/\/sessions\/20260928T020401\.195Z-14715/);
  await p.getByRole('heading', { name: '20260928T020401.195Z-14715' }).waitFor();
  ui.assertNoErrors();
});

pages('keyboard shortcuts move between pages and ? lists them', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  await p.locator('body').click({ position: { x: 5, y: 800 } });
  await p.keyboard.press('g');
  await p.keyboard.press('j');
  await p.waitForURL((u) => u.pathname === '/jobs');
  await p.keyboard.press('g');
  await p.keyboard.press('s');
  await p.waitForURL((u) => u.pathname === '/sessions');
  await p.keyboard.press('Shift+?');
  await p.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await p.keyboard.press('Escape');
  ui.assertNoErrors();
});

pages('the theme button cycles system, light, dark and the choice survives a reload', async ({ ui }) => {
  await ui.goto('/');
  const p = ui.page;
  await p.getByRole('button', { name: /^Theme: the system’s/ }).click();
  assert.is(await p.evaluate(() => document.documentElement.getAttribute('data-theme')), 'light');
  await p.getByRole('button', { name: /^Theme: light/ }).click();
  assert.is(await p.evaluate(() => document.documentElement.getAttribute('data-theme')), 'dark');
  await p.reload();
  await p.locator('h1').first().waitFor();
  assert.is(await p.evaluate(() => document.documentElement.getAttribute('data-theme')), 'dark');
  await p.getByRole('button', { name: /^Theme: dark/ }).click();
  assert.is(await p.evaluate(() => document.documentElement.getAttribute('data-theme')), null);
  ui.assertNoErrors();
});

pages('the menu opens as a drawer at 390 px and closes on navigation', async ({ ui }) => {
  await ui.page.setViewportSize({ width: 390, height: 844 });
  try {
    await ui.goto('/');
    const p = ui.page;
    await p.getByRole('button', { name: 'Open the menu' }).click();
    const nav = p.getByRole('navigation', { name: 'Pages' });
    await nav.getByRole('link', { name: 'Sessions', exact: true }).waitFor({ state: 'visible' });
    const violations = await axe(p);
    assert.equal(violations.map((v) => v.id), [], 'axe with the drawer open');
    await ui.screenshot('drawer-390');
    await nav.getByRole('link', { name: 'Sessions', exact: true }).click();
    await p.waitForURL((u) => u.pathname === '/sessions');
    await nav.getByRole('link', { name: 'Sessions', exact: true }).waitFor({ state: 'hidden' });
  } finally {
    await ui.page.setViewportSize({ width: 1440, height: 900 });
  }
  ui.assertNoErrors();
});

pages('without the cookie the sign-in screen refuses a wrong token and a right one signs in on the same page', async ({ ui }) => {
  const context = await ui.browser.newContext();
  const p = await context.newPage();
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(e.message));
  try {
    await p.goto(`${ui.console.url}/sessions`);
    await p.getByTestId('sign-in').waitFor();
    const violations = await axe(p);
    assert.equal(violations.map((v) => v.id), [], 'axe on the sign-in screen');
    await p.screenshot({ path: 'test-results/sign-in.png' });
    await p.getByRole('textbox', { name: 'Token' }).fill('wrong');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByText('That token was not accepted', { exact: false }).waitFor();
    await p.getByRole('textbox', { name: 'Token' }).fill(ui.console.token ?? '');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Sessions' }).waitFor();
    assert.is(new URL(p.url()).pathname, '/sessions');
    assert.not.match(p.url(), /token=/);
    const cookie = (await context.cookies()).find((c) => c.name === 'engine_console');
    assert.ok(cookie?.httpOnly, 'the cookie is HttpOnly');
    await p.goto(`${ui.console.url}/settings`);
    await p.getByRole('button', { name: 'Sign out' }).click();
    await p.getByTestId('sign-in').waitFor();
    assert.equal(errors, []);
  } finally {
    await context.close();
  }
});

pages.run();
