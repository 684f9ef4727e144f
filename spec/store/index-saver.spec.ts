// When the saver writes the index once the cold index is in: at once after reading many logs (a stop soon
// after must not lose them), not after reading few (a restart: the save after the filter pass writes them, and
// at a million sessions each save is seconds of work), never when every log matched the saved index; and how
// often after that.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { IndexSaver, saveDue } from '../../server/store/index-saver.ts';
import { SessionIndex } from '../../server/store/session-index.ts';
import { tempDir } from '../support/fixtures.ts';

const test = suite('store: when the index is saved');

/** A saver that counts the saves it is asked for rather than writing. */
class CountingSaver extends IndexSaver {
  saves = 0;
  override async save(): Promise<void> {
    this.saves++;
  }
}

test('a cold index that read many logs is saved at once; one that read few, or matched the saved index, waits', () => {
  const cache = tempDir();
  try {
    const savesAfter = (matched: boolean, read: number): number => {
      const saver = new CountingSaver({ file: join(cache.dir, 'index.bin'), write: true }, '/data', new SessionIndex(), () => {});
      saver.coldIndexDone(matched, read);
      saver.close();
      return saver.saves;
    };
    assert.is(savesAfter(false, 100_000), 1);
    assert.is(savesAfter(false, 2_001), 1);
    assert.is(savesAfter(false, 2_000), 0);
    assert.is(savesAfter(false, 1), 0);
    assert.is(savesAfter(true, 0), 0);
  } finally {
    cache.cleanup();
  }
});

test('a save is due a minute after the last, or later when saves took longer than 5 % of the time', () => {
  // A quick save: a minute after it ended.
  assert.not.ok(saveDue(59_999, 0, 500));
  assert.ok(saveDue(60_000, 0, 500));
  // A million sessions' save of 6 s: 114 s after it ended, so that saving is 6 s of every 120.
  assert.not.ok(saveDue(113_999, 0, 6_000));
  assert.ok(saveDue(114_000, 0, 6_000));
});

test.run();
