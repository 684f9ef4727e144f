// One-time sign-in codes for `--open`. The browser is started with `/?code=…` instead of `?token=…`, because a
// browser's command line is readable by every local user (the process list): a code is worth one sign-in,
// within SIGN_IN_CODE_TTL_MS of being made, and is dead once anyone used it. The guard exchanges a live code
// for the same engine_console cookie the token link sets.
//
// Codes are kept by their SHA-256 digest, so the table never holds a usable code and a lookup leaks nothing
// useful through timing. Used and expired codes are remembered (digest only) so a refusal can say which it was.
import { createHash, randomBytes } from 'node:crypto';
import { SIGN_IN_CODE_BYTES, SIGN_IN_CODE_TTL_MS } from '../../shared/limits.ts';

/** Why a code did not sign in; the sign-in screen shows a message for each. */
export type CodeRefusal = 'used' | 'expired' | 'unknown';
export type CodeResult = { ok: true } | { ok: false; why: CodeRefusal };

/** Enough for every `--open` of a long-running console; older entries drop first. */
const REMEMBERED_MAX = 64;

const digest = (code: string) => createHash('sha256').update(code).digest('hex');

export class SignInCodes {
  /** digest → when it stops working (unix ms), or 'used'. */
  private readonly codes = new Map<string, number | 'used'>();

  /** `clock` is wall time in ms; tests pass their own to reach "late" without waiting. */
  constructor(private readonly clock: () => number = Date.now) {}

  /** A new code, good for one sign-in within the time limit. */
  issue(): string {
    const code = randomBytes(SIGN_IN_CODE_BYTES).toString('hex');
    this.codes.set(digest(code), this.clock() + SIGN_IN_CODE_TTL_MS);
    while (this.codes.size > REMEMBERED_MAX) this.codes.delete(this.codes.keys().next().value!);
    return code;
  }

  /** Spends the code: true once, within its time; every later call (or a late one) is refused with why. */
  redeem(code: string): CodeResult {
    const key = digest(code);
    const entry = this.codes.get(key);
    if (entry === undefined) return { ok: false, why: 'unknown' };
    if (entry === 'used') return { ok: false, why: 'used' };
    if (this.clock() > entry) return { ok: false, why: 'expired' };
    this.codes.set(key, 'used');
    return { ok: true };
  }
}
