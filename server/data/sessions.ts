// Sessions as the console serves them, read from the store (store/store.ts): the summaries it keeps
// current, and details made in the worker pool and kept in its byte-bounded cache.
import type { SessionDetail, SessionList, SessionsQuery, SessionSummary } from '../../shared/sessions.ts';
import type { DataContext } from './data-context.ts';
import type { ReadableEntry } from '../store/session-index.ts';
import { stampNow } from '../store/stamp.ts';
import type { SessionFile } from './catalog.ts';
import type { DomainSessions } from './registry.ts';
import type { SessionCounts } from '../engine/overview.ts';

export class UnreadableSession extends Error {}

/** The plain data a worker needs for one session. */
export const filesOf = (f: SessionFile) => ({ key: f.key, rel: f.rel, path: f.path, flowLog: f.flowLog, confirmLog: f.confirmLog });

export interface SessionSummaries {
  /** Readable sessions' index entries, newest first, each with its summary as the API sends it (shared: do not change). */
  entries: readonly ReadableEntry[];
  /** Logs that are not session logs this engine can read, in scan order. */
  unreadable: { file: SessionFile; error: string }[];
  /** The readable sessions' running sums (engine/tallies.ts), and how many started since a moment. */
  counts: SessionCounts;
}

/** How long a request waits for a cold index before it answers with what is indexed so far. */
const WARM_BUDGET_MS = 700;

/** Every summary, current as of this request (files written before it are in). */
export async function sessionSummaries(state: DataContext): Promise<SessionSummaries> {
  const { store } = state;
  await store.warm(WARM_BUDGET_MS);
  await store.sync();
  const index = store.sessions;
  return store.derived('sessionSummaries', () => ({
    entries: index.readable,
    unreadable: index.unreadable().map((e) => ({ file: e, error: e.error ?? '' })),
    counts: { tallies: index.tallies, startedSince: (ms: number) => index.startedSince(ms) },
  }));
}

/** Readable sessions of a domain, newest first, read from the list as they are asked for. */
export function* sessionsOfDomainNewestFirst(entries: readonly ReadableEntry[], domain: string): Generator<SessionSummary> {
  for (const e of entries) if (e.domain === domain) yield e.summary;
}

/** A domain's session count and newest start. */
export function sessionsOfDomain(summaries: SessionSummaries, domain: string): DomainSessions {
  return summaries.counts.tallies.domain(domain);
}

/** sessionsOfDomain for many domains: the tallies are gone through once. */
export function sessionsByDomain(summaries: SessionSummaries): (domain: string) => DomainSessions {
  const domains = summaries.counts.tallies.domains();
  return (domain) => domains.get(domain) ?? { count: 0, last_unix_ms: null };
}

/** The memo's key of a page: every field of the parsed query, so a new filter is in it without a word here. */
export function sessionsPageKey(query: SessionsQuery): string {
  return `sessionsPage:${JSON.stringify(query)}`;
}

/**
 * A page of GET /api/sessions: filters in the order domain, mode, q, newest first, `total` before paging.
 * The index keeps the sessions in this order, so the cost is the sessions a filter looks at; the same query
 * at the same version of the index is answered from memory.
 */
export async function sessionsPage(state: DataContext, query: SessionsQuery): Promise<SessionList> {
  const { store } = state;
  // The newest logs are read first: once the page's worth is in, the page is (nearly always) the right one.
  await store.warm(WARM_BUDGET_MS, (indexed) => indexed >= query.offset + query.limit);
  await store.sync();
  const page = store.derived(sessionsPageKey(query), () => store.sessions.list(query));
  const indexing = store.progress();
  return indexing ? { ...page, indexing } : page;
}

/** Every session the list's filters keep, in its order, as the index's entries (no summary made for each). */
export async function sessionsMatching(state: DataContext, query: SessionsQuery): Promise<readonly SessionFile[]> {
  const { store } = state;
  await store.warm(WARM_BUDGET_MS);
  await store.sync();
  return store.sessions.matching(query);
}

/**
 * One session as the JSON bytes the API sends, made in the worker and cached by the files' stamps: a big
 * log's view is tens of MB, and building or encoding it here would stall every other request. Answers the
 * file open (the caller sends it and closes it) and its length. Throws UnreadableSession.
 */
export async function sessionDetailFile(state: DataContext, file: SessionFile): Promise<{ fd: number; bytes: number }> {
  const r = await state.store.details.get(filesOf(file), stampNow(file));
  if (!r.ok) throw new UnreadableSession(r.message);
  return { fd: r.fd, bytes: r.bytes };
}

/** One session, parsed fresh in the pool. Throws UnreadableSession when it is not a session log. */
export async function sessionDetail(state: DataContext, file: SessionFile): Promise<SessionDetail> {
  const r = await state.pool.run('sessionDetailTask', filesOf(file));
  if (!r.ok) throw new UnreadableSession(r.message);
  return r.value;
}
