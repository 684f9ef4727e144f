// Worker tasks of the search: which sessions of a batch their search filters, in the console's filter file,
// rule the phrase out for; a batch of sessions searched for a phrase, answering only those with hits; and the
// search filters of sessions already summarized (store/filter-pass.ts).
import type { SearchIn } from '../../../shared/search.ts';
import { ChunkReader } from '../../search/chunks.ts';
import { sessionFilter } from '../../search/filter-files.ts';
import { type BatchFilters, ruledOutByFile } from '../../search/filter-reads.ts';
import { FILTER_BYTES } from '../../store/search-filters.ts';
import { unpackBatch } from '../../store/index-wire.ts';
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

/** Per session, 1 where its filter (at its offset in the file; -1: none) rules the phrase out. */
export function ruledOutTask(filters: BatchFilters): Uint8Array {
  return ruledOutByFile(filters);
}

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

/**
 * The filters of summarized sessions (packed as the index's batches, `known` the stamp each summary was made
 * from) whose files are as their summaries saw them, stamped before they are read, so a filter covers at
 * least those bytes: `made[i]` is 1 where `filters` holds session i's.
 */
export function searchFiltersTask(packed: Uint8Array): { made: Uint8Array; filters: Uint8Array } {
  const batch = unpackBatch(packed);
  const made = new Uint8Array(batch.count);
  const filters = new Uint8Array(batch.count * FILTER_BYTES);
  for (let i = 0; i < batch.count; i++) {
    const item = batch.item(i);
    // Changed since: the index reads it again, and makes its filter with its summary.
    if (stampNow(item) !== item.known) continue;
    const filter = sessionFilter(item);
    if (filter === null) continue;
    filters.set(filter, i * FILTER_BYTES);
    made[i] = 1;
  }
  return { made, filters };
}
