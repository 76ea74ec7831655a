/**
 * Key login set-up of one Linux login user (spec 2 §7 Resources, §5 "Upload key: password
 * required, non-empty"; spec 1 §9 key upload polled every second). Upload key asks for the
 * user's password once, has the gateway install the server's own key pair in that user's
 * authorized_keys, and polls the task: a failure shows SetAutologinFailed's text and leaves the
 * dialog open, a success says so and closes it. Key test has the gateway sign in with the key.
 *
 * The password lives only in the dialog's input until Upload is pressed: the form is emptied
 * before the call starts and nothing else holds it.
 */
import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  Modal,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { KeyOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { errorKey, useErrorText } from '../../../shared/i18n/errors';
import {
  startKeyUpload,
  useKeyTaskQuery,
  useStartKeyTestMutation,
  type KeyTaskStatus,
} from '../api';

/** The catalogue text of a failed key task, with the gateway's reason when it is a known one. */
export function keyFailureText(status: KeyTaskStatus, t: TFunction): string {
  const text = t(errorKey(status.code ?? 'SetAutologinFailed'));
  // A reason word without a text of its own adds nothing to the catalogue's text.
  const reason = status.reason
    ? t(`clusters.key.reason.${status.reason}`, { defaultValue: '' })
    : '';
  return reason ? `${text}: ${reason}` : text;
}

export interface KeyLoginProps {
  clusterId: number;
  resourceId: number;
  username: string;
  /** False without an available gateway: the buttons are disabled. */
  available: boolean;
}

function Unavailable({ available, children }: { available: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return available ? (
    children
  ) : (
    <Tooltip title={t('clusters.test.unavailable')}>{children}</Tooltip>
  );
}

/** Upload key: a button and its password dialog. */
export function KeyUploadButton({
  clusterId,
  resourceId,
  username,
  available,
}: KeyLoginProps): ReactNode {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Unavailable available={available}>
        <Button
          size="small"
          icon={<KeyOutlined />}
          disabled={!available}
          aria-label={t('clusters.key.uploadFor', { user: username })}
          onClick={() => setOpen(true)}
        >
          {t('clusters.key.upload')}
        </Button>
      </Unavailable>
      {open ? (
        <UploadKeyDialog
          clusterId={clusterId}
          resourceId={resourceId}
          username={username}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function UploadKeyDialog({
  clusterId,
  resourceId,
  username,
  onClose,
}: {
  clusterId: number;
  resourceId: number;
  username: string;
  onClose: () => void;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<{ password: string }>();
  const [starting, setStarting] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const task = useKeyTaskQuery(clusterId, 'upload', taskId);
  const status = task.data?.status;
  const busy = starting || (taskId !== null && (status === undefined || status === 'pending'));

  useEffect(() => {
    if (!taskId) return;
    if (task.isError) {
      setFailure(errorText(task.error));
      setTaskId(null);
    } else if (task.data?.status === 'failed') {
      setFailure(keyFailureText(task.data, t));
      setTaskId(null);
    } else if (task.data?.status === 'success') {
      void message.success(t('clusters.key.uploadSuccess', { user: username }));
      onClose();
    }
  }, [taskId, task.data, task.isError, task.error, errorText, message, onClose, t, username]);

  const onFinish = async ({ password }: { password: string }): Promise<void> => {
    // The password leaves the form before the call: nothing keeps it afterwards.
    form.resetFields();
    setFailure(null);
    setStarting(true);
    try {
      setTaskId(await startKeyUpload(resourceId, username, password));
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setStarting(false);
    }
  };

  return (
    <Modal
      open
      title={t('clusters.key.uploadTitle')}
      okText={t('clusters.key.uploadOk')}
      cancelText={t('common.action.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('clusters.key.uploadHint', { user: username })}
      </Typography.Paragraph>
      <Form<{ password: string }>
        form={form}
        layout="vertical"
        disabled={busy}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item
          name="password"
          label={t('clusters.key.password', { user: username })}
          rules={[{ required: true, message: t('clusters.rules.password') }]}
        >
          <Input.Password autoComplete="off" />
        </Form.Item>
      </Form>
      {busy && taskId ? (
        <Space>
          <Spin size="small" />
          <Typography.Text type="secondary">{t('clusters.key.uploading')}</Typography.Text>
        </Space>
      ) : null}
      {failure ? <Alert type="error" showIcon title={failure} /> : null}
    </Modal>
  );
}

/** Key test: a button, a spinner while the gateway tries, then whether key login works. */
export function KeyTestButton({
  clusterId,
  resourceId,
  username,
  available,
}: KeyLoginProps): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [taskId, setTaskId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = useStartKeyTestMutation();
  const task = useKeyTaskQuery(clusterId, 'test', taskId);
  const status = taskId ? (task.isError ? 'error' : (task.data?.status ?? 'pending')) : null;
  const pending = start.isPending || status === 'pending';

  const onTest = (): void => {
    setError(null);
    start.mutate(
      { resourceId, username },
      {
        onSuccess: ({ task_id }) => setTaskId(task_id),
        onError: (e) => {
          setTaskId(null);
          setError(errorText(e));
        },
      },
    );
  };

  const failure =
    error ??
    (status === 'error'
      ? errorText(task.error)
      : task.data?.status === 'failed'
        ? keyFailureText(task.data, t)
        : null);

  return (
    <Space size={6} wrap>
      <Unavailable available={available}>
        <Button
          size="small"
          icon={<SafetyCertificateOutlined />}
          disabled={!available || pending}
          aria-label={t('clusters.key.testFor', { user: username })}
          onClick={onTest}
        >
          {t('clusters.key.test')}
        </Button>
      </Unavailable>
      {pending ? (
        <Spin size="small" aria-label={t('clusters.key.testing')} />
      ) : status === 'success' ? (
        <Tag color="success">{t('clusters.key.works')}</Tag>
      ) : failure ? (
        <Tooltip title={failure}>
          <Tag color="error">{t('clusters.key.failed')}</Tag>
        </Tooltip>
      ) : null}
    </Space>
  );
}
