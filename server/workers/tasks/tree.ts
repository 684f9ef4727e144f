// The start's two reads of the data directory, in the pool: the newest logs by name (store/head-scan.ts),
// then the first walk (store/first-walk.ts). The walk's answer, some 7 MB at 100k
// sessions, is written to the console's spool and read back from there (store/walk-answer.ts: a directory's
// names a record): through the worker's channel it took longer than the walk itself (the channel gathers a
// big message chunk by chunk).
import { closeSync, openSync } from 'node:fs';
import { firstWalk } from '../../store/first-walk.ts';
import { checkSaved, readSavedTree, type SavedSource } from '../../store/persisted-index.ts';
import { stampNow } from '../../store/stamp.ts';
import { type Head, newestLogs, type ScanPart } from '../../store/head-scan.ts';
import { walkRecords } from '../../store/walk-answer.ts';
import { writeParts } from '../write-parts.ts';

/** Writes the walk to `out` (a new file in the spool); answers how many logs it found. `saved`: a saved index, whose still directories are taken as saved where unchanged. */
export function walkTreeTask(input: { root: string; out: string; saved?: SavedSource }): number {
  const walk = firstWalk(input.root, input.saved ? readSavedTree(input.saved) : undefined);
  const fd = openSync(input.out, 'wx', 0o600);
  try {
    writeParts(fd, walkRecords(walk));
  } finally {
    closeSync(fd);
  }
  return walk.flags.length;
}


/** The newest `count` logs by their names (of a part of the directories), or null where the walk must decide (head-scan.ts). */
export function newestLogsTask(input: { root: string; count: number; part?: ScanPart }): Head | null {
  return newestLogs(input.root, input.count, input.part);
}

/** The stamps of these logs now (the store's sweep compares them with the ones it holds). */
export function stampTask(logs: { path: string; flowLog: string | null; confirmLog: string | null }[]): string[] {
  return logs.map(stampNow);
}

/** Which of a saved index's entries are as their files are now (store/persisted-index.ts: checkSaved). */
export function checkSavedTask(input: { root: string; source: SavedSource; first: number; end: number }): Uint8Array[] | null {
  return checkSaved(input.root, input.source, input.first, input.end);
}
