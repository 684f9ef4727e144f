// The server registry, servers.json: the one file the console owns (spec §2). It is read leniently (a missing
// file is an empty registry; missing optional fields default to null; fields of later versions are kept for
// the rewrite), validated by the CLI's rules (registry::validate), and written whole: pretty JSON to a temp
// file beside it, renamed over it. Every change is a read-modify-write under one in-process lock, so two
// requests at once never lose an update, and a kill at any moment leaves the old file or the new one.
import { statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { delimiter, join, sep } from 'node:path';
import * as v from 'valibot';
import {
  REGISTRY_ARG_BYTES_MAX,
  REGISTRY_FILE_MAX_BYTES,
  REGISTRY_COMMAND_ARGS_MAX,
  REGISTRY_DESCRIPTION_MAX,
  REGISTRY_NAME_MAX,
} from '../../shared/limits.ts';
import { credentialArgument } from '../../shared/credentials.ts';
import type { FlowSummary } from '../../shared/flows.ts';
import {
  DeciderNameSchema,
  ServerModeSchema,
  type DiscoveredUpstream,
  type Host,
  type ServerEntry,
  type ServerInput,
  type ServerView,
  type Upstream,
} from '../../shared/servers.ts';
import type { SessionSummary } from '../../shared/sessions.ts';
import { checkHeaderName, checkUrl, checkVar, credentialArgumentMessage } from '../engine/credentials.ts';
import { compareText, debugString, display } from '../engine/format.ts';
import { initOutput, proxyArgs, type InitOutput, type ServedFlow, type Setup } from '../engine/init.ts';
import { writeFileAtomic } from './atomic.ts';
import { PathError, resolveRequestPath, type PathContext } from './paths.ts';

export const REGISTRY_FILE = 'servers.json';

/** servers.json could not be read or written: every servers endpoint answers 500 with this message. */
export class RegistryError extends Error {}

/**
 * servers.json was read but is not a registry this build reads (its content is at fault, not the console):
 * the servers endpoints answer 422, as for any file the console cannot read (spec §7).
 */
export class RegistryUnreadable extends RegistryError {}

/** An entry as stored, with any fields of later versions kept (not shown, but not dropped on a rewrite). */
export type StoredEntry = ServerEntry & { extra: Record<string, unknown> };
export interface LoadedRegistry {
  servers: StoredEntry[];
}

const ENTRY_FIELDS = [
  'name',
  'description',
  'upstream',
  'mode',
  'flow',
  'record_dir',
  'decider',
  'threshold',
  'created_unix_ms',
  'updated_unix_ms',
] as const;

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
  decider: v.optional(v.nullable(DeciderNameSchema), null),
  threshold: v.optional(v.nullable(v.number()), null),
  created_unix_ms: v.optional(v.number(), 0),
  updated_unix_ms: v.optional(v.number(), 0),
});
const FileSchema = v.looseObject({ servers: v.optional(v.array(FileEntrySchema), []) });

function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  if (!first) return 'not as expected';
  const path = first.path?.map((p) => String(p.key)).join('.');
  return path ? `${path}: ${first.message}` : first.message;
}

/** Parses the text of servers.json. Throws a RegistryError whose message says what is wrong. */
export function parseRegistry(text: string): LoadedRegistry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RegistryUnreadable(`servers.json is not a server registry: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RegistryUnreadable('servers.json is not a server registry: expected a JSON object with `engine_servers`');
  }
  const format = (value as Record<string, unknown>).engine_servers;
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 0 || format > 0xffffffff) {
    throw new RegistryUnreadable(
      format === undefined
        ? 'servers.json is not a server registry: missing field `engine_servers`'
        : 'servers.json is not a server registry: `engine_servers` is not a format number',
    );
  }
  if (format !== 1) throw new RegistryUnreadable(`servers.json is format ${format}; this build reads 1`);
  const parsed = v.safeParse(FileSchema, value);
  if (!parsed.success) throw new RegistryUnreadable(`servers.json: servers.${issueText(parsed.issues)}`);
  const servers = parsed.output.servers.map((raw): StoredEntry => {
    const extra: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(raw)) if (!(ENTRY_FIELDS as readonly string[]).includes(k)) extra[k] = val;
    const upstream: Upstream =
      raw.upstream.kind === 'stdio'
        ? { kind: 'stdio', command: raw.upstream.command, env: raw.upstream.env ?? [] }
        : { kind: 'http', url: raw.upstream.url, headers: raw.upstream.headers ?? [] };
    return {
      name: raw.name,
      description: raw.description,
      upstream,
      mode: raw.mode,
      flow: raw.flow,
      record_dir: raw.record_dir,
      decider: raw.decider,
      threshold: raw.threshold,
      created_unix_ms: raw.created_unix_ms,
      updated_unix_ms: raw.updated_unix_ms,
      extra,
    };
  });
  return { servers };
}

/** Reads `<dataDir>/servers.json`; a missing file is an empty registry. */
export async function loadRegistry(dataDir: string): Promise<LoadedRegistry> {
  let text: string;
  try {
    // A file past the bound is not read at all (it would be held whole, on the event loop's thread).
    const size = (await stat(join(dataDir, REGISTRY_FILE))).size;
    if (size > REGISTRY_FILE_MAX_BYTES) {
      throw new RegistryUnreadable(`servers.json is ${(size / 1048576).toFixed(1)} MiB, more than the ${REGISTRY_FILE_MAX_BYTES / 1048576} MiB the console reads`);
    }
    text = await readFile(join(dataDir, REGISTRY_FILE), 'utf8');
  } catch (e) {
    if (e instanceof RegistryError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [] };
    throw new RegistryError(`reading servers.json: ${(e as Error).message}`);
  }
  return parseRegistry(text);
}

/** An entry in the file's field order, later-version fields after. */
export function plainEntry(e: StoredEntry | ServerEntry): ServerEntry & Record<string, unknown> {
  const upstream: Upstream =
    e.upstream.kind === 'stdio'
      ? { kind: 'stdio', command: e.upstream.command, env: e.upstream.env }
      : { kind: 'http', url: e.upstream.url, headers: e.upstream.headers.map((h) => ({ name: h.name, env: h.env })) };
  const extra = 'extra' in e ? e.extra : {};
  return {
    name: e.name,
    description: e.description,
    upstream,
    mode: e.mode,
    flow: e.flow,
    record_dir: e.record_dir,
    decider: e.decider,
    threshold: e.threshold,
    created_unix_ms: e.created_unix_ms,
    updated_unix_ms: e.updated_unix_ms,
    ...extra,
  };
}

/** The file's text: pretty JSON with two-space indents and a final newline. */
export function registryText(registry: LoadedRegistry): string {
  return `${JSON.stringify({ engine_servers: 1, servers: registry.servers.map(plainEntry) }, null, 2)}\n`;
}

/** Writes the whole registry: temp file beside, fsync, rename. */
export async function saveRegistry(dataDir: string, registry: LoadedRegistry): Promise<void> {
  try {
    await writeFileAtomic(join(dataDir, REGISTRY_FILE), registryText(registry));
  } catch (e) {
    throw new RegistryError(`writing servers.json: ${(e as Error).message}`);
  }
}

// One lock for every change: a promise chain, so changes run one after another in arrival order.
let tail: Promise<unknown> = Promise.resolve();
function withLock<T>(work: () => Promise<T>): Promise<T> {
  const run = tail.then(work, work);
  tail = run.catch(() => undefined);
  return run;
}

const NAME = new RegExp(`^[a-z0-9][a-z0-9_-]{0,${REGISTRY_NAME_MAX - 1}}$`);

/** Why the input is refused (400), checked in the CLI's order, or null. Values that look like secrets are never echoed. */
export function validateInput(input: ServerInput, ctx: PathContext): string | null {
  if (!NAME.test(input.name)) {
    return `name ${debugString(input.name)}: the name is the server's in the host and the domain of its sessions and flows, so use a-z, 0-9, _ and -, starting with a letter or digit, at most 64`;
  }
  if (input.description !== null && [...input.description].length > REGISTRY_DESCRIPTION_MAX) {
    return 'the description is longer than 1,000 characters';
  }
  const upstream = input.upstream;
  if (upstream.kind === 'stdio') {
    const command = upstream.command;
    if (command.length === 0 || (command[0] ?? '').trim() === '') return "the server's command is empty";
    if (
      command.length > REGISTRY_COMMAND_ARGS_MAX ||
      command.some((a) => a.includes('\0') || Buffer.byteLength(a) > REGISTRY_ARG_BYTES_MAX)
    ) {
      return "the server's command has too many or too long arguments";
    }
    const at = credentialArgument(command);
    if (at !== null) return credentialArgumentMessage(at);
    for (const name of upstream.env) {
      const why = checkVar(name);
      if (why) return why;
    }
  } else {
    const why = checkUrl(upstream.url);
    if (why) return why;
    for (const header of upstream.headers) {
      const bad = checkHeaderName(header.name) ?? checkVar(header.env);
      if (bad) return bad;
    }
  }
  for (const field of ['flow', 'record_dir'] as const) {
    const raw = input[field];
    if (raw === null || raw.trim() === '') continue;
    try {
      resolveRequestPath(raw.trim(), ctx);
    } catch (e) {
      if (e instanceof PathError) return `${field}: ${e.message}`;
      throw e;
    }
  }
  const t = input.threshold;
  if (t !== null && !(Number.isFinite(t) && t >= 0 && t <= 1)) return `threshold ${display(t)}: a probability, from 0 to 1`;
  return null;
}

const blankToNull = (s: string | null) => {
  if (s === null) return null;
  const t = s.trim();
  return t === '' ? null : t;
};

/** The stored entry for a valid input: texts trimmed (blank is null); name and command as given. */
export function entryFromInput(input: ServerInput, createdMs: number, nowMs: number): ServerEntry {
  return {
    name: input.name,
    description: blankToNull(input.description),
    upstream: input.upstream,
    mode: input.mode,
    flow: blankToNull(input.flow),
    record_dir: blankToNull(input.record_dir),
    decider: input.decider,
    threshold: input.threshold,
    created_unix_ms: createdMs,
    updated_unix_ms: nowMs,
  };
}

export const serverTaken = (name: string) => `a server named ${debugString(name)} is registered already`;
export const noServer = (name: string) => `no server ${debugString(name)}`;

/** What a change came to: done with the entry, or refused with the status's reason. */
export type Change =
  | { ok: true; entry: ServerEntry }
  | { ok: false; reason: 'invalid' | 'missing' | 'taken'; message: string };

export interface ChangeContext extends PathContext {
  nowMs: number;
}

/** POST: validate, then under the lock: load, refuse a taken name, append, save. */
export function addServer(input: ServerInput, ctx: ChangeContext): Promise<Change> {
  const invalid = validateInput(input, ctx);
  if (invalid) return Promise.resolve({ ok: false, reason: 'invalid', message: invalid });
  return withLock(async () => {
    const registry = await loadRegistry(ctx.dataDir);
    if (registry.servers.some((s) => s.name === input.name)) {
      return { ok: false, reason: 'taken', message: serverTaken(input.name) };
    }
    const entry = entryFromInput(input, ctx.nowMs, ctx.nowMs);
    registry.servers.push({ ...entry, extra: {} });
    await saveRegistry(ctx.dataDir, registry);
    return { ok: true, entry };
  });
}

/** PUT: validate, then under the lock: the entry must exist; a new name must be free; replace in place. */
export function replaceServer(name: string, input: ServerInput, ctx: ChangeContext): Promise<Change> {
  const invalid = validateInput(input, ctx);
  if (invalid) return Promise.resolve({ ok: false, reason: 'invalid', message: invalid });
  return withLock(async () => {
    const registry = await loadRegistry(ctx.dataDir);
    const at = registry.servers.findIndex((s) => s.name === name);
    const old = registry.servers[at];
    if (!old) return { ok: false, reason: 'missing', message: noServer(name) };
    if (input.name !== name && registry.servers.some((s) => s.name === input.name)) {
      return { ok: false, reason: 'taken', message: serverTaken(input.name) };
    }
    const entry = entryFromInput(input, old.created_unix_ms, ctx.nowMs);
    registry.servers[at] = { ...entry, extra: {} };
    await saveRegistry(ctx.dataDir, registry);
    return { ok: true, entry };
  });
}

/** DELETE: under the lock, remove every entry of that name; sessions and flows stay. */
export function removeServer(name: string, ctx: ChangeContext): Promise<{ ok: true } | { ok: false; message: string }> {
  return withLock(async () => {
    const registry = await loadRegistry(ctx.dataDir);
    const kept = registry.servers.filter((s) => s.name !== name);
    if (kept.length === registry.servers.length) return { ok: false, message: noServer(name) };
    await saveRegistry(ctx.dataDir, { servers: kept });
    return { ok: true };
  });
}

/** The registered entry of that name, or undefined. */
export async function findServer(dataDir: string, name: string): Promise<StoredEntry | undefined> {
  return (await loadRegistry(dataDir)).servers.find((s) => s.name === name);
}

// ---------------------------------------------------------------------------------------------------------
// Views: what the list, the config view and the probe add to an entry (console-api.md §4.15, §4.17;
// init-doctor-stage.md §1.3). Flow facts come from the worker pool (the caller passes the function), so a
// large flow never holds up the event loop.
// ---------------------------------------------------------------------------------------------------------

/** What a server's flow file says, as far as its setup and issues care. */
export interface FlowFacts {
  file: boolean;
  error: string | null;
  domain: string | null;
  arbiter: boolean;
  reach: boolean;
}

export interface ViewContext extends PathContext {
  /** Loads the facts of the flow at an absolute path (in the pool). */
  flowFacts(path: string): Promise<FlowFacts>;
  /** The console's PATH, to find engine-proxy and stdio programs. */
  searchPath: string;
  /** The engine-proxy found beside the console at start, if any. */
  proxyBeside: string | null;
}

/** A path as a host gets it: `~/…` under home (home itself is `~`), else in full. */
export function hostDisplay(abs: string, home: string | null): string {
  if (home !== null) {
    if (abs === home) return '~';
    const prefix = home.endsWith(sep) ? home : home + sep;
    if (abs.startsWith(prefix)) return `~/${abs.slice(prefix.length).split(sep).join('/')}`;
  }
  return abs;
}

/** The absolute path a registry path resolves to, or null when it cannot be used. */
export function resolvedPath(p: string, ctx: PathContext): string | null {
  try {
    return resolveRequestPath(p, ctx);
  } catch {
    return null;
  }
}

/** A registry path as the host gets it: resolved and displayed, or as written when it does not resolve. */
function hostPath(p: string, ctx: PathContext): string {
  const abs = resolvedPath(p, ctx);
  return abs === null ? p : hostDisplay(abs, ctx.home);
}

/** The first `<dir>/<name>` on PATH that is a regular file (links followed), or null. */
export function which(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return null;
}

/** engine-proxy as this host should start it: by name from PATH (Claude Desktop: its full path), else found beside the console. */
export function proxyCommand(host: Host, ctx: Pick<ViewContext, 'searchPath' | 'proxyBeside'>): string {
  const onPath = which('engine-proxy', ctx.searchPath);
  if (onPath !== null) return host === 'claude-desktop' ? onPath : 'engine-proxy';
  return ctx.proxyBeside ?? 'engine-proxy';
}

export const NOT_LOADED: FlowFacts = { file: false, error: null, domain: null, arbiter: false, reach: false };

/** The facts of the entry's flow, or null when no flow is set or its path cannot be used. */
async function entryFlow(entry: ServerEntry, ctx: ViewContext): Promise<{ path: string; facts: FlowFacts } | null> {
  if (entry.flow === null) return null;
  const path = resolvedPath(entry.flow, ctx);
  if (path === null) return null;
  return { path, facts: await ctx.flowFacts(path) };
}

/** The setup `engine init` would build for this entry and host. */
export function serverSetup(entry: ServerEntry, proxy: string, flow: FlowFacts | null, ctx: PathContext): Setup {
  const record =
    entry.record_dir !== null
      ? hostPath(entry.record_dir, ctx)
      : hostDisplay(join(ctx.dataDir, entry.mode === 'shadow' ? 'shadow' : 'logs', entry.name), ctx.home);
  const facts = flow ?? NOT_LOADED;
  const loads = facts.file && facts.error === null;
  const served: ServedFlow | null =
    entry.flow !== null && entry.mode !== 'record'
      ? {
          path: hostPath(entry.flow, ctx),
          arbiter: loads && facts.arbiter,
          reach: !loads || facts.reach,
          shadow: entry.mode === 'shadow',
          decideWith: entry.decider,
          threshold: entry.threshold,
        }
      : null;
  const upstream = entry.upstream;
  return {
    domain: entry.name,
    record,
    flow: served,
    proxy,
    server: upstream.kind === 'stdio' ? upstream.command : [],
    upstream: upstream.kind === 'http' ? { url: upstream.url, headers: upstream.headers.map((h) => [h.name, h.env]) } : null,
  };
}

/** Whether a stdio program can be started by the host: an existing file when it has a path, else found on PATH. */
function programFound(program: string, searchPath: string): boolean {
  const components = program.split('/').filter((p) => p !== '').length + (program.startsWith('/') ? 1 : 0);
  if (components > 1) return statSync(program, { throwIfNoEntry: false })?.isFile() ?? false;
  return which(program, searchPath) !== null;
}

/** What is wrong with the entry, in the console's order and words. */
export function serverIssues(entry: ServerEntry, flow: { path: string; facts: FlowFacts } | null, ctx: ViewContext): string[] {
  const issues: string[] = [];
  if (entry.flow === null) {
    if (entry.mode !== 'record') issues.push(`mode is ${entry.mode} but no flow is set`);
  } else if (flow === null) {
    issues.push(`the flow's path cannot be used: ${entry.flow}`);
  } else if (!flow.facts.file) {
    issues.push(`flow not found: ${hostDisplay(flow.path, ctx.home)}`);
  } else if (flow.facts.error !== null) {
    issues.push(`the flow does not load: ${flow.facts.error}`);
  } else {
    const f = flow.facts;
    if (f.domain !== entry.name) {
      issues.push(`the flow's domain is ${f.domain ?? ''}, not ${entry.name}: learn it from this server's sessions`);
    }
    if (entry.decider === 'arbiter' && !f.arbiter) issues.push('decider is arbiter, but the flow has no arbiter');
    if (entry.decider === 'reach' && !f.reach) issues.push('decider is reach, but the flow holds no reach counts: learn it again');
    if (entry.mode === 'record') issues.push('mode is record, so the flow is not run: choose shadow or serve');
  }
  if (entry.upstream.kind === 'stdio') {
    const program = entry.upstream.command[0] ?? '';
    if (!programFound(program, ctx.searchPath)) issues.push(`${program} is not found on the console's PATH: the host must find it`);
  }
  return issues;
}

/** The snippet, placement and next steps `engine init --host {host} --domain {name}` prints for the entry. */
export async function hostConfig(entry: ServerEntry, host: Host, ctx: ViewContext): Promise<InitOutput> {
  const flow = await entryFlow(entry, ctx);
  const setup = serverSetup(entry, proxyCommand(host, ctx), flow?.facts ?? null, ctx);
  return initOutput(host, setup, entry.name);
}

/** One list item: the entry, its proxy argv (as for Claude Code), its sessions, its flow and its issues. */
export async function serverView(
  entry: ServerEntry,
  sessions: readonly SessionSummary[],
  flowSummary: (path: string) => Promise<FlowSummary | null>,
  ctx: ViewContext,
): Promise<ServerView> {
  const flow = await entryFlow(entry, ctx);
  const setup = serverSetup(entry, proxyCommand('claude-code', ctx), flow?.facts ?? null, ctx);
  const own = sessions.filter((s) => s.domain === entry.name);
  const last = own.reduce<number | null>((max, s) => (max === null || s.started_unix_ms > max ? s.started_unix_ms : max), null);
  // Only this version's fields are shown; fields of later versions stay in the file.
  const { extra: _extra, ...fields } = { extra: {}, ...entry };
  return {
    ...plainEntry(fields),
    proxy_args: proxyArgs(setup),
    sessions: own.length,
    last_session_unix_ms: last,
    flow_summary: flow?.facts.file ? await flowSummary(flow.path) : null,
    issues: serverIssues(entry, flow, ctx),
  };
}

/** Upstreams seen in session headers, grouped by domain and upstream, newest first. */
export function discoveredUpstreams(sessions: readonly SessionSummary[], registered: ReadonlySet<string>): DiscoveredUpstream[] {
  const groups = new Map<string, DiscoveredUpstream>();
  for (const s of sessions) {
    if (s.domain === null || s.upstream === null) continue;
    const id = JSON.stringify([s.domain, JSON.stringify(s.upstream)]);
    const group = groups.get(id);
    if (group) {
      group.sessions += 1;
      group.last_seen_unix_ms = Math.max(group.last_seen_unix_ms, s.started_unix_ms);
    } else {
      groups.set(id, { domain: s.domain, upstream: s.upstream, sessions: 1, last_seen_unix_ms: s.started_unix_ms, registered: registered.has(s.domain) });
    }
  }
  const byKey = (a: DiscoveredUpstream, b: DiscoveredUpstream) => {
    const ka = [a.domain, JSON.stringify(a.upstream)];
    const kb = [b.domain, JSON.stringify(b.upstream)];
    return compareText(ka[0]!, kb[0]!) || compareText(ka[1]!, kb[1]!);
  };
  return [...groups.values()].sort((a, b) => b.last_seen_unix_ms - a.last_seen_unix_ms || byKey(a, b));
}
