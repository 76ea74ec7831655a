/**
 * A workgroup's servers (ecs) or databases (rds) as a member sees them (spec 1 §2.7): the search
 * by name or IP, Export Ansible (servers), and rows with the type icon, the cluster's
 * availability dot, the member's masked code and the online-session and connection-log counts.
 * The actions and their enabling rules are in ResourceActions.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Badge, Button, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { CodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  PAGE_SIZE_DEFAULT,
  PAGER_THRESHOLD,
  workgroupRoutes,
  type ProjectResource,
  type Workgroup,
} from '@portcullis/contract';
import { apiUrl } from '../../../shared/api/client';
import { usePanel } from '../../../shared/panel/panel-context';
import { useProjectResourcesQuery, type ResourceFilter, type SearchField } from '../api';
import type { ResourceTab } from '../paths';
import { ConfigPanel } from './ConfigPanel';
import { CONNECT_LOGS_PANEL, ConnectLogsPanel } from './ConnectLogsPanel';
import { ConnectPanel } from './ConnectPanel';
import { ManageCodePanel } from './ManageCodePanel';
import { ONLINE_PANEL, OnlineConnectionsPanel } from './OnlineConnectionsPanel';
import { ResourceActions, ResourceIcon } from './ResourceActions';
import { WorkgroupSearch } from './WorkgroupSearch';

export interface ResourceTableProps {
  workgroup: Workgroup;
  tab: ResourceTab;
  search: { q_name: string; q_ip: string };
  onSearch: (search: { q_name?: string; q_ip?: string }) => void;
}

export function ResourceTable({ workgroup, tab, search, onSearch }: ResourceTableProps): ReactNode {
  const { t } = useTranslation();
  const panel = usePanel();
  const servers = tab === 'ecs';
  const [filter, setFilter] = useState<ResourceFilter>({ page: 1, ...search });
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const resources = useProjectResourcesQuery(workgroup.id, tab, filter);
  const total = resources.data?.num_results ?? 0;
  const rows = resources.data?.objects ?? [];
  const selected = rows.find((r) => r.id === selectedId) ?? null;
  // The panel keeps the row it was opened for, even once a refresh or a page change drops it.
  const [lastSelected, setLastSelected] = useState<ProjectResource | null>(null);
  const current = selected ?? lastSelected;

  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (resources.data && filter.page > lastPage) setFilter((f) => ({ ...f, page: lastPage }));
  }, [resources.data, filter.page, lastPage]);

  const openPanel = (r: ProjectResource, key: string): void => {
    setSelectedId(r.id);
    setLastSelected(r);
    panel.open(key);
  };

  const field: SearchField = search.q_ip && !search.q_name ? 'q_ip' : 'q_name';

  return (
    <div>
      <div className="pc-toolbar">
        <WorkgroupSearch
          field={field}
          text={search[field]}
          label={t(
            servers ? 'workgroup.resources.searchServers' : 'workgroup.resources.searchDatabases',
          )}
          onSearch={(f, text) => onSearch({ [f]: text })}
        />
        {servers ? (
          <Button
            icon={<CodeOutlined />}
            href={apiUrl(
              workgroupRoutes.workgroupHosts,
              { id: workgroup.id },
              { type: 'ansible', export: 'true' },
            )}
            download
          >
            {t('workgroup.resources.exportAnsible')}
          </Button>
        ) : null}
      </div>
      <Table<ProjectResource>
        rowKey="id"
        loading={resources.isPending}
        dataSource={rows}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        scroll={{ x: 'max-content' }}
        pagination={
          total > PAGER_THRESHOLD
            ? {
                current: filter.page,
                pageSize: PAGE_SIZE_DEFAULT,
                total,
                showSizeChanger: false,
                onChange: (page) => setFilter((f) => ({ ...f, page })),
              }
            : false
        }
        columns={[
          {
            key: 'name',
            title: t('workgroup.resources.col.name'),
            render: (_: unknown, r: ProjectResource) => (
              <Space size={8}>
                <ResourceIcon os={r.os} />
                <span>{r.name}</span>
              </Space>
            ),
          },
          {
            key: 'ip',
            title: t('workgroup.resources.col.ip'),
            render: (_: unknown, r: ProjectResource) => `${r.ip}:${r.port}`,
          },
          servers
            ? {
                key: 'users',
                title: t('workgroup.resources.col.users'),
                render: (_: unknown, r: ProjectResource) =>
                  r.login_user.length === 0 ? (
                    '-'
                  ) : (
                    <Space size={4} wrap>
                      {r.login_user.map((u) =>
                        u === r.default_username ? (
                          <Tooltip key={u} title={t('workgroup.resources.defaultUser')}>
                            <Tag color="blue">{u}</Tag>
                          </Tooltip>
                        ) : (
                          <Tag key={u}>{u}</Tag>
                        ),
                      )}
                    </Space>
                  ),
              }
            : {
                key: 'type',
                title: t('workgroup.resources.col.type'),
                render: (_: unknown, r: ProjectResource) => t(`workgroup.os.${r.os}`),
              },
          ...(servers
            ? []
            : [
                {
                  key: 'databases',
                  title: t('workgroup.resources.col.databases'),
                  render: (_: unknown, r: ProjectResource) => r.db_name.join('; ') || '-',
                },
              ]),
          {
            key: 'cluster',
            title: t('workgroup.resources.col.cluster'),
            render: (_: unknown, r: ProjectResource) => (
              <Tooltip
                title={t(
                  r.agent_status === 1
                    ? 'workgroup.resources.available'
                    : 'workgroup.resources.unavailable',
                )}
              >
                <Badge
                  status={r.agent_status === 1 ? 'success' : 'error'}
                  text={r.network_name}
                  aria-label={t(
                    r.agent_status === 1
                      ? 'workgroup.resources.availableLabel'
                      : 'workgroup.resources.unavailableLabel',
                    { name: r.network_name },
                  )}
                />
              </Tooltip>
            ),
          },
          {
            key: 'code',
            title: t('workgroup.resources.col.code'),
            render: (_: unknown, r: ProjectResource) =>
              r.code ? <Typography.Text code>{r.code}</Typography.Text> : '-',
          },
          {
            key: 'online',
            title: t('workgroup.resources.col.online'),
            align: 'right',
            // The count opens the resource's online connections panel (spec 1 §2.7).
            render: (_: unknown, r: ProjectResource) => (
              <Button
                type="link"
                size="small"
                aria-label={t('workgroup.resources.onlineOpen', {
                  name: r.name,
                  count: r.online_connections,
                })}
                onClick={() => openPanel(r, ONLINE_PANEL)}
              >
                {r.online_connections}
              </Button>
            ),
          },
          {
            key: 'logs',
            title: t('workgroup.resources.col.logs'),
            align: 'right',
            // The count opens the resource's Connect Logs panel (spec 1 §2.7).
            render: (_: unknown, r: ProjectResource) => (
              <Button
                type="link"
                size="small"
                aria-label={t('workgroup.resources.logsOpen', { name: r.name, count: r.logs })}
                onClick={() => openPanel(r, CONNECT_LOGS_PANEL)}
              >
                {r.logs}
              </Button>
            ),
          },
          {
            key: 'actions',
            title: t('workgroup.resources.col.actions'),
            render: (_: unknown, r: ProjectResource) => (
              <ResourceActions resource={r} servers={servers} onOpen={openPanel} />
            ),
          },
        ]}
      />
      <ConnectPanel resource={current} />
      {servers ? <ConfigPanel resource={current} projectId={workgroup.id} /> : null}
      <ManageCodePanel resource={current} workgroup={workgroup} />
      <OnlineConnectionsPanel resource={current} workgroup={workgroup} />
      <ConnectLogsPanel resource={current} />
    </div>
  );
}
