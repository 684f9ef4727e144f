// engine/session/decision-line.ts on a fixture session read in place: which call shows a flow's first
// decision at a site, and the log line that call's request is on.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decisionCall, lineAtOffset } from '../../server/engine/session/decision-line.ts';
import { sessionIndex } from '../../server/engine/session/views.ts';
import { fixtureHome, tempDir } from '../support/fixtures.ts';
import { filesAt } from './session-files.ts';

const lines = suite('decision line');
const served = filesAt(fixtureHome, 'served/shop/20260928T020401.117Z-14662.jsonl');

lines('a served lookup is shown by the call it made; a hand-back by the agent’s call it came after', () => {
  const { outline, places } = sessionIndex(served);
  const lookup = decisionCall(outline, 'get_order_details');
  assert.ok(lookup !== null);
  const made = outline.calls[lookup]!;
  assert.equal([made.by, made.id, made.tool], ['flow', 'engine-3', 'get_order_details']);
  assert.is(lineAtOffset(served.path, places[lookup]!.request!.offset), 14);
  const back = decisionCall(outline, 'cancel_pending_order');
  assert.ok(back !== null);
  const after = outline.calls[back]!;
  assert.equal([after.by, after.id], ['agent', '4']);
  assert.is(lineAtOffset(served.path, places[back]!.request!.offset), 19);
  assert.is(decisionCall(outline, 'never_called'), null);
});

lines('lines count from 1, at the start of the file and past a long line', () => {
  const dir = tempDir();
  try {
    const file = join(dir.dir, 'log.jsonl');
    const long = 'x'.repeat(3 << 20);
    writeFileSync(file, `a\n${long}\nb\n`);
    assert.is(lineAtOffset(file, 0), 1);
    assert.is(lineAtOffset(file, 2), 2);
    assert.is(lineAtOffset(file, readFileSync(file).indexOf('b')), 3);
  } finally {
    dir.cleanup();
  }
});

lines.run();
