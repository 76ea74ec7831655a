import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const mfaFeature: Feature = {
  name: 'mfa',
  routes: [
    {
      path: PATHS.mfaConfirm,
      layout: 'standalone',
      page: lazy(() => import('./MfaConfirmPage').then((m) => ({ default: m.MfaConfirmPage }))),
    },
    {
      path: PATHS.mfaOpen,
      layout: 'standalone',
      page: lazy(() => import('./MfaOpenPage').then((m) => ({ default: m.MfaOpenPage }))),
    },
  ],
};
