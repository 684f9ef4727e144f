// At most one call every `ms`: the first at once, the last of a burst when its time comes. For reloads that
// many events ask for but a few seconds' staleness does not hurt (the domain names behind every filter).

export interface Throttled {
  (): void;
  /** Drop a call that waits. */
  cancel(): void;
}

export function throttle(fn: () => void, ms: number): Throttled {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    fn();
  };
  const call = (() => {
    if (timer !== undefined) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) fire();
    else timer = setTimeout(fire, wait);
  }) as Throttled;
  call.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return call;
}
