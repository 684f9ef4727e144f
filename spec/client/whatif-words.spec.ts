// client/src/lib/whatif-words.ts: the flow page's sentence of what a threshold would change.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { whatIfSentence } from '../../client/src/lib/whatif-words.ts';
import type { WhatIf } from '../../shared/whatif.ts';

const words = suite('client what-if words');
const answer = (threshold: number, then: number, at: number, decisions: number, changed: number, sessions: number): WhatIf => ({
  threshold,
  sessions,
  total: { served_then: then, handed_back_then: decisions - then, served_at: at, handed_back_at: decisions - at },
  sites: [],
  changed: Array.from({ length: changed }, (_, i) => ({ key: `k${i}`, served_then: 1, served_at: 0 })),
});

words('fewer, more, as many; one and many', () => {
  assert.is(whatIfSentence(answer(0.4, 60, 29, 100, 18, 100)), 'at 0.40: 31 fewer lookups served, 31 more hand-backs, in 18 of 100 sessions');
  assert.is(whatIfSentence(answer(0.1, 5, 6, 10, 1, 1)), 'at 0.10: 1 more lookup served, 1 fewer hand-back, in 1 of 1 session');
  assert.is(whatIfSentence(answer(0.3, 5, 5, 10, 0, 4)), 'at 0.30: as many lookups served, as many hand-backs, in 0 of 4 sessions');
});

words('no session to weigh against says so', () => {
  assert.match(whatIfSentence(answer(0.3, 0, 0, 0, 0, 0)), 'nothing to weigh a threshold against');
});

words.run();
