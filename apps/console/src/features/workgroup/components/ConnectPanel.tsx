/**
 * Connect (spec 1 §2.7 Connect panel): how to reach the resource through the gateway with the
 * member's own code. For a Linux server: the verification method (how the gateway knows the
 * member: their SSH key, or the code when asked), the security mode the code runs under, the
 * default login user (the member's choice, saved as in Config), host, port, user name (the
 * code) and the ready-to-copy SSH command, then the web terminal in the panel or full page in
 * its own tab. MySQL and PostgreSQL show host, port, user name and a command that connects as
 * shown; other kinds the client note. SQL Server has no proxy yet and says so rather than
 * showing a command that would fail. Web RDP comes later; without a code the panel points to
 * Manage Code.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Empty,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { ExpandOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Code, ProjectResource } from '@portcullis/contract';
import { LoadFailed } from '../../../shared/components/LoadFailed';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCurrentAccountQuery } from '../../../shared/session/session';
import { useDefaultUsernameMutation, useOwnCodeQuery } from '../api';
import { terminalPath } from '../paths';
import { isExpired } from '../rules';
import { MANAGE_CODE_PANEL } from './ManageCodePanel';

export const CONNECT_PANEL = 'panel/workgroup/connect';

const WebTerminal = lazy(() => import('./WebTerminal'));

export function ConnectPanel({ resource }: { resource: ProjectResource | null }): ReactNode {
  const { t } = useTranslation();
  const panel = usePanel();
  return (
    <RightPanel
      panelKey={CONNECT_PANEL}
      title={resource ? t('workgroup.connect.title', { name: resource.name }) : ''}
      width={560}
    >
      {/* Keyed: another resource's Connect must not keep this one's terminal or code. */}
      {resource ? (
        <ConnectInfo
          key={resource.id}
          resource={resource}
          onManage={() => panel.open(MANAGE_CODE_PANEL)}
        />
      ) : null}
    </RightPanel>
  );
}

function ConnectInfo({
  resource,
  onManage,
}: {
  resource: ProjectResource;
  onManage: () => void;
}): ReactNode {
  const { t } = useTranslation();
  const me = useCurrentAccountQuery().data?.id;
  const codes = useOwnCodeQuery(resource.id, me);
  if (codes.isPending) return <Spin aria-label={t('common.state.loading')} />;
  if (codes.isError) return <LoadFailed error={codes.error} onRetry={() => void codes.refetch()} />;
  const own = codes.data;
  if (!own || isExpired(own, Math.floor(Date.now() / 1000))) {
    return (
      <Empty description={t('workgroup.connect.noCode')}>
        <Button type="primary" onClick={onManage}>
          {t('workgroup.resources.manageCode')}
        </Button>
      </Empty>
    );
  }
  const linux = resource.os === 'linux';
  if (resource.os === 'mssql') {
    return <Alert type="info" showIcon message={t('workgroup.connect.mssqlLater')} />;
  }
  return (
    <>
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          ...(linux ? linuxItems(resource, own, t) : []),
          ...(own.connect
            ? [
                {
                  key: 'host',
                  label: t('workgroup.connect.host'),
                  children: <Copyable text={own.connect.host} />,
                },
                {
                  key: 'port',
                  label: t('workgroup.connect.port'),
                  children: <Copyable text={String(own.connect.port)} />,
                },
              ]
            : []),
          {
            key: 'user',
            label: t('workgroup.connect.username'),
            children: <Copyable text={own.code} />,
          },
          ...(own.connect?.command
            ? [
                {
                  key: 'command',
                  label: t(linux ? 'workgroup.connect.sshCommand' : 'workgroup.connect.command'),
                  children: <Copyable text={own.connect.command} code />,
                },
              ]
            : []),
        ]}
      />
      <Typography.Paragraph type="secondary" className="pc-workgroup-connect__note">
        {t(`workgroup.connect.note.${resource.os}`)}
      </Typography.Paragraph>
      {linux ? (
        <Suspense fallback={<Spin aria-label={t('common.state.loading')} />}>
          <WebTerminal
            projectResourceId={resource.id}
            extra={
              <Button
                icon={<ExpandOutlined />}
                href={terminalPath(resource.id, resource.name)}
                target="_blank"
                rel="noopener"
              >
                {t('workgroup.connect.fullScreen')}
              </Button>
            }
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** The Linux-only rows: verification method, security mode and the default login user. */
function linuxItems(
  resource: ProjectResource,
  own: Code,
  t: TFunction,
): { key: string; label: string; children: ReactNode }[] {
  // The gateway applies the cluster's command rules only when both switches are on.
  const secure = resource.safe.network_safe_mode === 1 && own.safe_mode === 1;
  return [
    {
      key: 'verify',
      label: t('workgroup.connect.verify.label'),
      children: (
        <>
          <div>{t('workgroup.connect.verify.value')}</div>
          <Typography.Text type="secondary">{t('workgroup.connect.verify.hint')}</Typography.Text>
        </>
      ),
    },
    {
      key: 'safe',
      label: t('workgroup.connect.safe.label'),
      children: (
        <Space size={8} wrap>
          <Tag color={secure ? 'green' : 'default'}>
            {t(secure ? 'workgroup.connect.safe.on' : 'workgroup.connect.safe.off')}
          </Tag>
          <Typography.Text type="secondary">
            {t(secure ? 'workgroup.connect.safe.onHint' : 'workgroup.connect.safe.offHint')}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'default-user',
      label: t('workgroup.connect.defaultUser'),
      children: <DefaultUserChoice resource={resource} />,
    },
  ];
}

/** The member's default login user, changed in place (the same call as Config). */
function DefaultUserChoice({ resource }: { resource: ProjectResource }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const mutation = useDefaultUsernameMutation(resource.project_id);
  if (resource.login_user.length === 0) {
    return <Typography.Text type="secondary">{t('workgroup.config.noUsers')}</Typography.Text>;
  }
  return (
    <Select
      aria-label={t('workgroup.connect.defaultUser')}
      className="pc-connect-default-user"
      // Without a choice the gateway logs in as the first login user granted: show that one.
      value={resource.default_username || resource.login_user[0]}
      placeholder={t('workgroup.config.usernamePlaceholder')}
      loading={mutation.isPending}
      disabled={mutation.isPending}
      options={resource.login_user.map((u) => ({ value: u, label: u }))}
      onChange={(username: string) =>
        mutation.mutate(
          { id: resource.id, username },
          {
            onSuccess: () => void message.success(t('messages.updateSuccess')),
            onError: (error) => void message.error(errorText(error)),
          },
        )
      }
    />
  );
}

/** A value with a copy button; a copy says so (spec 1 §8: copy notices). */
function Copyable({ text, code = false }: { text: string; code?: boolean }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Typography.Text
      copyable={{ text, onCopy: () => void message.success(t('messages.copySuccess')) }}
      code={code}
      className={code ? 'pc-connect-command' : 'pc-break-all'}
    >
      {text}
    </Typography.Text>
  );
}
