import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const forgotPasswordFeature: Feature = {
  name: 'forgot-password',
  routes: [
    {
      path: PATHS.forgotPassword,
      layout: 'standalone',
      page: lazy(() =>
        import('./ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
      ),
    },
  ],
};
