import type { ThemeConfig } from 'antd';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#1d39c4',
    borderRadius: 6,
  },
  components: {
    Layout: { siderBg: '#0b1437', headerBg: '#ffffff', headerPadding: '0 24px' },
    Menu: {
      darkItemBg: '#0b1437',
      darkSubMenuItemBg: '#0b1437',
      darkItemSelectedBg: '#1d39c4',
    },
  },
};
