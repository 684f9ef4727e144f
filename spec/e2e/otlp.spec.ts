// The OTLP downloads in a real browser: the session page's OTLP button fetches that session's trace, and the
// list's OTLP button follows the mode filter and the ticked sessions; each link, fetched as the page would
// (with its sign-in), answers the sessions it names; Settings shows the stream's endpoint and counts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const RECORDED = '20260928T020400.548Z-14457';
const SERVED = '20260928T020401.117Z-14662';

const otlp = suite<{ ui: Ui }>('e2e otlp');

otlp.before(async (ctx) => {
  // An endpoint nothing listens on: with the default rule (5 minutes without a new line) nothing is sent.
  ctx.ui = await openUi({ args: ['--otlp-endpoint', 'http://127.0.0.1:9'], env: { OTEL_EXPORTER_OTLP_HEADERS: 'x-team-key=s3cret' } });
});
otlp.after(async (ctx) => {
  await ctx.ui?.stop();
});

/** The conversation ids of the traces a link answers, fetched in the page. */
async function sessionsAt(ui: Ui, href: string): Promise<string[]> {
  const text = await ui.page.evaluate(async (h) => (await fetch(h)).text(), href);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const spans = (JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans;
      return spans[0]!.attributes.find((a) => a.key === 'gen_ai.conversation.id')?.value.stringValue ?? '';
    });
}

otlp('the session page offers its trace as OTLP/JSON', async ({ ui }) => {
  await ui.goto(`/sessions/${SERVED}`);
  const link = ui.page.getByTestId('session-otlp');
  await link.waitFor();
  await settle(ui.page);
  assert.is(await link.getAttribute('download'), `${SERVED}.otlp.json`);
  assert.equal(await sessionsAt(ui, String(await link.getAttribute('href'))), [SERVED]);
});

otlp('the list exports every match of its filters, or only the ticked sessions', async ({ ui }) => {
  const { page } = ui;
  await ui.goto('/sessions?mode=shadow');
  const link = page.getByTestId('sessions-otlp');
  await link.waitFor();
  await settle(page);
  assert.is((await link.textContent())?.trim(), 'OTLP (all that match)');
  const shadow = await sessionsAt(ui, String(await link.getAttribute('href')));
  assert.is(shadow.length, 3);
  await ui.goto('/sessions');
  await settle(page);
  await page.getByRole('checkbox', { name: `Tick session ${SERVED}` }).check();
  await page.getByRole('checkbox', { name: `Tick session ${RECORDED}` }).check();
  assert.is((await link.textContent())?.trim(), 'OTLP (2 ticked)');
  assert.equal((await sessionsAt(ui, String(await link.getAttribute('href')))).sort(), [RECORDED, SERVED].sort());
});

otlp('Settings shows where sessions are streamed, with the header names but never their values', async ({ ui }) => {
  await ui.goto('/settings');
  const card = ui.page.getByTestId('otlp-card');
  await card.waitFor();
  await settle(ui.page);
  assert.is(await ui.page.getByTestId('otlp-endpoint').textContent(), 'http://127.0.0.1:9/v1/traces');
  const text = (await card.textContent()) ?? '';
  assert.match(text, /x-team-key/);
  assert.not.match(text, /s3cret/);
  assert.match((await ui.page.getByTestId('otlp-counts').textContent()) ?? '', /0 sent · 0 queued · 0 failed attempts · 0 dropped/);
});

otlp.run();
