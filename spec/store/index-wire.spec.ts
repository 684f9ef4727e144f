// A batch of indexing answers crosses the pool in columns (store/index-wire.ts): what comes out is what went
// in, for every kind of answer and every summary of the fixture home, and a string the batch repeats is sent once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type AnswerView, type IndexItem, IndexPacker, type IndexResult, PackedAnswers, packIndex, packItems, packResults, unpackIndex, unpackItems, unpackResults } from '../../server/store/index-wire.ts';
import { emptyFigures, SummaryColumns } from '../../server/store/summary-columns.ts';
import { sessionSummary } from '../../server/engine/sessions.ts';
import { savedResult } from '../../server/store/persisted-index.ts';
import { SessionIndex } from '../../server/store/session-index.ts';
import { serialize } from 'node:v8';
import { fixtureSessions } from '../engine/session-files.ts';
import { FILTER_BYTES } from '../../server/store/search-filters.ts';

const wire = suite('index wire');

/** The answers as the index reads them: the summary's key and path are the entry's own, not sent. */
const asIndexed = (results: IndexResult[]): IndexResult[] =>
  results.map((r) => ('result' in r && r.result.ok ? { ...r, result: { ok: true, value: { ...r.result.value, key: '', path: '' } } } : r));

wire('every kind of answer and every fixture summary comes out as it went in', () => {
  const summaries = fixtureSessions().map((f) => sessionSummary(f));
  assert.ok(summaries.some((s) => s.flow_sites !== undefined), 'the fixtures have a summary with flow sites');
  assert.ok(summaries.some((s) => s.upstream !== null), 'the fixtures have a summary with an upstream');
  const results: IndexResult[] = [
    { stamp: '1:2|-|-', mtimeMs: 2, unchanged: true },
    { stamp: '9:3|-|-', mtimeMs: 3, unchanged: false, big: true },
    { stamp: '5:4|-|-', mtimeMs: 4, unchanged: false, result: { ok: false, message: 'parsing x: line 1: not a header\u0000with a NUL' } },
    ...summaries.map((value, i): IndexResult => ({ stamp: `${i}:${i}|-|-`, mtimeMs: 1_700_000_000_000 + i, unchanged: false, result: { ok: true, value } })),
    { stamp: '7:7|-|-', mtimeMs: 7, unchanged: false, result: { ok: true, value: { ...summaries[0]!, surprised: true, agent: null, domain: null, upstream: null } }, outlineBytes: 1234 },
    { stamp: '8:8|-|-', mtimeMs: 8, unchanged: false, result: { ok: true, value: { ...summaries[0]!, surprised: false } }, outlineBytes: 0 },
  ];
  const packed = packIndex(results);
  // It crosses a process boundary: plain data only.
  assert.equal(unpackIndex(structuredClone(packed)), asIndexed(results));
});

wire('a string the batch repeats is sent once, and so is a set of tools or an upstream', () => {
  const s = sessionSummary(fixtureSessions()[0]!);
  const one = (i: number): IndexResult => ({ stamp: `${i}`, mtimeMs: i, unchanged: false, result: { ok: true, value: { ...s, session_id: `id-${i}` } } });
  const packed = packIndex([one(1), one(2), one(3)]);
  assert.is(new Set(packed.table).size, packed.table.length);
  assert.is(packed.toolSets.length, 1);
  assert.is(packed.upstreams.length, s.upstream === null ? 0 : 1);
  const out = unpackIndex(packed);
  const values = out.map((r) => ('result' in r && r.result.ok ? r.result.value : null));
  assert.ok(values[0]!.tools_called === values[2]!.tools_called, 'one array for the batch');
  assert.equal(values.map((v) => v!.session_id), ['id-1', 'id-2', 'id-3']);
});

wire('counts by site two logs share are sent once', () => {
  const s = sessionSummary(fixtureSessions().find((f) => sessionSummary(f).flow_sites !== undefined)!);
  const one = (i: number): IndexResult => ({ stamp: `${i}`, mtimeMs: i, unchanged: false, result: { ok: true, value: { ...s, session_id: `id-${i}`, flow_sites: structuredClone(s.flow_sites) } } });
  const other: IndexResult = { stamp: '9', mtimeMs: 9, unchanged: false, result: { ok: true, value: { ...s, flow_sites: [{ site: 'x', lookups: 1, hand_backs: 0, shadow: 0 }] } } };
  const packed = packIndex([one(1), one(2), other, one(3)]);
  assert.is(packed.siteLists.length, 2);
  assert.equal(unpackIndex(structuredClone(packed)), asIndexed([one(1), one(2), other, one(3)]));
});

wire('a summary read in place into the columns is the summary the columns keep when given it whole', () => {
  const summaries = fixtureSessions().map((f) => sessionSummary(f));
  const results: IndexResult[] = [
    ...summaries.map((value, i): IndexResult => ({ stamp: `${i}:${i}|-|-`, mtimeMs: 1_700_000_000_000 + i, unchanged: false, result: { ok: true, value } })),
    { stamp: '7:7|-|-', mtimeMs: 7, unchanged: false, result: { ok: true, value: { ...summaries[0]!, surprised: true, agent: null, domain: null, upstream: null, tools_called: [] } } },
    { stamp: '8:8|-|-', mtimeMs: 8, unchanged: false, result: { ok: false, message: 'no header' } },
  ];
  const answers = new PackedAnswers(structuredClone(packIndex(results)));
  const whole = new SummaryColumns();
  const inPlace = new SummaryColumns();
  const view: AnswerView = { stamp: '', mtimeMs: 0, filter: null, figures: emptyFigures() };
  results.forEach((r, i) => {
    const row = whole.take();
    assert.is(inPlace.take(), row);
    const read = inPlace.readable(row) || answers.readInto(i, inPlace, view, 'a-base');
    if (!('result' in r) || !r.result.ok) {
      assert.not.ok(read, 'an answer without a summary is not read in place');
      return;
    }
    assert.ok(read);
    assert.is(view.stamp, r.stamp);
    assert.is(view.mtimeMs, r.mtimeMs);
    whole.setSummary(row, r.result.value, 'a-base');
    inPlace.setFigures(row, view.figures, 'a-base');
    assert.equal(inPlace.summary(row, 'k', 'r', 'a-base'), whole.summary(row, 'k', 'r', 'a-base'));
  });
});

wire('a session id that is its log\'s key base is not sent, and is read back from the base', () => {
  const s = sessionSummary(fixtureSessions()[0]!);
  const own: IndexResult = { stamp: '1', mtimeMs: 1, unchanged: false, result: { ok: true, value: { ...s, session_id: 'the-base' } } };
  const other: IndexResult = { stamp: '2', mtimeMs: 2, unchanged: false, result: { ok: true, value: { ...s, session_id: 'another id' } } };
  const packer = new IndexPacker(2);
  packer.add(own, 'the-base');
  packer.add(other, 'the-base');
  const packed = packer.finish();
  assert.not.ok(packed.text.includes('the-base'), 'not sent');
  const answers = new PackedAnswers(structuredClone(packed));
  const idOf = (i: number): string | null => {
    const r = answers.saved(i, 'the-base')?.result;
    return r?.ok ? r.value.session_id : null;
  };
  assert.is(idOf(0), 'the-base');
  assert.is(idOf(1), 'another id');
  const view: AnswerView = { stamp: '', mtimeMs: 0, filter: null, figures: emptyFigures() };
  assert.ok(answers.readInto(0, new SummaryColumns(), view, 'the-base'));
  assert.is(view.figures.sessionId, 'the-base');
  // A reader that does not know the base cannot make the summary up.
  assert.throws(() => answers.result(0), /key base/);
});

wire('a batch of logs crosses as it went in (less the key and rel the worker does not need)', () => {
  const stem = '/home/ü ser/.engine/logs/shop/2026 x';
  const items: IndexItem[] = [
    { key: 'a', rel: 'logs/a.jsonl', path: `${stem}.jsonl`, flowLog: `${stem}.flow.jsonl`, confirmLog: `${stem}.confirm.jsonl`, known: '1:2|3:4|5:6', bigFrom: 99, outlineTo: '/spool/o' },
    { key: 'b', rel: 'b.jsonl', path: '/d/b.jsonl', flowLog: null, confirmLog: null, known: null, bigFrom: 99, outlineTo: '/spool/o' },
    { key: 'c', rel: 'c.jsonl', path: '/d/c.jsonl', flowLog: null, confirmLog: '/d/c.confirm.jsonl', known: '7:8|-|9:1', bigFrom: 99, outlineTo: '/spool/o' },
  ];
  assert.equal(unpackItems(structuredClone(packItems(items))), items.map((i) => ({ ...i, key: '', rel: '' })));
  const plain = items.map(({ bigFrom: _b, outlineTo: _o, ...rest }) => rest);
  assert.equal(unpackItems(packItems(plain)), plain.map((i) => ({ ...i, key: '', rel: '' })));
  assert.equal(unpackItems(packItems([])), []);
  assert.throws(() => packItems([{ ...items[1]!, flowLog: '/elsewhere/b.flow.jsonl' }]), /not beside/);
});

wire('answers cross as one buffer', () => {
  const results: IndexResult[] = [{ stamp: '1:2|-|-', mtimeMs: 2, unchanged: true }, { stamp: '-|-|-', mtimeMs: 0, unchanged: false, result: { ok: false, message: 'the log is gone' } }];
  const bytes = packResults(results);
  assert.instance(bytes, Uint8Array);
  assert.equal(unpackResults(structuredClone(bytes)), results);
});

wire('an entry packed from its row is the entry packed from its summary, byte for byte', () => {
  const summaries = fixtureSessions().map((f) => sessionSummary(f));
  const sited = summaries.find((s) => s.flow_sites !== undefined)!;
  const values = [
    ...summaries,
    { ...summaries[0]!, surprised: true, agent: null, domain: null, upstream: null, tools_called: [] },
    { ...summaries[1]!, surprised: false, session_id: 'not-the-base' },
    { ...sited, session_id: 'another', flow_sites: structuredClone(sited.flow_sites) },
    { ...sited, flow_sites: [{ site: 'x', lookups: 1, hand_backs: 0, shadow: 2 }] },
  ];
  const index = new SessionIndex();
  const logs = values.map((_, i) => ({ rel: `logs/shop/s-${i}.jsonl`, name: `s-${i}.jsonl`, flowLog: false, confirmLog: false }));
  const entries = index.add('/data', logs);
  entries.forEach((e, i) => index.apply(e, `${i}:${i}|-|-`, 1_700_000_000_000 + i, { ok: true, value: values[i]! }, 0));
  // Some have search filters, each its own bytes; one that does not read goes the other way, in the same batch.
  entries.forEach((e, i) => i % 2 === 1 && index.apply(e, `${i}:${i}|-|-`, 1_700_000_000_000 + i, { ok: true, value: values[i]! }, 0, { filter: new Uint8Array(FILTER_BYTES).map((_, b) => (b * 7 + i) & 0xff) }));
  index.apply(entries[3]!, '3:3|-|-', 3, { ok: false, message: 'no header' }, 0);
  const fromSummaries = new IndexPacker(entries.length);
  const fromRows = new IndexPacker(entries.length);
  const figures = emptyFigures();
  const filter = { arena: index.filters, slot: -1 };
  for (const e of entries) {
    fromSummaries.add(savedResult(e, index.filters), e.base);
    filter.slot = e.filterSlot;
    if (e.readFigures(figures)) fromRows.addFigures(e.stamp!, e.mtimeMs, figures, index.values, e.base, filter);
    else fromRows.add(savedResult(e, index.filters), e.base);
  }
  const packed = fromRows.finish();
  assert.is(packed.filters.length, Math.floor(entries.length / 2) * FILTER_BYTES - FILTER_BYTES, 'the readable ones with filters');
  assert.equal(Buffer.from(serialize(packed)), Buffer.from(serialize(fromSummaries.finish())));
});

wire.run();
