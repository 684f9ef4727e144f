// A UTC day range, `from` and `to` (YYYY-MM-DD, both days included), for the overview and the sessions list
// (issue 15). The page keeps the values in its URL; this only draws the two date fields and Clear.
import { Show } from 'solid-js';
import { Icon } from './Icon.tsx';

/** A valid `YYYY-MM-DD` or ''. */
export const cleanDay = (s: string | undefined | null): string => (s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) ? s : '');

/** "from 2026-09-01 to 2026-09-30 (UTC)", "since …", "until …", or '' for no range. */
export function rangeWords(from: string, to: string): string {
  if (from && to) return from === to ? `on ${from} (UTC)` : `from ${from} to ${to} (UTC)`;
  if (from) return `since ${from} (UTC)`;
  if (to) return `until ${to} (UTC)`;
  return '';
}

export function DateRange(props: { from: string; to: string; onChange: (from: string, to: string) => void; idPrefix: string }) {
  const bad = () => props.from !== '' && props.to !== '' && props.from > props.to;
  return (
    <fieldset class="date-range" data-testid={`${props.idPrefix}-range`}>
      <legend class="sr-only">Days (UTC)</legend>
      <label for={`${props.idPrefix}-from`}>From</label>
      <input
        id={`${props.idPrefix}-from`}
        type="date"
        data-testid={`${props.idPrefix}-from`}
        value={props.from}
        max={props.to || undefined}
        onChange={(e) => props.onChange(cleanDay(e.currentTarget.value), props.to)}
      />
      <label for={`${props.idPrefix}-to`}>to</label>
      <input
        id={`${props.idPrefix}-to`}
        type="date"
        data-testid={`${props.idPrefix}-to`}
        value={props.to}
        min={props.from || undefined}
        onChange={(e) => props.onChange(props.from, cleanDay(e.currentTarget.value))}
      />
      <span class="subtle date-range-utc">UTC</span>
      <Show when={props.from || props.to}>
        <button type="button" class="btn btn-ghost btn-sm" data-testid={`${props.idPrefix}-range-clear`} onClick={() => props.onChange('', '')}>
          <Icon name="x" size={13} /> Any day
        </button>
      </Show>
      <Show when={bad()}>
        <span class="danger-text" role="alert">
          The first day is after the last.
        </span>
      </Show>
    </fieldset>
  );
}
