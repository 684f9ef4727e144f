// Properties of the session search (server/search/): on generated logs whose strings hold escapes, quotes,
// backslashes, line breaks, non-ASCII letters (those that fold to ASCII too), long lines, and phrases that
// straddle escape sequences, the byte-filtered search finds exactly what a slow reference finds: parse each
// line, walk its searched string values, fold each code point, match left to right without overlap.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkReader } from '../../server/search/chunks.ts';
import { type LogHits, searchLog } from '../../server/search/log-search.ts';
import { compilePhrase } from '../../server/search/phrase.ts';
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

props('a phrase that is only a key matches nothing', () => {
  const log = logOf({ strings: ['plain'], ways: [0], pad: false, kinds: [0, 1, 4] }, 'W5392-key');
  assert.equal(searched(log, 'w5392-KEY'), []);
});

props.run();
