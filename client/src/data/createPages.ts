// A list read a page at a time (a big log's events or lines): the first page is a resource that follows its
// source (a new source loads it again and drops the pages after it); "Show more" appends the next page
// through createAction, a failure of which is a toast.
import { createEffect, createSignal, on, type Accessor } from 'solid-js';
import { createAction, type Action } from './createAction.ts';
import { createApiResource, type ApiResource } from './createApiResource.ts';

export interface Page<T> {
  total: number;
  items: T[];
}

export interface Pages<T> {
  first: ApiResource<Page<T>>;
  /** Every item loaded so far, in order. */
  items: Accessor<T[]>;
  /** The total the first page gave. */
  total: Accessor<number>;
  more: Action<[], Page<T>>;
}

export function createPages<S, T>(
  source: Accessor<S>,
  page: (source: S, offset: number, signal?: AbortSignal) => Promise<Page<T>>,
  failure: string,
): Pages<T> {
  const first = createApiResource(source, (s, signal) => page(s, 0, signal));
  const [later, setLater] = createSignal<T[]>([]);
  createEffect(on(first.data, () => setLater([])));
  const items = () => [...(first.data()?.items ?? []), ...later()];
  const more = createAction(() => page(source(), items().length), {
    failure,
    after: (next) => setLater([...later(), ...next.items]),
  });
  return { first, items, total: () => first.data()?.total ?? 0, more };
}
