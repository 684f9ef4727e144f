// The session page's minimap in a real browser: marks to scale for calls, errors and find matches; a click
// jumps the timeline there; as a slider it moves by keyboard (arrows, Home, End) and says where it is; a
// text summary stands for it. Axe and 390 px.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { copyHome } from '../support/fixtures.ts';
import { LONG_CALLS, LONG_ID, writeLogs } from './session-logs.ts';
import { openUi, type Ui } from './support.ts';

const minimap = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e session minimap');

minimap.before(async (ctx) => {
  ctx.home = copyHome();
  writeLogs(ctx.home.dir);
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
minimap.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

/** Waits until the turn's heading is rendered and inside the viewport. */
async function turnInView(p: Page, n: number): Promise<void> {
  await p.waitForFunction((label) => {
    const h = [...document.querySelectorAll('h3.tl-turn-label')].find((x) => x.textContent?.startsWith(label));
    if (!h) return false;
    const r = h.getBoundingClientRect();
    return r.top >= 60 && r.bottom <= window.innerHeight;
  }, `Turn ${n} `);
}

minimap('marks to scale, a click jumps there, and a text summary', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/sessions/${LONG_ID}`);
  const strip = p.getByRole('slider', { name: 'Minimap of the session' });
  await strip.waitFor();
  // Every tenth call fails: 12 error marks, 108 call marks, placed by time.
  assert.is(await p.locator('.mm-mark.mm-error').count(), LONG_CALLS / 10);
  assert.is(await p.locator('.mm-mark.mm-call').count(), LONG_CALLS - LONG_CALLS / 10);
  const tops = await p.locator('.mm-mark.mm-error').evaluateAll((els) => els.map((e) => parseFloat((e as HTMLElement).style.top)));
  // The call at n = 3 is at 4 s of a 121 s session: about 3.3 %.
  assert.ok(Math.abs(tops[0]! - (4000 / 121000) * 100) < 0.01, String(tops[0]));
  const summary = await p.locator('#minimap-summary').textContent();
  // 123 rows: 120 turns with a call, the turn of the last message, and the two messages.
  assert.is(summary, 'The session over 2 min 1 s: 108 calls, 12 errors. 123 rows in the timeline.');

  // Scrolled a little, the strip sticks below the top bar and fits the viewport.
  await p.evaluate(() => window.scrollTo(0, 800));
  await p.waitForTimeout(200);
  const box = (await strip.boundingBox())!;
  assert.ok(box.y >= 0, JSON.stringify(box));
  assert.ok(box.y + box.height <= 900, JSON.stringify(box));
  await p.mouse.click(box.x + box.width / 2, box.y + box.height * 0.99);
  await turnInView(p, LONG_CALLS);
  // At the page's end the strip's container ends too and pushes it up: measure it again.
  const end = (await strip.boundingBox())!;
  await p.mouse.click(end.x + end.width / 2, end.y + 2);
  await turnInView(p, 1);

  // Find matches are marked too.
  await ui.goto(`/sessions/${LONG_ID}?find=magic`);
  await p.getByTestId('find-count').filter({ hasText: /^1 of 2$/ }).waitFor();
  assert.is(await p.locator('.mm-mark.mm-match').count(), 2);
  await ui.check('session-minimap');
  ui.assertNoErrors();
});

minimap('the keyboard moves through the timeline, and the slider says where it is', async ({ ui }) => {
  const p = ui.page;
  await ui.goto(`/sessions/${LONG_ID}`);
  const strip = p.getByRole('slider', { name: 'Minimap of the session' });
  // What moved the page, should the slider end up somewhere else than the keys took it (this test failed
  // that way at times: see the assertion's message).
  await p.evaluate(() => {
    const w = window as unknown as { __scrolls: string[] };
    w.__scrolls = [];
    const t0 = performance.now();
    window.addEventListener('scroll', () => w.__scrolls.push(`${Math.round(performance.now() - t0)}ms y=${Math.round(window.scrollY)}`), { passive: true });
    document.addEventListener('keydown', (e) => w.__scrolls.push(`${Math.round(performance.now() - t0)}ms key ${e.key} on ${(e.target as Element).getAttribute('role') ?? (e.target as Element).tagName}`), true);
  });
  await strip.focus();
  await p.keyboard.press('End');
  await turnInView(p, LONG_CALLS);
  await p.keyboard.press('Home');
  await p.waitForFunction(() => document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow') === '1');
  await p.keyboard.press('ArrowDown');
  await p.keyboard.press('ArrowDown');
  await p.waitForFunction(() => document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow') === '3');
  await turnInView(p, 2);
  const trail = () => p.evaluate(() => (window as unknown as { __scrolls: string[] }).__scrolls.slice(-40).join('; '));
  const text = await strip.getAttribute('aria-valuetext');
  assert.is(text, 'Row 3 of 123: turn 2 at +2.00 s: get_order', text === 'Row 3 of 123: turn 2 at +2.00 s: get_order' ? '' : `page moves: ${await trail()}`);
  await p.keyboard.press('PageDown');
  await p.waitForFunction(() => document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow') === '15');
  ui.assertNoErrors();
});

minimap.run();
