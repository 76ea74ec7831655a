/**
 * Member setting, 'Base Info' (spec 2 §2 Team panels): name, role among all five, and a new
 * password; then the account's enabled state and its MFA reset, each after a confirmation.
 *
 * What the server refuses is not offered: the role of oneself and of the team's owner is
 * fixed (RoleCannotChange); a password is set only for oneself or an ordinary member
 * (AdminProtected); oneself and administrators cannot be disabled (DisableSelf,
 * AdminProtected). A password an administrator sets must be changed at the next sign-in.
 */
import { useState, type ReactNode } from 'react';
import {
  App,
  Button,
  Descriptions,
  Divider,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { ALL_ROLES, NAME_MAX, ROLE_NAMES, type Member } from '@portcullis/contract';
import {
  nameRules,
  optionalPasswordRules,
  passwordLevelHint,
  toPasswordLevel,
} from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCurrentAccountQuery } from '../../../shared/session/session';
import { useResetMfaMutation, useUpdateMemberMutation, type UpdateMemberInput } from '../api';

export const MEMBER_SETTING_PANEL = 'panel/team/member-setting';

interface BaseInfoForm {
  name: string;
  is_admin: number;
  pwd?: string;
}

export interface MemberSettingPanelProps {
  member: Member | null;
  selfId: number | undefined;
}

export function MemberSettingPanel({ member, selfId }: MemberSettingPanelProps): ReactNode {
  const { t } = useTranslation();
  return (
    <RightPanel panelKey={MEMBER_SETTING_PANEL} title={t('team.memberSetting.title')} width={520}>
      {member ? <MemberSetting member={member} self={member.id === selfId} /> : null}
    </RightPanel>
  );
}

function MemberSetting({ member, self }: { member: Member; self: boolean }): ReactNode {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const me = useCurrentAccountQuery();
  const update = useUpdateMemberMutation();
  const resetMfa = useResetMfaMutation();
  const [form] = Form.useForm<BaseInfoForm>();
  // Fixed when the panel opens, so the form does not change under the reader as lists refresh.
  const [initial] = useState<BaseInfoForm>({ name: member.name, is_admin: member.is_admin });
  const level = toPasswordLevel(me.data?.password_strength.level);
  const roleLocked = self || member.is_owner;
  const passwordAllowed = self || member.is_admin === 0;
  const disabled = member.status;
  // Disabling oneself or an administrator is refused; enabling is always possible.
  const statusLocked = !disabled && (self || member.is_admin !== 0);

  const save = (values: BaseInfoForm): void => {
    const change: UpdateMemberInput['change'] = {};
    const name = values.name.trim();
    if (name !== member.name) change.name = name;
    if (!roleLocked && values.is_admin !== member.is_admin) change.is_admin = values.is_admin;
    if (passwordAllowed && values.pwd) change.pwd = values.pwd;
    if (Object.keys(change).length === 0) {
      panel.close(MEMBER_SETTING_PANEL);
      return;
    }
    update.mutate(
      { id: member.id, change },
      {
        onSuccess: () => {
          void message.success(t('messages.updateAccountSuccess'));
          panel.close(MEMBER_SETTING_PANEL);
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  };

  const toggleStatus = (enable: boolean): void => {
    void modal.confirm({
      title: t(enable ? 'team.memberSetting.enableTitle' : 'team.memberSetting.disableTitle'),
      content: t(enable ? 'team.memberSetting.enableBody' : 'team.memberSetting.disableBody', {
        name: member.name,
      }),
      okText: t('common.action.confirm'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger: !enable },
      onOk: () =>
        update
          .mutateAsync({ id: member.id, change: { status: !enable } })
          .then(() => void message.success(t('messages.changeSuccess')))
          .catch((error: unknown) => void message.error(errorText(error))),
    });
  };

  return (
    <>
      <Typography.Title level={5} className="pc-panel-title">
        {t('team.memberSetting.baseInfo')}
      </Typography.Title>
      <Form<BaseInfoForm> form={form} layout="vertical" initialValues={initial} onFinish={save}>
        <Form.Item label={t('team.memberSetting.account')}>
          <Typography.Text>{member.account}</Typography.Text>
        </Form.Item>
        <Form.Item name="name" label={t('team.memberSetting.name')} rules={nameRules(t)}>
          <Input count={{ show: true, max: NAME_MAX }} />
        </Form.Item>
        <Form.Item
          name="is_admin"
          label={t('team.memberSetting.role')}
          extra={
            roleLocked
              ? t(self ? 'team.memberSetting.roleSelf' : 'team.memberSetting.roleOwner')
              : undefined
          }
        >
          <Select
            disabled={roleLocked}
            options={ALL_ROLES.map((role) => ({
              value: role,
              label: t(`common.role.${ROLE_NAMES[role]}`),
            }))}
          />
        </Form.Item>
        {passwordAllowed ? (
          <Form.Item
            name="pwd"
            label={t('team.memberSetting.password')}
            rules={optionalPasswordRules(level, t)}
            extra={[
              t(self ? 'team.memberSetting.passwordSelf' : 'team.memberSetting.passwordOther'),
              passwordLevelHint(level, t),
            ]
              .filter(Boolean)
              .join(' ')}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        ) : null}
        <Space>
          <Button onClick={() => panel.close(MEMBER_SETTING_PANEL)}>
            {t('common.action.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            {t('common.action.save')}
          </Button>
        </Space>
      </Form>

      <Divider />
      <Descriptions
        title={t('team.memberSetting.statusTitle')}
        column={1}
        size="small"
        items={[
          {
            key: 'status',
            label: t('team.memberSetting.status'),
            children: (
              <Space>
                <Switch
                  checked={!disabled}
                  disabled={statusLocked}
                  aria-label={t('team.memberSetting.statusSwitch')}
                  onChange={(enable) => toggleStatus(enable)}
                />
                <Typography.Text type={disabled ? 'danger' : undefined}>
                  {t(disabled ? 'team.members.disabled' : 'team.members.enabled')}
                </Typography.Text>
                {statusLocked ? (
                  <Typography.Text type="secondary">
                    {t(self ? 'errors.DisableSelf' : 'errors.AdminProtected')}
                  </Typography.Text>
                ) : null}
              </Space>
            ),
          },
          {
            key: 'mfa',
            label: t('team.memberSetting.mfa'),
            children: (
              <Space>
                <Typography.Text>
                  {t(member.otp_enabled ? 'team.members.mfaOn' : 'team.members.mfaOff')}
                </Typography.Text>
                <Popconfirm
                  title={t('team.memberSetting.resetMfaTitle')}
                  description={t('team.memberSetting.resetMfaBody', { name: member.name })}
                  okText={t('team.memberSetting.resetMfa')}
                  cancelText={t('common.action.cancel')}
                  onConfirm={() =>
                    resetMfa.mutate(member.id, {
                      onSuccess: () => void message.success(t('team.notice.resetSuccess')),
                      onError: (error) => void message.error(errorText(error)),
                    })
                  }
                >
                  <Button size="small" disabled={!member.otp_enabled} loading={resetMfa.isPending}>
                    {t('team.memberSetting.resetMfa')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
