// The registry's credential rules (registry::validate in the CLI's console), shared by the server, which
// refuses an entry, and the server form, which warns before sending it: the registry keeps environment
// variables and headers by name only, and refuses a command argument, a URL user part or a URL query parameter
// that looks like a credential. Pure functions (no Node APIs): each side words the refusal its own way, and
// neither ever echoes the value that looked like a secret.
import { REGISTRY_ENV_NAME_MAX, REGISTRY_URL_MAX } from './limits.ts';

const SECRET_WORDS = ['key', 'token', 'secret', 'password', 'passwd', 'credential', 'auth'];
const NOT_SECRET_ENDINGS = ['file', 'path', 'dir'];

/** Whether a flag, variable or parameter name names a secret (`api_key`, `--token`), not where one lives. */
export function namesSecret(name: string): boolean {
  const n = name.toLowerCase();
  if (NOT_SECRET_ENDINGS.some((end) => n.endsWith(end))) return false;
  return SECRET_WORDS.some((word) => n.includes(word));
}

/**
 * The index of the first argument that looks like a credential, or null. Every argument is checked,
 * the program too: `--api-key abc` (the value after a secret-named flag), `--token=abc`, `GITHUB_TOKEN=x`,
 * `Authorization: ...` and `Bearer ...`.
 */
export function credentialArgument(command: readonly string[]): number | null {
  let afterFlag = false;
  for (const [i, arg] of command.entries()) {
    if (afterFlag) {
      afterFlag = false;
      if (!arg.startsWith('-')) return i;
    }
    const lower = arg.toLowerCase();
    if (lower.startsWith('authorization:') || lower.includes('bearer ')) return i;
    const eq = arg.indexOf('=');
    if (eq !== -1) {
      if (namesSecret(arg.slice(0, eq)) && arg.length > eq + 1) return i;
      continue;
    }
    afterFlag = arg.startsWith('-') && namesSecret(arg);
  }
  return null;
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
