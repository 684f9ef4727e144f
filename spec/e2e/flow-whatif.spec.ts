// Tuning a flow: dragging its threshold says, as the slider moves, what serving there would have changed in
// the recorded sessions (five fixture sessions: 15 lookups, 8 hand-backs, 5 of them only under the bar).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openUi, type Ui } from './support.ts';

const whatif = suite<{ ui: Ui }>('e2e flow what-if');

whatif.before(async (ctx) => {
  ctx.ui = await openUi();
});
whatif.after(async (ctx) => {
  await ctx.ui?.stop();
});

whatif('dragging the threshold reads the change live, before the slider is let go', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop');
  const line = p.getByTestId('whatif');
  await line.filter({ hasText: 'at 0.30: as many lookups served, as many hand-backs, in 0 of 5 sessions' }).waitFor();

  const range = p.getByTestId('threshold-range');
  await range.scrollIntoViewIfNeeded();
  const box = await range.boundingBox();
  assert.ok(box, 'the slider is on screen');
  const y = box.y + box.height / 2;
  // The thumb's centre at a value: the track is the width less the 18 px thumb.
  const at = (t: number) => box.x + 9 + t * (box.width - 18);
  await p.mouse.move(at(0.3), y);
  await p.mouse.down();
  for (let i = 1; i <= 8; i++) await p.mouse.move(at(0.3 + (0.75 * i) / 8), y);
  // Held at the right end: every lookup's probability times binding is under 1.
  await line.filter({ hasText: 'at 1.00: 15 fewer lookups served, 15 more hand-backs, in 5 of 5 sessions' }).waitFor();
  assert.match((await line.textContent()) ?? '', /most changed: 20260928T020401\.278Z-14768 3 → 0, 20260928T020401\.259Z-14759 3 → 0/);
  for (let i = 1; i <= 8; i++) await p.mouse.move(at(1.05 - (1.1 * i) / 8), y);
  // At the left end each hand-back that was only under the bar is served; "no lookups followed here" stays.
  await line.filter({ hasText: 'at 0.00: 5 more lookups served, 5 fewer hand-backs, in 5 of 5 sessions' }).waitFor();
  await p.mouse.up();
  await p.waitForURL(/threshold=0\.00/);
  await ui.check('flow-whatif');
});

whatif.run();
