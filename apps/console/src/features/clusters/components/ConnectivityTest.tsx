import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/i18n/errors';
import { useStartTestMutation, useTestStatusQuery, type TestStatus } from '../api';

export interface ConnectivityTestProps {
  resourceId: number;
  /** The login user to test (servers); databases test their one account. */
  username?: string | undefined;
  /** The last stored result, shown until a test runs here. */
  lastResult?: TestStatus | null | undefined;
  /** False without an available gateway (agent_status not 1): the button is disabled. */
  available: boolean;
  /** Whether the username shows before the button (the instance panel's rows name it already). */
  showUsername?: boolean;
  /** Told each time the shown result changes (the instance panel locks key login on it). */
  onResult?: (result: TestStatus | null | undefined) => void;
}

/**
 * The connectivity test of one login (spec 2 §4): Test asks the gateway to log in and polls
 * the task every second; pending shows a spinner and disables the button, enable shows yes,
 * disable (or nothing) shows no, with why when the test just run says (the stored result
 * has no reason).
 */
export function ConnectivityTest({
  resourceId,
  username,
  lastResult,
  available,
  showUsername = true,
  onResult,
}: ConnectivityTestProps): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [taskId, setTaskId] = useState<string | null>(null);
  const start = useStartTestMutation();
  const status = useTestStatusQuery(taskId);
  const result: TestStatus | null | undefined = taskId
    ? status.isError
      ? 'disable'
      : (status.data?.status ?? 'pending')
    : lastResult;
  const reason = taskId && result === 'disable' ? status.data?.reason : undefined;
  // A reason word without a text of its own (`error`) shows no more than "no".
  const why = (reason && t(`clusters.test.reason.${reason}`, { defaultValue: '' })) || undefined;
  const pending = start.isPending || result === 'pending';
  const shown = pending ? 'pending' : result;
  useEffect(() => onResult?.(shown), [onResult, shown]);
  const label = username ? t('clusters.test.runFor', { user: username }) : t('clusters.test.run');

  const button = (
    <Button
      size="small"
      disabled={!available || pending}
      aria-label={label}
      onClick={() =>
        start.mutate(
          { resource_id: resourceId, username },
          {
            onSuccess: ({ task_id }) => setTaskId(task_id),
            onError: (error) => void message.error(errorText(error)),
          },
        )
      }
    >
      {t('clusters.test.button')}
    </Button>
  );

  return (
    <Space size={6}>
      {username && showUsername ? <span>{username}</span> : null}
      {available ? button : <Tooltip title={t('clusters.test.unavailable')}>{button}</Tooltip>}
      {pending ? (
        <Spin size="small" aria-label={t('clusters.test.pending')} />
      ) : result === 'enable' ? (
        <Tag color="success">{t('clusters.test.yes')}</Tag>
      ) : result === 'disable' || (taskId && !result) ? (
        <>
          <Tag color="error">{t('clusters.test.no')}</Tag>
          {why ? (
            <Typography.Text type="secondary" className="pc-test-reason">
              {why}
            </Typography.Text>
          ) : null}
        </>
      ) : null}
    </Space>
  );
}
