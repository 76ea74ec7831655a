import { lazy } from 'react';
import { KeyOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

export const personalSshKeyFeature: Feature = {
  name: 'personal-sshkey',
  routes: [
    {
      path: PATHS.personalSshKey,
      layout: 'shell',
      access: 'personal',
      page: lazy(() => import('./SshKeysPage').then((m) => ({ default: m.SshKeysPage }))),
    },
  ],
  menu: [
    {
      group: 'personal',
      key: 'personal',
      path: PATHS.personalSshKey,
      labelKey: 'personal-sshkey.menu.label',
      icon: KeyOutlined,
      order: 3,
    },
  ],
};
