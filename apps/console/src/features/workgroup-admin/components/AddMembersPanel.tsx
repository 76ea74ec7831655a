import { useState, type ReactNode } from 'react';
import { App, Button, Form, Radio, Select, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { MEMBER_CANDIDATES_MAX, WorkgroupRole } from '@portcullis/contract';
import { useDebounced } from '../../../shared/hooks/useDebounced';
import { pickRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useAddWorkgroupMembersMutation, useMemberCandidatesQuery, type MemberRole } from '../api';
import { useRoleOptions } from './roles';

export const ADD_MEMBERS_PANEL = 'panel/workgroup-admin/add-members';

/** Typing in the picker asks the server once the keys stop for this long. */
const SEARCH_DEBOUNCE_MS = 250;

interface PickForm {
  members: PickedMember[];
  role: MemberRole;
}

/**
 * Add member (Distribute): team members who are not direct members yet, searched on the server
 * by name or account (a workgroup administrator who is an ordinary team member sees names only
 * this way), as ordinary members or administrators. Adding none answers with the spec's text
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

/** A chosen member keeps its label while the search shows others. */
interface PickedMember {
  value: number;
  label: string;
}

function PickMembers({ workgroupId }: { workgroupId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const roleOptions = useRoleOptions();
  const [search, setSearch] = useState('');
  const key = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const candidates = useMemberCandidatesQuery(workgroupId, key);
  const add = useAddWorkgroupMembersMutation(workgroupId);
  const options = (candidates.data ?? []).map((m) => ({
    value: m.id,
    label: `${m.name} (${m.account})`,
  }));
  return (
    <Form<PickForm>
      layout="vertical"
      initialValues={{ members: [], role: WorkgroupRole.Ordinary }}
      onFinish={(values) =>
        add.mutate(
          { accountIds: values.members.map((m) => m.value), role: values.role },
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
        extra={t('workgroup-admin.members.pickHint', { count: MEMBER_CANDIDATES_MAX })}
        rules={pickRules(t('messages.memberNotChosen'))}
      >
        <Select<PickedMember[]>
          mode="multiple"
          labelInValue
          allowClear
          // The server searches (name or account) and leaves out who is in the workgroup already.
          showSearch={{ filterOption: false, onSearch: setSearch }}
          // Choosing one clears the typed text: the list shows everyone again.
          onSelect={() => setSearch('')}
          onBlur={() => setSearch('')}
          loading={candidates.isFetching}
          placeholder={t('workgroup-admin.members.pickPlaceholder')}
          options={options}
          notFoundContent={candidates.isFetching ? <Spin size="small" /> : t('messages.noData')}
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
