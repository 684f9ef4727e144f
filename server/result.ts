// What a worker task answers. An error thrown in a worker crosses the pool as a bare Error and loses its
// class and fields, so a task answers its value or why it failed as plain data, and the caller maps the
// failure to what it means there (a 422, an `error` field, a refusal).
import { errorText } from '../shared/error-text.ts';

export type Failure = { ok: false; message: string };
/** A value, or why there is none; `F` adds fields to the failure (which side, whether it was a refusal). */
export type Result<T, F extends Failure = Failure> = { ok: true; value: T } | F;

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function failure(message: string): Failure {
  return { ok: false, message };
}

/** `work`'s value, or what it threw, in words. */
export function attempt<T>(work: () => T): Result<T> {
  try {
    return ok(work());
  } catch (e) {
    return failure(errorText(e));
  }
}
