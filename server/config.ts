// What the launcher works out before serving (console-api.md §1): the canonical data directory, the token,
// the binaries found, which secrets are set (presence only, never values) and a clock tests can fix.
import type { Binary } from '../shared/meta.ts';
import type { SavedIndexOptions } from './store/index-saver.ts';

import type { OtlpSettings } from './otlp/settings.ts';

export interface Config {
  version: string;
  /** The canonical (realpath) data directory. */
  dataDir: string;
  /** HOME (or USERPROFILE when HOME is unset), read once; null when there is none. */
  home: string | null;
  /** The token the API requires; null under --no-auth. */
  token: string | null;
  /** True when the token was generated (and so may be printed). */
  tokenGenerated: boolean;
  readOnly: boolean;
  /** Where the session index is kept between runs (bin/index-cache.ts); null: nowhere. */
  savedIndex: SavedIndexOptions | null;
  /** The IP literal the listener is bound to, as given (`127.0.0.1`, `::1`, `0.0.0.0`). */
  listenHost: string;
  /** The bound port (port 0 is resolved after binding). */
  port: number;
  engine: Binary | null;
  proxy: Binary | null;
  procedure: Binary | null;
  mcpDemo: Binary | null;
  /** TYPESAFE_API_KEY is set and not empty. */
  keySet: boolean;
  /** TYPESAFE_API_KEY_FILE is set and not empty. */
  keyFileSet: boolean;
  /** ENGINE_REDACT_SALT is set and not empty. */
  redactSaltSet: boolean;
  /** The built UI (console/dist) when there is one. */
  uiDir: string | null;
  /** Read console/dist from disk on every request (development) instead of from memory. */
  uiFromDisk: boolean;
  /** The clock: wall time, fixed by tests through ENGINE_CONSOLE_NOW_MS. */
  now(): number;
  /** Where ended sessions are streamed as OTLP (otlp/settings.ts); absent or null: not streamed. */
  otlp?: OtlpSettings | null;
}
