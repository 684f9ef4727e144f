// The worker entry: Tinypool picks a task by its export name. Each area keeps its tasks in tasks/<area>.ts,
// thin calls into engine/ that return plain data ({ ok, value } or { ok: false, message }).
import './lane-priority.ts';
export * from './tasks/sessions.ts';
export * from './tasks/flows.ts';
export * from './tasks/stage.ts';
export * from './tasks/servers.ts';
export * from './tasks/disk.ts';
export * from './tasks/session-views.ts';
export * from './tasks/tree.ts';
export * from './tasks/search.ts';
export * from './tasks/otlp.ts';
export * from './tasks/replay.ts';
