// The global domain filter of the top bar: the chosen name (kept in localStorage engine-console:domain)
// and the names to choose from (the overview's domains and the registry's servers, deduplicated, sorted).
import { createSignal } from 'solid-js';

const KEY = 'engine-console:domain';

function stored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

const [domain, setDomainSignal] = createSignal<string | null>(stored());
const [names, setNames] = createSignal<string[]>([]);
export { domain, names as domainNames };

export function setDomain(d: string | null): void {
  const value = d === '' ? null : d;
  setDomainSignal(value);
  try {
    if (value === null) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, value);
  } catch {
    /* kept for this page only */
  }
}

export function setDomainNames(list: string[]): void {
  setNames(list);
}
