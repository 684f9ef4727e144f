// A session's raw log, two ways: its events in short (each opens to the whole line it came from), or the
// JSON lines themselves (a big log's a page at a time, PagedLines). The whole log is fetched by the owner
// (PagedRawLog) only once this view asks for it: JSON lines of a log that is not big, or an event opened.
import { createEffect, createSignal, For, Show } from 'solid-js';
import type { SessionDetail } from '../../../../shared/sessions.ts';
import { RAW_WHOLE_MAX_BYTES } from '../../../../shared/limits.ts';
import { sessionRawUrl } from '../../api/endpoints.ts';
import type { ApiResource } from '../../data/createApiResource.ts';
import type { EventLine, EventLines } from '../../data/session-log.ts';
import { formatOffset } from '../../lib/format.ts';
import { eventLines, jsonLines, pretty, type JsonLine } from '../../lib/json.ts';
import { Icon } from '../ui/Icon.tsx';
import { Loaded } from '../ui/Loaded.tsx';
import { Cells, TableHead, type Column } from '../ui/Table.tsx';
import { Button, CopyButton, Segmented, Skeleton } from '../ui/ui.tsx';
import { SMALL_WRAP } from './cell-styles.ts';
import { PagedLines } from './PagedLines.tsx';

type TimelineEvent = SessionDetail['events'][number];

const FROM_CLASS: Record<string, string> = { client: 'badge', server: 'badge', proxy: 'badge accent', context: 'badge dashed', header: 'badge' };

/** Flips one number in a set held in a signal. */
function toggled(set: ReadonlySet<number>, n: number): Set<number> {
  const s = new Set(set);
  if (s.has(n)) s.delete(n);
  else s.add(n);
  return s;
}

export function RawLog(props: {
  events: TimelineEvent[];
  sessionKey: string;
  fileName: string;
  sizeBytes?: number;
  /** The whole log's text, loaded while `wantRaw(true)`. */
  raw: ApiResource<{ text: string }>;
  wantRaw: (wanted: boolean) => void;
  /** A big log's opened events' lines, each asked for alone. */
  eventLines: EventLines;
}) {
  const [view, setView] = createSignal<'events' | 'lines'>('events');
  // A big log's lines come a page at a time (PagedLines), never the whole file.
  const big = () => (props.sizeBytes ?? 0) > RAW_WHOLE_MAX_BYTES;
  // Events whose whole line is shown (by index): the log is fetched the first time one opens.
  const [openEvents, setOpenEvents] = createSignal<ReadonlySet<number>>(new Set());
  createEffect(() => props.wantRaw(!big() && (view() === 'lines' || openEvents().size > 0)));
  const lines = () => jsonLines(props.raw.data()?.text ?? '');
  const matched = () => eventLines(props.events, lines());
  // A small log's events are matched over its whole text; a big log's opened events ask for their line.
  const lineOf = (i: number): EventLine | undefined => {
    if (big()) return props.eventLines.lineOf(i);
    if (props.raw.data() === undefined) return undefined;
    const l = matched()[i];
    return l ? { line: { n: l.n, text: l.text, bytes: 0, cut: false } } : { line: null };
  };
  const toggle = (i: number) => {
    const next = toggled(openEvents(), i);
    if (big() && next.has(i)) props.eventLines.load(i);
    setOpenEvents(next);
  };
  return (
    <div class="stack" style={{ gap: '12px' }}>
      <div class="timeline-bar">
        <Segmented
          label="View"
          value={view()}
          onChange={setView}
          options={[
            { value: 'events', label: `Events (${props.events.length})` },
            { value: 'lines', label: 'JSON lines' },
          ]}
        />
        <div class="card-actions">
          <Show when={view() === 'lines' && props.raw.data() !== undefined}>
            <CopyButton text={() => props.raw.data()?.text ?? ''} what="Log" label="Copy" />
          </Show>
          <Button size="sm" icon="download" href={sessionRawUrl(props.sessionKey)} download={props.fileName}>
            Download
          </Button>
        </div>
      </div>
      <Show
        when={view() === 'lines'}
        fallback={
          <RawEvents events={props.events} open={openEvents()} onToggle={toggle} lineOf={lineOf} />
        }
      >
        <Show when={!big()} fallback={<PagedLines sessionKey={props.sessionKey} />}>
          <Loaded resource={props.raw} skeleton={8}>
            {() => <RawLines lines={lines()} />}
          </Loaded>
        </Show>
      </Show>
    </div>
  );
}

const EVENT_COLUMNS: Column<TimelineEvent>[] = [
  { head: 'Time', class: 'mono num nowrap', cell: (e) => formatOffset(e.t_ms) },
  { head: 'From', cell: (e) => <span class={FROM_CLASS[e.from] ?? 'badge'}>{e.from}</span> },
  {
    head: 'Kind',
    cell: (e) => (
      <>
        {e.kind}
        <Show when={e.method}>
          {' '}
          <span class="mono">{e.method}</span>
        </Show>
      </>
    ),
  },
  { head: 'Id', class: 'mono nowrap', cell: (e) => e.id ?? '' },
  { head: 'Summary', class: 'mono', style: SMALL_WRAP, cell: (e) => e.summary },
];

/** The events table; each row opens to the whole line it came from (the summary is cut at 200 characters). */
function RawEvents(props: { events: TimelineEvent[]; open: ReadonlySet<number>; onToggle: (i: number) => void; lineOf: (i: number) => EventLine | undefined }) {
  return (
    <div class="table-wrap card">
      <table class="table raw-events" data-testid="raw-events">
        <TableHead columns={[{ head: <span class="sr-only">Open</span> }, ...EVENT_COLUMNS]} />
        <tbody>
          <For each={props.events}>
            {(e, i) => (
              <>
                <tr class="clickable" data-testid={`raw-event-${i()}`} onClick={(ev) => !(ev.target as HTMLElement).closest('button, a') && props.onToggle(i())}>
                  <td class="nowrap">
                    <button
                      type="button"
                      class="btn btn-ghost btn-sm btn-square"
                      aria-expanded={props.open.has(i())}
                      aria-label={`${props.open.has(i()) ? 'Hide' : 'Show'} the whole line of event ${i() + 1}`}
                      data-testid={`raw-event-toggle-${i()}`}
                      onClick={() => props.onToggle(i())}
                    >
                      <Icon name={props.open.has(i()) ? 'chevron-down' : 'chevron-right'} size={14} />
                    </button>
                  </td>
                  <Cells columns={EVENT_COLUMNS} row={e} />
                </tr>
                <Show when={props.open.has(i())}>
                  <tr class="raw-event-open">
                    <td colSpan={EVENT_COLUMNS.length + 1}>
                      <Show when={props.lineOf(i())} fallback={<Skeleton lines={2} />}>
                        {(got) => <EventLineView got={got()} i={i()} />}
                      </Show>
                    </td>
                  </tr>
                </Show>
              </>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}

/** An opened event's line: pretty when it is whole JSON, else as written (cut past 64 KiB, with its size). */
function EventLineView(props: { got: EventLine; i: number }) {
  const parsed = (text: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      return { ok: false };
    }
  };
  return (
    <Show when={!('error' in props.got)} fallback={<p class="muted">{'error' in props.got ? `This line could not be read: ${props.got.error}` : ''}</p>}>
      <Show when={'line' in props.got && props.got.line} fallback={<p class="muted">No line of the log matches this event.</p>}>
        {(l) => {
          const p = parsed(l().text);
          return (
            <div class="raw-event-line">
              <span class="subtle">
                Line {l().n}
                {l().cut ? ` (cut: ${l().bytes} bytes in all; download the log for the whole line)` : ''}
              </span>
              <pre class="mono" tabindex="0" aria-label={`Line ${l().n} of the log`} data-testid={`raw-event-line-${props.i}`}>
                {p.ok && !l().cut ? pretty(p.value) : l().text}
              </pre>
            </div>
          );
        }}
      </Show>
    </Show>
  );
}

/** Where a line came from: the `from` of an event, or the log's header. */
function fromOf(l: JsonLine): string {
  if (!l.ok || l.value === null || typeof l.value !== 'object') return '';
  const v = l.value as Record<string, unknown>;
  if ('engine_mcp_log' in v) return 'header';
  return typeof v.from === 'string' ? v.from : '';
}

/** The whole log's JSON lines, 400 at first; each unfolds to its pretty form. */
function RawLines(props: { lines: JsonLine[] }) {
  const [all, setAll] = createSignal(false);
  const [open, setOpen] = createSignal<ReadonlySet<number>>(new Set());
  const toggle = (n: number) => setOpen(toggled(open(), n));
  return (
    <>
      <ol class="rawlines card" data-testid="raw-lines">
        <For each={all() ? props.lines : props.lines.slice(0, 400)}>
          {(l) => (
            <li>
              <button type="button" class="ln" aria-label={`Line ${l.n}: ${open().has(l.n) ? 'fold' : 'unfold'}`} aria-expanded={open().has(l.n)} onClick={() => toggle(l.n)}>
                {l.n}
              </button>
              <span>
                <Show when={fromOf(l)}>
                  <span class={FROM_CLASS[fromOf(l)] ?? 'badge'}>{fromOf(l)}</span>
                </Show>
              </span>
              <span class={`line${open().has(l.n) ? ' open' : ''}${l.ok ? '' : ' bad'}`} onClick={() => !open().has(l.n) && toggle(l.n)}>
                {open().has(l.n) && l.ok ? pretty(l.value) : l.text}
              </span>
            </li>
          )}
        </For>
      </ol>
      <Show when={!all() && props.lines.length > 400}>
        <Button size="sm" onClick={() => setAll(true)}>
          Show all {props.lines.length} lines
        </Button>
      </Show>
    </>
  );
}
