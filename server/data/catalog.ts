// The console's index of the data directory: which session logs and flows exist, under which keys, and the
// companions (flow log, confirmation log) beside each log. It is rebuilt from a fresh scan for every request,
// so a file dropped in shows at once; only parsed contents are cached (cache.ts).
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { assignKeys } from '../engine/keys.ts';
import { dirStamp, scanDataDir, type ScannedFile } from '../engine/scan.ts';

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
  sessions: SessionFile[];
  flows: FlowFile[];
  session(key: string): SessionFile | undefined;
  flow(key: string): FlowFile | undefined;
  /** The catalog flow at this path, by path or by canonical path. */
  flowAt(path: string): FlowFile | undefined;
}

/** Flow keys that would shadow a literal route (`/api/flows/diff`). */
const RESERVED_FLOW_KEYS = new Set(['diff']);
/** Session keys that would shadow a literal route (`/api/sessions/compare`, and the page `/sessions/compare`). */
const RESERVED_SESSION_KEYS = new Set(['compare']);

const stemOf = (name: string, suffix: string) => name.slice(0, name.length - suffix.length);

/** The last catalog per data directory, reused while no directory it walked has changed. */
const memo = new Map<string, { dirs: [string, string][]; catalog: Catalog }>();

export function buildCatalog(dataDir: string): Catalog {
  const last = memo.get(dataDir);
  if (last && last.dirs.every(([dir, stamp]) => dirStamp(dir) === stamp)) return last.catalog;
  return scanCatalog(dataDir);
}

function scanCatalog(dataDir: string): Catalog {
  const scan = scanDataDir(dataDir);
  const sessionKeys = assignKeys(
    scan.sessions.map((f) => ({ stem: stemOf(f.name, '.jsonl'), rel: f.rel })),
    RESERVED_SESSION_KEYS,
  );
  const flowKeys = assignKeys(
    scan.flows.map((f) => ({ stem: stemOf(f.name, '.flow.json'), rel: f.rel })),
    RESERVED_FLOW_KEYS,
  );

  const companion = (f: ScannedFile, suffix: string): string | null => {
    const rel = f.rel.slice(0, f.rel.length - '.jsonl'.length) + suffix;
    return scan.files.has(rel) ? join(dataDir, rel) : null;
  };

  const sessions: SessionFile[] = scan.sessions.map((f, i) => ({
    key: sessionKeys[i]!,
    rel: f.rel,
    path: f.path,
    flowLog: companion(f, '.flow.jsonl'),
    confirmLog: companion(f, '.confirm.jsonl'),
  }));
  const flows: FlowFile[] = scan.flows.map((f, i) => ({ key: flowKeys[i]!, rel: f.rel, path: f.path }));
  const sessionByKey = new Map(sessions.map((s) => [s.key, s]));
  const flowByKey = new Map(flows.map((f) => [f.key, f]));

  const catalog: Catalog = {
    sessions,
    flows,
    session: (key) => sessionByKey.get(key),
    flow: (key) => flowByKey.get(key),
    flowAt(path) {
      const direct = flows.find((f) => f.path === path);
      if (direct) return direct;
      let canonical: string;
      try {
        canonical = realpathSync(path);
      } catch {
        return undefined;
      }
      return flows.find((f) => {
        try {
          return realpathSync(f.path) === canonical;
        } catch {
          return false;
        }
      });
    },
  };
  // A link's target can change without any directory changing: never reuse a scan that met one.
  if (scan.sawLink) memo.delete(dataDir);
  else memo.set(dataDir, { dirs: scan.dirs, catalog });
  return catalog;
}
