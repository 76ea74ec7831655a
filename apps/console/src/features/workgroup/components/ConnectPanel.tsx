/**
 * Connect, the native-client part (spec 1 §2.7 Connect panel): how to reach the resource through
 * the gateway with the member's own code: host, port, user name (the code) and the command line,
 * each copyable, and for a Linux server the web terminal (WebTerminal.tsx). Web RDP and the
 * verification choices come later; without a code the panel points to Manage Code.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Button, Descriptions, Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProjectResource } from '@portcullis/contract';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCurrentAccountQuery } from '../../../shared/session/session';
import { useCodesQuery } from '../api';
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
    >
      {resource ? (
        <ConnectInfo resource={resource} onManage={() => panel.open(MANAGE_CODE_PANEL)} />
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
  const codes = useCodesQuery(resource.id, 1, true);
  if (codes.isPending) return <Spin aria-label={t('common.state.loading')} />;
  const now = Math.floor(Date.now() / 1000);
  const own = (codes.data?.objects ?? []).find(
    (c) => c.type === 'normal' && c.account.id === me && !c.masked && !isExpired(c, now),
  );
  if (!own) {
    return (
      <Empty description={t('workgroup.connect.noCode')}>
        <Button type="primary" onClick={onManage}>
          {t('workgroup.resources.manageCode')}
        </Button>
      </Empty>
    );
  }
  const copy = (text: string): ReactNode => (
    <Typography.Text copyable={{ text }} className="pc-break-all">
      {text}
    </Typography.Text>
  );
  return (
    <>
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          ...(own.connect
            ? [
                {
                  key: 'host',
                  label: t('workgroup.connect.host'),
                  children: copy(own.connect.host),
                },
                {
                  key: 'port',
                  label: t('workgroup.connect.port'),
                  children: copy(String(own.connect.port)),
                },
              ]
            : []),
          { key: 'user', label: t('workgroup.connect.username'), children: copy(own.code) },
          ...(own.connect?.command
            ? [
                {
                  key: 'command',
                  label: t('workgroup.connect.command'),
                  children: copy(own.connect.command),
                },
              ]
            : []),
        ]}
      />
      <Typography.Paragraph type="secondary" className="pc-workgroup-connect__note">
        {t(`workgroup.connect.note.${resource.os}`)}
      </Typography.Paragraph>
      {resource.os === 'linux' ? (
        <Suspense fallback={<Spin aria-label={t('common.state.loading')} />}>
          <WebTerminal projectResourceId={resource.id} />
        </Suspense>
      ) : null}
    </>
  );
}
