// The registry's credential rules (registry::validate in the CLI's console): the registry keeps environment
// variables and headers by name only, and refuses a command argument, a URL user part or a URL query
// parameter that looks like a credential. Refusal messages never echo the value that looked like a secret.
import { REGISTRY_ENV_NAME_MAX, REGISTRY_URL_MAX } from '../../shared/limits.ts';
import { debugString } from './format.ts';

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

/** The refusal for a credential argument at `index` (0-based); the value is never part of it. */
export function credentialArgumentMessage(index: number): string {
  return `argument ${index + 1} of the command looks like a credential: pass it to the server through an environment variable, and list the variable's name in env (the registry keeps names, never values)`;
}

const VAR_NAME = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${REGISTRY_ENV_NAME_MAX - 1}}$`);
const HEADER_NAME = new RegExp(`^[A-Za-z0-9!#$%&'*+\\-.^_\`|~]{1,${REGISTRY_ENV_NAME_MAX}}$`);

/** Why `name` is not an environment variable's name, or null when it is one. */
export function checkVar(name: string): string | null {
  if (VAR_NAME.test(name)) return null;
  return `${debugString(name)} is not an environment variable's name (letters, digits and _): the registry keeps variables by name, and their values stay in the environment`;
}

/** Whether `name` is an HTTP header name (a token of at most 128 characters). */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** Why `name` is not a header name, or null. */
export function checkHeaderName(name: string): string | null {
  return isHeaderName(name) ? null : `header ${debugString(name)} is not a header name`;
}

/** Why a Streamable HTTP server's URL is refused (scheme, length, host, user part, credential parameter), or null. */
export function checkUrl(url: string): string | null {
  const sep = url.indexOf('://');
  const scheme = sep === -1 ? '' : url.slice(0, sep);
  if (scheme !== 'http' && scheme !== 'https') return `url ${debugString(url)}: expected http:// or https://`;
  // eslint-disable-next-line no-control-regex
  if (Buffer.byteLength(url) > REGISTRY_URL_MAX || /[\s\u0000-\u001f\u007f-\u009f]/u.test(url)) {
    return 'the url is too long or holds whitespace';
  }
  const rest = url.slice(sep + 3);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  if (authority === '') return `url ${debugString(url)} names no host`;
  if (authority.includes('@')) return 'the url holds a user or a password: send credentials in a header, from an environment variable';
  const q = rest.indexOf('?');
  if (q !== -1) {
    const hash = rest.indexOf('#', q);
    const query = rest.slice(q + 1, hash === -1 ? undefined : hash);
    for (const piece of query.split('&')) {
      if (piece === '') continue;
      const eq = piece.indexOf('=');
      const name = eq === -1 ? piece : piece.slice(0, eq);
      if (eq !== -1 && namesSecret(name)) {
        return `the url's parameter ${debugString(name)} looks like a credential: send it in a header, from an environment variable`;
      }
    }
  }
  return null;
}
