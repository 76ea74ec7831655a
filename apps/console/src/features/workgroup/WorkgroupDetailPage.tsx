/**
 * A workgroup as a member uses it (spec 1 §2.7, route workgroupdetail): tabs servers (ecs) and
 * databases (rds) from the `type` query, a search by name or IP (q_name, q_ip, kept in the URL),
 * and the resource table with its panels; for whoever manages the workgroup (its own
 * administrators, spec 2 §6) also a members tab (type member). A workgroup the member does not
 * reach answers like one that does not exist.
 */
import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Result, Space, Spin, Tabs, Tooltip } from 'antd';
import { ArrowLeftOutlined, GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './workgroup.css';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { MembersTab } from '../workgroup-admin/components/MembersTab';
import { useWorkgroupQuery } from './api';
import { ResourceTable } from './components/ResourceTable';
import { WORKGROUP_PATHS, type DetailTab } from './paths';

const RESOURCE_TABS = ['ecs', 'rds'] as const;

/**
 * The tab of a `type` query value; anything unknown, or the members tab for someone who does not
 * manage the workgroup, is the servers tab.
 */
export function detailTab(value: string | null, canManage: boolean): DetailTab {
  if (value === 'member' && canManage) return 'member';
  return value === 'rds' ? 'rds' : 'ecs';
}

export function WorkgroupDetailPage(): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const validId = Number.isInteger(id) && id > 0 ? id : 0;
  const [params, setParams] = useSearchParams();
  const workgroup = useWorkgroupQuery(validId);
  const search = { q_name: params.get('q_name') ?? '', q_ip: params.get('q_ip') ?? '' };

  const back = (
    <Link to={WORKGROUP_PATHS.list} className="pc-back-link">
      <ArrowLeftOutlined /> {t('workgroup.detail.back')}
    </Link>
  );
  if (!validId || workgroup.isError) {
    return (
      <>
        {back}
        <Result
          status="warning"
          title={workgroup.isError ? errorText(workgroup.error) : t('errors.ProjectNotFound')}
        />
      </>
    );
  }
  if (!workgroup.data) {
    return (
      <div className="pc-page-loading">
        <Spin aria-label={t('common.state.loading')} />
      </div>
    );
  }
  const w = workgroup.data;
  const tab = detailTab(params.get('type'), w.can_manage);
  const tabs: DetailTab[] = w.can_manage ? [...RESOURCE_TABS, 'member'] : [...RESOURCE_TABS];

  const onSearch = (next: { q_name?: string; q_ip?: string }): void => {
    const query = new URLSearchParams({ type: tab });
    if (next.q_name?.trim()) query.set('q_name', next.q_name.trim());
    if (next.q_ip?.trim()) query.set('q_ip', next.q_ip.trim());
    setParams(query);
  };

  return (
    <>
      {back}
      <PageHeader
        title={
          <Space size={10}>
            {w.is_default ? (
              <Tooltip title={t('workgroup.list.defaultTip')}>
                <GlobalOutlined aria-label={t('workgroup.list.default')} />
              </Tooltip>
            ) : null}
            <span>{w.name}</span>
          </Space>
        }
        subtitle={w.desc || undefined}
      />
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => setParams({ type: key })}
        items={tabs.map((key) => ({
          key,
          label: t(`workgroup.tab.${key}`),
          children:
            key === 'member' ? (
              <MembersTab workgroup={w} />
            ) : (
              <ResourceTable
                workgroup={w}
                tab={key}
                search={search}
                onSearch={onSearch}
                key={`${key}:${search.q_name}:${search.q_ip}`}
              />
            ),
        }))}
      />
    </>
  );
}
