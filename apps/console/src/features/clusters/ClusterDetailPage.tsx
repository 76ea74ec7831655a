/**
 * A cluster's detail (spec 2 §2 Cluster detail, route clusterDetail): the name with its
 * available/unavailable badge; Set Cluster, Delete Cluster, or Return The Cluster for a shared
 * one; tabs servers (ecs), database (rds) and setting chosen by the `type` query. A shared
 * cluster shows only its log filters and none of the editing controls.
 */
import type { ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams, Link } from 'react-router-dom';
import { Alert, App, Button, Popconfirm, Result, Space, Spin, Tabs, Tag } from 'antd';
import {
  ArrowLeftOutlined,
  DeleteOutlined,
  RollbackOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { useCurrentAccountQuery } from '../../shared/session/session';
import { useClusterQuery, useDeleteClusterMutation } from './api';
import { ClusterStatus } from './components/ClusterStatus';
import { ResourcesTab } from './components/ResourcesTab';
import { SetClusterPanel, SET_CLUSTER_PANEL } from './components/SetClusterPanel';
import { SettingTab } from './components/SettingTab';
import { CLUSTER_PATHS, type ClusterTab } from './paths';
import { useUpdateTipSnooze } from './update-tip';

const TABS: readonly ClusterTab[] = ['ecs', 'rds', 'settings'];

/** The tab of a `type` query value; anything unknown is the servers tab. */
export function clusterTab(value: string | null): ClusterTab {
  return (TABS as readonly string[]).includes(value ?? '') ? (value as ClusterTab) : 'ecs';
}

export function ClusterDetailPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const navigate = useNavigate();
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const [params, setParams] = useSearchParams();
  const cluster = useClusterQuery(Number.isInteger(id) ? id : 0);
  const remove = useDeleteClusterMutation();
  const me = useCurrentAccountQuery();
  const [tipSnoozed, snoozeTip] = useUpdateTipSnooze(me.data?.id, id);

  if (cluster.isError) {
    return <Result status="warning" title={errorText(cluster.error)} />;
  }
  if (!cluster.data) return <Spin />;
  const c = cluster.data;
  const shared = c.parent_id !== null;
  const tab = shared ? 'settings' : clusterTab(params.get('type'));

  const onDelete = (): void =>
    remove.mutate(c.id, {
      onSuccess: () => {
        void message.success(t(shared ? 'clusters.list.returnSuccess' : 'messages.deleteSuccess'));
        void navigate(CLUSTER_PATHS.list);
      },
      onError: (error) => void message.error(errorText(error)),
    });

  const extra = shared ? (
    <Popconfirm
      title={t('clusters.list.returnTitle')}
      description={t('clusters.list.returnBody', { name: c.name })}
      okText={t('clusters.list.return')}
      cancelText={t('common.action.cancel')}
      onConfirm={onDelete}
    >
      <Button icon={<RollbackOutlined />}>{t('clusters.detail.return')}</Button>
    </Popconfirm>
  ) : (
    <Space>
      <Button icon={<SettingOutlined />} onClick={() => panel.open(SET_CLUSTER_PANEL)}>
        {t('clusters.detail.set')}
      </Button>
      <Popconfirm
        title={t('clusters.list.deleteTitle')}
        description={t('clusters.list.deleteBody', { name: c.name })}
        okText={t('common.action.delete')}
        cancelText={t('common.action.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={onDelete}
      >
        <Button danger icon={<DeleteOutlined />}>
          {t('clusters.detail.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );

  return (
    <>
      <Link to={CLUSTER_PATHS.list}>
        <ArrowLeftOutlined /> {t('clusters.detail.back')}
      </Link>
      <PageHeader
        title={
          <Space size={12}>
            <span>{c.name}</span>
            <ClusterStatus agentStatus={c.agent_status} />
            {shared ? (
              <Tag color="purple">
                {t('clusters.list.sharedFrom', { team: c.parent_company?.full_name ?? '' })}
              </Tag>
            ) : null}
          </Space>
        }
        extra={extra}
      />
      {c.need_update && !shared && !tipSnoozed ? (
        <Alert
          type="warning"
          showIcon
          closable
          onClose={snoozeTip}
          message={t('clusters.agent.lower')}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => setParams({ type: key })}
        items={(shared ? (['settings'] as const) : TABS).map((key) => ({
          key,
          label: t(shared ? 'clusters.tab.logFilters' : `clusters.tab.${key}`),
          children:
            key === 'settings' ? (
              <SettingTab cluster={c} />
            ) : (
              <ResourcesTab cluster={c} kind={key} />
            ),
        }))}
      />
      {shared ? null : <SetClusterPanel cluster={c} />}
    </>
  );
}
