// The add/edit server form's logic, without a DOM: shell words in and out of the command box, the checks
// the registry makes (so a user sees them before saving, in the same order and wording where the server's
// message is friendly enough; the credential rules themselves are shared/credentials.ts, the server's own),
// the live `engine-proxy` command-line preview, and the request body.
import * as v from 'valibot';
import { credentialArgument, isHeaderName, isVarName, namesSecret, urlRefusal } from '../../../shared/credentials.ts';
import type { DeciderName } from '../../../shared/flows.ts';
import { REGISTRY_NAME_MAX } from '../../../shared/limits.ts';
import {
  DescriptionSchema,
  FLOW_TOOLS_MAX,
  FlowToolsSchema,
  GuardedDomainSchema,
  JudgeContextSchema,
  ListenAddrSchema,
  ToolNameSchema,
} from '../../../shared/server-entry-rules.ts';
import type { PolicyFields, ServerMode } from '../../../shared/servers.ts';

export type Mode = ServerMode;
export type UpstreamKind = 'stdio' | 'http';

export interface HeaderRow {
  name: string;
  env: string;
}

/** What the form holds: text as typed, so a half-typed threshold or command is kept as is. */
export interface FormState {
  name: string;
  description: string;
  kind: UpstreamKind;
  command: string;
  env: string[];
  url: string;
  headers: HeaderRow[];
  mode: Mode;
  flow: string;
  decider: DeciderName | '';
  threshold: string;
  recordDir: string;
  // The proxy's policy (a later engine's registry fields).
  surprise: '' | 'off' | 'threshold';
  surpriseNats: string;
  /** Tool names, separated by commas or spaces. */
  flowTools: string;
  guards: boolean;
  judge: '' | 'log' | 'enforce';
  judgeContext: string;
  commit: boolean;
  retainDays: string;
  listenAddr: string;
  listenTokenFile: string;
}

export function emptyForm(): FormState {
  return {
    name: '', description: '', kind: 'stdio', command: '', env: [], url: '', headers: [], mode: 'record',
    flow: '', decider: '', threshold: '', recordDir: '',
    surprise: '', surpriseNats: '', flowTools: '', guards: false, judge: '', judgeContext: '', commit: false, retainDays: '',
    listenAddr: '', listenTokenFile: '',
  };
}

export type SplitResult = { ok: true; words: string[] } | { ok: false; error: string };

/**
 * POSIX-like word splitting: whitespace separates words; single quotes keep everything; double quotes keep
 * everything but `\"`, `\\`, `\$` and `` \` ``; an unquoted backslash escapes the next character.
 */
export function splitShell(text: string): SplitResult {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return { ok: false, error: 'A single quote is not closed.' };
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      let closed = false;
      while (i < text.length) {
        const c = text[i]!;
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) {
          word += text[i + 1];
          i += 2;
          continue;
        }
        word += c;
        i++;
      }
      if (!closed) return { ok: false, error: 'A double quote is not closed.' };
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 < text.length) word += text[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return { ok: true, words };
}

const BARE = /^[A-Za-z0-9\-_./:=@%+,~]+$/;
const PLACEHOLDER = /^[A-Za-z0-9\-_./:=@%+,~]*<[a-z -]+>[A-Za-z0-9\-_./:=@%+,~]*$/;

/** A word as a shell reads it back: bare when safe, a `<placeholder>` bare, else single-quoted. */
export function shellQuote(word: string): string {
  if (word !== '' && (BARE.test(word) || PLACEHOLDER.test(word))) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

export function commandText(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

const NAME = /^[a-z0-9_-]+$/;

export function nameError(name: string, taken: readonly string[], isNew: boolean): string | null {
  const n = name.trim();
  if (n === '') return 'Give the server a name.';
  if (n.length > REGISTRY_NAME_MAX) return `Keep the name to ${REGISTRY_NAME_MAX} characters.`;
  if (!NAME.test(n)) return 'Use lowercase letters, digits, - and _.';
  // The registry refuses a leading - or _: the name starts with a letter or a digit.
  if (n.startsWith('-') || n.startsWith('_')) return 'Start with a letter or a digit.';
  if (isNew && taken.includes(n)) return `A server named ${n} exists.`;
  return null;
}

export function envNameError(name: string): string | null {
  if (name.trim() === '') return 'Name the variable.';
  if (!isVarName(name)) {
    return `${name} is not a variable name: letters, digits and _, not starting with a digit.`;
  }
  return null;
}

export function headerNameError(name: string): string | null {
  if (!isHeaderName(name)) return `${name} is not a header name.`;
  return null;
}

export function urlError(raw: string): string | null {
  const u = raw.trim();
  if (u === '') return 'Give the server’s URL.';
  try {
    new URL(u);
  } catch {
    return 'That is not a URL.';
  }
  const refusal = urlRefusal(u);
  switch (refusal?.kind) {
    case undefined:
      return null;
    case 'scheme':
      return 'Use an http:// or https:// URL.';
    case 'too-long-or-whitespace':
      return 'The URL is too long or holds whitespace.';
    case 'no-host':
      return 'The URL names no host.';
    case 'user-part':
      return 'Leave credentials out of the URL: send them in a header from a variable.';
    case 'credential-parameter':
      return `The URL’s parameter ${refusal.name} looks like a credential: send it in a header, from a variable.`;
  }
}

export function commandError(command: string): string | null {
  const split = splitShell(command);
  if (!split.ok) return split.error;
  if (split.words.length === 0 || split.words[0]!.trim() === '') return 'Give the command that starts the server.';
  const at = credentialArgument(split.words);
  if (at !== null) {
    return `Word ${at + 1} of the command looks like a credential: pass it through an environment variable, and list the variable’s name below.`;
  }
  return null;
}

/** What stands for a refused credential wherever the command is shown: never the value itself. */
export const HIDDEN = '<credential hidden>';

/** The words with the one that looks like a credential hidden (`--token=<credential hidden>` keeps its name). */
export function maskCredential(words: readonly string[]): string[] {
  const at = credentialArgument(words);
  if (at === null) return [...words];
  const out = [...words];
  const word = out[at]!;
  const eq = word.indexOf('=');
  out[at] = eq !== -1 && !/^authorization:/i.test(word) && !/bearer /i.test(word) ? `${word.slice(0, eq + 1)}${HIDDEN}` : HIDDEN;
  return out;
}

/** A variable name from words: upper case, runs of anything else one `_`. */
function varName(...parts: string[]): string {
  const name = parts
    .map((p) => p.replace(/^-+/, '').toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, ''))
    .filter((p) => p !== '')
    .join('_');
  return /^[0-9]/.test(name) || name === '' ? `SERVER_${name}` : name;
}

/** A word inside double quotes for sh: `"`, `\`, `$` and `` ` `` escaped. */
const dq = (text: string) => text.replace(/["\\$`]/g, (c) => `\\${c}`);

/** How to give a server the credential a command held, in a way the registry accepts. */
export interface CredentialAdvice {
  /** The 1-based word that looked like a credential. */
  word: number;
  /** The variable that will hold it, in the host's env for the server. */
  variable: string;
  /** The server reads the variable itself: the command without the word is all it takes. */
  withoutWord: string[] | null;
  /** A wrapper script that puts the variable where the word was. */
  script: string;
  /** Where to save it: in the data directory, by its absolute path (the host starts it without a shell). */
  scriptPath: string;
  /** The same as one `sh -c` command, when the registry accepts that too (checked with its own rule). */
  oneLine: string[] | null;
}

/** Advice for a command with a credential in it (null when it has none). `dataDir`: the console's, absolute. */
export function credentialAdvice(words: readonly string[], dataDir: string): CredentialAdvice | null {
  const at = credentialArgument(words);
  if (at === null) return null;
  const word = words[at]!;
  const program = (words[0] ?? 'server').split('/').pop() || 'server';
  const base = program.replace(/\.[a-z]+$/i, '').replace(/[^A-Za-z0-9_-]+/g, '-') || 'server';
  let variable: string;
  let replacement: string;
  let withoutWord: string[] | null = null;
  const bearer = /bearer /i.exec(word);
  const header = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*:\s*/.exec(word);
  const eq = word.indexOf('=');
  if (bearer || /^authorization:/i.test(word)) {
    variable = varName(base, 'auth');
    const prefix = bearer ? word.slice(0, bearer.index + bearer[0].length) : (/^authorization:\s*/i.exec(word)?.[0] ?? '');
    replacement = `"${dq(prefix)}$${variable}"`;
  } else if (header && namesSecret(header[1]!)) {
    // A header named like a secret keeps its name: only its value comes from the variable.
    variable = varName(base, header[1]!);
    replacement = `"${dq(header[0])}$${variable}"`;
  } else if (eq !== -1) {
    const name = word.slice(0, eq);
    if (isVarName(name)) {
      // `NAME=value` sets a variable the server reads: list NAME instead, and the host sets it.
      variable = name;
      const rest = words.filter((_, i) => i !== at);
      withoutWord = rest[0] === 'env' && rest.length === 1 ? [] : rest;
    } else {
      variable = varName(base, name);
    }
    replacement = `${shellQuote(`${name}=`)}"$${variable}"`;
  } else {
    variable = varName(base, words[at - 1] ?? 'key');
    replacement = `"$${variable}"`;
  }
  const line = `exec ${words.map((w, i) => (i === at ? replacement : shellQuote(w))).join(' ')}`;
  const oneLine = ['sh', '-c', line];
  return {
    word: at + 1,
    variable,
    withoutWord: withoutWord && withoutWord.length > 0 && credentialArgument(withoutWord) === null ? withoutWord : null,
    script: `#!/bin/sh\n# Starts ${program} with ${variable} from the environment the host gives it.\n${line}\n`,
    scriptPath: `${dataDir.replace(/\/+$/, '')}/bin/${base}.sh`,
    oneLine: credentialArgument(oneLine) === null ? oneLine : null,
  };
}

export function thresholdValue(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

/** The tool names in the form's box: split at commas and whitespace. */
export function toolNames(text: string): string[] {
  return text.split(/[\s,]+/).filter((t) => t !== '');
}


/** The policy's problems, by field, as the registry checks them. */
export function policyErrors(form: FormState): ServerFieldErrors {
  const errors: ServerFieldErrors = {};
  const runsFlow = form.mode !== 'record';
  if (runsFlow && form.surprise === 'threshold') {
    const nats = Number(form.surpriseNats);
    if (form.surpriseNats.trim() === '' || !Number.isFinite(nats) || nats <= 0) errors.surprise = 'A surprise threshold is a number of nats above 0.';
  }
  if (runsFlow) {
    const tools = toolNames(form.flowTools);
    if (!v.is(FlowToolsSchema, tools)) errors.flowTools = `Name at most ${FLOW_TOOLS_MAX} tools.`;
    const bad = tools.find((t) => !v.safeParse(ToolNameSchema, t).success);
    if (bad !== undefined) errors.flowTools = `${bad.slice(0, 40)} is not a tool’s name.`;
  }
  if (form.guards && !v.is(GuardedDomainSchema, form.name.trim())) {
    errors.guards = `There are no policy guards for ${form.name.trim() || 'this name'}: retail and airline have them.`;
  }
  if (form.judge !== '') {
    if (!form.guards) errors.judge = 'The judge asks about the writes the guards check: turn the guards on.';
    else if (!v.is(JudgeContextSchema, form.judgeContext)) errors.judge = 'Give the file the host appends the conversation to.';
  }
  const days = form.retainDays.trim();
  if (days !== '' && !(/^\d+$/.test(days) && Number(days) >= 1)) errors.retainDays = 'Keep sessions a whole number of days, at least one.';
  const addr = form.listenAddr.trim();
  if (addr !== '') {
    if (!v.is(ListenAddrSchema, addr)) errors.listen = 'Give a host and a port, such as 127.0.0.1:8931.';
  } else if (form.listenTokenFile.trim() !== '') {
    errors.listen = 'A token file is for a proxy that listens: give its address too.';
  }
  return errors;
}

export type ServerFieldErrors = Partial<
  Record<
    'name' | 'description' | 'command' | 'env' | 'url' | 'headers' | 'flow' | 'threshold' | 'surprise' | 'flowTools' | 'guards' | 'judge' | 'retainDays' | 'listen',
    string
  >
> & {
  /** Per header row: the first problem in it. */
  headerRows?: (string | null)[];
};

/** Every problem with the form, by field; empty when it can be sent. */
export function validateForm(form: FormState, taken: readonly string[], isNew: boolean): ServerFieldErrors {
  const errors: ServerFieldErrors = {};
  const name = nameError(form.name, taken, isNew);
  if (name) errors.name = name;
  if (!v.is(DescriptionSchema, form.description)) errors.description = 'Keep the description to 1,000 characters.';
  if (form.kind === 'stdio') {
    const command = commandError(form.command);
    if (command) errors.command = command;
    const badEnv = form.env.map(envNameError).find((e) => e !== null);
    if (badEnv) errors.env = badEnv;
  } else {
    const url = urlError(form.url);
    if (url) errors.url = url;
    const rows = form.headers.map((h) => {
      if (h.name.trim() === '' && h.env.trim() === '') return null;
      return headerNameError(h.name.trim()) ?? envNameError(h.env.trim());
    });
    if (rows.some((r) => r !== null)) {
      errors.headerRows = rows;
      errors.headers = rows.find((r) => r !== null) ?? undefined;
    }
  }
  if (form.mode !== 'record' && form.flow.trim() === '') {
    errors.flow = form.mode === 'shadow' ? 'Shadow mode runs a flow: choose one.' : 'Serving runs a flow: choose one.';
  }
  if (form.mode !== 'record') {
    const t = thresholdValue(form.threshold);
    if (t !== null && (!Number.isFinite(t) || t < 0 || t > 1)) errors.threshold = 'A threshold is between 0 and 1.';
  }
  return { ...errors, ...policyErrors(form) };
}

export function hasErrors(errors: ServerFieldErrors): boolean {
  return Object.entries(errors).some(([k, v]) => (k === 'headerRows' ? false : v !== undefined));
}

/** Where the proxy records by default, as the registry would write it. */
export function defaultRecordDir(dataDirShown: string, name: string, mode: Mode): string {
  const base = dataDirShown.replace(/\/+$/, '');
  return `${base}/${mode === 'shadow' ? 'shadow' : 'logs'}/${name.trim() === '' ? '<name>' : name.trim()}`;
}

/** The data directory as the CLI shows it: `~/.engine` for the usual place, else in full. */
export function shownDataDir(dataDir: string): string {
  return /\/\.engine\/?$/.test(dataDir) ? '~/.engine' : dataDir.replace(/\/+$/, '');
}

/** A path as the proxy would be given it: one relative to the data directory is shown inside it. */
export function shownPath(path: string, dataDirShown: string): string {
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:[\\/]/.test(path)) return path;
  return `${dataDirShown.replace(/\/+$/, '')}/${path.replace(/^\.\//, '')}`;
}

/** A number as the proxy's argv has it (Rust's Display: `0.5`, `1`). */
export function formatArgNumber(n: number): string {
  return String(n);
}

/** The proxy's argv as the form stands, placeholders where a field is still empty. */
export function previewArgs(form: FormState, dataDirShown: string): string[] {
  const name = form.name.trim();
  const record = form.recordDir.trim();
  const args = ['--record', record ? shownPath(record, dataDirShown) : defaultRecordDir(dataDirShown, name, form.mode), '--domain', name || '<name>'];
  const flow = form.flow.trim();
  if (form.mode !== 'record' && flow !== '') {
    args.push('--flow', shownPath(flow, dataDirShown));
    if (form.decider !== '') args.push('--flow-decider', form.decider);
    const t = thresholdValue(form.threshold);
    if (t !== null && Number.isFinite(t)) args.push('--flow-threshold', formatArgNumber(t));
    if (form.surprise === 'off') args.push('--flow-surprise', 'off');
    if (form.surprise === 'threshold') args.push('--flow-surprise', form.surpriseNats.trim() || '<nats>');
    const tools = toolNames(form.flowTools);
    if (tools.length > 0) args.push('--flow-tools', tools.join(','));
    if (form.mode === 'shadow') args.push('--flow-shadow');
  }
  if (form.retainDays.trim() !== '') args.push('--retain-days', form.retainDays.trim());
  if (form.guards) args.push('--guards');
  if (form.judge !== '') args.push('--confirm-judge', form.judge, '--context', form.judgeContext.trim() || '<file>');
  if (form.commit) args.push('--commit');
  if (form.listenAddr.trim() !== '') {
    args.push('--listen', form.listenAddr.trim());
    if (form.listenTokenFile.trim() !== '') args.push('--listen-token-file', form.listenTokenFile.trim());
  }
  if (form.kind === 'http') {
    args.push('--upstream', form.url.trim() || '<url>');
    for (const h of form.headers) {
      if (h.name.trim() === '' && h.env.trim() === '') continue;
      args.push('--upstream-header', `${h.name.trim() || '<name>'}=${h.env.trim() || '<variable>'}`);
    }
  } else {
    const split = splitShell(form.command);
    args.push('--');
    if (split.ok && split.words.length > 0) args.push(...maskCredential(split.words));
    else args.push('<command>');
  }
  return args;
}

export function previewText(form: FormState, dataDirShown: string): string {
  return `engine-proxy ${commandText(previewArgs(form, dataDirShown))}`;
}

export type UpstreamInput = { kind: 'stdio'; command: string[]; env: string[] } | { kind: 'http'; url: string; headers: HeaderRow[] };

export type ServerInputBody = PolicyFields & {
  name: string;
  description: string | null;
  upstream: UpstreamInput;
  mode: Mode;
  flow: string | null;
  record_dir: string | null;
  decider: DeciderName | null;
  threshold: number | null;
};

/**
 * The request body (`ServerInput`) for a form that validated. Editing (`every`) sends every field the form
 * shows, so the registry holds what the form says; adding leaves out a policy field at its default, as an entry
 * without the later fields has none.
 */
export function toInput(form: FormState, every = false): ServerInputBody {
  const split = splitShell(form.command);
  const upstream: UpstreamInput =
    form.kind === 'stdio'
      ? { kind: 'stdio', command: split.ok ? split.words : [], env: [...form.env] }
      : {
          kind: 'http',
          url: form.url.trim(),
          headers: form.headers
            .filter((h) => h.name.trim() !== '' || h.env.trim() !== '')
            .map((h) => ({ name: h.name.trim(), env: h.env.trim() })),
        };
  const runsFlow = form.mode !== 'record';
  const body: ServerInputBody = {
    name: form.name.trim(),
    description: form.description.trim() === '' ? null : form.description.trim(),
    upstream,
    mode: form.mode,
    flow: runsFlow && form.flow.trim() !== '' ? form.flow.trim() : null,
    record_dir: form.recordDir.trim() === '' ? null : form.recordDir.trim(),
    decider: runsFlow && form.decider !== '' ? form.decider : null,
    threshold: runsFlow ? thresholdValue(form.threshold) : null,
    // Every policy field the form shows is sent, so the registry holds what the form says.
    surprise: !runsFlow || form.surprise === '' ? null : form.surprise === 'off' ? { kind: 'off' } : { kind: 'threshold', nats: Number(form.surpriseNats) },
    flow_tools: runsFlow ? toolNames(form.flowTools) : [],
    guards: form.guards,
    judge: form.judge === '' ? null : { mode: form.judge, context: form.judgeContext.trim() },
    commit: form.commit,
    retain_days: form.retainDays.trim() === '' ? null : Number(form.retainDays.trim()),
    listen:
      form.listenAddr.trim() === ''
        ? null
        : { addr: form.listenAddr.trim(), token_file: form.listenTokenFile.trim() === '' ? null : form.listenTokenFile.trim() },
  };
  if (!every) {
    for (const field of ['surprise', 'flow_tools', 'guards', 'judge', 'commit', 'retain_days', 'listen'] as const) {
      const value = body[field];
      if (value === null || value === false || (Array.isArray(value) && value.length === 0)) delete body[field];
    }
  }
  return body;
}

/** A registry entry as the form reads it back: the fields a request body has. */
export type EntryLike = ServerInputBody;

/** The form for editing a registry entry: the command shell-quoted back into one line. */
export function fromEntry(entry: EntryLike): FormState {
  const form = emptyForm();
  form.name = entry.name;
  form.description = entry.description ?? '';
  form.mode = entry.mode;
  form.flow = entry.flow ?? '';
  form.decider = entry.decider ?? '';
  form.threshold = entry.threshold === null ? '' : String(entry.threshold);
  form.recordDir = entry.record_dir ?? '';
  form.surprise = entry.surprise ? entry.surprise.kind : '';
  form.surpriseNats = entry.surprise?.kind === 'threshold' ? String(entry.surprise.nats) : '';
  form.flowTools = (entry.flow_tools ?? []).join(', ');
  form.guards = entry.guards ?? false;
  form.judge = entry.judge?.mode ?? '';
  form.judgeContext = entry.judge?.context ?? '';
  form.commit = entry.commit ?? false;
  form.retainDays = entry.retain_days == null ? '' : String(entry.retain_days);
  form.listenAddr = entry.listen?.addr ?? '';
  form.listenTokenFile = entry.listen?.token_file ?? '';
  if (entry.upstream.kind === 'stdio') {
    form.kind = 'stdio';
    form.command = commandText(entry.upstream.command);
    form.env = [...entry.upstream.env];
  } else {
    form.kind = 'http';
    form.url = entry.upstream.url;
    form.headers = entry.upstream.headers.map((h) => ({ ...h }));
  }
  return form;
}

/** An upstream as a session header names it: a command, a URL, or nothing known. */
export type UpstreamViewLike = { kind: string; command?: readonly string[] | null; url?: string | null };

/** The form for `?domain=`: the name, and the upstream its sessions came through when it was seen. */
export function fromDiscovered(domain: string, upstream: UpstreamViewLike | null): FormState {
  const form = emptyForm();
  form.name = domain;
  if (upstream?.kind === 'http' && typeof upstream.url === 'string') {
    form.kind = 'http';
    form.url = upstream.url;
  } else if (upstream?.kind === 'stdio' && Array.isArray(upstream.command)) {
    form.command = commandText(upstream.command);
  }
  return form;
}

/** One line for an upstream: the command, the URL, or "unknown". */
export function upstreamText(upstream: UpstreamViewLike | null | undefined): string {
  if (!upstream) return 'unknown';
  if (upstream.kind === 'stdio' && Array.isArray(upstream.command)) return commandText(upstream.command);
  if (upstream.kind === 'http' && typeof upstream.url === 'string') return upstream.url;
  return 'unknown';
}

export interface FlowChoiceInput {
  key: string;
  path: string;
  domain: string;
  error: string | null;
}

export interface ServerFlowChoice {
  value: string;
  label: string;
}

/**
 * The flows a server may run: those of its own domain that load (a flow of another domain would decide on
 * another server's tools). Values are paths relative to the data directory, which the registry resolves
 * against it wherever the data directory is.
 */
export function flowChoices(flows: readonly FlowChoiceInput[], name: string): ServerFlowChoice[] {
  const n = name.trim();
  return flows.filter((f) => f.error === null && f.domain === n).map((f) => ({ value: f.path, label: f.key }));
}

/** The flow a path names, as the data directory's list has it: relative, under `~/.engine`-style display, or absolute. */
export function flowAtPath(flows: readonly FlowChoiceInput[], path: string, dataDirs: readonly string[]): FlowChoiceInput | null {
  const p = path.trim().replace(/^\.\//, '');
  if (p === '') return null;
  return flows.find((f) => f.path === p || dataDirs.some((d) => `${d.replace(/\/+$/, '')}/${f.path}` === p)) ?? null;
}

/** A warning, before saving, when the chosen flow is another domain's. */
export function flowDomainWarning(flows: readonly FlowChoiceInput[], path: string, name: string, dataDirs: readonly string[]): string | null {
  const flow = flowAtPath(flows, path, dataDirs);
  const n = name.trim();
  if (flow === null || n === '' || flow.domain === n) return null;
  return `${flow.key} is a flow of domain ${flow.domain}, not ${n}: it was learned from another server’s sessions, so its decisions name tools this server may not have. Learn a flow from ${n}’s sessions, or save anyway.`;
}

