// The summary's fast path (session-format §6.3 decides what each kind of line can change): a look at a
// line's leading fields before it is parsed. Lines that change nothing the summary counts are not parsed,
// and a plain success answer to a call is taken by its shape, its text parsed later if ever. Anything
// unusual is parsed. The list reads every log cold, so this look allocates nothing for most lines.
import type { TurnInference } from './turns.ts';
import { escapesLoneSurrogate, idKey, leadingFields } from './json.ts';
import type { From, LineAt, Peek } from './log.ts';

/** The client's methods that change a summary; the rest (and initialize, once named) are not parsed. */
const CLIENT_METHODS_COUNTED = new Set(['tools/list', 'tools/call', 'notifications/cancelled']);
/**
 * The leading fields of a message as the proxy writes them, up to where the summary stops reading: what
 * `leadingFields` would find there, without scanning field by field. An id token here is an integer of at
 * most 15 digits (exact as a double) or a string without escapes or control characters: such a token is
 * its own JSON text, so it is its match key as it stands. Messages of any other shape take the long way.
 */
const CLIENT_HEAD = /\{"jsonrpc":"2\.0",(?:"id":(?:0|[1-9]\d{0,14}|"[^"\\\x00-\x1f]*"),)?"method":"([^"\\\x00-\x1f]*)"(?:,"params":|\})/y;
export const ANSWER_HEAD =
  /\{(?:"id":(0|[1-9]\d{0,14}|"[^"\\\x00-\x1f]*"),"jsonrpc":"2\.0"|"jsonrpc":"2\.0","id":(0|[1-9]\d{0,14}|"[^"\\\x00-\x1f]*")),"(result|error)":/y;
const IS_ERROR_KEY = '"isError"';
const LAST_FIELD_FALSE = '"isError":false}}}';
const TRUE_VALUE = /\s*:\s*true/y;

/**
 * Whether an answer line says `"isError": true` anywhere; one that does not is a success for sure. (Inside a
 * JSON string a quote is escaped, so every match is a key of the structure.) The bytes, when given, are
 * searched instead of the text: a byte search is several times faster on a long line.
 */
export function saysError(line: string, bytes: Buffer | null): boolean {
  // Most answers end `"isError":false}}}`: the last field of the result (a later duplicate would win), of
  // the message, of the entry. Such an answer is a success without looking further.
  if (bytes !== null) {
    if (endsLastFieldFalse(bytes)) return false;
    for (let i = bytes.indexOf(IS_ERROR_KEY); i !== -1; i = bytes.indexOf(IS_ERROR_KEY, i + IS_ERROR_KEY.length)) {
      let j = i + IS_ERROR_KEY.length;
      while (bytes[j] === 0x20 || bytes[j] === 0x09 || bytes[j] === 0x0a || bytes[j] === 0x0d) j++;
      if (bytes[j] !== 0x3a) continue;
      j++;
      while (bytes[j] === 0x20 || bytes[j] === 0x09 || bytes[j] === 0x0a || bytes[j] === 0x0d) j++;
      if (bytes.toString('latin1', j, j + 4) === 'true') return true;
    }
    return false;
  }
  if (line.endsWith(LAST_FIELD_FALSE) && (line[line.length - LAST_FIELD_FALSE.length - 1] === ',' || line[line.length - LAST_FIELD_FALSE.length - 1] === '{')) {
    return false;
  }
  for (let i = line.indexOf(IS_ERROR_KEY); i !== -1; i = line.indexOf(IS_ERROR_KEY, i + IS_ERROR_KEY.length)) {
    TRUE_VALUE.lastIndex = i + IS_ERROR_KEY.length;
    if (TRUE_VALUE.test(line)) return true;
  }
  return false;
}

const LAST_FIELD_FALSE_BYTES = Buffer.from(LAST_FIELD_FALSE, 'latin1');

/** The bytes' form of the `"isError":false}}}` ending above (the line may be only a head: see Peek). */
function endsLastFieldFalse(bytes: Buffer): boolean {
  const at = bytes.length - LAST_FIELD_FALSE_BYTES.length;
  if (at < 1 || (bytes[at - 1] !== 0x2c && bytes[at - 1] !== 0x7b)) return false;
  return bytes.compare(LAST_FIELD_FALSE_BYTES, 0, LAST_FIELD_FALSE_BYTES.length, at) === 0;
}

/** What the look needs of the pass over the log: what it waits for, and where a success taken unparsed goes. */
export interface AwaitedAnswers {
  readonly clientName: string | null;
  /** Calls awaiting their first answer: the index of each call, by its id's match key. */
  readonly pending: ReadonlyMap<string, number>;
  /** tools/list requests awaiting the server's listing. */
  readonly awaitingLists: ReadonlySet<string>;
  readonly turns: TurnInference;
  /** Whether the proxy's answer with this key ends a commit the pass is inside. */
  awaitsCommit(key: string): boolean;
  /** A plain success answer to `key`, taken without parsing it. */
  successLater(t: number, from: From, key: string, at: LineAt): void;
  /** A context message of the writer's shape (a role and a text), taken without parsing its line. */
  contextSaid(role: string, content: string): void;
}

/** Whether the summary parses a client message with this method (see CLIENT_METHODS_COUNTED). */
function clientVerdict(pass: AwaitedAnswers, method: string): boolean | 'shared' {
  if (method === 'initialize') return pass.clientName === null && 'shared';
  if (method === 'tools/list') return 'shared';
  return CLIENT_METHODS_COUNTED.has(method);
}

/** The look at a client line: parsed when its method changes the summary. */
function clientLook(pass: AwaitedAnswers, line: string, body: number, whole: boolean): boolean | 'shared' {
  // The writer's own shape is matched at once; anything else is scanned field by field.
  CLIENT_HEAD.lastIndex = body;
  const fast = CLIENT_HEAD.exec(line);
  if (fast) return clientVerdict(pass, fast[1] as string);
  if (!whole) return true;
  const head = leadingFields(line, body, ['params']);
  if (head === null) return true;
  const m = head.fields.find((f) => f.key === 'method');
  // Without a method before the params, the method may follow them: parse. Without any, the line is the
  // client's answer to the server, which counts for nothing.
  if (m === undefined) return head.stoppedAt !== null;
  let method: unknown;
  try {
    method = JSON.parse(line.slice(m.start, m.end));
  } catch {
    return true;
  }
  if (typeof method !== 'string') return true;
  return clientVerdict(pass, method);
}

/** The look at a server or proxy line: only answers the pass waits for are parsed, plain successes not even those. */
function answerLook(pass: AwaitedAnswers, line: string, t: number, from: From, body: number, at: LineAt, bytes: Buffer | null, whole: boolean): boolean | 'shared' {
  let key: string;
  let stoppedAt: string | null;
  ANSWER_HEAD.lastIndex = body;
  const fast = ANSWER_HEAD.exec(line);
  if (fast) {
    // A plain id token is its own match key (see ANSWER_HEAD).
    key = (fast[1] ?? fast[2]) as string;
    stoppedAt = fast[3] as string;
  } else {
    if (!whole) return true;
    const head = leadingFields(line, body, from === 'proxy' ? ['method', 'result', 'error'] : ['result', 'error']);
    if (head === null || head.stoppedAt === 'method') return true;
    const id = head.fields.find((f) => f.key === 'id');
    if (id === undefined) return head.stoppedAt !== null;
    if (head.fields.some((f) => f.key === 'method')) return true;
    try {
      key = idKey(JSON.parse(line.slice(id.start, id.end)));
    } catch {
      return true;
    }
    stoppedAt = head.stoppedAt;
  }
  const awaited = pass.pending.has(key) || pass.turns.waitsFor(key) || (from === 'proxy' && pass.awaitsCommit(key));
  // A server lists the same tools in every session: its listing is parsed once per thread.
  if (pass.awaitingLists.has(key)) return 'shared';
  if (!awaited) return false;
  if (stoppedAt !== 'result' || saysError(line, bytes)) return true;
  pass.successLater(t, from, key, at);
  return false;
}

/** A context message as the writer writes it: its role, then its text, and nothing else (the line ends there). */
const CONTEXT_HEAD = /\{"role":"([^"\\\x00-\x1f]*)","content":"/y;
const NEEDS_DECODING = /["\\\x00-\x1f]/;

/**
 * The text of a context message of the writer's shape, without parsing the line; null for any other shape
 * (parsed). A text without escapes is itself; one with escapes is decoded alone, which refuses what parsing
 * the line would refuse in it.
 */
export function contextText(line: string, body: number): { role: string; content: string } | null {
  CONTEXT_HEAD.lastIndex = body;
  const m = CONTEXT_HEAD.exec(line);
  if (m === null || !line.endsWith('"}}') || CONTEXT_HEAD.lastIndex > line.length - 3) return null;
  const raw = line.slice(CONTEXT_HEAD.lastIndex, line.length - 3);
  if (!NEEDS_DECODING.test(raw)) return { role: m[1] as string, content: raw };
  try {
    const content: unknown = JSON.parse(line.slice(CONTEXT_HEAD.lastIndex - 1, line.length - 2));
    return typeof content === 'string' ? { role: m[1] as string, content } : null;
  } catch {
    return null;
  }
}

/** The look at a context line: one of the writer's shape gives the turn inference its role and text unparsed. */
function contextLook(pass: AwaitedAnswers, line: string, body: number, bytes: Buffer | null): boolean {
  const said = contextText(line, body);
  // A small file's line is refused for a lone surrogate escape before anything is taken from it.
  if (said === null || (bytes === null && escapesLoneSurrogate(line))) return true;
  pass.contextSaid(said.role, said.content);
  return false;
}

/**
 * The summary's look at each line of the pass's log. A line not parsed is still refused for a lone
 * surrogate, in small files: searching every long line of a big one for it would cost more than the rest
 * of its summary.
 */
export function summaryPeek(pass: AwaitedAnswers): Peek {
  return (line, t, from, rest, at, bytes, whole) => {
    let verdict: boolean | 'shared' = true;
    if (line.startsWith('"message":', rest)) {
      const body = rest + '"message":'.length;
      if (from === 'context') return !whole || contextLook(pass, line, body, bytes);
      verdict = from === 'client' ? clientLook(pass, line, body, whole) : answerLook(pass, line, t, from, body, at, bytes, whole);
    }
    return verdict || (bytes === null && escapesLoneSurrogate(line));
  };
}
