// Reading a session log (`*.jsonl`) as the CLI's trace library does (session-format §2.7): UTF-8 only,
// blank lines dropped, a header line, then entry lines; a half-written last line of a file that does not end
// in a newline is dropped, any other bad line makes the whole log unreadable. Entries are handed to a
// callback one by one so that a 100 MB log is never held as parsed values, and a caller may skip parsing a
// line it does not need (a huge answer nobody waits for) after a cheap look at its prefix.
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { duplicateOf, escapesLoneSurrogate, isBlank, isIntegerToken, isObject, objectFields } from './json.ts';

export type From = 'client' | 'server' | 'proxy' | 'context';
const FROMS: readonly string[] = ['client', 'server', 'proxy', 'context'];

export interface LogHeader {
  /** The header line as parsed (every field, unknown ones too). */
  value: Record<string, unknown>;
  version: number;
  session: string;
  started_unix_ms: number;
  server_command: string[];
  domain: string | null;
  agent_model: string | null;
}

export interface LogEntry {
  t: number;
  from: From;
  /** The entry's `message` (undefined when absent or null). */
  message: unknown;
  /** The entry's `raw` text (null when absent or null). */
  raw: string | null;
}

/**
 * What a caller may do with a line before it is parsed: parse it (true), or take only its time and sender.
 * `rest` is where the line continues after its `"from":"...",` prefix.
 */
export type Peek = (line: string, t: number, from: From, rest: number) => boolean;

const HEADER_FIELDS = ['engine_mcp_log', 'session', 'started_unix_ms', 'server_command', 'domain', 'agent_model'];
const ENTRY_FIELDS = ['t_ms', 'from', 'message', 'raw'];

/** How the writer starts every entry line; lines that start so need no field-by-field check of t_ms. */
const ENTRY_PREFIX = /^\{"t_ms":(0|[1-9]\d{0,18}),"from":"(client|server|proxy|context)",/;
const U64_MAX = 18446744073709551615;
const U32_MAX = 4294967295;

/** The file's bytes and text; invalid UTF-8 is an error (`reading <path>: ...`). */
export function readLogText(path: string): { text: string; size: number } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`reading ${path}: ${(e as Error).message}`);
  }
  if (!isUtf8(bytes)) throw new Error(`reading ${path}: stream did not contain valid UTF-8`);
  try {
    // toString keeps a BOM in the text, where it makes the header fail, as in the CLI.
    return { text: bytes.toString('utf8'), size: bytes.length };
  } catch {
    throw new Error(`reading ${path}: the file is too large to read (${bytes.length} bytes)`);
  }
}

function jsonDetail(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.length > 200 ? `${m.slice(0, 200)}…` : m;
}

function header(line: string, n: number): LogHeader {
  const fail = (why: string): never => {
    throw new Error(`line ${n}: not an engine MCP log header: ${why}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return fail(jsonDetail(e));
  }
  if (!isObject(value)) return fail('expected a JSON object');
  if (escapesLoneSurrogate(line)) fail('a lone surrogate escape in a string');
  const fields = objectFields(line) ?? [];
  const dup = duplicateOf(fields, HEADER_FIELDS);
  if (dup !== null) fail(`duplicate field "${dup}"`);
  const token = (key: string) => {
    const f = fields.find((x) => x.key === key);
    return f ? line.slice(f.start, f.end) : '';
  };
  const integer = (key: string, max: number): number => {
    if (!(key in value)) return fail(`missing field "${key}"`);
    const v = value[key];
    if (typeof v !== 'number' || !isIntegerToken(token(key)) || v < 0 || v > max) {
      return fail(`${key}: expected a whole number from 0 to ${max}, got ${token(key) || JSON.stringify(v)}`);
    }
    return v;
  };
  const version = integer('engine_mcp_log', U32_MAX);
  if (!('session' in value)) fail('missing field "session"');
  const session = value.session;
  if (typeof session !== 'string') return fail('session: expected a string');
  const started = integer('started_unix_ms', U64_MAX);
  let command: string[] = [];
  if ('server_command' in value) {
    const c = value.server_command;
    if (!Array.isArray(c) || !c.every((w): w is string => typeof w === 'string')) {
      fail('server_command: expected an array of strings');
    } else command = c;
  }
  const text = (key: string): string | null => {
    const v = value[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') return fail(`${key}: expected a string or null`);
    return v;
  };
  const domain = text('domain');
  const agentModel = text('agent_model');
  if (version < 1 || version > 2) throw new Error(`unsupported log version ${version} (this build reads versions 1 to 2)`);
  return {
    value,
    version,
    session,
    started_unix_ms: started,
    server_command: command,
    domain,
    agent_model: agentModel,
  };
}

/** One entry line, checked as the CLI checks it; throws the parser's complaint (without the line number). */
function entry(line: string): LogEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    throw new Error(jsonDetail(e));
  }
  if (!isObject(value)) throw new Error('expected a JSON object with t_ms and from');
  if (escapesLoneSurrogate(line)) throw new Error('a lone surrogate escape in a string');
  // A line that starts as the writer writes it has an integer t_ms and a known sender. Looking for a
  // duplicate field would cost a scan per field on every line, so only other lines get that check.
  if (!ENTRY_PREFIX.test(line)) {
    const fields = objectFields(line) ?? [];
    const dup = duplicateOf(fields, ENTRY_FIELDS);
    if (dup !== null) throw new Error(`duplicate field "${dup}"`);
    if (!('t_ms' in value)) throw new Error('missing field "t_ms"');
    const f = fields.find((x) => x.key === 't_ms');
    const token = f ? line.slice(f.start, f.end) : '';
    const t = value.t_ms;
    if (typeof t !== 'number' || !isIntegerToken(token) || t < 0 || t > U64_MAX) {
      throw new Error(`t_ms: expected a whole number of ms, got ${token || JSON.stringify(t)}`);
    }
    if (!('from' in value)) throw new Error('missing field "from"');
  }
  const from = value.from;
  if (typeof from !== 'string' || !FROMS.includes(from)) {
    throw new Error(`from: unknown sender ${JSON.stringify(from)}, expected client, server, proxy or context`);
  }
  const raw = value.raw;
  if (raw !== undefined && raw !== null && typeof raw !== 'string') throw new Error('raw: expected a string');
  const message = value.message === null ? undefined : value.message;
  return { t: value.t_ms as number, from: from as From, message, raw: typeof raw === 'string' ? raw : null };
}

/**
 * Parses a log's text: returns the header and whether the file lacks a final newline, and hands every
 * entry to `onEntry` in order. `peek`, when given, sees each well-prefixed entry line first: returning
 * false hands on the entry with only its time and sender (message undefined), unparsed.
 * Throws `parsing <path>: ...` for a text that is not a session log.
 */
export function parseLog(
  text: string,
  path: string,
  onEntry: (e: LogEntry) => void,
  peek?: Peek,
): { header: LogHeader; truncated: boolean } {
  try {
    return parseLines(text, onEntry, peek);
  } catch (e) {
    throw new Error(`parsing ${path}: ${(e as Error).message}`);
  }
}

function parseLines(text: string, onEntry: (e: LogEntry) => void, peek?: Peek): { header: LogHeader; truncated: boolean } {
  const truncated = !text.endsWith('\n');
  // Where the last non-blank line starts: only that line may be a half-written one.
  let lastStart = -1;
  {
    let end = text.length;
    while (end > 0) {
      const nl = text.lastIndexOf('\n', end - 1);
      const start = nl + 1;
      if (!isBlank(text.slice(start, end))) {
        lastStart = start;
        break;
      }
      end = nl;
      if (nl < 0) break;
    }
  }
  let head: LogHeader | null = null;
  let n = 0;
  let pos = 0;
  while (pos < text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl === -1) nl = text.length;
    const start = pos;
    let line = text.slice(pos, nl);
    pos = nl + 1;
    n++;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.charCodeAt(0) !== 0x7b && isBlank(line)) continue;
    if (head === null) {
      head = header(line, n);
      continue;
    }
    // A half-written last line is never skipped unparsed: it must be seen to fail and be dropped.
    if (peek && line.endsWith('}') && !(truncated && start === lastStart)) {
      const m = ENTRY_PREFIX.exec(line);
      if (m && !peek(line, Number(m[1]), m[2] as From, m[0].length)) {
        onEntry({ t: Number(m[1]), from: m[2] as From, message: undefined, raw: null });
        continue;
      }
    }
    let e: LogEntry;
    try {
      e = entry(line);
    } catch (err) {
      if (truncated && start === lastStart) break;
      throw new Error(`line ${n}: ${(err as Error).message}`);
    }
    onEntry(e);
  }
  if (head === null) throw new Error('empty log: no header line');
  return { header: head, truncated };
}
