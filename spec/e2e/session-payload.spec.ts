// A call whose answer is over the 1 MB display limit, in a real browser: the page opens on the outline (no
// payload fetched until the call opens), the answer shows cut with its size, "Show all" shows every byte
// of it, and the download link serves it whole. "Expand all" and the turn headings are there as before.
// Axe and 390 px.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { BIG_ID, BIG_TEXT, writeLogs } from './session-logs.ts';
import { openUi, type Ui } from './support.ts';

const payload = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e session payload');

payload.before(async (ctx) => {
  ctx.home = copyHome();
  writeLogs(ctx.home.dir);
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
payload.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

payload('a big answer shows cut with its size; Show all shows all of it; the download has it whole', async ({ ui }) => {
  const p = ui.page;
  const asked: string[] = [];
  p.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await ui.goto(`/sessions/${BIG_ID}`);
  await p.getByRole('heading', { name: /^Turn 1\b/ }).waitFor();
  // Only the outline (asked again when the event stream opens): no payload until a call opens.
  assert.equal([...new Set(asked.filter((a) => a.startsWith('/api/sessions/')))], [`/api/sessions/${BIG_ID}/outline`], 'only the outline loads');
  const size = Buffer.byteLength(BIG_TEXT);

  await p.getByRole('button', { name: 'Expand all' }).click();
  const cut = p.getByTestId('payload-cut');
  await cut.waitFor();
  assert.match((await cut.textContent()) ?? '', /^This answer is 2\.7 MB: the first 1\.0 MB show here\.Show allDownload$/);
  const shown = (await p.locator('.call-body pre').first().textContent()) ?? '';
  // ASCII text: cut at exactly the display limit.
  assert.is(Buffer.byteLength(shown), 1024 * 1024);
  assert.is(BIG_TEXT.startsWith(shown), true);
  assert.is(shown.includes('the-very-end'), false);
  const link = cut.getByRole('link', { name: 'Download' });
  assert.is(await link.getAttribute('href'), `/api/sessions/${BIG_ID}/calls/0/result`);
  assert.is(await link.getAttribute('download'), 'call-2.txt');
  const res = await p.request.get(`${ui.console.url}/api/sessions/${BIG_ID}/calls/0/result`);
  assert.is(res.status(), 200);
  assert.is((await res.body()).byteLength, size);
  await ui.check('session-payload-cut');

  await cut.getByRole('button', { name: 'Show all' }).click();
  await cut.waitFor({ state: 'detached' });
  const whole = await p.locator('.call-body pre').first().textContent();
  assert.is(whole, BIG_TEXT);
  assert.is(await p.getByRole('button', { name: 'Collapse all' }).count(), 1);
  ui.assertNoErrors();
});

payload.run();
