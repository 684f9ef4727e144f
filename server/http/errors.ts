// One error type for the whole API and the one middleware that renders it as {"error": ...} (spec §7).
// The engine never knows statuses: routes map its failures onto these constructors.
import type { Context, Next } from 'koa';
import { WorkerDied } from '../workers/pool.ts';
import { errorText } from '../../shared/error-text.ts';
import { setContentType } from './content-type.ts';

export class ApiError extends Error {
  readonly status: number;
  /** Extra headers the answer must carry (WWW-Authenticate on a 401). */
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) => new ApiError(401, message, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const methodNotAllowed = (message: string) => new ApiError(405, message);
export const conflict = (message: string) => new ApiError(409, message);
export const unprocessable = (message: string) => new ApiError(422, message);
/** More connection tests at once than the console runs (README, "The server registry"). */
export const tooManyRequests = (message: string) => new ApiError(429, message);
export const internal = (message: string) => new ApiError(500, message);

const GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_DESTROYED']);

/**
 * Whether an error only says that the client left while its answer was being sent (a download or a stream
 * closed early): nothing failed on our side, so nothing is reported. The body's stream is destroyed by Koa.
 */
export function clientWentAway(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && GONE.has(code);
}

/** Errors thrown by koa-body and friends carry an exposed 4xx status; keep it. */
function statusOf(err: unknown): number {
  if (err instanceof ApiError) return err.status;
  // A file too big for a worker's heap: the file is at fault (spec §7: a file the console cannot read).
  if (err instanceof WorkerDied) return 422;
  if (typeof err === 'object' && err !== null) {
    const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown };
    const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
    if (status >= 400 && status < 500) return status;
  }
  return 500;
}

function messageOf(err: unknown, status: number): string {
  if (err instanceof ApiError || err instanceof WorkerDied) return err.message;
  if (status === 413) return 'the request body is too large';
  if (status >= 400 && status < 500 && err instanceof Error) return err.message;
  return `the console failed: ${errorText(err)}`;
}

export function renderErrors(report: (err: unknown) => void) {
  return async function errors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      let status = statusOf(err);
      // A body too large is a bad request in our contract's terms.
      if (status === 413) status = 400;
      if (status >= 500) report(err);
      ctx.status = status;
      setContentType(ctx, 'json');
      ctx.body = JSON.stringify({ error: messageOf(err, statusOf(err)) });
      if (err instanceof ApiError) for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
    }
  };
}
