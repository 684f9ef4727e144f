// Properties of the session search (server/search/): on generated logs whose strings hold escapes, quotes,
// backslashes, line breaks, non-ASCII letters (those that fold to ASCII too), long lines, and phrases that
// straddle escape sequences, the byte-filtered search finds exactly what a slow reference finds: parse each
// line, walk its searched string values, fold each code point, match left to right without overlap. A log
// its trigram filter rules out holds the phrase in no string at all, keys included (the reference again).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkReader } from '../../server/search/chunks.ts';
import { type LogHits, searchLog } from '../../server/search/log-search.ts';
import { compilePhrase } from '../../server/search/phrase.ts';
import { FilterBuilder, filterMayHold, phraseBits } from '../../server/search/trigram-filter.ts';
import { tempDir } from '../support/fixtures.ts';
import { check } from './check.ts';

const props = suite('props: search');
const t = tempDir('engine-search-props-');
props.after(() => t.cleanup());

const ALPHABET = [...'abkKsSxyz019 -:#"\\/\n\t\u0001', 'é', 'É', 'ß', 'ẞ', 'ſ', '\u212a', 'Σ', 'σ', 'ς', 'İ', 'i', '日', '😀', '𐐀', '𐐨'];
const char = fc.constantFrom(...ALPHABET);
const text = fc.array(char, { maxLength: 24 }).map((cs) => cs.join(''));

/** How each character of a string is written: as itself where JSON allows, or escaped (0-1 raw, 2 short, 3-4 \\u), at random. */
const spelling = fc.array(fc.nat(5), { minLength: 1, maxLength: 64 });

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\n': '\\n', '\t': '\\t' };
const hex4 = (n: number, upper: boolean) => (upper ? n.toString(16).toUpperCase() : n.toString(16)).padStart(4, '0');

/** A JSON string literal of `s`, each character spelled as `ways` picks (cycling); a pair escaped whole. */
function jsonString(s: string, ways: number[]): string {
  let out = '"';
  let i = 0;
  for (const c of s) {
    const code = c.charCodeAt(0);
    const way = ways[i++ % ways.length]!;
    if (c.length === 2) out += way >= 1 ? `\\u${hex4(code, way === 4)}\\u${hex4(c.charCodeAt(1), way === 4)}` : c;
    else if (way >= 2 || code < 0x20 || c === '"' || c === '\\') out += SHORT[c] !== undefined && way !== 3 ? SHORT[c] : `\\u${hex4(code, way === 4)}`;
    else out += c;
  }
  return `${out}"`;
}

interface Gen {
  strings: string[];
  ways: number[];
  pad: boolean;
  kinds: number[];
}

/** A session log: header, then lines of each kind, holding the generated strings. */
function logOf(g: Gen, phraseAsKey: string): string {
  const s = (i: number) => {
    const base = g.strings[i % g.strings.length] ?? '';
    return jsonString(g.pad && i % 3 === 0 ? `${'q'.repeat(3000)}${base}` : base, g.ways.slice(i % g.ways.length).concat(g.ways));
  };
  const key = jsonString(phraseAsKey, g.ways);
  const lines = ['{"engine_mcp_log":2,"session":"s","started_unix_ms":1,"server_command":[],"domain":"d","agent_model":null}'];
  g.kinds.forEach((kind, i) => {
    const id = i + 1;
    if (kind === 0) lines.push(`{"t_ms":${i},"from":"client","message":{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{"a":${s(i)},${key}:1,"b":[${s(i + 1)},{"c":${s(i + 2)}}]}}}}`);
    else if (kind === 1) lines.push(`{"t_ms":${i},"from":"server","message":{"jsonrpc":"2.0","id":${id - 1},"result":{"content":[{"type":"text","text":${s(i)}}],${key}:${s(i + 1)}}}}`);
    else if (kind === 2) lines.push(`{"t_ms":${i},"from":"context","message":{"role":"user","content":${s(i)}}}`);
    else if (kind === 3) lines.push(`{"t_ms":${i},"from":"server","raw":${s(i)}}`);
    else lines.push(`{"t_ms":${i},"from":"proxy","message":[{"jsonrpc":"2.0","method":"notifications/message","params":{${key}:${s(i)}}}]}`);
  });
  return `${lines.join('\n')}\n`;
}

/** Unicode simple case folding of one code point, from the case mappings (independent of RegExp `iu`). */
function fold(cp: number): number {
  const ch = String.fromCodePoint(cp);
  const upper = ch.toUpperCase();
  const base = [...upper].length === 1 ? upper : ch;
  const lower = base.toLowerCase();
  return ([...lower].length === 1 ? lower : base).codePointAt(0)!;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
function* strings(x: Json | undefined, skip: string[] = []): Generator<string> {
  if (typeof x === 'string') yield x;
  else if (Array.isArray(x)) for (const y of x) yield* strings(y);
  else if (x && typeof x === 'object') for (const [k, y] of Object.entries(x)) if (!skip.includes(k)) yield* strings(y);
}

/** The reference: every match as [line, matched text], in line order. */
function reference(log: string, phrase: string): [number, string][] {
  const want = [...phrase].map((c) => fold(c.codePointAt(0)!));
  const out: [number, string][] = [];
  log.split('\n').forEach((lineText, i) => {
    if (i === 0 || lineText === '') return;
    const line = JSON.parse(lineText) as { [k: string]: Json };
    const values: string[] = typeof line.raw === 'string' ? [line.raw] : [];
    const messages = Array.isArray(line.message) ? line.message : [line.message];
    for (const m of messages) {
      if (!m || typeof m !== 'object' || Array.isArray(m)) continue;
      const params = m.params;
      if (line.from === 'context') values.push(...strings(m, ['role']));
      else if (m.method === 'tools/call' && params && typeof params === 'object' && !Array.isArray(params)) values.push(...strings(params.arguments));
      else values.push(...strings(m, ['jsonrpc', 'method', 'id']));
    }
    for (const v of values) {
      const cps = [...v];
      const folded = cps.map((c) => fold(c.codePointAt(0)!));
      for (let k = 0; k + want.length <= folded.length; ) {
        if (want.every((w, j) => folded[k + j] === w)) {
          out.push([i + 1, cps.slice(k, k + want.length).join('')]);
          k += want.length;
        } else k++;
      }
    }
  });
  return out;
}

const reader = new ChunkReader();
let n = 0;
function searched(log: string, phrase: string): [number, string][] {
  const path = join(t.dir, `s${n++}.jsonl`);
  writeFileSync(path, log);
  const out: LogHits = { hits: [], count: 0 };
  searchLog(reader, path, 'session', compilePhrase(phrase), { tool: null, in: 'all' }, out, Infinity);
  assert.is(out.count, out.hits.length);
  return out.hits.map((h) => [h.line, h.snippet.slice(h.at[0], h.at[1])]);
}

const sorted = (xs: [number, string][]) => [...xs].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));

/** A phrase taken from a generated string (so it is there), with its case changed here and there. */
const phraseFrom = (g: Gen, pick: number, at: number, len: number, flips: boolean[]) => {
  const cps = [...(g.strings[pick % g.strings.length] ?? '')];
  const from = cps.length === 0 ? 0 : at % cps.length;
  return cps
    .slice(from, from + len)
    .map((c, i) => (flips[i % flips.length] ? ([...c.toUpperCase()].length === 1 ? c.toUpperCase() : c.toLowerCase()) : c))
    .join('');
};

const gen = fc.record({
  strings: fc.array(text, { minLength: 1, maxLength: 6 }),
  ways: spelling,
  pad: fc.boolean(),
  kinds: fc.array(fc.nat(4), { minLength: 1, maxLength: 8 }),
});

props('the search finds what the reference finds: phrases taken from the log, case changed, spelled any way', async () => {
  await check(
    fc.property(gen, fc.nat(), fc.nat(), fc.integer({ min: 2, max: 8 }), fc.array(fc.boolean(), { minLength: 1 }), (g, pick, at, len, flips) => {
      const phrase = phraseFrom(g, pick, at, len, flips);
      fc.pre([...phrase].length >= 2);
      const log = logOf(g, phrase);
      assert.equal(sorted(searched(log, phrase)), sorted(reference(log, phrase)), JSON.stringify(phrase));
    }),
    300,
  );
});

props('the search finds what the reference finds: random phrases, which also sit in keys', async () => {
  await check(
    fc.property(gen, fc.array(char, { minLength: 2, maxLength: 5 }), (g, cs) => {
      const phrase = cs.join('');
      const log = logOf(g, phrase);
      assert.equal(sorted(searched(log, phrase)), sorted(reference(log, phrase)), JSON.stringify(phrase));
    }),
    300,
  );
});

/** Whether any string of the log (keys too, any line, the header too) holds the phrase, folded. */
function anyStringHolds(log: string, phrase: string): boolean {
  const want = [...phrase].map((c) => fold(c.codePointAt(0)!)).join(',');
  const all: string[] = [];
  const walk = (x: Json) => {
    if (typeof x === 'string') all.push(x);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') for (const [k, y] of Object.entries(x)) all.push(k), walk(y);
  };
  for (const line of log.split('\n')) if (line !== '') walk(JSON.parse(line) as Json);
  return all.some((v) => `,${[...v].map((c) => fold(c.codePointAt(0)!)).join(',')},`.includes(`,${want},`));
}

let ruledOut = 0;
/** Whether the filter of a log (written as one file, or cut in whole lines as the reader hands them) rules the phrase out. */
function filterRulesOut(log: string, phrase: string, cut: number): boolean {
  const bits = phraseBits(phrase);
  if (bits === null) return false;
  const bytes = Buffer.from(log);
  const builder = new FilterBuilder();
  const at = bytes.indexOf(10, cut % bytes.length) + 1;
  if (at > 0 && at < bytes.length) {
    builder.add(bytes, at);
    builder.add(bytes.subarray(at), bytes.length - at);
  } else builder.add(bytes, bytes.length);
  const filter = builder.finish();
  const out = filter !== null && !filterMayHold(filter, 0, bits);
  if (out) ruledOut++;
  return out;
}

props('a log the filter rules out holds the phrase nowhere: phrases taken from the log or random, spelled any way', async () => {
  ruledOut = 0;
  await check(
    fc.property(gen, fc.nat(), fc.nat(), fc.integer({ min: 2, max: 12 }), fc.array(fc.boolean(), { minLength: 1 }), fc.array(char, { minLength: 3, maxLength: 6 }), fc.nat(), fc.boolean(), (g, pick, at, len, flips, cs, cut, taken) => {
      const phrase = taken ? phraseFrom(g, pick, at, len, flips) : cs.join('');
      fc.pre([...phrase].length >= 2);
      const log = logOf(g, taken ? phrase : 'key');
      // A line cut inside a string (a writer still at work) must not turn the lines after it inside out.
      const [header, ...rest] = log.split('\n');
      if (!filterRulesOut([header, '{"t_ms":0,"from":"server","raw":"cut', ...rest].join('\n'), phrase, cut)) return;
      assert.equal(reference(log, phrase), [], JSON.stringify(phrase));
      assert.ok(!anyStringHolds(log, phrase), JSON.stringify(phrase));
    }),
    600,
  );
  // Random phrases are mostly absent: a filter that never rules out would pass the above and be worthless.
  assert.ok(ruledOut >= 20, `the filter ruled out only ${ruledOut} logs`);
});

props('the filter: escapes, folding signs and cut lines spell what they decode to', () => {
  const log = (s: string) => `{"a":${s},"b":"\\\\u0041BC"}\n{"cut":"abc\n"}\n`;
  const holds = (logText: string, phrase: string) => !filterRulesOut(logText, phrase, 0);
  assert.ok(holds(log('"\\u004b\\u0045lvin"'), 'kelvin'));
  assert.ok(holds(log('"\u212aelvin"'), 'KELVIN'));
  assert.ok(holds(log('"\\u212Aelvin"'), 'kelvin'));
  assert.ok(holds(log('"cla\u017fs"'), 'class'));
  assert.ok(holds(log('"x"'), 'u0041bc'), 'an escaped backslash then letters');
  assert.ok(!holds(log('"x"'), 'zzz-none'));
  assert.ok(holds('{"k":1}\n', 'k"'), 'under three plain characters: every log may hold it');
});

props('a phrase that is only a key matches nothing', () => {
  const log = logOf({ strings: ['plain'], ways: [0], pad: false, kinds: [0, 1, 4] }, 'W5392-key');
  assert.equal(searched(log, 'w5392-KEY'), []);
});

props.run();
