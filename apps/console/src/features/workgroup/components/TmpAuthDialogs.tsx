/**
 * Temporary authorization (spec 1 §2.7, §3, §5): a server login user, a one-time password (the
 * console proposes a random one), allowed IPs, and a validity of 30, 60 or 120 minutes or custom
 * minutes (at least 1, at most the administrator's maximum), with the spec's exact messages.
 * The result dialog shows the one-time user name (the code) and password once, copyable; they
 * are dropped when it closes and are never shown again (the server keeps only a hash).
 */
import { useState, type ReactNode } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Typography,
} from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TMP_AUTH_PRESETS_MINUTES, type ProjectResource } from '@portcullis/contract';
import { isApiError } from '../../../shared/api/client';
import { requiredRule } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { AllowIpField } from './AllowIpField';
import { formatEpoch } from '../../../shared/time/format';
import { useTmpShareMutation, type TmpShareReply } from '../api';
import {
  maxCodeSeconds,
  oneTimePassword,
  tmpAuthMaxMinutes,
  tmpAuthProblem,
  type TmpAuthChoice,
} from '../rules';

interface TmpAuthValues {
  username: string;
  psw: string;
  allow_ip?: string;
  validity: TmpAuthChoice;
  minutes?: number | null;
}

export interface TmpAuthDialogProps {
  open: boolean;
  resource: ProjectResource;
  projectId: number;
  onClose: () => void;
  /** The reply with the one-time password; the dialog keeps no copy of it. */
  onCreated: (reply: TmpShareReply) => void;
}

export function TmpAuthDialog({
  open,
  resource,
  projectId,
  onClose,
  onCreated,
}: TmpAuthDialogProps): ReactNode {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('workgroup.tmp.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      {open ? (
        <TmpAuthForm
          resource={resource}
          projectId={projectId}
          onClose={onClose}
          onCreated={onCreated}
        />
      ) : null}
    </Modal>
  );
}

function TmpAuthForm({
  resource,
  projectId,
  onClose,
  onCreated,
}: Omit<TmpAuthDialogProps, 'open'>): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<TmpAuthValues>();
  const mutation = useTmpShareMutation(projectId);
  const maxMinutes = tmpAuthMaxMinutes(maxCodeSeconds(resource.max_tunnel_expire_time));
  const validity = Form.useWatch('validity', form);
  const [initialPassword] = useState(oneTimePassword);
  const users = resource.login_user;
  const firstUser = users.includes(resource.default_username)
    ? resource.default_username
    : users[0];

  const problemText = (choice: TmpAuthChoice, minutes: number | null | undefined): void => {
    const problem = tmpAuthProblem(choice, minutes, maxMinutes);
    if (problem) throw new Error(t(`messages.${problem}`));
  };

  const onFinish = (values: TmpAuthValues): void => {
    // Custom chosen and submitted before its minutes field was there.
    if (values.validity === 'custom' && (values.minutes === undefined || values.minutes === null)) {
      form.setFields([{ name: 'minutes', errors: [t('messages.tmpAuthMinMinutes')] }]);
      return;
    }
    mutation.mutate(
      {
        project_resource_id: resource.id,
        username: values.username,
        psw: values.psw,
        allow_ip: (values.allow_ip ?? '').trim(),
        ...(values.validity === 'custom'
          ? { expire_time_customize: values.minutes ?? 0 }
          : { expire_time: values.validity }),
      },
      {
        onSuccess: (reply) => {
          // The password now lives only in the result dialog's state.
          mutation.reset();
          form.resetFields();
          onCreated(reply);
        },
        onError: (error) =>
          void message.error(
            // The server's refusal of a too-long validity reads as the spec's sentence.
            isApiError(error, 'ExpireTimeTooBig') ? t('messages.tmpAuthTooLong') : errorText(error),
          ),
      },
    );
  };

  return (
    <Form<TmpAuthValues>
      form={form}
      layout="vertical"
      preserve={false}
      initialValues={{ username: firstUser, psw: initialPassword, allow_ip: '', validity: 30 }}
      onFinish={onFinish}
    >
      <Typography.Paragraph type="secondary">
        {t('workgroup.tmp.intro', { name: resource.name })}
      </Typography.Paragraph>
      <Form.Item
        name="username"
        label={t('workgroup.tmp.username')}
        rules={[{ required: true, message: t('workgroup.tmp.usernameRequired') }]}
      >
        <Select
          aria-label={t('workgroup.tmp.username')}
          options={users.map((u) => ({ value: u, label: u }))}
          notFoundContent={t('workgroup.config.noUsers')}
        />
      </Form.Item>
      <Form.Item label={t('workgroup.tmp.password')} required>
        <Space.Compact className="pc-full-width">
          <Form.Item name="psw" noStyle rules={[requiredRule(t('workgroup.tmp.passwordRequired'))]}>
            <Input.Password autoComplete="new-password" aria-label={t('workgroup.tmp.password')} />
          </Form.Item>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => form.setFieldsValue({ psw: oneTimePassword() })}
          >
            {t('workgroup.tmp.generate')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <AllowIpField />
      <Form.Item
        name="validity"
        label={t('workgroup.tmp.validity')}
        extra={t('workgroup.tmp.maxHint', { count: maxMinutes })}
        rules={[
          {
            validator: async (_rule, value: TmpAuthChoice) => {
              if (value !== 'custom') problemText(value, undefined);
            },
          },
        ]}
      >
        <Radio.Group
          aria-label={t('workgroup.tmp.validity')}
          onChange={() => void form.validateFields(['minutes']).catch(() => undefined)}
          options={[
            ...TMP_AUTH_PRESETS_MINUTES.map((m) => ({
              value: m,
              label: t('workgroup.tmp.minutes', { count: m }),
            })),
            { value: 'custom', label: t('workgroup.tmp.custom') },
          ]}
        />
      </Form.Item>
      {validity === 'custom' ? (
        <Form.Item
          name="minutes"
          label={t('workgroup.tmp.customMinutes')}
          dependencies={['validity']}
          rules={[
            {
              validator: async (_rule, value: number | null | undefined) =>
                problemText('custom', value),
            },
          ]}
        >
          <InputNumber
            precision={0}
            aria-label={t('workgroup.tmp.customMinutes')}
            suffix={t('workgroup.tmp.minutesUnit')}
            className="pc-full-width"
          />
        </Form.Item>
      ) : null}
      <div className="pc-dialog-buttons">
        <Space>
          <Button onClick={onClose}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('workgroup.tmp.submit')}
          </Button>
        </Space>
      </div>
    </Form>
  );
}

export interface TmpAuthResultDialogProps {
  /** The reply to show; null while nothing is to be shown. */
  result: TmpShareReply | null;
  /** Called once the dialog has closed: the caller drops the reply. */
  onClosed: () => void;
}

export function TmpAuthResultDialog({ result, onClosed }: TmpAuthResultDialogProps): ReactNode {
  const { t } = useTranslation();
  const [closing, setClosing] = useState(false);
  const close = (): void => setClosing(true);
  return (
    <Modal
      open={result !== null && !closing}
      title={t('workgroup.tmp.resultTitle')}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      afterClose={() => {
        setClosing(false);
        onClosed();
      }}
      footer={
        <Button type="primary" onClick={close}>
          {t('workgroup.tmp.done')}
        </Button>
      }
    >
      {result ? <TmpAuthCredentials result={result} /> : null}
    </Modal>
  );
}

function TmpAuthCredentials({ result }: { result: TmpShareReply }): ReactNode {
  const { t } = useTranslation();
  const copy = (text: string): ReactNode => (
    <Typography.Text code copyable={{ text }} className="pc-break-all">
      {text}
    </Typography.Text>
  );
  return (
    <>
      <Alert type="warning" showIcon title={t('workgroup.tmp.once')} className="pc-tmp-alert" />
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          { key: 'user', label: t('workgroup.tmp.oneTimeUser'), children: copy(result.code) },
          { key: 'psw', label: t('workgroup.tmp.oneTimePassword'), children: copy(result.psw) },
          ...(result.connect
            ? [
                {
                  key: 'host',
                  label: t('workgroup.connect.host'),
                  children: `${result.connect.host}:${result.connect.port}`,
                },
              ]
            : []),
          ...(result.connect?.command
            ? [
                {
                  key: 'command',
                  label: t('workgroup.connect.command'),
                  children: copy(result.connect.command),
                },
              ]
            : []),
          {
            key: 'login',
            label: t('workgroup.tmp.loginUser'),
            children: result.tmp_username || '-',
          },
          {
            key: 'until',
            label: t('workgroup.tmp.validUntil'),
            children: formatEpoch(result.expire_time),
          },
          {
            key: 'ip',
            label: t('workgroup.code.allowIp'),
            children: result.allow_ip
              ? result.allow_ip.split(':').join(', ')
              : t('workgroup.codes.noLimit'),
          },
        ]}
      />
    </>
  );
}
