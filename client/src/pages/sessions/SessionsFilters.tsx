// The sessions list's filter row: the search box (and its words searched inside every session's calls), the
// mode, a UTC day range, how many match, and Compare for two ticked sessions.
import { A } from '@solidjs/router';
import { Show } from 'solid-js';
import { Icon } from '../../components/ui/Icon.tsx';
import { DateRange } from '../../components/ui/DateRange.tsx';
import { Button, Empty, Segmented } from '../../components/ui/ui.tsx';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { compareHref } from '../../lib/compare.ts';
import type { ModeChoice } from './sessions-url.ts';

export function SessionsFilters(props: {
  text: string;
  onText: (text: string) => void;
  /** The Search all sessions page for the box's words, once they are long enough. */
  insideHref: string | null;
  mode: ModeChoice;
  onMode: (mode: ModeChoice) => void;
  from: string;
  to: string;
  onRange: (from: string, to: string) => void;
  /** The count's words, once the list has loaded. */
  count: string | null;
  ticked: number;
  pair: [string, string] | null;
  /** The OTLP download of the ticked sessions, else of every match. */
  otlpHref: string;
}) {
  return (
    <div class="filters" role="search">
      <div class="search">
        <Icon name="search" />
        <label class="sr-only" for="sessions-search">
          Search sessions
        </label>
        <input
          id="sessions-search"
          type="search"
          placeholder="Session id, domain, agent or tool"
          data-testid="sessions-search"
          value={props.text}
          onInput={(e) => props.onText(e.currentTarget.value)}
        />
      </div>
      <Show when={props.insideHref}>
        {(href) => (
          <A href={href()} class="search-inside" data-testid="search-inside">
            Search inside calls for “{props.text.trim()}”
          </A>
        )}
      </Show>
      <Segmented
        label="Mode"
        value={props.mode}
        onChange={props.onMode}
        options={[
          { value: 'all', label: 'All' },
          { value: 'served', label: 'Served' },
          { value: 'shadow', label: 'Shadow' },
          { value: 'recorded', label: 'Recorded' },
        ]}
      />
      <DateRange idPrefix="sessions" from={props.from} to={props.to} onChange={props.onRange} />
      <span class="count" aria-live="polite" data-testid="sessions-count">
        <Show when={props.count !== null}>{props.count}</Show>
      </span>
      <Button icon="scale" testid="compare-ticked" disabled={props.pair === null} reason="Tick exactly two sessions to compare them" to={props.pair ? compareHref(...props.pair) : undefined}>
        Compare{props.ticked > 0 && props.ticked <= 2 ? ` (${props.ticked} of 2)` : ''}
      </Button>
      <Button icon="download" testid="sessions-otlp" href={props.otlpHref} download="sessions.otlp.jsonl" title="As OpenTelemetry traces (OTLP JSON Lines): the ticked sessions, else every session that matches">
        {props.ticked > 0 ? `OTLP (${props.ticked} ticked)` : 'OTLP (all that match)'}
      </Button>
    </div>
  );
}

/** No sessions: none recorded yet, or none that match the filters. */
export function NoSessions(props: { filtered: boolean; domain: string | null; onClear: () => void }) {
  return (
    <Show
      when={props.filtered}
      fallback={
        <Empty
          icon="sessions"
          title="No sessions recorded yet"
          actions={
            <Button variant="primary" icon="plus" to="/servers/new" disabled={readOnly()} reason={READ_ONLY_REASON}>
              Add a server
            </Button>
          }
        >
          Add a server, use your agent through it, then learn a flow. engine-proxy records each session, and it shows here as it is written.
        </Empty>
      }
    >
      <Empty
        icon="search"
        title="No sessions match"
        actions={
          <Button icon="x" onClick={props.onClear}>
            Clear the filters
          </Button>
        }
      >
        Nothing matches these filters{props.domain ? ` in ${props.domain}` : ''}.
      </Empty>
    </Show>
  );
}
