// Worker tasks of the search: a batch of sessions searched for a phrase, answering only those with hits; and
// the search filters of sessions already summarized (store/filter-pass.ts).
import type { SearchIn } from '../../../shared/search.ts';
import { ChunkReader } from '../../search/chunks.ts';
import { sessionFilter } from '../../search/filter-files.ts';
import { FILTER_BYTES } from '../../store/search-filters.ts';
import { stampNow } from '../../store/stamp.ts';
import { type Phrase, compilePhrase } from '../../search/phrase.ts';
import { type SearchedFiles, type SessionHits, searchSession } from '../../search/session-search.ts';

export interface SearchBatch {
  text: string;
  tool: string | null;
  in: SearchIn;
  sessions: SearchedFiles[];
}

/** A session of the batch with hits, by its index in the batch. */
export type BatchHit = SessionHits & { index: number };

const reader = new ChunkReader();
let compiled: Phrase | null = null;

export function searchBatchTask(batch: SearchBatch): BatchHit[] {
  const phrase = compiled?.text === batch.text ? compiled : (compiled = compilePhrase(batch.text));
  const filter = { tool: batch.tool, in: batch.in };
  const out: BatchHit[] = [];
  batch.sessions.forEach((files, index) => {
    const found = searchSession(reader, files, phrase, filter);
    if (found) out.push({ index, ...found });
  });
  return out;
}

/** A summarized session whose filter is to be made, with the stamp its summary was made from. */
export interface FilterItem extends SearchedFiles {
  stamp: string;
}

/**
 * The filters of sessions whose files are as their summaries saw them (stamped before they are read, so a
 * filter covers at least those bytes): `made[i]` is 1 where `filters` holds session i's.
 */
export function searchFiltersTask(items: FilterItem[]): { made: Uint8Array; filters: Uint8Array } {
  const made = new Uint8Array(items.length);
  const filters = new Uint8Array(items.length * FILTER_BYTES);
  items.forEach((item, i) => {
    // Changed since: the index reads it again, and makes its filter with its summary.
    if (stampNow(item) !== item.stamp) return;
    const filter = sessionFilter(item);
    if (filter === null) return;
    filters.set(filter, i * FILTER_BYTES);
    made[i] = 1;
  });
  return { made, filters };
}
