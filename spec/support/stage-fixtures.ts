// Staged-learning test helpers: the reference's worked examples as data, a state file like the one
// `engine stage` writes, and a staged flow built from a fixture flow, in a temp copy of the fixture home.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceDir } from './fixtures.ts';
import type { Comparison, Count, Side, StageState } from '../../server/engine/stage.ts';

/** A count as the CLI's own tests build it: one decision more than its lookups. */
export function count(lookups: number, used: number, served: number): Count {
  return { decisions: lookups + 1, lookups, used, served };
}

function side(site: string, c: Count, unanswered: number): Side {
  return { sites: { [site]: c }, unanswered };
}

/**
 * The state behind the reference's §3.5 example: four sessions, the last two scored by both flows (the
 * original's own stage test builds the same ledger).
 */
export function exampleState(last: Comparison | null = null): StageState {
  return {
    engine_stage: 1,
    domain: 'shop',
    sessions: ['0', '1', '2', '3'],
    ledger: [
      { session: '0' },
      { session: '1', committed: side('a', count(2, 2, 0), 0) },
      { session: '2', committed: side('a', count(2, 1, 1), 0), staged: side('a', count(3, 1, 0), 1) },
      { session: '3', committed: side('a', count(1, 1, 0), 2), staged: side('b', count(1, 0, 0), 0) },
    ],
    ...(last ? { last } : {}),
  };
}

/** A code block of a reference page: the rendered one that follows the line starting with `after`. */
export function referenceBlock(page: string, after: string): string {
  const text = readFileSync(join(referenceDir, page), 'utf8');
  const start = text.indexOf(`\n${after}`);
  if (start < 0) throw new Error(`${page}: no line starting ${JSON.stringify(after)}`);
  const open = text.indexOf('```\n', start);
  const close = text.indexOf('\n```', open + 4);
  return text.slice(open + 4, close + 1);
}

/** The state file as the CLI writes it: compact JSON. */
export function writeState(home: string, name: string, state: StageState): string {
  const path = join(home, `${name}.stage.json`);
  writeFileSync(path, JSON.stringify(state));
  return path;
}

/** The shop flows' provenance.compiled_unix_ms: a comparison with it is the staged flow's evidence. */
export const SHOP_LEARNED = 1790561041051;

/**
 * Stage a flow for `shop` in `home`: the promoted shop flow's bytes (the same domain, a promotion added), so
 * committing it changes exactly what texts.json's diff_shop_promoted lists.
 */
export function stageShop(home: string): Buffer {
  const bytes = readFileSync(join(home, 'shop.promoted.flow.json'));
  writeFileSync(join(home, 'shop.staged.flow.json'), bytes);
  return bytes;
}

/** The change lines of a flow-diff Markdown text (its `- ` lines), in order. */
export function changeLines(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}
