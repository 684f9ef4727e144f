// argv and the environment → what the launcher needs, with the refusals of console-api.md §1 (each message
// says how to fix it). Pure: it reads nothing but what it is given.
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { errorText } from '../shared/error-text.ts';
import type { OtlpOptions } from '../server/otlp/settings.ts';

export interface ListenAddress {
  host: string;
  port: number;
}

export interface Options {
  command: 'serve' | 'healthcheck';
  data: string | null;
  listen: ListenAddress;
  token: string | null;
  noAuth: boolean;
  readOnly: boolean;
  open: boolean;
  engine: string | null;
  /** --index-cache: where the index is saved between runs, or `off`. */
  indexCache: string | null;
  help: boolean;
  version: boolean;
  /** --otlp-endpoint, --otlp-since, --otlp-ended-after, --otlp-queue as given (server/otlp/settings.ts reads them). */
  otlp: OtlpOptions;
}

/** A usage mistake: one line on stderr and exit 2. */
export class UsageError extends Error {}
/** A refusal or failure at start: `engine-console: {message}` and exit 1. */
export class FatalError extends Error {}

export const USAGE = `usage: engine-console [--data DIR] [--listen ADDR] [--token TOKEN | --no-auth] [--read-only] [--open] [--engine PATH]
                      [--index-cache DIR|off]
       engine-console healthcheck [--listen ADDR]

  --data DIR      data directory (default: $ENGINE_HOME, else ~/.engine)
  --listen ADDR   IP:port to listen on (default: $ENGINE_CONSOLE_LISTEN, else 127.0.0.1:7878)
  --token TOKEN   the token the API requires (default: $ENGINE_CONSOLE_TOKEN, else a new random one)
  --no-auth       require no token (only on a loopback address)
  --read-only     change nothing: every write and action is refused
  --open          open the console in the browser ($BROWSER when set)
  --engine PATH   the engine CLI that jobs run (default: beside the console, else on PATH)
  --index-cache DIR|off
                  where the session index is kept between runs (default: $ENGINE_CONSOLE_INDEX_CACHE,
                  else $XDG_CACHE_HOME/engine-console, else ~/.cache/engine-console); off keeps none
  --otlp-endpoint URL    send each ended session as an OpenTelemetry trace to this OTLP/HTTP endpoint
                         (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else $OTEL_EXPORTER_OTLP_ENDPOINT)
  --otlp-since DATE      also send the sessions started since DATE (YYYY-MM-DD), once
  --otlp-ended-after S   a session has ended when its log has no new line for S seconds (default 300)
  --otlp-queue N         at most N sessions wait to be sent; more are dropped and counted (default 1000)`;

/** `127.0.0.1:7878`, `[::1]:7878`, `0.0.0.0:8080`: an IP literal and a port; host names are refused. */
export function parseListen(text: string): ListenAddress {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text) ?? /^([^:[\]]+):(\d{1,5})$/.exec(text);
  if (!m) throw new Error('expected IP:PORT, such as 127.0.0.1:7878 or [::1]:7878');
  const host = m[1]!;
  const port = Number(m[2]);
  const family = isIP(host);
  if (family === 0) throw new Error(`${host} is not an IP address (write 127.0.0.1, not localhost)`);
  if (m[0].startsWith('[') !== (family === 6)) throw new Error('write an IPv6 address in brackets, such as [::1]:7878');
  if (port > 65535) throw new Error(`port ${port} is out of range`);
  return { host, port };
}

export function isLoopback(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('127.');
  const h = host.toLowerCase();
  return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
}

/** The address as a socket-address formatter writes it: `127.0.0.1:7878`, `[::1]:7878`. */
export const formatAddress = (a: ListenAddress) => (isIP(a.host) === 6 ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`);

const nonEmpty = (s: string | undefined) => (s !== undefined && s.trim() !== '' ? s : undefined);

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options {
  const args = [...argv];
  const command = args[0] === 'healthcheck' ? 'healthcheck' : 'serve';
  if (command === 'healthcheck') args.shift();
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        data: { type: 'string' },
        listen: { type: 'string' },
        token: { type: 'string' },
        'no-auth': { type: 'boolean' },
        'read-only': { type: 'boolean' },
        open: { type: 'boolean' },
        engine: { type: 'string' },
        'otlp-endpoint': { type: 'string' },
        'otlp-since': { type: 'string' },
        'otlp-ended-after': { type: 'string' },
        'otlp-queue': { type: 'string' },
        'index-cache': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    }));
  } catch (err) {
    throw new UsageError(errorText(err).replace(/\. To specify.*$/s, ''));
  }
  if (command === 'healthcheck') {
    for (const k of ['data', 'token', 'no-auth', 'read-only', 'open', 'engine', 'index-cache'] as const) {
      if (values[k] !== undefined) throw new UsageError(`healthcheck takes only --listen, not --${k}`);
    }
  }
  const token = nonEmpty(values.token) ?? null;
  if (token !== null && values['no-auth']) throw new UsageError('--token and --no-auth do not go together: choose one');

  let listen: ListenAddress;
  if (values.listen !== undefined) {
    try {
      listen = parseListen(values.listen);
    } catch (err) {
      throw new UsageError(`--listen ${JSON.stringify(values.listen)}: ${errorText(err)}`);
    }
  } else {
    const fromEnv = env.ENGINE_CONSOLE_LISTEN?.trim();
    if (fromEnv) {
      try {
        listen = parseListen(fromEnv);
      } catch (err) {
        throw new FatalError(`ENGINE_CONSOLE_LISTEN=${JSON.stringify(fromEnv)} is not an address: ${errorText(err)}`);
      }
    } else listen = { host: '127.0.0.1', port: 7878 };
  }

  return {
    command,
    data: nonEmpty(values.data) ?? null,
    listen,
    token,
    noAuth: values['no-auth'] === true,
    readOnly: values['read-only'] === true,
    open: values.open === true,
    engine: nonEmpty(values.engine) ?? null,
    indexCache: nonEmpty(values['index-cache']) ?? null,
    help: values.help === true,
    version: values.version === true,
    otlp: {
      endpoint: values['otlp-endpoint'] ?? null,
      since: values['otlp-since'] ?? null,
      endedAfter: values['otlp-ended-after'] ?? null,
      queue: values['otlp-queue'] ?? null,
    },
  };
}

/** HOME when it is set (empty means none), else USERPROFILE (ERRATA A4). */
export function homeOf(env: NodeJS.ProcessEnv): string | null {
  const h = env.HOME !== undefined ? env.HOME : env.USERPROFILE;
  return h === undefined || h === '' ? null : h;
}
