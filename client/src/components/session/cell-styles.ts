// Cell styles the session page's tables share: small type, and long values that wrap anywhere.
import type { JSX } from 'solid-js';

export const SMALL: JSX.CSSProperties = { 'font-size': '12px' };
export const SMALL_WRAP: JSX.CSSProperties = { 'font-size': '12px', 'overflow-wrap': 'anywhere' };
