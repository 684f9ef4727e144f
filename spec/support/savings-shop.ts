// The shop domain's savings row over the fixture sessions (2 served, 6 recorded), worked out by hand from
// the fixture logs: the engine's savings test expects it, and the client's savings tests start from it.
import type { SavingsDomain } from '../../shared/savings.ts';

export const SHOP_SAVINGS: SavingsDomain = {
  domain: 'shop',
  served_sessions: 2,
  lookups: 6,
  calls: 3,
  llm_turns: 6,
  hand_backs: 3,
  recorded_sessions: 6,
  with_flow: { calls: 1.5, llm_turns: 3 },
  without_flow: { calls: 28 / 6, llm_turns: 38 / 6 },
  saved: { calls: 28 / 6 - 1.5, llm_turns: 38 / 6 - 3 },
};
