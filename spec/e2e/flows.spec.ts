// The flows pages in a real browser against the real console over a temp copy of the fixture home (plus a
// staged flow, a flow that does not load and one whose texts carry markup): the list, a flow at a threshold
// (slider, number, URL), the review, the raw file, a comparison, the staged tab with commit and rollback,
// delete, hostile texts kept as text, and axe + 390 px checks with screenshots under test-results/.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, fixtureHome } from '../support/fixtures.ts';
import { openUi, settle, uiBuilt, type Ui } from './support.ts';



const flowsE2e = suite('e2e flows');
let ui: Ui;
let home: { dir: string; cleanup: () => void };

const PAYLOAD_IMG = '<img src=x onerror="window.__pwned=1">';
const PAYLOAD_SCRIPT = '<script>window.__pwned=2</script>';

flowsE2e.before(async () => {
  if (!uiBuilt()) throw new Error('build the UI and the server first: npm run build');
  home = copyHome();
  // A staged next version of shop: the promoted flow's bytes, same domain, so a commit is allowed.
  writeFileSync(join(home.dir, 'shop.staged.flow.json'), readFileSync(join(fixtureHome, 'shop.promoted.flow.json')));
  writeFileSync(join(home.dir, 'broken.flow.json'), '{"engine_flow": 7}\n');
  const evil = JSON.parse(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8')) as {
    manifest: { docs: Record<string, { summary: string }> };
    provenance: { sources: string[] };
  };
  evil.manifest.docs['cancel_pending_order']!.summary = `${PAYLOAD_IMG} ${PAYLOAD_SCRIPT} [x](javascript:window.__pwned=3)`;
  evil.provenance.sources = [PAYLOAD_IMG];
  writeFileSync(join(home.dir, 'evil.flow.json'), JSON.stringify(evil));
  ui = await openUi({ dataDir: home.dir });
  ui.allowErrors(/api\/overview/);
});

flowsE2e.after(async () => {
  await ui?.stop();
  home?.cleanup();
});

flowsE2e('the list shows every flow with its badges, and a file that does not load with why', async () => {
  await ui.goto('/flows');
  const { page } = ui;
  await page.getByTestId('flow-shop.promoted').getByText('promoted 3/4').waitFor();
  assert.ok(await page.getByTestId('staged-shop').isVisible(), 'shop shows its staged changes');
  assert.is((await page.getByTestId('staged-shop').textContent())?.trim(), 'staged changes');
  assert.is((await page.getByTestId('staged-shop.staged').textContent())?.trim(), 'staged');
  const broken = page.getByTestId('flow-broken');
  assert.match((await broken.textContent()) ?? '', /This file does not load: .*flow format 7 is not supported/);
  assert.is(await broken.locator('a.card-link').count(), 0, 'a broken file has no link');
  ui.allowErrors(/api\/overview/);
  await ui.check('flows');
});

flowsE2e('a flow at a threshold: the number box previews at once, the server follows and the URL keeps it', async () => {
  await ui.goto('/flows/shop');
  const { page } = ui;
  const acting = page.getByTestId('acting');
  assert.match((await acting.textContent()) ?? '', /At 0\.30 the flow looks something up after 3 of its 3 sites/);
  await page.getByTestId('flow-graph').locator('svg g.fg-node').first().waitFor();
  assert.is(await page.getByTestId('flow-graph').locator('g.fg-node').count(), 3);
  const number = page.getByTestId('threshold-number');
  await number.fill('0.47');
  await number.press('Enter');
  assert.match((await acting.textContent()) ?? '', /after 2 of its 3 sites/);
  await page.waitForURL(/threshold=0\.47/);
  assert.match((await page.getByTestId('site-get_order_details').textContent()) ?? '', /hands back: 0\.46 is below 0\.47/);
  assert.is(await page.getByTestId('flow-graph').locator('g.fg-edge.fg-acts').count(), 2);
  await page.getByRole('tab', { name: 'Review' }).click();
  await page.getByText('engine flow-show, at a threshold of 0.47').waitFor();
  assert.match(page.url(), /tab=review/);
  await page.getByRole('tab', { name: 'Flow' }).click();
  // Reload keeps the threshold; the slider follows the keyboard.
  await page.reload();
  await page.getByTestId('acting').waitFor();
  assert.is(await page.getByTestId('threshold-number').inputValue(), '0.47');
  await page.getByTestId('threshold-range').focus();
  await page.keyboard.press('ArrowLeft');
  assert.match((await page.getByTestId('acting').textContent()) ?? '', /At 0\.46 the flow looks something up after 3 of its 3 sites/);
  await page.waitForURL(/threshold=0\.46/);
  await page.getByRole('button', { name: 'Reset the threshold to 0.3' }).click();
  await page.waitForURL((u) => !u.search.includes('threshold'));
  await settle(page);
  await ui.check('flow-shop');
});

flowsE2e('the review is the flow-show text as Markdown, and the raw tab shows the file', async () => {
  await ui.goto('/flows/shop?tab=review');
  const { page } = ui;
  await page.getByRole('heading', { name: 'Flow: shop' }).waitFor();
  assert.ok(await page.locator('.markdown table').first().isVisible(), 'the sites table is a table');
  await ui.check('flow-review');
  await page.getByRole('tab', { name: 'Raw JSON' }).click();
  await page.getByText('engine_flow').first().waitFor();
  assert.match(page.url(), /tab=raw/);
});

flowsE2e('compare two flows: the changes, the swap and the Markdown', async () => {
  await ui.goto('/flows/shop?tab=compare&compare=shop.promoted');
  const { page } = ui;
  const select = page.getByTestId('compare-select');
  assert.is(await select.inputValue(), 'shop.promoted');
  await page.getByText('Nothing needs review').waitFor();
  // shop.promoted is made from shop: it is the newer side by default (issue 15).
  await page.getByText('none: it may act after every call → 3 of 4 sites scored (at least 70% used, a lower bound of 0.50, 3 tasks, at 0.3)').waitFor();
  await ui.check('flow-compare');
  await page.locator('.cmp-swap').click();
  await page.getByText('3 of 4 sites scored (at least 70% used, a lower bound of 0.50, 3 tasks, at 0.3) → none: it may act after every call').waitFor();
  await page.getByRole('radio', { name: 'As Markdown' }).click();
  await page.getByRole('heading', { name: 'Flow diff: shop' }).waitFor();
  await select.selectOption('shop.staged');
  await page.waitForURL(/compare=shop\.staged/);
});

flowsE2e('the staged tab compares, commits with a note, and rolls back', async () => {
  await ui.goto('/flows/shop.staged');
  const { page } = ui;
  assert.match((await page.getByTestId('staged-of').textContent()) ?? '', /The staged flow of shop/);
  await page.getByTestId('staged-of').getByRole('link', { name: 'shop' }).click();
  await page.waitForURL(/\/flows\/shop\?tab=staged$/);
  await page.getByTestId('stage-status').waitFor();
  assert.match((await page.getByTestId('stage-status').textContent()) ?? '', /learned from 6 sessions/);
  await page.getByText('What committing it would change').waitFor();
  assert.match((await page.getByTestId('versions-empty').textContent()) ?? '', /No version has been committed/);
  await ui.check('flow-staged');
  const commit = page.getByTestId('stage-commit');
  assert.ok(await commit.isEnabled());
  await commit.click();
  const dialog = page.getByTestId('commit-dialog');
  assert.match((await dialog.textContent()) ?? '', /as version 2/);
  await page.getByTestId('stage-note').fill('reads the order after the account');
  await page.getByTestId('stage-commit-confirm').click();
  await page.getByText('Committed as version 2').waitFor();
  await page.getByTestId('version-2').waitFor();
  assert.match((await page.getByTestId('version-2').textContent()) ?? '', /committed now.*committed/);
  assert.match((await page.getByTestId('version-2').textContent()) ?? '', /reads the order after the account/);
  await page.getByTestId('stage-same').waitFor();
  // The committed flow is now the promoted one, and the page says so without a reload.
  await page.waitForFunction(() => document.querySelector('.page-header')?.textContent?.includes('promoted 3/4'));
  assert.ok(await page.getByTestId('stage-commit').isDisabled(), 'nothing to commit after a commit');
  await page.getByTestId('rollback-1').click();
  await page.getByTestId('rollback-note').fill('detours after get_order_details');
  await page.getByTestId('rollback-confirm').click();
  await page.getByText('Rolled back to version 1', { exact: true }).waitFor();
  await page.getByTestId('version-3').waitFor();
  assert.match((await page.getByTestId('version-3').textContent()) ?? '', /rolled back to version 1/);
  await page.waitForFunction(() => !document.querySelector('.page-header')?.textContent?.includes('promoted 3/4'));
  await page.waitForFunction(() => !(document.querySelector('[data-testid="stage-commit"]') as HTMLButtonElement | null)?.disabled);
  await ui.screenshot('flow-staged-after');
  ui.assertNoErrors();
});

flowsE2e('texts from a flow file stay text: markup is shown, never run', async () => {
  const { page } = ui;
  await ui.goto('/flows/evil');
  await page.getByText(PAYLOAD_SCRIPT, { exact: false }).first().waitFor();
  await page.getByRole('tab', { name: 'Review' }).click();
  await page.getByRole('heading', { name: 'Flow: shop' }).waitFor();
  await page.goto(ui.console.url + '/flows');
  await page.getByTestId('flow-evil').waitFor();
  assert.match((await page.getByTestId('flow-evil').textContent()) ?? '', /Learned from 6 sessions of <img src=x onerror="window.__pwned=1">/);
  const pwned = await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);
  assert.is(pwned, undefined, 'no payload ran');
  assert.is(await page.locator('img[src="x"]').count(), 0);
  assert.is(await page.locator('a[href^="javascript:"]').count(), 0);
  await ui.screenshot('flow-hostile');
  ui.allowErrors(/api\/overview/);
  ui.assertNoErrors();
});

flowsE2e('deleting a flow asks first, moves it to the trash and goes back to the list', async () => {
  await ui.goto('/flows/broken');
  const { page } = ui;
  ui.allowErrors(/422|Unprocessable/);
  await page.getByText('This flow could not be loaded').waitFor();
  await ui.goto('/flows/shop.promoted');
  await page.getByRole('button', { name: 'Delete the flow' }).click();
  await page.getByRole('dialog', { name: 'Delete this flow?' }).waitFor();
  await ui.check('flow-delete-dialog').catch((e: Error) => {
    // The 390 px pass closes nothing; axe on an open dialog is what matters here.
    if (!/scrolls sideways/.test(e.message)) throw e;
  });
  await page.getByRole('button', { name: 'Move to the trash' }).click();
  await page.getByText('Flow moved to the trash').waitFor();
  await page.waitForURL(/\/flows$/);
  await settle(page);
  assert.is(await page.getByTestId('flow-shop.promoted').count(), 0);
  ui.allowErrors(/api\/overview/);
  ui.assertNoErrors();
});

flowsE2e('on a phone the tab row wraps: every tab whole, the selected one in view, for a deep link and the keyboard', async () => {
  const { page } = ui;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    // Issue 15: a row that scrolled sideways cut its last tab ("Too…"); it wraps instead.
    const seen = () =>
      page.evaluate(() => {
        const tab = document.querySelector<HTMLElement>('[role="tablist"] [aria-selected="true"]');
        const row = tab?.parentElement;
        if (!tab || !row) return null;
        const b = row.getBoundingClientRect();
        const whole = [...row.querySelectorAll('[role="tab"]')].every((t) => {
          const r = t.getBoundingClientRect();
          return r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
        });
        return { overflows: row.scrollWidth > row.clientWidth, whole, selected: tab.textContent?.trim() ?? '' };
      });
    await ui.goto('/flows/shop?tab=staged');
    await page.getByRole('tab', { name: 'Staged' }).waitFor();
    await settle(page);
    assert.equal(await seen(), { overflows: false, whole: true, selected: 'Staged' });
    await page.getByRole('tab', { name: 'Staged' }).focus();
    await page.keyboard.press('Home');
    await settle(page);
    assert.equal(await seen(), { overflows: false, whole: true, selected: 'Flow' });
    await page.keyboard.press('End');
    await settle(page);
    // The last tab is the flow's evidence (issue 11), after Staged.
    assert.equal(await seen(), { overflows: false, whole: true, selected: 'Evidence' });
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  ui.assertNoErrors();
});

flowsE2e('read-only: the flow page offers no write, each disabled button says why', async () => {
  const ro = await openUi({ dataDir: home.dir, args: ['--read-only'] });
  try {
    ro.allowErrors(/api\/overview/);
    await ro.goto('/flows/shop');
    const del = ro.page.getByRole('button', { name: 'Delete the flow' });
    assert.ok(await del.isDisabled());
    assert.is(await del.getAttribute('title'), 'The console is read-only');
    assert.ok(await ro.page.getByRole('button', { name: 'Promote' }).isDisabled());
    await ro.goto('/flows');
    assert.ok(await ro.page.getByRole('button', { name: 'Learn a flow' }).isDisabled());
    await ro.goto('/flows/shop');
    await ro.goto('/flows/shop?tab=staged');
    await ro.page.getByTestId('stage-status').waitFor();
    assert.ok(await ro.page.getByTestId('stage-commit').isDisabled());
    assert.ok(await ro.page.getByTestId('rollback-1').isDisabled());
    ro.allowErrors(/api\/overview/);
    ro.assertNoErrors();
  } finally {
    await ro.stop();
  }
});

flowsE2e.run();
