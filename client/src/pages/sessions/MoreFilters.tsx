// The sessions list's second filter row: the agent and a tool called (exact names, applied on Enter or when
// the field is left), sessions with errors, and sessions where the flow was surprised. Each lives in the URL.
import type { SessionHas } from '../../../../shared/sessions.ts';
import type { Changes } from './sessions-url.ts';

export function MoreFilters(props: { agent: string; tool: string; has: readonly SessionHas[]; go: (changes: Changes) => void }) {
  const setHas = (has: readonly SessionHas[]) => props.go({ has: has.length > 0 ? has.join(',') : undefined });
  const toggle = (h: SessionHas, on: boolean) => setHas(on ? [...props.has.filter((x) => x !== h), h] : props.has.filter((x) => x !== h));
  return (
    <div class="filters more-filters" role="group" aria-label="More filters">
      <label class="filter-field">
        Agent
        <input class="input" type="text" data-testid="filter-agent" placeholder="exact name" value={props.agent} onChange={(e) => props.go({ agent: e.currentTarget.value.trim() || undefined })} />
      </label>
      <label class="filter-field">
        Tool called
        <input class="input" type="text" data-testid="filter-tool" placeholder="exact name" value={props.tool} onChange={(e) => props.go({ tool: e.currentTarget.value.trim() || undefined })} />
      </label>
      <label class="filter-check">
        <input type="checkbox" data-testid="filter-errors" checked={props.has.includes('errors')} onChange={(e) => toggle('errors', e.currentTarget.checked)} />
        With errors
      </label>
      <label class="filter-check">
        <input type="checkbox" data-testid="filter-surprised" checked={props.has.includes('surprised')} onChange={(e) => toggle('surprised', e.currentTarget.checked)} />
        The flow was surprised
      </label>
    </div>
  );
}
