// GET /api/settings (console-api.md §4.4): the data directory's size by kind, the four binaries, whether the
// key is set (never its value) and the retention note.
import * as v from 'valibot';

const bytes = v.number();

export const DiskSchema = v.object({
  /** Session logs with their flow and confirmation logs (`*.jsonl`). */
  logs_bytes: bytes,
  /** `*.flow.json`. */
  flows_bytes: bytes,
  /** `oracle-cache/`. */
  cache_bytes: bytes,
  /** Everything else, `console/` included. */
  other_bytes: bytes,
  total_bytes: bytes,
});
export type Disk = v.InferOutput<typeof DiskSchema>;

export const BinaryStatusSchema = v.object({
  name: v.string(),
  path: v.nullable(v.string()),
  version: v.nullable(v.string()),
});
export type BinaryStatus = v.InferOutput<typeof BinaryStatusSchema>;

export const SettingsSchema = v.object({
  data_dir: v.string(),
  disk: DiskSchema,
  /** Session log files the scan finds, readable or not. */
  sessions: v.number(),
  /** Flow files the scan finds. */
  flows: v.number(),
  key_set: v.boolean(),
  retention_note: v.string(),
  /** engine, engine-proxy, engine-procedure, engine-mcp-demo, in that order. */
  binaries: v.array(BinaryStatusSchema),
  version: v.string(),
  read_only: v.boolean(),
  auth: v.boolean(),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;
