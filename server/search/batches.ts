// A search's batches: the sessions in scope from a place on, newest first, in batches sized by the sessions
// they span, sent or not: the first small so a common phrase's first page comes soon, later ones growing so a
// rare phrase pays little per batch (a batch of only matching sessions would weigh more than the first page
// needs, and a page's batches left running delay the next search). A session its filter rules out is not
// sent: the filters in memory are read here, those in a file by a worker first (filter-reads.ts).
import type { SearchQuery } from '../../shared/search.ts';
import type { SessionEntry } from '../store/session-index.ts';
import type { State } from '../state.ts';
import type { BatchHit } from '../workers/tasks/search.ts';
import { type FilterCheck, filesOf } from './scope.ts';

const FIRST_BATCH = 16;
const BATCH_MAX = 1024;

/** A batch: where it ends in the scope, and once answered, the places of the sessions sent (the others are ruled out) and their hits. */
export interface Batch {
  end: number;
  result: Promise<{ sent: number[]; hits: BatchHit[] }>;
}

export class Batches {
  private size = FIRST_BATCH;

  constructor(
    private readonly state: State,
    private readonly query: SearchQuery,
    private readonly entries: readonly SessionEntry[],
    private readonly check: FilterCheck,
    /** The first session not yet in a batch. */
    public next: number,
  ) {}

  get left(): boolean {
    return this.next < this.entries.length;
  }

  /** The next batch, sent to the pool (one whose sessions are all ruled out is answered without a search). */
  send(): Batch {
    const { entries, check } = this;
    const from = this.next;
    const end = Math.min(entries.length, from + this.size);
    this.size = Math.min(BATCH_MAX, this.size * 2);
    this.next = end;
    if (check.kind !== 'workers') {
      const sent: number[] = [];
      for (let i = from; i < end; i++) if (check.kind === 'none' || !check.ruledOut(entries[i]!)) sent.push(i);
      return { end, result: this.search(sent) };
    }
    // The workers read the filters first (a few KB each way); only the sessions left are sent with their files.
    const at = Int32Array.from({ length: end - from }, (_, k) => check.at(entries[from + k]!));
    const result = this.state.pool.run('ruledOutTask', { file: check.file, at, bits: check.bits }).then((out) => {
      const sent: number[] = [];
      // Ruled out only if the filter read is still the session's: re-read meanwhile, it is searched in full.
      for (let k = 0; k < at.length; k++) if (out[k] !== 1 || check.at(entries[from + k]!) !== at[k]) sent.push(from + k);
      return this.search(sent);
    });
    return { end, result };
  }

  private async search(sent: number[]): Promise<{ sent: number[]; hits: BatchHit[] }> {
    const { query, entries } = this;
    if (sent.length === 0) return { sent, hits: [] };
    const sessions = sent.map((i) => filesOf(entries[i]!));
    return { sent, hits: await this.state.pool.run('searchBatchTask', { text: query.text, tool: query.tool, in: query.in, sessions }) };
  }
}
