// The browser's sign-ins. Opening the token link (or redeeming a one-time code) makes a random secret that the
// sign-in cookie carries instead of the token: cookies reach every port of a host, so the cookie must be worth
// less than the token. A secret is good only as a cookie, only until SIGN_IN_TTL_MS after it was made, and
// only until logout ends it. Secrets live in memory alone, so a restart ends every sign-in.
//
// Secrets are kept by their SHA-256 digest, so the table never holds a usable secret. Ended and expired
// secrets are remembered (digest only) so a refusal can say which it was.
import { createHash, randomBytes } from 'node:crypto';
import { SIGN_IN_SECRET_BYTES, SIGN_IN_TTL_MS, SIGN_INS_MAX } from '../../shared/limits.ts';

/** What a presented secret is: live, past its time, signed out, or never made by this console. */
export type SignInCheck = 'live' | 'expired' | 'ended' | 'unknown';

export interface SignIn {
  secret: string;
  /** When it stops working (unix ms). */
  expiresUnixMs: number;
}

/** Remembered beyond the live ones, so a late or signed-out cookie gets its reason. */
const REMEMBERED_MAX = SIGN_INS_MAX * 2;

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');

export class SignIns {
  /** digest → when it stops working (unix ms), or 'ended'. */
  private readonly entries = new Map<string, number | 'ended'>();

  /** `clock` is wall time in ms; tests pass their own to reach "expired" without waiting. */
  constructor(private readonly clock: () => number = Date.now) {}

  /** A new sign-in; past SIGN_INS_MAX live ones, the oldest ends. */
  begin(): SignIn {
    const secret = randomBytes(SIGN_IN_SECRET_BYTES).toString('hex');
    const expiresUnixMs = this.clock() + SIGN_IN_TTL_MS;
    this.entries.set(digest(secret), expiresUnixMs);
    this.trim();
    return { secret, expiresUnixMs };
  }

  check(secret: string): SignInCheck {
    const entry = this.entries.get(digest(secret));
    if (entry === undefined) return 'unknown';
    if (entry === 'ended') return 'ended';
    return this.clock() > entry ? 'expired' : 'live';
  }

  /** Logout: the secret stops working at once, whatever it was. */
  end(secret: string): void {
    const key = digest(secret);
    if (this.entries.has(key)) this.entries.set(key, 'ended');
  }

  private trim(): void {
    const now = this.clock();
    let live = 0;
    for (const entry of this.entries.values()) if (entry !== 'ended' && entry >= now) live++;
    for (const [key, entry] of this.entries) {
      if (live <= SIGN_INS_MAX) break;
      if (entry !== 'ended' && entry >= now) {
        this.entries.set(key, 'ended');
        live--;
      }
    }
    while (this.entries.size > REMEMBERED_MAX) this.entries.delete(this.entries.keys().next().value!);
  }
}
