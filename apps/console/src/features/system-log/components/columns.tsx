/** The table columns of each log (spec 2 §3 log rows), times as YYYY-MM-DD HH:mm:ss. */
import type { ReactNode } from 'react';
import { Button, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { ROLE_NAMES, isRole, type AlarmAction, type LogType } from '@portcullis/contract';
import { errorKey } from '../../../shared/i18n/errors';
import { formatEpoch } from '../../../shared/time/format';
import type { AlarmLogRow, LogRow } from '../api';

/** An event name in the reader's language; an event the console does not know shows as is. */
export function eventLabel(event: string, t: TFunction): string {
  return t(`system-log.event.${event}`, { defaultValue: event });
}

/** A login failure's reason (a catalogue code) in the reader's language. */
export function reasonLabel(reason: string, t: TFunction): string {
  return reason ? t(errorKey(reason), { defaultValue: reason, field: '' }) : '-';
}

/** Whether an alarm's command was blocked or ran and only raised the alarm, as a tag. */
export function alarmEventTag(event: AlarmAction, t: TFunction): ReactNode {
  return <Tag color={event === 'intercept' ? 'error' : 'warning'}>{eventLabel(event, t)}</Tag>;
}

function roleLabel(role: number | null, t: TFunction): string {
  return role !== null && isRole(role) ? t(`common.role.${ROLE_NAMES[role]}`) : '-';
}

const dash = (value: unknown): ReactNode =>
  typeof value === 'string' && value !== '' ? value : '-';

function timeColumn(t: TFunction, field: 'time' | 'operation_time' = 'time') {
  return {
    key: field,
    dataIndex: field,
    title: t('system-log.col.time'),
    width: 180,
    render: (value: number) => formatEpoch(value),
  };
}

function textColumn(field: string, title: string) {
  return { key: field, dataIndex: field, title, render: dash };
}

function eventColumn(t: TFunction) {
  return {
    key: 'event',
    dataIndex: 'event',
    title: t('system-log.col.event'),
    render: (event: string) => eventLabel(event, t),
  };
}

export function logColumns(
  type: LogType,
  t: TFunction,
  onAlarm: (row: AlarmLogRow) => void,
): ColumnsType<LogRow> {
  switch (type) {
    case 'login':
      return [
        timeColumn(t),
        textColumn('account', t('system-log.col.account')),
        {
          key: 'admin',
          dataIndex: 'admin',
          title: t('system-log.col.accountType'),
          render: (role: number | null) => roleLabel(role, t),
        },
        textColumn('ip', t('system-log.col.ip')),
        {
          key: 'success',
          dataIndex: 'success',
          title: t('system-log.col.status'),
          render: (success: boolean) =>
            success ? (
              <Tag color="success">{t('system-log.status.success')}</Tag>
            ) : (
              <Tag color="error">{t('system-log.status.failure')}</Tag>
            ),
        },
        {
          key: 'reason',
          dataIndex: 'reason',
          title: t('system-log.col.reason'),
          render: (reason: string) => reasonLabel(reason, t),
        },
      ];
    case 'team':
      return [
        timeColumn(t),
        textColumn('account', t('system-log.col.operator')),
        eventColumn(t),
        textColumn('user', t('system-log.col.user')),
        textColumn('group', t('system-log.col.group')),
      ];
    case 'cluster':
      return [
        timeColumn(t),
        textColumn('account', t('system-log.col.operator')),
        eventColumn(t),
        textColumn('net_name', t('system-log.col.cluster')),
        textColumn('resource_name', t('system-log.col.resource')),
        textColumn('shared_company_name', t('system-log.col.sharedTeam')),
      ];
    case 'project':
      return [
        timeColumn(t),
        textColumn('account', t('system-log.col.operator')),
        eventColumn(t),
        textColumn('project_name', t('system-log.col.workgroup')),
        textColumn('resource_name', t('system-log.col.resource')),
        textColumn('project_account', t('system-log.col.workgroupAccount')),
        textColumn('group', t('system-log.col.group')),
      ];
    case 'alarm':
      return [
        timeColumn(t, 'operation_time'),
        textColumn('account_name', t('system-log.col.account')),
        textColumn('con_ip', t('system-log.col.sourceIp')),
        textColumn('resource_name', t('system-log.col.resource')),
        textColumn('project_name', t('system-log.col.workgroup')),
        textColumn('way', t('system-log.col.way')),
        {
          key: 'event',
          dataIndex: 'event',
          title: t('system-log.col.outcome'),
          render: (event: AlarmAction) => alarmEventTag(event, t),
        },
        {
          key: 'command',
          dataIndex: 'command',
          title: t('system-log.col.command'),
          ellipsis: true,
          render: (command: string) => <Typography.Text code>{command}</Typography.Text>,
        },
        {
          key: 'actions',
          title: t('system-log.col.actions'),
          render: (_: unknown, row: LogRow) => (
            <Button
              type="link"
              onClick={(e) => {
                e.stopPropagation();
                onAlarm(row as AlarmLogRow);
              }}
            >
              {t('system-log.alarm.details')}
            </Button>
          ),
        },
      ];
  }
}
