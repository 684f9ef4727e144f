// The texts of staged learning that the console shows as the CLI prints them, byte for byte: the report
// `engine stage` writes (Comparison::markdown) and the version list of `engine flow-log` (log_markdown), with
// the line flow-log adds when the committed flow is not the latest version (init-doctor-stage.md §3.5, §3.8).
import { fixed } from './format.ts';
import { type Comparison, type Count, type VersionRecord, detours, usedShare } from './stage.ts';

/** A share and its 90% interval as the report writes it: `2 (100%, 43–100%)`, or `—` without one. */
export function shareText(c: Count): string {
  const s = usedShare(c);
  if (!s) return '—';
  return `${c.used} (${fixed(100 * s.share, 0)}%, ${fixed(100 * s.lower, 0)}–${fixed(100 * s.upper, 0)}%)`;
}

/** The report `engine stage` writes; `flow` names the committed flow's file in the command it suggests. */
export function renderStageReport(cmp: Comparison, flow: string): string {
  let md = `# The staged ${cmp.domain} flow\n\n`;
  md += `It learned from ${cmp.sessions} sessions, ${cmp.new} of them new in this run.\n`;
  if (cmp.carried.length > 0) md += `From the committed flow it keeps ${cmp.carried.join(', ')}.\n`;
  md += '\n';
  const flows = cmp.committed ? 'both flows' : 'the staged flow';
  if (cmp.compared === 0) {
    md +=
      `No session has been scored by ${flows} yet: each session is scored as it arrives, before the staged ` +
      'flow learns from it, from the second run on.\n\n';
  } else {
    md += `## The last ${cmp.compared} sessions\n\n`;
    md +=
      `Each session was scored by ${flows} as it arrived, before the staged flow learned from it: the lookups ` +
      'each would have made there as served, and how many of them the agent made in a later LLM turn (used), ' +
      'with a 90% interval on the share; the rest are detours.\n\n';
    md += cmp.committed
      ? '| After | Committed: lookups | used | detours | Staged: lookups | used | detours |\n|---|---|---|---|---|---|---|\n'
      : '| After | Staged: lookups | used | detours |\n|---|---|---|---|\n';
    const rows: [string, Comparison['total']][] = [
      ...Object.entries(cmp.sites).map(([site, pair]): [string, Comparison['total']] => [`\`${site}\``, pair]),
      ['All', cmp.total],
    ];
    for (const [cell, { committed: c, staged: s }] of rows) {
      md += cmp.committed
        ? `| ${cell} | ${c.lookups} | ${shareText(c)} | ${detours(c)} | ${s.lookups} | ${shareText(s)} | ${detours(s)} |\n`
        : `| ${cell} | ${s.lookups} | ${shareText(s)} | ${detours(s)} |\n`;
    }
    md += '\n';
    const served = [cmp.total.committed.served, cmp.total.staged.served];
    if (served.some((n) => n > 0)) {
      md +=
        `The proxy had already made ${served[0]} of the committed flow's lookups and ${served[1]} of the staged ` +
        "flow's, serving a flow: they count as neither used nor detours, since the agent had no reason to make " +
        'them again.\n\n';
    }
    if (cmp.unanswered.some((n) => n > 0)) {
      md +=
        `The System-One model gave no answer at ${cmp.unanswered[0]} of the committed flow's decisions and ` +
        `${cmp.unanswered[1]} of the staged flow's, which are left out.\n\n`;
    }
  }
  if (cmp.committed) {
    md += '## What committing it would change\n\n';
    if (cmp.changes.length === 0) {
      md +=
        "Nothing `engine flow-diff` lists: its lookups, bindings and where it acts are the committed flow's.\n\n";
    } else {
      for (const section of cmp.changes) {
        md += `### ${section.title}\n\n`;
        for (const change of section.changes) md += `- ${change}\n`;
        md += '\n';
      }
      if (cmp.needs_review.length > 0) {
        md +=
          `${cmp.needs_review.length} of these need review: the flow may call a tool, make a lookup, bind an ` +
          'argument from a source, or ask a model or a question it did not before.\n\n';
      }
    }
  }
  md +=
    `Commit it with \`engine flow-commit --flow ${flow}\`; the committed flow's versions are kept for ` +
    '`engine flow-rollback`.\n';
  return md;
}

/** `YYYY-MM-DD HH:MM UTC` of a time in ms since the epoch, seconds dropped. */
export function when(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The history as `engine flow-log` lists it, the latest first; `versions` oldest first, as history() gives. */
export function renderFlowLog(flow: string, versions: readonly VersionRecord[]): string {
  let md = `# ${flow}\n\n`;
  if (versions.length === 0) return `${md}No version has been committed: \`engine flow-commit\` keeps each.\n`;
  const latest = versions.at(-1)!.version;
  for (const r of [...versions].reverse()) {
    const what =
      r.kind === 'found'
        ? 'found in place'
        : r.kind === 'commit'
          ? 'committed'
          : `rolled back to version ${r.restored ?? 0}`;
    md += `## Version ${r.version}${r.version === latest ? ' (committed now)' : ''}\n\n${what}, ${when(r.unix_ms)}\n`;
    if (r.note !== null) md += `\n> ${r.note}\n`;
    const e = r.evidence;
    if (e !== null) {
      const { committed: c, staged: s } = e.total;
      md +=
        `\nOn the last ${e.compared} sessions before it, the staged flow's lookups: ` +
        `${s.lookups}, ${s.used} used, ${detours(s)} detours`;
      if (e.committed) md += `; the committed flow's: ${c.lookups}, ${c.used} used, ${detours(c)} detours`;
      md += '.\n';
    }
    if (r.changes.length > 0) {
      md += '\n';
      for (const change of r.changes) md += `- ${change}\n`;
    }
    md += '\n';
  }
  return md;
}

/** The line `engine flow-log` adds when the committed flow is not the latest version. */
const UNRECORDED_LINE =
  'The committed flow is not the latest version: it has changed since, by other means than a commit. ' +
  'The next commit or rollback keeps it as a version first.\n';

/** `engine flow-log --flow FILE`'s whole output. */
export function renderFlowLogOutput(flow: string, versions: readonly VersionRecord[], isUnrecorded: boolean): string {
  return renderFlowLog(flow, versions) + (isUnrecorded ? UNRECORDED_LINE : '');
}
