import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const purchaseFeature: Feature = {
  name: 'purchase',
  routes: [
    {
      path: PATHS.purchase,
      layout: 'standalone',
      page: lazy(() => import('./PurchasePage').then((m) => ({ default: m.PurchasePage }))),
    },
  ],
};
