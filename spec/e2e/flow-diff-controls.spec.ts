// Flow diff: comparing flows of two domains says so; the tolerance is a control the diff is asked with; the
// diff's Markdown and the review's text copy byte for byte as the API gives them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, fixtureHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const diff = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e flow diff controls');

diff.before(async (ctx) => {
  ctx.home = copyHome();
  const flow = JSON.parse(readFileSync(join(fixtureHome, 'shop.promoted.flow.json'), 'utf8')) as { manifest: { domain: string } };
  flow.manifest.domain = 'retail';
  writeFileSync(join(ctx.home.dir, 'retail.flow.json'), JSON.stringify(flow));
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
  await ctx.ui.context.grantPermissions(['clipboard-read', 'clipboard-write']);
});
diff.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

const clipboard = (ui: Ui) => ui.page.evaluate(() => navigator.clipboard.readText());

diff('a flow of another domain is compared under a warning; the same domain is not', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop?tab=compare&compare=retail');
  await p.getByTestId('compare-domains').waitFor();
  assert.match((await p.getByTestId('compare-domains').textContent()) ?? '', /retail is a flow of retail, this one of shop/);
  await ui.goto('/flows/shop?tab=compare&compare=shop.promoted');
  await p.locator('.cmp-swap').waitFor();
  await p.locator('.diff').first().waitFor();
  assert.is(await p.getByTestId('compare-domains').count(), 0);
});

diff('the tolerance is asked of the API, and the Markdown copies byte for byte', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop?tab=compare&compare=shop.promoted');
  const tolerance = p.getByTestId('compare-tolerance');
  await tolerance.waitFor();
  await Promise.all([
    p.waitForRequest((r) => r.url().includes('/api/flows/diff') && new URL(r.url()).searchParams.get('tolerance') === '0.5'),
    tolerance.fill('0.5').then(() => tolerance.press('Enter')),
  ]);
  const api = (await (await ui.console.api('/api/flows/diff?from=shop&to=shop.promoted&threshold=0.3&tolerance=0.5')).json()) as { markdown: string };
  await p.getByText('As Markdown').click();
  await p.getByRole('button', { name: 'Copy Markdown' }).click();
  await p.getByText('Diff Markdown copied').waitFor();
  assert.is(await clipboard(ui), api.markdown);
  await ui.check('flow-diff-controls');
});

diff('the review text copies byte for byte', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop?tab=review');
  const api = (await (await ui.console.api('/api/flows/shop')).json()) as { review_markdown: string };
  await p.getByRole('button', { name: 'Copy text' }).click();
  await p.getByText('Review text copied').waitFor();
  assert.is(await clipboard(ui), api.review_markdown);
});

diff.run();
