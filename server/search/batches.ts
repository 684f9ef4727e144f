// A search's batches: the sessions in scope from a place on, newest first, in batches sized by the sessions
// they span, sent or not: the first small so a common phrase's first page comes soon, later ones growing so a
// rare phrase pays little per batch (a batch of only matching sessions would weigh more than the first page
// needs, and a page's batches left running delay the next search). A session the filters in memory rule out
// is not sent; with them in a file, each session sent carries where the worker reads its filter.
import type { SearchQuery } from '../../shared/search.ts';
import type { SessionEntry } from '../store/session-index.ts';
import type { State } from '../state.ts';
import type { BatchHit } from '../workers/tasks/search.ts';
import { type FilterCheck, filesOf } from './scope.ts';

const FIRST_BATCH = 16;
const BATCH_MAX = 1024;

/** A batch sent: where it ends in the scope, the places of the sessions sent (the others are ruled out), and its hits. */
export interface Batch {
  end: number;
  sent: number[];
  result: Promise<BatchHit[]>;
}

export class Batches {
  private size = FIRST_BATCH;
  private readonly ruledOut: (e: SessionEntry) => boolean;

  constructor(
    private readonly state: State,
    private readonly query: SearchQuery,
    private readonly entries: readonly SessionEntry[],
    private readonly check: FilterCheck,
    /** The first session not yet in a batch. */
    public next: number,
  ) {
    this.ruledOut = check.kind === 'here' ? check.ruledOut : () => false;
  }

  get left(): boolean {
    return this.next < this.entries.length;
  }

  /** The next batch, sent to the pool (one that holds no session is answered at once). */
  send(): Batch {
    const { entries, check, query } = this;
    const end = Math.min(entries.length, this.next + this.size);
    const sent: number[] = [];
    for (let i = this.next; i < end; i++) if (!this.ruledOut(entries[i]!)) sent.push(i);
    this.size = Math.min(BATCH_MAX, this.size * 2);
    this.next = end;
    const sessions = sent.map((i) => filesOf(entries[i]!));
    const filters = check.kind === 'workers' ? { file: check.file, bits: check.bits, at: Int32Array.from(sent, (i) => check.at(entries[i]!)) } : null;
    const result: Promise<BatchHit[]> =
      sessions.length === 0 ? Promise.resolve([]) : this.state.pool.run('searchBatchTask', { text: query.text, tool: query.tool, in: query.in, sessions, filters });
    return { end, sent, result };
  }
}
