// The raw log's events, a page at a time from GET /api/sessions/:key/events: a big log has thousands, and
// the outline does not carry them. "Show more" appends the next page.
import { createEffect, createSignal, on, Show } from 'solid-js';
import type { TimelineEvent } from '../../../../shared/sessions.ts';
import { getSessionEvents } from '../../api/endpoints.ts';
import { Button, Skeleton } from '../ui/ui.tsx';
import { RawLog } from './tabs.tsx';
import { errorText } from '../../../../shared/error-text.ts';

const PAGE = 500;

export function PagedRawLog(props: { events: number; sessionKey: string; fileName: string; sizeBytes: number }) {
  const [items, setItems] = createSignal<TimelineEvent[]>();
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string>();
  const more = async (reset: boolean) => {
    setBusy(true);
    try {
      const page = await getSessionEvents(props.sessionKey, reset ? 0 : (items()?.length ?? 0), PAGE);
      setItems([...(reset ? [] : (items() ?? [])), ...page.items]);
      setError(undefined);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  createEffect(on([() => props.sessionKey, () => props.events], () => void more(true)));
  return (
    <Show when={items()} fallback={<Show when={error()} fallback={<Skeleton lines={8} />}>{<p class="danger-text" role="alert">{error()}</p>}</Show>}>
      <RawLog detail={{ events: items()! }} sessionKey={props.sessionKey} fileName={props.fileName} sizeBytes={props.sizeBytes} />
      <Show when={items()!.length < props.events}>
        <p class="muted">
          The events view shows {items()!.length} of {props.events} events.{' '}
          <Button size="sm" loading={busy()} onClick={() => void more(false)}>
            Show {Math.min(PAGE, props.events - items()!.length)} more
          </Button>
        </p>
      </Show>
    </Show>
  );
}
