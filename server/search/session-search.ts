// One session searched: its log, then its flow log and confirmation log, hits in that order.
import { SEARCH_HITS_MAX } from '../../shared/limits.ts';
import type { SearchHit } from '../../shared/search.ts';
import { ChunkReader } from './chunks.ts';
import { type HitFilter, type LogHits, searchLog } from './log-search.ts';
import type { Phrase } from './phrase.ts';

/** A session's files: the log, and its companions when they are beside it. */
export interface SearchedFiles {
  path: string;
  flowLog: string | null;
  confirmLog: string | null;
}

export interface SessionHits {
  hits: SearchHit[];
  more_hits: number;
}

/** The session's hits, or null when it holds none. A file that went away meanwhile holds none. */
export function searchSession(reader: ChunkReader, files: SearchedFiles, phrase: Phrase, filter: HitFilter, keep = SEARCH_HITS_MAX): SessionHits | null {
  const out: LogHits = { hits: [], count: 0 };
  const logs = [
    { path: files.path, kind: 'session' as const },
    ...(files.flowLog && filter.in === 'all' ? [{ path: files.flowLog, kind: 'flow' as const }] : []),
    ...(files.confirmLog && filter.in === 'all' ? [{ path: files.confirmLog, kind: 'confirm' as const }] : []),
  ];
  for (const log of logs) {
    try {
      searchLog(reader, log.path, log.kind, phrase, filter, out, keep);
    } catch {
      // Deleted or moved to the trash since the scope was taken: it holds nothing now.
    }
  }
  return out.count === 0 ? null : { hits: out.hits, more_hits: out.count - out.hits.length };
}
