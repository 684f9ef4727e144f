// The console's words read as sentences and say what is true: the redact card's two lines, the flows list's
// note on files left out, a domain with no session yet, a finished job's output, the sign-in example at the
// console's own address, the Settings line of a missing proxy; and the conversation view's minimap rail ends
// with the conversation.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { openUi, settle, type Ui } from './support.ts';

const words = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e ui words');

words.before(async (ctx) => {
  ctx.home = copyHome();
  writeFileSync(join(ctx.home.dir, 'broken.flow.json'), '{"engine_flow": 7}\n');
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
words.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

const text = async (ui: Ui, testid: string) => ((await ui.page.getByTestId(testid).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

words('the redact card reads as two sentences', async ({ ui }) => {
  await ui.goto('/jobs/new');
  const card = ui.page.locator('.radio-card', { has: ui.page.getByTestId('kind-redact') });
  await card.getByTestId('redact-salt-line').waitFor();
  assert.match((await card.textContent()) ?? '', /to share\. Needs ENGINE_REDACT_SALT/);
  ui.assertNoErrors();
});

words('the flows list says plainly why a file that does not load is left out', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows');
  await p.selectOption('#domain-filter', 'shop');
  await p.getByTestId('flows-hidden-broken').waitFor();
  assert.is(
    await text(ui, 'flows-hidden-broken'),
    '1 flow file that does not load is not listed here: it names no domain, and its file name does not start with shop. Choose All domains to see it.',
  );
  await p.selectOption('#domain-filter', '');
  ui.assertNoErrors();
});

words('a domain with no session yet does not say "last never"', async ({ ui }) => {
  await ui.goto('/');
  const card = ui.page.locator('.dc', { hasText: 'orders' });
  await card.waitFor();
  const t = (await card.textContent()) ?? '';
  assert.not.match(t, /never/);
  assert.match(t, /no sessions yet/);
  ui.assertNoErrors();
});

words('a finished job\'s output caption says what it holds', async ({ ui }) => {
  const res = await ui.console.api('/api/jobs', { method: 'POST', body: JSON.stringify({ kind: 'doctor' }) });
  assert.is(res.status, 202);
  const job = (await res.json()) as { id: string };
  await ui.goto(`/jobs/${job.id}`);
  const p = ui.page;
  await p.getByRole('heading', { name: /Succeeded|Failed/ }).waitFor();
  await p.getByText('stdout and stderr, all of it').waitFor();
  assert.is(await p.getByText(/in lists/).count(), 0);
  ui.allowErrors(/./);
});

words('the sign-in example is this console\'s own address', async ({ ui }) => {
  const context = await ui.browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(ui.console.url);
    const help = page.locator('#signin-help');
    await help.waitFor();
    const t = (await help.textContent()) ?? '';
    assert.ok(t.includes(`${new URL(ui.console.url).origin}/?token=`), t);
    if (new URL(ui.console.url).port !== '7878') assert.not.match(t, /7878/);
  } finally {
    await context.close();
  }
});

words('Settings does not say jobs run engine-proxy', async ({ ui }) => {
  const settings = (await (await ui.console.api('/api/settings')).json()) as { binaries: { name: string; path: string | null }[] };
  assert.is(settings.binaries.find((b) => b.name === 'engine-proxy')?.path, null, 'this console has no engine-proxy');
  await ui.goto('/settings');
  const line = ui.page.locator('.binaries li', { hasText: 'engine-proxy' });
  await line.waitFor();
  const t = (await line.textContent()) ?? '';
  assert.not.match(t, /jobs that run it fail/);
  assert.match(t, /no job runs it/);
  ui.assertNoErrors();
});

words('in the conversation view the minimap rail ends with the conversation', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions/20260928T020401.117Z-14662');
  await p.getByRole('radio', { name: 'Conversation' }).click();
  await settle(p);
  const [railBottom, listBottom] = await p.evaluate(() => {
    const rail = document.querySelector('[data-testid="minimap"]')!.getBoundingClientRect();
    const list = document.querySelector('[data-testid="timeline"]')!.getBoundingClientRect();
    return [rail.bottom + window.scrollY, list.bottom + window.scrollY];
  });
  assert.ok(railBottom <= listBottom + 2, `the rail ends at ${railBottom}, the conversation at ${listBottom}`);
  ui.assertNoErrors();
});

words.run();
