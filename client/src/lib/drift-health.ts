// The overview's drift checks as health lines: per flow, never run (a note), quiet (ok) or sounding (warn),
// with how long ago. Pure.
import type { DriftHealth } from '../../../shared/drift.ts';
import type { HealthItem } from '../../../shared/overview.ts';
import { formatRelative } from './format.ts';

export function driftHealthItems(lines: readonly DriftHealth[], now: number): HealthItem[] {
  return lines.map((d) => {
    if (d.state === 'never') return { level: 'note', message: `\`${d.path}\`: drift never checked` };
    const ago = formatRelative(d.checked_unix_ms, now);
    if (d.state === 'quiet') return { level: 'ok', message: `\`${d.path}\`: drift quiet, checked ${ago}` };
    return { level: 'warn', message: `\`${d.path}\`: drift alarm ${ago}: the agent may have changed under this flow` };
  });
}
