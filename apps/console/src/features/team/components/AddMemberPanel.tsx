import type { ReactNode } from 'react';
import { App, Button, Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ADDABLE_ROLES, MEMBER_NAME_MAX, ROLE_NAMES } from '@portcullis/contract';
import { memberEmailRules, memberNameRules, roleRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useAddMemberMutation, type AddMemberInput } from '../api';

export const ADD_MEMBER_PANEL = 'panel/team/add-member';

/**
 * Add member: e-mail, full name (2-16) and a role among ordinary, admin, optAdmin and
 * auditAdmin. The server mails the new member a link to set a password; AccountExist and
 * AccountExceeded (the plan's limit) come back as their texts.
 */
export function AddMemberPanel(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useAddMemberMutation();
  return (
    <RightPanel panelKey={ADD_MEMBER_PANEL} title={t('team.addMember.title')}>
      <Typography.Paragraph type="secondary">{t('team.addMember.hint')}</Typography.Paragraph>
      <Form<AddMemberInput>
        layout="vertical"
        initialValues={{ is_admin: 0 }}
        onFinish={(values) =>
          mutation.mutate(values, {
            onSuccess: () => {
              void message.success(t('messages.addSuccess'));
              panel.close(ADD_MEMBER_PANEL);
            },
            onError: (error) => void message.error(errorText(error)),
          })
        }
      >
        <Form.Item name="account" label={t('team.addMember.email')} rules={memberEmailRules(t)}>
          <Input type="email" autoComplete="off" autoFocus />
        </Form.Item>
        <Form.Item name="name" label={t('team.addMember.name')} rules={memberNameRules(t)}>
          <Input count={{ show: true, max: MEMBER_NAME_MAX }} autoComplete="off" />
        </Form.Item>
        <Form.Item name="is_admin" label={t('team.addMember.role')} rules={roleRules(t)}>
          <Select
            options={ADDABLE_ROLES.map((role) => ({
              value: role,
              label: t(`common.role.${ROLE_NAMES[role]}`),
            }))}
          />
        </Form.Item>
        <Space>
          <Button onClick={() => panel.close(ADD_MEMBER_PANEL)}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('common.action.add')}
          </Button>
        </Space>
      </Form>
    </RightPanel>
  );
}
