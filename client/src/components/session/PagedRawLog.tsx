// The raw log's data: its events a page at a time from GET /api/sessions/:key/events (a big log has
// thousands, and the outline does not carry them; "Show more" appends the next page), and the whole log's
// text once RawLog asks for it.
import { createEffect, createSignal, on, Show } from 'solid-js';
import type { TimelineEvent } from '../../../../shared/sessions.ts';
import { getSessionEvents, getSessionRaw } from '../../api/endpoints.ts';
import { createAction } from '../../data/createAction.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { Loaded } from '../ui/Loaded.tsx';
import { Button } from '../ui/ui.tsx';
import { RawLog } from './RawLog.tsx';

const PAGE = 500;

export function PagedRawLog(props: { events: number; sessionKey: string; fileName: string; sizeBytes: number }) {
  // The first page follows the session (and its count of events, which grows while it is written); the
  // pages after it are appended by "Show more" and dropped when the first page loads again.
  const first = createApiResource(
    () => ({ key: props.sessionKey, events: props.events }),
    (s, signal) => getSessionEvents(s.key, 0, PAGE, { signal }),
  );
  const [later, setLater] = createSignal<TimelineEvent[]>([]);
  createEffect(on(first.data, () => setLater([])));
  const items = () => [...(first.data()?.items ?? []), ...later()];
  const more = createAction(() => getSessionEvents(props.sessionKey, items().length, PAGE), {
    failure: 'Could not load more events',
    after: (page) => setLater([...later(), ...page.items]),
  });
  const [wanted, setWanted] = createSignal(false);
  const raw = createApiResource(
    () => wanted() && props.sessionKey,
    async (key, signal) => ({ text: await getSessionRaw(key, { signal }) }),
  );
  return (
    <Loaded resource={first} skeleton={8}>
      {() => (
        <>
          <RawLog events={items()} sessionKey={props.sessionKey} fileName={props.fileName} sizeBytes={props.sizeBytes} raw={raw} wantRaw={setWanted} />
          <Show when={items().length < props.events}>
            <p class="muted">
              The events view shows {items().length} of {props.events} events.{' '}
              <Button size="sm" loading={more.busy()} onClick={() => void more.run()}>
                Show {Math.min(PAGE, props.events - items().length)} more
              </Button>
            </p>
          </Show>
        </>
      )}
    </Loaded>
  );
}
