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
  // Every row the slider reads, in order: a jump must go where the key sends it and stay there. (Under
  // reduced motion the list's padding once lagged a frame behind its rows, and each jump went far back and
  // returned a few frames later: the slider read "Row 107" right after reaching row 3.)
  await p.evaluate(() => {
    const w = window as unknown as { __rows: number[] };
    w.__rows = [];
    new MutationObserver(() => {
      w.__rows.push(Number(document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow')));
    }).observe(document.body, { attributes: true, attributeFilter: ['aria-valuenow'], subtree: true });
  });
  const rows = () => p.evaluate(() => (window as unknown as { __rows: number[] }).__rows.splice(0));
  /** Waits for the slider to read `n`, then long enough for a list that settles to have moved it again. */
  const reads = async (n: number) => {
    await p.waitForFunction((want) => document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow') === String(want), n);
    await p.waitForTimeout(600);
  };
  await strip.focus();
  await rows();
  await p.keyboard.press('End');
  await turnInView(p, LONG_CALLS);
  await p.waitForTimeout(600);
  const afterEnd = await rows();
  // Near the end (the last rows all fit the last screen), never back near the top.
  assert.ok(afterEnd.length > 0 && afterEnd.every((r) => r > 100), `after End the slider read ${afterEnd.join(', ')}`);
  await p.keyboard.press('Home');
  await reads(1);
  await rows();
  await p.keyboard.press('ArrowDown');
  await p.keyboard.press('ArrowDown');
  await reads(3);
  await turnInView(p, 2);
  const afterArrows = await rows();
  assert.equal(afterArrows.filter((r) => r > 3), [], `after Home, ArrowDown, ArrowDown the slider read ${afterArrows.join(', ')}`);
  assert.is(await strip.getAttribute('aria-valuetext'), 'Row 3 of 123: turn 2 at +2.00 s: get_order');
  await p.keyboard.press('PageDown');
  await p.waitForFunction(() => document.querySelector('[role="slider"]')?.getAttribute('aria-valuenow') === '15');
  ui.assertNoErrors();
});

minimap.run();
