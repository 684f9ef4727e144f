// A session and a server page, in a real browser: the raw log reads whole (an event opens to
// its line; JSON lines wrap instead of being cut) (10); on a phone the stat cards leave the timeline on the
// first screen and the tab row shows every tab (15); a host tab not copied does not say Copied (15).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fixtureHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const session = suite<{ ui: Ui }>('e2e ux session');
const KEY = '20260928T020400.548Z-14457';
const LINES = readFileSync(join(fixtureHome, `logs/shop/${KEY}.jsonl`), 'utf8').split('\n');

session.before(async (ctx) => {
  ctx.ui = await openUi();
  await ctx.ui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.ui.console.url });
});
session.after(async (ctx) => {
  await ctx.ui?.stop();
});

session('an event of the raw log opens to its whole line', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/sessions/${KEY}`);
  await p.getByRole('tab', { name: 'Raw log' }).click();
  const row = p.getByTestId('raw-event-4');
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /…$/, 'the summary is cut');
  await p.getByTestId('raw-event-toggle-4').click();
  const line = p.getByTestId('raw-event-line-4');
  await line.waitFor();
  assert.equal(JSON.parse((await line.textContent()) ?? ''), JSON.parse(LINES[5]!));
  assert.is(await p.getByTestId('raw-event-toggle-4').getAttribute('aria-expanded'), 'true');
  await ui.check('ux-raw-event-open');
});

session('the JSON lines view shows each line whole, wrapped', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/sessions/${KEY}`);
  await p.getByRole('tab', { name: 'Raw log' }).click();
  await p.getByRole('radio', { name: 'JSON lines' }).click();
  const long = p.locator('[data-testid="raw-lines"] li').nth(5).locator('.line');
  await long.waitFor();
  assert.is(await long.textContent(), LINES[5]);
  const [scroll, client, height] = await long.evaluate((el) => [el.scrollWidth, el.clientWidth, el.getBoundingClientRect().height]);
  assert.ok(scroll <= client + 1, `nothing cut off (${scroll} > ${client})`);
  assert.ok(height > 30, 'a long line wraps onto more rows');
});

session('on a phone the timeline starts on the first screen and every tab shows whole', async ({ ui }) => {
  const p = ui.page;
  await p.setViewportSize({ width: 390, height: 844 });
  try {
    await ui.goto(`/sessions/${KEY}`);
    const first = p.locator('ol.timeline > li').first();
    await first.waitFor();
    const top = (await first.boundingBox())!.y + (await p.evaluate(() => window.scrollY));
    assert.ok(top < 844, `the timeline's first entry starts at ${top} px`);
    const tabs = await p.locator('[role="tablist"] [role="tab"]').evaluateAll((els) => els.map((e) => [e.textContent?.trim() ?? '', e.getBoundingClientRect().right, e.scrollWidth - e.clientWidth] as const));
    for (const [name, right, cut] of tabs) {
      assert.ok(right <= 390, `${name} ends at ${right}`);
      assert.ok(cut <= 0, `${name} is cut`);
    }
    await ui.screenshot('ux-session-phone');
  } finally {
    await p.setViewportSize({ width: 1440, height: 900 });
  }
});

session('a host tab says Copied only for the snippet that was copied', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/servers/shop');
  await p.getByTestId('host-snippet').waitFor();
  const copy = p.locator('.host-config').getByRole('button', { name: /^(Copy|Copied)$/ });
  await copy.click();
  await p.locator('.host-config').getByRole('button', { name: 'Copied' }).waitFor();
  await p.getByRole('tab', { name: 'Cursor' }).click();
  await p.waitForFunction(() => document.querySelector('[data-testid="host-snippet"]')?.textContent?.includes('"mcpServers"'));
  assert.is((await copy.textContent())?.trim(), 'Copy');
});

session.run();
