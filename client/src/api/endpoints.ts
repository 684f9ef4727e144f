// One typed function per endpoint (console-api.md §4), each parsing the answer with the shared valibot
// schema. Pages call these and nothing else. Loads are quiet (the page shows its own error state);
// actions are quiet too (the form or dialog shows the error).
import { OtlpStatusSchema } from '../../../shared/otlp.ts';
import { OkSchema } from '../../../shared/common.ts';
import { FlowDetailSchema, FlowDiffViewSchema, FlowListSchema } from '../../../shared/flows.ts';
import { WhatIfSchema } from '../../../shared/whatif.ts';
import { JobListSchema, JobPreviewSchema, JobSchema, type JobRequest } from '../../../shared/jobs.ts';
import { MetaSchema } from '../../../shared/meta.ts';
import { HostConfigSchema, ProbeResultSchema, ServerListSchema, ServerViewSchema, type Host, type ServerInput } from '../../../shared/servers.ts';
import { StageViewSchema, VersionViewSchema } from '../../../shared/stage.ts';
import { SessionDetailSchema, SessionListSchema, type SessionMode, type SessionsQuery } from '../../../shared/sessions.ts';
import { ClosestSessionSchema, SessionComparisonSchema } from '../../../shared/compare.ts';
import { FlowSitesSchema } from '../../../shared/flow-sites.ts';
import { SearchAnswerSchema, type SearchIn } from '../../../shared/search.ts';
import { SavingsSchema } from '../../../shared/savings.ts';
import { CallLinesSchema, CallPayloadSchema, LogLineSchema, SessionEventsSchema, SessionFindSchema, SessionLinesSchema, SessionOutlineSchema } from '../../../shared/session-views.ts';
import { apiPath, queryString } from '../lib/query.ts';
import { requestAs, requestText } from './client.ts';
import { OverviewSchema, type OverviewQuery } from '../../../shared/overview.ts';
import { ReplayPlanSchema, ReplayRunSchema, ReplaySummarySchema, type ReplayInput } from '../../../shared/replay.ts';
import { SettingsSchema } from '../../../shared/settings.ts';
import { TrashEmptiedSchema, TrashListSchema, TrashRestoredSchema } from '../../../shared/trash.ts';

type Opts = { signal?: AbortSignal };
const quiet = (o: Opts = {}) => ({ quiet: true, signal: o.signal });

export const getMeta = (o?: Opts) => requestAs(MetaSchema, '/api/meta', quiet(o));
export const getOverview = (query: Partial<OverviewQuery> = {}, o?: Opts) => requestAs(OverviewSchema, '/api/overview', { ...quiet(o), query: { ...query } });
export const getSavings = (days: number, domain: string | null, o?: Opts) =>
  requestAs(SavingsSchema, '/api/savings', { ...quiet(o), query: { days, domain } });
export const getSettings = (o?: Opts) => requestAs(SettingsSchema, '/api/settings', quiet(o));
export const getOtlpStatus = (o?: Opts) => requestAs(OtlpStatusSchema, '/api/otlp', quiet(o));

/** A field of the sessions query left out takes the server's default. */
export const getSessions = (query: Partial<SessionsQuery>, o?: Opts) =>
  requestAs(SessionListSchema, '/api/sessions', { ...quiet(o), query: { ...query, has: query.has?.join(',') } });
/** GET /api/search: one page of sessions whose logs hold the phrase (continue with `cursor`). */
export interface SearchParams {
  text: string;
  domain?: string | null;
  mode?: SessionMode | null;
  from?: string | null;
  to?: string | null;
  tool?: string | null;
  in?: SearchIn | null;
  cursor?: string | null;
}
export const searchSessions = (query: SearchParams, o?: Opts) => requestAs(SearchAnswerSchema, '/api/search', { ...quiet(o), query: { ...query } });
export const getSession = (key: string, o?: Opts) => requestAs(SessionDetailSchema, apiPath('sessions', key), quiet(o));
export const sessionRawUrl = (key: string) => apiPath('sessions', key, 'raw');
/** One session as an OTLP/JSON trace (GET /api/sessions/:key/otlp). */
export const sessionOtlpUrl = (key: string) => apiPath('sessions', key, 'otlp');
/** The ticked sessions, else every session the filters match, as OTLP JSON Lines (GET /api/sessions/otlp). */
export function sessionsOtlpUrl(filters: Partial<SessionsQuery>, keys: readonly string[]): string {
  if (keys.length > 0) return `/api/sessions/otlp${queryString({ keys: keys.join(',') })}`;
  const { limit: _limit, offset: _offset, ...rest } = filters;
  return `/api/sessions/otlp${queryString({ ...rest, has: rest.has?.join(',') })}`;
}
export const sessionsDownloadUrl = (keys: readonly string[]) => `${apiPath('sessions', 'download')}${queryString({ keys: keys.join(',') })}`;
export const getSessionRaw = (key: string, o?: Opts) => requestText(sessionRawUrl(key), quiet(o));
export const getComparison = (a: string, b: string, o?: Opts) =>
  requestAs(SessionComparisonSchema, '/api/sessions/compare', { ...quiet(o), query: { a, b } });
export const getClosestSession = (key: string, o?: Opts) => requestAs(ClosestSessionSchema, apiPath('sessions', key, 'closest'), quiet(o));
export const getSessionOutline = (key: string, o?: Opts) => requestAs(SessionOutlineSchema, apiPath('sessions', key, 'outline'), quiet(o));
export const getCallPayload = (key: string, n: number, all: boolean, o?: Opts) =>
  requestAs(CallPayloadSchema, apiPath('sessions', key, 'calls', n), { ...quiet(o), query: { all: all ? 1 : undefined } });
export const callResultUrl = (key: string, n: number) => apiPath('sessions', key, 'calls', n, 'result');
export const getCallLines = (key: string, o?: Opts) => requestAs(CallLinesSchema, apiPath('sessions', key, 'call-lines'), quiet(o));
export const findInSession = (key: string, q: string, o?: Opts) =>
  requestAs(SessionFindSchema, apiPath('sessions', key, 'find'), { ...quiet(o), query: { q } });
export const getSessionLines = (key: string, offset: number, limit: number, o?: Opts) =>
  requestAs(SessionLinesSchema, apiPath('sessions', key, 'lines'), { ...quiet(o), query: { offset, limit } });
export const getSessionEventLine = (key: string, i: number, o?: Opts) =>
  requestAs(LogLineSchema, apiPath('sessions', key, 'events', String(i), 'line'), quiet(o));
export const getSessionEvents = (key: string, offset: number, limit: number, o?: Opts) =>
  requestAs(SessionEventsSchema, apiPath('sessions', key, 'events'), { ...quiet(o), query: { offset, limit } });
export const deleteSession = (key: string) => requestAs(OkSchema, apiPath('sessions', key), { method: 'DELETE', quiet: true });

export const getFlows = (o?: Opts) => requestAs(FlowListSchema, '/api/flows', quiet(o));
export const getFlow = (key: string, threshold: number, o?: Opts) =>
  requestAs(FlowDetailSchema, apiPath('flows', key), { ...quiet(o), query: { threshold } });
export const getFlowWhatIf = (key: string, threshold: number, o?: Opts) =>
  requestAs(WhatIfSchema, apiPath('flows', key, 'whatif'), { ...quiet(o), query: { threshold } });
export const getFlowSites = (key: string, o?: Opts) => requestAs(FlowSitesSchema, apiPath('flows', key, 'sites'), quiet(o));
export const flowRawUrl = (key: string) => apiPath('flows', key, 'raw');
export const getFlowRaw = (key: string, o?: Opts) => requestText(flowRawUrl(key), quiet(o));
export const getFlowDiff = (from: string, to: string, threshold: number, tolerance: number, o?: Opts) =>
  requestAs(FlowDiffViewSchema, '/api/flows/diff', { ...quiet(o), query: { from, to, threshold, tolerance } });
export const deleteFlow = (key: string) => requestAs(OkSchema, apiPath('flows', key), { method: 'DELETE', quiet: true });
export const getStage = (key: string, o?: Opts) => requestAs(StageViewSchema, apiPath('flows', key, 'stage'), quiet(o));
export const commitFlow = (key: string, note: string | null) =>
  requestAs(VersionViewSchema, apiPath('flows', key, 'commit'), { method: 'POST', body: { note }, quiet: true });
export const rollbackFlow = (key: string, to: number | null, note: string | null) =>
  requestAs(VersionViewSchema, apiPath('flows', key, 'rollback'), { method: 'POST', body: { to, note }, quiet: true });

export const getServers = (o?: Opts) => requestAs(ServerListSchema, '/api/servers', quiet(o));
export const createServer = (body: ServerInput) => requestAs(ServerViewSchema, '/api/servers', { method: 'POST', body, quiet: true });
export const updateServer = (name: string, body: ServerInput) =>
  requestAs(ServerViewSchema, apiPath('servers', name), { method: 'PUT', body, quiet: true });
export const deleteServer = (name: string) => requestAs(OkSchema, apiPath('servers', name), { method: 'DELETE', quiet: true });
export const getServerConfig = (name: string, host: Host, o?: Opts) =>
  requestAs(HostConfigSchema, apiPath('servers', name, 'config'), { ...quiet(o), query: { host } });
/** `env`: one-off values for an HTTP server's header variables, for this test only (never stored). */
export const probeServer = (name: string, env: Record<string, string> = {}) =>
  requestAs(
    ProbeResultSchema,
    apiPath('servers', name, 'probe'),
    Object.keys(env).length === 0 ? { method: 'POST', quiet: true } : { method: 'POST', quiet: true, body: { env } },
  );

export const getJobs = (o?: Opts) => requestAs(JobListSchema, '/api/jobs', quiet(o));
export const getJob = (id: string, o?: Opts) => requestAs(JobSchema, apiPath('jobs', id), quiet(o));
/** Starts a job; with the id of its preview, the job runs the very command the preview showed. */
export const createJob = (body: JobRequest, id: string | null = null) =>
  requestAs(JobSchema, '/api/jobs', { method: 'POST', body: id === null ? body : { ...body, id }, quiet: true });
export const previewJob = (body: JobRequest, o?: Opts) => requestAs(JobPreviewSchema, '/api/jobs/preview', { ...quiet(o), method: 'POST', body });
export const cancelJob = (id: string) => requestAs(JobSchema, apiPath('jobs', id, 'cancel'), { method: 'POST', quiet: true });
export const jobArtifactUrl = (id: string, index: number) => apiPath('jobs', id, 'artifacts', index);
export const getJobArtifact = (id: string, index: number, o?: Opts) => requestText(jobArtifactUrl(id, index), quiet(o));

/** A pasted token, tried as a Bearer before the server is asked to keep it in the cookie. */
export const checkToken = (token: string) =>
  requestAs(MetaSchema, '/api/meta', { quiet: true, headers: { Authorization: `Bearer ${token}` } });
export const logout = () => requestAs(OkSchema, '/api/logout', { method: 'POST', quiet: true });

export const getTrash = (o?: Opts) => requestAs(TrashListSchema, '/api/trash', quiet(o));
export const restoreTrash = (id: string) => requestAs(TrashRestoredSchema, apiPath('trash', id, 'restore'), { method: 'POST', quiet: true });
export const emptyTrash = () => requestAs(TrashEmptiedSchema, '/api/trash', { method: 'DELETE', quiet: true });

export const startReplay = (server: string, body: Partial<ReplayInput>) =>
  requestAs(ReplayRunSchema, apiPath('servers', server, 'replay'), { method: 'POST', body, quiet: true });
export const getReplay = (id: string, o?: Opts) => requestAs(ReplayRunSchema, apiPath('replays', id), quiet(o));
export const cancelReplay = (id: string) => requestAs(ReplaySummarySchema, apiPath('replays', id, 'cancel'), { method: 'POST', quiet: true });
export const compareReplayAgain = (id: string, ignore_paths: string[]) =>
  requestAs(ReplayRunSchema, apiPath('replays', id, 'compare'), { method: 'POST', body: { ignore_paths }, quiet: true });
export const replayDownloadUrl = (id: string, format: 'json' | 'md') => `${apiPath('replays', id, 'download')}?format=${format}`;
export const getReplayPlan = (server: string, o?: Opts) => requestAs(ReplayPlanSchema, apiPath('servers', server, 'replay'), quiet(o));
