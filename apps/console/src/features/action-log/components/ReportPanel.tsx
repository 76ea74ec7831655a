/**
 * The report panel (spec 1 §2.9): what a report of the current search holds before it is
 * downloaded: the filters it applies, how many sessions match, how many ran in unsafe mode,
 * and the sessions by way; then Download report, the same search as an xlsx file (GET
 * /search_tunnel with export=true, at most ACTION_LOG_EXPORT_MAX rows, newest first). The
 * counts are the server's own totals for the same filters, fetched only while the panel is open.
 */
import type { ReactNode } from 'react';
import { Alert, Button, Descriptions, Empty, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ACTION_LOG_EXPORT_MAX, type SearchTunnelFilters } from '@portcullis/contract';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { exportUrl, useSessionCounts } from '../api';
import { WAYS } from '../filters';

export const REPORT_PANEL = 'panel/action-log/report';

export interface ReportPanelProps {
  query: SearchTunnelFilters;
  /** The applied filters as readable `name: value` labels (the page's search tags). */
  labels: readonly string[];
}

export function ReportPanel({ query, labels }: ReportPanelProps): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  const open = activeKey === REPORT_PANEL;
  return (
    <RightPanel
      panelKey={REPORT_PANEL}
      title={t('action-log.report.title')}
      footer={
        <Button type="primary" icon={<DownloadOutlined />} href={exportUrl(query)}>
          {t('action-log.search.report')}
        </Button>
      }
    >
      {open ? <Report query={query} labels={labels} /> : null}
    </RightPanel>
  );
}

function Report({ query, labels }: ReportPanelProps): ReactNode {
  const { t } = useTranslation();
  // A way already chosen in the search leaves one row; otherwise every way is counted.
  const ways = query.way ? [query.way] : [...WAYS];
  const [all, unsafe, ...byWay] = useSessionCounts(
    [query, { ...query, unsafe_mode: '1' }, ...ways.map((way) => ({ ...query, way }))],
    true,
  );
  if (all?.isError) {
    return <Alert type="error" showIcon message={t('action-log.list.failed')} />;
  }
  const rows = ways.map((way, i) => ({ way, count: byWay[i]?.data })).filter((r) => r.count !== 0);
  const waysPending = byWay.some((q) => q.isPending);
  return (
    <Space direction="vertical" size="middle" className="action-log-report">
      <div>
        <Typography.Text type="secondary">{t('action-log.report.filters')}</Typography.Text>
        <div className="action-log-report__tags">
          {labels.length ? (
            labels.map((label) => <Tag key={label}>{label}</Tag>)
          ) : (
            <Tag>{t('action-log.report.noFilters')}</Tag>
          )}
        </div>
      </div>
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          {
            key: 'total',
            label: t('action-log.report.total'),
            children: all?.isPending ? <Skeleton.Input size="small" active /> : all?.data,
          },
          {
            key: 'unsafe',
            label: t('action-log.report.unsafe'),
            children: unsafe?.isPending ? <Skeleton.Input size="small" active /> : unsafe?.data,
          },
        ]}
      />
      <Table<{ way: string; count: number | undefined }>
        rowKey="way"
        size="small"
        pagination={false}
        loading={waysPending}
        dataSource={waysPending ? [] : rows}
        locale={{ emptyText: <Empty description={t('action-log.list.empty')} /> }}
        columns={[
          { key: 'way', title: t('action-log.report.way'), dataIndex: 'way' },
          {
            key: 'count',
            title: t('action-log.report.sessions'),
            dataIndex: 'count',
            align: 'right',
          },
        ]}
      />
      <Typography.Paragraph type="secondary">
        {t('action-log.report.note', { max: ACTION_LOG_EXPORT_MAX.toLocaleString('en-US') })}
      </Typography.Paragraph>
    </Space>
  );
}
