// The flow page's sentence of what a threshold would change ("at 0.40: 31 fewer lookups served, 31 more
// hand-backs, in 18 of 100 sessions"), kept pure so it is tested once.
import type { WhatIf } from '../../../shared/whatif.ts';
import { plural } from './flow-words.ts';

function more(n: number, word: string, many: string, after = ''): string {
  if (n === 0) return `as many ${many}${after}`;
  return `${plural(Math.abs(n), word, many).replace(/^(\d+) /, `$1 ${n < 0 ? 'fewer' : 'more'} `)}${after}`;
}

export function whatIfSentence(w: WhatIf): string {
  if (w.sessions === 0) return 'No session of this flow’s domain shows the flow deciding: nothing to weigh a threshold against yet.';
  const lookups = more(w.total.served_at - w.total.served_then, 'lookup', 'lookups', ' served');
  const handBacks = more(w.total.handed_back_at - w.total.handed_back_then, 'hand-back', 'hand-backs');
  return `at ${w.threshold.toFixed(2)}: ${lookups}, ${handBacks}, in ${w.changed.length} of ${plural(w.sessions, 'session')}`;
}
