/**
 * One log's filters and table. Filters apply on Search (the export link carries the applied
 * ones, so it downloads what the table shows); the event filter is offered on the team,
 * cluster and workgroup logs from their vocabularies and on the alarm log (blocked or alarm
 * only), the account type on the login log, and
 * the key picks which field the text filters (LOG_SEARCH_KEYS).
 */
import { useState, type ReactNode } from 'react';
import { Button, Card, DatePicker, Empty, Input, Select, Space, Table } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  ALARM_ACTIONS,
  ALL_ROLES,
  CLUSTER_EVENTS,
  LOG_SEARCH_KEYS,
  PAGE_SIZE_DEFAULT,
  PAGER_THRESHOLD,
  PROJECT_EVENTS,
  ROLE_NAMES,
  TEAM_EVENTS,
  type LogType,
} from '@portcullis/contract';
import { usePanel } from '../../../shared/panel/panel-context';
import {
  exportUrl,
  filterQuery,
  useLogsQuery,
  type AlarmLogRow,
  type LogFilters,
  type LogRow,
} from '../api';
import { AlarmDetailPanel, ALARM_DETAIL_PANEL } from './AlarmDetailPanel';
import { eventLabel, logColumns } from './columns';

/** The event vocabulary a log filters by, or null for logs without one. */
export const LOG_EVENTS: Record<LogType, readonly string[] | null> = {
  login: null,
  team: TEAM_EVENTS,
  cluster: CLUSTER_EVENTS,
  project: PROJECT_EVENTS,
  alarm: ALARM_ACTIONS,
};

function emptyFilters(type: LogType): LogFilters {
  return { searchKey: LOG_SEARCH_KEYS[type][0], text: '' };
}

export function LogTab({ type }: { type: LogType }): ReactNode {
  const { t } = useTranslation();
  const panel = usePanel();
  const [draft, setDraft] = useState<LogFilters>(() => emptyFilters(type));
  const [applied, setApplied] = useState<LogFilters>(() => emptyFilters(type));
  const [page, setPage] = useState(1);
  const [alarm, setAlarm] = useState<AlarmLogRow | null>(null);
  const query = filterQuery(type, applied);
  const logs = useLogsQuery(type, page, query);
  const total = logs.data?.num_results ?? 0;
  const events = LOG_EVENTS[type];
  const change = (patch: Partial<LogFilters>): void => setDraft((d) => ({ ...d, ...patch }));

  const search = (): void => {
    setApplied(draft);
    setPage(1);
    // The same filters again still read the log afresh.
    if (JSON.stringify(filterQuery(type, draft)) === JSON.stringify(query)) void logs.refetch();
  };

  const openAlarm = (row: AlarmLogRow): void => {
    setAlarm(row);
    panel.open(ALARM_DETAIL_PANEL);
  };

  return (
    <Card>
      <div className="pc-toolbar pc-log-filters">
        <Space wrap>
          {events ? (
            <Select<string>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              aria-label={t('system-log.filter.event')}
              placeholder={t('system-log.filter.allEvents')}
              className="pc-log-filters__event"
              value={draft.event}
              onChange={(event) => change({ event })}
              options={events.map((e) => ({ value: e, label: eventLabel(e, t) }))}
            />
          ) : null}
          {type === 'login' ? (
            <Select<number>
              allowClear
              aria-label={t('system-log.filter.accountType')}
              placeholder={t('system-log.filter.allAccountTypes')}
              className="pc-log-filters__role"
              value={draft.admin}
              onChange={(admin) => change({ admin })}
              options={ALL_ROLES.map((role) => ({
                value: role,
                label: t(`common.role.${ROLE_NAMES[role]}`),
              }))}
            />
          ) : null}
          <Space.Compact>
            <Select<string>
              aria-label={t('system-log.filter.key')}
              className="pc-log-filters__key"
              value={draft.searchKey}
              onChange={(searchKey) => change({ searchKey })}
              options={LOG_SEARCH_KEYS[type].map((key) => ({
                value: key,
                label: t(`system-log.key.${key}`),
              }))}
            />
            <Input
              allowClear
              aria-label={t('system-log.filter.text')}
              placeholder={t('system-log.filter.textPlaceholder')}
              className="pc-log-filters__text"
              value={draft.text}
              onChange={(e) => change({ text: e.target.value })}
              onPressEnter={search}
            />
          </Space.Compact>
          <DatePicker.RangePicker
            aria-label={t('system-log.filter.dates')}
            value={draft.range ?? null}
            onChange={(range) => change({ range })}
            placeholder={[t('system-log.filter.start'), t('system-log.filter.end')]}
          />
          <Button type="primary" icon={<SearchOutlined />} onClick={search}>
            {t('common.action.search')}
          </Button>
          <Button icon={<DownloadOutlined />} href={exportUrl(type, query)}>
            {t('common.action.export')}
          </Button>
        </Space>
      </div>
      <Table<LogRow>
        rowKey="id"
        loading={logs.isPending || logs.isFetching}
        dataSource={logs.data?.objects ?? []}
        columns={logColumns(type, t, openAlarm)}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        scroll={{ x: 'max-content' }}
        onRow={
          type === 'alarm'
            ? (row) => ({ onClick: () => openAlarm(row as AlarmLogRow), className: 'pc-clickable' })
            : undefined
        }
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
      />
      {type === 'alarm' ? <AlarmDetailPanel row={alarm} /> : null}
    </Card>
  );
}
