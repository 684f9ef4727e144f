// A replay run as Markdown, to download: the run's facts and counts, then each call that did not answer the same.
import type { ReplayRun } from '../../shared/replay.ts';

const cell = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replaceAll('\n', ' ');
const value = (x: unknown) => (x === undefined ? '(absent)' : JSON.stringify(x));
const time = (ms: number | null) => (ms === null ? '—' : new Date(ms).toISOString());

export function replayMarkdown(run: ReplayRun): string {
  const c = run.counts;
  const out = [
    `# Replay of ${run.server}`,
    '',
    `- Run: ${run.id}, ${run.status}${run.error ? ` (${run.error})` : ''}`,
    `- Started: ${time(run.started_unix_ms)}; ended: ${time(run.ended_unix_ms)}`,
    `- Sessions: ${run.sessions.length}; calls: ${run.progress.done} of ${run.progress.total}`,
    `- Same ${c.same}, differs ${c.differs}, error ${c.error}, skipped (write) ${c.skipped_write}, gone ${c.gone}`,
    `- Only tools the live server marks readOnlyHint: true (and the recording did not mark as writing) were called.`,
  ];
  if (run.ignore_paths.length > 0) out.push(`- Ignored paths: ${run.ignore_paths.map((p) => `\`${p}\``).join(', ')}`);
  if (run.volatile.length > 0) out.push(`- Likely volatile: ${run.volatile.map((v) => `${v.tool} \`${v.path}\``).join(', ')}`);
  out.push('', '| Session | Line | Tool | Verdict | Detail |', '|---|---|---|---|---|');
  for (const call of run.calls) {
    const detail = call.verdict === 'differs' ? call.diffs.map((d) => `\`${d.path}\`: ${value(d.recorded)} → ${value(d.live)}`).join('; ') : (call.error ?? '');
    out.push(`| ${cell(call.session)} | ${call.line} | ${cell(call.tool)} | ${call.verdict} | ${cell(detail)} |`);
  }
  return `${out.join('\n')}\n`;
}
