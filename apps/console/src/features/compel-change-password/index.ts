import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const compelChangePasswordFeature: Feature = {
  name: 'compel-change-password',
  routes: [
    {
      path: PATHS.compelChangePassword,
      layout: 'standalone',
      page: lazy(() =>
        import('./CompelChangePasswordPage').then((m) => ({ default: m.CompelChangePasswordPage })),
      ),
    },
  ],
};
