// The document title: "<page title> · engine console", or "engine console".
import { createEffect, onCleanup } from 'solid-js';

export function useTitle(title: () => string | null | undefined): void {
  createEffect(() => {
    const t = title();
    document.title = t ? `${t} · engine console` : 'engine console';
  });
  onCleanup(() => {
    document.title = 'engine console';
  });
}
