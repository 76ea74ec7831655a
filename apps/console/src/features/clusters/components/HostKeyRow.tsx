import type { ReactNode } from 'react';
import { App, Button, Form, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Resource } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { useUpdateResourceMutation } from '../api';

/**
 * A Linux server's SSH host key, pinned at its first session: the gateway refuses a server
 * that shows another (HostKeyChanged). An administrator who knows why the key changed (the
 * server was reinstalled) forgets it here, and the next session pins the new one.
 */
export function HostKeyRow({
  clusterId,
  resource,
}: {
  clusterId: number;
  resource: Resource;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const update = useUpdateResourceMutation(clusterId);
  const forget = (): void =>
    update.mutate(
      { resourceId: resource.id, body: { host_key: null } },
      {
        onSuccess: () => void message.success(t('clusters.hostKey.forgotten')),
        onError: (error) => void message.error(errorText(error)),
      },
    );
  return (
    <Form.Item
      label={t('clusters.hostKey.label')}
      extra={t('clusters.hostKey.hint')}
      style={{ marginTop: 16 }}
    >
      {resource.host_key === null ? (
        <Typography.Text type="secondary">{t('clusters.hostKey.none')}</Typography.Text>
      ) : (
        <Space wrap>
          <Typography.Text code copyable data-testid="host-key">
            {resource.host_key}
          </Typography.Text>
          <Popconfirm
            title={t('clusters.hostKey.forgetTitle')}
            description={t('clusters.hostKey.forgetBody')}
            okText={t('clusters.hostKey.forget')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.action.cancel')}
            onConfirm={forget}
          >
            <Button size="small" danger loading={update.isPending}>
              {t('clusters.hostKey.forget')}
            </Button>
          </Popconfirm>
        </Space>
      )}
    </Form.Item>
  );
}
