import { useState, type ReactNode } from 'react';
import { Alert } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useBannerQuery } from './api';
import { dismissBanner, isBannerDismissed } from './plan';

/** The server's notification banner; closing it is remembered (by banner id) in this browser. */
export function NotificationBanner(): ReactNode {
  const banner = useBannerQuery();
  const [closedId, setClosedId] = useState<string | null>(null);
  const data = banner.data;
  if (!data || !data.text || closedId === data.id || isBannerDismissed(data.id)) return null;
  return (
    <Alert
      className="pc-shell__notice"
      type="info"
      showIcon
      icon={<NotificationOutlined />}
      title={data.text}
      closable={{
        onClose: () => {
          dismissBanner(data.id);
          setClosedId(data.id);
        },
      }}
    />
  );
}
