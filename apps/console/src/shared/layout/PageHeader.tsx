import type { ReactNode } from 'react';
import { Typography } from 'antd';

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
}

/** The title row of a page inside the shell. */
export function PageHeader({ title, subtitle, extra }: PageHeaderProps): ReactNode {
  return (
    <div className="pc-page-header">
      <div>
        <Typography.Title level={3} className="pc-page-header__title">
          {title}
        </Typography.Title>
        {subtitle ? <Typography.Text type="secondary">{subtitle}</Typography.Text> : null}
      </div>
      {extra ? <div className="pc-page-header__extra">{extra}</div> : null}
    </div>
  );
}
