// The registry's credential rules (registry::validate in the CLI's console), shared by the server, which
// refuses an entry, and the server form, which warns before sending it: the registry keeps environment
// variables and headers by name only, and refuses a command argument, a URL user part or a URL query parameter
// that looks like a credential. Pure functions (no Node APIs): each side words the refusal its own way, and
// neither ever echoes the value that looked like a secret.
import { REGISTRY_ENV_NAME_MAX, REGISTRY_URL_MAX } from './limits.ts';

const SECRET_WORDS = ['key', 'token', 'secret', 'password', 'passwd', 'credential', 'auth'];
/** Whole words of a name that say secret on their own (`--pass`), but not inside another word (`--bypass`). */
const SECRET_PARTS = ['pass', 'pw', 'pwd'];
const NOT_SECRET_ENDINGS = ['file', 'path', 'dir'];

/** What stands for a credential wherever one would be shown. */
export const CREDENTIAL_MASK = '••••';

/** Whether a flag, variable or parameter name names a secret (`api_key`, `--token`), not where one lives. */
export function namesSecret(name: string): boolean {
  const n = name.toLowerCase();
  if (NOT_SECRET_ENDINGS.some((end) => n.endsWith(end))) return false;
  if (SECRET_WORDS.some((word) => n.includes(word))) return true;
  return n.split(/[^a-z0-9]+/).some((part) => SECRET_PARTS.includes(part));
}

/** A URL with a user part (`scheme://user[:password]@`), anywhere in a text. */
const URL_USER_PART = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@]+@/;
/** The shapes of the common keys and tokens: OpenAI-style `sk-`, GitHub's, Slack's, AWS access key ids. */
const KEY_PREFIXED = /(?:^|[^A-Za-z0-9_])(?:sk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{12,}|ghp_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16})/;
/** A header line (`X-API-Key: v`): its name and whether a value follows. */
const HEADER_LINE = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*:\s*\S/;

/** Whether a value has the shape of a key: a known prefix, or a long run of letters and digits with both. */
export function keyShaped(value: string): boolean {
  if (KEY_PREFIXED.test(value)) return true;
  return /^[A-Za-z0-9][A-Za-z0-9_+=.~-]{19,}$/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value);
}

/** Why an argument looks like a credential; the registry words each reason. */
export type CredentialKind = 'url-user-part' | 'key-shape' | 'secret-option' | 'key-option' | 'secret-header' | 'secret-assignment';

/** Whether a text holds a header named like a secret, an Authorization or a bearer token. */
function secretHeader(text: string): boolean {
  const lower = text.toLowerCase();
  if (lower.startsWith('authorization:') || lower.includes('bearer ')) return true;
  const name = HEADER_LINE.exec(text)?.[1];
  return name !== undefined && namesSecret(name);
}

/** Why one argument looks like a credential on its own, or null. */
function credentialIn(arg: string): CredentialKind | null {
  if (URL_USER_PART.test(arg)) return 'url-user-part';
  if (KEY_PREFIXED.test(arg)) return 'key-shape';
  if (secretHeader(arg)) return 'secret-header';
  const eq = arg.indexOf('=');
  if (eq !== -1 && arg.length > eq + 1) {
    if (namesSecret(arg.slice(0, eq))) return 'secret-assignment';
    if (secretHeader(arg.slice(eq + 1))) return 'secret-header';
  }
  return null;
}

/** The first argument that looks like a credential, and why. */
export interface CredentialFinding {
  index: number;
  kind: CredentialKind;
}

/**
 * The first argument that looks like a credential, or null. Every argument is checked, the program too: a URL
 * with a user part (`postgresql://u:pw@db`, `DATABASE_URL=postgres://u:pw@h/db`), a key's shape (`ghp_…`,
 * `sk-live-…`), the value after a secret-named option (`--api-key abc`, `--pass pw`) or after `-k` when it has
 * a key's shape, `--token=abc`, `GITHUB_TOKEN=x`, and a header named like a secret (`X-API-Key: …`,
 * `Authorization: ...`, `Bearer ...`).
 */
export function findCredential(command: readonly string[]): CredentialFinding | null {
  let after: 'secret-option' | 'key-option' | null = null;
  for (const [index, arg] of command.entries()) {
    if (after === 'secret-option' && !arg.startsWith('-')) return { index, kind: after };
    if (after === 'key-option' && keyShaped(arg)) return { index, kind: after };
    const kind = credentialIn(arg);
    if (kind !== null) return { index, kind };
    after = arg === '-k' ? 'key-option' : !arg.includes('=') && arg.startsWith('-') && namesSecret(arg) ? 'secret-option' : null;
  }
  return null;
}

/** The index of the first argument that looks like a credential, or null (findCredential's index). */
export function credentialArgument(command: readonly string[]): number | null {
  return findCredential(command)?.index ?? null;
}

/** `text` with what looks like a credential in it masked: URL user parts, keys' shapes, secret parameters. */
export function withoutCredentials(text: string): string {
  return text
    .replace(new RegExp(URL_USER_PART.source, 'g'), (m) => `${m.slice(0, m.indexOf('://') + 3)}${CREDENTIAL_MASK}@`)
    .replace(new RegExp(KEY_PREFIXED.source, 'g'), (m) => `${/^[A-Za-z0-9_]/.test(m) ? '' : m[0]}${CREDENTIAL_MASK}`)
    .replace(/([?&]([^=&#\s]*)=)([^&#\s]*)/g, (m, head: string, name: string) => (namesSecret(name) ? `${head}${CREDENTIAL_MASK}` : m));
}

const VAR_NAME = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${REGISTRY_ENV_NAME_MAX - 1}}$`);
const HEADER_NAME = new RegExp(`^[A-Za-z0-9!#$%&'*+\\-.^_\`|~]{1,${REGISTRY_ENV_NAME_MAX}}$`);

/** Whether `name` is an environment variable's name (letters, digits and _, not starting with a digit). */
export function isVarName(name: string): boolean {
  return VAR_NAME.test(name);
}

/** Whether `name` is an HTTP header name (a token of at most 128 characters). */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** Why the registry refuses a Streamable HTTP server's URL, in the order it checks. */
export type UrlRefusal =
  | { kind: 'scheme' }
  | { kind: 'too-long-or-whitespace' }
  | { kind: 'no-host' }
  | { kind: 'user-part' }
  | { kind: 'credential-parameter'; name: string };

const encoder = new TextEncoder();

/** The first reason the registry refuses `url` (scheme, length, host, user part, credential parameter), or null. */
export function urlRefusal(url: string): UrlRefusal | null {
  const sep = url.indexOf('://');
  const scheme = sep === -1 ? '' : url.slice(0, sep);
  if (scheme !== 'http' && scheme !== 'https') return { kind: 'scheme' };
  if (encoder.encode(url).length > REGISTRY_URL_MAX || /[\s\p{Cc}]/u.test(url)) return { kind: 'too-long-or-whitespace' };
  const rest = url.slice(sep + 3);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  if (authority === '') return { kind: 'no-host' };
  if (authority.includes('@')) return { kind: 'user-part' };
  const q = rest.indexOf('?');
  if (q !== -1) {
    const hash = rest.indexOf('#', q);
    const query = rest.slice(q + 1, hash === -1 ? undefined : hash);
    for (const piece of query.split('&')) {
      const eq = piece.indexOf('=');
      if (eq !== -1 && namesSecret(piece.slice(0, eq))) return { kind: 'credential-parameter', name: piece.slice(0, eq) };
    }
  }
  return null;
}
