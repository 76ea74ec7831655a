import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { GROUP_NAME_MAX, GROUP_NOTE_MAX, type Group } from '@portcullis/contract';
import { groupNameRules, groupNoteRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useSaveGroupMutation, type GroupInput } from '../api';

export const ADD_GROUP_PANEL = 'panel/team/add-group';
export const GROUP_SETTING_PANEL = 'panel/team/group-setting';

export interface GroupPanelProps {
  /** The group to edit ('Group setting'); without one the panel adds a group. */
  group?: Group | null;
}

/** Add group (name 2-20, note up to 140) and Group setting (name up to 20, note). */
export function GroupPanel({ group }: GroupPanelProps): ReactNode {
  const { t } = useTranslation();
  const editing = group !== undefined;
  const panelKey = editing ? GROUP_SETTING_PANEL : ADD_GROUP_PANEL;
  return (
    <RightPanel
      panelKey={panelKey}
      title={t(editing ? 'team.groupPanel.editTitle' : 'team.groupPanel.addTitle')}
    >
      {editing && !group ? null : <GroupForm group={group ?? undefined} panelKey={panelKey} />}
    </RightPanel>
  );
}

function GroupForm({ group, panelKey }: { group: Group | undefined; panelKey: string }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useSaveGroupMutation();
  return (
    <Form<GroupInput>
      layout="vertical"
      initialValues={group ? { name: group.name, note: group.note } : { name: '', note: '' }}
      onFinish={(values) =>
        mutation.mutate(
          { ...values, id: group?.id },
          {
            onSuccess: () => {
              void message.success(t(group ? 'messages.updateSuccess' : 'messages.addSuccess'));
              panel.close(panelKey);
            },
            onError: (error) => void message.error(errorText(error)),
          },
        )
      }
    >
      <Form.Item
        name="name"
        label={t('team.groupPanel.name')}
        rules={groupNameRules(group ? 'edit' : 'create', t)}
      >
        <Input count={{ show: true, max: GROUP_NAME_MAX }} autoFocus />
      </Form.Item>
      <Form.Item name="note" label={t('team.groupPanel.note')} rules={groupNoteRules(t)}>
        <Input.TextArea rows={4} count={{ show: true, max: GROUP_NOTE_MAX }} />
      </Form.Item>
      <Space>
        <Button onClick={() => panel.close(panelKey)}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t(group ? 'common.action.save' : 'common.action.add')}
        </Button>
      </Space>
    </Form>
  );
}
