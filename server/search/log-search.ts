// One log searched for a phrase: first its bytes (the phrase's anchor, and what could hide it), and only
// the lines that may hold the phrase are decoded, parsed and matched on their string values. A log with no
// candidate line is never decoded; a big one is read twice only when it has one.
import type { SearchHit, SearchIn } from '../../shared/search.ts';
import { SEARCH_SNIPPET_CONTEXT } from '../../shared/limits.ts';
import { ChunkReader } from './chunks.ts';
import { type Located, type LogKind, companionLineStrings, isHeader, sessionLineStrings } from './line-strings.ts';
import { HIDING_ESCAPE, KELVIN_UTF8, LONG_S_UTF8, type Phrase } from './phrase.ts';

export interface HitFilter {
  tool: string | null;
  in: SearchIn;
}

/** Hits found in a log: the first `keep` as sent, and how many there are in all. */
export interface LogHits {
  hits: SearchHit[];
  count: number;
}

const WANTED: Record<SearchIn, (l: Located) => boolean> = {
  all: () => true,
  arguments: (l) => l.where === 'arguments',
  results: (l) => l.where === 'result',
  conversation: (l) => l.where === 'conversation',
};

/** Start offsets of the lines of `bytes[0, length)` that may hold the phrase, in order, without decoding. */
export function candidateLines(bytes: Buffer, length: number, phrase: Phrase): number[] {
  const latin = bytes.toString('latin1', 0, length);
  if (phrase.anchor === null) return allLines(latin);
  const starts = new Set<number>();
  const add = (at: number) => starts.add(latin.lastIndexOf('\n', at) + 1);
  const { anchor } = phrase;
  anchor.lastIndex = 0;
  for (let m = anchor.exec(latin); m !== null; m = anchor.exec(latin)) {
    add(m.index);
    const next = latin.indexOf('\n', anchor.lastIndex);
    if (next < 0) break;
    anchor.lastIndex = next + 1;
  }
  const escape = bytes.indexOf('\\u');
  if (escape >= 0 && escape < length) {
    HIDING_ESCAPE.lastIndex = 0;
    for (let m = HIDING_ESCAPE.exec(latin); m !== null; m = HIDING_ESCAPE.exec(latin)) add(m.index);
  }
  if (phrase.foldsFromNonAscii) {
    for (const letter of [KELVIN_UTF8, LONG_S_UTF8]) {
      for (let at = bytes.indexOf(letter); at >= 0 && at < length; at = bytes.indexOf(letter, at + 1)) add(at);
    }
  }
  return [...starts].sort((a, b) => a - b);
}

/** Whether any line of `bytes[0, length)` may hold the phrase: `candidateLines` without listing them. */
export function mayHold(bytes: Buffer, length: number, phrase: Phrase): boolean {
  if (phrase.anchor === null) return length > 0;
  let latin: string | null = null;
  const caseless = phrase.caseless === null ? 0 : bytes.indexOf(phrase.caseless);
  if (caseless >= 0 && caseless < length) {
    latin = bytes.toString('latin1', 0, length);
    phrase.anchor.lastIndex = 0;
    if (phrase.anchor.test(latin)) return true;
  }
  const escape = bytes.indexOf('\\u');
  if (escape >= 0 && escape < length) {
    HIDING_ESCAPE.lastIndex = 0;
    if (HIDING_ESCAPE.test(latin ?? bytes.toString('latin1', 0, length))) return true;
  }
  if (!phrase.foldsFromNonAscii) return false;
  return [KELVIN_UTF8, LONG_S_UTF8].some((letter) => {
    const at = bytes.indexOf(letter);
    return at >= 0 && at < length;
  });
}

function allLines(latin: string): number[] {
  const starts = [0];
  for (let at = latin.indexOf('\n'); at >= 0 && at + 1 < latin.length; at = latin.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The snippet around a match of `s` at [from, to), widened so no surrogate pair is split. */
function snippet(s: string, from: number, to: number): { snippet: string; at: [number, number] } {
  let start = Math.max(0, from - SEARCH_SNIPPET_CONTEXT);
  let end = Math.min(s.length, to + SEARCH_SNIPPET_CONTEXT);
  if (start > 0 && (s.charCodeAt(start) & 0xfc00) === 0xdc00) start--;
  if (end < s.length && (s.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
  return { snippet: s.slice(start, end), at: [from - start, to - start] };
}

/** Counts the matches of a located string, keeping hits up to `keep`. */
function matchInto(l: Located, line: number, phrase: Phrase, out: LogHits, keep: number): void {
  const re = phrase.matcher;
  re.lastIndex = 0;
  for (let m = re.exec(l.text); m !== null; m = re.exec(l.text)) {
    out.count++;
    if (out.hits.length < keep) out.hits.push({ line, tool: l.tool, where: l.where, ...snippet(l.text, m.index, m.index + m[0].length) });
  }
}

const parsed = (bytes: Buffer, start: number, end: number): unknown => {
  const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
  try {
    return JSON.parse(bytes.toString('utf8', start, stop));
  } catch {
    // A line cut by a writer still at work, or not JSON: nothing in it is a string value.
    return undefined;
  }
};

/** The offsets of the calls (`tools/call` requests) among a chunk's lines, for pairing answers to tools. */
function callLines(bytes: Buffer, length: number): number[] {
  const out: number[] = [];
  for (let at = bytes.indexOf('"tools/call"'); at >= 0 && at < length; at = bytes.indexOf('"tools/call"', at + 1)) {
    const start = bytes.lastIndexOf(10, at) + 1;
    if (out[out.length - 1] !== start) out.push(start);
  }
  return out;
}

/**
 * Searches one log, adding to `out` (hits past `keep` are only counted). `reader` is reused across logs.
 * Throws what reading the file throws.
 */
export function searchLog(reader: ChunkReader, path: string, kind: LogKind, phrase: Phrase, filter: HitFilter, out: LogHits, keep: number): void {
  let any = false;
  reader.read(path, (bytes, length) => {
    any = mayHold(bytes, length, phrase);
    return !any;
  });
  if (!any) return;
  const calls = new Map<string, string>();
  const callOf = (idKey: string) => calls.get(idKey) ?? null;
  const wanted = WANTED[filter.in];
  let lineNo = 1;
  reader.read(path, (bytes, length) => {
    const candidates = candidateLines(bytes, length, phrase);
    const requests = kind === 'session' ? callLines(bytes, length) : [];
    let counted = 0;
    let ri = 0;
    for (const start of candidates) {
      for (; ri < requests.length && requests[ri]! <= start; ri++) noteCall(calls, parsed(bytes, requests[ri]!, lineEnd(bytes, requests[ri]!, length)));
      for (let at = bytes.indexOf(10, counted); at >= 0 && at < start; at = bytes.indexOf(10, at + 1)) lineNo++;
      counted = start;
      const value = parsed(bytes, start, lineEnd(bytes, start, length));
      if (value === undefined || (kind === 'session' && isHeader(value))) continue;
      const strings = kind === 'session' ? sessionLineStrings(value, callOf) : companionLineStrings(value);
      for (const l of strings) if (wanted(l) && (filter.tool === null || l.tool === filter.tool)) matchInto(l, lineNo, phrase, out, keep);
    }
    for (let at = bytes.indexOf(10, counted); at >= 0 && at < length; at = bytes.indexOf(10, at + 1)) lineNo++;
    for (; ri < requests.length; ri++) noteCall(calls, parsed(bytes, requests[ri]!, lineEnd(bytes, requests[ri]!, length)));
    return true;
  });
}

const lineEnd = (bytes: Buffer, start: number, length: number): number => {
  const at = bytes.indexOf(10, start);
  return at < 0 || at >= length ? length : at;
};

/** Records a call's tool by its id, from a parsed session-log line (a newer call with the same id wins). */
function noteCall(calls: Map<string, string>, line: unknown): void {
  if (typeof line !== 'object' || line === null || !('message' in line) || !('from' in line)) return;
  if (line.from !== 'client' && line.from !== 'proxy') return;
  const messages: unknown[] = Array.isArray(line.message) ? line.message : [line.message];
  for (const m of messages) {
    if (typeof m !== 'object' || m === null || !('method' in m) || m.method !== 'tools/call' || !('id' in m) || !('params' in m)) continue;
    const { params } = m;
    if (m.id === null || typeof params !== 'object' || params === null || !('name' in params) || typeof params.name !== 'string') continue;
    calls.set(JSON.stringify(m.id), params.name);
  }
}
