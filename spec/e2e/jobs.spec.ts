// Jobs in a real browser, run by the test-double CLI (spec/support/fake-engine.mjs): start one from the
// form and watch its output arrive while it runs, see it succeed; cancel a running one; the form's own
// checks and the server's refusal.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const jobs = suite<{ ui: Ui; dir: string; control: string }>('e2e jobs');

function gate(dir: string, name: string, lines: number): string {
  const file = join(dir, name);
  return JSON.stringify({ doctor: { lines, wait_for: file } });
}

jobs.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'engine-e2e-jobs-'));
  ctx.control = join(ctx.dir, 'control.json');
  writeFileSync(ctx.control, gate(ctx.dir, 'go-1', 6));
  ctx.ui = await openUi({ env: { FAKE_ENGINE_CONTROL: ctx.control } });
});
jobs.after(async (ctx) => {
  await ctx.ui?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

jobs('a doctor job started from the form shows its output live, then succeeds', async ({ ui, dir }) => {
  await ui.goto('/jobs/new?kind=doctor');
  const p = ui.page;
  // The server's plan of the job: the doctor checks the data directory this console serves.
  await p.getByTestId('job-command').filter({ hasText: /^engine doctor --data \/\S+$/ }).waitFor();
  await p.getByTestId('job-start').click();
  await p.waitForURL(/\/jobs\/[^/]+$/);
  await p.getByRole('heading', { name: /Running/ }).waitFor();
  // The CLI printed its lines and now waits: they are on the page before it ends.
  await p.getByTestId('job-output').filter({ hasText: 'line 6 of 6 on stderr' }).waitFor();
  assert.match((await p.getByTestId('job-output').textContent()) ?? '', /\$ engine doctor --data /);
  await ui.check('job-running');
  writeFileSync(join(dir, 'go-1'), '');
  await p.getByRole('heading', { name: /Succeeded/ }).waitFor({ timeout: 15_000 });
  await p.getByTestId('job-output').filter({ hasText: 'fake engine done' }).waitFor();
  await p.getByText('Check the installation: done').waitFor();
  await p.getByRole('link', { name: 'Jobs', exact: true }).first().click();
  await p.getByRole('link', { name: 'Check the installation' }).first().waitFor();
  await settle(p);
  await ui.check('jobs');
});

jobs('a running job can be cancelled, and then says so', async ({ ui, dir, control }) => {
  writeFileSync(control, gate(dir, 'never', 2));
  const res = await ui.console.api('/api/jobs', { method: 'POST', body: JSON.stringify({ kind: 'doctor' }) });
  assert.is(res.status, 202);
  const job = (await res.json()) as { id: string };
  await ui.goto(`/jobs/${job.id}`);
  const p = ui.page;
  await p.getByRole('heading', { name: /Running/ }).waitFor();
  await p.getByTestId('job-output').filter({ hasText: 'line 2 of 2' }).waitFor();
  await p.getByRole('button', { name: 'Cancel', exact: true }).click();
  await p.getByRole('heading', { name: /Cancelled/ }).waitFor({ timeout: 15_000 });
  await p.getByTestId('job-output').filter({ hasText: 'engine-console: cancelled' }).waitFor();
  assert.is(await p.getByRole('button', { name: 'Cancel', exact: true }).count(), 0);
  ui.assertNoErrors();
});

jobs('the learn form checks its fields first, and shows the server refusing to overwrite a flow', async ({ ui }) => {
  await ui.goto('/jobs/new?kind=learn');
  const p = ui.page;
  await p.getByTestId('job-start').click();
  await p.getByText('Name the domain.').waitFor();
  assert.is(await p.getByTestId('learn-domain').getAttribute('aria-invalid'), 'true');
  await p.getByTestId('learn-domain').fill('shop');
  // The preview already says what the server will answer.
  await p.getByTestId('job-preview-refused').filter({ hasText: 'shop.flow.json exists: choose another path, or overwrite it' }).waitFor();
  await p.getByTestId('job-start').click();
  await p.getByRole('alert').filter({ hasText: 'shop.flow.json exists' }).waitFor();
  ui.allowErrors(/409/);
  await ui.check('job-new-refused');
});

jobs('a finished audit shows its Markdown report, with the output one click away', async ({ ui }) => {
  const res = await ui.console.api('/api/jobs', { method: 'POST', body: JSON.stringify({ kind: 'audit', flow: 'shop', sessions: 'logs/shop' }) });
  assert.is(res.status, 202);
  const job = (await res.json()) as { id: string };
  await ui.goto(`/jobs/${job.id}`);
  const p = ui.page;
  await p.getByRole('heading', { name: /Succeeded/ }).waitFor({ timeout: 15_000 });
  await p.getByRole('heading', { name: 'fake audit --out' }).waitFor();
  assert.ok(await p.getByRole('heading', { name: 'Report', exact: true }).isVisible());
  await ui.check('job-report');
  await p.getByRole('radio', { name: 'Output' }).click();
  await p.getByTestId('job-output').filter({ hasText: '$ engine audit' }).waitFor();
  assert.ok(await p.getByTestId('job-artifacts').getByRole('link', { name: /audit\.md$/ }).isVisible());
  ui.assertNoErrors();
});

jobs('Run again… opens the form filled with the job parameters', async ({ ui }) => {
  const res = await ui.console.api('/api/jobs', {
    method: 'POST',
    body: JSON.stringify({ kind: 'learn', domain: 'shop', sessions: 'logs/shop', out: 'again.flow.json', constants: true }),
  });
  assert.is(res.status, 202);
  const job = (await res.json()) as { id: string };
  await ui.goto(`/jobs/${job.id}`);
  const p = ui.page;
  await p.getByRole('heading', { name: /Succeeded/ }).waitFor({ timeout: 15_000 });
  await p.getByRole('link', { name: 'Run again…' }).click();
  await p.getByTestId('job-from').waitFor();
  assert.is(await p.getByTestId('learn-domain').inputValue(), 'shop');
  assert.is(await p.getByRole('textbox', { name: /Write the flow to/ }).inputValue(), 'again.flow.json');
  assert.is(await p.getByRole('switch', { name: 'Constants (--constants)' }).getAttribute('aria-checked'), 'true');
  await p.getByTestId('job-preview-refused').filter({ hasText: 'again.flow.json exists: choose another path, or overwrite it' }).waitFor();
  await p.getByRole('switch', { name: 'Replace an existing flow' }).click();
  await p.getByTestId('job-command').filter({ hasText: /^engine learn --sessions \/\S+\/logs\/shop --domain shop --out \/\S+\/again\.flow\.json --habit-only --constants$/ }).waitFor();
  ui.assertNoErrors();
});

jobs.run();
