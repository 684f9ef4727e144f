// The new-job form's "Runs": the server's preview of the request as it stands (planned by the job's own
// planner), asked again a moment after each change; a newer request aborts the one in flight. A start
// uses the preview of the exact request it sends, asked now if the shown one is stale.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { JobPlanPreview as JobPreview, JobRequest } from '../../../shared/jobs.ts';
import { errorText } from '../../../shared/error-text.ts';
import { isAbort } from '../api/client.ts';
import { previewJob } from '../api/endpoints.ts';

const PREVIEW_DELAY_MS = 150;

export type PreviewState =
  | { state: 'none' }
  | { state: 'pending' }
  | { state: 'shown'; key: string; preview: JobPreview }
  | { state: 'refused'; key: string; message: string };

/** `body` is null while the form cannot be sent (its own checks fail): then nothing is asked. */
export function createJobPreview(body: Accessor<JobRequest | null>) {
  const [current, setCurrent] = createSignal<PreviewState>({ state: 'none' });
  // The last command shown stays on screen (dimmed) while the next one is asked for.
  const [last, setLast] = createSignal<JobPreview | null>(null);
  let inFlight: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    inFlight?.abort();
  };
  onCleanup(stop);

  /** Asks for the preview of `request` and shows it; resolves with it (null when refused or aborted). */
  const ask = async (request: JobRequest): Promise<JobPreview | null> => {
    stop();
    const controller = new AbortController();
    inFlight = controller;
    const key = JSON.stringify(request);
    setCurrent({ state: 'pending' });
    try {
      const preview = await previewJob(request, { signal: controller.signal });
      if (!preview.ok) {
        setCurrent({ state: 'refused', key, message: preview.error });
        setLast(null);
        return null;
      }
      setCurrent({ state: 'shown', key, preview });
      setLast(preview);
      return preview;
    } catch (e) {
      if (!isAbort(e)) setCurrent({ state: 'refused', key, message: errorText(e) });
      return null;
    }
  };

  createEffect(
    on(
      () => JSON.stringify(body()),
      () => {
        stop();
        const request = body();
        if (request === null) {
          setCurrent({ state: 'none' });
          setLast(null);
          return;
        }
        setCurrent({ state: 'pending' });
        timer = setTimeout(() => void ask(request), PREVIEW_DELAY_MS);
      },
    ),
  );

  return {
    current,
    last,
    /** Why the console would refuse the request as it stands, if it would. */
    refusal: (): string | null => {
      const now = current();
      return now.state === 'refused' ? now.message : null;
    },
    /** The preview of exactly `request`: the one shown, or a new one (shown too). */
    async of(request: JobRequest): Promise<JobPreview | null> {
      const now = current();
      if (now.state === 'shown' && now.key === JSON.stringify(request)) return now.preview;
      return ask(request);
    },
  };
}
