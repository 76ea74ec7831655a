import type { ReactNode } from 'react';
import { Alert, Descriptions, Skeleton, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { formatEpoch } from '../../../shared/time/format';
import { useAlarmQuery, type AlarmLogRow } from '../api';
import { alarmEventTag } from './columns';

export const ALARM_DETAIL_PANEL = 'panel/system-log/alarm';

/**
 * One alarm, read afresh with POST /event/alarm: whether its command was blocked, and whom its
 * mail reached.
 */
export function AlarmDetailPanel({ row }: { row: AlarmLogRow | null }): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  const open = activeKey === ALARM_DETAIL_PANEL;
  return (
    <RightPanel panelKey={ALARM_DETAIL_PANEL} title={t('system-log.alarm.title')} width={560}>
      {open && row ? <AlarmDetail id={row.id} /> : null}
    </RightPanel>
  );
}

function AlarmDetail({ id }: { id: number }): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const alarm = useAlarmQuery(id);
  if (alarm.isPending) return <Skeleton active />;
  if (alarm.isError) return <Alert type="error" showIcon title={errorText(alarm.error)} />;
  const a = alarm.data;
  return (
    <Descriptions
      column={1}
      bordered
      size="small"
      items={[
        { key: 'time', label: t('system-log.col.time'), children: formatEpoch(a.operation_time) },
        { key: 'account', label: t('system-log.col.account'), children: a.account_name || '-' },
        { key: 'ip', label: t('system-log.col.sourceIp'), children: a.con_ip || '-' },
        { key: 'resource', label: t('system-log.col.resource'), children: a.resource_name || '-' },
        { key: 'project', label: t('system-log.col.workgroup'), children: a.project_name || '-' },
        { key: 'way', label: t('system-log.col.way'), children: a.way || '-' },
        { key: 'event', label: t('system-log.col.outcome'), children: alarmEventTag(a.event, t) },
        {
          key: 'command',
          label: t('system-log.col.command'),
          children: (
            <Typography.Paragraph code className="pc-break-all">
              {a.command}
            </Typography.Paragraph>
          ),
        },
        {
          key: 'notice',
          label: t('system-log.alarm.noticeAccounts'),
          children:
            a.notice_accounts.length > 0 ? (
              <Space wrap>
                {a.notice_accounts.map((account) => (
                  <Tag key={account}>{account}</Tag>
                ))}
              </Space>
            ) : (
              '-'
            ),
        },
      ]}
    />
  );
}
