// Every route of the UI (ui.md §2). The Overview is in the main bundle; every other page is a lazy chunk,
// to keep the first load small. Unknown paths go to Not found.
import type { RouteDefinition } from '@solidjs/router';
import { lazy } from 'solid-js';
import { OverviewPage } from './pages/OverviewPage.tsx';

export const routes: RouteDefinition[] = [
  { path: '/', component: OverviewPage },
  { path: '/servers', component: lazy(() => import('./pages/ServersPage.tsx')) },
  { path: '/servers/new', component: lazy(() => import('./pages/ServerEditPage.tsx')) },
  { path: '/servers/:name', component: lazy(() => import('./pages/ServerPage.tsx')) },
  { path: '/servers/:name/edit', component: lazy(() => import('./pages/ServerEditPage.tsx')) },
  { path: '/sessions', component: lazy(() => import('./pages/SessionsPage.tsx')) },
  { path: '/search', component: lazy(() => import('./pages/SearchPage.tsx')) },
  { path: '/sessions/compare', component: lazy(() => import('./pages/ComparePage.tsx')) },
  { path: '/sessions/:key', component: lazy(() => import('./pages/SessionPage.tsx')) },
  { path: '/flows', component: lazy(() => import('./pages/FlowsPage.tsx')) },
  { path: '/flows/:key', component: lazy(() => import('./pages/FlowPage.tsx')) },
  { path: '/flows/:key/versions/:version', component: lazy(() => import('./pages/FlowPage.tsx')) },
  { path: '/jobs', component: lazy(() => import('./pages/JobsPage.tsx')) },
  { path: '/jobs/new', component: lazy(() => import('./pages/JobNewPage.tsx')) },
  { path: '/jobs/:id', component: lazy(() => import('./pages/JobPage.tsx')) },
  { path: '/replays/:id', component: lazy(() => import('./pages/ReplayPage.tsx')) },
  { path: '/trash', component: lazy(() => import('./pages/TrashPage.tsx')) },
  { path: '/settings', component: lazy(() => import('./pages/SettingsPage.tsx')) },
  { path: '*404', component: lazy(() => import('./pages/NotFoundPage.tsx')) },
];
