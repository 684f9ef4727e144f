// The four security headers on every response (API, UI, errors, redirects, SSE), and no caching of API
// answers (console-api.md §2.4). Outermost middleware: it sets them after everything else has run; the
// answers Node gives before Koa sees a request get them from client-error.ts.
import type { Context, Next } from 'koa';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

function apply(ctx: Context): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) ctx.set(name, value);
  if (ctx.path.startsWith('/api/') && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
}

export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  // Streams (SSE) flush their headers before next() returns, so set them first too.
  apply(ctx);
  try {
    await next();
  } finally {
    if (!ctx.headerSent) apply(ctx);
  }
}
