/**
 * The settings tab (spec 2 §2 Team page tabs, §5 team settings): the team form, with the plan
 * and the workspace binding beside it. Every setting is enforced by the server: whitelists on
 * every request and sign-in, the hold time on sessions, company MFA and the strength level in
 * the sign-in flow and the shell's gate.
 *
 * Saving an admin whitelist asks first: from then on administrators (roles 1-4) reach the
 * console only from those addresses. The server refuses a list that leaves out the caller's
 * own address (WhitelistExcludesSelf), and its text says which address that is.
 */
import { type ReactNode } from 'react';
import {
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
} from 'antd';
import { useTranslation } from 'react-i18next';
import type { TeamSettings } from '@portcullis/contract';
import {
  contactPhoneRules,
  ipWhitelistRules,
  sessionExpireRules,
  teamTextRules,
} from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import {
  useAdminsQuery,
  useTeamSettingsQuery,
  useUpdateTeamMutation,
  type UpdateTeamBody,
} from '../api';
import { PlanCard } from './PlanCard';
import { WorkspaceCard } from './WorkspaceCard';

interface SettingsForm {
  full_name: string;
  contact_name: string;
  contact_address: string;
  contact_phone: string;
  ip_whitelist: string;
  admin_whitelist: string;
  session_expire_time: number;
  email?: string;
  company_mfa: boolean;
  reset_password: boolean;
  password_strength: 0 | 1 | 2;
}

function formValues(settings: TeamSettings): SettingsForm {
  return {
    full_name: settings.full_name,
    contact_name: settings.contact_name,
    contact_address: settings.contact_address,
    contact_phone: settings.contact_phone,
    ip_whitelist: settings.ip_whitelist,
    admin_whitelist: settings.admin_whitelist,
    session_expire_time: settings.session_expire_time,
    email: settings.binding_admin?.account,
    company_mfa: settings.company_mfa,
    reset_password: settings.reset_password,
    password_strength: ([0, 1, 2] as const).find((l) => l === settings.password_strength) ?? 0,
  };
}

/** The body of PATCH /current_company from the form (texts trimmed, switches as 0/1). */
export function updateBody(values: SettingsForm, settings: TeamSettings): UpdateTeamBody {
  const email = values.email?.trim();
  return {
    full_name: values.full_name.trim(),
    contact_name: values.contact_name.trim(),
    contact_address: values.contact_address.trim(),
    contact_phone: values.contact_phone.trim(),
    ip_whitelist: (values.ip_whitelist ?? '').trim(),
    admin_whitelist: (values.admin_whitelist ?? '').trim(),
    session_expire_time: values.session_expire_time,
    company_mfa: values.company_mfa ? 1 : 0,
    reset_password: values.reset_password ? 1 : 0,
    password_strength: values.password_strength,
    // Only a change of binding is sent; the server keeps the current one otherwise.
    ...(email && email !== settings.binding_admin?.account ? { email } : {}),
  };
}

export function SettingsTab(): ReactNode {
  const settings = useTeamSettingsQuery();
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={15}>
        {settings.data ? (
          <TeamForm settings={settings.data} />
        ) : (
          <Card>
            <Skeleton active />
          </Card>
        )}
      </Col>
      <Col xs={24} xl={9}>
        <Space orientation="vertical" size={16} className="pc-stack">
          <PlanCard />
          {settings.data ? <WorkspaceCard settings={settings.data} /> : null}
        </Space>
      </Col>
    </Row>
  );
}

function TeamForm({ settings }: { settings: TeamSettings }): ReactNode {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<SettingsForm>();
  const admins = useAdminsQuery();
  const mutation = useUpdateTeamMutation();
  // Only administrators that came from a bound workspace (a unique_id) may be bound.
  const candidates = (admins.data ?? []).filter((a) => a.unique_id !== '');
  const bindingOptions = candidates.map((a) => ({
    value: a.account,
    label: `${a.name} (${a.account})`,
  }));
  if (
    settings.binding_admin &&
    !bindingOptions.some((o) => o.value === settings.binding_admin?.account)
  ) {
    bindingOptions.unshift({
      value: settings.binding_admin.account,
      label: settings.binding_admin.account,
    });
  }

  const submit = (values: SettingsForm): void => {
    const body = updateBody(values, settings);
    const save = (): Promise<void> =>
      mutation
        .mutateAsync(body)
        .then(() => void message.success(t('messages.updateSuccess')))
        .catch((error: unknown) => void message.error(errorText(error)));
    if (body.admin_whitelist !== '' && body.admin_whitelist !== settings.admin_whitelist) {
      void modal.confirm({
        title: t('team.settings.adminWhitelistConfirmTitle'),
        content: t('team.settings.adminWhitelistConfirmBody', { list: body.admin_whitelist }),
        okText: t('common.action.save'),
        cancelText: t('common.action.cancel'),
        onOk: save,
      });
      return;
    }
    void save();
  };

  return (
    <Card title={t('team.settings.title')}>
      <Form<SettingsForm>
        form={form}
        layout="vertical"
        initialValues={formValues(settings)}
        onFinish={submit}
        className="pc-team-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="full_name"
              label={t('team.settings.fullName')}
              rules={teamTextRules(t('team.settings.fullNameRequired'), 100, t)}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="contact_name"
              label={t('team.settings.contactName')}
              rules={teamTextRules(t('team.settings.contactNameRequired'), 50, t)}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="contact_address"
              label={t('team.settings.contactAddress')}
              rules={teamTextRules(t('team.settings.contactAddressRequired'), 200, t)}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="contact_phone"
              label={t('team.settings.contactPhone')}
              rules={contactPhoneRules(t)}
            >
              <Input inputMode="tel" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="ip_whitelist"
          label={t('team.settings.ipWhitelist')}
          extra={t('team.settings.ipWhitelistHint')}
          rules={ipWhitelistRules(t)}
        >
          <Input.TextArea rows={2} placeholder={t('team.settings.whitelistPlaceholder')} />
        </Form.Item>
        <Form.Item
          name="admin_whitelist"
          label={t('team.settings.adminWhitelist')}
          extra={t('team.settings.adminWhitelistHint')}
          rules={ipWhitelistRules(t)}
        >
          <Input.TextArea rows={2} placeholder={t('team.settings.whitelistPlaceholder')} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="session_expire_time"
              label={t('team.settings.sessionExpire')}
              rules={sessionExpireRules(t)}
            >
              {/* No min/max here: the rule says what is wrong instead of the value jumping. */}
              <InputNumber
                precision={0}
                suffix={t('team.settings.minutes')}
                className="pc-full-width"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="email"
              label={t('team.settings.bindingAdmin')}
              extra={candidates.length === 0 ? t('team.settings.bindingAdminNone') : undefined}
            >
              <Select
                disabled={candidates.length === 0}
                placeholder={t('team.settings.bindingAdminPlaceholder')}
                options={bindingOptions}
                loading={admins.isPending}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="company_mfa"
              label={t('team.settings.companyMfa')}
              valuePropName="checked"
              extra={t('team.settings.companyMfaHint')}
            >
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="reset_password"
              label={t('team.settings.resetPassword')}
              valuePropName="checked"
              extra={t('team.settings.resetPasswordHint')}
            >
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="password_strength" label={t('team.settings.passwordStrength')}>
          <Radio.Group
            className="pc-radio-column"
            options={([0, 1, 2] as const).map((level) => ({
              value: level,
              label: t(`team.settings.strength${level}`),
            }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('common.action.save')}
        </Button>
      </Form>
    </Card>
  );
}
