// The Raw log tab: the session's events a page at a time (a big log has thousands, and the outline does not
// carry them; "Show more" appends the next page), and the whole log's text once RawLog asks for it
// (data/session-log.ts loads both).
import { createSignal, Show } from 'solid-js';
import { createEventLines, createSessionEvents, createSessionRaw, PAGE_SIZES } from '../../data/session-log.ts';
import { Loaded } from '../ui/Loaded.tsx';
import { Button } from '../ui/ui.tsx';
import { RawLog } from './RawLog.tsx';

const PAGE = PAGE_SIZES.events;

export function PagedRawLog(props: { events: number; sessionKey: string; fileName: string; sizeBytes: number }) {
  const events = createSessionEvents(() => props.sessionKey, () => props.events);
  const { items, more } = events;
  const [wanted, setWanted] = createSignal(false);
  const raw = createSessionRaw(() => props.sessionKey, wanted);
  const eventLines = createEventLines(() => props.sessionKey);
  return (
    <Loaded resource={events.first} skeleton={8}>
      {() => (
        <>
          <RawLog events={items()} sessionKey={props.sessionKey} fileName={props.fileName} sizeBytes={props.sizeBytes} raw={raw} wantRaw={setWanted} eventLines={eventLines} />
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
