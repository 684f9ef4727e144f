// Building blocks every resource schema uses. Wire fields stay snake_case end to end: the schema is the
// type, so server and client cannot drift apart.
import * as v from 'valibot';

/** A session or flow key: the file stem, or stem~hash when stems collide (spec §2, Key). */
export const KeySchema = v.string();
export type Key = v.InferOutput<typeof KeySchema>;

/** A path relative to the data directory, joined with `/`. */
export const RelPathSchema = v.string();
export type RelPath = v.InferOutput<typeof RelPathSchema>;

/** Milliseconds since the Unix epoch. */
export const UnixMsSchema = v.number();
export type UnixMs = v.InferOutput<typeof UnixMsSchema>;

/** A number from 0 to 1. */
export const ProbabilitySchema = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
export type Probability = v.InferOutput<typeof ProbabilitySchema>;

/** Every error the API answers: `{"error": "..."}` (spec §7). */
export const ErrorBodySchema = v.object({ error: v.string() });
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

/** `{"ok": true}`: what deletes and logout answer. */
export const OkSchema = v.object({ ok: v.literal(true) });
export type Ok = v.InferOutput<typeof OkSchema>;

/** Any JSON value, kept as the file had it (headers, arguments, results). */
export const JsonValueSchema = v.unknown();

/** A non-negative integer given in a query string ("50"), or the default when absent. */
export function queryInt(name: string, fallback: number) {
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,15}$/, `${name}: a whole number, 0 or more`),
      v.transform(Number),
    ),
    String(fallback),
  );
}

/** Whether `YYYY-MM-DD` names a day of the calendar (not 2026-13-01, not 2026-02-30). */
const isRealDay = (s: string): boolean => {
  const ms = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === s;
};

/** A UTC day given in a query string as `YYYY-MM-DD` (a real date), or null when absent or empty. */
export function queryDay(name: string) {
  return v.optional(
    v.pipe(
      v.string(`${name}: give it once, as YYYY-MM-DD`),
      v.check(
        (s) => s === '' || (/^\d{4}-\d{2}-\d{2}$/.test(s) && isRealDay(s)),
        (issue) => `${name} ${JSON.stringify(issue.input)}: a UTC day as YYYY-MM-DD`,
      ),
      v.transform((s) => (s === '' ? null : s)),
    ),
    '',
  );
}

/** One of `values` given in a query string, or `fallback` when absent or empty. */
export function queryPick<T extends string, F extends T | null>(name: string, values: readonly T[], fallback: F) {
  return v.optional(
    v.pipe(
      v.string(`${name}: give it once, as one of ${values.join(', ')}`),
      v.check(
        (s) => s === '' || (values as readonly string[]).includes(s),
        (issue) => `${name} ${JSON.stringify(issue.input)}: expected one of ${values.join(', ')}`,
      ),
      v.transform((s): T | F => (s === '' ? fallback : (s as T))),
    ),
    '',
  );
}

/** `from` and `to` (UTC days, both included) in order. */
export const dayRangeInOrder = <T extends { from: string | null; to: string | null }>(q: T): boolean => q.from === null || q.to === null || q.from <= q.to;

/** A request body must be a JSON object: valibot's object check lets an array (`[]`) through. */
export function bodyObject<S extends v.GenericSchema<object, unknown>>(schema: S) {
  return v.pipe(
    v.custom<object>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'the request is not as expected: a JSON object'),
    schema,
  );
}
