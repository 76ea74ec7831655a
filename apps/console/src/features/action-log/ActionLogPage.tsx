/**
 * The action log page (spec 1 §2.9, route /operation/log): keyword search, the search tags of
 * the applied filters, the advanced search panel, the report panel (what a report of this
 * search holds) and Download report (the same filters as an xlsx), and the sessions 25 at a time, the next page loading as the list's end scrolls into
 * view (with a Load more button for when it cannot be observed).
 * `resourceName=id:name` in the route narrows the log to one resource (from a workgroup).
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Empty, Input, Space, Spin, Typography } from 'antd';
import { BarChartOutlined, DownloadOutlined, FilterOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  INFINITE_SCROLL_DISTANCE,
  type ActionLogEntry,
  type SearchTunnelReply,
} from '@portcullis/contract';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { exportUrl, useActionLogQuery } from './api';
import { AdvancedSearch } from './components/AdvancedSearch';
import { LogEntry } from './components/LogEntry';
import { REPORT_PANEL, ReportPanel } from './components/ReportPanel';
import { filterTags, SearchTags, tagLabel } from './components/SearchTags';
import './action-log.css';
import { EMPTY_FILTERS, resourceFromRoute, searchQuery, type ActionLogFilters } from './filters';

export function ActionLogPage(): ReactNode {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const routeResource = params.get('resourceName');
  const [filters, setFilters] = useState<ActionLogFilters>(() => ({
    ...EMPTY_FILTERS,
    resource: resourceFromRoute(routeResource),
  }));
  const [advanced, setAdvanced] = useState(false);
  const panel = usePanel();
  // The presets count back from the moment the filters were applied, not from each render.
  const query = useMemo(() => searchQuery(filters), [filters]);
  const log = useActionLogQuery(query);
  const entries = useMemo(() => uniqueEntries(log.data?.pages ?? []), [log.data]);
  const total = log.data?.pages[0]?.total ?? 0;

  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = log;
  // After a page failed, the next try is the Load more button's: a new observer sees the end
  // at once, and retrying from here asked again and again while the server kept failing.
  const autoLoad = hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !autoLoad || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: `0px 0px ${INFINITE_SCROLL_DISTANCE}px 0px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [autoLoad, fetchNextPage]);
  // The keyword box shows the applied keywords (a closed tag clears it too).
  const [keywordText, setKeywordText] = useState(filters.keywords);
  useEffect(() => setKeywordText(filters.keywords), [filters.keywords]);

  return (
    <>
      <PageHeader title={t('action-log.page.title')} subtitle={t('action-log.page.subtitle')} />
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          aria-label={t('action-log.search.keywords')}
          placeholder={t('action-log.search.placeholder')}
          allowClear
          enterButton
          style={{ width: 320 }}
          value={keywordText}
          onChange={(e) => setKeywordText(e.target.value)}
          onSearch={(keywords) => setFilters((f) => ({ ...f, keywords }))}
        />
        <Button icon={<FilterOutlined />} onClick={() => setAdvanced((a) => !a)}>
          {t('action-log.search.advanced')}
        </Button>
        <Button icon={<BarChartOutlined />} onClick={() => panel.open(REPORT_PANEL)}>
          {t('action-log.report.open')}
        </Button>
        <Button icon={<DownloadOutlined />} href={exportUrl(query)}>
          {t('action-log.search.report')}
        </Button>
      </Space>
      {advanced && (
        <AdvancedSearch
          value={filters}
          onSearch={(next) => setFilters((f) => ({ ...next, keywords: f.keywords }))}
          onReset={() => setFilters((f) => ({ ...EMPTY_FILTERS, keywords: f.keywords }))}
        />
      )}
      <SearchTags filters={filters} onChange={setFilters} />
      {/* The count once known: "0 entries" while loading, or after a failure, was wrong. */}
      {log.isSuccess && (
        <Typography.Paragraph type="secondary">
          {t('action-log.list.total', { count: total })}
        </Typography.Paragraph>
      )}
      {log.isError && <Alert type="error" showIcon title={t('action-log.list.failed')} />}
      {log.isPending && <Spin />}
      {log.isSuccess && !entries.length && <Empty description={t('action-log.list.empty')} />}
      <div role="list" aria-label={t('action-log.page.title')}>
        {entries.map((entry) => (
          <LogEntry key={entry.connection_id} entry={entry} />
        ))}
      </div>
      <div ref={sentinel} />
      <ReportPanel query={query} labels={filterTags(filters, t).map((tag) => tagLabel(tag, t))} />
      {hasNextPage && (
        <Button block loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {t('action-log.list.more')}
        </Button>
      )}
    </>
  );
}

/**
 * The pages' entries, each once. Pages are by offset, newest first: a session that starts
 * while the list is read pushes the rows down, and the next page begins with the last rows of
 * the one before (they would show twice, under the same key).
 */
function uniqueEntries(pages: readonly SearchTunnelReply[]): ActionLogEntry[] {
  const seen = new Set<number>();
  const entries: ActionLogEntry[] = [];
  for (const entry of pages.flatMap((p) => p.data)) {
    if (seen.has(entry.connection_id)) continue;
    seen.add(entry.connection_id);
    entries.push(entry);
  }
  return entries;
}
