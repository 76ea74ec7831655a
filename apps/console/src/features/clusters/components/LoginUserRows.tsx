/**
 * The per-username rows of the instance panel (spec 2 §3 instance data, §4): each login user
 * has its own authentication (host password, SSH key, team account password), its own host
 * password and, once saved, its own connectivity test; a saved Linux user also has Upload key
 * and Key test. SSH key and team-account login are selectable only while the user's test
 * result is neither disable nor pending.
 */
import { useState, type ReactNode } from 'react';
import { Card, Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Resource } from '@portcullis/contract';
import type { TestStatus } from '../api';
import {
  authLocked,
  authTypesFor,
  type AuthType,
  type LoginRow,
  type TestResult,
} from '../login-users';
import { ConnectivityTest } from './ConnectivityTest';
import { KeyTestButton, KeyUploadButton } from './KeyLogin';

export interface LoginUserRowsProps {
  os: Resource['os'];
  clusterId: number;
  /** The saved server (Instance setting); its users can be tested and get keys. */
  resource?: Resource | undefined;
  /** False without an available gateway: tests and key set-up are disabled. */
  available: boolean;
}

export function LoginUserRows(props: LoginUserRowsProps): ReactNode {
  const { t } = useTranslation();
  return (
    <div className="pc-login-users">
      <Typography.Text strong>{t('clusters.logins.title')}</Typography.Text>
      <Form.List name="logins">
        {(fields) => (
          <Space orientation="vertical" size={8} style={{ width: '100%', marginTop: 8 }}>
            {fields.map((field) => (
              <LoginUserRow key={field.key} index={field.name} {...props} />
            ))}
          </Space>
        )}
      </Form.List>
    </div>
  );
}

function LoginUserRow({
  index,
  os,
  clusterId,
  resource,
  available,
}: LoginUserRowsProps & { index: number }): ReactNode {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  // preserve: a row's username has no input of its own, so no field watches it.
  const row = Form.useWatch<LoginRow | undefined>(['logins', index], { form, preserve: true });
  const [live, setLive] = useState<TestStatus | null | undefined>(undefined);
  const username = row?.username ?? '';
  const saved = resource?.extension.data.find((d) => d.username === username);
  const isSaved = resource?.extension.username.includes(username) ?? false;
  const result: TestResult | undefined = live ?? saved?.test_result;
  const locked = authLocked(result);
  const authType = row?.auth_type ?? 0;

  return (
    <Card
      size="small"
      role="group"
      aria-label={t('clusters.logins.row', { user: username })}
      title={username}
      extra={
        isSaved && resource ? (
          <ConnectivityTest
            resourceId={resource.id}
            username={username}
            showUsername={false}
            lastResult={saved?.test_result}
            available={available}
            onResult={setLive}
          />
        ) : null
      }
    >
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 12 }}>
        <Form.Item
          name={[index, 'auth_type']}
          label={t('clusters.instance.auth')}
          extra={locked ? t('clusters.logins.locked') : undefined}
          style={{ marginBottom: 8 }}
        >
          <Select<AuthType>
            aria-label={t('clusters.logins.authFor', { user: username })}
            options={authTypesFor(os).map((value) => ({
              value,
              label: t(`clusters.auth.${value}`),
              disabled: value !== 0 && locked,
            }))}
          />
        </Form.Item>
        {authType === 0 ? (
          <Form.Item
            name={[index, 'password']}
            label={t('clusters.instance.password')}
            extra={isSaved ? t('clusters.instance.passwordKeep') : undefined}
            style={{ marginBottom: 8 }}
          >
            <Input.Password
              autoComplete="new-password"
              aria-label={t('clusters.logins.passwordFor', { user: username })}
            />
          </Form.Item>
        ) : (
          // Level with the select beside it, below where a label would be.
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8, paddingTop: 30 }}>
            {t(`clusters.instance.authHint${authType}`)}
          </Typography.Paragraph>
        )}
      </div>
      {os === 'linux' && resource && isSaved ? (
        <Space wrap size={8}>
          <KeyUploadButton
            clusterId={clusterId}
            resourceId={resource.id}
            username={username}
            available={available}
          />
          <KeyTestButton
            clusterId={clusterId}
            resourceId={resource.id}
            username={username}
            available={available}
          />
        </Space>
      ) : os === 'linux' && resource ? (
        <Typography.Text type="secondary">{t('clusters.logins.saveFirst')}</Typography.Text>
      ) : null}
    </Card>
  );
}
