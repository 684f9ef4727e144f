// A committed version has an address of its own under its flow (/flows/<key>/versions/<n>) that keeps
// working when another flow's versions make the file keys `1~…`, and its page is named "<flow> v<n>",
// never by the bare number.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, fixtureHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const versions = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e flow version address');

versions.before(async (ctx) => {
  ctx.home = copyHome();
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
  // Two commits of a staged shop: shop.history/ holds versions 1, 2 and 3.
  for (const source of ['shop.promoted.flow.json', 'shop.flow.json']) {
    writeFileSync(join(ctx.home.dir, 'shop.staged.flow.json'), readFileSync(join(fixtureHome, source)));
    const res = await ctx.ui.console.api('/api/flows/shop/commit', { method: 'POST', body: JSON.stringify({ note: `from ${source}` }) });
    assert.is(res.status, 200, await res.clone().text());
  }
});
versions.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

versions('"open v1" goes to /flows/shop/versions/1, named shop v1, also once another flow has versions', async ({ ui }) => {
  const p = ui.page;
  // Another flow with a version 1: both version files' keys turn into 1~….
  mkdirSync(join(ui.console.dataDir, 'shop.promoted.history'));
  copyFileSync(join(fixtureHome, 'shop.promoted.flow.json'), join(ui.console.dataDir, 'shop.promoted.history', '1.flow.json'));
  const list = (await (await ui.console.api('/api/flows')).json()) as { items: { key: string; path: string }[] };
  const v1 = list.items.find((f) => f.path === 'shop.history/1.flow.json');
  assert.ok(v1 && v1.key.startsWith('1~'), `shop's version 1 has a hashed key: ${v1?.key}`);

  await ui.goto('/flows/shop?tab=staged');
  await p.getByTestId('version-open-1').click();
  await p.waitForURL(/\/flows\/shop\/versions\/1$/);
  await p.getByTestId('version-of').filter({ hasText: /^Version 1 of shop/ }).waitFor();
  assert.is(await p.locator('h1').textContent(), 'shop v1');
  assert.match(await p.title(), /shop v1/);

  await ui.goto('/flows/shop/versions/2');
  await p.getByTestId('version-of').filter({ hasText: /^Version 2 of shop/ }).waitFor();
  assert.is(await p.locator('h1').textContent(), 'shop v2');
  await ui.check('flow-version-address');
});

versions('the flows list links each version to its address; a version that is not there is a 404 page', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows');
  const disclosure = p.getByTestId('versions-of-shop');
  await disclosure.locator('summary').click();
  assert.equal(await disclosure.locator('li a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), [
    '/flows/shop/versions/3',
    '/flows/shop/versions/2',
    '/flows/shop/versions/1',
  ]);
  await ui.goto('/flows/shop/versions/9');
  await p.getByText('No such flow').first().waitFor();
  assert.is(await p.locator('h1').textContent(), 'shop v9');
  ui.allowErrors(/api\/overview/);
});

versions.run();
