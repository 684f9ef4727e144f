// Sessions as OpenTelemetry traces: the query of the two download endpoints and the streaming status that
// Settings shows. The attribute names follow the OpenTelemetry semantic conventions at SEMCONV_VERSION
// (MCP and GenAI spans, both "Development"); names of our own start `engine.` (README, "OpenTelemetry").
import * as v from 'valibot';
import { dayRangeInOrder } from './common.ts';
import { SessionsQuerySchema } from './sessions.ts';

/** The semantic conventions the export follows, pinned: both MCP and GenAI names have changed before. */
export const SEMCONV_VERSION = '1.39.0';
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

/** `payloads=1` adds the calls' arguments and results (opt-in: they may hold personal data). */
const payloadsFlag = v.optional(
  v.pipe(
    v.string('payloads: give it once, as 1 or 0'),
    v.check((s) => s === '' || s === '0' || s === '1', (issue) => `payloads ${JSON.stringify(issue.input)}: expected 1 or 0`),
    v.transform((s) => s === '1'),
  ),
  '0',
);

/** GET /api/sessions/:key/otlp */
export const SessionOtlpQuerySchema = v.object({ payloads: payloadsFlag });
export type SessionOtlpQuery = v.InferOutput<typeof SessionOtlpQuerySchema>;

/**
 * GET /api/sessions/otlp: the list's filters (domain, mode, q, from, to; no paging: every match), or `keys`
 * (comma-separated) for the ticked sessions.
 */
export const SessionsOtlpQuerySchema = v.pipe(
  v.object({
  ...SessionsQuerySchema.pipe[0].entries,
  keys: v.optional(
    v.pipe(
      v.string('keys: give it once, as keys separated by commas'),
      v.transform((s) => (s === '' ? null : s.split(',').filter((k) => k !== ''))),
    ),
    '',
  ),
  payloads: payloadsFlag,
  }),
  v.check(dayRangeInOrder, 'from: the first day must not be after the last (to)'),
);
export type SessionsOtlpQuery = v.InferOutput<typeof SessionsOtlpQuerySchema>;

export const OtlpProtocolSchema = v.picklist(['http/protobuf', 'http/json']);
export type OtlpProtocol = v.InferOutput<typeof OtlpProtocolSchema>;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Streaming ended sessions to a collector, as Settings shows it (never a header's value). */
export const OtlpStatusSchema = v.object({
  /** Where traces go (`.../v1/traces`); null when streaming is off. */
  endpoint: v.nullable(v.string()),
  protocol: OtlpProtocolSchema,
  /** Names of the headers sent with each request (their values are secrets). */
  header_names: v.array(v.string()),
  /** How long a log must go without a new line before its session counts as ended. */
  ended_after_ms: count,
  sent: count,
  queued: count,
  failed: count,
  /** Sessions a full queue refused: they wait, and are offered again as sends make room. */
  dropped: count,
  last_error: v.nullable(v.string()),
});
export type OtlpStatus = v.InferOutput<typeof OtlpStatusSchema>;
