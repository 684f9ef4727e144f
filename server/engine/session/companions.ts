// The two companion files of a session log, read leniently as the console does (session-format §4.3, §5):
// the flow log (`<stem>.flow.jsonl`: decisions and runs) and the confirmation log (`<stem>.confirm.jsonl`:
// one judgment per line). Reading stops at the first line that is not UTF-8; lines that are not JSON are
// skipped, so a half-written last line costs nothing.
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { FlowDecision, FlowRun, FlowSite, SessionSiteCount } from '../../../shared/sessions.ts';
import { SESSION_LINE_MAX_BYTES } from '../../../shared/limits.ts';
import { byCodePoint, has, idString, isObject, sortKeys } from './json.ts';
import { LineTooBig, lineText } from './shrink.ts';
import { scratchBuffer } from './scratch.ts';
import type { OpenedFile } from './opened.ts';

const CHUNK_BYTES = 1 << 20;

/** Strings cut for display while reading companion logs (shrink.ts). */
export interface CutTally {
  cut: number;
}

/**
 * The file's lines, in order (one trailing `\r` removed), up to the first line that is not UTF-8, read a
 * chunk at a time so a long flow log is never held whole. A long line has its long strings cut (counted in
 * `tally`); a line past the bounds of shrink.ts or SESSION_LINE_MAX_BYTES throws LineTooBig, as the session
 * log's reader refuses it. A file that cannot be opened (it vanished since the scan) has no lines.
 */
function* textLines(path: string, tally?: CutTally, opened?: OpenedFile): Generator<string> {
  let fd: number;
  try {
    fd = opened ? opened.fd : openSync(path, 'r');
  } catch {
    return;
  }
  try {
    const size = opened ? opened.size : fstatSync(fd).size;
    // A small file (most are) is read, checked and decoded in one go when it is UTF-8 throughout (a
    // character never spans a newline, so then every line is); otherwise it is read line by line below.
    if (size < CHUNK_BYTES) {
      // Decoded before the first line is handed on: the shared scratch buffer (scratch.ts) is free again by then.
      const whole = scratchBuffer(size + 1);
      let got = 0;
      // One byte more than the stat said, to see that the file grew since; a read that stops short of it is
      // at the end of the file, so the usual case is one read, not a second one that answers 0.
      while (got < size) {
        const r = readSync(fd, whole, got, size + 1 - got, got);
        if (r === 0) break;
        got += r;
      }
      if (got <= size && isUtf8(whole.subarray(0, got))) {
        const text = whole.toString('utf8', 0, got);
        for (let from = 0; from < text.length; ) {
          const nl = text.indexOf('\n', from);
          const end = nl === -1 ? text.length : nl;
          yield text.slice(from, end > from && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end);
          from = end + 1;
        }
        return;
      }
    }
    let buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size + 1));
    let n = 0;
    let filled = 0;
    let pos = 0;
    let offset = 0;
    let eof = false;
    for (;;) {
      const nl = pos < filled ? buf.subarray(pos, filled).indexOf(0x0a) : -1;
      if (nl !== -1 || (eof && pos < filled)) {
        const end = nl === -1 ? filled : pos + nl;
        const stop = end > pos && buf[end - 1] === 0x0d ? end - 1 : end;
        const bytes = buf.subarray(pos, stop);
        if (!isUtf8(bytes)) return;
        pos = nl === -1 ? filled : end + 1;
        n++;
        let read: { text: string; cut: number };
        try {
          read = lineText(bytes);
        } catch (e) {
          throw e instanceof LineTooBig ? new LineTooBig(`${path}: line ${n}: ${e.message}`) : e;
        }
        if (tally) tally.cut += read.cut;
        yield read.text;
        continue;
      }
      if (eof) return;
      if (pos > 0) {
        buf.copy(buf, 0, pos, filled);
        filled -= pos;
        pos = 0;
      }
      if (filled === buf.length) {
        if (filled >= SESSION_LINE_MAX_BYTES) {
          throw new LineTooBig(`${path}: line ${n + 1} is longer than ${SESSION_LINE_MAX_BYTES / 1048576} MiB, the longest line the console reads`);
        }
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const r = readSync(fd, buf, filled, buf.length - filled, offset);
      if (r === 0) eof = true;
      else {
        filled += r;
        offset += r;
      }
    }
  } catch (e) {
    if (e instanceof LineTooBig) throw e;
    // A read that fails midway ends the lines there, as an unreadable line would.
  } finally {
    if (!opened) closeSync(fd);
  }
}

/** Each line of the file that parses as JSON, in order, up to the first line that is not UTF-8. */
export function jsonLines(path: string, tally?: CutTally): unknown[] {
  const out: unknown[] = [];
  for (const text of textLines(path, tally)) {
    if (text.trim() === '') continue;
    try {
      out.push(JSON.parse(text));
    } catch {
      // Not JSON (or half-written): skipped, as the console does.
    }
  }
  return out;
}

/** The `after` of a decision or run as an id string: `3` gives "3", null gives "null", missing gives "". */
function afterOf(line: Record<string, unknown>): string {
  return has(line, 'after') ? idString(line.after) : '';
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);

function decision(line: Record<string, unknown>, action: 'lookup' | 'hand_back'): FlowDecision {
  const probs: Record<string, number> = {};
  if (isObject(line.probs)) {
    for (const k of Object.keys(line.probs).sort(byCodePoint)) {
      const p = line.probs[k];
      if (typeof p === 'number') probs[k] = p;
    }
  }
  const ms = line.ms;
  return {
    after: afterOf(line),
    address: str(line.address),
    site: str(line.site),
    action,
    tool: strOrNull(line.tool),
    arguments: line.arguments === undefined || line.arguments === null ? null : sortKeys(line.arguments),
    prob: numOrNull(line.prob),
    probs,
    binding: numOrNull(line.binding),
    reason: strOrNull(line.reason),
    shadow: line.shadow === true,
    ms: typeof ms === 'number' ? Math.max(0, Math.trunc(ms)) : null,
  };
}

function run(line: Record<string, unknown>): FlowRun {
  const r = isObject(line.run) ? line.run : {};
  const sites: FlowSite[] = [];
  if (Array.isArray(r.sites)) {
    for (const s of r.sites) {
      if (!Array.isArray(s) || typeof s[0] !== 'string') continue;
      sites.push([s[0], s[1] === undefined ? null : sortKeys(s[1]), typeof s[2] === 'number' ? s[2] : 0]);
    }
  }
  const max = r.max_lookups;
  return {
    after: afterOf(line),
    call: str(r.call),
    failed: typeof r.failed === 'boolean' ? r.failed : false,
    max_lookups: typeof max === 'number' && Number.isInteger(max) && max >= 0 ? max : 0,
    sites,
    surprise: numOrNull(r.surprise),
  };
}

/** The flow log's decisions and runs, in file order. */
export function readFlowLog(path: string): { decisions: FlowDecision[]; runs: FlowRun[]; cut: number } {
  const decisions: FlowDecision[] = [];
  const runs: FlowRun[] = [];
  const tally = { cut: 0 };
  for (const line of jsonLines(path, tally)) {
    if (!isObject(line)) continue;
    if (has(line, 'run')) runs.push(run(line));
    else if (line.action === 'lookup' || line.action === 'hand_back') decisions.push(decision(line, line.action));
  }
  return { decisions, runs, cut: tally.cut };
}

/** Every JSON line of the confirmation log, keys sorted. */
export function readConfirmLog(path: string, tally?: CutTally): unknown[] {
  return jsonLines(path, tally).map(sortKeys);
}

/** What a session summary needs from the flow log. */
export interface FlowCounts {
  /** Non-shadow hand-backs. */
  hand_backs: number;
  /** Shadow lookups. */
  shadow_lookups: number;
  /** Shadow hand-backs (with the shadow lookups: every decision logged in shadow). */
  shadow_hand_backs: number;
  /** Some decision was not in shadow (the flow acted). */
  acted: boolean;
  /** Some decision was in shadow. */
  shadowed: boolean;
  /** Some decision handed back because the session surprised the flow. */
  surprised: boolean;
  /** What the flow did at each site, by site (a flow's evidence reads these from the index). */
  sites: Map<string, SessionSiteCount>;
}

function noCounts(): FlowCounts {
  return { hand_backs: 0, shadow_lookups: 0, shadow_hand_backs: 0, acted: false, shadowed: false, surprised: false, sites: new Map() };
}

/** The counts of decisions already read (the detail's path). */
export function countsOf(decisions: readonly FlowDecision[]): FlowCounts {
  const c = noCounts();
  for (const d of decisions) {
    count(c, { action: d.action, shadow: d.shadow, surprised: d.reason !== null && d.reason.startsWith(SURPRISE_PREFIX), site: d.site });
  }
  return c;
}

/** The reason's start when the flow's surprise gate handed back (session-format §6.2, `surprised`). */
const SURPRISE_PREFIX = 'the session surprised the flow';

/** How the proxy starts a decision line: its keys are sorted, so `action` comes first. */
const DECISION_LINE = /^\{"action":"(lookup|hand_back)",/;
/** How the proxy starts a run line (sorted keys: `after`, then `run`); runs count for nothing in a summary. */
const RUN_LINE = /^\{"after":(?:-?\d+|"[^"\\]*"|null),"run":/;
const SITE_FIELD = ',"site":';
/** In a sorted decision line, `shadow` is just before `site` (always written), `reason` just before them. */
const SHADOW_BEFORE_SITE = ',"shadow":true';
const SURPRISE_REASON = ',"reason":"the session surprised the flow';

function count(c: FlowCounts, d: { action: string; shadow: boolean; surprised: boolean; site: string }): void {
  if (d.shadow) c.shadowed = true;
  else c.acted = true;
  if (d.action === 'hand_back' && !d.shadow) c.hand_backs++;
  if (d.action === 'lookup' && d.shadow) c.shadow_lookups++;
  if (d.action === 'hand_back' && d.shadow) c.shadow_hand_backs++;
  if (d.surprised) c.surprised = true;
  let at = c.sites.get(d.site);
  if (!at) {
    at = { site: d.site, lookups: 0, hand_backs: 0, shadow: 0 };
    c.sites.set(d.site, at);
  }
  if (d.shadow) at.shadow++;
  else if (d.action === 'lookup') at.lookups++;
  else at.hand_backs++;
}

/** A JSON string token (or anything else, read as "") at `i` of a line the proxy wrote: the site's value. */
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"/y;
function siteValueAt(text: string, i: number): string {
  STRING_TOKEN.lastIndex = i;
  const m = STRING_TOKEN.exec(text);
  if (!m) return '';
  try {
    return JSON.parse(m[0]) as string;
  } catch {
    return '';
  }
}

/**
 * The flow log's counts for a summary. Lines the proxy wrote (sorted keys, one object, complete) are read
 * by their shape without parsing; any other line is parsed and mapped as readFlowLog does.
 */
export function flowCounts(path: string, opened?: OpenedFile): FlowCounts {
  const c = noCounts();
  for (const text of textLines(path, undefined, opened)) {
    if (RUN_LINE.test(text)) continue;
    // The last `,"site":` is the top-level one: only `tool`, a string, may follow it.
    const m = DECISION_LINE.exec(text);
    const site = m && text.endsWith('}') ? text.lastIndexOf(SITE_FIELD) : -1;
    if (m && site !== -1) {
      const shadow = text.startsWith(SHADOW_BEFORE_SITE, site - SHADOW_BEFORE_SITE.length);
      const before = shadow ? site - SHADOW_BEFORE_SITE.length : site;
      const reason = m[1] === 'hand_back' ? text.lastIndexOf(',"reason":"', before) : -1;
      count(c, {
        action: m[1] as string,
        shadow,
        surprised: reason !== -1 && text.startsWith(SURPRISE_REASON, reason),
        site: siteValueAt(text, site + SITE_FIELD.length),
      });
      continue;
    }
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(line) || has(line, 'run')) continue;
    if (line.action !== 'lookup' && line.action !== 'hand_back') continue;
    const reason = line.reason;
    count(c, {
      action: line.action,
      shadow: line.shadow === true,
      surprised: typeof reason === 'string' && reason.startsWith(SURPRISE_PREFIX),
      site: typeof line.site === 'string' ? line.site : '',
    });
  }
  return c;
}
