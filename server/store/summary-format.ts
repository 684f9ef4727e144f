// The version of the summaries' format a saved index must carry to be trusted: injected by the bundler, or
// computed from the sources when run through tsx (scripts/summary-format.mjs says what it hashes).
import { fileURLToPath } from 'node:url';

declare const __SUMMARY_FORMAT__: string | undefined;

async function fromSources(): Promise<string> {
  const script: unknown = await import(new URL('../../scripts/summary-format.mjs', import.meta.url).href);
  if (typeof script !== 'object' || script === null || !('summaryFormat' in script) || typeof script.summaryFormat !== 'function') {
    throw new Error('scripts/summary-format.mjs has no summaryFormat function');
  }
  return String(script.summaryFormat(fileURLToPath(new URL('../..', import.meta.url))));
}

let memo: Promise<string> | null = null;

export function summaryFormat(): Promise<string> {
  return (memo ??= typeof __SUMMARY_FORMAT__ === 'string' ? Promise.resolve(__SUMMARY_FORMAT__) : fromSources());
}
