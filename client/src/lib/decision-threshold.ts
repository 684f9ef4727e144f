// The threshold a logged decision was made at. The proxy writes it into a hand-back's reason ("<tool> at
// 0.19, below 0.3"; session-format §6.2); the registry's threshold is today's, which may not be the one the
// session ran with, so a gauge beside that reason is drawn against the reason's.
const BELOW = /, below (\d+(?:\.\d+)?)$/;

export function decidedAt(decision: { reason: string | null }, assumed: number): number {
  const m = decision.reason === null ? null : BELOW.exec(decision.reason);
  const t = m ? Number(m[1]) : Number.NaN;
  return Number.isFinite(t) && t >= 0 && t <= 1 ? t : assumed;
}
