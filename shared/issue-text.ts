// A failed valibot parse in words, written once for the server's 400s, the files it refuses to read and the
// client's check of an answer: the first issue is the one a user can act on.
import type * as v from 'valibot';

/**
 * The first issue as `path: message`, or `fallback` when there is none. The path is left out when there is
 * none, when `withPath` is false (schemas whose messages are whole sentences), or when the message starts
 * with it already (messages written in a schema name their field; valibot's defaults do not).
 */
export function issueText(issues: readonly v.BaseIssue<unknown>[], fallback: string, withPath = true): string {
  const first = issues[0];
  if (!first) return fallback;
  const path = withPath ? issuePath(first) : '';
  return path && !first.message.startsWith(path) ? `${path}: ${first.message}` : first.message;
}

/** Where in the value an issue is, as `items.0.key`; '' at the top. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return issue.path?.map((p) => String(p.key)).join('.') ?? '';
}
