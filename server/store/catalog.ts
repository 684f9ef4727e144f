// What the data layer reads of the index: which session logs and flows exist, under which keys, and the
// companions beside each log. The store hands out a live one (store.ts); data/catalog.ts builds one from a scan.

export interface SessionFile {
  key: string;
  rel: string;
  /** Absolute path of the log. */
  path: string;
  /** Absolute path of `<stem>.flow.jsonl` when it is there. */
  flowLog: string | null;
  /** Absolute path of `<stem>.confirm.jsonl` when it is there. */
  confirmLog: string | null;
}

export interface FlowFile {
  key: string;
  rel: string;
  path: string;
}

export interface Catalog {
  /** Every session log, by path (made when first asked for: a million are sorted then). */
  sessions: SessionFile[];
  /** How many there are, without making `sessions`. */
  sessionCount: number;
  flows: FlowFile[];
  session(key: string): SessionFile | undefined;
  flow(key: string): FlowFile | undefined;
  /** The catalog flow at this path, by path or by canonical path. */
  flowAt(path: string): FlowFile | undefined;
}
