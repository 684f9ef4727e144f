// Who the shell shows: unknown (before /api/meta answers), signed-in, signed-out (the sign-in screen) or
// unreachable (the "server did not answer" card). Any later 401 from any request signs out.
import { createSignal } from 'solid-js';
import type { Meta } from '../../../shared/meta.ts';
import { ApiError } from '../api/client.ts';
import { checkToken, getMeta, logout } from '../api/endpoints.ts';
import { closeEvents } from '../api/events.ts';
import { withQueryParam } from '../lib/query.ts';
import { errorText } from '../../../shared/error-text.ts';

export type AuthState = 'unknown' | 'signed-in' | 'signed-out' | 'unreachable';
const [state, setState] = createSignal<AuthState>('unknown');
const [meta, setMeta] = createSignal<Meta | null>(null);
const [problem, setProblem] = createSignal('');
export { state as authState, meta, problem as unreachableMessage };

/**
 * Why a sign-in link did not sign in: the guard redirects with ?sign_in=used|expired|unknown (a one-time
 * link of `--open`) or ?sign_in=token (a token that is not this console's). Read once at load and taken out
 * of the address bar, so a reload or a shared URL does not repeat it.
 */
const LINK_REFUSALS: Record<string, string> = {
  used: 'That sign-in link was already used: each link from engine-console --open signs in once. If you did not use it, someone else on this machine may have; restart the console to change the token. Otherwise, paste the token or open the URL engine-console printed.',
  expired: 'That sign-in link has expired: a link from engine-console --open works for 60 seconds. Paste the token, or open the URL engine-console printed.',
  unknown: "That sign-in link is not this console's (it may have restarted). Paste the token, or open the URL engine-console printed.",
  token: "That link's token is not this console's: the console may have restarted with a new token. Paste the token, or open the URL engine-console printed when it started.",
};
function takeLinkRefusal(): string {
  if (typeof window === 'undefined') return '';
  const url = new URL(window.location.href);
  const why = url.searchParams.get('sign_in');
  if (why === null) return '';
  url.searchParams.delete('sign_in');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return LINK_REFUSALS[why] ?? '';
}
/** Why the sign-in screen shows: a refused link, or the server's word on a refused sign-in cookie. */
const [signInReason, setSignInReason] = createSignal(takeLinkRefusal());
export { signInReason };

/** The server's messages are lower-case clauses; the screen shows them as a sentence. */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

export const readOnly = () => meta()?.read_only ?? false;
export const READ_ONLY_REASON = 'The console is read-only';

/** `reason`, when given, is shown on the sign-in screen (the server's message: expired, signed out, restarted). */
export function signedOut(reason: string | null = null): void {
  if (reason !== null) setSignInReason(sentence(reason));
  if (state() === 'signed-out') return;
  closeEvents();
  setState('signed-out');
}

/** Start-up, and "Try again": ask /api/meta quietly. */
export async function checkMeta(): Promise<void> {
  try {
    const m = await getMeta();
    setMeta(m);
    setState('signed-in');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return signedOut();
    closeEvents();
    setProblem(errorText(e));
    setState('unreachable');
  }
}

/** Checks a pasted token with a Bearer request, then hands it to the server with ?token= on this page. */
export async function signIn(raw: string): Promise<string | null> {
  const token = raw.trim();
  if (token === '') return 'Paste the token engine-console printed when it started.';
  try {
    await checkToken(token);
  } catch (e) {
    // Status 0 carries the client's own "did not answer" message.
    if (!(e instanceof ApiError) || e.status === 0) return errorText(e);
    if (e.status === 401) return 'That token was not accepted. Check it against the one engine-console printed.';
    return `The console answered ${e.status}.`;
  }
  window.location.assign(withQueryParam(window.location.pathname + window.location.search, window.location.hash, 'token', token));
  return null;
}

export async function signOut(): Promise<void> {
  try {
    await logout();
  } catch {
    /* the sign-in screen shows either way */
  }
  closeEvents();
  setSignInReason('');
  setState('signed-out');
}
