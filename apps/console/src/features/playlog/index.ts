import { lazy } from 'react';
import type { Feature } from '../../shared/feature';

/**
 * The playback page, playlog.html (spec 1 §2.1, §2.9). A route of the console rather than a
 * second build entry: the server answers every unknown non-API path with the console, so the
 * spec's address works as is, and the page shares the session, i18n and theme. Standalone
 * (no shell): it opens in its own tab; the recording call itself enforces who may watch.
 */
export const playlogFeature: Feature = {
  name: 'playlog',
  routes: [
    {
      path: '/playlog.html',
      layout: 'standalone',
      page: lazy(() => import('./PlaylogPage').then((m) => ({ default: m.PlaylogPage }))),
    },
  ],
};
