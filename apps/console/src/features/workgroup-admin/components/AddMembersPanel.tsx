import type { ReactNode } from 'react';
import { App, Button, Form, Radio, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { WorkgroupRole } from '@portcullis/contract';
import { pickRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import {
  useAddWorkgroupMembersMutation,
  useMemberNamesQuery,
  useWorkgroupMemberIdsQuery,
  type MemberRole,
} from '../api';
import { useRoleOptions } from './roles';

export const ADD_MEMBERS_PANEL = 'panel/workgroup-admin/add-members';

interface PickForm {
  members: number[];
  role: MemberRole;
}

/**
 * Add member (Distribute): team members who are not direct members yet, searched by name or
 * account, as ordinary members or administrators. Adding none answers with the spec's text
 * ('Member is found'); a member added meanwhile by someone else gets ProjectAccountExist.
 */
export function AddMembersPanel({ workgroupId }: { workgroupId: number }): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  return (
    <RightPanel panelKey={ADD_MEMBERS_PANEL} title={t('workgroup-admin.members.addTitle')}>
      {activeKey === ADD_MEMBERS_PANEL ? <PickMembers workgroupId={workgroupId} /> : null}
    </RightPanel>
  );
}

function PickMembers({ workgroupId }: { workgroupId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const roleOptions = useRoleOptions();
  const names = useMemberNamesQuery(true);
  const inWorkgroup = useWorkgroupMemberIdsQuery(workgroupId, true);
  const add = useAddWorkgroupMembersMutation(workgroupId);
  const options = (names.data ?? [])
    .filter((m) => !inWorkgroup.data?.has(m.id))
    .map((m) => ({ value: m.id, label: `${m.name} (${m.account})` }));
  return (
    <Form<PickForm>
      layout="vertical"
      initialValues={{ members: [], role: WorkgroupRole.Ordinary }}
      onFinish={(values) =>
        add.mutate(
          { accountIds: values.members, role: values.role },
          {
            onSuccess: () => {
              void message.success(t('messages.addSuccess'));
              panel.close(ADD_MEMBERS_PANEL);
            },
            onError: (error) => void message.error(errorText(error)),
          },
        )
      }
    >
      <Form.Item
        name="members"
        label={t('workgroup-admin.members.pick')}
        rules={pickRules(t('messages.memberNotChosen'))}
      >
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={names.isPending || inWorkgroup.isPending}
          placeholder={t('workgroup-admin.members.pickPlaceholder')}
          options={options}
          notFoundContent={t('messages.noData')}
        />
      </Form.Item>
      <Form.Item name="role" label={t('workgroup-admin.members.roleField')}>
        <Radio.Group options={roleOptions} />
      </Form.Item>
      <Space>
        <Button onClick={() => panel.close(ADD_MEMBERS_PANEL)}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('common.action.add')}
        </Button>
      </Space>
    </Form>
  );
}
