import type { ReactNode } from 'react';
import { App, Button, Form, Radio, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { WorkgroupRole } from '@portcullis/contract';
import { pickRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import {
  useAccountDirectWorkgroupIdsQuery,
  useAllWorkgroupsQuery,
  useBulkJoinMutation,
  type MemberRole,
} from '../api';
import { useRoleOptions } from './roles';

export const JOIN_WORKGROUPS_PANEL = 'panel/workgroup-admin/join';

interface JoinForm {
  workgroups: number[];
  role: MemberRole;
}

/**
 * Account add workgroup (Join WorkGroup): the workgroups the member is not a direct member of,
 * at least one, joined as an ordinary member or as administrator.
 */
export function JoinWorkgroupsPanel({ accountId }: { accountId: number }): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  return (
    <RightPanel panelKey={JOIN_WORKGROUPS_PANEL} title={t('workgroup-admin.account.joinTitle')}>
      {activeKey === JOIN_WORKGROUPS_PANEL ? <JoinForm accountId={accountId} /> : null}
    </RightPanel>
  );
}

function JoinForm({ accountId }: { accountId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const roleOptions = useRoleOptions();
  const all = useAllWorkgroupsQuery(true);
  const joined = useAccountDirectWorkgroupIdsQuery(accountId, true);
  const join = useBulkJoinMutation(accountId);
  const options = (all.data ?? [])
    .filter((w) => !joined.data?.has(w.id))
    .map((w) => ({ value: w.id, label: w.name }));
  return (
    <Form<JoinForm>
      layout="vertical"
      initialValues={{ workgroups: [], role: WorkgroupRole.Ordinary }}
      onFinish={(values) =>
        join.mutate(
          { projectIds: values.workgroups, role: values.role },
          {
            onSuccess: () => {
              void message.success(t('messages.addSuccess'));
              panel.close(JOIN_WORKGROUPS_PANEL);
            },
            onError: (error) => void message.error(errorText(error)),
          },
        )
      }
    >
      <Form.Item
        name="workgroups"
        label={t('workgroup-admin.account.pick')}
        rules={pickRules(t('workgroup-admin.rules.workgroupRequired'))}
      >
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={all.isPending || joined.isPending}
          placeholder={t('workgroup-admin.account.pickPlaceholder')}
          options={options}
          notFoundContent={t('messages.noData')}
        />
      </Form.Item>
      <Form.Item name="role" label={t('workgroup-admin.members.roleField')}>
        <Radio.Group options={roleOptions} />
      </Form.Item>
      <Space>
        <Button onClick={() => panel.close(JOIN_WORKGROUPS_PANEL)}>
          {t('common.action.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={join.isPending}>
          {t('workgroup-admin.account.join')}
        </Button>
      </Space>
    </Form>
  );
}
