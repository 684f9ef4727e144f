// The registry's refusals as the CLI words them (registry::validate in the CLI's console). The rules
// themselves live in shared/credentials.ts, which the server form uses too; this file only turns a broken
// rule into the registry's message, with names quoted as Rust's Debug does. A message never echoes the value
// that looked like a secret: what it quotes of a URL or a name has credentials masked first.
import { isHeaderName, isVarName, urlRefusal, withoutCredentials, type CredentialFinding, type CredentialKind } from '../../shared/credentials.ts';
import { debugString } from './format.ts';

const REASONS: Record<CredentialKind, string> = {
  'url-user-part': 'a URL with a user or a password in it',
  'key-shape': 'it has the shape of an API key or a token',
  'secret-option': 'the value of an option named like a secret',
  'key-option': 'a key-shaped value after -k',
  'secret-header': 'a header named like a credential',
  'secret-assignment': 'a value given to a name like a secret',
};

/** The refusal for a credential argument (its index is 0-based), with why; the value is never part of it. */
export function credentialArgumentMessage(finding: CredentialFinding): string {
  return `argument ${finding.index + 1} of the command looks like a credential (${REASONS[finding.kind]}): pass it to the server through an environment variable, and list the variable's name in env (the registry keeps names, never values); a server that takes it only on its command line can be started from a wrapper script that puts the variable there (the server form writes one)`;
}

/** A name as a message quotes it: cut where a value would start (`=`, `:`, after `Bearer`), credentials masked. */
function quotedName(name: string): string {
  const scheme = /^(?:bearer|basic|token)\s/i.exec(name);
  const cut = scheme ? scheme[0].length - 1 : name.search(/[=:]/);
  return debugString(withoutCredentials(cut === -1 ? name : `${name.slice(0, cut + 1)}…`));
}

/** Why `name` is not an environment variable's name, or null when it is one. */
export function checkVar(name: string): string | null {
  if (isVarName(name)) return null;
  return `${quotedName(name)} is not an environment variable's name (letters, digits and _): the registry keeps variables by name, and their values stay in the environment`;
}

/** Why `name` is not a header name, or null. */
export function checkHeaderName(name: string): string | null {
  return isHeaderName(name) ? null : `header ${quotedName(name)} is not a header name`;
}

/** Why a Streamable HTTP server's URL is refused (scheme, length, host, user part, credential parameter), or null. */
export function checkUrl(url: string): string | null {
  const refusal = urlRefusal(url);
  switch (refusal?.kind) {
    case undefined:
      return null;
    case 'scheme':
      return `url ${debugString(withoutCredentials(url))}: expected http:// or https://`;
    case 'too-long-or-whitespace':
      return 'the url is too long or holds whitespace';
    case 'no-host':
      return `url ${debugString(withoutCredentials(url))} names no host`;
    case 'user-part':
      return 'the url holds a user or a password: send credentials in a header, from an environment variable';
    case 'credential-parameter':
      return `the url's parameter ${debugString(refusal.name)} looks like a credential: send it in a header, from an environment variable`;
  }
}
