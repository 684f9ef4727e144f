// A session's call payloads as the timeline opens them: kept in a small per-page cache, so rows scrolled away
// and back do not fetch again, and the page never holds more than a few of them.
import type { CallPayload } from '../../../shared/session-views.ts';
import { getCallPayload } from '../api/endpoints.ts';

/** Payloads kept per page: enough for the rows on screen after "Expand all". */
const CACHE_PAYLOADS = 24;

export class PayloadCache {
  private readonly held = new Map<string, Promise<CallPayload>>();
  constructor(private readonly sessionKey: string) {}
  get(n: number, all: boolean): Promise<CallPayload> {
    const id = `${n}:${all ? 1 : 0}`;
    const hit = this.held.get(id);
    if (hit) {
      this.held.delete(id);
      this.held.set(id, hit);
      return hit;
    }
    const p = getCallPayload(this.sessionKey, n, all);
    p.catch(() => this.held.delete(id));
    this.held.set(id, p);
    while (this.held.size > CACHE_PAYLOADS) this.held.delete(this.held.keys().next().value!);
    return p;
  }
}
