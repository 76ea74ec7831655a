import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const registerFeature: Feature = {
  name: 'register',
  routes: [
    {
      path: PATHS.register,
      layout: 'standalone',
      page: lazy(() => import('./RegisterPage').then((m) => ({ default: m.RegisterPage }))),
    },
  ],
};
