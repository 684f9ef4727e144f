// servers.json as the engine's registry::load reads it: leniently (missing optional fields default to null;
// fields of later versions are kept in `raw` for the rewrite) and refused with a message that says what is
// wrong. Pure: the console runs it in the worker pool, so a registry of tens of thousands of entries never
// holds the event loop.
import * as v from 'valibot';
import { issueText } from '../../shared/issue-text.ts';
import { errorText } from '../../shared/error-text.ts';
import {
  ServerDeciderSchema,
  JudgeSchema,
  ListenSchema,
  POLICY_FIELDS,
  ServerModeSchema,
  SurpriseSchema,
  type PolicyField,
  type ServerEntry,
  type Upstream,
} from '../../shared/servers.ts';
/** servers.json could not be read or written: every servers endpoint answers 500 with this message. */
export class RegistryError extends Error {}

/**
 * servers.json was read but is not a registry this build reads (its content is at fault, not the console):
 * the servers endpoints answer 422, as for any file the console cannot read (spec §7).
 */
export class RegistryUnreadable extends RegistryError {}

/**
 * An entry as this console understands it, with the object it was read from (`raw`): a rewrite sets the fields
 * the console manages in place and keeps every other key, so what a newer engine or a person wrote survives.
 */
export type StoredEntry = ServerEntry & { raw?: Record<string, unknown> };
export interface LoadedRegistry {
  servers: StoredEntry[];
  /** The file's top-level object as read: keys other than `engine_servers` and `servers` are kept. */
  raw?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const nullableText = v.optional(v.nullable(v.string()), null);
const FileUpstreamSchema = v.variant('kind', [
  v.object({
    kind: v.literal('stdio'),
    command: v.array(v.string()),
    env: v.optional(v.nullable(v.array(v.string())), []),
  }),
  v.object({
    kind: v.literal('http'),
    url: v.string(),
    headers: v.optional(v.nullable(v.array(v.object({ name: v.string(), env: v.string() }))), []),
  }),
]);
const FileEntrySchema = v.looseObject({
  name: v.string(),
  description: nullableText,
  upstream: FileUpstreamSchema,
  mode: ServerModeSchema,
  flow: nullableText,
  record_dir: nullableText,
  decider: v.optional(v.nullable(ServerDeciderSchema), null),
  threshold: v.optional(v.nullable(v.number()), null),
  created_unix_ms: v.optional(v.number(), 0),
  updated_unix_ms: v.optional(v.number(), 0),
});
const FileSchema = v.looseObject({ servers: v.optional(v.array(FileEntrySchema), []) });

/** How a later engine's field reads; a value of another shape stays in the file, not understood. */
const POLICY_SCHEMAS = {
  surprise: v.nullable(SurpriseSchema),
  flow_tools: v.array(v.string()),
  guards: v.boolean(),
  judge: v.nullable(JudgeSchema),
  commit: v.boolean(),
  retain_days: v.nullable(v.number()),
  listen: v.nullable(ListenSchema),
} satisfies Record<PolicyField, v.GenericSchema>;

/** The policy fields of a file entry that read as this console understands them. */
function policyOf(raw: Json): Partial<Pick<ServerEntry, PolicyField>> {
  const out: Json = {};
  for (const field of POLICY_FIELDS) {
    if (!(field in raw)) continue;
    const parsed = v.safeParse(POLICY_SCHEMAS[field], raw[field]);
    if (parsed.success) out[field] = parsed.output;
  }
  return out as Partial<Pick<ServerEntry, PolicyField>>;
}

/**
 * The engine reads servers.json with serde_json, which refuses nesting past 128 levels. The console refuses it
 * too: what it keeps of a file (every key it does not manage) it writes back, and JSON.stringify of a value
 * nested some thousands deep overflows the stack.
 */
const JSON_DEPTH_MAX = 128;

/** Whether an array or object in `value` lies more than `max` levels deep (walked without recursion). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Parses the text of servers.json. Throws a RegistryError whose message says what is wrong. */
export function parseRegistry(text: string): LoadedRegistry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RegistryUnreadable(`servers.json is not a server registry: ${errorText(e)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RegistryUnreadable('servers.json is not a server registry: expected a JSON object with `engine_servers`');
  }
  const top = value as Json;
  const format = top.engine_servers;
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 0 || format > 0xffffffff) {
    throw new RegistryUnreadable(
      format === undefined
        ? 'servers.json is not a server registry: missing field `engine_servers`'
        : 'servers.json is not a server registry: `engine_servers` is not a format number',
    );
  }
  if (format !== 1) throw new RegistryUnreadable(`servers.json is format ${format}; this build reads 1`);
  if (nestsDeeperThan(value, JSON_DEPTH_MAX)) {
    throw new RegistryUnreadable(`servers.json is not a server registry: a value nests deeper than ${JSON_DEPTH_MAX} levels`);
  }
  const parsed = v.safeParse(FileSchema, value);
  if (!parsed.success) throw new RegistryUnreadable(`servers.json: servers.${issueText(parsed.issues, 'not as expected')}`);
  const rawServers = Array.isArray(top.servers) ? (top.servers as Json[]) : [];
  const servers = parsed.output.servers.map((entry, i): StoredEntry => {
    const upstream: Upstream =
      entry.upstream.kind === 'stdio'
        ? { kind: 'stdio', command: entry.upstream.command, env: entry.upstream.env ?? [] }
        : { kind: 'http', url: entry.upstream.url, headers: entry.upstream.headers ?? [] };
    const raw = rawServers[i] ?? {};
    return {
      name: entry.name,
      description: entry.description,
      upstream,
      mode: entry.mode,
      flow: entry.flow,
      record_dir: entry.record_dir,
      decider: entry.decider,
      threshold: entry.threshold,
      ...policyOf(raw),
      created_unix_ms: entry.created_unix_ms,
      updated_unix_ms: entry.updated_unix_ms,
      raw,
    };
  });
  return { servers, raw: top };
}


/** Entries as JSON text (their `raw` left out): how a registry read in the pool crosses back, a slice at a time. */
export type EntriesText = string & { readonly entries: unique symbol };

/** Entries per slice of text, one parsed per turn of the event loop: ~50 KB, under V8's large-object size. */
const ENTRIES_PER_SLICE = 200;

/** The entries as slices of JSON text, without the objects they were read from. */
export function entrySlices(servers: readonly StoredEntry[]): EntriesText[] {
  const slices: EntriesText[] = [];
  for (let i = 0; i < servers.length; i += ENTRIES_PER_SLICE) {
    const plain = servers.slice(i, i + ENTRIES_PER_SLICE).map(({ raw: _raw, ...entry }) => entry);
    slices.push(JSON.stringify(plain) as EntriesText);
  }
  return slices;
}

/** The entries of one slice; the text is entrySlices' own, written from entries parseRegistry checked. */
export function entriesOf(slice: EntriesText): ServerEntry[] {
  return JSON.parse(slice) as ServerEntry[];
}
