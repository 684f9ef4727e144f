// A restart's saved listing finds the directory of each listed log among those the walk left to the saved
// index, remembering the last one (logs of a directory come in runs): whatever the order of the paths, it
// answers as a lookup of each path's directory would, also between directories whose paths are as long. It
// lists them a piece per turn of the event loop, each piece sized to the last one's pace.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { FIRST_BATCH } from '../../server/store/feeder.ts';
import { type KeptDir, keptDirOf } from '../../server/store/saved-listing.ts';
import { LIST_TURN_MS, nextPiece } from '../../server/store/store.ts';
import { check } from '../props/check.ts';

const s = suite('store: the saved listing');

// Directories of equal length (logs/shop, live/shop), nested ones, and the data directory itself ('').
const dirs = ['', 'logs', 'logs/shop', 'live/shop', 'logs/shop/a', 'logs/shap', 'l', 'x/y'];
const rel = fc.tuple(fc.constantFrom(...dirs), fc.constantFrom('a.jsonl', 'b.jsonl', 'shop.jsonl', '1.jsonl')).map(([d, n]) => (d === '' ? n : `${d}/${n}`));

s('the directory of each log, as one lookup by its directory would find it', async () => {
  await check(
    fc.property(fc.subarray(dirs), fc.array(rel, { maxLength: 40 }), (keptDirs, rels) => {
      const kept = new Map<string, KeptDir>(keptDirs.map((d) => [d, { names: [], gone: new Set([d]) }]));
      const dirOf = keptDirOf(kept);
      for (const r of rels) {
        const cut = r.lastIndexOf('/');
        assert.is(dirOf(r), kept.get(cut === -1 ? '' : r.slice(0, cut)), r);
      }
    }),
    300,
  );
});

s('each piece fits a turn at the pace of the last, grows at most twofold, and stays within its bounds', async () => {
  await check(
    fc.property(fc.integer({ min: 1, max: 5_000 }), fc.double({ min: 0, max: 200, noNaN: true }), fc.integer({ min: 1, max: 5_000 }), (piece, tookMs, max) => {
      const next = nextPiece(piece, tookMs, max);
      const floor = Math.min(FIRST_BATCH, max);
      assert.ok(Number.isInteger(next) && next >= floor && next <= max, `${next} within ${floor}..${max}`);
      if (next > floor) {
        assert.ok(next <= piece * 2, `${next} grew more than twofold from ${piece}`);
        assert.ok((next * tookMs) / piece <= LIST_TURN_MS + 1e-9, `${next} at ${tookMs / piece} ms each overruns the turn`);
      }
    }),
    500,
  );
  // A slow first piece shrinks the next to the floor; a fast one doubles it up to the cap.
  assert.is(nextPiece(1_000, 40, 1_000), 200);
  assert.is(nextPiece(64, 1, 1_000), 128);
  assert.is(nextPiece(800, 1, 1_000), 1_000);
  assert.is(nextPiece(64, 100, 1_000), FIRST_BATCH);
});

s.run();
