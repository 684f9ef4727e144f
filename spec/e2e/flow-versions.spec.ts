// The flows pages, in a real browser: committed versions in shop.history/ are under shop (a
// disclosure in the list, Staged › Versions, a notice on the version's own page) and not flows of their own
// in the list, the palette or a job's flow picker (6); Compare opens with shop as the older flow and says
// why "3 of 4 sites scored" for a flow of 3 sites (13); the glossary's "?" (13); the palette finds
// "add serv" (15); the rollback button stays clear of the toasts (15).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, fixtureHome } from '../support/fixtures.ts';
import { openUi, settle, type Ui } from './support.ts';

const flows = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e ux flows');

flows.before(async (ctx) => {
  ctx.home = copyHome();
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
  // Two commits of a staged shop: shop.history/ holds versions 1 (found in place), 2 and 3.
  for (const source of ['shop.promoted.flow.json', 'shop.flow.json']) {
    writeFileSync(join(ctx.home.dir, 'shop.staged.flow.json'), readFileSync(join(fixtureHome, source)));
    const res = await ctx.ui.console.api('/api/flows/shop/commit', { method: 'POST', body: JSON.stringify({ note: `from ${source}` }) });
    assert.is(res.status, 200, await res.clone().text());
  }
});
flows.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

flows('versions are under their flow in the list, not flows of their own', async ({ ui }) => {
  const p = ui.page;
  const api = (await (await ui.console.api('/api/flows')).json()) as { items: { key: string; path: string; version_of?: unknown }[] };
  const versions = api.items.filter((f) => f.path.startsWith('shop.history/'));
  assert.is(versions.length, 3, 'the API lists them');
  await ui.goto('/flows');
  await p.getByTestId('flow-shop').waitFor();
  for (const v of versions) assert.is(await p.getByTestId(`flow-${v.key}`).count(), 0, `${v.key} is not a card`);
  const disclosure = p.getByTestId('versions-of-shop');
  assert.match((await disclosure.locator('summary').textContent()) ?? '', /^3 committed versions in shop\.history\/$/);
  await disclosure.locator('summary').click();
  assert.equal(await disclosure.locator('li a').allTextContents(), ['v3', 'v2', 'v1']);
  await ui.check('ux-flows-versions');
  await disclosure.locator('li a', { hasText: 'v2' }).click();
  await p.getByTestId('version-of').filter({ hasText: /^Version 2 of shop, as it was committed/ }).waitFor();
  ui.allowErrors(/api\/overview/);
});

flows('Staged › Versions opens each version; the job picker and the palette leave versions out', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop?tab=staged');
  await p.getByTestId('version-open-2').waitFor();
  assert.is(await p.getByTestId('version-open-2').textContent(), 'open v2');
  await ui.goto('/jobs/new?kind=audit');
  await p.locator('#job-flow option').nth(1).waitFor({ state: 'attached' });
  const options = await p.locator('#job-flow option').allTextContents();
  assert.equal(options.filter((o) => o.includes('history') || /^\d/.test(o)), [], `no version in ${options.join(' | ')}`);
  await p.getByTestId('palette-open').click();
  await p.getByTestId('palette-input').fill('shop');
  await p.locator('[role="option"]').first().waitFor();
  // A version's key is its file's stem, a number: no flow entry ("<key>domain shop") has one.
  const found = await p.locator('[role="option"]').allTextContents();
  assert.equal(found.filter((t) => /^\d+(~[0-9a-f]{8})?domain /.test(t)), [], `no version in ${found.join(' | ')}`);
  assert.ok(found.some((t) => t === 'shopdomain shop'), 'the flow itself is there');
  await p.keyboard.press('Escape');
});

flows('the palette matches words: "add serv" finds Add a server', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/');
  await p.getByTestId('palette-open').click();
  await p.getByTestId('palette-input').fill('add serv');
  await p.locator('[role="option"]', { hasText: 'Add a server' }).waitFor();
  await p.keyboard.press('Enter');
  await p.waitForURL(/\/servers\/new$/);
});

flows('Compare opens with shop the older and shop.promoted the newer, and explains 3 of 4', async ({ ui }) => {
  const p = ui.page;
  // Without a staged flow beside it, shop's natural partner is shop.promoted.
  rmSync(join(ui.console.dataDir, 'shop.staged.flow.json'));
  await ui.goto('/flows/shop?tab=compare');
  await p.locator('.cmp-swap').waitFor();
  assert.match((await p.locator('.cmp-swap').textContent()) ?? '', /shop → shop\.promoted$/);
  assert.is(await p.getByTestId('compare-select').inputValue(), 'shop.promoted');
  await p.getByText(/3 of 4 sites scored/).first().waitFor();
  assert.is(
    await p.getByTestId('diff-note-Promotion').textContent(),
    'shop.promoted has 3 sites; engine promote scored 4 calls: every call the flow decided after, also one it never looks anything up after, which is never promoted.',
  );
  await ui.check('ux-flows-compare');
});

flows('a "?" beside an engine word opens its definition, by keyboard too', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop.promoted');
  const q = p.getByTestId('term-promoted').first();
  assert.match((await q.getAttribute('title')) ?? '', /^engine promote scored every call/);
  await q.focus();
  await p.keyboard.press('Enter');
  await p.getByTestId('term-def-promoted').waitFor();
  assert.match((await p.getByTestId('term-def-promoted').textContent()) ?? '', /“promoted 3\/4” is 3 promoted of 4 scored/);
  await p.getByTestId('term-binding').first().click();
  await p.getByTestId('term-def-binding').waitFor();
  await ui.check('ux-glossary');
});

flows('a commit’s toast does not cover Roll back to this', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop?tab=staged');
  await p.getByTestId('rollback-1').waitFor();
  // The version at the bottom of the window, where the toasts are.
  await p.getByTestId('rollback-1').evaluate((el) => el.scrollIntoView({ block: 'end' }));
  const r = (await p.getByTestId('rollback-1').boundingBox())!;
  await p.getByTestId('version-open-1').waitFor();
  // A toast at the bottom right, as after a commit.
  await p.evaluate(() => {
    const el = document.createElement('div');
    el.className = 'toasts';
    el.innerHTML = '<div class="toast toast-success" role="status"><div class="toast-text"><strong>Committed as version 4</strong><span>A proxy that starts now reads it: the next session is served the new flow.</span></div></div>';
    el.id = 'probe-toast';
    document.body.append(el);
  });
  const t = (await p.locator('#probe-toast .toast').boundingBox())!;
  await p.evaluate(() => document.getElementById('probe-toast')?.remove());
  const overlap = r.x < t.x + t.width && t.x < r.x + r.width && r.y < t.y + t.height && t.y < r.y + r.height;
  assert.not.ok(overlap, `Roll back (${JSON.stringify(r)}) under the toast (${JSON.stringify(t)})`);
  await settle(p);
});

flows('on a phone the review’s tables break between words, never inside one', async ({ ui }) => {
  const p = ui.page;
  await p.setViewportSize({ width: 390, height: 844 });
  try {
    await ui.goto('/flows/shop?tab=review');
    await p.locator('.md-table td').first().waitFor();
    const broken = await p.evaluate(() => {
      const out: string[] = [];
      for (const cell of document.querySelectorAll('.md-table td, .md-table th')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const text = n.textContent ?? '';
          for (const m of text.matchAll(/\S+/g)) {
            const r = document.createRange();
            r.setStart(n, m.index!);
            r.setEnd(n, m.index! + m[0].length);
            if (r.getClientRects().length > 1) out.push(m[0]);
          }
        }
      }
      return out;
    });
    assert.equal(broken, [], 'words split across lines');
  } finally {
    await p.setViewportSize({ width: 1440, height: 900 });
  }
});

flows.run();
