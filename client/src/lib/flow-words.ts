// The flow pages' sentences that depend on the data: the decider in words, the learned-from line, badges'
// titles and the acting sentence. Kept pure so they are tested once and read the same on every page.

import type { DeciderName } from '../../../shared/flows.ts';

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** What the list card's decider badge says on hover. */
export function deciderTitle(decider: DeciderName): string {
  switch (decider) {
    case 'reach':
      return 'Decides by counting: the chance a lookup is used before the next write. Asks no model.';
    case 'habit':
      return 'Decides with the habit alone: what the agent did next. Asks no model.';
    case 'arbiter':
      return 'Weighs the habit with a System-One model’s answers (needs TYPESAFE_API_KEY).';
  }
}

/** The flow page's sentence about how the flow is served. */
export function deciderSentence(decider: DeciderName, arbiterCases: number): string {
  switch (decider) {
    case 'arbiter':
      return `Served with its arbiter, fitted on ${plural(arbiterCases, 'held-out decision')}: it asks a System-One model and needs TYPESAFE_API_KEY.`;
    case 'reach':
      return 'Served with reach: it counts how often each lookup came before the agent’s next write, and asks no model.';
    case 'habit':
      return 'Served with the habit alone: it counts what the agent did next, and asks no model.';
  }
}

/** "the a, b and c" style joining, or a fallback for none. */
export function joinWords(words: readonly string[], none: string): string {
  if (words.length === 0) return none;
  if (words.length === 1) return words[0]!;
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]!}`;
}

/** "Learned from 6 sessions of quickstart[; its arbiter was fitted on 3 held-out decisions]." */
export function learnedLine(s: { habit_episodes: number; sources: readonly string[]; has_arbiter: boolean; arbiter_cases: number }): string {
  const base = `Learned from ${plural(s.habit_episodes, 'session')} of ${joinWords(s.sources, 'no named source')}`;
  return s.has_arbiter ? `${base}; its arbiter was fitted on ${plural(s.arbiter_cases, 'held-out decision')}.` : `${base}.`;
}

/** "3 read · 1 write[ · 2 neither]". */
export function toolCountsText(t: { read: number; write: number; generic: number }): string {
  return `${t.read} read · ${t.write} write${t.generic > 0 ? ` · ${t.generic} neither` : ''}`;
}

/** The staged badge on a list card: the word, its title, and whether it is the accent kind. */
export function stageBadge(stage: { staged: boolean; other: string | null; pending: boolean } | null): { word: string; title: string; accent: boolean } | null {
  if (stage === null) return null;
  if (stage.staged) {
    return {
      word: 'staged',
      title: stage.other !== null ? `The staged flow of ${stage.other}: commit it on that flow's Staged tab` : 'A staged flow, never committed',
      accent: false,
    };
  }
  if (stage.pending && stage.other !== null) {
    return { word: 'staged changes', title: `A staged flow waits beside it: ${stage.other}`, accent: true };
  }
  return null;
}
