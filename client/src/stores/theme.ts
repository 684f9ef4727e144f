// The theme: system (no attribute, follow prefers-color-scheme), light or dark, kept in localStorage
// engine-console:theme and applied as <html data-theme>. public/theme-init.js applies it before paint.
import { createSignal } from 'solid-js';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'engine-console:theme';

function stored(): Theme {
  try {
    const t = localStorage.getItem(KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

const [theme, setThemeSignal] = createSignal<Theme>(stored());
export { theme };

export function setTheme(t: Theme): void {
  setThemeSignal(t);
  try {
    if (t === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, t);
  } catch {
    /* storage may be off: the choice lasts for this page */
  }
  if (t === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', t);
}

export function cycleTheme(): void {
  const t = theme();
  setTheme(t === 'system' ? 'light' : t === 'light' ? 'dark' : 'system');
}

export const THEME_TITLE: Record<Theme, string> = {
  system: 'Theme: the system’s',
  light: 'Theme: light',
  dark: 'Theme: dark',
};
