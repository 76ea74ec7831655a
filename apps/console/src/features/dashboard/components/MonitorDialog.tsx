/** The Monitor dialog of the dashboard's online sessions: the member, the resource, the view. */
import { lazy, Suspense, type ReactNode } from 'react';
import { Modal, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OnlineConnection } from '@portcullis/contract';

// xterm.js is fetched only when somebody watches a session.
const MonitorView = lazy(() => import('./MonitorView'));

export function MonitorDialog({
  session,
  onClose,
}: {
  session: OnlineConnection | null;
  onClose: () => void;
}): ReactNode {
  const { t } = useTranslation();
  return (
    <Modal
      open={session !== null}
      title={
        session
          ? t('dashboard.monitor.title', {
              name: session.account.name || session.account.account,
              resource: session.resource_name,
            })
          : null
      }
      onCancel={onClose}
      footer={null}
      width="min(1100px, 96vw)"
      destroyOnHidden
    >
      {session ? (
        <Suspense fallback={<Skeleton active />}>
          <MonitorView session={session} />
        </Suspense>
      ) : null}
    </Modal>
  );
}
