// The flow files the tree holds, under their keys (console-api.md §3.1), rebuilt when one comes or goes.
import { assignKeys, RESERVED_FLOW_KEYS } from '../engine/keys.ts';
import type { FlowFile } from './catalog.ts';
import { FLOW_FILE } from './log-names.ts';
import { compareRel } from './session-index.ts';
import type { DataTree } from './tree.ts';

export class FlowKeys {
  files: FlowFile[] = [];
  byKey = new Map<string, FlowFile>();
  /** Keys by the flow file's path relative to the data directory. */
  keyByRel = new Map<string, string>();
  /** Moves with every rebuild (the catalog and derived figures are memoized on it). */
  version = 0;

  rebuild(tree: DataTree): void {
    const found = tree.flowFiles().sort((a, b) => compareRel(a.rel, b.rel));
    const keys = assignKeys(
      found.map((f) => ({ stem: f.name.slice(0, -FLOW_FILE.length), rel: f.rel })),
      RESERVED_FLOW_KEYS,
    );
    this.files = found.map((f, i) => ({ key: keys[i]!, rel: f.rel, path: tree.pathOf(f.rel) }));
    this.byKey = new Map(this.files.map((f) => [f.key, f]));
    this.keyByRel = new Map(this.files.map((f) => [f.rel, f.key]));
    this.version++;
  }
}
