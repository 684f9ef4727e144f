// client/src/lib/savings.ts: the savings card's sentence, bar scale and table days.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SavingsDomain } from '../../shared/savings.ts';
import { SHOP_SAVINGS } from '../support/savings-shop.ts';
import { barPercent, longestBar, perSession, savingsSentence, servedDays } from '../../client/src/lib/savings.ts';

const shop: SavingsDomain = SHOP_SAVINGS;

const s = suite('client savings');

s('per-session figures have one decimal at most', () => {
  assert.equal([perSession(1.5), perSession(3), perSession(28 / 6), perSession(null), perSession(2.96)], ['1.5', '3', '4.7', '—', '3']);
});

s('the sentence says what the flow saved, or why it cannot', () => {
  assert.is(
    savingsSentence(shop, 14),
    'In the last 14 days, 2 served sessions averaged 1.5 agent calls and 3 LLM turns, against 4.7 and 6.3 in 6 recorded sessions: 3.2 calls fewer and 3.3 turns fewer per session.',
  );
  assert.is(savingsSentence({ ...shop, served_sessions: 0 }, 1), 'No session was served with a flow in the last 1 day.');
  assert.is(
    savingsSentence({ ...shop, recorded_sessions: 0, without_flow: { calls: null, llm_turns: null }, saved: { calls: null, llm_turns: null } }, 14),
    'In the last 14 days, 2 served sessions averaged 1.5 agent calls and 3 LLM turns; no recorded session of the same domain to compare with.',
  );
  assert.match(savingsSentence({ ...shop, saved: { calls: -1, llm_turns: 0 } }, 14), /: 1 call more and the same turns per session\.$/);
});

s('bars share one scale, the longest figure being 100', () => {
  assert.is(longestBar([shop], 'calls'), 28 / 6);
  assert.is(barPercent(1.5, 3), 50);
  assert.is(barPercent(null, 3), 0);
  assert.is(barPercent(2, 0), 0);
});

s('the table lists served days, newest first', () => {
  const day = (date: string, served: number) => ({ date, start_unix_ms: 0, domain: 'shop', served_sessions: served, lookups: 0, calls: 0, llm_turns: 0, hand_backs: 0 });
  assert.equal(servedDays([day('a', 1), day('b', 0), day('c', 2)]).map((d) => d.date), ['c', 'a']);
});

s.run();
