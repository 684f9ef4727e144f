// The job form, in a real browser: an empty "optional" Sessions field takes the default the
// command shows (1); the server's refusal stays beside the Start button, and Redact says before the form
// that no salt is set (2); opened from a flow page the flow picker shows that flow (7); leaving a filled form
// asks first, with Stay focused (15).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const jobs = suite<{ ui: Ui }>('e2e ux jobs');

jobs.before(async (ctx) => {
  ctx.ui = await openUi();
});
jobs.after(async (ctx) => {
  await ctx.ui?.stop();
});

jobs('an audit job with Sessions left empty runs over the default the command shows', async ({ ui }) => {
  await ui.goto('/jobs/new?kind=audit&flow=shop');
  const p = ui.page;
  await p.getByTestId('job-command').filter({ hasText: /--sessions \/\S+\/logs\/shop / }).waitFor();
  assert.is(await p.locator('#job-sessions').inputValue(), '');
  await p.getByTestId('job-start').click();
  await p.waitForURL((u) => /^\/jobs\/[^/]+$/.test(u.pathname) && u.pathname !== '/jobs/new');
  const id = decodeURIComponent(new URL(p.url()).pathname.split('/').pop()!);
  const job = (await (await ui.console.api(`/api/jobs/${encodeURIComponent(id)}`)).json()) as { params: { sessions: string; flow: string } };
  assert.is(job.params.sessions, 'logs/shop');
  assert.is(job.params.flow, 'shop');
});

jobs('opened from a flow page, the flow picker shows the flow the command names', async ({ ui }) => {
  for (const kind of ['promote', 'audit', 'stage']) {
    await ui.goto(`/jobs/new?kind=${kind}&flow=shop`);
    const p = ui.page;
    // promote would write over shop.promoted.flow.json: the refusal names it, which shows shop is the flow.
    if (kind === 'promote') await p.getByTestId('job-preview-refused').filter({ hasText: 'shop.promoted.flow.json exists' }).waitFor();
    else await p.getByTestId('job-command').filter({ hasText: /--flow \/\S+\/shop\.flow\.json / }).waitFor();
    assert.is(await p.getByTestId('job-flow').inputValue(), 'shop', kind);
    assert.is(await p.getByTestId('job-flow').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? ''), 'shop · shop', kind);
  }
});

jobs('Redact says no salt is set before the form, and the refusal stays beside Start', async ({ ui }) => {
  await ui.goto('/jobs/new');
  const p = ui.page;
  assert.is((await p.getByTestId('redact-salt-line').textContent())?.trim(), 'Needs ENGINE_REDACT_SALT, which is not set.');
  await p.locator('label.radio-card', { hasText: 'Redact' }).click();
  await p.getByTestId('redact-no-salt').waitFor();
  await p.locator('#job-sessions').fill('logs/shop');
  await p.getByTestId('job-start').click();
  const error = p.getByTestId('job-error');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /^The job did not start: redacting needs a salt: set ENGINE_REDACT_SALT/);
  // Beside the button the person pressed, and on screen.
  const e = (await error.boundingBox())!;
  const b = (await p.getByTestId('job-start').boundingBox())!;
  const gap = b.y - (e.y + e.height);
  assert.ok(gap >= 0, `the error ends ${gap} px above the button`);
  assert.ok(gap < 60, `the error ends ${gap} px above the button`);
  const viewport = p.viewportSize()!;
  assert.ok(e.y >= 0, `the error starts at ${e.y}: in view`);
  assert.ok(e.y + e.height <= viewport.height, `the error ends at ${e.y + e.height}: in view`);
  // A toast would be gone by now; the error is not.
  await p.waitForTimeout(1500);
  assert.ok(await error.isVisible());
  ui.allowErrors(/status of 400/);
  await ui.check('ux-job-redact-refused');
});

jobs('leaving a filled form asks first; Enter stays, Leave goes; an untouched form just goes', async ({ ui }) => {
  await ui.goto('/jobs/new?kind=learn');
  const p = ui.page;
  await p.getByTestId('learn-domain').fill('notes');
  await p.locator('.sidenav').getByRole('link', { name: 'Jobs' }).click();
  const dialog = p.getByTestId('leave-dialog');
  await dialog.getByText('Leave this form?').waitFor();
  assert.is(await p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? ''), 'leave-stay');
  await ui.check('ux-job-leave');
  await p.keyboard.press('Enter');
  await dialog.getByText('Leave this form?').waitFor({ state: 'hidden' });
  assert.match(p.url(), /\/jobs\/new/);
  assert.is(await p.getByTestId('learn-domain').inputValue(), 'notes');
  await p.locator('.sidenav').getByRole('link', { name: 'Jobs' }).click();
  await p.getByTestId('leave-confirm').click();
  await p.waitForURL(/\/jobs$/);
  await ui.goto('/jobs/new?kind=learn');
  await p.locator('.sidenav').getByRole('link', { name: 'Jobs' }).click();
  await p.waitForURL(/\/jobs$/);
  await settle(p);
  assert.is(await p.getByTestId('leave-dialog').isVisible(), false);
});

jobs.run();
