import type { ReactNode } from 'react';
import { App, Button, Card, Descriptions, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TeamSettings } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { useCurrentAccountQuery } from '../../../shared/session/session';
import { useRenewDomainTokenMutation, useUnbindWorkspaceMutation } from '../api';

/**
 * The domain token a workspace binds with, and the bound workspace. A new token invalidates
 * the old one and so unbinds the workspace; both ask first.
 */
export function WorkspaceCard({ settings }: { settings: TeamSettings }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const me = useCurrentAccountQuery();
  const renew = useRenewDomainTokenMutation();
  const unbind = useUnbindWorkspaceMutation();
  const bound = settings.ee_work_space_id !== '';
  return (
    <Card title={t('team.workspace.title')}>
      {/* Label above value: a token is too long to sit beside its label. */}
      <Descriptions
        layout="vertical"
        column={1}
        size="small"
        items={[
          {
            key: 'token',
            label: t('team.workspace.domainToken'),
            children: (
              <Space wrap>
                {settings.domain_token ? (
                  <Typography.Text
                    code
                    className="pc-break-all"
                    copyable={{ onCopy: () => void message.success(t('messages.copySuccess')) }}
                  >
                    {settings.domain_token}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">{t('team.workspace.noToken')}</Typography.Text>
                )}
                <Popconfirm
                  title={t('team.workspace.renewTitle')}
                  description={t('team.workspace.renewBody')}
                  okText={t('common.action.update')}
                  cancelText={t('common.action.cancel')}
                  onConfirm={() =>
                    renew.mutate(undefined, {
                      onSuccess: () => void message.success(t('messages.updateSuccess')),
                      onError: (error) => void message.error(errorText(error)),
                    })
                  }
                >
                  <Button size="small" loading={renew.isPending}>
                    {t('common.action.update')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
          {
            key: 'workspace',
            label: t('team.workspace.bound'),
            children: bound ? (
              <Space wrap>
                <span>{settings.ee_work_space_name || settings.ee_work_space_id}</span>
                <Popconfirm
                  title={t('team.workspace.unbindTitle')}
                  description={t('team.workspace.unbindBody', {
                    name: settings.ee_work_space_name || settings.ee_work_space_id,
                  })}
                  okText={t('team.workspace.unbind')}
                  cancelText={t('common.action.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() =>
                    unbind.mutate(
                      {
                        work_space_id: settings.ee_work_space_id,
                        domain: me.data?.company.domain ?? '',
                      },
                      {
                        onSuccess: () => void message.success(t('team.notice.unbindSuccess')),
                        onError: (error) => void message.error(errorText(error)),
                      },
                    )
                  }
                >
                  <Button size="small" danger loading={unbind.isPending}>
                    {t('team.workspace.unbind')}
                  </Button>
                </Popconfirm>
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('team.workspace.notBound')}</Typography.Text>
            ),
          },
        ]}
      />
    </Card>
  );
}
