// Where ended sessions go and how, from the launcher's options and the standard OpenTelemetry variables:
// --otlp-endpoint, else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (as is), else OTEL_EXPORTER_OTLP_ENDPOINT (a base:
// `/v1/traces` is added); OTEL_EXPORTER_OTLP_HEADERS (`k=v,k2=v2`, values URL-encoded) and
// OTEL_EXPORTER_OTLP_PROTOCOL (`http/protobuf`, the default, or `http/json`). Pure: reads what it is given.
import { createHash } from 'node:crypto';
import type { OtlpProtocol } from '../../shared/otlp.ts';

export interface OtlpSettings {
  /** The traces URL requests are posted to. */
  url: string;
  protocol: OtlpProtocol;
  /** Sent with every request; their values are secrets (never shown, never logged). */
  headers: Record<string, string>;
  /** Sessions started on or after this (ms) are sent even when they ended before the console started. */
  sinceMs: number | null;
  /** A log with no new line for this long counts as ended. */
  endedAfterMs: number;
  /** At most this many sessions wait in the queue; more wait outside it, counted as dropped, until it has room. */
  queueMax: number;
  /** The remembered sessions' file (in the user's cache directory, never the data directory). */
  sentFile: string;
}

export interface OtlpOptions {
  endpoint: string | null;
  since: string | null;
  endedAfter: string | null;
  queue: string | null;
}

export const ENDED_AFTER_DEFAULT_S = 300;
export const QUEUE_DEFAULT = 1000;

/** A usage mistake in the OTLP options or variables, with what to write instead. */
export class OtlpSettingsError extends Error {}

const nonEmpty = (s: string | undefined | null) => (s !== undefined && s !== null && s.trim() !== '' ? s.trim() : null);

function httpUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OtlpSettingsError(`${name}: not a URL; write one such as http://127.0.0.1:4318`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OtlpSettingsError(`${name}: expected an http:// or https:// URL`);
  return url;
}

function headersOf(text: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === null) return out;
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new OtlpSettingsError('OTEL_EXPORTER_OTLP_HEADERS: expected name=value pairs separated by commas');
    const name = pair.slice(0, at).trim();
    try {
      out[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new OtlpSettingsError(`OTEL_EXPORTER_OTLP_HEADERS: the value of ${name} is not URL-encoded text`);
    }
  }
  return out;
}

function positive(text: string | null, name: string, fallback: number): number {
  if (text === null) return fallback;
  if (!/^\d+$/.test(text)) throw new OtlpSettingsError(`${name} ${JSON.stringify(text)}: expected a whole number`);
  return Number(text);
}

/** The settings, or null when no endpoint is given (streaming off). */
export function otlpSettings(o: OtlpOptions, env: NodeJS.ProcessEnv, cacheDir: string, dataDir: string): OtlpSettings | null {
  let url: string | null = null;
  const flag = nonEmpty(o.endpoint);
  const traces = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  // A base gets the signal's path; a URL that already ends in it is kept.
  const withPath = (u: URL) => (u.pathname.endsWith('/v1/traces') ? u.href : new URL(`${u.pathname.replace(/\/?$/, '/v1/traces')}${u.search}`, u).href);
  if (flag !== null) url = withPath(httpUrl(flag, '--otlp-endpoint'));
  else if (traces !== null) url = httpUrl(traces, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').href;
  else if (base !== null) url = withPath(httpUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT'));
  const since = nonEmpty(o.since);
  if (url === null) {
    if (since !== null) throw new OtlpSettingsError('--otlp-since needs an endpoint: give --otlp-endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT');
    return null;
  }
  const protocolText = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? 'http/protobuf';
  if (protocolText !== 'http/protobuf' && protocolText !== 'http/json') {
    throw new OtlpSettingsError(`OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(protocolText)}: expected http/protobuf or http/json`);
  }
  let sinceMs: number | null = null;
  if (since !== null) {
    sinceMs = /^\d{4}-\d{2}-\d{2}$/.test(since) ? Date.parse(`${since}T00:00:00Z`) : Date.parse(since);
    if (!Number.isFinite(sinceMs)) throw new OtlpSettingsError(`--otlp-since ${JSON.stringify(since)}: expected a date such as 2026-09-01`);
  }
  return {
    url,
    protocol: protocolText,
    headers: headersOf(nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_HEADERS)),
    sinceMs,
    endedAfterMs: positive(nonEmpty(o.endedAfter), '--otlp-ended-after', ENDED_AFTER_DEFAULT_S) * 1000,
    queueMax: Math.max(1, positive(nonEmpty(o.queue), '--otlp-queue', QUEUE_DEFAULT)),
    // One memory per data directory and endpoint: another collector has not seen these sessions.
    sentFile: `${cacheDir}/otlp-sent-${createHash('sha256').update(`${dataDir}\u0000${url}`).digest('hex').slice(0, 16)}.json`,
  };
}

/** `$XDG_CACHE_HOME/engine-console`, else `~/.cache/engine-console`. */
export function cacheDirOf(env: NodeJS.ProcessEnv, home: string | null): string {
  const xdg = nonEmpty(env.XDG_CACHE_HOME);
  return `${xdg ?? `${home ?? '.'}/.cache`}/engine-console`;
}
