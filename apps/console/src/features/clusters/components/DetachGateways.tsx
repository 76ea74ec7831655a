/**
 * After the uninstall command ran on the gateway host: detach the cluster from its gateways
 * (PATCH agent_id null). The server cuts them off and gives the cluster a new key, so the
 * install command above changes and an old installation cannot come back.
 */
import type { ReactNode } from 'react';
import { App, Button, Popconfirm, Typography } from 'antd';
import { DisconnectOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/i18n/errors';
import { clusterKeys, useUpdateClusterMutation } from '../api';

export function DetachGateways({ clusterId }: { clusterId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const update = useUpdateClusterMutation(clusterId);
  const detach = (): void =>
    update.mutate(
      { agent_id: null },
      {
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: clusterKeys.scripts(clusterId) });
          void message.success(t('clusters.agent.detached'));
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  return (
    <div style={{ marginTop: 8 }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        {t('clusters.agent.detachHint')}
      </Typography.Paragraph>
      <Popconfirm
        title={t('clusters.agent.detachConfirm')}
        okText={t('clusters.agent.detach')}
        cancelText={t('common.action.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={detach}
      >
        <Button danger icon={<DisconnectOutlined />} loading={update.isPending}>
          {t('clusters.agent.detach')}
        </Button>
      </Popconfirm>
    </div>
  );
}
