// The three states of a loaded resource in one place (STYLE §8): its error (with Try again when it can pass), skeletons while
// nothing is there yet, then the data. Pages wrap what they render in it instead of nesting two <Show>s.
import { Show, type Accessor, type JSX } from 'solid-js';
import type { ApiResource } from '../../data/createApiResource.ts';
import { ErrorState, Skeleton } from './ui.tsx';

export function Loaded<T>(props: {
  resource: ApiResource<T>;
  /** Skeleton lines (default 4) or a whole fallback of its own. */
  skeleton?: number | JSX.Element;
  skeletonHeight?: number;
  skeletonLabel?: string;
  /** ErrorState titles. */
  errorTitle?: string;
  notFoundTitle?: string;
  /** What a 404 shows instead of the error state (a session in the trash, say). */
  notFound?: () => JSX.Element;
  /** Wraps the error state (a page puts it in a card). */
  errorFrame?: (content: JSX.Element) => JSX.Element;
  /** Gets an accessor, so a refresh updates the page in place instead of building it again. */
  children: (data: Accessor<NonNullable<T>>) => JSX.Element;
}) {
  const skeleton = () =>
    typeof props.skeleton === 'number' || props.skeleton === undefined ? (
      <Skeleton lines={(props.skeleton as number | undefined) ?? 4} height={props.skeletonHeight} label={props.skeletonLabel} />
    ) : (
      props.skeleton
    );
  const failed = () => {
    const gone = props.resource.error()!.status === 404 && props.notFound;
    const state = gone ? gone() : <ErrorState error={props.resource.error()!} title={props.errorTitle} notFoundTitle={props.notFoundTitle} retry={props.resource.refetch} />;
    return props.errorFrame ? props.errorFrame(state) : state;
  };
  return (
    <Show when={!props.resource.error() || props.resource.data() !== undefined} fallback={failed()}>
      <Show when={props.resource.data()} fallback={skeleton()}>
        {(data) => props.children(data)}
      </Show>
    </Show>
  );
}
