// The raw view's JSON lines of a big log, a page at a time (data/session-log.ts; a log over a few MB is not
// fetched whole); a long line shows its first 64 KiB and its size, the download has it all.
import { createSignal, For, Show } from 'solid-js';
import type { LogLine } from '../../../../shared/session-views.ts';
import { createSessionLines, PAGE_SIZES } from '../../data/session-log.ts';
import { formatBytes } from '../../lib/format.ts';
import { pretty } from '../../lib/json.ts';
import { Loaded } from '../ui/Loaded.tsx';
import { Button } from '../ui/ui.tsx';

const PAGE = PAGE_SIZES.lines;

function parsed(l: LogLine): { ok: boolean; value: unknown } {
  if (l.cut) return { ok: false, value: null };
  try {
    return { ok: true, value: JSON.parse(l.text) as unknown };
  } catch {
    return { ok: false, value: null };
  }
}

export function PagedLines(props: { sessionKey: string }) {
  const lines = createSessionLines(() => props.sessionKey);
  const { items, total, more } = lines;
  const [open, setOpen] = createSignal<ReadonlySet<number>>(new Set());
  const toggle = (n: number) => {
    const s = new Set(open());
    if (s.has(n)) s.delete(n);
    else s.add(n);
    setOpen(s);
  };
  return (
    <Loaded resource={lines.first} skeleton={8}>
      {() => (
        <>
          <ol class="rawlines card" data-testid="raw-lines">
            <For each={items().filter((l) => l.text !== '' || l.cut)}>
              {(l) => {
                const p = parsed(l);
                return (
                  <li>
                    <button type="button" class="ln" aria-label={`Line ${l.n}: ${open().has(l.n) ? 'fold' : 'unfold'}`} aria-expanded={open().has(l.n)} onClick={() => toggle(l.n)}>
                      {l.n}
                    </button>
                    <span />
                    <span class={`line${open().has(l.n) ? ' open' : ''}${p.ok || l.cut ? '' : ' bad'}`}>
                      {open().has(l.n) && p.ok ? pretty(p.value) : l.text}
                      <Show when={l.cut}>
                        <span class="subtle"> … (this line is {formatBytes(l.bytes)}; the first 64 KiB show here, the download has all of it)</span>
                      </Show>
                    </span>
                  </li>
                );
              }}
            </For>
          </ol>
          <Show when={items().length < total()}>
            <p class="muted">
              {items().length} of {total()} lines.{' '}
              <Button size="sm" loading={more.busy()} onClick={() => void more.run()}>
                Show {Math.min(PAGE, total() - items().length)} more
              </Button>
            </p>
          </Show>
        </>
      )}
    </Loaded>
  );
}
