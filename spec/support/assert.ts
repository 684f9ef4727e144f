// Membership checks that fail with a diff: uvu's `assert.ok(list.includes(x))` says only "Expected value to be
// truthy", while these show the list against the list the check wanted.
import * as assert from 'uvu/assert';

/** `list` holds `item`; on failure the diff shows the item missing from the list. */
export function holds<T>(list: readonly T[], item: T, msg?: string): void {
  if (!list.includes(item)) assert.equal(list, [...list, item], msg ?? `the list holds ${JSON.stringify(item)}`);
}

/** `list` does not hold `item`; on failure the diff shows where it is. */
export function lacks<T>(list: readonly T[], item: T, msg?: string): void {
  if (list.includes(item)) assert.equal(list, list.filter((x) => x !== item), msg ?? `the list lacks ${JSON.stringify(item)}`);
}

/** `text` starts with `prefix`; on failure the diff shows how its start differs. */
export function startsWith(text: string | null | undefined, prefix: string, msg?: string): asserts text is string {
  assert.type(text, 'string', msg);
  assert.is(String(text).slice(0, prefix.length), prefix, msg);
}

/** `text` ends with `suffix`; on failure the diff shows how its end differs. */
export function endsWith(text: string | null | undefined, suffix: string, msg?: string): asserts text is string {
  assert.type(text, 'string', msg);
  assert.is(String(text).slice(-suffix.length), suffix, msg);
}
