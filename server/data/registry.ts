// The server registry, servers.json: the one file the console owns (spec §2). It is read leniently (a missing
// file is an empty registry; missing optional fields default to null; fields of later versions are kept for
// the rewrite), validated by the CLI's rules (registry::validate), and written whole: pretty JSON to a temp
// file beside it, renamed over it. Every change is a read-modify-write under one in-process lock, so two
// requests at once never lose an update, and a kill at any moment leaves the old file or the new one.
import { readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import * as v from 'valibot';
import {
  REGISTRY_ARG_BYTES_MAX,
  REGISTRY_FILE_MAX_BYTES,
  REGISTRY_COMMAND_ARGS_MAX,
  REGISTRY_NAME_MAX,
} from '../../shared/limits.ts';
import { findCredential } from '../../shared/credentials.ts';
import {
  DescriptionSchema,
  FLOW_TOOLS_MAX,
  FlowToolsSchema,
  GuardedDomainSchema,
  JudgeContextSchema,
  ListenAddrSchema,
  ServerNameSchema,
  TokenFileSchema,
  ToolNameSchema,
} from '../../shared/server-entry-rules.ts';
import type { FlowSummary } from '../../shared/flows.ts';
import {
  POLICY_FIELDS,
  type Judge,
  type Listen,
  type PolicyField,
  type DiscoveredUpstream,
  type Host,
  SERVED_BY_SHOWN_MAX,
  type ServerEntry,
  type ServerFlowSummary,
  type ServerInput,
  type ServerView,
  type Upstream,
} from '../../shared/servers.ts';
import { checkHeaderName, checkUrl, checkVar, credentialArgumentMessage } from '../engine/credentials.ts';
import { compareText, debugString, display } from '../engine/format.ts';
import { initOutput, proxyArgs, proxyNote, type InitOutput, type ProxyFound, type ServedFlow, type Setup } from '../engine/init.ts';
import { type Tallied, Tallies, tallied, upstreamId } from '../engine/tallies.ts';
import type { PathLookup } from '../path-search.ts';
import { writeFileAtomic } from './atomic.ts';
import { trashRemovedServer, untrashRemovedServer } from './server-trash.ts';
import { mapInSlices, VIEW_SLICE } from './in-slices.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { PathError, resolveRequestPath, type PathContext } from './paths.ts';
import { errorText } from '../../shared/error-text.ts';
import { REGISTRY_FILE } from '../store/log-names.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { entriesOf, RegistryError, RegistryUnreadable, parseRegistry, type LoadedRegistry, type StoredEntry } from '../engine/registry-file.ts';
import { WorkerDied, type Pool } from '../workers/pool.ts';
export { RegistryError, RegistryUnreadable, parseRegistry, type LoadedRegistry, type StoredEntry } from '../engine/registry-file.ts';


type Json = Record<string, unknown>;

/** Every field the console manages, in the order a later engine writes them. */
const ENTRY_ORDER = [
  'name',
  'description',
  'upstream',
  'mode',
  'flow',
  'record_dir',
  'decider',
  'threshold',
  ...POLICY_FIELDS,
  'created_unix_ms',
  'updated_unix_ms',
] as const;

/** servers.json's stamp, or null when it is missing; a file past the bound is refused before it is read. */
async function registryStamp(path: string): Promise<string | null> {
  try {
    const st = await stat(path);
    if (st.size > REGISTRY_FILE_MAX_BYTES) {
      throw new RegistryUnreadable(`servers.json is ${(st.size / 1048576).toFixed(1)} MiB, more than the ${REGISTRY_FILE_MAX_BYTES / 1048576} MiB the console reads`);
    }
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch (e) {
    if (e instanceof RegistryError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new RegistryError(`reading servers.json: ${errorText(e)}`);
  }
}

/** Which version of servers.json is there now (null: none); changes whenever the file does. */
export function registryVersion(dataDir: string): Promise<string | null> {
  return registryStamp(join(dataDir, REGISTRY_FILE));
}

/** Reads `<dataDir>/servers.json`; a missing file is an empty registry. */
export async function loadRegistry(dataDir: string): Promise<LoadedRegistry> {
  const path = join(dataDir, REGISTRY_FILE);
  if ((await registryStamp(path)) === null) return { servers: [] };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [] };
    throw new RegistryError(`reading servers.json: ${errorText(e)}`);
  }
  return parseRegistry(text);
}

/** What reads servers.json for views: the worker pool (its registry task). */
export type RegistryPool = Pick<Pool, 'run'>;

/** servers.json read and checked in the pool, its entries taken a slice per turn of the event loop. */
async function readInPool(path: string, pool: RegistryPool): Promise<LoadedRegistry> {
  let read;
  try {
    read = await pool.run('registryTask', { path });
  } catch (e) {
    if (e instanceof WorkerDied) throw new RegistryUnreadable(`servers.json: ${e.message}`);
    throw e;
  }
  if (!read.ok) throw read.unreadable ? new RegistryUnreadable(read.message) : new RegistryError(read.message);
  const servers: StoredEntry[] = [];
  for (const slice of read.value.slices) {
    for (const entry of entriesOf(slice)) servers.push(entry);
    await nextTurn();
  }
  return { servers };
}

// The registry last read for views, by data directory: read again only when servers.json changed.
const forViews = new Map<string, { stamp: string; registry: Promise<LoadedRegistry> }>();

/**
 * The registry for reading only (never change what it answers; its entries carry no `raw`): one read per
 * version of servers.json, in the pool.
 */
export async function readRegistry(dataDir: string, pool: RegistryPool): Promise<LoadedRegistry> {
  const path = join(dataDir, REGISTRY_FILE);
  const stamp = await registryStamp(path);
  if (stamp === null) return { servers: [] };
  const kept = forViews.get(dataDir);
  if (kept?.stamp === stamp) return kept.registry;
  // Kept under the stamp taken before the read: a file replaced meanwhile is read again next time.
  const registry = readInPool(path, pool);
  forViews.set(dataDir, { stamp, registry });
  registry.catch(() => forViews.get(dataDir)?.registry === registry && forViews.delete(dataDir));
  return registry;
}

/**
 * `raw` with `values` set: a key it has keeps its place, a new one goes after the nearest key before it in
 * `order` (or first), and every key `values` does not name stays as it is.
 */
function mergeInPlace(raw: Json, values: Json, order: readonly string[]): Json {
  const keys = Object.keys(raw);
  for (const key of order) {
    if (!(key in values) || keys.includes(key)) continue;
    let at = 0;
    for (let i = order.indexOf(key) - 1; i >= 0; i--) {
      const before = keys.indexOf(order[i]!);
      if (before !== -1) {
        at = before + 1;
        break;
      }
    }
    keys.splice(at, 0, key);
  }
  const out: Json = {};
  for (const key of keys) out[key] = key in values ? values[key] : raw[key];
  return out;
}

const UPSTREAM_ORDER = { stdio: ['kind', 'command', 'env'], http: ['kind', 'url', 'headers'] } as const;

/** The upstream as written: the kind's fields set, other keys of the same kind's object kept. */
function upstreamObject(upstream: Upstream, raw: unknown): Json {
  const values: Json =
    upstream.kind === 'stdio'
      ? { kind: 'stdio', command: upstream.command, env: upstream.env }
      : { kind: 'http', url: upstream.url, headers: upstream.headers.map((h) => ({ name: h.name, env: h.env })) };
  const old = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as Json).kind === upstream.kind ? (raw as Json) : {};
  return mergeInPlace(old, values, UPSTREAM_ORDER[upstream.kind]);
}

/** The fields this console manages for an entry: the spec's, and each policy field the entry has. */
function managedValues(e: StoredEntry | ServerEntry): Json {
  const values: Json = {
    name: e.name,
    description: e.description,
    upstream: e.upstream,
    mode: e.mode,
    flow: e.flow,
    record_dir: e.record_dir,
    decider: e.decider,
    threshold: e.threshold,
  };
  for (const field of POLICY_FIELDS) if (e[field] !== undefined) values[field] = e[field];
  values.created_unix_ms = e.created_unix_ms;
  values.updated_unix_ms = e.updated_unix_ms;
  return values;
}

/** The policy fields the entry has, in their order (undefined when it has none). */
function policyPart(e: ServerEntry): Partial<Pick<ServerEntry, PolicyField>> | undefined {
  let out: Json | undefined;
  for (const field of POLICY_FIELDS) if (e[field] !== undefined) (out ??= {})[field] = e[field];
  return out;
}

/** The upstream's own fields, in the file's order. */
function plainUpstream(u: Upstream): Upstream {
  return u.kind === 'stdio'
    ? { kind: 'stdio', command: u.command, env: u.env }
    : { kind: 'http', url: u.url, headers: u.headers.map((h) => ({ name: h.name, env: h.env })) };
}

/**
 * The entry's fields in the file's order (ENTRY_ORDER) without keys it does not know, then `tail`'s. Built as
 * one literal: a list views every entry, and merging key lists cost more than the rest of a view.
 */
export function plainEntryWith<T extends object>(e: ServerEntry, tail: T): ServerEntry & T {
  return {
    name: e.name,
    description: e.description,
    upstream: plainUpstream(e.upstream),
    mode: e.mode,
    flow: e.flow,
    record_dir: e.record_dir,
    decider: e.decider,
    threshold: e.threshold,
    ...policyPart(e),
    created_unix_ms: e.created_unix_ms,
    updated_unix_ms: e.updated_unix_ms,
    ...tail,
  };
}

/** An entry as this console shows it: its fields in the file's order, without keys it does not know. */
export function plainEntry(e: StoredEntry | ServerEntry): ServerEntry {
  return plainEntryWith(e, {});
}

/** An entry as the file holds it: the managed fields set in place, every other key it was read with kept. */
function fileEntry(e: StoredEntry): Json {
  const raw = e.raw ?? {};
  const values = managedValues(e);
  values.upstream = upstreamObject(e.upstream, raw.upstream);
  return mergeInPlace(raw, values, ENTRY_ORDER);
}

/** The file's text: pretty JSON with two-space indents and a final newline; top-level keys it does not manage kept. */
export function registryText(registry: LoadedRegistry): string {
  const top = mergeInPlace(registry.raw ?? {}, { engine_servers: 1, servers: registry.servers.map(fileEntry) }, ['engine_servers', 'servers']);
  return `${JSON.stringify(top, null, 2)}\n`;
}

/** Writes the whole registry: temp file beside, fsync, rename. */
async function saveRegistry(dataDir: string, registry: LoadedRegistry): Promise<void> {
  try {
    await writeFileAtomic(join(dataDir, REGISTRY_FILE), registryText(registry));
  } catch (e) {
    throw new RegistryError(`writing servers.json: ${errorText(e)}`);
  }
}

// One lock for every change: changes run one after another in arrival order.
const changes = new KeyedQueue();
function withLock<T>(work: () => Promise<T>): Promise<T> {
  return changes.run(REGISTRY_FILE, work);
}


/** Why the proxy policy of `input` is refused, in the later engine's order, or null. Absent fields are not checked. */
function validatePolicy(input: ServerInput): string | null {
  const s = input.surprise;
  if (s && s.kind === 'threshold' && !(Number.isFinite(s.nats) && s.nats > 0)) {
    return `surprise ${display(s.nats)}: a threshold in nats, above 0`;
  }
  const tools = input.flow_tools ?? [];
  if (!v.is(FlowToolsSchema, tools)) return `flow_tools: at most ${FLOW_TOOLS_MAX} tools`;
  for (const tool of tools) {
    if (!v.is(ToolNameSchema, tool.trim())) return `flow_tools: ${debugString(tool)} is not a tool's name`;
  }
  if (input.guards === true && !v.is(GuardedDomainSchema, input.name)) {
    return `guards: there are no policy guards for ${input.name}; retail and airline have them`;
  }
  const judge = input.judge;
  if (judge) {
    if (input.guards === false) {
      return 'the confirmation judge asks about the writes the guards check: turn the guards on';
    }
    if (!v.is(JudgeContextSchema, judge.context)) return "the judge's context: the file the host appends the conversation to";
  }
  const days = input.retain_days;
  if (days !== undefined && days !== null) {
    if (days === 0) return 'retain_days: at least one day';
    if (!Number.isInteger(days) || days < 1) return `retain_days ${display(days)}: a whole number of days, at least one`;
  }
  const listen = input.listen;
  if (listen) {
    if (!v.is(ListenAddrSchema, listen.addr)) {
      return `listen: ${debugString(listen.addr)} is not an address to listen on: give a host and a port, such as 127.0.0.1:8931`;
    }
    if (!v.is(TokenFileSchema, listen.token_file ?? '')) {
      return "listen: the token file is the path of the file that holds the token hosts send";
    }
  }
  return null;
}

/**
 * Why the input is refused (400), checked in the CLI's order, or null. A field the input leaves out is not
 * checked (the merged entry is checked again). Values that look like secrets are never echoed.
 */
export function validateInput(input: ServerInput, ctx: PathContext): string | null {
  if (!v.is(ServerNameSchema, input.name)) {
    return `name ${debugString(input.name)}: the name is the server's in the host and the domain of its sessions and flows, so use a-z, 0-9, _ and -, starting with a letter or digit, at most ${REGISTRY_NAME_MAX}`;
  }
  if (typeof input.description === 'string' && !v.is(DescriptionSchema, input.description)) {
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
    const finding = findCredential(command);
    if (finding !== null) return credentialArgumentMessage(finding);
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
    if (raw === null || raw === undefined || raw.trim() === '') continue;
    try {
      resolveRequestPath(raw.trim(), ctx);
    } catch (e) {
      if (e instanceof PathError) return `${field}: ${e.message}`;
      throw e;
    }
  }
  const t = input.threshold;
  if (t !== null && t !== undefined && !(Number.isFinite(t) && t >= 0 && t <= 1)) return `threshold ${display(t)}: a probability, from 0 to 1`;
  return validatePolicy(input);
}

const blankToNull = (s: string | null | undefined) => {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  return t === '' ? null : t;
};

/** Whether a policy value is what an entry without the field means (no gate override, no tools, off, none). */
function isDefault(value: unknown): boolean {
  return value === null || value === false || (Array.isArray(value) && value.length === 0);
}

/** A policy field's value as stored: tool names, the judge's context, the listen address and token file trimmed. */
function storedPolicy(field: PolicyField, value: unknown): unknown {
  if (field === 'flow_tools') return (value as string[]).map((t) => t.trim()).filter((t) => t !== '');
  if (field === 'judge' && value) {
    const j = value as Judge;
    return { mode: j.mode, context: j.context.trim() };
  }
  if (field === 'listen' && value) {
    const l = value as Listen;
    const token = blankToNull(l.token_file);
    return token === null ? { addr: l.addr.trim() } : { addr: l.addr.trim(), token_file: token };
  }
  return value;
}

/**
 * The entry a valid input makes of `old` (none: a new server): each field the input sets, trimmed (blank text is
 * null), the others as they were. A policy field at its default is written only where the entry had it, so an
 * entry without the later fields stays one.
 */
function entryFromInput(input: ServerInput, old: StoredEntry | null, createdMs: number, nowMs: number): StoredEntry {
  const pick = <K extends 'description' | 'flow' | 'record_dir'>(k: K) => (input[k] === undefined ? (old?.[k] ?? null) : blankToNull(input[k]));
  const entry: StoredEntry = {
    name: input.name,
    description: pick('description'),
    upstream: input.upstream,
    mode: input.mode,
    flow: pick('flow'),
    record_dir: pick('record_dir'),
    decider: input.decider === undefined ? (old?.decider ?? null) : input.decider,
    threshold: input.threshold === undefined ? (old?.threshold ?? null) : input.threshold,
    created_unix_ms: createdMs,
    updated_unix_ms: nowMs,
  };
  const raw = old?.raw ?? {};
  for (const field of POLICY_FIELDS) {
    const given = input[field];
    if (given === undefined) {
      if (old?.[field] !== undefined) (entry as Json)[field] = old[field];
      continue;
    }
    const value = storedPolicy(field, given);
    if (!isDefault(value) || field in raw) (entry as Json)[field] = value;
  }
  if (old?.raw) entry.raw = old.raw;
  return entry;
}

/** The entry as a complete input: every policy field known (absent is its default), for the merged check. */
function asInput(e: ServerEntry): ServerInput {
  return {
    ...plainEntry(e),
    surprise: e.surprise ?? null,
    flow_tools: e.flow_tools ?? [],
    guards: e.guards ?? false,
    judge: e.judge ?? null,
    commit: e.commit ?? false,
    retain_days: e.retain_days ?? null,
    listen: e.listen ?? null,
  };
}

const serverTaken = (name: string) => `a server named ${debugString(name)} is registered already`;
export const noServer = (name: string) => `no server ${debugString(name)}`;

/** What a change came to: done with the entry, or refused with the status's reason. */
export type Change =
  | { ok: true; entry: StoredEntry }
  | { ok: false; reason: 'invalid' | 'missing' | 'taken'; message: string };

export interface ChangeContext extends PathContext {
  nowMs: number;
}

/** POST: validate, then under the lock: load, refuse a taken name, append, save. */
export function addServer(input: ServerInput, ctx: ChangeContext): Promise<Change> {
  const invalid = validateInput(input, ctx) ?? validateInput(asInput(entryFromInput(input, null, 0, 0)), ctx);
  if (invalid) return Promise.resolve({ ok: false, reason: 'invalid', message: invalid });
  return withLock(async () => {
    const registry = await loadRegistry(ctx.dataDir);
    if (registry.servers.some((s) => s.name === input.name)) {
      return { ok: false, reason: 'taken', message: serverTaken(input.name) };
    }
    const entry = entryFromInput(input, null, ctx.nowMs, ctx.nowMs);
    registry.servers.push(entry);
    await saveRegistry(ctx.dataDir, registry);
    return { ok: true, entry };
  });
}

/**
 * PUT: validate what the body says, then under the lock: the entry must exist; a new name must be free; the
 * entry the body makes of it (fields it leaves out kept) is checked whole, then replaces it in place.
 */
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
    const entry = entryFromInput(input, old, old.created_unix_ms, ctx.nowMs);
    const whole = validateInput(asInput(entry), ctx);
    if (whole) return { ok: false, reason: 'invalid', message: whole };
    registry.servers[at] = entry;
    await saveRegistry(ctx.dataDir, registry);
    return { ok: true, entry };
  });
}

/**
 * DELETE: under the lock, remove every entry of that name, kept in the trash first (a kill in between leaves
 * it in both, never in neither); sessions and flows stay.
 */
export function removeServer(name: string, ctx: ChangeContext): Promise<{ ok: true } | { ok: false; message: string }> {
  return withLock(async () => {
    const registry = await loadRegistry(ctx.dataDir);
    const kept = registry.servers.filter((s) => s.name !== name);
    if (kept.length === registry.servers.length) return { ok: false, message: noServer(name) };
    const removed = registry.servers.filter((s) => s.name === name);
    const trashed = await trashRemovedServer(ctx.dataDir, registryText({ servers: removed }), ctx.nowMs);
    try {
      await saveRegistry(ctx.dataDir, { ...registry, servers: kept });
    } catch (err) {
      await untrashRemovedServer(trashed);
      throw err;
    }
    return { ok: true };
  });
}

/** A removed server cannot go back: one of that name is registered again. */
export class ServerTakenAgain extends Error {}

/**
 * Puts removed entries (a trash file's registry text) back at the end of servers.json, under the lock and
 * written whole; refuses, changing nothing, while a server of one of their names is registered.
 */
export function restoreRemovedServers(dataDir: string, text: string): Promise<string[]> {
  const removed = parseRegistry(text).servers;
  return withLock(async () => {
    const registry = await loadRegistry(dataDir);
    const taken = removed.find((r) => registry.servers.some((s) => s.name === r.name));
    if (taken) {
      throw new ServerTakenAgain(`a server named ${debugString(taken.name)} is registered again: remove or rename it first, then restore`);
    }
    await saveRegistry(dataDir, { ...registry, servers: [...registry.servers, ...removed] });
    return removed.map((r) => r.name);
  });
}

/** The registered entry of that name, or undefined. */
export async function findServer(dataDir: string, pool: RegistryPool, name: string): Promise<StoredEntry | undefined> {
  return (await readRegistry(dataDir, pool)).servers.find((s) => s.name === name);
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
  /** The console's PATH, to find engine-proxy and stdio programs (each distinct name looked up once). */
  lookup: PathLookup;
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

// Each view context resolves a distinct registry path once (resolving looks at the disk, without waiting).
const viewResolved = new WeakMap<ViewContext, Map<string, string | null>>();

/** resolvedPath, once per distinct path in one view context. */
function resolvedIn(p: string, ctx: ViewContext): string | null {
  let memo = viewResolved.get(ctx);
  if (memo === undefined) viewResolved.set(ctx, (memo = new Map()));
  let abs = memo.get(p);
  if (abs === undefined) memo.set(p, (abs = resolvedPath(p, ctx)));
  return abs;
}

/** A registry path as the host gets it: resolved and displayed, or as written when it does not resolve. */
function hostPath(p: string, ctx: ViewContext): string {
  const abs = resolvedIn(p, ctx);
  return abs === null ? p : hostDisplay(abs, ctx.home);
}

/** engine-proxy as this host should start it: by name from PATH (Claude Desktop: its full path), else found beside the console. */
export async function proxyCommand(host: Host, ctx: Pick<ViewContext, 'lookup' | 'proxyBeside'>): Promise<string> {
  return (await proxyChoice(host, ctx)).command;
}

/** The proxy command for this host, and where it was found. */
async function proxyChoice(host: Host, ctx: Pick<ViewContext, 'lookup' | 'proxyBeside'>): Promise<{ command: string; found: ProxyFound }> {
  const onPath = await ctx.lookup.find('engine-proxy');
  if (onPath !== null) return { command: host === 'claude-desktop' ? onPath : 'engine-proxy', found: 'path' };
  return ctx.proxyBeside === null ? { command: 'engine-proxy', found: 'nowhere' } : { command: ctx.proxyBeside, found: 'beside' };
}

export const NOT_LOADED: FlowFacts = { file: false, error: null, domain: null, arbiter: false, reach: false };

/** The facts of the entry's flow, or null when no flow is set or its path cannot be used. */
async function entryFlow(entry: ServerEntry, ctx: ViewContext): Promise<{ path: string; facts: FlowFacts } | null> {
  if (entry.flow === null) return null;
  const path = resolvedIn(entry.flow, ctx);
  if (path === null) return null;
  return { path, facts: await ctx.flowFacts(path) };
}

// Each view context shows the two default record folders once; an entry's is one of them and its name.
const viewRecordDirs = new WeakMap<ViewContext, { logs: string; shadow: string }>();

/** Where the proxy records the entry's sessions when it names no folder, as the host gets it. */
function defaultRecord(entry: ServerEntry, ctx: ViewContext): string {
  const sub = entry.mode === 'shadow' ? 'shadow' : 'logs';
  const name = entry.name;
  // A name that is not one plain path segment is joined (and normalized) the long way.
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes(sep)) {
    return hostDisplay(join(ctx.dataDir, sub, name), ctx.home);
  }
  let dirs = viewRecordDirs.get(ctx);
  if (dirs === undefined) {
    const shownDir = (d: string) => hostDisplay(join(ctx.dataDir, d), ctx.home);
    viewRecordDirs.set(ctx, (dirs = { logs: shownDir('logs'), shadow: shownDir('shadow') }));
  }
  return `${dirs[sub]}/${name}`;
}

/** The setup `engine init` would build for this entry and host. */
function serverSetup(entry: ServerEntry, proxy: string, flow: FlowFacts | null, ctx: ViewContext): Setup {
  const record = entry.record_dir !== null ? hostPath(entry.record_dir, ctx) : defaultRecord(entry, ctx);
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
          surprise: entry.surprise ? (entry.surprise.kind === 'off' ? 'off' : entry.surprise.nats) : null,
          tools: entry.flow_tools ?? [],
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
    policy: {
      guards: entry.guards ?? false,
      judge: entry.judge ? { enforce: entry.judge.mode === 'enforce', context: entry.judge.context } : null,
      commit: entry.commit ?? false,
      retainDays: entry.retain_days ?? null,
    },
    listen: entry.listen
      ? { addr: entry.listen.addr, tokenFile: entry.listen.token_file ? hostPath(entry.listen.token_file, ctx) : null }
      : null,
  };
}

/** Whether a stdio program can be started by the host: an existing file when it has a path, else found on PATH. */
async function programFound(program: string, lookup: PathLookup): Promise<boolean> {
  const components = program.split('/').filter((p) => p !== '').length + (program.startsWith('/') ? 1 : 0);
  if (components > 1) return lookup.fileAt(program);
  return (await lookup.find(program)) !== null;
}

/** What the views of some entries look at on disk, each distinct thing once, in hand before any is viewed. */
export interface LookedAhead {
  /** engine-proxy as Claude Code starts it. */
  proxy: string;
  /** A flow's facts by its resolved path. */
  flows: Map<string, FlowFacts>;
  /** Whether a stdio program is found, by the program as written. */
  programs: Map<string, boolean>;
  /** The flows list's summary by resolved path (served_by cut short), for flows that are files. */
  summaries: Map<string, ServerFlowSummary | null>;
}

/** The summary with its served_by cut to SERVED_BY_SHOWN_MAX names and the rest counted. */
function servedByShort(summary: FlowSummary): ServerFlowSummary {
  const shown = summary.served_by.slice(0, SERVED_BY_SHOWN_MAX);
  return { ...summary, served_by: shown, served_by_more: summary.served_by.length - shown.length };
}

/** Waits for every value in `pending` and answers them by key. */
async function settled<T>(pending: Map<string, Promise<T>>): Promise<Map<string, T>> {
  const keys = [...pending.keys()];
  const values = await Promise.all(pending.values());
  return new Map(keys.map((k, i) => [k, values[i]!]));
}

/**
 * Looks up everything the views of `entries` need, each distinct flow and program once and all at once,
 * so that viewing them afterwards is plain computing (entries are gone through in slices).
 */
export async function lookAhead(
  entries: readonly ServerEntry[],
  ctx: ViewContext,
  flowSummary: (path: string) => Promise<FlowSummary | null> = async () => null,
): Promise<LookedAhead> {
  const flows = new Map<string, Promise<FlowFacts>>();
  const programs = new Map<string, Promise<boolean>>();
  await mapInSlices(entries, VIEW_SLICE, async (entry) => {
    const path = entry.flow === null ? null : resolvedIn(entry.flow, ctx);
    if (path !== null && !flows.has(path)) flows.set(path, ctx.flowFacts(path));
    const program = entry.upstream.kind === 'stdio' ? (entry.upstream.command[0] ?? '') : null;
    if (program !== null && !programs.has(program)) programs.set(program, programFound(program, ctx.lookup));
  });
  const [proxy, facts, found] = await Promise.all([proxyCommand('claude-code', ctx), settled(flows), settled(programs)]);
  const summaries = new Map<string, Promise<ServerFlowSummary | null>>();
  for (const [path, f] of facts) if (f.file) summaries.set(path, flowSummary(path).then((s) => s && servedByShort(s)));
  return { proxy, flows: facts, programs: found, summaries: await settled(summaries) };
}

/** What is wrong with the entry, in the console's order and words. */
function serverIssues(entry: ServerEntry, flow: { path: string; facts: FlowFacts } | null, looked: LookedAhead, ctx: ViewContext): string[] {
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
    if (looked.programs.get(program) !== true) issues.push(`${program} is not found on the console's PATH: the host must find it`);
  }
  return issues;
}

/** The snippet, placement and next steps `engine init --host {host} --domain {name}` prints for the entry. */
export async function hostConfig(entry: ServerEntry, host: Host, ctx: ViewContext): Promise<InitOutput & { proxy_note: string | null }> {
  const flow = await entryFlow(entry, ctx);
  const proxy = await proxyChoice(host, ctx);
  const setup = serverSetup(entry, proxy.command, flow?.facts ?? null, ctx);
  return { ...initOutput(host, setup, entry.name), proxy_note: proxyNote(proxy.found) };
}

/** How many sessions a domain has and when the newest started (the store counts them once per version). */
export interface DomainSessions {
  count: number;
  last_unix_ms: number | null;
}

/** One list item, from what was looked up ahead: the entry, its proxy argv (as for Claude Code), its sessions, its flow and its issues. */
export function viewOf(entry: ServerEntry, sessions: DomainSessions, looked: LookedAhead, ctx: ViewContext): ServerView {
  const flow = lookedFlow(entry, looked, ctx);
  const setup = serverSetup(entry, looked.proxy, flow?.facts ?? null, ctx);
  // The fields this console understands are shown; keys it does not know stay in the file.
  return plainEntryWith(entry, {
    proxy_args: proxyArgs(setup),
    sessions: sessions.count,
    last_session_unix_ms: sessions.last_unix_ms,
    flow_summary: flow?.facts.file ? (looked.summaries.get(flow.path) ?? null) : null,
    issues: serverIssues(entry, flow, looked, ctx),
  });
}

/** The entry's flow as looked up ahead, or null when no flow is set or its path cannot be used. */
function lookedFlow(entry: ServerEntry, looked: LookedAhead, ctx: ViewContext): { path: string; facts: FlowFacts } | null {
  const path = entry.flow === null ? null : resolvedIn(entry.flow, ctx);
  const facts = path === null ? undefined : looked.flows.get(path);
  return path === null || facts === undefined ? null : { path, facts };
}

/** What is wrong with the entry (its view's `issues`), from what was looked up ahead. */
export function issuesOf(entry: ServerEntry, looked: LookedAhead, ctx: ViewContext): string[] {
  return serverIssues(entry, lookedFlow(entry, looked, ctx), looked, ctx);
}

/** One server's view, looked up on its own. */
export async function serverView(
  entry: ServerEntry,
  sessions: DomainSessions,
  flowSummary: (path: string) => Promise<FlowSummary | null>,
  ctx: ViewContext,
): Promise<ServerView> {
  return viewOf(entry, sessions, await lookAhead([entry], ctx, flowSummary), ctx);
}

/** Upstreams seen in session headers, grouped by domain and upstream, newest first. */
export function discoveredUpstreams(sessions: Tallies | readonly Tallied[], registered: ReadonlySet<string>): DiscoveredUpstream[] {
  const groups = new Map<string, DiscoveredUpstream>();
  for (const c of tallied(sessions).cells()) {
    if (c.domain === null || c.upstream === null) continue;
    const id = `${c.domain}\u0000${upstreamId(c.upstream)}`;
    const group = groups.get(id);
    if (group) {
      group.sessions += c.sessions;
      group.last_seen_unix_ms = Math.max(group.last_seen_unix_ms, c.last);
    } else {
      groups.set(id, { domain: c.domain, upstream: c.upstream, sessions: c.sessions, last_seen_unix_ms: c.last, registered: registered.has(c.domain) });
    }
  }
  const byKey = (a: DiscoveredUpstream, b: DiscoveredUpstream) => {
    const ka = [a.domain, JSON.stringify(a.upstream)];
    const kb = [b.domain, JSON.stringify(b.upstream)];
    return compareText(ka[0]!, kb[0]!) || compareText(ka[1]!, kb[1]!);
  };
  return [...groups.values()].sort((a, b) => b.last_seen_unix_ms - a.last_seen_unix_ms || byKey(a, b));
}
