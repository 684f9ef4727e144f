// The server registry, servers.json: the one file the console owns (spec §2). It is read leniently (a missing
// file is an empty registry; missing optional fields default to null; fields of later versions are kept for
// the rewrite), validated by the CLI's rules (registry::validate), and written whole: pretty JSON to a temp
// file beside it, renamed over it. Every change is a read-modify-write under one in-process lock, so two
// requests at once never lose an update, and a kill at any moment leaves the old file or the new one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import {
  REGISTRY_ARG_BYTES_MAX,
  REGISTRY_COMMAND_ARGS_MAX,
  REGISTRY_DESCRIPTION_MAX,
  REGISTRY_NAME_MAX,
} from '../../shared/limits.ts';
import {
  DeciderNameSchema,
  ServerModeSchema,
  type ServerEntry,
  type ServerInput,
  type Upstream,
} from '../../shared/servers.ts';
import {
  checkHeaderName,
  checkUrl,
  checkVar,
  credentialArgument,
  credentialArgumentMessage,
} from '../engine/credentials.ts';
import { debugString, display } from '../engine/format.ts';
import { writeFileAtomic } from './atomic.ts';
import { PathError, resolveRequestPath, type PathContext } from './paths.ts';

export const REGISTRY_FILE = 'servers.json';

/** servers.json could not be read as a registry: every servers endpoint answers 500 with this message. */
export class RegistryError extends Error {}

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
    throw new RegistryError(`servers.json is not a server registry: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RegistryError('servers.json is not a server registry: expected a JSON object with `engine_servers`');
  }
  const format = (value as Record<string, unknown>).engine_servers;
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 0 || format > 0xffffffff) {
    throw new RegistryError(
      format === undefined
        ? 'servers.json is not a server registry: missing field `engine_servers`'
        : 'servers.json is not a server registry: `engine_servers` is not a format number',
    );
  }
  if (format !== 1) throw new RegistryError(`servers.json is format ${format}; this build reads 1`);
  const parsed = v.safeParse(FileSchema, value);
  if (!parsed.success) throw new RegistryError(`servers.json: servers.${issueText(parsed.issues)}`);
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
    text = await readFile(join(dataDir, REGISTRY_FILE), 'utf8');
  } catch (e) {
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
