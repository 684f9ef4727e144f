// The token comparison (spec §5.3): constant time, through SHA-256 digests of both sides.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Equal tokens have equal digests; comparing digests leaks neither timing nor length. */
export function sameToken(candidate: string, token: string): boolean {
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
