import type { ReactNode } from 'react';
import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { PRODUCT_VERSION } from '../../../shared/version';

/** The version tab: the product and the version this console was built as. */
export function VersionTab(): ReactNode {
  const { t } = useTranslation();
  return (
    <Card>
      <Descriptions
        column={1}
        bordered
        size="middle"
        items={[
          { key: 'product', label: t('team.version.product'), children: t('common.brand.name') },
          {
            key: 'version',
            label: t('team.version.version'),
            children: <span data-testid="product-version">{PRODUCT_VERSION}</span>,
          },
        ]}
      />
    </Card>
  );
}
