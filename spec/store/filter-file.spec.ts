// The search filters kept in a file of the run (store/filter-file.ts) and read by the search workers
// (search/filter-reads.ts): the console's memory does not grow with them, a slot handed to a search keeps its
// filter until the search lets the arena go (a freed slot taken by another session never rules out the one it
// was handed for), the file is the run's own and goes with it, and without a file the filters stay in memory.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BatchFilters, ruledOutByFile } from '../../server/search/filter-reads.ts';
import { FilterBuilder, phraseBits } from '../../server/search/trigram-filter.ts';
import { FileFilters, filterArenaIn } from '../../server/store/filter-file.ts';
import { FILTER_BYTES, MemoryFilters } from '../../server/store/search-filters.ts';
import { tempDir } from '../support/fixtures.ts';

const test = suite('store: search filters in a file');

/** The filter of one string value. */
function filterOf(text: string): Uint8Array {
  const b = new FilterBuilder();
  const bytes = Buffer.from(`{"m":${JSON.stringify(text)}}\n`);
  b.add(bytes, bytes.length);
  return b.bits.slice();
}

const PHRASE = 'Plover refund';
const bits = phraseBits(PHRASE)!;
/** Whether the workers' read of the file rules out the phrase for a filter at each offset. */
const ruledOut = (file: string, at: number[]): number[] => [...ruledOutByFile({ file, at: Int32Array.from(at), bits } satisfies BatchFilters)];

test('filters put go to the file, not the console: what it holds stays the same however many are put', () => {
  const t = tempDir();
  try {
    const arena = new FileFilters(t.dir);
    const held = arena.capacity;
    const filter = new Uint8Array(FILTER_BYTES);
    const buffersBefore = process.memoryUsage().arrayBuffers;
    const slots: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      filter.fill(i & 0xff);
      slots.push(arena.put(-1, filter));
    }
    assert.is(arena.capacity, held);
    // 5 MB of filters put; what the console holds for them is its two spans (staged, read).
    assert.ok(process.memoryUsage().arrayBuffers - buffersBefore < 1024 * 1024);
    arena.at(slots.at(-1)!);
    assert.is(statSync(arena.file).size, 20_000 * FILTER_BYTES);
    const bytes = readFileSync(arena.file);
    assert.is(bytes[12_345 * FILTER_BYTES + 7], 12_345 & 0xff);
    assert.equal([...(arena.copy(slots[300]!) ?? [])], new Array(FILTER_BYTES).fill(300 & 0xff));
    // Copied into a save's batch as `copy` gives it, whether the slot is staged, in the span read last, or read now.
    for (const slot of [slots[19_999]!, slots[300]!, slots[301]!, slots[5_000]!, slots[0]!]) {
      const into = new Uint8Array(3 * FILTER_BYTES).fill(0xee);
      assert.ok(arena.copyInto(slot, into, FILTER_BYTES));
      assert.equal([...into.subarray(FILTER_BYTES, 2 * FILTER_BYTES)], [...arena.copy(slot)!], `slot ${slot}`);
      assert.ok(into.subarray(0, FILTER_BYTES).every((b) => b === 0xee) && into.subarray(2 * FILTER_BYTES).every((b) => b === 0xee), 'nothing else written');
    }
    assert.is(statSync(arena.file).mode & 0o777, 0o600);
    arena.close();
    assert.not.ok(existsSync(arena.file));
  } finally {
    t.cleanup();
  }
});

test('a slot is written before it is handed out, and the saver copies what was put, written or not', () => {
  const t = tempDir();
  try {
    const arena = new FileFilters(t.dir);
    const holds = filterOf(`a ${PHRASE} asked`);
    const slot = arena.put(-1, holds);
    assert.equal(new Uint8Array(arena.copy(slot) ?? []), holds);
    const at = arena.at(slot);
    assert.is(at, slot * FILTER_BYTES);
    assert.equal(new Uint8Array(readFileSync(arena.file).subarray(at, at + FILTER_BYTES)), holds);
    assert.equal(ruledOut(arena.file, [at]), [0]);
    const lacks = arena.put(-1, filterOf('nothing of it'));
    assert.equal(ruledOut(arena.file, [at, arena.at(lacks), -1]), [0, 1, 0]);
    arena.close();
  } finally {
    t.cleanup();
  }
});

test('a slot freed or given a new filter while a search holds the arena keeps its filter until the search lets go', () => {
  const t = tempDir();
  try {
    const arena = new FileFilters(t.dir);
    const x = arena.put(-1, filterOf(`the ${PHRASE} of x`));
    const w = arena.put(-1, filterOf(`w asked for a ${PHRASE}`));
    // A search hands x's and w's slots to its worker.
    const letGo = arena.hold();
    const handed = [arena.at(x), arena.at(w)];
    // w is read again, without the phrase now: its new filter goes to another slot, not over the one handed out.
    const w2 = arena.put(w, filterOf('w read again, without it'));
    assert.ok(w2 !== x && w2 !== w);
    // x is removed; y comes with a filter without the phrase: it must not take x's slot while the search runs.
    arena.release(x);
    const y = arena.put(-1, filterOf('y holds none of it'));
    assert.ok(y !== x && y !== w);
    // The worker reads the filters the sessions had when the batch was made: neither is ruled out.
    assert.equal(ruledOut(arena.file, handed), [0, 0]);
    // A search made later does not keep the slots freed before it from being taken once the first is done.
    const later = arena.hold();
    letGo();
    letGo();
    const z = arena.put(-1, filterOf('z, none'));
    assert.ok(z === x || z === w, `a slot freed before every open hold is taken again (${z})`);
    later();
    arena.close();
  } finally {
    t.cleanup();
  }
});

test('a slot freed while two searches hold the arena waits for both', () => {
  const t = tempDir();
  try {
    const arena = new FileFilters(t.dir);
    const a = arena.put(-1, filterOf(PHRASE));
    const first = arena.hold();
    const second = arena.hold();
    arena.release(a);
    first();
    assert.is.not(arena.put(-1, filterOf('other')), a);
    second();
    assert.is(arena.put(-1, filterOf('other')), a);
    arena.close();
  } finally {
    t.cleanup();
  }
});

test('what the worker cannot read rules nothing out: a file gone, a slot past its end', () => {
  const t = tempDir();
  try {
    const arena = new FileFilters(t.dir);
    const lacks = arena.at(arena.put(-1, filterOf('none')));
    assert.equal(ruledOut(arena.file, [lacks, 50 * FILTER_BYTES]), [1, 0]);
    assert.ok(arena.copy(0));
    arena.close();
    assert.equal(ruledOut(arena.file, [lacks]), [0]);
    // Let go, the arena hands out nothing and keeps nothing; a save copying from it gets no filter, not one that rules nothing out.
    assert.is(arena.copy(0), null);
    assert.is(arena.copyInto(0, new Uint8Array(FILTER_BYTES), 0), false);
    assert.is(arena.at(0), -1);
    assert.is(arena.put(-1, filterOf('none')), -1);
  } finally {
    t.cleanup();
  }
});

test('a file of a run that is gone is removed when the next makes its own; a live one is left', () => {
  const t = tempDir();
  try {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const dead = join(t.dir, `search-filters.${gone.stdout}.0.bin`);
    const live = join(t.dir, `search-filters.${process.pid}.999.bin`);
    writeFileSync(dead, 'x');
    writeFileSync(live, 'x');
    const arena = new FileFilters(t.dir);
    assert.not.ok(existsSync(dead));
    assert.ok(existsSync(live));
    arena.close();
    assert.equal(readdirSync(t.dir), [`search-filters.${process.pid}.999.bin`]);
  } finally {
    t.cleanup();
  }
});

test('with no cache directory, or one no file can be made in, the filters stay in memory', () => {
  const t = tempDir();
  try {
    const lines: string[] = [];
    assert.ok(filterArenaIn(null, (l) => lines.push(l)) instanceof MemoryFilters);
    const arena = filterArenaIn(join(t.dir, 'missing'), (l) => lines.push(l));
    assert.ok(arena instanceof MemoryFilters);
    assert.is(arena.file, null);
    assert.is(lines.length, 1);
    assert.match(lines[0]!, /search filters are kept in memory/);
  } finally {
    t.cleanup();
  }
});

test('a link planted where the next file goes is not followed: the filters stay in memory and its target is untouched', () => {
  const t = tempDir();
  try {
    const victim = join(t.dir, 'victim');
    writeFileSync(victim, 'not the console\'s');
    // The names go on from the last one made: a link waits at each of the next few.
    const first = new FileFilters(t.dir);
    const made = Number(/\.(\d+)\.bin$/.exec(first.file)![1]);
    first.close();
    for (let n = made + 1; n <= made + 3; n++) symlinkSync(victim, first.file.replace(/\.\d+\.bin$/, `.${n}.bin`));
    const lines: string[] = [];
    const arena = filterArenaIn(t.dir, (l) => lines.push(l));
    assert.ok(arena instanceof MemoryFilters);
    assert.is(lines.length, 1);
    arena.put(-1, new Uint8Array(FILTER_BYTES).fill(7));
    assert.is(readFileSync(victim, 'utf8'), 'not the console\'s');
  } finally {
    t.cleanup();
  }
});

test.run();
