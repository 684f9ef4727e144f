// A button's action (STYLE §8): busy while it runs, its error either shown where the person acted (a dialog's
// problem line) or as a toast, and on success an optional toast and reload. Written once so every button
// behaves alike: no double submit while busy, no error swallowed, no toast left saying "Saving…".
import { createSignal, type Accessor } from 'solid-js';
import { errorText } from '../../../shared/error-text.ts';
import { toast } from '../stores/toasts.ts';

export interface ActionOptions<A extends unknown[], T> {
  /** Toast title when it fails; without it the error is only kept in `error()` for the caller to show. */
  failure?: string | ((...args: A) => string);
  /** What to say when it succeeds (a toast), from its answer. */
  success?: (answer: T, ...args: A) => { title: string; message?: string } | null;
  /** Called after success, e.g. a resource's `refetch`. */
  after?: (answer: T, ...args: A) => void;
}

export interface Action<A extends unknown[], T> {
  /** Runs it unless it is already running; resolves to the answer, or undefined when it failed or was busy. */
  run: (...args: A) => Promise<T | undefined>;
  busy: Accessor<boolean>;
  /** The last failure's message, cleared when it runs again. */
  error: Accessor<string | null>;
  clearError: () => void;
}

export function createAction<A extends unknown[], T>(task: (...args: A) => Promise<T>, options: ActionOptions<A, T> = {}): Action<A, T> {
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const run = async (...args: A): Promise<T | undefined> => {
    if (busy()) return undefined;
    setBusy(true);
    setError(null);
    try {
      const answer = await task(...args);
      const said = options.success?.(answer, ...args);
      if (said) toast({ kind: 'success', ...said });
      options.after?.(answer, ...args);
      return answer;
    } catch (e) {
      const message = errorText(e);
      setError(message);
      const title = typeof options.failure === 'function' ? options.failure(...args) : options.failure;
      if (title !== undefined) toast({ kind: 'error', title, message });
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clearError: () => setError(null) };
}
