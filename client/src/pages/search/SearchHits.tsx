// One session's hits: each snippet with its match marked, linking to the session page at the hit's line
// of the log with the find bar holding the phrase.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { SearchHit, SearchItem } from '../../../../shared/search.ts';
import { ModeBadge, RelTime } from '../../components/ui/ui.tsx';
import { hitHref } from '../../lib/search-links.ts';

const WHERE: Record<SearchItem['hits'][number]['where'], string> = {
  arguments: 'arguments',
  result: 'result',
  conversation: 'conversation',
  flow: 'flow log',
  other: 'other',
};

export function SearchHits(props: { item: SearchItem; text: string }) {
  const href = (hit?: SearchHit) => hitHref(props.item.key, props.text, hit);
  return (
    <li class="search-session" data-testid="search-session">
      <div class="search-session-head">
        <A href={href()} class="mono">
          {props.item.session_id}
        </A>{' '}
        <ModeBadge mode={props.item.mode} /> <span class="muted">{props.item.domain ?? '(no domain)'}</span> <RelTime ms={props.item.started_unix_ms} />
      </div>
      <ul class="search-hits">
        <For each={props.item.hits}>
          {(hit) => (
            <li>
              <A href={href(hit)} class="search-hit" data-testid="search-hit">
                <span class="muted">
                  line {hit.line} · {WHERE[hit.where]}
                  {hit.tool ? ` · ${hit.tool}` : ''}
                </span>{' '}
                <span class="mono search-snippet">
                  {hit.snippet.slice(0, hit.at[0])}
                  <mark>{hit.snippet.slice(hit.at[0], hit.at[1])}</mark>
                  {hit.snippet.slice(hit.at[1])}
                </span>
              </A>
            </li>
          )}
        </For>
      </ul>
      <Show when={props.item.more_hits > 0}>
        <p class="muted">{props.item.more_hits} more in this session</p>
      </Show>
    </li>
  );
}
