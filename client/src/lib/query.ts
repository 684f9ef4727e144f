// Query strings and URL paths for the API client: values that are undefined, null or '' are left out,
// and path segments are always encoded (a server named a/b becomes a%2Fb).

export type QueryValue = string | number | boolean | null | undefined;

export function queryString(params: Record<string, QueryValue> | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    search.append(k, String(v));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** `/api/sessions/${key}` with each segment encoded: apiPath('sessions', key, 'raw'). */
export function apiPath(...segments: (string | number)[]): string {
  return `/api/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;
}

/** The message an error response carries: {"error"} first, a short non-HTML body next, else the status. */
export function errorMessage(status: number, statusText: string, contentType: string, body: string): string {
  if (/^application\/(.+\+)?json/i.test(contentType)) {
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed !== null && typeof parsed === 'object' && 'error' in parsed) {
        const e = (parsed as { error: unknown }).error;
        if (typeof e === 'string') return e;
      }
    } catch {
      /* fall through to the text rules */
    }
  }
  const trimmed = body.trim();
  if (trimmed !== '' && trimmed.length <= 300 && !trimmed.startsWith('<')) return trimmed;
  return `${status} ${statusText || 'error'}`;
}

/** Adds or replaces one query parameter of a URL path with search and hash: for the ?token= hand-off. */
export function withQueryParam(pathAndSearch: string, hash: string, name: string, value: string): string {
  const q = pathAndSearch.indexOf('?');
  const path = q === -1 ? pathAndSearch : pathAndSearch.slice(0, q);
  const search = new URLSearchParams(q === -1 ? '' : pathAndSearch.slice(q + 1));
  search.set(name, value);
  return `${path}?${search.toString()}${hash}`;
}
