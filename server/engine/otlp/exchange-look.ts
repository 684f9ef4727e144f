// The export's look at a log line before it is parsed (session/log.ts's Peek). The same listing in every
// session is parsed once per thread (the reader's shared lines). Without payloads, the context's messages and
// the answers that are plain successes (most of a log's bytes) are taken from their text, as the summary takes
// them (summary-peek.ts); initialize answers, errors and anything of another shape are parsed.
import type { From, LineAt, Peek } from '../session/log.ts';
import { escapesLoneSurrogate } from '../session/json.ts';
import { ANSWER_HEAD, contextText, saysError } from '../session/summary-peek.ts';

const MESSAGE_KEY = '"message":';
const ERROR_KEY = '"error"';

/** What the look needs of the pass over the log, and where what it takes unparsed goes. */
export interface ExchangePass {
  readonly payloads: boolean;
  /** Id keys of the requests whose answers recur across sessions (a server's handshake and tool listing). */
  readonly recurring: ReadonlySet<string>;
  /** The method of the request awaiting its answer under this id key, if one is. */
  pendingMethod(key: string): string | undefined;
  /** A context message of the writer's shape, taken without parsing its line. */
  context(t: number, role: string, content: string): void;
  /** A plain success answer to `key` (no JSON-RPC error, no tool error), taken without parsing its line. */
  success(t: number, from: From, key: string, at: LineAt): void;
}

/**
 * Whether a line holds `"error"` as a key or a value anywhere (an answer with both a result and an error is
 * the error's). Inside a JSON string a quote is escaped, so a line without it names no error.
 */
function namesError(line: string, bytes: Buffer | null): boolean {
  return bytes !== null ? bytes.includes(ERROR_KEY) : line.includes(ERROR_KEY);
}

export function exchangeLook(pass: ExchangePass): Peek {
  return (line, t, from, rest, at, bytes, whole) => {
    if (from === 'client' || !line.startsWith(MESSAGE_KEY, rest)) return true;
    const body = rest + MESSAGE_KEY.length;
    if (from === 'context') {
      if (pass.payloads || !whole) return true;
      const m = contextText(line, body);
      // A small file's line is refused for a lone surrogate escape before anything is taken from it.
      if (m === null || (bytes === null && escapesLoneSurrogate(line))) return true;
      pass.context(t, m.role, m.content);
      return false;
    }
    ANSWER_HEAD.lastIndex = body;
    const head = ANSWER_HEAD.exec(line);
    // A long line's head alone says nothing of an error further on unless its bytes come with it.
    if (head === null || (!whole && bytes === null)) return true;
    const key = (head[1] ?? head[2]) as string;
    if (from === 'server' && pass.recurring.has(key)) return 'shared';
    if (pass.payloads || head[3] !== 'result') return true;
    // The handshake's answer names the protocol version; a line naming an error anywhere is read in full.
    if (pass.pendingMethod(key) === 'initialize' || saysError(line, bytes) || namesError(line, bytes)) return true;
    if (bytes === null && escapesLoneSurrogate(line)) return true;
    pass.success(t, from, key, at);
    return false;
  };
}
