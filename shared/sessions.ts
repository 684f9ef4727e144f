// Sessions: the list item (SessionSummary), the list (SessionList), the single-session view (SessionDetail)
// with every section, and the query of GET /api/sessions. Fields and their order follow
// reference/session-format.md §6.2 (the order of the fields is the order on the wire); `surprised` is an
// optional extra of later versions (ERRATA S1), which we send.
import * as v from 'valibot';
import { JsonValueSchema, KeySchema, RelPathSchema, UnixMsSchema, dayRangeInOrder, queryDay, queryInt, queryPick } from './common.ts';
import { SESSIONS_LIMIT_DEFAULT, SESSIONS_LIMIT_MAX, SESSIONS_OFFSET_DEFAULT } from './limits.ts';

export const SESSION_MODES = ['recorded', 'shadow', 'served'] as const;
/** recorded: no flow took part; shadow: a flow only logged its decisions; served: a flow (or the proxy) acted. */
export const SessionModeSchema = v.picklist(SESSION_MODES);
export type SessionMode = v.InferOutput<typeof SessionModeSchema>;

/** A tool's kind, from its `annotations.readOnlyHint` (true: read, false: write, else generic = unknown). */
export const ToolKindSchema = v.picklist(['read', 'write', 'generic']);
export type ToolKind = v.InferOutput<typeof ToolKindSchema>;

/** Where the proxy sent the agent's calls, from the header's `server_command`. */
export const UpstreamViewSchema = v.variant('kind', [
  v.object({ kind: v.literal('stdio'), command: v.array(v.string()) }),
  v.object({ kind: v.literal('http'), url: v.string() }),
]);
export type UpstreamView = v.InferOutput<typeof UpstreamViewSchema>;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const SessionSummarySchema = v.object({
  /** Catalogue key: the file stem, or stem~hash when stems collide. */
  key: KeySchema,
  /** The log, relative to the data directory, `/`-separated. */
  path: RelPathSchema,
  session_id: v.string(),
  domain: v.nullable(v.string()),
  /** The header's agent model, else the client's name from `initialize`, else null. */
  agent: v.nullable(v.string()),
  started_unix_ms: UnixMsSchema,
  /** The largest `t_ms` of the log's entries (0 when there are none). */
  duration_ms: count,
  mode: SessionModeSchema,
  /** The agent's own tools/call requests. */
  tool_calls: count,
  llm_turns: count,
  /** The agent's calls whose first answer was an error. */
  errors: count,
  /** Calls the proxy made for the flow. */
  flow_lookups: count,
  /** Non-shadow hand-back decisions. */
  hand_backs: count,
  /** Shadow lookup decisions (logged, not made). */
  shadow_lookups: count,
  /** A later version's extra: the flow's surprise gate handed back in this session. */
  surprised: v.optional(v.boolean()),
  /** The agent's own calls of tools listed as writes. */
  writes: count,
  upstream: v.nullable(UpstreamViewSchema),
  size_bytes: count,
  has_flow_log: v.boolean(),
  has_confirm_log: v.boolean(),
});
export type SessionSummary = v.InferOutput<typeof SessionSummarySchema>;

/** What a session's flow log shows the flow did at one site (the call it had just seen returned). */
export const SessionSiteCountSchema = v.object({
  /** The decision lines' `site`: `tool`, or `tool (error)` after a failed call; "" when there was none. */
  site: v.string(),
  /** Lookups decided and not in shadow (each is a call the flow made, or could not make and so handed back). */
  lookups: count,
  /** Hand-backs not in shadow. */
  hand_backs: count,
  /** Decisions only logged, in shadow (lookups and hand-backs). */
  shadow: count,
});
export type SessionSiteCount = v.InferOutput<typeof SessionSiteCountSchema>;

/**
 * A summary as the index keeps it: the wire summary plus two fields no endpoint sends as they are. They serve
 * the views computed over every session (the list's `q`, the closest session, a flow's evidence, savings).
 */
export const IndexedSummarySchema = v.object({
  ...SessionSummarySchema.entries,
  /** The tools called in the session (the agent's, the flow's, those made for a commit), first use first. */
  tools_called: v.array(v.string()),
  /** Decisions only logged, in shadow (lookups and hand-backs). */
  shadow_decisions: count,
  /** Per site, what the flow log shows, sorted by site; absent when the flow log has no decision. */
  flow_sites: v.optional(v.array(SessionSiteCountSchema)),
});

/**
 * How far the console is in reading the data directory after it started: logs summarized so far of the logs
 * found. Sent only while that runs (newest logs are read first, so the first pages fill first); absent once
 * every log is read.
 */
export const IndexingSchema = v.object({ indexed: count, total: count });
export type Indexing = v.InferOutput<typeof IndexingSchema>;

/** Beyond the spec: what the matching sessions add up to, so a list opened from an overview figure shows it. */
export const SessionSumsSchema = v.object({
  tool_calls: count,
  flow_lookups: count,
  shadow_decisions: count,
});
export type SessionSums = v.InferOutput<typeof SessionSumsSchema>;

export const SessionListSchema = v.object({
  /** How many sessions match the filters, before paging (of those indexed so far, while `indexing`). */
  total: count,
  items: v.array(SessionSummarySchema),
  sums: v.optional(SessionSumsSchema),
  indexing: v.optional(IndexingSchema),
});
export type SessionList = v.InferOutput<typeof SessionListSchema>;

export const ToolInfoSchema = v.object({
  name: v.string(),
  kind: ToolKindSchema,
  description: v.nullable(v.string()),
  read_only_hint: v.nullable(v.boolean()),
  destructive_hint: v.nullable(v.boolean()),
  /** `name:type[!]` per input property, sorted, joined with ", "; null without an inputSchema. */
  contract: v.nullable(v.string()),
});
export type ToolInfo = v.InferOutput<typeof ToolInfoSchema>;

/** One LLM turn of the agent: a turn with calls, or an agent message (calls []). */
export const TurnSchema = v.object({
  index: count,
  start_ms: count,
  end_ms: count,
  calls: v.array(v.string()),
});
export type Turn = v.InferOutput<typeof TurnSchema>;

export const CallBySchema = v.picklist(['agent', 'flow']);
export type CallBy = v.InferOutput<typeof CallBySchema>;

export const CallViewSchema = v.object({
  /** The JSON-RPC id: a string as is, any other id as its JSON text. */
  id: v.string(),
  by: CallBySchema,
  tool: v.string(),
  kind: ToolKindSchema,
  arguments: JsonValueSchema,
  t_ms: count,
  result_t_ms: v.nullable(count),
  latency_ms: v.nullable(count),
  /** Whether the first answer was not an error; null when no answer came. */
  ok: v.nullable(v.boolean()),
  /** The answer's content, cut to 64 KiB of UTF-8. */
  result_text: v.nullable(v.string()),
  /** result_text parsed as JSON when it is JSON and was not cut. */
  result_json: JsonValueSchema,
  result_truncated: v.boolean(),
  /** Index into turns: the agent's own calls only. */
  turn: v.nullable(count),
  /** Flow lookups: the agent's call they followed; calls made for a commit: the commit call's id. */
  after: v.nullable(v.string()),
  /** Flow lookups: index into decisions of the decision that made it. */
  decision: v.nullable(count),
});
export type CallView = v.InferOutput<typeof CallViewSchema>;

export const RoleSchema = v.picklist(['user', 'assistant']);
export type Role = v.InferOutput<typeof RoleSchema>;

export const ContextMessageSchema = v.object({
  t_ms: count,
  role: RoleSchema,
  content: v.string(),
});
export type ContextMessage = v.InferOutput<typeof ContextMessageSchema>;

export const DecisionActionSchema = v.picklist(['lookup', 'hand_back']);
export type DecisionAction = v.InferOutput<typeof DecisionActionSchema>;

export const FlowDecisionSchema = v.object({
  after: v.string(),
  address: v.string(),
  site: v.string(),
  action: DecisionActionSchema,
  tool: v.nullable(v.string()),
  arguments: JsonValueSchema,
  prob: v.nullable(v.number()),
  probs: v.record(v.string(), v.number()),
  binding: v.nullable(v.number()),
  reason: v.nullable(v.string()),
  shadow: v.boolean(),
  ms: v.nullable(count),
});
export type FlowDecision = v.InferOutput<typeof FlowDecisionSchema>;

/** One site a run visited: [address, value, logp]. */
export const FlowSiteSchema = v.tuple([v.string(), JsonValueSchema, v.number()]);
export type FlowSite = v.InferOutput<typeof FlowSiteSchema>;

export const FlowRunSchema = v.object({
  after: v.string(),
  call: v.string(),
  failed: v.boolean(),
  max_lookups: count,
  sites: v.array(FlowSiteSchema),
  surprise: v.nullable(v.number()),
});
export type FlowRun = v.InferOutput<typeof FlowRunSchema>;

export const EventFromSchema = v.picklist(['client', 'server', 'proxy', 'context']);
export type EventFrom = v.InferOutput<typeof EventFromSchema>;

export const EventKindSchema = v.picklist(['request', 'response', 'notification', 'error', 'context', 'raw']);
export type EventKind = v.InferOutput<typeof EventKindSchema>;

/** One message (or raw line) of the log in short form. */
export const TimelineEventSchema = v.object({
  t_ms: count,
  from: EventFromSchema,
  kind: EventKindSchema,
  /** For a response: the method of the request it answers, when known. */
  method: v.nullable(v.string()),
  id: v.nullable(v.string()),
  /** At most 200 code points, then `…`. */
  summary: v.string(),
});
export type TimelineEvent = v.InferOutput<typeof TimelineEventSchema>;

export const SessionDetailSchema = v.object({
  summary: SessionSummarySchema,
  /** The header line as JSON, unknown fields too. */
  header: JsonValueSchema,
  /** The tools listed, sorted by name. */
  tools: v.array(ToolInfoSchema),
  turns: v.array(TurnSchema),
  /** Every tools/call, the agent's and the proxy's, in log order. */
  calls: v.array(CallViewSchema),
  context: v.array(ContextMessageSchema),
  /** Flow-log order. */
  decisions: v.array(FlowDecisionSchema),
  runs: v.array(FlowRunSchema),
  /** Each JSON line of the confirmation log. */
  confirmations: v.array(JsonValueSchema),
  events: v.array(TimelineEventSchema),
  /** Some call's result was cut at 64 KiB (not about the log file). */
  truncated: v.boolean(),
  /**
   * An extra of this console: how many strings of lines longer than 1 MiB (in the log and its companions)
   * were cut for display, each ending `… [cut for display: <n> bytes in the log]`; absent when none. The raw
   * download has them whole. See SESSION_LINE_FULL_BYTES.
   */
  cut_for_display: v.optional(count),
});
export type SessionDetail = v.InferOutput<typeof SessionDetailSchema>;

/** A query string value that may be absent or empty (both mean: no filter). */
const optionalText = (name: string) =>
  v.optional(
    v.pipe(
      v.string(`${name}: give it once, as text`),
      v.transform((s) => (s === '' ? null : s)),
    ),
    '',
  );

const modeFilter = v.optional(
  v.pipe(
    v.string('mode: give it once, as recorded, shadow or served'),
    v.check(
      (s) => s === '' || (SESSION_MODES as readonly string[]).includes(s),
      (issue) => `mode ${JSON.stringify(issue.input)}: expected recorded, shadow or served`,
    ),
    v.transform((s) => (s === '' ? null : (s as SessionMode))),
  ),
  '',
);

/** The columns the list sorts by (not in the spec; `started` descending is the spec's order and the default). */
export const SESSION_SORTS = ['started', 'session', 'domain', 'agent', 'mode', 'calls', 'turns', 'lookups', 'errors', 'duration'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];
export type SortOrder = 'asc' | 'desc';


/** GET /api/sessions/download?keys=a,b: the sessions' logs (with their companions) as one tar archive. */
export const SessionsDownloadQuerySchema = v.object({
  keys: v.pipe(
    v.string('keys: give it once, as session keys separated by commas'),
    v.transform((s) => s.split(',').filter((k) => k !== '')),
    v.check((keys) => keys.length > 0, 'keys: name at least one session'),
    v.check((keys) => keys.length <= SESSIONS_LIMIT_MAX, `keys: at most ${SESSIONS_LIMIT_MAX} sessions at once`),
  ),
});

/** `has=`: sessions where each named figure is above 0 (`surprised`: the flow's surprise gate handed back). */
export const SESSION_HAS = ['tool_calls', 'flow_lookups', 'shadow_decisions', 'errors', 'surprised'] as const;
export type SessionHas = (typeof SESSION_HAS)[number];

const hasFilter = v.optional(
  v.pipe(
    v.string(`has: give it once, as a comma-separated list of ${SESSION_HAS.join(', ')}`),
    v.transform((s) => (s === '' ? [] : s.split(','))),
    v.check(
      (list) => list.every((x) => (SESSION_HAS as readonly string[]).includes(x)),
      (issue) => `has ${JSON.stringify((issue.input as string[]).join(','))}: expected a comma-separated list of ${SESSION_HAS.join(', ')}`,
    ),
    v.transform((list) => [...new Set(list as SessionHas[])]),
  ),
  '',
);

/** A moment as unix ms in a query string, or null when absent or empty. */
const sinceFilter = v.optional(
  v.pipe(
    v.string('since: give it once, as unix milliseconds'),
    v.regex(/^\d{0,15}$/, 'since: unix milliseconds, a whole number'),
    v.transform((s) => (s === '' ? null : Number(s))),
  ),
  '',
);

/**
 * GET /api/sessions?domain=&mode=&q=&limit=&offset= (empty values mean no filter; limit is clamped to 500),
 * plus, beyond the spec, `from`/`to` (UTC days, both included), `since` (unix ms: started at or after),
 * `agent` (exact), `tool` (a tool called, exact), `has` and `sort`/`order`.
 */
export const SessionsQuerySchema = v.pipe(
  v.object({
    domain: optionalText('domain'),
    mode: modeFilter,
    q: optionalText('q'),
    limit: v.pipe(
      queryInt('limit', SESSIONS_LIMIT_DEFAULT),
      v.transform((n) => Math.min(n, SESSIONS_LIMIT_MAX)),
    ),
    offset: queryInt('offset', SESSIONS_OFFSET_DEFAULT),
    from: queryDay('from'),
    to: queryDay('to'),
    since: sinceFilter,
    agent: optionalText('agent'),
    tool: optionalText('tool'),
    has: hasFilter,
    sort: queryPick('sort', SESSION_SORTS, 'started'),
    order: queryPick<SortOrder, SortOrder>('order', ['asc', 'desc'], 'desc'),
  }),
  v.check(dayRangeInOrder, 'from: the first day must not be after the last (to)'),
);
export type SessionsQuery = v.InferOutput<typeof SessionsQuerySchema>;
