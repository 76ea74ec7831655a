import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const loginFeature: Feature = {
  name: 'login',
  routes: [
    {
      path: PATHS.login,
      layout: 'standalone',
      page: lazy(() => import('./LoginPage').then((m) => ({ default: m.LoginPage }))),
    },
  ],
};
