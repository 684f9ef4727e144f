// Worker task of GET /api/search: a batch of sessions searched for a phrase, answering only those with hits.
import type { SearchIn } from '../../../shared/search.ts';
import { ChunkReader } from '../../search/chunks.ts';
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
