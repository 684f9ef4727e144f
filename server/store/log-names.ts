// The data directory's file names (the one set of suffixes), and what a session log's name says
// (session-format.md): the proxy names a log by its session id, the UTC start to the millisecond,
// `YYYYMMDDTHHMMSS.mmmZ`, so ids sort by start time and the list's order (newest first) is known from the
// names alone; a log named otherwise is placed by its modification time. A log's companions are named after
// its stem. Read digit by digit: a regular expression's match costs more than the rest of the first walk.

export const JSONL = '.jsonl';
export const FLOW_LOG = '.flow.jsonl';
export const CONFIRM_LOG = '.confirm.jsonl';
export const FLOW_FILE = '.flow.json';
/** The staged-learning state beside a flow: `{stem}.stage.json` (the staged flow's `.staged` left out). */
export const STAGE_FILE = '.stage.json';
export const STAGED = '.staged';
export const STAGED_FLOW_FILE = `${STAGED}${FLOW_FILE}`;
/** The registry of servers, at the data directory's top. */
export const REGISTRY_FILE = 'servers.json';
/** The console's job records (`{id}.json`), relative to the data directory: outside the scan's reach. */
export const JOB_RECORDS = 'console/jobs';
export const JSON_FILE = '.json';
/** An audit job's companion record, `{id}.audit.json`: not a job of its own. */
export const AUDIT_RECORD = '.audit.json';

const ID_SHAPE = 'DDDDDDDDTDDDDDD.DDDZ';

function digitsAt(name: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) n = n * 10 + name.charCodeAt(i) - 48;
  return n;
}

export function isSessionId(name: string): boolean {
  if (name.length < ID_SHAPE.length) return false;
  for (let i = 0; i < ID_SHAPE.length; i++) {
    const c = name.charCodeAt(i);
    const want = ID_SHAPE.charCodeAt(i);
    if (want === 68 /* D */ ? c < 48 || c > 57 : c !== want) return false;
  }
  return true;
}

/** Milliseconds since the epoch of a name that begins with a session id. */
export function idStart(name: string): number {
  return Date.UTC(digitsAt(name, 0, 4), digitsAt(name, 4, 2) - 1, digitsAt(name, 6, 2), digitsAt(name, 9, 2), digitsAt(name, 11, 2), digitsAt(name, 13, 2), digitsAt(name, 16, 3));
}

/** A `.jsonl` name that is a session log, not a companion. */
export const isLogName = (name: string): boolean => name.endsWith(JSONL) && !name.endsWith(FLOW_LOG) && !name.endsWith(CONFIRM_LOG);
