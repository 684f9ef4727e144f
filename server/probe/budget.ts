// One read budget per connection test: every byte read from the server (stdout, stderr, an HTTP answer, its
// events) counts against it, so a server that floods or never ends an event costs a bounded amount of memory.
import { PROBE_READ_MAX_BYTES } from '../../shared/limits.ts';
import { ProbeFailure } from './exchange.ts';

const MIB = 1024 * 1024;

/** The test's error once its server sent more than `maxBytes`. */
export function overBudgetText(maxBytes: number): string {
  const size = maxBytes % MIB === 0 ? `${maxBytes / MIB} MiB` : `${maxBytes} bytes`;
  return `the server sent more than ${size}: a connection test reads at most ${size} from a server (its output, stderr and answers together), so it was stopped`;
}

export class ReadBudget {
  private left: number;
  private fail: (e: ProbeFailure) => void = () => undefined;
  /** Rejects once the budget is spent; the test races it beside the exchange. */
  readonly spent: Promise<never>;

  constructor(readonly maxBytes: number = PROBE_READ_MAX_BYTES) {
    this.left = maxBytes;
    this.spent = new Promise<never>((_, reject) => (this.fail = reject));
    this.spent.catch(() => undefined);
  }

  /** Counts `bytes` read; false (and `spent` rejected) once more than the budget was read. */
  take(bytes: number): boolean {
    if (this.left < 0) return false;
    this.left -= bytes;
    if (this.left >= 0) return true;
    this.fail(this.failure());
    return false;
  }

  /** The bytes read so far. */
  get used(): number {
    return this.maxBytes - this.left;
  }

  failure(): ProbeFailure {
    return new ProbeFailure(overBudgetText(this.maxBytes));
  }
}
