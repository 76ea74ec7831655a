import { useCallback, useState, type ReactNode } from 'react';
import { Alert, App, Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORKGROUP_MAX_RESOURCES, type Workgroup } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import {
  useResourceCandidatesQuery,
  useWorkgroupResourcesMutation,
  type ResourceCandidate,
  type ResourceKind,
  type SearchFilter,
} from '../api';
import { FieldSearch } from './FieldSearch';
import { osLabel } from './os';
import { pager } from './paging';

export function addResourcesPanelKey(kind: ResourceKind): string {
  return `panel/workgroup-admin/add-${kind}`;
}

/**
 * Add instance / Add database to a workgroup (Distribute instances): the team's resources of
 * that kind not yet in the workgroup (its own clusters' and shared ones'), searched by name or
 * address, ten a page; the choice survives paging. A workgroup holds at most
 * WORKGROUP_MAX_RESOURCES: a choice that would pass it is refused here with the catalogue's
 * ResourceExceeded text, as the server would.
 */
export function AddResourcesPanel({
  workgroup,
  kind,
}: {
  workgroup: Workgroup;
  kind: ResourceKind;
}): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  const panelKey = addResourcesPanelKey(kind);
  return (
    <RightPanel
      panelKey={panelKey}
      width={720}
      title={t(
        kind === 'ecs'
          ? 'workgroup-admin.addResources.hostTitle'
          : 'workgroup-admin.addResources.dbTitle',
      )}
    >
      {activeKey === panelKey ? (
        <PickResources workgroup={workgroup} kind={kind} panelKey={panelKey} />
      ) : null}
    </RightPanel>
  );
}

function PickResources({
  workgroup,
  kind,
  panelKey,
}: {
  workgroup: Workgroup;
  kind: ResourceKind;
  panelKey: string;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [filter, setFilter] = useState<SearchFilter>({ page: 1, field: 'q_name' });
  const [chosen, setChosen] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const candidates = useResourceCandidatesQuery(workgroup.id, kind, filter);
  const add = useWorkgroupResourcesMutation(workgroup.id, 'add');
  const total = candidates.data?.num_results ?? 0;
  const setPage = useCallback((page: number) => setFilter((f) => ({ ...f, page })), []);
  const room = Math.max(0, WORKGROUP_MAX_RESOURCES - workgroup.resource_count);

  const onAdd = (): void => {
    if (chosen.length === 0) {
      setProblem(t('workgroup-admin.rules.resourceRequired'));
      return;
    }
    if (chosen.length > room) {
      setProblem(t('errors.ResourceExceeded'));
      return;
    }
    setProblem(null);
    add.mutate(chosen, {
      onSuccess: () => {
        void message.success(t('messages.addSuccess'));
        panel.close(panelKey);
      },
      onError: (error) => void message.error(errorText(error)),
    });
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <FieldSearch
        subject="resource"
        onSearch={(field, text) => setFilter({ page: 1, field, text })}
      />
      <Table<ResourceCandidate>
        rowKey="id"
        size="small"
        loading={candidates.isPending || candidates.isFetching}
        dataSource={candidates.data?.objects ?? []}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        rowSelection={{
          selectedRowKeys: chosen,
          preserveSelectedRowKeys: true,
          onChange: (keys) => {
            setChosen(keys.map(Number));
            setProblem(null);
          },
        }}
        pagination={pager(total, filter.page, setPage)}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('workgroup-admin.resources.col.name') },
          { key: 'ip', dataIndex: 'ip', title: t('workgroup-admin.resources.col.ip') },
          {
            key: 'os',
            title: t(
              kind === 'ecs'
                ? 'workgroup-admin.resources.col.os'
                : 'workgroup-admin.resources.col.type',
            ),
            render: (_: unknown, r: ResourceCandidate) => osLabel(r.os, t),
          },
          {
            key: 'cluster',
            title: t('workgroup-admin.resources.col.cluster'),
            render: (_: unknown, r: ResourceCandidate) => (
              <Space size={4}>
                <span>{r.network_name}</span>
                {r.shared ? (
                  <Tag color="purple">{t('workgroup-admin.addResources.shared')}</Tag>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <Typography.Text type="secondary">
        {t('workgroup-admin.addResources.limit', {
          max: WORKGROUP_MAX_RESOURCES,
          now: workgroup.resource_count,
        })}
      </Typography.Text>
      {problem ? <Alert type="error" showIcon title={problem} /> : null}
      <Space>
        <Button onClick={() => panel.close(panelKey)}>{t('common.action.cancel')}</Button>
        <Button type="primary" loading={add.isPending} onClick={onAdd}>
          {t('workgroup-admin.addResources.submit', { n: chosen.length })}
        </Button>
      </Space>
    </Space>
  );
}
