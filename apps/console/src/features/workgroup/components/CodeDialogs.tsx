/**
 * The create-code and modify-code dialogs (spec 1 §2.7, §5). Create: a quick expiry (one day,
 * one month, the default 30 minutes) or a custom date-time, never past the cluster's maximum
 * nor in the past (Create is disabled while the chosen time is past); allowed IPs; the safe-mode
 * switch for a Linux server of a cluster in safe mode. Modify: the same choices plus keeping the
 * current expiry; a custom choice needs a date ('select date'), and the new expiry may not pass
 * the code's creation time plus the maximum.
 */
import { type ReactNode } from 'react';
import {
  App,
  Button,
  DatePicker,
  Form,
  Modal,
  Radio,
  Space,
  Switch,
  Typography,
  type FormInstance,
} from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { Code, ProjectResource } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { AllowIpField } from './AllowIpField';
import { DATE_TIME_FORMAT, formatEpoch } from '../../../shared/time/format';
import { useCreateCodeMutation, useUpdateCodeMutation, type UpdateCodeBody } from '../api';
import {
  createExpiryProblem,
  durationText,
  expiryFields,
  expiryProblemText,
  maxCodeSeconds,
  modifyExpiryProblem,
  offersSafeMode,
  QUICK_EXPIRIES,
  type ExpiryChoice,
  type ModifyExpiryChoice,
} from '../rules';

interface CodeFormValues<C extends string> {
  expiry: C;
  customTime?: Dayjs | null;
  allow_ip?: string;
  safe_mode?: boolean;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * A submit that raced the custom date field's mounting: custom chosen and no time yet. Says
 * 'select date' on the field rather than sending a code without its expiry.
 */
function missingCustomTime<C extends string>(
  form: FormInstance<CodeFormValues<C>>,
  values: CodeFormValues<C>,
  t: TFunction,
): boolean {
  if (values.expiry !== 'custom' || values.customTime) return false;
  form.setFields([{ name: 'customTime', errors: [t('messages.selectDate')] }]);
  return true;
}

/** The expiry choices, the custom date-time under them, and the allowed IPs and safe mode. */
function CodeFields<C extends string>({
  choices,
  hint,
  safeMode,
  safeModeLocked,
  validateQuick,
  validateCustom,
}: {
  choices: readonly C[];
  hint: string;
  safeMode: boolean;
  /** Safe mode can only stay on: leaving it needs an approved application (spec 1 §4). */
  safeModeLocked: boolean;
  validateQuick: (choice: C) => string | null;
  validateCustom: (time: number | undefined) => string | null;
}): ReactNode {
  const { t } = useTranslation();
  const form = Form.useFormInstance<CodeFormValues<C>>();
  const choice = Form.useWatch('expiry', form);
  return (
    <>
      <Form.Item
        name="expiry"
        label={t('workgroup.code.expiry')}
        extra={hint}
        rules={[
          {
            validator: async (_rule, value: C) => {
              const problem = value === 'custom' ? null : validateQuick(value);
              if (problem) throw new Error(problem);
            },
          },
        ]}
      >
        <Radio.Group
          aria-label={t('workgroup.code.expiry')}
          onChange={() => void form.validateFields(['customTime']).catch(() => undefined)}
          options={choices.map((c) => ({ value: c, label: t(`workgroup.code.expiryChoice.${c}`) }))}
        />
      </Form.Item>
      {choice === 'custom' ? (
        <Form.Item
          name="customTime"
          label={t('workgroup.code.customTime')}
          dependencies={['expiry']}
          rules={[
            {
              validator: async (_rule, value: Dayjs | null | undefined) => {
                const problem = validateCustom(value ? value.unix() : undefined);
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <DatePicker
            showTime
            format={DATE_TIME_FORMAT}
            aria-label={t('workgroup.code.customTime')}
            disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
            className="pc-full-width"
          />
        </Form.Item>
      ) : null}
      <AllowIpField />
      {safeMode ? (
        <Form.Item
          name="safe_mode"
          label={t('workgroup.code.safeMode')}
          extra={t(
            safeModeLocked ? 'workgroup.code.safeModeLocked' : 'workgroup.code.safeModeHint',
          )}
          valuePropName="checked"
        >
          <Switch aria-label={t('workgroup.code.safeMode')} disabled={safeModeLocked} />
        </Form.Item>
      ) : null}
    </>
  );
}

function DialogButtons({
  onCancel,
  okText,
  loading,
  disabled,
}: {
  onCancel: () => void;
  okText: string;
  loading: boolean;
  disabled?: boolean;
}): ReactNode {
  const { t } = useTranslation();
  return (
    <div className="pc-dialog-buttons">
      <Space>
        <Button onClick={onCancel}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={loading} disabled={disabled}>
          {okText}
        </Button>
      </Space>
    </div>
  );
}

export interface CreateCodeDialogProps {
  open: boolean;
  resource: ProjectResource;
  projectId: number;
  onClose: () => void;
}

export function CreateCodeDialog({
  open,
  resource,
  projectId,
  onClose,
}: CreateCodeDialogProps): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<CodeFormValues<ExpiryChoice>>();
  const mutation = useCreateCodeMutation(projectId);
  const max = maxCodeSeconds(resource.max_tunnel_expire_time);
  const safeMode = offersSafeMode(resource);
  const choice = Form.useWatch('expiry', form);
  const customTime = Form.useWatch('customTime', form);
  // Creating is disabled while the chosen time is in the past (spec 1 §5).
  const pastChosen =
    choice === 'custom' && customTime !== undefined && customTime !== null
      ? customTime.unix() <= nowSeconds()
      : false;

  const onFinish = (values: CodeFormValues<ExpiryChoice>): void => {
    if (missingCustomTime(form, values, t)) return;
    mutation.mutate(
      {
        project_resource_id: resource.id,
        allow_ip: (values.allow_ip ?? '').trim(),
        ...expiryFields(values.expiry, values.customTime?.unix()),
        ...(safeMode ? { safe_mode: values.safe_mode ? 1 : 0 } : {}),
      },
      {
        onSuccess: () => {
          void message.success(t('workgroup.code.created'));
          onClose();
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t('workgroup.code.createTitle')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Typography.Paragraph type="secondary">
        {t('workgroup.code.for', { name: resource.name })}
      </Typography.Paragraph>
      <Form<CodeFormValues<ExpiryChoice>>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ expiry: 'default', allow_ip: '', safe_mode: true }}
        onFinish={onFinish}
      >
        <CodeFields<ExpiryChoice>
          choices={[...QUICK_EXPIRIES, 'custom']}
          hint={t('workgroup.code.maxHint', { duration: durationText(max, t) })}
          safeMode={safeMode}
          safeModeLocked={resource.safe.safe_mode_approver === 1}
          validateQuick={(c) => {
            const problem = createExpiryProblem(c, undefined, nowSeconds(), max);
            return problem ? expiryProblemText(problem, t) : null;
          }}
          validateCustom={(time) => {
            const problem = createExpiryProblem('custom', time, nowSeconds(), max);
            return problem ? expiryProblemText(problem, t) : null;
          }}
        />
        <DialogButtons
          onCancel={onClose}
          okText={t('workgroup.codes.create')}
          loading={mutation.isPending}
          disabled={pastChosen}
        />
      </Form>
    </Modal>
  );
}

export interface ModifyCodeDialogProps {
  /** The code being changed; null while the dialog is closed. */
  code: Code | null;
  resource: ProjectResource;
  projectId: number;
  onClose: () => void;
}

export function ModifyCodeDialog({
  code,
  resource,
  projectId,
  onClose,
}: ModifyCodeDialogProps): ReactNode {
  const { t } = useTranslation();
  return (
    <Modal
      open={code !== null}
      title={t('workgroup.code.modifyTitle')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      {code ? (
        <ModifyCodeForm code={code} resource={resource} projectId={projectId} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function ModifyCodeForm({
  code,
  resource,
  projectId,
  onClose,
}: {
  code: Code;
  resource: ProjectResource;
  projectId: number;
  onClose: () => void;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const mutation = useUpdateCodeMutation(projectId);
  const max = maxCodeSeconds(resource.max_tunnel_expire_time);
  const safeMode = offersSafeMode(resource);
  const cap = code.create_time + max;
  const [form] = Form.useForm<CodeFormValues<ModifyExpiryChoice>>();

  const onFinish = (values: CodeFormValues<ModifyExpiryChoice>): void => {
    if (missingCustomTime(form, values, t)) return;
    const body: UpdateCodeBody = { ...expiryFields(values.expiry, values.customTime?.unix()) };
    const allowIp = (values.allow_ip ?? '').trim();
    if (allowIp !== code.allow_ip) body.allow_ip = allowIp;
    const safe = values.safe_mode ? 1 : 0;
    if (safeMode && safe !== code.safe_mode) body.safe_mode = safe;
    if (Object.keys(body).length === 0) {
      void message.info(t('workgroup.code.nothingChanged'));
      onClose();
      return;
    }
    mutation.mutate(
      { id: code.id, body },
      {
        onSuccess: () => {
          void message.success(t('messages.changeSuccess'));
          onClose();
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  };

  return (
    <>
      <Typography.Paragraph type="secondary">
        {t('workgroup.code.current', {
          code: code.code,
          time: formatEpoch(code.expire_time),
        })}
      </Typography.Paragraph>
      <Form<CodeFormValues<ModifyExpiryChoice>>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ expiry: 'keep', allow_ip: code.allow_ip, safe_mode: code.safe_mode === 1 }}
        onFinish={onFinish}
      >
        <CodeFields<ModifyExpiryChoice>
          choices={['keep', ...QUICK_EXPIRIES, 'custom']}
          hint={t('workgroup.code.capHint', { time: formatEpoch(cap) })}
          safeMode={safeMode}
          safeModeLocked={resource.safe.safe_mode_approver === 1}
          validateQuick={(c) => {
            const problem = modifyExpiryProblem(c, undefined, nowSeconds(), code.create_time, max);
            return problem ? expiryProblemText(problem, t) : null;
          }}
          validateCustom={(time) => {
            const problem = modifyExpiryProblem(
              'custom',
              time,
              nowSeconds(),
              code.create_time,
              max,
            );
            return problem ? expiryProblemText(problem, t) : null;
          }}
        />
        <DialogButtons
          onCancel={onClose}
          okText={t('workgroup.codes.change')}
          loading={mutation.isPending}
        />
      </Form>
    </>
  );
}
