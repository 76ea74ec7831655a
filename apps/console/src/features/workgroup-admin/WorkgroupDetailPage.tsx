/**
 * A workgroup's detail (spec 2 §2, route settingWorkgroupDetail): the name as the title, a
 * globe for a cluster's default workgroup, Setting, and the tabs servers (ecs, the default),
 * databases, members and groups chosen by the `type` query. Switching tab pushes the route, so
 * Back returns to the previous tab. A workgroup the caller may not see answers like one that
 * does not exist, and the page says so.
 */
import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Button, Result, Space, Spin, Tabs } from 'antd';
import { ArrowLeftOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { useWorkgroupQuery } from './api';
import { DefaultMark } from './components/DefaultMark';
import { GroupsTab } from './components/GroupsTab';
import { MembersTab } from './components/MembersTab';
import { ResourcesTab } from './components/ResourcesTab';
import { WorkgroupPanel, WORKGROUP_SETTING_PANEL } from './components/WorkgroupPanel';
import { WORKGROUP_ADMIN_PATHS, WORKGROUP_TABS, workgroupTab } from './paths';

export function WorkgroupDetailPage(): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const panel = usePanel();
  const { id: idParam } = useParams();
  const id = Number.parseInt(idParam ?? '', 10) || 0;
  const [params, setParams] = useSearchParams();
  const workgroup = useWorkgroupQuery(id);
  const tab = workgroupTab(params.get('type'));

  const back = (
    <Link to={WORKGROUP_ADMIN_PATHS.list} className="pc-back-link">
      <ArrowLeftOutlined /> {t('workgroup-admin.detail.back')}
    </Link>
  );
  if (workgroup.isError) {
    return (
      <>
        {back}
        <Result status="warning" title={errorText(workgroup.error)} />
      </>
    );
  }
  if (!workgroup.data) return <Spin />;
  const w = workgroup.data;

  return (
    <>
      {back}
      <PageHeader
        title={
          <Space size={10}>
            <span>{w.name}</span>
            {w.is_default ? <DefaultMark /> : null}
          </Space>
        }
        subtitle={w.desc || undefined}
        extra={
          <Button icon={<SettingOutlined />} onClick={() => panel.open(WORKGROUP_SETTING_PANEL)}>
            {t('workgroup-admin.detail.setting')}
          </Button>
        }
      />
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => setParams({ type: key })}
        items={WORKGROUP_TABS.map((key) => ({
          key,
          label: t(`workgroup-admin.tab.${key}`),
          children:
            key === 'member' ? (
              <MembersTab workgroup={w} />
            ) : key === 'group' ? (
              <GroupsTab workgroup={w} />
            ) : (
              <ResourcesTab workgroup={w} kind={key === 'ecs' ? 'ecs' : 'rds'} />
            ),
        }))}
      />
      <WorkgroupPanel workgroup={w} />
    </>
  );
}
