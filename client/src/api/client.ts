// The only fetch of the client. Every request sends the cookie; writes add X-Engine-Console: 1; JSON
// bodies add their content type. Errors become ApiError with the server's message (status 0 when the server
// did not answer). A 401 hands over to the sign-in screen and is never toasted; other errors are toasted
// unless the caller marked the call quiet (it shows the error itself). Responses are parsed with the shared
// valibot schema of the endpoint, so a page only ever sees data of the declared shape.
import * as v from 'valibot';
import { issuePath } from '../../../shared/issue-text.ts';
import { errorMessage, queryString, type QueryValue } from '../lib/query.ts';

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export const NO_ANSWER = 'The console server did not answer. Is engine-console running?';

interface Hooks {
  /** `reason`: why the sign-in the request presented was refused (expired, signed out, a restart), if it was. */
  unauthorized: (reason: string | null) => void;
  failed: (error: ApiError) => void;
}
let hooks: Hooks = { unauthorized: () => {}, failed: () => {} };

/** The shell wires 401 to the sign-in screen and failures to toasts, once at start. */
export function setClientHooks(h: Hooks): void {
  hooks = h;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The caller shows the error itself: no toast (a 401 still signs out). */
  quiet?: boolean;
  signal?: AbortSignal;
  /** Read the answer as text whatever its type (raw logs, flows, artifacts). */
  text?: boolean;
  headers?: Record<string, string>;
}

export function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (method !== 'GET') headers['X-Engine-Console'] = '1';
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  try {
    return await fetch(path + queryString(opts.query), { method, headers, body, credentials: 'include', signal: opts.signal });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new ApiError(0, NO_ANSWER);
  }
}

function fail(error: ApiError, quiet: boolean | undefined, signInRefused = false): never {
  if (error.status === 401) hooks.unauthorized(signInRefused ? error.message : null);
  else if (!quiet) hooks.failed(error);
  throw error;
}

/** One request; the answer as JSON (application/json or +json), text otherwise, undefined for 204. */
export async function request(path: string, opts: RequestOptions = {}): Promise<unknown> {
  let res: Response;
  try {
    res = await send(path, opts);
  } catch (e) {
    if (e instanceof ApiError) fail(e, opts.quiet);
    throw e;
  }
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  // RFC 6750: invalid_token means a credential was presented and refused, and the message says why.
  const refused = /error="invalid_token"/.test(res.headers.get('www-authenticate') ?? '');
  if (!res.ok) fail(new ApiError(res.status, errorMessage(res.status, res.statusText, type, text)), opts.quiet, refused);
  if (res.status === 204) return undefined;
  if (!opts.text && /^application\/(.+\+)?json/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      fail(new ApiError(res.status, 'The console answered with JSON that does not parse.'), opts.quiet);
    }
  }
  return text;
}

/** A request whose answer must have the schema's shape. */
export async function requestAs<S extends v.GenericSchema>(
  schema: S,
  path: string,
  opts: RequestOptions = {},
): Promise<v.InferOutput<S>> {
  const data = await request(path, opts);
  const parsed = v.safeParse(schema, data);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue ? issuePath(issue) : '';
    fail(new ApiError(500, `The console answered ${path} in an unexpected shape${where ? ` at ${where}` : ''}: ${issue?.message ?? 'unknown'}`), opts.quiet);
  }
  return parsed.output;
}

/** A raw file as text (session logs, flows, job artifacts). */
export async function requestText(path: string, opts: RequestOptions = {}): Promise<string> {
  const data = await request(path, { ...opts, text: true });
  return typeof data === 'string' ? data : JSON.stringify(data);
}
