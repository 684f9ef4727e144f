// Reading a session log (`*.jsonl`) as the CLI's trace library does (session-format §2.7): UTF-8 only,
// blank lines dropped, a header line, then entry lines; a half-written last line of a file that does not end
// in a newline is dropped, any other bad line makes the whole log unreadable. The file is read in chunks
// and entries are handed to a callback one by one, so a 100 MB log is never held whole (in bytes, text or
// values), and a caller may skip parsing a line it does not need (a huge answer nobody waits for) after a
// cheap look at it; where each line lies in the file is given so that it can be read again later.
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { scratchBuffer } from './scratch.ts';
import type { OpenedFile } from './opened.ts';
import { SESSION_LINE_FULL_BYTES, SESSION_LINE_MAX_BYTES } from '../../../shared/limits.ts';
import { duplicateOf, escapesLoneSurrogate, isBlank, isIntegerToken, isObject, objectFields } from './json.ts';
import { HeapGuard } from './heap-guard.ts';
import { LineTooBig, lineText } from './shrink.ts';
import { errorText } from '../../../shared/error-text.ts';

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
  /** How many strings of the line were cut for display (shrink.ts); absent when none. */
  cut?: number;
}

/** Where a line lies in the file, in bytes (without its `\n` and a trailing `\r`), or its text itself. */
export interface LineAt {
  offset: number;
  length: number;
  /** The line's text, kept for lines of small files (which are not read twice). */
  text?: string;
}

/**
 * What a caller may do with a line before it is parsed: parse it (true), take only its time and sender
 * (false), or parse it knowing that the same line (after its time and sender) recurs across logs
 * ('shared': the tools listing and the handshake a given server and client send in every session), so the
 * parse may be shared with an earlier identical line. `rest` is where the line continues after its
 * `"from":"...",` prefix. `bytes` are the line's bytes when the file is read in chunks (searching them is
 * much faster than searching the text), valid during the call. When `whole` is false, `line` is only the
 * head of a long line (PEEK_HEAD_BYTES of it, decoded): a look that cannot decide from the head answers
 * true and has no effect, and it is asked again with the whole line.
 */
export type Peek = (
  line: string,
  t: number,
  from: From,
  rest: number,
  at: LineAt,
  bytes: Buffer | null,
  whole: boolean,
) => boolean | 'shared';

/**
 * A chunked line longer than this is looked at by its head before it is decoded: decoding was most of the
 * time a big log's summary took, and most of its long lines are answers taken by their head and bytes.
 */
const PEEK_HEAD_BYTES = 256;

/**
 * Parsed messages of recurring lines, by the line's text after its `"from":"...",` prefix: a line with the
 * same text parses to the same message, so it is parsed once per thread. Bounded in entries and in text;
 * the values are shared, so whoever takes them must not change them.
 */
const shared = new Map<string, { message: unknown; raw: string | null }>();
const SHARED_MAX_ENTRIES = 512;
const SHARED_MAX_UNITS = 4 << 20;
let sharedUnits = 0;

function share(tail: string, e: LogEntry): void {
  // A tail that names the time or the sender again would override the prefix's: such lines are not shared.
  if (tail.includes('"t_ms"') || tail.includes('"from"')) return;
  if (shared.size >= SHARED_MAX_ENTRIES || sharedUnits + tail.length > SHARED_MAX_UNITS) {
    shared.clear();
    sharedUnits = 0;
  }
  shared.set(tail, { message: e.message, raw: e.raw });
  sharedUnits += tail.length;
}

/** Bytes read at a time; a longer line grows the buffer to hold it. */
const CHUNK_BYTES = 1 << 20;

const HEADER_FIELDS = ['engine_mcp_log', 'session', 'started_unix_ms', 'server_command', 'domain', 'agent_model'];
const ENTRY_FIELDS = ['t_ms', 'from', 'message', 'raw'];

/**
 * A header as the proxy writes it: its fields in its order, each once, integers as plain digits and strings
 * without escapes. Such a line has no duplicate field, no lone surrogate escape and no integer spelled
 * otherwise, so those checks (a scan of the line field by field) are skipped for it.
 */
const PLAIN_STRING = '"[^"\\\\\\x00-\\x1f]*"';
const HEADER_SHAPE = new RegExp(
  `^\\{"engine_mcp_log":(?:0|[1-9]\\d{0,9}),"session":${PLAIN_STRING},"started_unix_ms":(?:0|[1-9]\\d{0,19}),` +
    `"server_command":\\[(?:${PLAIN_STRING}(?:,${PLAIN_STRING})*)?\\](?:,"domain":(?:null|${PLAIN_STRING}))?(?:,"agent_model":(?:null|${PLAIN_STRING}))?\\}$`,
);
/** How the writer starts every entry line; lines that start so need no field-by-field check of t_ms. */
export const ENTRY_PREFIX = /^\{"t_ms":(0|[1-9]\d{0,18}),"from":"(client|server|proxy|context)",/;
const T_MS_KEY = '{"t_ms":';
const FROM_KEY = ',"from":"';
const SENDERS: readonly From[] = ['client', 'server', 'proxy', 'context'];

/**
 * ENTRY_PREFIX matched by hand, as the summary's hot path does it for every line of every log: a regex's
 * match (an array and two strings a line) was the reader's largest allocation. Where the line continues
 * after the prefix, or -1 when it does not start so; the time and the sender are left in `prefix`.
 */
const prefix = { t: 0, from: 'client' as From };
function entryPrefix(line: string): number {
  if (!line.startsWith(T_MS_KEY)) return -1;
  const start = T_MS_KEY.length;
  let i = start;
  let c = line.charCodeAt(i);
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    while (i - start < 19 && c >= 0x30 && c <= 0x39) c = line.charCodeAt(++i);
  } else return -1;
  if (!line.startsWith(FROM_KEY, i)) return -1;
  // Up to 15 digits add up exactly; longer times are rounded as Number() rounds them.
  let t = 0;
  if (i - start <= 15) for (let j = start; j < i; j++) t = t * 10 + (line.charCodeAt(j) - 0x30);
  else t = Number(line.slice(start, i));
  i += FROM_KEY.length;
  for (const from of SENDERS) {
    if (line.startsWith(from, i) && line.charCodeAt(i + from.length) === 0x22 && line.charCodeAt(i + from.length + 1) === 0x2c) {
      prefix.t = t;
      prefix.from = from;
      return i + from.length + 2;
    }
  }
  return -1;
}

/** entryPrefix's answer as a value (the tests hold it to ENTRY_PREFIX). */
export function entryPrefixOf(line: string): { t: number; from: From; rest: number } | null {
  const rest = entryPrefix(line);
  return rest === -1 ? null : { t: prefix.t, from: prefix.from, rest };
}
const U64_MAX = 18446744073709551615;
const U32_MAX = 4294967295;

/** The text of one line, read again from the file (for text the first pass chose not to keep). */
export function readLine(path: string, at: LineAt): string {
  if (at.text !== undefined) return at.text;
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(at.length);
    let got = 0;
    while (got < at.length) {
      const r = readSync(fd, bytes, got, at.length - got, at.offset + got);
      if (r === 0) break;
      got += r;
    }
    // A long line comes back as the first pass read it: its long strings cut.
    return lineText(bytes.subarray(0, got)).text;
  } finally {
    closeSync(fd);
  }
}

function jsonDetail(e: unknown): string {
  const m = errorText(e);
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
  const plain = HEADER_SHAPE.test(line);
  if (!plain && escapesLoneSurrogate(line)) fail('a lone surrogate escape in a string');
  let fields: ReturnType<typeof objectFields> = null;
  const fieldsOf = () => (fields ??= objectFields(line) ?? []);
  if (!plain) {
    const dup = duplicateOf(fieldsOf(), HEADER_FIELDS);
    if (dup !== null) fail(`duplicate field "${dup}"`);
  }
  const token = (key: string) => {
    const f = fieldsOf().find((x) => x.key === key);
    return f ? line.slice(f.start, f.end) : '';
  };
  const integer = (key: string, max: number): number => {
    if (!(key in value)) return fail(`missing field "${key}"`);
    const v = value[key];
    if (typeof v !== 'number' || (!plain && !isIntegerToken(token(key))) || v < 0 || v > max) {
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
 * Reads a session log: returns its header, its size and whether the file lacks a final newline, and hands
 * every entry to `onEntry` in order, with where its line lies. `peek`, when given, sees each line that
 * starts as the writer writes it first: returning false hands on the entry with only its time and sender
 * (message undefined), unparsed. Throws `reading <path>: ...` for a file that cannot be read or is not
 * UTF-8, and `parsing <path>: ...` for one that is not a session log.
 */
export function readLog(
  path: string,
  onEntry: (e: LogEntry, at: LineAt) => void,
  peek?: Peek,
  /** Give small files' lines their byte offsets too (a later read of a payload needs them). */
  offsets = peek === undefined,
  /** The log, already open (the caller closes it). */
  opened?: OpenedFile,
): LogRead {
  if (opened) return new LogReader(path, opened.fd, opened.size, onEntry, peek, offsets).read();
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new Error(`reading ${path}: ${errorText(e)}`);
  }
  try {
    let size: number;
    try {
      size = fstatSync(fd).size;
    } catch (e) {
      throw new Error(`reading ${path}: ${errorText(e)}`);
    }
    return new LogReader(path, fd, size, onEntry, peek, offsets).read();
  } finally {
    closeSync(fd);
  }
}

/** What reading a log found besides its entries. */
interface LogRead {
  header: LogHeader;
  truncated: boolean;
  size: number;
  cut: number;
}

/**
 * One read of one log: the buffer and where it stands in the file, and what the lines so far made of the
 * log (its header, a failure that waits for the next line, a failure that dooms it). Lines come either from
 * a small file read whole (`readWhole`) or from chunks of a big one (`readChunks`); both end in `handle`.
 */
class LogReader {
  private buf: Buffer;
  /** File offset of buf[0]. */
  private base = 0;
  private filled = 0;
  private pos = 0;
  private eof = false;
  private lastByte = -1;
  /** Lines seen, for messages. */
  private n = 0;
  private head: LogHeader | null = null;
  /** An entry that failed may still be a half-written last line: its error waits for the next line. */
  private failed: string | null = null;
  /** Once the log is known to be unreadable, the rest is only checked for UTF-8, as the CLI reads it whole. */
  private doomed: string | null = null;
  private cuts = 0;
  private readonly heap = new HeapGuard();

  constructor(
    private readonly path: string,
    private readonly fd: number,
    private readonly size: number,
    private readonly onEntry: (e: LogEntry, at: LineAt) => void,
    private readonly peek: Peek | undefined,
    private readonly offsets: boolean,
  ) {
    // A small file is read whole and decoded at once (readWhole): into the shared scratch buffer.
    this.buf = size <= CHUNK_BYTES ? scratchBuffer(Math.max(size, 1)) : Buffer.allocUnsafe(CHUNK_BYTES);
  }

  read(): LogRead {
    if (this.size <= CHUNK_BYTES) this.readWhole();
    this.readChunks();
    const truncated = this.lastByte !== 0x0a;
    const { path } = this;
    if (this.doomed !== null) throw new Error(`parsing ${path}: ${this.doomed}`);
    // A last line that fails is dropped when the file does not end with a newline (a crash mid-write).
    if (this.failed !== null && !truncated) throw new Error(`parsing ${path}: ${this.failed}`);
    if (this.head === null) throw new Error(`parsing ${path}: empty log: no header line`);
    return { header: this.head, truncated, size: this.base + this.filled, cut: this.cuts };
  }

  /** One line's text (one trailing `\r` removed), whether a `\n` ended it, and where it lies. */
  private handle(text: string, terminated: boolean, at: LineAt, bytes: Buffer | null, cut = 0): void {
    const n = ++this.n;
    this.heap.check(text.length, () => `reading ${this.path}: line ${n}`);
    if (this.doomed !== null || text.length === 0) return;
    if (text.charCodeAt(0) !== 0x7b && isBlank(text)) return;
    if (this.failed !== null) {
      this.doomed = this.failed;
      return;
    }
    if (this.head === null) {
      try {
        this.head = header(text, n);
      } catch (e) {
        this.doomed = errorText(e);
      }
      return;
    }
    // A half-written last line is never skipped unparsed: it must be seen to fail and be dropped.
    let tail: string | null = null;
    const { peek, onEntry } = this;
    if (peek && terminated && text.endsWith('}')) {
      const rest = entryPrefix(text);
      if (rest !== -1) {
        const { t, from } = prefix;
        const verdict = peek(text, t, from, rest, at, bytes, true);
        if (verdict === false) {
          onEntry({ t, from, message: undefined, raw: null }, at);
          return;
        }
        if (verdict === 'shared' && cut === 0) {
          tail = text.slice(rest);
          const hit = shared.get(tail);
          if (hit) {
            onEntry({ t, from, message: hit.message, raw: hit.raw }, at);
            return;
          }
        }
      }
    }
    let e: LogEntry;
    try {
      e = entry(text);
    } catch (err) {
      this.failed = `line ${n}: ${errorText(err)}`;
      return;
    }
    if (tail !== null) share(tail, e);
    if (cut > 0) {
      e.cut = cut;
      this.cuts += cut;
    }
    onEntry(e, at);
  }

  /** The line at buf[start, end) of a chunked read. */
  private line(start: number, end: number, terminated: boolean): void {
    const { buf, path } = this;
    let stop = end;
    if (stop > start && buf[stop - 1] === 0x0d) stop--;
    const bytes = buf.subarray(start, stop);
    if (!isUtf8(bytes)) throw new Error(`reading ${path}: stream did not contain valid UTF-8`);
    const at = { offset: this.base + start, length: stop - start };
    if (this.doomed !== null) return this.handle('', terminated, at, bytes);
    if (this.skippedByHead(bytes, terminated, at)) return;
    let read: { text: string; cut: number };
    try {
      read = lineText(bytes);
    } catch (e) {
      if (e instanceof LineTooBig) throw new Error(`parsing ${path}: line ${this.n + 1}: ${e.message}`);
      throw e;
    }
    this.handle(read.text, terminated, at, bytes, read.cut);
  }

  /**
   * Whether the peek took a long line by its head alone (handed on unparsed, never decoded). Only a line
   * `handle` would peek at qualifies: a whole entry line after a good header and no failed line, short
   * enough to be decoded whole (a longer one is cut by lineText, which may refuse it).
   */
  private skippedByHead(bytes: Buffer, terminated: boolean, at: LineAt): boolean {
    const { peek } = this;
    const length = bytes.length;
    if (peek === undefined || !terminated || length <= PEEK_HEAD_BYTES || length > SESSION_LINE_FULL_BYTES) return false;
    if (this.head === null || this.failed !== null || bytes[length - 1] !== 0x7d) return false;
    const head = bytes.toString('utf8', 0, PEEK_HEAD_BYTES);
    const rest = entryPrefix(head);
    if (rest === -1) return false;
    const { t, from } = prefix;
    if (peek(head, t, from, rest, at, bytes, false) !== false) return false;
    const n = ++this.n;
    this.heap.check(0, () => `reading ${this.path}: line ${n}`);
    this.onEntry({ t, from, message: undefined, raw: null }, at);
    return true;
  }

  /**
   * A small file is read, checked and decoded in one go (the `size` bytes it had when opened, should a
   * proxy be appending to it); its lines keep their text for a later look.
   */
  private readWhole(): void {
    const { buf, fd, path, size } = this;
    let got = 0;
    try {
      while (got < size) {
        const r = readSync(fd, buf, got, size - got, got);
        if (r === 0) break;
        got += r;
      }
    } catch (e) {
      throw new Error(`reading ${path}: ${errorText(e)}`);
    }
    const bytes = buf.subarray(0, got);
    if (!isUtf8(bytes)) throw new Error(`reading ${path}: stream did not contain valid UTF-8`);
    const text = bytes.toString('utf8');
    // The scratch buffer is not read again below: a reader called from a line's handler may reuse it.
    this.lastByte = got > 0 ? (buf[got - 1] ?? -1) : -1;
    // The detail and the outline give every line its byte offset, so a call's payload can be read again
    // later; the summary's hot path does not pay for it.
    const exact = this.offsets;
    let byteAt = 0;
    let from = 0;
    while (from < text.length) {
      let nl = text.indexOf('\n', from);
      const terminated = nl !== -1;
      if (!terminated) nl = text.length;
      const cr = text.charCodeAt(nl - 1) === 0x0d && nl > from;
      const lineText = cr ? text.slice(from, nl - 1) : text.slice(from, nl);
      if (exact) {
        const length = Buffer.byteLength(lineText, 'utf8');
        this.handle(lineText, terminated, { offset: byteAt, length, text: lineText }, null);
        byteAt += length + (cr ? 1 : 0) + 1;
      } else this.handle(lineText, terminated, { offset: -1, length: 0, text: lineText }, null);
      from = nl + 1;
    }
    this.base = 0;
    this.filled = got;
    this.eof = true;
    this.pos = got;
  }

  /** Lines of the buffer, then of the chunks read after it, up to the end of the file. */
  private readChunks(): void {
    for (;;) {
      const nl = this.pos < this.filled ? this.buf.subarray(this.pos, this.filled).indexOf(0x0a) : -1;
      if (nl !== -1) {
        this.line(this.pos, this.pos + nl, true);
        this.pos += nl + 1;
        continue;
      }
      if (this.eof) {
        if (this.pos < this.filled) this.line(this.pos, this.filled, false);
        return;
      }
      this.readMore();
    }
  }

  /** Keeps the unfinished line at the front, grows the buffer if the line fills it, and reads on. */
  private readMore(): void {
    if (this.pos > 0) {
      this.buf.copy(this.buf, 0, this.pos, this.filled);
      this.base += this.pos;
      this.filled -= this.pos;
      this.pos = 0;
    }
    if (this.filled === this.buf.length) {
      // One line fills the buffer: grow it, up to the longest line this reader takes.
      if (this.filled >= SESSION_LINE_MAX_BYTES) {
        throw new Error(`reading ${this.path}: line ${this.n + 1} is longer than ${SESSION_LINE_MAX_BYTES / 1048576} MiB, the longest line the console reads`);
      }
      const bigger = Buffer.allocUnsafe(Math.min(this.buf.length * 2, SESSION_LINE_MAX_BYTES + 1));
      this.buf.copy(bigger, 0, 0, this.filled);
      this.buf = bigger;
    }
    let r: number;
    try {
      r = readSync(this.fd, this.buf, this.filled, this.buf.length - this.filled, this.base + this.filled);
    } catch (e) {
      throw new Error(`reading ${this.path}: ${errorText(e)}`);
    }
    if (r === 0) this.eof = true;
    else {
      this.filled += r;
      this.lastByte = this.buf[this.filled - 1] ?? -1;
    }
  }
}
