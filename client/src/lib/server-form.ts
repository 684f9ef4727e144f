// The add/edit server form's logic, without a DOM: shell words in and out of the command box, the checks
// the registry makes (so a user sees them before saving, in the same order and wording where the server's
// message is friendly enough; the credential rules themselves are shared/credentials.ts, the server's own),
// the live `engine-proxy` command-line preview, and the request body.
import { credentialArgument, isHeaderName, isVarName, urlRefusal } from '../../../shared/credentials.ts';

export type Mode = 'record' | 'shadow' | 'serve';
export type Decider = 'arbiter' | 'habit' | 'reach';
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
  decider: Decider | '';
  threshold: string;
  recordDir: string;
}

export function emptyForm(): FormState {
  return {
    name: '', description: '', kind: 'stdio', command: '', env: [], url: '', headers: [], mode: 'record',
    flow: '', decider: '', threshold: '', recordDir: '',
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
  if (n.length > 64) return 'Keep the name to 64 characters.';
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

export function thresholdValue(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

export type FieldErrors = Partial<Record<'name' | 'description' | 'command' | 'env' | 'url' | 'headers' | 'flow' | 'threshold', string>> & {
  /** Per header row: the first problem in it. */
  headerRows?: (string | null)[];
};

/** Every problem with the form, by field; empty when it can be sent. */
export function validateForm(form: FormState, taken: readonly string[], isNew: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const name = nameError(form.name, taken, isNew);
  if (name) errors.name = name;
  if ([...form.description].length > 1000) errors.description = 'Keep the description to 1,000 characters.';
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
  return errors;
}

export function hasErrors(errors: FieldErrors): boolean {
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
    if (form.mode === 'shadow') args.push('--flow-shadow');
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
    if (split.ok && split.words.length > 0) args.push(...split.words);
    else args.push('<command>');
  }
  return args;
}

export function previewText(form: FormState, dataDirShown: string): string {
  return `engine-proxy ${commandText(previewArgs(form, dataDirShown))}`;
}

export type UpstreamInput = { kind: 'stdio'; command: string[]; env: string[] } | { kind: 'http'; url: string; headers: HeaderRow[] };

export interface ServerInputBody {
  name: string;
  description: string | null;
  upstream: UpstreamInput;
  mode: Mode;
  flow: string | null;
  record_dir: string | null;
  decider: Decider | null;
  threshold: number | null;
}

/** The request body (`ServerInput`) for a form that validated. */
export function toInput(form: FormState): ServerInputBody {
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
  return {
    name: form.name.trim(),
    description: form.description.trim() === '' ? null : form.description.trim(),
    upstream,
    mode: form.mode,
    flow: runsFlow && form.flow.trim() !== '' ? form.flow.trim() : null,
    record_dir: form.recordDir.trim() === '' ? null : form.recordDir.trim(),
    decider: runsFlow && form.decider !== '' ? form.decider : null,
    threshold: runsFlow ? thresholdValue(form.threshold) : null,
  };
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

export interface FlowChoice {
  value: string;
  label: string;
}

/**
 * The flows a server may run: those that load, its own domain first. Values are paths relative to the data
 * directory, which the registry resolves against it wherever the data directory is.
 */
export function flowChoices(flows: readonly FlowChoiceInput[], name: string): FlowChoice[] {
  const n = name.trim();
  return flows
    .filter((f) => f.error === null)
    .map((f, i) => ({ f, i }))
    .sort((a, b) => Number(b.f.domain === n) - Number(a.f.domain === n) || a.i - b.i)
    .map(({ f }) => ({
      value: f.path,
      label: n !== '' && f.domain !== n ? `${f.key} (domain ${f.domain})` : f.key,
    }));
}

/** Words for a server's mode. */
export function modeWord(mode: Mode): string {
  return mode === 'serve' ? 'Serving' : mode === 'shadow' ? 'Shadow' : 'Recording';
}
