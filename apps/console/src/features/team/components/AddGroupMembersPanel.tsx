import type { ReactNode } from 'react';
import { App, Button, Form, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { pickRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useGroupMemberIdsQuery, useGroupMembersMutation, useMemberNamesQuery } from '../api';

export const ADD_GROUP_MEMBERS_PANEL = 'panel/team/group-add-member';

interface PickForm {
  members: number[];
}

/**
 * Group add member: any number of the team's members who are not in the group yet, searched
 * by name or account. Adding none answers with the spec's text ('Member is found').
 */
export function AddGroupMembersPanel({ groupId }: { groupId: number }): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  const open = activeKey === ADD_GROUP_MEMBERS_PANEL;
  return (
    <RightPanel panelKey={ADD_GROUP_MEMBERS_PANEL} title={t('team.groupDetail.addTitle')}>
      {open ? <PickMembers groupId={groupId} /> : null}
    </RightPanel>
  );
}

function PickMembers({ groupId }: { groupId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const names = useMemberNamesQuery();
  const inGroup = useGroupMemberIdsQuery(groupId, true);
  const add = useGroupMembersMutation(groupId, 'add');
  const options = (names.data ?? [])
    .filter((m) => !inGroup.data?.has(m.id))
    .map((m) => ({ value: m.id, label: `${m.name} (${m.account})` }));
  return (
    <Form<PickForm>
      layout="vertical"
      onFinish={(values) =>
        add.mutate(values.members, {
          onSuccess: () => {
            void message.success(t('messages.addSuccess'));
            panel.close(ADD_GROUP_MEMBERS_PANEL);
          },
          onError: (error) => void message.error(errorText(error)),
        })
      }
    >
      <Form.Item
        name="members"
        label={t('team.groupDetail.pick')}
        rules={pickRules(t('team.groupDetail.pickRequired'))}
      >
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={names.isPending || inGroup.isPending}
          placeholder={t('team.groupDetail.pickPlaceholder')}
          options={options}
          notFoundContent={t('messages.noData')}
        />
      </Form.Item>
      <Space>
        <Button onClick={() => panel.close(ADD_GROUP_MEMBERS_PANEL)}>
          {t('common.action.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('common.action.add')}
        </Button>
      </Space>
    </Form>
  );
}
