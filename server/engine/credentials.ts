// The registry's refusals as the CLI words them (registry::validate in the CLI's console). The rules
// themselves live in shared/credentials.ts, which the server form uses too; this file only turns a broken
// rule into the registry's message, with names quoted as Rust's Debug does. A message never echoes the value
// that looked like a secret.
import { isHeaderName, isVarName, urlRefusal } from '../../shared/credentials.ts';
import { debugString } from './format.ts';

/** The refusal for a credential argument at `index` (0-based); the value is never part of it. */
export function credentialArgumentMessage(index: number): string {
  return `argument ${index + 1} of the command looks like a credential: pass it to the server through an environment variable, and list the variable's name in env (the registry keeps names, never values)`;
}

/** Why `name` is not an environment variable's name, or null when it is one. */
export function checkVar(name: string): string | null {
  if (isVarName(name)) return null;
  return `${debugString(name)} is not an environment variable's name (letters, digits and _): the registry keeps variables by name, and their values stay in the environment`;
}

/** Why `name` is not a header name, or null. */
export function checkHeaderName(name: string): string | null {
  return isHeaderName(name) ? null : `header ${debugString(name)} is not a header name`;
}

/** Why a Streamable HTTP server's URL is refused (scheme, length, host, user part, credential parameter), or null. */
export function checkUrl(url: string): string | null {
  const refusal = urlRefusal(url);
  switch (refusal?.kind) {
    case undefined:
      return null;
    case 'scheme':
      return `url ${debugString(url)}: expected http:// or https://`;
    case 'too-long-or-whitespace':
      return 'the url is too long or holds whitespace';
    case 'no-host':
      return `url ${debugString(url)} names no host`;
    case 'user-part':
      return 'the url holds a user or a password: send credentials in a header, from an environment variable';
    case 'credential-parameter':
      return `the url's parameter ${debugString(refusal.name)} looks like a credential: send it in a header, from an environment variable`;
  }
}
