/**
 * SSH keys (spec 1 §2.11): the account's OpenSSH public keys (name, type, fingerprint, last
 * verification, added), added in a right-hand panel and deleted after a confirmation. The
 * gateway will authenticate with these keys, matching them by fingerprint.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Card, Empty, Popconfirm, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, PAGER_THRESHOLD, type SshKey } from '@portcullis/contract';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { formatEpoch } from '../../shared/time/format';
import { useDeleteSshKeyMutation, useSshKeysQuery } from './api';
import { AddSshKeyPanel, ADD_SSH_KEY_PANEL } from './components/AddSshKeyPanel';

export function SshKeysPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [page, setPage] = useState(1);
  const keys = useSshKeysQuery(page);
  const remove = useDeleteSshKeyMutation();
  const total = keys.data?.num_results ?? 0;

  // Deleting the last key of the last page moves back one page.
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (keys.data && page > lastPage) setPage(lastPage);
  }, [keys.data, page, lastPage]);

  const onDelete = (key: SshKey): void =>
    remove.mutate(key.id, {
      onSuccess: () => void message.success(t('messages.deleteSuccess')),
      onError: (error) => void message.error(errorText(error)),
    });

  return (
    <>
      <PageHeader
        title={t('personal-sshkey.page.title')}
        subtitle={t('personal-sshkey.page.subtitle')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => panel.open(ADD_SSH_KEY_PANEL)}
          >
            {t('personal-sshkey.page.add')}
          </Button>
        }
      />
      <Card>
        <Table<SshKey>
          rowKey="id"
          loading={keys.isPending || keys.isFetching}
          dataSource={keys.data?.objects ?? []}
          locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
          pagination={
            total > PAGER_THRESHOLD
              ? {
                  current: page,
                  pageSize: PAGE_SIZE_DEFAULT,
                  total,
                  showSizeChanger: false,
                  onChange: setPage,
                }
              : false
          }
          columns={[
            { key: 'title', dataIndex: 'title', title: t('personal-sshkey.table.name') },
            { key: 'type', dataIndex: 'key_type', title: t('personal-sshkey.table.type') },
            {
              key: 'fingerprint',
              dataIndex: 'fingerprint',
              title: t('personal-sshkey.table.fingerprint'),
              render: (value: string) => (
                <Typography.Text code className="pc-fingerprint">
                  {value}
                </Typography.Text>
              ),
            },
            {
              key: 'last_time',
              dataIndex: 'last_time',
              title: t('personal-sshkey.table.lastVerified'),
              render: (value: number | null) =>
                formatEpoch(value, t('personal-sshkey.table.never')),
            },
            {
              key: 'create_time',
              dataIndex: 'create_time',
              title: t('personal-sshkey.table.added'),
              render: (value: number) => formatEpoch(value),
            },
            {
              key: 'actions',
              title: t('personal-sshkey.table.actions'),
              render: (_: unknown, key: SshKey) => (
                <Popconfirm
                  title={t('personal-sshkey.delete.title')}
                  description={t('personal-sshkey.delete.body', { name: key.title })}
                  okText={t('personal-sshkey.delete.ok')}
                  cancelText={t('common.action.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete(key)}
                >
                  <Button
                    type="link"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('personal-sshkey.delete.label', { name: key.title })}
                  >
                    {t('personal-sshkey.delete.button')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
      <AddSshKeyPanel />
    </>
  );
}
