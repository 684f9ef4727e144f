// The sessions list's count line: how many match, within which days or since when, and, for a list opened
// from an overview figure that sums something, that sum.
import type { SessionHas, SessionSums } from '../../../../shared/sessions.ts';
import { rangeWords } from '../../components/ui/DateRange.tsx';
import { formatCount, plural } from '../../lib/format.ts';

const SUM_WORDS: Partial<Record<SessionHas, [keyof SessionSums, string, string]>> = {
  tool_calls: ['tool_calls', 'tool call', 'tool calls'],
  flow_lookups: ['flow_lookups', 'lookup served', 'lookups served'],
  shadow_decisions: ['shadow_decisions', 'shadow decision', 'shadow decisions'],
};

/** What the matching sessions add up to, for the figures the list was narrowed by. */
function sumsText(has: readonly SessionHas[], sums: SessionSums | undefined): string {
  if (!sums) return '';
  return has
    .map((h) => SUM_WORDS[h])
    .filter((w) => w !== undefined)
    .map(([k, one, many]) => ` · ${plural(sums[k], one, many)}`)
    .join('');
}

export function countWords(c: {
  total: number;
  filtered: boolean;
  from: string;
  to: string;
  since: number | null;
  has: readonly SessionHas[];
  sums: SessionSums | undefined;
}): string {
  const noun = c.total === 1 ? 'session' : 'sessions';
  const verb = c.filtered ? (c.total === 1 ? ' matches' : ' match') : '';
  const days = c.from || c.to ? ` ${rangeWords(c.from, c.to)}` : '';
  const since = c.since !== null ? ` since ${new Date(c.since).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
  return `${formatCount(c.total)} ${noun}${verb}${days}${since}${sumsText(c.has, c.sums)}`;
}
