// The address of the sessions list narrowed to what a figure counts: its domain, day range, start moment,
// mode and the figures that must be above 0. Empty parts are left out.
import type { SessionHas, SessionMode } from '../../../shared/sessions.ts';

export interface SessionsScope {
  domain?: string | null;
  from?: string;
  to?: string;
  /** Unix ms: started at or after. */
  since?: number;
  mode?: SessionMode;
  has?: readonly SessionHas[];
  agent?: string | null;
  tool?: string | null;
}

export function sessionsHref(scope: SessionsScope): string {
  const q = new URLSearchParams();
  if (scope.domain) q.set('domain', scope.domain);
  if (scope.mode) q.set('mode', scope.mode);
  if (scope.agent) q.set('agent', scope.agent);
  if (scope.tool) q.set('tool', scope.tool);
  if (scope.has && scope.has.length > 0) q.set('has', scope.has.join(','));
  if (scope.from) q.set('from', scope.from);
  if (scope.to) q.set('to', scope.to);
  if (scope.since !== undefined) q.set('since', String(scope.since));
  const s = q.toString();
  return s ? `/sessions?${s}` : '/sessions';
}
