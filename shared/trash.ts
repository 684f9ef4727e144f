// The trash (not in the spec; issue 15): what DELETE moved to console/trash/<time>/, restoring one folder to
// where its files came from, and emptying it. A folder is one delete: a session log with its companions, one
// flow file, or a server removed from the registry (its entry, put back into servers.json on restore).
import * as v from 'valibot';
import { RelPathSchema, UnixMsSchema } from './common.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The name of a trash folder: the time of the delete, in ms, as digits. */
export const TrashIdSchema = v.pipe(v.string(), v.regex(/^\d{1,16}$/, 'a trash id is the digits of its folder name'));
export type TrashId = v.InferOutput<typeof TrashIdSchema>;

export const TrashKindSchema = v.picklist(['session', 'flow', 'server', 'other']);
export type TrashKind = v.InferOutput<typeof TrashKindSchema>;

export const TrashFileSchema = v.object({
  /** Where it was, relative to the data directory (where a restore puts it back). */
  path: RelPathSchema,
  size_bytes: count,
  /** Something is at that path again: restoring this folder is refused (409). */
  taken: v.boolean(),
});
export type TrashFile = v.InferOutput<typeof TrashFileSchema>;

export const TrashEntrySchema = v.object({
  id: TrashIdSchema,
  deleted_unix_ms: UnixMsSchema,
  /** A session log (with its companions), a flow, a server removed from the registry, or anything else. */
  kind: TrashKindSchema,
  /** The session log or flow file the folder holds; `servers.json` for a server (it goes back in there); the first file otherwise. */
  path: RelPathSchema,
  /** For a server, one file: `servers.json`, `taken` while a server of that name is registered again. */
  files: v.array(TrashFileSchema),
  /** The removed server's name (kind `server` only). */
  server: v.optional(v.string()),
});
export type TrashEntry = v.InferOutput<typeof TrashEntrySchema>;

/** GET /api/trash: newest first. */
export const TrashListSchema = v.object({ items: v.array(TrashEntrySchema), size_bytes: count });
export type TrashList = v.InferOutput<typeof TrashListSchema>;

/** POST /api/trash/:id/restore: the files put back. */
export const TrashRestoredSchema = v.object({ ok: v.literal(true), restored: v.array(RelPathSchema) });
export type TrashRestored = v.InferOutput<typeof TrashRestoredSchema>;

/** DELETE /api/trash: how many folders were emptied. */
export const TrashEmptiedSchema = v.object({ ok: v.literal(true), removed: count });
export type TrashEmptied = v.InferOutput<typeof TrashEmptiedSchema>;

/** The params of /api/trash/:id/restore. */
export const TrashParamsSchema = v.object({ id: TrashIdSchema });
