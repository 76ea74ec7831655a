import { lazy } from 'react';
import { SafetyOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const personalSecurityFeature: Feature = {
  name: 'personal-security',
  routes: [
    {
      path: PATHS.personalSecurity,
      layout: 'shell',
      access: 'personal',
      page: lazy(() =>
        import('./PersonalSecurityPage').then((m) => ({ default: m.PersonalSecurityPage })),
      ),
    },
  ],
  menu: [
    {
      group: 'personal',
      key: 'personal',
      path: PATHS.personalSecurity,
      labelKey: 'personal-security.menu.label',
      icon: SafetyOutlined,
      order: 2,
    },
  ],
};
