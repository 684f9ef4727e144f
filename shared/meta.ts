// GET /api/health and GET /api/meta (console-api.md §4.1–4.2).
import * as v from 'valibot';
import { JobKindSchema } from './jobs.ts';

export const HealthSchema = v.object({ ok: v.literal(true), version: v.string() });
export type Health = v.InferOutput<typeof HealthSchema>;

export const BinarySchema = v.object({ path: v.string(), version: v.nullable(v.string()) });
export type Binary = v.InferOutput<typeof BinarySchema>;

export const MetaSchema = v.object({
  version: v.string(),
  /** The canonical data directory, in full. */
  data_dir: v.string(),
  read_only: v.boolean(),
  /** false under --no-auth. */
  auth: v.boolean(),
  /** Whether TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE is set: never the value. */
  key_set: v.boolean(),
  /** Whether ENGINE_REDACT_SALT is set (redact jobs need it): never the value. */
  salt_set: v.boolean(),
  /** The CLI that jobs run. */
  engine: v.nullable(BinarySchema),
  /** engine-proxy. */
  proxy: v.nullable(BinarySchema),
  /** The job kinds this console offers: the SPEC's, and drift where the engine CLI has it. */
  job_kinds: v.optional(v.array(JobKindSchema), []),
});
export type Meta = v.InferOutput<typeof MetaSchema>;
