// Masks credential values in text the console did not write itself (a server's stderr, what it printed, its
// error messages), so a server that prints its environment or echoes a header never hands a value back.
import { CREDENTIAL_MASK } from '../../shared/credentials.ts';
import { debugString } from '../engine/format.ts';

/** Shorter values are not masked: "1" or "true" would blank every such word and hide nothing worth hiding. */
const SECRET_MIN_CHARS = 4;

export class Masker {
  /** Each value as written, as a JSON string holds it and as a quoted message holds it; longest first. */
  private readonly forms: string[];

  constructor(values: Iterable<string>) {
    const forms = new Set<string>();
    for (const value of values) {
      if (value.length < SECRET_MIN_CHARS) continue;
      forms.add(value);
      forms.add(JSON.stringify(value).slice(1, -1));
      forms.add(debugString(value).slice(1, -1));
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** `text` with every whole value masked. */
  text(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(CREDENTIAL_MASK);
    return out;
  }

  /**
   * A text cut out of a longer one: whole values masked, and also the end of a value it starts with and the
   * start of a value it ends with, which the cut left of it.
   */
  cut(text: string): string {
    let out = this.text(text);
    for (const form of this.forms) {
      for (let k = form.length - 1; k >= SECRET_MIN_CHARS; k--) {
        if (out.startsWith(form.slice(-k))) {
          out = CREDENTIAL_MASK + out.slice(k);
          break;
        }
      }
      for (let k = form.length - 1; k >= SECRET_MIN_CHARS; k--) {
        if (out.endsWith(form.slice(0, k))) {
          out = out.slice(0, out.length - k) + CREDENTIAL_MASK;
          break;
        }
      }
    }
    return out;
  }
}
