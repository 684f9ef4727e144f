// Line icons drawn for the console (24 × 24, 2 px strokes, round caps). Every icon is aria-hidden: a
// button that shows only an icon carries its own aria-label.


const paths: Record<string, string[]> = {
  overview: ['M3 3h8v10H3z', 'M13 3h8v6h-8z', 'M13 11h8v10h-8z', 'M3 15h8v6H3z'],
  server: ['M3 4h18v7H3z', 'M3 13h18v7H3z', 'M7 7.5h.01', 'M7 16.5h.01'],
  sessions: ['M8 3h11a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H8', 'M8 3a2 2 0 0 0-2 2v14a2 2 0 0 1-2 2', 'M10 8h7', 'M10 12h7', 'M10 16h5'],
  flow: ['M4 5h5v5H4z', 'M15 14h5v5h-5z', 'M6.5 10v3a3 3 0 0 0 3 3H15'],
  terminal: ['M3 4h18v16H3z', 'M7 9l3 3-3 3', 'M12 15h5'],
  settings: ['M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M19 12a7 7 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14 3h-4l-.5 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6A7 7 0 0 0 5 12c0 .4 0 .8.1 1.2l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2L10 21h4l.5-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z'],
  search: ['M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z', 'M21 21l-5-5'],
  menu: ['M4 6h16', 'M4 12h16', 'M4 18h16'],
  x: ['M6 6l12 12', 'M18 6L6 18'],
  plus: ['M12 5v14', 'M5 12h14'],
  sun: ['M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M12 2v2', 'M12 20v2', 'M4.9 4.9l1.4 1.4', 'M17.7 17.7l1.4 1.4', 'M2 12h2', 'M20 12h2', 'M4.9 19.1l1.4-1.4', 'M17.7 6.3l1.4-1.4'],
  moon: ['M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z'],
  monitor: ['M3 4h18v12H3z', 'M8 20h8', 'M12 16v4'],
  lock: ['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4'],
  check: ['M5 12l5 5 9-10'],
  'circle-check': ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M8 12l3 3 5-6'],
  'circle-alert': ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 8v5', 'M12 16h.01'],
  'circle-x': ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M9 9l6 6', 'M15 9l-6 6'],
  info: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 11v5', 'M12 8h.01'],
  warn: ['M12 3l10 18H2z', 'M12 10v4', 'M12 17h.01'],
  clock: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 7v5l3 2'],
  loader: ['M12 3a9 9 0 1 0 9 9'],
  ban: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M5.6 5.6l12.8 12.8'],
  download: ['M12 3v12', 'M7 10l5 5 5-5', 'M4 20h16'],
  trash: ['M4 7h16', 'M10 11v6', 'M14 11v6', 'M6 7l1 13h10l1-13', 'M9 7V4h6v3'],
  copy: ['M9 9h11v11H9z', 'M5 15H4V4h11v1'],
  retry: ['M3 12a9 9 0 1 0 3-6.7', 'M3 4v5h5'],
  plug: ['M9 2v5', 'M15 2v5', 'M6 7h12v4a6 6 0 0 1-12 0z', 'M12 17v5'],
  key: ['M8 15a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M11 11h10', 'M17 11v3', 'M20 11v2'],
  eye: ['M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z', 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z'],
  'eye-off': ['M3 3l18 18', 'M10.6 5.1A10 10 0 0 1 12 5c6 0 10 7 10 7a17 17 0 0 1-3 3.7', 'M6.6 6.6A17 17 0 0 0 2 12s4 7 10 7a10 10 0 0 0 5.4-1.6'],
  login: ['M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4', 'M10 17l5-5-5-5', 'M15 12H3'],
  logout: ['M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4', 'M16 17l5-5-5-5', 'M21 12H9'],
  'chevron-right': ['M9 6l6 6-6 6'],
  'chevron-down': ['M6 9l6 6 6-6'],
  'chevron-up': ['M6 15l6-6 6 6'],
  'chevrons-up-down': ['M7 9l5-5 5 5', 'M7 15l5 5 5-5'],
  'arrow-right': ['M5 12h14', 'M13 6l6 6-6 6'],
  'arrow-left': ['M19 12H5', 'M11 6l-6 6 6 6'],
  'arrow-down-line': ['M12 3v12', 'M7 10l5 5 5-5', 'M5 21h14'],
  play: ['M7 4l13 8-13 8z'],
  sparkles: ['M12 3l2 5 5 2-5 2-2 5-2-5-5-2 5-2z', 'M19 15l.8 2 2 .8-2 .8-.8 2-.8-2-2-.8 2-.8z'],
  badge: ['M12 2l2.5 2 3-.3.9 3 2.6 1.6-1 2.9 1 2.9-2.6 1.6-.9 3-3-.3L12 22l-2.5-2-3 .3-.9-3L3 15.7l1-2.9-1-2.9L5.6 8.3l.9-3 3 .3z', 'M8.5 12l2.5 2.5 4.5-5'],
  'file-search': ['M14 3H6v18h12V7z', 'M14 3v4h4', 'M11.5 16a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z', 'M13.5 15.5L16 18'],
  branch: ['M6 3v12', 'M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M18 9a9 9 0 0 1-9 9'],
  eraser: ['M7 21h13', 'M4 15l9-11 7 6-9 11H7z', 'M9 9l7 6'],
  stethoscope: ['M5 3v6a5 5 0 0 0 10 0V3', 'M10 14v2a5 5 0 0 0 10 0v-3', 'M20 13a2 2 0 1 0 0-4 2 2 0 0 0 0 4z'],
  bot: ['M5 8h14v12H5z', 'M12 4v4', 'M9 13h.01', 'M15 13h.01', 'M9 17h6'],
  compass: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M15.5 8.5l-2 5-5 2 2-5z'],
  'file-text': ['M14 3H6v18h12V7z', 'M14 3v4h4', 'M9 13h6', 'M9 17h6'],
  scale: ['M12 3v18', 'M5 21h14', 'M3 7h18', 'M6 7l-3 7a3 3 0 0 0 6 0z', 'M18 7l-3 7a3 3 0 0 0 6 0z'],
  wrench: ['M14.7 6.3a4 4 0 0 0 5 5L21 13l-8 8-3-3 8-8', 'M14.7 6.3L17 4l3 3-2.3 2.3', 'M3 21l6-6'],
  waypoints: ['M5 7a2 2 0 1 0 0-4 2 2 0 0 0 0 4z', 'M19 21a2 2 0 1 0 0-4 2 2 0 0 0 0 4z', 'M5 7v4a3 3 0 0 0 3 3h8a3 3 0 0 1 3 3'],
  'corner-down-right': ['M4 4v7a4 4 0 0 0 4 4h12', 'M15 10l5 5-5 5'],
  'corner-up-left': ['M20 20v-7a4 4 0 0 0-4-4H4', 'M9 14L4 9l5-5'],
  'corner-down-left': ['M20 4v7a4 4 0 0 1-4 4H4', 'M9 10l-5 5 5 5'],
  folder: ['M3 6h6l2 2h10v11H3z'],
  table: ['M3 4h18v16H3z', 'M3 10h18', 'M3 15h18', 'M9 4v16'],
  chart: ['M4 20V4', 'M4 20h16', 'M8 16v-5', 'M12 16V8', 'M16 16v-3'],
  scissors: ['M6 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M8.1 8.1L20 20', 'M8.1 15.9L20 4'],
  shield: ['M12 21s8-4 8-10V5l-8-3-8 3v6c0 6 8 10 8 10z'],
  external: ['M14 4h6v6', 'M20 4l-9 9', 'M18 14v6H4V6h6'],
  keyboard: ['M2 6h20v12H2z', 'M6 10h.01', 'M10 10h.01', 'M14 10h.01', 'M18 10h.01', 'M7 14h10'],
  'panel-close': ['M3 4h18v16H3z', 'M9 4v16', 'M16 10l-2 2 2 2'],
  'panel-open': ['M3 4h18v16H3z', 'M9 4v16', 'M14 10l2 2-2 2'],
  pencil: ['M4 20h4L19 9l-4-4L4 16z', 'M13 7l4 4'],
  zap: ['M13 2L4 14h7l-1 8 9-12h-7z'],
};

export type IconName = keyof typeof paths;

export function Icon(props: { name: IconName; size?: number; class?: string }) {
  const d = () => paths[props.name] ?? [];
  return (
    <svg
      class={`icon ${props.class ?? ''}`}
      width={props.size ?? 16}
      height={props.size ?? 16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      {d().map((p) => (
        <path d={p} />
      ))}
    </svg>
  );
}
