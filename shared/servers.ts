// Servers: the registry file (servers.json), the entry a POST or PUT sends, the list view, the host
// configuration and the live connection test (console-api.md §4.15–4.18). The registry keeps environment
// variables and headers by name only; the rules that refuse credentials live in shared/credentials.ts (worded
// by server/engine/credentials.ts) and run after these shape checks.
import * as v from 'valibot';
import { bodyObject, UnixMsSchema } from './common.ts';
import { DeciderNameSchema, FlowSummarySchema } from './flows.ts';
import { ToolInfoSchema, UpstreamViewSchema } from './sessions.ts';

export const SERVER_MODES = ['record', 'shadow', 'serve'] as const;
/** record: the proxy only records; shadow: the flow decides and logs; serve: the flow looks up. */
export const ServerModeSchema = v.picklist(SERVER_MODES, 'expected record, shadow or serve');
export type ServerMode = v.InferOutput<typeof ServerModeSchema>;

/** The flow's decider list (shared/flows.ts), with the registry's message. */
export const ServerDeciderSchema = v.picklist(DeciderNameSchema.options, 'expected arbiter, habit or reach');

export const HOSTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode'] as const;
export const HostSchema = v.picklist(HOSTS);
export type Host = v.InferOutput<typeof HostSchema>;

/** A header the proxy sends to an HTTP server: its name, and the variable that holds its value. */
export const HeaderRefSchema = v.object({
  name: v.string('a string'),
  env: v.string('a string'),
}, 'each header is {name, env}');
export type HeaderRef = v.InferOutput<typeof HeaderRefSchema>;

/** A missing field is named by its path (parse.ts prefixes it); a body that is not an object says so. */
const shape = (what: string) => (issue: v.BaseIssue<unknown>) =>
  issue.path?.length ? 'required' : `${what}: a JSON object`;

const StdioUpstreamSchema = v.object({
  kind: v.literal('stdio'),
  command: v.array(v.string('a string'), 'a list of strings'),
  /** Variables the server reads, by name: documentation for the host, never values. */
  env: v.optional(v.array(v.string('a string'), 'a list of names'), []),
}, shape('upstream'));
const HttpUpstreamSchema = v.object({
  kind: v.literal('http'),
  url: v.string('a string'),
  headers: v.optional(v.array(HeaderRefSchema, 'a list of {name, env}'), []),
}, shape('upstream'));

export const UpstreamSchema = v.variant('kind', [StdioUpstreamSchema, HttpUpstreamSchema], 'expected stdio or http');
export type Upstream = v.InferOutput<typeof UpstreamSchema>;

/** A field a request may leave out: absent keeps what the registry holds (null on a new server). */
const keepText = () => v.optional(v.nullable(v.string('a string or null')));

// The proxy's policy, fields a later engine writes into servers.json (console-api.md §8). Each is optional in
// the file and in a request; an entry without them is exactly a spec entry.

/** The flow's surprise gate, in place of the one it stores: off, or a threshold in nats. */
export const SurpriseSchema = v.variant(
  'kind',
  [v.object({ kind: v.literal('off') }), v.object({ kind: v.literal('threshold'), nats: v.number('a number') })],
  'expected {"kind": "off"} or {"kind": "threshold", "nats": …}',
);
export type Surprise = v.InferOutput<typeof SurpriseSchema>;

export const JUDGE_MODES = ['log', 'enforce'] as const;
/** The confirmation judge on the writes the guards check: log its judgments, or refuse what it fails. */
export const JudgeSchema = v.object(
  { mode: v.picklist(JUDGE_MODES, 'expected log or enforce'), context: v.string('a string') },
  'the judge is {mode, context}',
);
export type Judge = v.InferOutput<typeof JudgeSchema>;

/** One proxy that hosts connect to by URL (`engine-proxy --listen`), with the file holding its token. */
export const ListenSchema = v.object(
  { addr: v.string('a string'), token_file: v.optional(v.nullable(v.string('a string or null'))) },
  'listen is {addr, token_file}',
);
export type Listen = v.InferOutput<typeof ListenSchema>;

/** The later fields, in the order a later engine writes them (after `threshold`). */
export const POLICY_FIELDS = ['surprise', 'flow_tools', 'guards', 'judge', 'commit', 'retain_days', 'listen'] as const;
export type PolicyField = (typeof POLICY_FIELDS)[number];

const policyInput = {
  surprise: v.optional(v.nullable(SurpriseSchema)),
  flow_tools: v.optional(v.array(v.string('a string'), 'a list of tool names')),
  guards: v.optional(v.boolean('true or false')),
  judge: v.optional(v.nullable(JudgeSchema)),
  commit: v.optional(v.boolean('true or false')),
  retain_days: v.optional(v.nullable(v.number('a number of days or null'))),
  listen: v.optional(v.nullable(ListenSchema)),
};
/** The policy fields as a request or a view carries them (each optional: an entry may have none). */
export const PolicyFieldsSchema = v.object(policyInput);
export type PolicyFields = v.InferOutput<typeof PolicyFieldsSchema>;

/**
 * The body of POST /api/servers and PUT /api/servers/:name. A field left out keeps what the registry holds
 * for it (a new server: null, or no policy), so a client that knows fewer fields never erases the others.
 */
export const ServerInputSchema = bodyObject(v.object(
  {
    name: v.string('a string'),
    description: keepText(),
    upstream: UpstreamSchema,
    mode: ServerModeSchema,
    flow: keepText(),
    record_dir: keepText(),
    decider: v.optional(v.nullable(ServerDeciderSchema)),
    threshold: v.optional(v.nullable(v.number('a number or null'))),
    ...policyInput,
  },
  shape('the server is not as expected'),
));
export type ServerInput = v.InferOutput<typeof ServerInputSchema>;

/** One element of servers.json `servers`, in the file's field order; the policy fields only when it has them. */
export const ServerEntrySchema = v.object({
  name: v.string(),
  description: v.nullable(v.string()),
  upstream: UpstreamSchema,
  mode: ServerModeSchema,
  /** As given: relative to the data directory, `~/…`, or absolute inside the data directory. */
  flow: v.nullable(v.string()),
  record_dir: v.nullable(v.string()),
  decider: v.nullable(ServerDeciderSchema),
  threshold: v.nullable(v.number()),
  ...policyInput,
  created_unix_ms: UnixMsSchema,
  updated_unix_ms: UnixMsSchema,
});
export type ServerEntry = v.InferOutput<typeof ServerEntrySchema>;

export const RegistrySchema = v.object({
  engine_servers: v.literal(1),
  servers: v.array(ServerEntrySchema),
});
export type Registry = v.InferOutput<typeof RegistrySchema>;

/** The most servers a server's flow summary names: thousands of entries on one flow must not square the list. */
export const SERVED_BY_SHOWN_MAX = 20;

/** The flows list's summary of a server's flow, its `served_by` cut to the first SERVED_BY_SHOWN_MAX names. */
export const ServerFlowSummarySchema = v.object({
  ...FlowSummarySchema.entries,
  /** The first (at most SERVED_BY_SHOWN_MAX) registry servers whose `flow` is this file, in registry order. */
  served_by: v.array(v.string()),
  /** How many more servers serve it than `served_by` names (0 when it names them all). */
  served_by_more: v.number(),
});
export type ServerFlowSummary = v.InferOutput<typeof ServerFlowSummarySchema>;

/** A registry entry with what the list adds. */
export const ServerViewSchema = v.object({
  ...ServerEntrySchema.entries,
  /** engine-proxy's argv without the program, as `engine init` writes it for Claude Code. */
  proxy_args: v.array(v.string()),
  /** Readable sessions whose domain is this server's name. */
  sessions: v.number(),
  last_session_unix_ms: v.nullable(UnixMsSchema),
  /** The flow's list summary (served_by cut short) when its path resolves to a flow the catalog has. */
  flow_summary: v.nullable(ServerFlowSummarySchema),
  issues: v.array(v.string()),
});
export type ServerView = v.InferOutput<typeof ServerViewSchema>;

/** An upstream seen in session headers, and whether a server of that name is registered. */
export const DiscoveredUpstreamSchema = v.object({
  domain: v.string(),
  upstream: UpstreamViewSchema,
  sessions: v.number(),
  last_seen_unix_ms: UnixMsSchema,
  registered: v.boolean(),
});
export type DiscoveredUpstream = v.InferOutput<typeof DiscoveredUpstreamSchema>;

export const ServerListSchema = v.object({
  items: v.array(ServerViewSchema),
  discovered: v.array(DiscoveredUpstreamSchema),
});
export type ServerList = v.InferOutput<typeof ServerListSchema>;

export const ServerParamsSchema = v.object({ name: v.string() });

export const HostConfigQuerySchema = v.object({ host: v.optional(v.string(), 'claude-code') });

/** What `engine init --host {host} --domain {name}` prints for the server. */
export const HostConfigSchema = v.object({
  host: HostSchema,
  language: v.picklist(['shell', 'json']),
  /** `claude mcp add …` (shell-quoted) for Claude Code; the JSON configuration otherwise. */
  snippet: v.string(),
  /** Where it goes: one sentence per host. */
  placement: v.string(),
  /** Starts "Next steps". */
  next_steps: v.string(),
  /**
   * Beyond the spec: what `engine init` prints to stderr about the proxy it names, as the console finds it (on
   * its PATH: null; only beside the console: named by its full path; nowhere: to install before the host starts it).
   */
  proxy_note: v.optional(v.nullable(v.string()), null),
});
export type HostConfig = v.InferOutput<typeof HostConfigSchema>;

/** The live test: `initialize` and `tools/list`, now. */
export const ProbeResultSchema = v.object({
  ok: v.boolean(),
  /** Wall time of the whole exchange, a timeout included. */
  ms: v.number(),
  error: v.nullable(v.string()),
  server_name: v.nullable(v.string()),
  server_version: v.nullable(v.string()),
  protocol_version: v.nullable(v.string()),
  instructions: v.nullable(v.string()),
  /** Every listed tool, sorted by name. */
  tools: v.array(ToolInfoSchema),
  /** What the tools say against the server's flow (only when ok). */
  flow_warnings: v.array(v.string()),
  /** A failed stdio test: the last lines the server wrote to stderr, credential values masked (absent when it wrote none, or on success). */
  stderr_tail: v.optional(v.string()),
});
export type ProbeResult = v.InferOutput<typeof ProbeResultSchema>;

/** The most one-off values a test takes, and the longest one. */
export const PROBE_ONE_OFF_MAX = 16;
export const PROBE_ONE_OFF_VALUE_MAX = 8192;

/**
 * The optional body of the probe: values for the header variables of an HTTP server, for this one test only.
 * They are sent in the headers, and never stored, logged or returned.
 */
export const ProbeInputSchema = bodyObject(v.object({
  env: v.optional(
    v.pipe(
      v.record(v.string(), v.pipe(v.string('a string'), v.maxLength(PROBE_ONE_OFF_VALUE_MAX, 'at most 8,192 characters')), 'an object of variable names to values'),
      v.check((r) => Object.keys(r).length <= PROBE_ONE_OFF_MAX, 'at most 16 values'),
    ),
    {},
  ),
}));
export type ProbeInput = v.InferOutput<typeof ProbeInputSchema>;
