// The OTLP downloads in a real browser: the session page's OTLP button fetches that session's trace, and the
// list's OTLP button follows the mode filter and the ticked sessions; each link, fetched as the page would
// (with its sign-in), answers the sessions it names.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, settle, type Ui } from './support.ts';

const RECORDED = '20260928T020400.548Z-14457';
const SERVED = '20260928T020401.117Z-14662';

const otlp = suite<{ ui: Ui }>('e2e otlp');

otlp.before(async (ctx) => {
  ctx.ui = await openUi();
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
  await page.getByRole('checkbox', { name: `Compare session ${SERVED}` }).check();
  await page.getByRole('checkbox', { name: `Compare session ${RECORDED}` }).check();
  assert.is((await link.textContent())?.trim(), 'OTLP (2 ticked)');
  assert.equal((await sessionsAt(ui, String(await link.getAttribute('href')))).sort(), [RECORDED, SERVED].sort());
});

otlp.run();
