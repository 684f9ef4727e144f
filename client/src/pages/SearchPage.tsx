// Search all sessions: a phrase found inside every session's calls, answers, conversation and flow logs,
// with the list's domain, mode and date filters, one tool's calls only, or one part of the calls; everything
// is in the address, so a search can be shared.
import { useSearchParams } from '@solidjs/router';
import { createMemo, createSignal, For, Show } from 'solid-js';
import { SEARCH_TEXT_MIN } from '../../../shared/limits.ts';
import { SEARCH_IN, type SearchIn } from '../../../shared/search.ts';
import { SESSION_MODES, type SessionMode } from '../../../shared/sessions.ts';
import type { SearchParams } from '../api/endpoints.ts';
import { useTitle } from '../components/ui/title.ts';
import { Card, Empty, Notice, PageHeader } from '../components/ui/ui.tsx';
import { createSearch } from './search/createSearch.ts';
import { SearchHits } from './search/SearchHits.tsx';

const one = (x: string | string[] | undefined) => (Array.isArray(x) ? x[0] : x) ?? '';
const picked = <T extends string>(values: readonly T[], x: string): T | null => values.find((v) => v === x) ?? null;

const IN_LABEL: Record<SearchIn, string> = { all: 'Everywhere', arguments: 'Calls’ arguments', results: 'Calls’ results', conversation: 'The conversation' };

export default function SearchPage() {
  useTitle(() => 'Search all sessions');
  const [search, setSearch] = useSearchParams();
  const params = createMemo<SearchParams | null>(
    () => {
      const text = one(search.text);
      if ([...text].length < SEARCH_TEXT_MIN) return null;
      return {
        text,
        domain: one(search.domain) || null,
        mode: picked<SessionMode>(SESSION_MODES, one(search.mode)),
        from: one(search.from) || null,
        to: one(search.to) || null,
        tool: one(search.tool) || null,
        in: picked<SearchIn>(SEARCH_IN, one(search.in)),
      };
    },
    null,
    { equals: (a, b) => JSON.stringify(a) === JSON.stringify(b) },
  );
  const [draft, setDraft] = createSignal(one(search.text));
  const s = createSearch(params);
  const set = (name: string, value: string) => setSearch({ [name]: value === '' ? undefined : value }, { replace: name !== 'text' });

  return (
    <div class="page">
      <PageHeader title="Search all sessions" />
      <Card label="Search">
        <form
          class="search-form"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            set('text', draft());
          }}
        >
          <input type="search" aria-label="Phrase to find" placeholder="An order id, a name, a phrase…" value={draft()} onInput={(e) => setDraft(e.currentTarget.value)} data-testid="search-text" />
          <input aria-label="Domain" placeholder="Domain" value={one(search.domain)} onChange={(e) => set('domain', e.currentTarget.value)} />
          <select aria-label="Mode" value={one(search.mode)} onChange={(e) => set('mode', e.currentTarget.value)}>
            <option value="">Any mode</option>
            <For each={SESSION_MODES}>{(m) => <option value={m}>{m}</option>}</For>
          </select>
          <input type="date" aria-label="From (UTC)" value={one(search.from)} onChange={(e) => set('from', e.currentTarget.value)} />
          <input type="date" aria-label="To (UTC)" value={one(search.to)} onChange={(e) => set('to', e.currentTarget.value)} />
          <input aria-label="Tool" placeholder="Any tool" value={one(search.tool)} onChange={(e) => set('tool', e.currentTarget.value)} data-testid="search-tool" />
          <select aria-label="Search in" value={one(search.in)} onChange={(e) => set('in', e.currentTarget.value)} data-testid="search-in">
            <For each={SEARCH_IN}>{(w) => <option value={w === 'all' ? '' : w}>{IN_LABEL[w]}</option>}</For>
          </select>
          <button type="submit" class="btn primary">
            Search
          </button>
        </form>
      </Card>
      <Show when={s.error()}>{(e) => <Notice tone="danger" role="alert">{e()}</Notice>}</Show>
      <Show when={params()} fallback={<Empty icon="search" title="Find a phrase in every session">Calls’ arguments, answers, the conversation and the flow’s logs are searched, case-insensitively.</Empty>}>
        {(p) => (
          <>
            <p class="muted" role="status" data-testid="search-progress">
              {s.running() ? 'Searching… ' : ''}
              {s.searched()} of {s.total()} sessions searched; {s.items().length} hold “{p().text}”.
            </p>
            <ul class="search-results">
              <For each={s.items()}>{(item) => <SearchHits item={item} text={p().text} />}</For>
            </ul>
          </>
        )}
      </Show>
    </div>
  );
}
