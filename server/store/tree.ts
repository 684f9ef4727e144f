// The data directory's tree as the scan sees it (console-api.md §3.2: three levels, `oracle-cache/` and the
// console's own `console/` skipped, a symbolic link followed only while it stays inside), kept current by
// the platform's change notifications instead of being walked again for every request.
//
// Each directory in the scan's reach holds its sorted listing and one `fs.watch` (inotify on Linux). A
// notification names the directory and, usually, the entry: on the next `refresh()` an entry that came or
// went is looked at alone (one lstat, not a listing of a directory that may hold tens of thousands of logs);
// a notification without a name has its directory listed again and diffed, and the entry is reported as
// touched (its contents may have changed). The directory's stamp is then taken as seen (a request's refresh
// first lets every notification already queued be delivered: `Store.sync`), unless the burst is so large
// that the kernel's queue may have overflowed and dropped some: then every directory is listed again. Where
// a watch cannot be set (no inotify, a network mount, the watch limit reached), the directory falls back to
// polling: its stamp is checked on every refresh and all its files are reported as touched, so the caller
// stats them. Links are re-resolved on every refresh, since a link's target can change without its
// directory changing. Beside the scan's reach, the console's job records (`console/jobs/`) are kept the
// same way, so the flows, the jobs and the registry are watched by the tree like the logs.
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { SCAN_DEPTH } from '../../shared/limits.ts';
import { dirStamp } from './stamp.ts';
import { CONFIRM_LOG, FLOW_FILE, FLOW_LOG, JOB_RECORDS, JSONL, REGISTRY_FILE, STAGE_FILE } from './log-names.ts';
import { entersDir, entryAt, type EntryKind, inoOf, listDir, NAME_SEP, type Reach, reachOf, type WalkedDir } from './listing.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { STILL_MS, stampMtimeMs, type TreeDir } from './saved-tree.ts';
import { TreeEntries } from './tree-entries.ts';

/**
 * Until the notifications of every change made before this call are delivered: the kernel queues them at
 * once, and the loop delivers them in its next poll phase, which lies between two check phases. A refresh
 * that must see what was written just before it waits for this first (the tree trusts what they name).
 */
export const noticesIn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/** More names than this notified in one refresh, over all directories: the kernel's queue may have overflowed. */
const RENAME_BURST = 1_024;

export type FileKind = 'session' | 'flowlog' | 'confirmlog' | 'flow' | 'stage' | 'registry' | 'job' | 'other';

/** What a file is, from the directory it is in (relative to the data directory) and its name. */
export function fileKind(name: string, dirRel = ''): FileKind {
  if (dirRel === JOB_RECORDS) return 'job';
  if (name.endsWith(FLOW_FILE)) return 'flow';
  if (name.endsWith(STAGE_FILE)) return 'stage';
  if (name.endsWith(FLOW_LOG)) return 'flowlog';
  if (name.endsWith(CONFIRM_LOG)) return 'confirmlog';
  if (name.endsWith(JSONL)) return 'session';
  if (dirRel === '' && name === REGISTRY_FILE) return 'registry';
  return 'other';
}

/**
 * A regular file in reach: its path relative to the data directory (its absolute path, through the data
 * directory and not canonical, is `tree.pathOf(rel)`), its name and what it is. Made when asked: the tree
 * keeps only each directory's names, not an object and a path per file.
 */
export interface TreeFile {
  rel: string;
  name: string;
  kind: FileKind;
}

export interface TreeChanges {
  added: TreeFile[];
  removed: TreeFile[];
  /** Files whose contents may have changed (notified). */
  touched: TreeFile[];
  /** Files of polled directories, which nothing vouches for: the caller compares their stamps. */
  polled: TreeFile[];
}

interface DirNode {
  path: string;
  rel: string;
  depth: number;
  /** Name → what it is once links are resolved (other entries are not kept). */
  entries: TreeEntries;
  /** Names that are links (re-resolved on each refresh). */
  links: Set<string>;
  watcher: FSWatcher | null;
  /** For a polled directory: its last stamp. */
  stamp: string | null;
  /** The directory's inode when it was listed: a new one is another directory under the same name. */
  ino: bigint | null;
  /** When `stamp` was taken (ms since the epoch): its names were listed after it. */
  stampedAt: number;
}

export class DataTree {
  private readonly dirs = new Map<string, DirNode>();
  /** The same directories by their path relative to the data directory ('' for the data directory). */
  private readonly dirsByRel = new Map<string, DirNode>();
  private readonly dirtyDirs = new Set<string>();
  /** Entries notified as come or gone, by watched directory, looked at one by one. */
  private readonly renamed = new Map<DirNode, Set<string>>();
  private readonly touchedRels = new Set<string>();
  private readonly polledRels = new Set<string>();
  private readonly reach: Reach;
  private closed = false;
  /** Directories listed again since the tree was made (tests and the bench read it). */
  relisted = 0;
  /** Called (at most once per burst) when a notification arrived, so the owner can refresh soon. */
  onNotice: () => void = () => {};

  constructor(readonly root: string, private readonly useWatch = true) {
    this.reach = reachOf(root);
  }

  /** Whether a regular file is kept at `rel`. */
  hasFile(rel: string): boolean {
    const cut = rel.lastIndexOf('/');
    const node = this.dirsByRel.get(cut === -1 ? '' : rel.slice(0, cut));
    return node?.entries.get(cut === -1 ? rel : rel.slice(cut + 1)) === 'file';
  }

  /** The regular file kept at `rel`, or null. */
  fileAt(rel: string): TreeFile | null {
    if (!this.hasFile(rel)) return null;
    const cut = rel.lastIndexOf('/');
    const name = rel.slice(cut + 1);
    return { rel, name, kind: fileKind(name, cut === -1 ? '' : rel.slice(0, cut)) };
  }

  /** The flows' files (a scan of the names by their ending first: the session directories hold nearly all names). */
  flowFiles(): TreeFile[] {
    const out: TreeFile[] = [];
    for (const node of this.dirs.values()) {
      node.entries.endingWith(FLOW_FILE, (name, entry) => {
        if (entry === 'file' && fileKind(name, node.rel) === 'flow') out.push({ rel: this.relOf(node, name), name, kind: 'flow' });
      });
    }
    return out;
  }

  /** Every regular file kept, directory by directory. */
  *allFiles(): Generator<TreeFile> {
    for (const node of this.dirs.values()) {
      for (const [name, entry] of node.entries) if (entry === 'file') yield { rel: this.relOf(node, name), name, kind: fileKind(name, node.rel) };
    }
  }

  /** The absolute path of a file in the tree. */
  pathOf(rel: string): string {
    return `${this.root}/${rel}`;
  }

  /** Walk the whole tree here (the first scan); every file found is reported as added. */
  open(): TreeFile[] {
    const added: TreeFile[] = [];
    this.walk(this.root, '', 1, added);
    this.keepJobRecords();
    return added;
  }

  /**
   * Take the first scan from a walk made elsewhere (listing.ts `walkTree`, in the pool), `slice` files per
   * turn of the event loop. Each directory is watched from then
   * on; one whose stamp moved since the walk listed it is listed again on the next refresh, so nothing written
   * between the walk and the watch is missed. The owner must not refresh before this resolves. `names`: each
   * walked directory's names, split.
   */
  async adopt(walked: readonly WalkedDir[], names: readonly (readonly string[])[]): Promise<void> {
    for (const [i, w] of walked.entries()) {
      if (this.closed) return;
      // The walk's names are sorted by code unit: kept as they are.
      const entries = new TreeEntries(names[i] ?? [], new Set(w.dirs));
      const node: DirNode = { path: w.path, rel: w.rel, depth: w.depth, entries, links: new Set(w.links), watcher: null, stamp: w.stamp, ino: w.ino, stampedAt: w.stampedAt };
      this.dirs.set(w.path, node);
      this.dirsByRel.set(w.rel, node);
      this.watchDir(node);
      if (dirStamp(w.path) !== w.stamp) this.dirtyDirs.add(w.path);
      await nextTurn();
    }
    if (!this.closed) this.keepJobRecords();
  }

  /**
   * The job records' directory, outside the scan's reach: listed and watched like the others (its records are
   * not reported as added). Until it exists it is polled, and watched once it is listed.
   */
  private keepJobRecords(): void {
    const path = join(this.root, JOB_RECORDS);
    const listing = this.list(path);
    const stampedAt = Date.now();
    const node: DirNode = { path, rel: JOB_RECORDS, depth: SCAN_DEPTH, entries: new TreeEntries(), links: listing?.links ?? new Set(), watcher: null, stamp: dirStamp(path), ino: inoOf(path), stampedAt };
    for (const [name, kind] of listing?.entries ?? []) if (kind === 'file') node.entries.set(name, kind);
    this.dirs.set(path, node);
    this.dirsByRel.set(JOB_RECORDS, node);
    if (listing !== null) this.watchDir(node);
  }

  /** How many directories fell back to polling (for the health list and the bench). */
  get polled(): number {
    let n = 0;
    for (const d of this.dirs.values()) if (d.watcher === null) n++;
    return n;
  }

  get dirCount(): number {
    return this.dirs.size;
  }

  /** Whether anything was notified since the last refresh. */
  get pending(): boolean {
    return this.dirtyDirs.size > 0 || this.renamed.size > 0 || this.touchedRels.size > 0;
  }

  /**
   * Apply what the notifications (and the polled directories' stamps) say changed since the last call.
   * `checkDirs`: also compare every directory's stamp (one stat each), for a request that must see a file
   * written just before it even if its notification has not been delivered yet. `pollFiles`: report every
   * file of a polled directory as touched (the tick does; a request does not). A directory whose notified
   * entries were looked at takes its stamp as seen: a caller that must see what was written just before it
   * first lets the notifications of it in (`Store.sync`).
   */
  refresh({ checkDirs = false, pollFiles = true }: { checkDirs?: boolean; pollFiles?: boolean } = {}): TreeChanges {
    const out: TreeChanges = { added: [], removed: [], touched: [], polled: [] };
    this.recheckRenamed(out);
    for (const node of [...this.dirs.values()]) {
      // The job records' directory is stamped each time too: it may go and come back (a watch does not follow).
      if (node.watcher === null || checkDirs || node.rel === JOB_RECORDS) {
        const stamp = dirStamp(node.path);
        if (stamp !== node.stamp) this.dirtyDirs.add(node.path);
      }
      if (node.watcher === null && pollFiles) {
        for (const [name, kind] of node.entries) if (kind === 'file') this.polledRels.add(this.relOf(node, name));
      }
      if (node.links.size > 0) this.dirtyDirs.add(node.path);
    }
    const dirty = [...this.dirtyDirs].sort();
    this.dirtyDirs.clear();
    for (const path of dirty) {
      const node = this.dirs.get(path);
      if (node) this.relist(node, out);
    }
    const added = new Set(out.added.map((f) => f.rel));
    for (const rel of this.touchedRels) {
      const f = added.has(rel) ? null : this.fileAt(rel);
      if (f) out.touched.push(f);
    }
    for (const rel of this.polledRels) {
      const f = added.has(rel) || this.touchedRels.has(rel) ? null : this.fileAt(rel);
      if (f) out.polled.push(f);
    }
    this.touchedRels.clear();
    this.polledRels.clear();
    return out;
  }

  /**
   * The directories whose names a restart may take as they are now, without listing them (saved-tree.ts): watched, holding
   * no link, nothing notified of them still to look at, and stamped after `before` (the notifications of every change made
   * before that are in) and at least STILL_MS after they last changed. A directory a turn of the event loop.
   */
  async stillDirs(before: number): Promise<TreeDir[]> {
    const out: TreeDir[] = [];
    for (const node of [...this.dirs.values()]) {
      if (this.closed) return [];
      const still = node.watcher !== null && node.links.size === 0 && node.rel !== JOB_RECORDS && node.stamp !== null && this.dirs.get(node.path) === node;
      if (!still || node.stampedAt >= before || this.dirtyDirs.has(node.path) || this.renamed.has(node)) continue;
      if (stampMtimeMs(node.stamp!) > node.stampedAt - STILL_MS) continue;
      const { names, dirs } = node.entries.sortedNames();
      out.push({ rel: node.rel, depth: node.depth, stamp: node.stamp!, names, dirs });
      await nextTurn();
    }
    return out;
  }

  close(): void {
    this.closed = true;
    for (const d of this.dirs.values()) d.watcher?.close();
    this.dirs.clear();
    this.dirsByRel.clear();
    this.renamed.clear();
  }

  private relOf(node: DirNode, name: string): string {
    return node.rel ? `${node.rel}/${name}` : name;
  }

  /** One directory's entries as the scan keeps them (tests step in here to change it right after it is read). */
  protected list(path: string) {
    return listDir(path, this.reach);
  }

  private walk(path: string, rel: string, depth: number, added: TreeFile[]): void {
    if (this.closed) return;
    // Watched and stamped before it is listed: a file made just after the listing is notified. Stamped after,
    // it was lost (a directory's times move in coarse ticks, so the stamp matched the one it was taken with).
    const stampedAt = Date.now();
    const node: DirNode = { path, rel, depth, entries: new TreeEntries(), links: new Set(), watcher: null, stamp: dirStamp(path), ino: inoOf(path), stampedAt };
    this.watchDir(node);
    const listing = this.list(path);
    if (listing === null) {
      node.watcher?.close();
      return;
    }
    node.links = listing.links;
    this.dirs.set(path, node);
    this.dirsByRel.set(rel, node);
    for (const [name, kind] of listing.entries) this.enter(node, name, kind, added);
  }

  private enter(node: DirNode, name: string, kind: EntryKind, added: TreeFile[]): void {
    const childRel = this.relOf(node, name);
    if (kind === 'dir') {
      if (!entersDir(node.depth, name)) return;
      node.entries.set(name, 'dir');
      this.walk(join(node.path, name), childRel, node.depth + 1, added);
      return;
    }
    node.entries.set(name, 'file');
    added.push({ rel: childRel, name, kind: fileKind(name, node.rel) });
  }

  private leave(node: DirNode, name: string, kind: EntryKind, removed: TreeFile[]): void {
    node.entries.delete(name);
    if (kind === 'file') {
      removed.push({ rel: this.relOf(node, name), name, kind: fileKind(name, node.rel) });
      return;
    }
    const child = this.dirs.get(join(node.path, name));
    if (!child) return;
    for (const [n, k] of [...child.entries]) this.leave(child, n, k, removed);
    child.watcher?.close();
    this.dirs.delete(child.path);
    if (this.dirsByRel.get(child.rel) === child) this.dirsByRel.delete(child.rel);
  }

  private recheckRenamed(out: TreeChanges): void {
    let names = 0;
    for (const set of this.renamed.values()) names += set.size;
    if (names > RENAME_BURST) {
      for (const path of this.dirs.keys()) this.dirtyDirs.add(path);
      this.renamed.clear();
      return;
    }
    for (const [node, set] of this.renamed) {
      if (this.dirs.get(node.path) !== node || this.dirtyDirs.has(node.path)) continue;
      // Taken before the entries are looked at: a change after it moves the stamp again.
      const stampedAt = Date.now();
      const stamp = dirStamp(node.path);
      for (const name of [...set].sort()) this.recheck(node, name, out);
      node.stamp = stamp;
      node.stampedAt = stampedAt;
    }
    this.renamed.clear();
  }

  /** One entry a notification named, against what the tree holds (a directory made again under the same name is walked afresh). */
  private recheck(node: DirNode, name: string, out: TreeChanges): void {
    const full = join(node.path, name);
    const now = entryAt(full, this.reach);
    if (now.link) node.links.add(name);
    else node.links.delete(name);
    const was = node.entries.get(name);
    if (was === now.kind) {
      const child = was === 'dir' ? this.dirs.get(full) : undefined;
      if (child && child.ino !== inoOf(full)) {
        this.leave(node, name, 'dir', out.removed);
        this.enter(node, name, 'dir', out.added);
      }
      return;
    }
    if (was !== undefined) this.leave(node, name, was, out.removed);
    if (now.kind !== null) this.enter(node, name, now.kind, out.added);
  }

  private relist(node: DirNode, out: TreeChanges): void {
    this.relisted++;
    node.stampedAt = Date.now();
    node.stamp = dirStamp(node.path);
    const listing = this.list(node.path);
    const now = listing?.entries ?? new Map<string, EntryKind>();
    node.links = listing?.links ?? new Set();
    if (node.rel === JOB_RECORDS) this.rewatch(node, listing !== null);
    for (const [name, kind] of [...node.entries]) {
      const next = now.get(name);
      if (next !== kind) this.leave(node, name, kind, out.removed);
    }
      for (const [name, kind] of now) {
      if (node.entries.get(name) === kind) continue;
      this.enter(node, name, kind, out.added);
    }
    // A directory removed and made again under the same name is another directory: walk it afresh.
    for (const [name, kind] of now) {
      if (kind !== 'dir' || node.entries.get(name) !== 'dir') continue;
      const child = this.dirs.get(join(node.path, name));
      if (child && child.ino !== inoOf(child.path)) {
        this.leave(node, name, 'dir', out.removed);
        this.enter(node, name, 'dir', out.added);
      }
    }
  }

  /** A directory made again (or made at last) under a watched name is watched afresh. */
  private rewatch(node: DirNode, there: boolean): void {
    const ino = there ? inoOf(node.path) : null;
    if (ino === node.ino && node.watcher !== null) return;
    node.watcher?.close();
    node.watcher = null;
    node.ino = ino;
    if (there) this.watchDir(node);
  }

  private watchDir(node: DirNode): void {
    if (!this.useWatch) return;
    try {
      const w = watch(node.path, { persistent: false }, (event, name) => {
        if (name === null) this.dirtyDirs.add(node.path);
        else {
          const n = String(name);
          if (event === 'rename') {
            let set = this.renamed.get(node);
            if (set === undefined) this.renamed.set(node, (set = new Set()));
            set.add(n);
          }
          const kind = node.entries.get(n);
          if (kind === 'file' || kind === undefined) this.touchedRels.add(this.relOf(node, n));
          else if (event !== 'rename') this.dirtyDirs.add(node.path);
        }
        this.onNotice();
      });
      w.on('error', () => {
        // The directory went away or the watch broke: fall back to polling it until it is listed again.
        w.close();
        if (node.watcher === w) node.watcher = null;
        this.dirtyDirs.add(node.path);
      });
      node.watcher = w;
    } catch {
      node.watcher = null;
    }
  }
}
