import { lazy } from 'react';
import { UserOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const personalInfoFeature: Feature = {
  name: 'personal-info',
  routes: [
    {
      path: PATHS.personalInfo,
      layout: 'shell',
      access: 'personal',
      page: lazy(() => import('./PersonalInfoPage').then((m) => ({ default: m.PersonalInfoPage }))),
    },
  ],
  menu: [
    {
      group: 'personal',
      key: 'personal',
      path: PATHS.personalInfo,
      labelKey: 'personal-info.menu.label',
      icon: UserOutlined,
      order: 1,
    },
  ],
};
