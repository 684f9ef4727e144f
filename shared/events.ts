// The payload of a `changed` event on /api/events (spec §6, console-api.md §6).
import * as v from 'valibot';

export const ChangedWhatSchema = v.picklist(['sessions', 'flows', 'servers', 'jobs']);
export type ChangedWhat = v.InferOutput<typeof ChangedWhatSchema>;

export const ChangedEventSchema = v.object({ what: ChangedWhatSchema, keys: v.array(v.string()) });
export type ChangedEvent = v.InferOutput<typeof ChangedEventSchema>;
