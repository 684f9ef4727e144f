// The flow pages' data-dependent sentences.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deciderSentence, joinWords, learnedLine, stageBadge, toolCountsText } from '../../client/src/lib/flow-words.ts';

const flowWords = suite('flow-words');

flowWords('the learned-from line counts sessions and names sources', () => {
  assert.is(learnedLine({ habit_episodes: 6, sources: ['quickstart'], has_arbiter: false, arbiter_cases: 0 }), 'Learned from 6 sessions of quickstart.');
  assert.is(learnedLine({ habit_episodes: 1, sources: [], has_arbiter: true, arbiter_cases: 1 }), 'Learned from 1 session of no named source; its arbiter was fitted on 1 held-out decision.');
  assert.is(joinWords(['a', 'b', 'c'], '-'), 'a, b and c');
});

flowWords('deciders and tool counts in words', () => {
  assert.match(deciderSentence('arbiter', 3), /fitted on 3 held-out decisions/);
  assert.is(toolCountsText({ read: 3, write: 1, generic: 0 }), '3 read · 1 write');
  assert.is(toolCountsText({ read: 3, write: 1, generic: 2 }), '3 read · 1 write · 2 neither');
});

flowWords('a staged flow and a committed flow with changes waiting get badges, others none', () => {
  assert.equal(stageBadge({ staged: true, other: 'shop', pending: true })?.word, 'staged');
  assert.equal(stageBadge({ staged: true, other: null, pending: true })?.title, 'A staged flow, never committed');
  assert.equal(stageBadge({ staged: false, other: 'shop.staged', pending: true }), { word: 'staged changes', title: 'A staged flow waits beside it: shop.staged', accent: true });
  assert.is(stageBadge({ staged: false, other: 'shop.staged', pending: false }), null);
  assert.is(stageBadge(null), null);
});

flowWords.run();
