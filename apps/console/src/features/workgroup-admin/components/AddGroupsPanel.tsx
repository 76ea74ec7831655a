import type { ReactNode } from 'react';
import { App, Button, Form, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { pickRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useTeamGroupsQuery, useWorkgroupGroupIdsQuery, useWorkgroupGroupsMutation } from '../api';

export const ADD_GROUPS_PANEL = 'panel/workgroup-admin/add-groups';

interface PickForm {
  groups: number[];
}

/**
 * Add group (spec 2 §2: autocomplete on the group name): typing narrows the team's groups that
 * do not hold the workgroup yet. Adding none answers 'Group is not found'; a group added
 * meanwhile by someone else gets ProjectGroupExist.
 */
export function AddGroupsPanel({ workgroupId }: { workgroupId: number }): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  return (
    <RightPanel panelKey={ADD_GROUPS_PANEL} title={t('workgroup-admin.groups.addTitle')}>
      {activeKey === ADD_GROUPS_PANEL ? <PickGroups workgroupId={workgroupId} /> : null}
    </RightPanel>
  );
}

function PickGroups({ workgroupId }: { workgroupId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const groups = useTeamGroupsQuery(true);
  const inWorkgroup = useWorkgroupGroupIdsQuery(workgroupId, true);
  const add = useWorkgroupGroupsMutation(workgroupId, 'add');
  const options = (groups.data ?? [])
    .filter((g) => !inWorkgroup.data?.has(g.id))
    .map((g) => ({ value: g.id, label: g.name }));
  return (
    <Form<PickForm>
      layout="vertical"
      initialValues={{ groups: [] }}
      onFinish={(values) =>
        add.mutate(values.groups, {
          onSuccess: () => {
            void message.success(t('messages.addSuccess'));
            panel.close(ADD_GROUPS_PANEL);
          },
          onError: (error) => void message.error(errorText(error)),
        })
      }
    >
      <Form.Item
        name="groups"
        label={t('workgroup-admin.groups.pick')}
        rules={pickRules(t('messages.groupNotChosen'))}
      >
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={groups.isPending || inWorkgroup.isPending}
          placeholder={t('workgroup-admin.groups.pickPlaceholder')}
          options={options}
          notFoundContent={t('messages.noData')}
        />
      </Form.Item>
      <Space>
        <Button onClick={() => panel.close(ADD_GROUPS_PANEL)}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('common.action.add')}
        </Button>
      </Space>
    </Form>
  );
}
