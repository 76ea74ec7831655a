/**
 * The Manage Code table (spec 1 §2.7): member, code (the member's own in full and copyable,
 * anyone else's masked), allowed IPs, start and end time, Change (not for a temporary
 * authorization) and Delete after a confirmation. An expired code's row is highlighted.
 */
import type { ReactNode } from 'react';
import { Avatar, Button, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, PAGER_THRESHOLD, type Code } from '@portcullis/contract';
import { formatEpoch } from '../../../shared/time/format';
import { isExpired } from '../rules';

export interface CodeTableProps {
  codes: Code[];
  total: number;
  page: number;
  loading: boolean;
  onPage: (page: number) => void;
  onChange: (code: Code) => void;
  onDelete: (code: Code) => void;
}

export function CodeTable({
  codes,
  total,
  page,
  loading,
  onPage,
  onChange,
  onDelete,
}: CodeTableProps): ReactNode {
  const { t } = useTranslation();
  const now = Math.floor(Date.now() / 1000);
  return (
    <Table<Code>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={codes}
      rowClassName={(c) => (isExpired(c, now) ? 'pc-code-expired' : '')}
      locale={{ emptyText: <Empty description={t('workgroup.codes.empty')} /> }}
      scroll={{ x: 'max-content' }}
      pagination={
        total > PAGER_THRESHOLD
          ? {
              current: page,
              pageSize: PAGE_SIZE_DEFAULT,
              total,
              showSizeChanger: false,
              onChange: onPage,
            }
          : false
      }
      columns={[
        {
          key: 'member',
          title: t('workgroup.codes.col.member'),
          render: (_: unknown, c: Code) => (
            <Space size={6}>
              <Avatar size="small" src={c.account.avatar || undefined}>
                {c.account.name.slice(0, 1).toUpperCase()}
              </Avatar>
              <span>{c.account.name}</span>
            </Space>
          ),
        },
        {
          key: 'code',
          title: t('workgroup.codes.col.code'),
          render: (_: unknown, c: Code) => (
            <Space size={4} wrap>
              {c.masked ? (
                <Typography.Text code>{c.code}</Typography.Text>
              ) : (
                <Typography.Text code copyable={{ text: c.code }}>
                  {c.code}
                </Typography.Text>
              )}
              {c.type === 'tmp_share' ? (
                <Tag color="blue">{t('workgroup.codes.temporary')}</Tag>
              ) : null}
              {c.type === 'tmp_share' && c.used ? <Tag>{t('workgroup.codes.used')}</Tag> : null}
              {c.safe_mode === 1 ? (
                <Tooltip title={t('workgroup.codes.safeMode')}>
                  <SafetyOutlined aria-label={t('workgroup.codes.safeMode')} />
                </Tooltip>
              ) : null}
            </Space>
          ),
        },
        {
          key: 'ip',
          title: t('workgroup.codes.col.allowIp'),
          render: (_: unknown, c: Code) =>
            c.allow_ip ? c.allow_ip.split(':').join(', ') : t('workgroup.codes.noLimit'),
        },
        {
          key: 'start',
          title: t('workgroup.codes.col.start'),
          render: (_: unknown, c: Code) => formatEpoch(c.create_time),
        },
        {
          key: 'end',
          title: t('workgroup.codes.col.end'),
          render: (_: unknown, c: Code) =>
            isExpired(c, now) ? (
              <Space size={4}>
                <Typography.Text type="danger">{formatEpoch(c.expire_time)}</Typography.Text>
                <Tag color="error">{t('workgroup.codes.expired')}</Tag>
              </Space>
            ) : (
              formatEpoch(c.expire_time)
            ),
        },
        {
          key: 'actions',
          title: t('workgroup.codes.col.actions'),
          render: (_: unknown, c: Code) => (
            <Space size={0}>
              {c.type === 'tmp_share' ? null : (
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('workgroup.codes.changeLabel', { name: c.account.name })}
                  onClick={() => onChange(c)}
                >
                  {t('workgroup.codes.change')}
                </Button>
              )}
              <Popconfirm
                title={t('workgroup.codes.deleteTitle')}
                description={t('workgroup.codes.deleteBody')}
                okText={t('common.action.delete')}
                cancelText={t('common.action.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => onDelete(c)}
              >
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('workgroup.codes.deleteLabel', { name: c.account.name })}
                >
                  {t('common.action.delete')}
                </Button>
              </Popconfirm>
            </Space>
          ),
        },
      ]}
    />
  );
}
