import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORKGROUP_DESC_MAX, WORKGROUP_NAME_MAX, type Workgroup } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useSaveWorkgroupMutation, type WorkgroupInput } from '../api';
import { workgroupDescRules, workgroupNameRules } from '../rules';

export const ADD_WORKGROUP_PANEL = 'panel/workgroup-admin/add';
export const WORKGROUP_SETTING_PANEL = 'panel/workgroup-admin/setting';

export interface WorkgroupPanelProps {
  /** The workgroup to edit (Workgroup setting); without one the panel adds a workgroup. */
  workgroup?: Workgroup | null;
}

/** Add workgroup and Workgroup setting (spec 2 §2 Workgroup panels): name 2-255, description ≤140. */
export function WorkgroupPanel({ workgroup }: WorkgroupPanelProps): ReactNode {
  const { t } = useTranslation();
  const editing = workgroup !== undefined;
  const panelKey = editing ? WORKGROUP_SETTING_PANEL : ADD_WORKGROUP_PANEL;
  return (
    <RightPanel
      panelKey={panelKey}
      title={t(editing ? 'workgroup-admin.panel.settingTitle' : 'workgroup-admin.panel.addTitle')}
    >
      {editing && !workgroup ? null : (
        <WorkgroupForm workgroup={workgroup ?? undefined} panelKey={panelKey} />
      )}
    </RightPanel>
  );
}

function WorkgroupForm({
  workgroup,
  panelKey,
}: {
  workgroup: Workgroup | undefined;
  panelKey: string;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useSaveWorkgroupMutation();
  return (
    <Form<WorkgroupInput>
      layout="vertical"
      initialValues={
        workgroup ? { name: workgroup.name, desc: workgroup.desc } : { name: '', desc: '' }
      }
      onFinish={(values) =>
        mutation.mutate(
          { ...values, id: workgroup?.id },
          {
            onSuccess: () => {
              void message.success(t(workgroup ? 'messages.updateSuccess' : 'messages.addSuccess'));
              panel.close(panelKey);
            },
            onError: (error) => void message.error(errorText(error)),
          },
        )
      }
    >
      <Form.Item name="name" label={t('workgroup-admin.panel.name')} rules={workgroupNameRules(t)}>
        <Input count={{ show: true, max: WORKGROUP_NAME_MAX }} autoFocus />
      </Form.Item>
      <Form.Item name="desc" label={t('workgroup-admin.panel.desc')} rules={workgroupDescRules(t)}>
        <Input.TextArea rows={4} count={{ show: true, max: WORKGROUP_DESC_MAX }} />
      </Form.Item>
      <Space>
        <Button onClick={() => panel.close(panelKey)}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t(workgroup ? 'common.action.save' : 'common.action.add')}
        </Button>
      </Space>
    </Form>
  );
}
