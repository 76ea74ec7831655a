/**
 * The members' workgroup list (spec 1 §2.6): the workgroups the member reaches (all of the
 * team's for an administrator), searched by name or by a resource's IP, All Work Group or only
 * the starred ones (Star Work Group is off until something is starred). Each card shows the
 * name (a globe marks a cluster's default workgroup), description and resource count, with the
 * star toggle and the export of its resources as xlsx. Nine a page; the pager only above nine.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  App,
  Button,
  Card,
  Col,
  Empty,
  Pagination,
  Row,
  Segmented,
  Space,
  Spin,
  Tooltip,
  Typography,
} from 'antd';
import { ExportOutlined, GlobalOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { workgroupRoutes, type Workgroup } from '@portcullis/contract';
import { apiUrl } from '../../shared/api/client';
import './workgroup.css';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import {
  useFavouriteMutation,
  useStarredCountQuery,
  useWorkgroupsQuery,
  WORKGROUP_PAGE_SIZE,
  type SearchField,
  type WorkgroupFilter,
} from './api';
import { WorkgroupSearch } from './components/WorkgroupSearch';
import { workgroupDetailPath } from './paths';

type Mode = 'all' | 'star';

export function WorkgroupListPage(): ReactNode {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<WorkgroupFilter>({
    page: 1,
    field: 'q_name',
    starred: false,
  });
  const workgroups = useWorkgroupsQuery(filter);
  const starredCount = useStarredCountQuery();
  const noStars = (starredCount.data ?? 0) === 0;
  const total = workgroups.data?.num_results ?? 0;
  const rows = workgroups.data?.objects ?? [];

  // The last star removed in Star mode: back to All (the toggle is off now).
  useEffect(() => {
    if (filter.starred && starredCount.data === 0) {
      setFilter((f) => ({ ...f, page: 1, starred: false }));
    }
  }, [filter.starred, starredCount.data]);

  const lastPage = Math.max(1, Math.ceil(total / WORKGROUP_PAGE_SIZE));
  useEffect(() => {
    if (workgroups.data && filter.page > lastPage) setFilter((f) => ({ ...f, page: lastPage }));
  }, [workgroups.data, filter.page, lastPage]);

  const onSearch = (field: SearchField, text: string): void =>
    setFilter((f) => ({ ...f, page: 1, field, text }));

  return (
    <>
      <PageHeader title={t('workgroup.page.title')} subtitle={t('workgroup.page.subtitle')} />
      <Card>
        <div className="pc-toolbar">
          <Segmented<Mode>
            aria-label={t('workgroup.list.mode')}
            value={filter.starred ? 'star' : 'all'}
            onChange={(mode) => setFilter((f) => ({ ...f, page: 1, starred: mode === 'star' }))}
            options={[
              { value: 'all', label: t('workgroup.list.all') },
              {
                value: 'star',
                label: (
                  <Tooltip title={noStars ? t('workgroup.list.noStars') : undefined}>
                    <span>{t('workgroup.list.star')}</span>
                  </Tooltip>
                ),
                disabled: noStars,
              },
            ]}
          />
          <WorkgroupSearch
            field={filter.field}
            text={filter.text ?? ''}
            label={t('workgroup.list.search')}
            onSearch={onSearch}
          />
        </div>
        {workgroups.isPending ? (
          <div className="pc-page-loading">
            <Spin aria-label={t('common.state.loading')} />
          </div>
        ) : rows.length === 0 ? (
          <Empty
            description={
              filter.text?.trim() || filter.starred
                ? t('messages.noData')
                : t('workgroup.list.noWorkgroups')
            }
          />
        ) : (
          <Spin spinning={workgroups.isFetching}>
            <Row gutter={[16, 16]} role="list" aria-label={t('workgroup.list.label')}>
              {rows.map((w) => (
                <Col key={w.id} xs={24} md={12} xl={8} role="listitem">
                  <WorkgroupCard workgroup={w} />
                </Col>
              ))}
            </Row>
          </Spin>
        )}
        {total > WORKGROUP_PAGE_SIZE ? (
          <Pagination
            className="pc-workgroup-pager"
            current={filter.page}
            pageSize={WORKGROUP_PAGE_SIZE}
            total={total}
            showSizeChanger={false}
            onChange={(page) => setFilter((f) => ({ ...f, page }))}
          />
        ) : null}
      </Card>
    </>
  );
}

function WorkgroupCard({ workgroup: w }: { workgroup: Workgroup }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const favourite = useFavouriteMutation();
  const starred = w.favourite === 1;
  const onStar = (): void =>
    favourite.mutate(
      { id: w.id, favourite: starred ? 0 : 1 },
      { onError: (error) => void message.error(errorText(error)) },
    );

  return (
    <Card
      size="small"
      className="pc-workgroup-card"
      title={
        <Space size={6}>
          {w.is_default ? (
            <Tooltip title={t('workgroup.list.defaultTip')}>
              <GlobalOutlined aria-label={t('workgroup.list.default')} />
            </Tooltip>
          ) : null}
          <Link to={workgroupDetailPath(w.id)}>{w.name}</Link>
        </Space>
      }
      extra={
        <Tooltip title={t(starred ? 'workgroup.list.unstar' : 'workgroup.list.starIt')}>
          <Button
            type="text"
            aria-pressed={starred}
            aria-label={t('workgroup.list.starLabel', { name: w.name })}
            loading={favourite.isPending}
            icon={starred ? <StarFilled className="pc-workgroup-star is-on" /> : <StarOutlined />}
            onClick={onStar}
          />
        </Tooltip>
      }
    >
      <Typography.Paragraph
        type={w.desc ? undefined : 'secondary'}
        ellipsis={{ rows: 2, tooltip: w.desc || undefined }}
        className="pc-workgroup-card__desc"
      >
        {w.desc || t('workgroup.list.noDesc')}
      </Typography.Paragraph>
      <div className="pc-workgroup-card__footer">
        <Typography.Text type="secondary">
          {t('workgroup.list.resources', { count: w.resource_count })}
        </Typography.Text>
        <Button
          type="link"
          size="small"
          icon={<ExportOutlined />}
          href={apiUrl(workgroupRoutes.exportWorkgroupResources, { id: w.id })}
          download
          aria-label={t('workgroup.list.exportLabel', { name: w.name })}
        >
          {t('workgroup.list.export')}
        </Button>
      </div>
    </Card>
  );
}
