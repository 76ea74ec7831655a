import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const resetPasswordFeature: Feature = {
  name: 'reset-password',
  routes: [
    {
      path: PATHS.resetPassword,
      layout: 'standalone',
      page: lazy(() =>
        import('./ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
      ),
    },
  ],
};
