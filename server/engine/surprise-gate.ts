// A later engine's surprise gate in words, as its `SurpriseGate::describe` (surprise.rs) prints it: the same
// sentence ends the review's Surprise section and both sides of the diff's.
import type { SurpriseGate } from '../../shared/flows.ts';
import { display, fixed } from './format.ts';

/** surprise.rs `describe()`: the window, the threshold to 2 decimals, and the quantile as Rust prints an f64. */
export function describeGate(g: SurpriseGate): string {
  const learned = g.quantile === undefined ? '' : `, the ${display(g.quantile)} quantile of held-out training sessions' most surprising windows`;
  return `hands back for the rest of a session once ${g.window} of the agent's steps in a row average more than ${fixed(g.threshold, 2)} nats of surprise${learned}`;
}

/** One side of the diff's Surprise change (review.rs `diff`). */
export function gateSummary(g: SurpriseGate | null): string {
  return g === null ? 'none: it never hands back for surprise' : `it ${describeGate(g)}`;
}

/** Whether two gates are equal, as Rust's derived PartialEq compares them. */
export function sameGate(a: SurpriseGate | null, b: SurpriseGate | null): boolean {
  if (a === null || b === null) return a === b;
  return a.window === b.window && a.threshold === b.threshold && a.quantile === b.quantile;
}
