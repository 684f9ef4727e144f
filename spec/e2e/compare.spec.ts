// Comparing sessions in a real browser: tick two sessions in the list and compare them, open the comparison
// from a served session ("compare with a recorded session"), follow a decision to its site's evidence on the
// flow page, read the savings on the Overview (chart and tables), each checked with axe and at 390 px; and a
// one-time sign-in link that is refused lands on the sign-in screen saying why. The clock is fixed three
// days after the fixture sessions, so the savings' 14 days hold them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { axe, openUi, settle, type Ui } from './support.ts';

const RECORDED = '20260928T020400.548Z-14457';
const SERVED = '20260928T020401.117Z-14662';

const compare = suite<{ ui: Ui }>('e2e compare');

compare.before(async (ctx) => {
  ctx.ui = await openUi({ env: { ENGINE_CONSOLE_NOW_MS: String(Date.UTC(2026, 9, 1, 12)) } });
});
compare.after(async (ctx) => {
  await ctx.ui?.stop();
});

compare('ticking two sessions and choosing Compare lines them up, the older one as A', async ({ ui }) => {
  const { page } = ui;
  await ui.goto('/sessions');
  const compareButton = page.getByTestId('compare-ticked');
  assert.is(await compareButton.isDisabled(), true);
  // Tick the served session first: the recorded one, started earlier, still goes on side A.
  await page.getByRole('checkbox', { name: `Tick session ${SERVED}` }).check();
  await page.getByRole('checkbox', { name: `Tick session ${RECORDED}` }).check();
  await page.getByRole('link', { name: 'Compare (2 of 2)' }).click();
  await page.waitForURL(`**/sessions/compare?a=${RECORDED}&b=${SERVED}`);
  await page.getByTestId('compare-rows').waitFor();
  await settle(page);

  const rows = page.getByTestId('compare-rows').locator('tbody tr');
  assert.is(await rows.count(), 7);
  const kinds = await rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.querySelector('.compare-kind')?.textContent ?? '—').join(' | ')),
  );
  assert.equal(kinds, [
    'agent’s call | — | agent’s call',
    'agent’s call | — | flow lookup',
    'agent’s call | — | flow lookup',
    'agent’s call | — | flow lookup',
    '— | — | hand-back',
    'agent’s call | — | agent’s call',
    '— | — | hand-back',
  ]);
  const turns = await page.getByTestId('compare-difference').locator('div').first().innerText();
  assert.is(turns.replace(/\s+/g, ' ').trim(), 'LLM turns 7 → 4 3 fewer');
  await ui.check('compare');
});

compare('a served session offers the comparison with the closest recorded session of its domain', async ({ ui }) => {
  const { page } = ui;
  await ui.goto(`/sessions/${SERVED}`);
  await page.getByTestId('compare-with-recorded').click();
  await page.waitForURL(`**/sessions/compare?a=20260928T020400.710Z-14594&b=${SERVED}`);
  await page.getByTestId('compare-rows').waitFor();
  assert.is(await page.getByTestId('compare-side-b').locator('a').innerText(), SERVED);
  ui.assertNoErrors();
});

compare('an unknown session is a clear not-found state', async ({ ui }) => {
  const { page } = ui;
  await ui.goto(`/sessions/compare?a=${RECORDED}&b=nope`);
  await page.getByRole('alert').waitFor();
  assert.match(await page.getByRole('alert').innerText(), /No such session[\s\S]*404[\s\S]*no session "nope" \(b\)/);
  ui.allowErrors(/404/);
  ui.assertNoErrors();
});

compare('a sign-in link whose code is not good lands on the sign-in screen with the reason', async ({ ui }) => {
  const context = await ui.browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  try {
    const page = await context.newPage();
    await page.goto(`${ui.console.url}/sessions?code=${'0'.repeat(32)}`);
    const notice = page.getByTestId('sign-in-reason');
    await notice.waitFor();
    assert.match(await notice.innerText(), /^That sign-in link is not this console’s|^That sign-in link is not this console's/);
    // The reason is read once: the address bar no longer carries it.
    assert.is(new URL(page.url()).search, '');
    assert.equal(await axe(page), []);
  } finally {
    await context.close();
  }
});

compare('a decision on the session page links to its site\'s evidence on the flow page, which lists the sessions behind it', async ({ ui }) => {
  const { page } = ui;
  await ui.goto(`/sessions/${SERVED}?tab=decisions`);
  await page.getByRole('link', { name: 'get_order_details' }).first().click();
  await page.waitForURL('**/flows/shop?tab=evidence&site=get_order_details');
  const card = page.getByTestId('evidence-get_order_details');
  await card.waitFor();
  await settle(page);
  assert.match(await card.getAttribute('class') ?? '', /focused/);
  assert.is(await card.locator('.card-caption').innerText(), '5 sessions: 2 lookups, 2 hand-backs, 6 in shadow');
  const ids = await card.locator('tbody tr td:first-child a').allInnerTexts();
  assert.equal(ids.map((x) => x.slice(-5)), ['14768', '14759', '14750', '14715', '14662']);
  assert.is(await page.getByTestId('evidence-cancel_pending_order').locator('h2 .badge').innerText(), 'not a site of this flow');
  await ui.check('flow-evidence');
  // The flow tab's sites link to the same place.
  await ui.goto('/flows/shop');
  await page.getByTestId('site-evidence-link').first().click();
  await page.waitForURL('**/flows/shop?tab=evidence&site=find_user_id_by_email');
  await page.getByTestId('evidence-find_user_id_by_email').waitFor();
  ui.assertNoErrors();
});

compare('the Overview shows the savings as a chart, as tables, and for one domain', async ({ ui }) => {
  const { page } = ui;
  await ui.goto('/');
  const card = page.getByTestId('savings');
  await card.getByTestId('savings-chart').waitFor();
  assert.is(
    await card.getByTestId('savings-sentence').innerText(),
    'In the last 14 days, 2 served sessions averaged 1.5 agent calls and 3 LLM turns, against 4.7 and 6.3 in 6 recorded sessions: 3.2 calls fewer and 3.3 turns fewer per session.',
  );
  assert.equal(await card.locator('.savings-domain h3').allInnerTexts(), ['shop']);
  assert.equal(await card.locator('.savings-value').allInnerTexts(), ['4.7', '1.5', '6.3', '3']);
  await ui.check('savings-chart');
  await card.getByTestId('savings-toggle').click();
  const tables = card.getByTestId('savings-tables');
  await tables.waitFor();
  const rows = await tables.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())));
  assert.equal(rows, [
    ['retail', '0', '1', '— / 5', '— / 7', '0', '0'],
    ['shop', '2', '6', '1.5 / 4.7', '3 / 6.3', '6', '3'],
    ['Mon 28 Sep', 'shop', '2', '6', '3', '6', '3'],
  ]);
  await ui.check('savings-tables');
  await page.getByTestId('domain-filter').selectOption('retail');
  await page.waitForFunction(() => document.querySelector('[data-testid="savings-sentence"]')?.textContent?.startsWith('No session'));
  assert.is(await card.getByTestId('savings-sentence').innerText(), 'No session was served with a flow in the last 14 days.');
  await page.getByTestId('domain-filter').selectOption('');
  ui.assertNoErrors();
});

compare.run();
