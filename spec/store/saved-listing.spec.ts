// A restart's saved listing finds the directory of each listed log among those the walk left to the saved
// index, remembering the last one (logs of a directory come in runs): whatever the order of the paths, it
// answers as a lookup of each path's directory would, also between directories whose paths are as long.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { type KeptDir, keptDirOf } from '../../server/store/saved-listing.ts';
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

s.run();
