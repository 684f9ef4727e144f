// The catalog: which session logs and flows exist, under which keys, and the companions (flow log,
// confirmation log) beside each log (its shape: store/catalog.ts). The running console keeps it in its store,
// current through change notifications; `buildCatalog` makes one from a single scan, for tools and tests.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { assignKeys, RESERVED_FLOW_KEYS, RESERVED_SESSION_KEYS } from '../engine/keys.ts';
import { scanDataDir, type ScannedFile } from '../engine/scan.ts';

export type { Catalog, FlowFile, SessionFile } from '../store/catalog.ts';
import type { Catalog, FlowFile, SessionFile } from '../store/catalog.ts';
import { CONFIRM_LOG, FLOW_FILE, FLOW_LOG, JSONL } from '../store/log-names.ts';

const stemOf = (name: string, suffix: string) => name.slice(0, name.length - suffix.length);

/** A catalog from one scan of the data directory. */
export function buildCatalog(dataDir: string): Catalog {
  const scan = scanDataDir(dataDir);
  const sessionKeys = assignKeys(
    scan.sessions.map((f) => ({ stem: stemOf(f.name, JSONL), rel: f.rel })),
    RESERVED_SESSION_KEYS,
  );
  const flowKeys = assignKeys(
    scan.flows.map((f) => ({ stem: stemOf(f.name, FLOW_FILE), rel: f.rel })),
    RESERVED_FLOW_KEYS,
  );

  const companion = (f: ScannedFile, suffix: string): string | null => {
    const rel = f.rel.slice(0, f.rel.length - JSONL.length) + suffix;
    return scan.files.has(rel) ? join(dataDir, rel) : null;
  };

  const sessions: SessionFile[] = scan.sessions.map((f, i) => ({
    key: sessionKeys[i]!,
    rel: f.rel,
    path: f.path,
    flowLog: companion(f, FLOW_LOG),
    confirmLog: companion(f, CONFIRM_LOG),
  }));
  const flows: FlowFile[] = scan.flows.map((f, i) => ({ key: flowKeys[i]!, rel: f.rel, path: f.path }));
  const sessionByKey = new Map(sessions.map((s) => [s.key, s]));
  const flowByKey = new Map(flows.map((f) => [f.key, f]));

  const catalog: Catalog = {
    sessions,
    sessionCount: sessions.length,
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
  return catalog;
}
