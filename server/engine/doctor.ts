// The CLI doctor's checks that the console repeats in its health list (init-doctor-stage.md §2.2–2.5): the
// data directory (a probe file created exclusively, then removed), the model key (presence only, never a
// value), the companion binaries; the report lines they make, and how the console turns those lines into
// health items. The texts are the CLI's, byte for byte, since users compare them with `engine doctor`.
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorText } from '../../shared/error-text.ts';
import type { HealthItem, HealthLevel } from '../../shared/overview.ts';

export type ReportLevel = 'ok' | 'note' | 'problem' | 'item';
export interface ReportLine {
  level: ReportLevel;
  text: string;
}

const PREFIX: Record<ReportLevel, string> = { ok: 'ok       ', note: 'note     ', problem: 'problem  ', item: '           ' };

/** The report as the CLI prints it: one prefixed line each. */
export function renderReport(lines: readonly ReportLine[]): string {
  return lines.map((l) => `${PREFIX[l.level]}${l.text}\n`).join('');
}

/**
 * Report lines to health items (`from_report`): ok → ok, note → note, problem → `problemLevel`; an item line
 * takes the level of the line before it (note when first). Messages are trimmed.
 */
export function fromReport(lines: readonly ReportLine[], problemLevel: HealthLevel): HealthItem[] {
  const out: HealthItem[] = [];
  let last: HealthLevel = 'note';
  for (const line of lines) {
    const level: HealthLevel =
      line.level === 'ok' ? 'ok' : line.level === 'note' ? 'note' : line.level === 'problem' ? problemLevel : last;
    last = level;
    out.push({ level, message: line.text.trim() });
  }
  return out;
}

/** `check_dir`: can the CLI write in the data directory? `pid` names the probe file. */
export function checkDir(dir: string | null, pid: number): ReportLine[] {
  if (dir === null) {
    return [{ level: 'problem', text: 'neither HOME nor USERPROFILE is set, so there is no ~/.engine: pass --data' }];
  }
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    return [{ level: 'note', text: `${dir} does not exist yet; \`engine-proxy --record\` creates it` }];
  }
  if (!isDir) return [{ level: 'problem', text: `${dir} is not a directory` }];
  const probe = join(dir, `.engine-doctor-${pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (err) {
    return [{ level: 'problem', text: `${dir} is not writable: ${errorText(err)}` }];
  }
  rmSync(probe, { force: true });
  return [{ level: 'ok', text: `${dir} exists and is writable` }];
}

export const KEY_SET =
  'TYPESAFE_API_KEY is set (its value is not shown); `engine doctor --network` asks Jev one question with it';
export const KEY_FILE_SET =
  'TYPESAFE_API_KEY_FILE is set, so engine reads the key from that file; `engine doctor --network` asks Jev one question with it';
export const KEY_NOT_SET =
  "TYPESAFE_API_KEY is not set. It is optional: recording, `learn --habit-only`, `flow-show`, `flow-diff`, `audit`, `promote` and serving with `--flow-decider habit` or `reach` need no key. With one, engine asks TypeSafe's Jev: `learn` fits an arbiter, the proxy serves with `--flow-decider arbiter` and runs the confirmation judge, and `phase0 --oracle jev` measures Jev on τ²-bench.";

/** `check_key`: whether a key is set (present and not empty), never its value. */
export function checkKey(keySet: boolean, keyFileSet: boolean): ReportLine[] {
  if (keySet) return [{ level: 'ok', text: KEY_SET }];
  if (keyFileSet) return [{ level: 'ok', text: KEY_FILE_SET }];
  return [{ level: 'note', text: KEY_NOT_SET }];
}

/** Our install hint, in place of the original's cargo line (reference README, settled questions). */
const INSTALL_HINT = 'It comes with engine: install them together (docs/install.md).';

/** What the CLI found of one companion binary (`check_binaries`). */
export interface CompanionFound {
  name: string;
  what: string;
  needed: boolean;
  /** Found on PATH: its path. */
  onPath: string | null;
  /** Not on PATH but beside the running engine: its path. */
  beside: string | null;
  /** The first stdout line of `--version`, trimmed; null when it failed or printed nothing. */
  versionLine: string | null;
}

/** `check_binaries`, one companion: the CLI's own check of its companions at `version`. */
export function checkCompanion(found: CompanionFound, version: string): ReportLine {
  const missing: ReportLevel = found.needed ? 'problem' : 'note';
  if (found.onPath === null) {
    if (found.beside !== null) {
      return { level: missing, text: `${found.name} is at ${found.beside}, which is not on PATH (${found.what}): add its directory to PATH` };
    }
    return { level: missing, text: `${found.name} is not on PATH (${found.what}). ${INSTALL_HINT}` };
  }
  if (found.versionLine === null || found.versionLine === '') {
    return { level: 'problem', text: `${found.name} (${found.onPath}) does not answer \`--version\` as engine ${version}'s does. ${INSTALL_HINT}` };
  }
  if (found.versionLine === `${found.name} ${version}`) return { level: 'ok', text: `${found.versionLine} (${found.onPath})` };
  return { level: 'problem', text: `${found.versionLine} (${found.onPath}) is not engine ${version}'s: install them together. ${INSTALL_HINT}` };
}

/** The console's binaries check (`health_of_setup`): the CLI the jobs run, and the proxy. */
const CONSOLE_BINARIES = [
  { name: 'engine', what: 'jobs cannot run' },
  { name: 'engine-proxy', what: 'MCP hosts run it to record sessions and serve flows' },
] as const;

export function binaryHealth(
  name: string,
  what: string,
  binary: { path: string; version: string | null } | null,
  consoleVersion: string,
): HealthItem {
  if (binary === null) return { level: 'warn', message: `${name} is not beside the console or on PATH: ${what} (docs/install.md)` };
  if (binary.version === null) return { level: 'warn', message: `${name} (${binary.path}) does not answer --version` };
  if (binary.version === `${name} ${consoleVersion}`) return { level: 'ok', message: `${binary.version} (${binary.path})` };
  return {
    level: 'warn',
    message: `${binary.version} (${binary.path}) is not engine ${consoleVersion}'s, as the console is: install them together`,
  };
}

export interface SetupInputs {
  dataDir: string;
  readOnly: boolean;
  pid: number;
  consoleVersion: string;
  engine: { path: string; version: string | null } | null;
  proxy: { path: string; version: string | null } | null;
  keySet: boolean;
  keyFileSet: boolean;
}

/** The first items of the overview's health list: the data directory, the two binaries, the key. */
export function setupHealth(s: SetupInputs): HealthItem[] {
  const items: HealthItem[] = s.readOnly
    ? [{ level: 'note', message: `read-only: the console changes nothing in ${s.dataDir}` }]
    : fromReport(checkDir(s.dataDir, s.pid), 'error');
  items.push(binaryHealth('engine', CONSOLE_BINARIES[0].what, s.engine, s.consoleVersion));
  items.push(binaryHealth('engine-proxy', CONSOLE_BINARIES[1].what, s.proxy, s.consoleVersion));
  items.push(...fromReport(checkKey(s.keySet, s.keyFileSet), 'warn'));
  return items;
}
