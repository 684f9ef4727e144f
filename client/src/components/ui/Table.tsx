// The console's tables, from column definitions: a scrolling frame, a header row of column headers and one row
// per item, with an optional fallback when there are no items. A stacking table turns each row into a block on
// a phone, every cell captioned by its column (data-label). A row with an address is clickable: a click
// anywhere but on a link or button inside it opens the address (the link in the row stays the keyboard's way).
import { useNavigate } from '@solidjs/router';
import { For, type JSX, Show } from 'solid-js';

export interface ColumnHead {
  /** The header cell's content. */
  head: JSX.Element;
  headClass?: string;
  headTitle?: string;
  /** A sortable column's state, for aria-sort. */
  headSort?: 'ascending' | 'descending' | 'none';
}

export interface Column<T> extends ColumnHead {
  /** The caption of a stacked cell; the head when that is text. */
  label?: string;
  /** The body cells' class and style. */
  class?: string;
  style?: JSX.CSSProperties;
  title?: (row: T) => string | undefined;
  cell: (row: T) => JSX.Element;
}

/** The header row of `columns` (for a table whose body is not one row per item). */
export function TableHead(props: { columns: readonly ColumnHead[] }) {
  return (
    <thead>
      <tr>
        <For each={props.columns}>
          {(c) => (
            <th scope="col" class={c.headClass} title={c.headTitle} aria-sort={c.headSort}>
              {c.head}
            </th>
          )}
        </For>
      </tr>
    </thead>
  );
}

/** One item's cells (for a row the page draws itself). */
export function Cells<T>(props: { columns: readonly Column<T>[]; row: T; stacking?: boolean }) {
  const label = (c: Column<T>) => (props.stacking ? (c.label ?? (typeof c.head === 'string' ? c.head : undefined)) : undefined);
  return (
    <For each={props.columns}>
      {(c) => (
        <td data-label={label(c)} class={c.class} style={c.style} title={c.title?.(props.row)}>
          {c.cell(props.row)}
        </td>
      )}
    </For>
  );
}

export function DataTable<T>(props: {
  columns: readonly Column<T>[];
  rows: readonly T[];
  /** Rows stack into captioned blocks at phone widths. */
  stacking?: boolean;
  /** More classes on the table and on its frame. */
  class?: string;
  wrapClass?: string;
  testid?: string;
  rowClass?: string;
  rowTestId?: (row: T) => string;
  /** Where a click on the row goes. */
  rowHref?: (row: T) => string;
  /** Shown instead of the table when there are no rows. */
  empty?: JSX.Element;
}) {
  const navigate = useNavigate();
  // Asked by key: reading props.empty would build the fallback's elements.
  const hasEmpty = 'empty' in props;
  const click = (e: MouseEvent, row: T) => {
    const href = props.rowHref?.(row);
    if (href === undefined || (e.target as HTMLElement).closest('a, button')) return;
    navigate(href);
  };
  return (
    <Show when={props.rows.length > 0 || !hasEmpty} fallback={props.empty}>
      <div class={props.wrapClass ? `table-wrap ${props.wrapClass}` : 'table-wrap'}>
        <table class={`table${props.stacking ? ' stacking' : ''}${props.class ? ` ${props.class}` : ''}`} data-testid={props.testid}>
          <TableHead columns={props.columns} />
          <tbody>
            <For each={props.rows}>
              {(row) => (
                <tr class={props.rowClass} data-testid={props.rowTestId?.(row)} onClick={props.rowHref ? (e) => click(e, row) : undefined}>
                  <Cells columns={props.columns} row={row} stacking={props.stacking} />
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </Show>
  );
}
